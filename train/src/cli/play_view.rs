//! The plain-text screens of `bones play`: the status shown at each of the
//! person's decisions (built from their seat's view only, so nothing hidden is
//! shown), one line per action as it happens, and the hand/round and game
//! summaries. Seats are named relative to the person (Texas 42: You, Left,
//! Partner, Right) or by number (Doubles: You, Seat 1, …).

use bones_env::doubles::{decode, played_domino, End, Move, DRAW};
use bones_env::texas42::actions::{DOUBLES, FOLLOW_ME, NAMES_42, NEL_O, PASS, SEVENS, TRUMP_BLANKS};
use bones_env::texas42::{bid_value, Hand, Outcome, Phase};
use bones_env::{Action, ActionMask, Domino, DominoSet, Doubles, DoublesState, Game, Scoring, Texas42, Texas42State};
use bones_env::{DoublesView, GameState, Texas42View};
use std::fmt::Write;

/// What the game loop of `bones play` needs from a game's screen.
pub trait Screen {
    /// The game.
    type Game: Game;
    /// The game (rules, action names).
    fn game(&self) -> &Self::Game;
    /// The person's seat.
    fn human(&self) -> usize;
    /// A seat's name as the person sees it.
    fn seat_name(&self, seat: usize) -> String;
    /// The status before one of the person's decisions, ending with the legal moves.
    fn status(&self, s: &StateOf<Self>) -> String;
    /// The prompt (no newline).
    fn prompt(&self, s: &StateOf<Self>) -> &'static str;
    /// Lines telling what `seat` just did (`before` → `after` by action `a`),
    /// with a trick, hand or round summary when one ended.
    fn event(&self, before: &StateOf<Self>, after: &StateOf<Self>, seat: usize, a: Action) -> String;
    /// The closing summary: the game's result, or where it stopped.
    fn finished(&self, s: &StateOf<Self>) -> String;
    /// Reads the person's input (trimmed, lower case) as a legal action, or says why not.
    fn read(&self, s: &StateOf<Self>, text: &str) -> Result<Action, String>;
}

/// The state type of a screen's game.
pub type StateOf<S> = <<S as Screen>::Game as Game>::State;

/// The legal actions by canonical name: the plays (ids below `plays_end`) high
/// domino first, like the hand, then the others in id order.
pub fn legal_list<G: Game>(game: &G, legal: ActionMask, plays_end: Action) -> String {
    let mut ids: Vec<Action> = legal.iter().filter(|&a| a < plays_end).collect();
    ids.reverse();
    ids.extend(legal.iter().filter(|&a| a >= plays_end));
    ids.iter().map(|&a| game.action_name(a)).collect::<Vec<_>>().join(" ")
}

/// Input made safe to echo: printable characters only, and not too long.
pub fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(24).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().count() > 24 {
        s.push('…');
    }
    s
}

/// Parses `text` with the game's action names and checks it is legal now.
pub fn read_action<G: Game>(game: &G, legal: ActionMask, plays_end: Action, text: &str) -> Result<Action, String> {
    let names = legal_list(game, legal, plays_end);
    match game.parse_action(text) {
        Ok(a) if legal.contains(a) => Ok(a),
        Ok(_) => Err(format!("`{}` is not legal now; legal: {names}", shown(text))),
        Err(_)
            if looks_like_domino(text) && text.split('@').next().and_then(|d| d.parse::<Domino>().ok()).is_none() =>
        {
            Err(format!("`{}` is not a domino (pips run 0 to 6, like `6-4`); legal: {names}", shown(text)))
        }
        Err(_) => {
            Err(format!("`{}` is not a move; legal: {names} (`help` shows them again, `quit` stops)", shown(text)))
        }
    }
}

/// `N-M`, optionally `@E` (any digits): meant as a domino.
fn looks_like_domino(text: &str) -> bool {
    let dom = text.split('@').next().unwrap_or("");
    match dom.split_once('-') {
        Some((a, b)) => {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Dominoes high first (`6-6 6-4 … 1-0`), or `none`.
fn dominoes(set: DominoSet) -> String {
    let mut v: Vec<String> = set.iter().map(|d| d.to_string()).collect();
    if v.is_empty() {
        return "none".into();
    }
    v.reverse();
    v.join(" ")
}

/// `You pass` / `Left passes`.
fn verb(who: &str, you: &str, other: &str) -> String {
    format!("{who} {}", if who == "You" { you } else { other })
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

// ---------------------------------------------------------------------------
// Texas 42

/// Texas 42 as the person at seat `human` sees it.
pub struct Texas42Screen {
    /// The game (rules).
    pub game: Texas42,
    /// The person's seat.
    pub human: u8,
}

const RELATIVE: [&str; 4] = ["You", "Left", "Partner", "Right"];

impl Texas42Screen {
    fn who(&self, seat: u8) -> &'static str {
        RELATIVE[((seat + 4 - self.human % 4) % 4) as usize]
    }
    /// `Us 3, Them 1` from per-team figures.
    fn teams<T: std::fmt::Display>(&self, v: [T; 2]) -> String {
        let me = (self.human % 2) as usize;
        format!("Us {}, Them {}", v[me], v[1 - me])
    }
    fn team(&self, team: usize) -> &'static str {
        if team == (self.human % 2) as usize {
            "Us"
        } else {
            "Them"
        }
    }
    fn points_scoring(&self) -> bool {
        self.game.rules.scoring == Scoring::Points
    }
    fn totals_line(&self, totals: [u32; 2]) -> String {
        let unit = if self.points_scoring() { "Game points" } else { "Marks" };
        format!("{unit}: {} (first to {})", self.teams(totals), self.game.rules.target)
    }
    fn bids_line(&self, dealer: u8, bids: [Option<Action>; 4]) -> String {
        let mut parts = Vec::new();
        for i in 1..=4 {
            let s = (dealer + i) % 4;
            match bids[s as usize] {
                Some(b) => parts.push(format!("{} {}", self.who(s), NAMES_42[b])),
                None => break,
            }
        }
        if parts.is_empty() {
            "Bids: none yet".into()
        } else {
            format!("Bids: {}", parts.join(", "))
        }
    }
    fn trick_plays(&self, v: &Texas42View, t: usize) -> String {
        let trick = &v.tricks[t];
        let plays: Vec<String> =
            trick.played().iter().enumerate().map(|(i, d)| format!("{} {d}", self.who(v.seat_of_play(t, i)))).collect();
        plays.join(", ")
    }
    /// What the bidders need, for the points line.
    fn need(&self, bidder: u8, high_bid: Action, declaration: Action) -> String {
        let side = self.team(bidder as usize % 2);
        match declaration {
            NEL_O => format!("{side} must take no trick"),
            SEVENS => format!("{side} must take every trick"),
            _ => match bid_value(high_bid) {
                v @ 0..42 => format!("{side} need {v}"),
                _ => format!("{side} must take every trick"),
            },
        }
    }
    fn summary(&self, h: &Hand, number: u32, totals: [u32; 2]) -> String {
        let mut s = String::new();
        match h.outcome {
            Some(Outcome::Redeal) | None => {
                let _ = writeln!(s, "== Hand {number} is thrown in: everyone passed; the next shaker deals again.");
            }
            Some(Outcome::Settled { made }) => {
                let bid = NAMES_42[h.high_bid as Action];
                let who = self.who(h.bidder);
                let how = match (made, who) {
                    (true, _) => "made it",
                    (false, "You") => "were set",
                    (false, _) => "was set",
                };
                let early = if h.trick < 7 {
                    format!(", decided after {}", plural(h.trick as u32, "trick", "tricks"))
                } else {
                    String::new()
                };
                let _ = writeln!(
                    s,
                    "== Hand {number} over: {who} bid {bid} ({}) and {how}{early}. Points: {}.",
                    declaration_text(h.declaration as Action),
                    self.teams(h.points)
                );
                let award = h.award();
                let unit = if self.points_scoring() { ("game point", "game points") } else { ("mark", "marks") };
                let gains: Vec<String> = (0..2)
                    .filter(|&t| award[t] > 0)
                    .map(|t| format!("{} +{}", self.team(t), plural(award[t], unit.0, unit.1)))
                    .collect();
                if !gains.is_empty() {
                    let _ = writeln!(s, "   {}.", gains.join(", "));
                }
            }
        }
        let _ = writeln!(s, "   {}\n", self.totals_line(totals));
        s
    }
}

/// A declaration in words.
fn declaration_text(d: Action) -> String {
    match d {
        TRUMP_BLANKS..DOUBLES => format!("{} are trump", NAMES_42[d]),
        DOUBLES => "doubles are trump".into(),
        FOLLOW_ME => "follow-me, no trump".into(),
        NEL_O => "nel-o: the bidder must lose every trick".into(),
        SEVENS => "sevens: closest to 7 pips wins".into(),
        _ => NAMES_42.get(d).copied().unwrap_or("?").into(),
    }
}

impl Screen for Texas42Screen {
    type Game = Texas42;
    fn game(&self) -> &Texas42 {
        &self.game
    }
    fn human(&self) -> usize {
        self.human as usize
    }
    fn seat_name(&self, seat: usize) -> String {
        self.who(seat as u8).into()
    }

    fn status(&self, state: &Texas42State) -> String {
        let v = state.view(self.human as usize);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\n--- Hand {} ({} shook). {} ---",
            v.hands_played + 1,
            self.who(v.dealer),
            self.totals_line(v.totals)
        );
        let _ = writeln!(s, "{}", self.bids_line(v.dealer, v.bids));
        match (v.phase, v.bidder, v.declaration) {
            (Phase::Declaring, Some(b), _) => {
                let _ = writeln!(s, "{} won the bid with {}: name the trump.", self.who(b), NAMES_42[v.high_bid]);
            }
            (Phase::Playing, Some(b), Some(d)) => {
                let by = match v.declarer {
                    Some(x) if x != b => format!(", declared by {}", self.who(x)),
                    _ => String::new(),
                };
                let out = v.sitting_out.map(|x| format!("; {} sits out", self.who(x))).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "Contract: {} bid {}{by}; {}{out}",
                    self.who(b),
                    NAMES_42[v.high_bid],
                    declaration_text(d)
                );
                let _ = writeln!(s, "Points this hand: {} ({})", self.teams(v.points), self.need(b, v.high_bid, d));
                let t = v.trick as usize;
                if t < 7 {
                    if v.tricks[t].len == 0 {
                        if t > 0 {
                            let last = &v.tricks[t - 1];
                            let _ = writeln!(
                                s,
                                "Last trick: {}; {} took {}",
                                self.trick_plays(&v, t - 1),
                                self.who(last.winner),
                                plural(last.points as u32, "point", "points")
                            );
                        }
                        let _ = writeln!(s, "Trick {} of 7: you lead", t + 1);
                    } else {
                        let _ = writeln!(s, "Trick {} of 7: {}", t + 1, self.trick_plays(&v, t));
                    }
                }
            }
            _ => {}
        }
        let _ = writeln!(s, "Your hand: {}", dominoes(v.hand));
        let _ = writeln!(s, "Legal: {}", legal_list(&self.game, v.legal, PASS));
        s
    }

    fn prompt(&self, state: &Texas42State) -> &'static str {
        match state.hand().phase {
            Phase::Bidding => "Your bid> ",
            Phase::Declaring => "Your trump> ",
            _ => "Your play> ",
        }
    }

    fn event(&self, before: &Texas42State, after: &Texas42State, seat: usize, a: Action) -> String {
        let h0 = before.hand();
        // The hand the action was taken in (a game deals the next one at once).
        let h = after.previous_hand().unwrap_or(after.hand());
        let who = self.who(seat as u8);
        let mut s = String::new();
        match h0.phase {
            Phase::Bidding => {
                if a == PASS {
                    let _ = writeln!(s, "{}.", verb(who, "pass", "passes"));
                } else {
                    let _ = writeln!(s, "{} {}.", verb(who, "bid", "bids"), NAMES_42[a]);
                }
                if h.phase == Phase::Declaring {
                    let _ = write!(s, "{} won the bid with {}", self.who(h.bidder), NAMES_42[h.high_bid as Action]);
                    if h.declarer != h.bidder {
                        let _ = write!(s, "; {} names the trump", self.who(h.declarer));
                    }
                    s.push_str(".\n");
                }
            }
            Phase::Declaring => {
                let _ = writeln!(s, "{}: {}.", verb(who, "declare", "declares"), declaration_text(a));
                if let Some(out) = h.sitting_out() {
                    let _ = writeln!(s, "{} this hand.", verb(self.who(out), "sit out", "sits out"));
                }
            }
            Phase::Playing => {
                let t = h0.trick as usize;
                let lead = h0.tricks[t].len == 0;
                let what = NAMES_42.get(a).copied().unwrap_or("?");
                let _ = writeln!(
                    s,
                    "{} {what}.",
                    if lead { verb(who, "lead", "leads") } else { verb(who, "play", "plays") }
                );
                if (h.trick as usize) > t {
                    let tr = &h.tricks[t];
                    let _ = writeln!(
                        s,
                        "{} the trick ({}). Points this hand: {}.",
                        verb(self.who(tr.winner), "take", "takes"),
                        plural(tr.points as u32, "point", "points"),
                        self.teams(h.points)
                    );
                }
            }
            Phase::Done => {}
        }
        if h.is_done() && !h0.is_done() {
            s.push_str(&self.summary(h, before.hands_played() + 1, after.totals()));
        }
        s
    }

    fn finished(&self, state: &Texas42State) -> String {
        let hands = plural(state.hands_played(), "hand", "hands");
        let unit = if self.points_scoring() { "game points" } else { "marks" };
        match state.winner() {
            Some(w) => {
                let who = if w as usize == (self.human % 2) as usize {
                    "You and Partner win!".to_string()
                } else {
                    "Left and Right win.".to_string()
                };
                format!("== Game over after {hands}: {} {unit}. {who}\n", self.teams(state.totals()))
            }
            None => format!("== Game stopped after {hands}: {} {unit}.\n", self.teams(state.totals())),
        }
    }

    fn read(&self, state: &Texas42State, text: &str) -> Result<Action, String> {
        read_action(&self.game, state.view(self.human as usize).legal, PASS, text)
    }
}

// ---------------------------------------------------------------------------
// Doubles

/// Doubles as the person at seat `human` sees it.
pub struct DoublesScreen {
    /// The game (rules, players).
    pub game: Doubles,
    /// The person's seat.
    pub human: u8,
}

impl DoublesScreen {
    fn who(&self, seat: u8) -> String {
        if seat == self.human {
            "You".into()
        } else {
            format!("Seat {seat}")
        }
    }
    fn players(&self) -> u8 {
        self.game.rules.players
    }
    fn per_seat<T: std::fmt::Display>(&self, v: &[T]) -> String {
        (0..self.players()).map(|s| format!("{} {}", self.who(s), v[s as usize])).collect::<Vec<_>>().join(", ")
    }
    fn totals_line(&self, totals: [u32; 4]) -> String {
        format!("Scores: {} (first to {})", self.per_seat(&totals), self.game.rules.target)
    }
    fn board_lines(&self, v: &DoublesView) -> String {
        let b = &v.board;
        if !b.is_open() {
            return "Board: empty; the highest double opens\n".into();
        }
        let mut placed: Vec<Domino> = b.placed.iter().collect();
        placed.sort_by_key(|d| v.play_index[d.index()]);
        let list: Vec<String> = placed.iter().map(|d| d.to_string()).collect();
        let mut ends = Vec::new();
        let mut locked = Vec::new();
        for n in (0..7u8).rev() {
            for _ in 0..b.open[n as usize] {
                ends.push(n.to_string());
            }
            if b.open[n as usize] > 0 && !b.is_unlocked(n) {
                locked.push(n.to_string());
            }
        }
        let mut s = format!("Board ({} placed, in play order): {}\n", placed.len(), list.join(" "));
        let _ = write!(s, "Open ends: {}", ends.join(" "));
        if !locked.is_empty() {
            let _ = write!(s, "; locked (only their double fits): {}", locked.join(" "));
        }
        s.push('\n');
        s
    }
    fn summary(&self, r: &bones_env::doubles::Round, number: u32, totals: [u32; 4]) -> String {
        let mut s = String::new();
        let how = match (r.end, r.winner) {
            (Some(End::Domino), Some(w)) => format!("{} played the last domino", self.who(w)),
            (Some(End::Blocked), Some(w)) => format!("blocked; {} has the fewest pips", self.who(w)),
            _ => "blocked with a tie for the fewest pips".to_string(),
        };
        let _ = writeln!(s, "== Round {number} over: {how}.");
        let pips = r.pips();
        let left: Vec<String> = (0..self.players())
            .map(|p| format!("{} {} ({} pips)", self.who(p), dominoes(r.hands[p as usize]), pips[p as usize]))
            .collect();
        let _ = writeln!(s, "   Left in hands: {}", left.join("; "));
        let gains: Vec<String> = (0..self.players())
            .filter(|&p| r.scores[p as usize] > 0)
            .map(|p| format!("{} +{}", self.who(p), r.scores[p as usize]))
            .collect();
        let _ = writeln!(
            s,
            "   Round score: {}",
            if gains.is_empty() { "no one scores".to_string() } else { gains.join(", ") }
        );
        let _ = writeln!(s, "   {}\n", self.totals_line(totals));
        s
    }
}

impl Screen for DoublesScreen {
    type Game = Doubles;
    fn game(&self) -> &Doubles {
        &self.game
    }
    fn human(&self) -> usize {
        self.human as usize
    }
    fn seat_name(&self, seat: usize) -> String {
        self.who(seat as u8)
    }

    fn status(&self, state: &DoublesState) -> String {
        let v = state.view(self.human as usize);
        let mut s = String::new();
        let _ = writeln!(s, "\n--- Round {}. {} ---", state.rounds_played() + 1, self.totals_line(v.totals));
        s.push_str(&self.board_lines(&v));
        let others: Vec<String> = (0..self.players())
            .filter(|&p| p != self.human)
            .map(|p| format!("{} holds {}", self.who(p), v.hand_sizes[p as usize]))
            .collect();
        let _ = writeln!(s, "{}; boneyard: {}", others.join(", "), v.boneyard_len);
        if let Some(d) = v.drawn {
            let _ = writeln!(s, "You drew {d}: play it or pass.");
        }
        let _ = writeln!(s, "Your hand: {}", dominoes(v.hand));
        let _ = writeln!(s, "Legal: {}", legal_list(&self.game, v.legal, DRAW));
        s
    }

    fn prompt(&self, _: &DoublesState) -> &'static str {
        "Your move> "
    }

    fn event(&self, before: &DoublesState, after: &DoublesState, seat: usize, a: Action) -> String {
        let r0 = before.round();
        let r = after.previous_round().unwrap_or(after.round());
        let who = self.who(seat as u8);
        let mut s = String::new();
        match decode(a) {
            Some(Move::Open(d)) => {
                let _ = writeln!(s, "{} with {d}.", verb(&who, "open", "opens"));
            }
            Some(Move::Attach(d, e)) => {
                let _ = writeln!(s, "{} {d} on a {e}.", verb(&who, "play", "plays"));
            }
            Some(Move::Draw) => match r.drawn {
                Some(d) if seat == self.human as usize => {
                    let _ = writeln!(s, "You draw {d}.");
                }
                _ => {
                    let _ = writeln!(s, "{} ({} left in the boneyard).", verb(&who, "draw", "draws"), r.boneyard_len());
                }
            },
            Some(Move::Pass) | None => {
                let _ = writeln!(s, "{}.", verb(&who, "pass", "passes"));
            }
        }
        if r.is_done() && !r0.is_done() {
            s.push_str(&self.summary(r, before.rounds_played() + 1, after.totals()));
        }
        s
    }

    fn finished(&self, state: &DoublesState) -> String {
        let rounds = plural(state.rounds_played(), "round", "rounds");
        let totals = state.totals();
        match state.game_winner() {
            Some(w) if w == self.human => {
                format!(
                    "== Game over after {rounds}: You win with {}! {}\n",
                    totals[w as usize],
                    self.totals_line(totals)
                )
            }
            Some(w) => format!(
                "== Game over after {rounds}: {} wins with {}. {}\n",
                self.who(w),
                totals[w as usize],
                self.totals_line(totals)
            ),
            None => format!("== Game stopped after {rounds}. {}\n", self.totals_line(totals)),
        }
    }

    /// Besides the action names, a bare domino (`6-3`) is accepted when it fits
    /// only one open end.
    fn read(&self, state: &DoublesState, text: &str) -> Result<Action, String> {
        let legal = state.view(self.human as usize).legal;
        if let Ok(a) = self.game.parse_action(text) {
            if legal.contains(a) {
                return Ok(a);
            }
        }
        if let Ok(d) = text.parse::<Domino>() {
            let fits: Vec<Action> = legal.iter().filter(|&a| played_domino(a) == Some(d)).collect();
            return match fits[..] {
                [a] => Ok(a),
                [] => Err(format!("`{d}` is not legal now; legal: {}", legal_list(&self.game, legal, DRAW))),
                _ => Err(format!(
                    "`{d}` fits more than one end: say which, {}",
                    fits.iter().map(|&a| self.game.action_name(a)).collect::<Vec<_>>().join(" or ")
                )),
            };
        }
        read_action(&self.game, legal, DRAW, text)
    }
}
