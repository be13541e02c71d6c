//! The game of Doubles ([`Doubles`]: the rules) and its state
//! ([`DoublesState`]: a round, or a whole game of rounds), played as a
//! [`Series`] of deals; the `highest` baseline.

use super::actions::played_domino;
use super::facts::SeatOfRound;
use super::observe;
use super::play::{hand_size, highest_double, End, Round};
use super::resample;
use super::view::DoublesView;
use crate::action::ActionMask;
use crate::deal::{deal_hands, shuffle};
use crate::domino::{Domino, DominoSet};
use crate::game::{Action, DealOutcome, DominoLedger, Episode, Game, GameState};
use crate::rules::DoublesRules;
use crate::series::{DealGame, Series};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Why explicit hands and boneyard do not make a Doubles deal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The number of hands is not the number of players.
    #[error("{players} players need {players} hands, got {got}")]
    WrongSeats {
        /// Players under the rules.
        players: u8,
        /// Hands given.
        got: usize,
    },
    /// A domino is in two hands, twice in the boneyard, or in a hand and the boneyard.
    #[error("domino {0} is dealt more than once")]
    Duplicate(Domino),
    /// A hand of the wrong size.
    #[error("seat {seat} holds {got} dominoes; with {players} players each hand holds {expected}")]
    WrongHandSize {
        /// The seat.
        seat: usize,
        /// Dominoes it holds.
        got: usize,
        /// Dominoes it should hold.
        expected: usize,
        /// Players.
        players: u8,
    },
    /// Hands and boneyard together are not the 28 dominoes.
    #[error("the hands and boneyard hold {got} distinct dominoes, not all 28 (missing: {missing:?})")]
    NotAllDominoes {
        /// Distinct dominoes given.
        got: usize,
        /// Dominoes not dealt anywhere.
        missing: DominoSet,
    },
    /// No one holds a double: that deal would be thrown in.
    #[error("no double among the hands: such a deal is thrown in and redealt, so a record must not hold it")]
    NoDouble,
}

/// Doubles under a set of rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Doubles {
    /// Rule options (players, blocked-tie scoring, target).
    pub rules: DoublesRules,
}

impl Doubles {
    /// Doubles under `rules`.
    pub fn new(rules: DoublesRules) -> Doubles {
        Doubles { rules }
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players
    }

    /// A round episode from explicit hands (one per player) and the boneyard in
    /// draw order; an error when they are not a valid deal.
    pub fn from_deal(&self, hands: &[DominoSet], boneyard: &[Domino]) -> Result<DoublesState, DealError> {
        let players = self.rules.players;
        if hands.len() != players as usize {
            return Err(DealError::WrongSeats { players, got: hands.len() });
        }
        let mut seen = DominoSet::EMPTY;
        for d in hands.iter().flat_map(|h| h.iter()).chain(boneyard.iter().copied()) {
            if seen.contains(d) {
                return Err(DealError::Duplicate(d));
            }
            seen.insert(d);
        }
        let k = hand_size(players);
        for (seat, h) in hands.iter().enumerate() {
            if h.len() != k {
                return Err(DealError::WrongHandSize { seat, got: h.len(), expected: k, players });
            }
        }
        if seen != DominoSet::FULL {
            return Err(DealError::NotAllDominoes { got: seen.len(), missing: !seen });
        }
        if highest_double(hands).is_none() {
            return Err(DealError::NoDouble);
        }
        let mut h4 = [DominoSet::EMPTY; 4];
        h4[..hands.len()].copy_from_slice(hands);
        let mut st = self.new_state(0, Episode::Hand);
        st.deal = Round::new(players, self.rules.blocked_tie, h4, boneyard);
        Ok(st)
    }

    /// Deals the next round from `rng`: the seeded shuffle of docs/rules.md ("The shake"), seat s gets
    /// `deck[k*s..k*s+k]`, the boneyard is the rest; redealt from the same stream
    /// while no hand holds a double.
    pub fn deal_round(&self, rng: &mut ChaCha8Rng) -> Round {
        let players = self.rules.players as usize;
        let k = hand_size(self.rules.players);
        loop {
            let deck = shuffle(rng);
            let hands = deal_hands(&deck, players, k);
            if highest_double(&hands[..players]).is_some() {
                return Round::new(self.rules.players, self.rules.blocked_tie, hands, &deck[k * players..]);
            }
        }
    }
}

/// A Doubles round in progress, or a whole game of rounds.
pub type DoublesState = Series<Doubles>;

impl DealGame for Doubles {
    type Deal = Round;
    type View = DoublesView;
    crate::series::deal_methods!(Round);
    fn next_deal(&self, rng: &mut ChaCha8Rng, _last: &Round) -> Round {
        self.deal_round(rng)
    }
    /// Each seat's round score minus the mean of all players' round scores.
    fn deal_rewards(&self, r: &Round) -> [f32; 4] {
        let n = self.rules.players as usize;
        let s = &r.scores[..n];
        let mean = s.iter().sum::<u32>() as f32 / n as f32;
        let mut rewards = [0.0; 4];
        for (r, &s) in rewards.iter_mut().zip(s) {
            *r = s as f32 - mean;
        }
        rewards
    }
    fn deal_scores(&self, r: &Round) -> [u32; 4] {
        let n = self.rules.players as usize;
        let mut scores = [0; 4];
        scores[..n].copy_from_slice(&r.scores[..n]);
        scores
    }
    /// The single leader once at or past the target (a tie plays on).
    fn game_winner(&self, totals: &[u32; 4], _last: &Round) -> Option<usize> {
        let n = self.rules.players as usize;
        let high = *totals[..n].iter().max().expect("players");
        let leaders = totals[..n].iter().filter(|&&t| t == high).count();
        (high >= self.rules.target && leaders == 1)
            .then(|| totals[..n].iter().position(|&t| t == high).expect("leader"))
    }
    fn win_rewards(&self, w: usize) -> [f32; 4] {
        let n = self.rules.players as usize;
        let mut rewards = [0.0; 4];
        for (i, r) in rewards[..n].iter_mut().enumerate() {
            *r = if i == w { 1.0 } else { -1.0 / (n - 1) as f32 };
        }
        rewards
    }
    fn outcome(&self, r: &Round) -> DealOutcome {
        let mut outcome = DealOutcome { score: [0.0; 4], win: [0.0; 4], points: None, contract: None };
        for s in 0..r.players as usize {
            outcome.score[s] = r.scores[s] as f64;
            outcome.win[s] = if r.winner == Some(s as u8) { 1.0 } else { 0.0 };
        }
        outcome
    }
    /// Written from the seat's public facts read off the round: what
    /// `state.view(seat).observe(out)` writes, without building the view.
    fn observe(state: &DoublesState, seat: usize, out: &mut [f32]) {
        observe::write(&state.seat_facts(seat), out)
    }
    fn view(state: &DoublesState, seat: usize) -> DoublesView {
        DoublesView::from_facts(&state.seat_facts(seat))
    }
    /// The hands, the board, the boneyard left in draw order.
    fn dominoes(r: &Round) -> Option<DominoLedger> {
        Some(DominoLedger {
            hands: r.hands,
            played: r.board.placed,
            boneyard: r.boneyard().to_vec(),
            set: DominoSet::FULL,
        })
    }
    /// The other hands and the boneyard dealt again where the new deal fits
    /// everything public.
    fn resample_deal(deal: &Round, seat: usize, seed: u64) -> Option<Round> {
        resample::resample(deal, seat, seed)
    }
}

impl Series<Doubles> {
    /// The current round.
    pub fn round(&self) -> &Round {
        &self.deal
    }
    /// The round that finished on the last action of a game episode, when a new
    /// one was dealt after it.
    pub fn previous_round(&self) -> Option<&Round> {
        self.previous.as_ref()
    }
    /// Game totals per seat (the finished rounds' scores added up).
    pub fn totals(&self) -> [u32; 4] {
        self.totals
    }
    /// The seat that won the game (game episodes, once over).
    pub fn game_winner(&self) -> Option<u8> {
        self.winner.map(|w| w as u8)
    }
    /// Rounds finished so far in this episode.
    pub fn rounds_played(&self) -> u32 {
        self.deals_played
    }
    /// A copy of this state with the current round replaced, for determinization
    /// (search agents sampling the hidden hands and boneyard consistent with an
    /// observation) and tests. The caller keeps the round consistent with the rules.
    /// The round's cached legal mask is recomputed from its fields.
    pub fn with_round(&self, mut round: Round) -> DoublesState {
        round.refresh();
        DoublesState { deal: round, ..self.clone() }
    }
    /// The current round's hands (unused seats empty).
    pub fn hands(&self) -> &[DominoSet; 4] {
        &self.deal.hands
    }
    /// The current round's boneyard left, in draw order.
    pub fn boneyard(&self) -> &[Domino] {
        self.deal.boneyard()
    }
    /// The current round's scores (set when it is over).
    pub fn scores(&self) -> [u32; 4] {
        self.deal.scores
    }
    /// How the current round ended.
    pub fn end(&self) -> Option<End> {
        self.deal.end
    }
    /// The seat that won the current round (`None` while playing, or for a tied block).
    pub fn round_winner(&self) -> Option<u8> {
        self.deal.winner
    }

    /// The public facts of `seat` (its legal actions only when it is to move).
    #[inline]
    fn seat_facts(&self, seat: usize) -> SeatOfRound<'_> {
        let f = SeatOfRound::new(&self.deal, self.game.rules, seat as u8, self.totals);
        if self.current_seat() == Some(seat) {
            f
        } else {
            f.not_acting()
        }
    }
}

/// The `highest` baseline: the legal play with the highest pip total (ties: the
/// lowest action id); `draw` or `pass` when that is the only option. Panics when
/// the state is terminal.
pub fn highest_pip_action(state: &DoublesState) -> Action {
    highest_pip_in(state.legal_mask()).expect("a legal action")
}

/// [`highest_pip_action`] over a legal mask (`None` when the mask is empty).
pub fn highest_pip_in(mask: ActionMask) -> Option<Action> {
    let mut best: Option<(Action, u8)> = None;
    for a in mask.iter() {
        if let Some(d) = played_domino(a) {
            if best.is_none_or(|(_, p)| d.pips() > p) {
                best = Some((a, d.pips()));
            }
        }
    }
    best.map(|(a, _)| a).or_else(|| mask.iter().next())
}
