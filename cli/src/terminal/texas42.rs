//! The Texas 42 screen of `bones play`: seats named relative to the person
//! (You, Left, Partner, Right).

use super::{dominoes, legal_list, plural, read_action, verb, Screen};
use bones_env::texas42::actions::{DOUBLES, FOLLOW_ME, NAMES_42, NEL_O, PASS, SEVENS, TRUMP_BLANKS};
use bones_env::texas42::{bid_value, Hand, Outcome, Phase};
use bones_env::{Action, GameState, Scoring, Texas42, Texas42State, Texas42View};
use std::fmt::Write;

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
