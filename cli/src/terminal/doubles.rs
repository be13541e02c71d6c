//! The Doubles screen of `bones play`: seats named by number (You, Seat 1, …).

use super::{dominoes, legal_list, plural, read_action, verb, Screen};
use bones_env::doubles::{decode, played_domino, End, Move, DRAW};
use bones_env::{Action, Domino, Doubles, DoublesState, DoublesView, Game, GameState};
use std::fmt::Write;

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
