//! One mechanism for a game played as a series of deals (Texas 42 hands,
//! Doubles rounds): [`Series`] is the state of one deal, or of a whole game of
//! deals to the target, for every game that describes its deals with
//! [`DealGame`]. It keeps the game totals, the rewards of the last action, the
//! episode's end and winner, and the deal that just finished; the game says
//! how one deal is played and scored.

use crate::action::{ActionMask, IllegalAction};
use crate::domino::DominoSet;
use crate::game::{Action, DealOutcome, DominoLedger, Episode, GameState};
use crate::view::SeatView;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A game whose episodes are one deal or a series of deals to a target.
pub trait DealGame: Copy + std::fmt::Debug + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// One deal: the allocation-free state of a hand or round.
    type Deal: Copy + std::fmt::Debug + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// The seat to act in a deal that is not over.
    fn to_move(deal: &Self::Deal) -> usize;
    /// The legal actions of a deal.
    fn legal(deal: &Self::Deal) -> ActionMask;
    /// Applies a legal action to a deal (unchanged on error).
    fn apply(deal: &mut Self::Deal, a: Action) -> Result<(), IllegalAction>;
    /// The deal is over.
    fn is_over(deal: &Self::Deal) -> bool;
    /// Every seat's hand in a deal (absent seats empty).
    fn hands(deal: &Self::Deal) -> [DominoSet; 4];
    /// The next deal of a game after `last`, from the game's random stream.
    fn next_deal(&self, rng: &mut ChaCha8Rng, last: &Self::Deal) -> Self::Deal;
    /// The rewards of a finished deal in a one-deal episode (zero-sum).
    fn deal_rewards(&self, deal: &Self::Deal) -> [f32; 4];
    /// What a finished deal adds to each side's game total.
    fn deal_scores(&self, deal: &Self::Deal) -> [u32; 4];
    /// The side that has won the game with these totals after `last`, if any.
    fn game_winner(&self, totals: &[u32; 4], last: &Self::Deal) -> Option<usize>;
    /// The rewards of a won game (zero-sum).
    fn win_rewards(&self, winner: usize) -> [f32; 4];
    /// How a finished deal came out, per side.
    fn outcome(&self, deal: &Self::Deal) -> DealOutcome;
    /// What one seat may know of a state.
    type View: SeatView;
    /// The view of `seat`.
    fn view(state: &Series<Self>, seat: usize) -> Self::View;
    /// Writes `seat`'s observation (equal to its view's).
    fn observe(state: &Series<Self>, seat: usize, out: &mut [f32]);
    /// Where every domino of a deal is ([`GameState::dominoes`]; none by default).
    fn dominoes(deal: &Self::Deal) -> Option<DominoLedger> {
        let _ = deal;
        None
    }
    /// A deal `seat` cannot tell from `deal`: the state of
    /// [`GameState::resample_hidden`] holds it in place of the current deal
    /// (none by default).
    fn resample_deal(deal: &Self::Deal, seat: usize, seed: u64) -> Option<Self::Deal> {
        let _ = (deal, seat, seed);
        None
    }
}

/// Writes, in an `impl DealGame`, the methods on one deal ([`DealGame::to_move`],
/// `legal`, `apply`, `is_over`, `hands`) for a deal type with the API every
/// game's deal has: the fields `to_move` (a `u8` seat) and `hands`, and the
/// methods `legal_mask`, `apply` and `is_done`.
macro_rules! deal_methods {
    ($deal:ty) => {
        #[inline]
        fn to_move(deal: &$deal) -> usize {
            deal.to_move as usize
        }
        #[inline]
        fn legal(deal: &$deal) -> $crate::action::ActionMask {
            deal.legal_mask()
        }
        #[inline]
        fn apply(deal: &mut $deal, a: $crate::action::Action) -> Result<(), $crate::action::IllegalAction> {
            deal.apply(a)
        }
        #[inline]
        fn is_over(deal: &$deal) -> bool {
            deal.is_done()
        }
        fn hands(deal: &$deal) -> [$crate::domino::DominoSet; 4] {
            deal.hands
        }
    };
}
pub(crate) use deal_methods;

/// One deal in progress, or a whole game of deals. It serialises with serde
/// (the random stream of later deals included), which is how [`crate::Env`]
/// saves and restores.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Series<G: DealGame> {
    pub(crate) game: G,
    pub(crate) deal: G::Deal,
    pub(crate) episode: Episode,
    pub(crate) totals: [u32; 4],
    #[serde(with = "crate::deal::rng_serde")]
    pub(crate) rng: ChaCha8Rng,
    pub(crate) winner: Option<usize>,
    pub(crate) rewards: [f32; 4],
    pub(crate) previous: Option<G::Deal>,
    pub(crate) deals_played: u32,
    pub(crate) steps: u32,
}

impl<G: DealGame> Series<G> {
    /// An episode starting with `deal`; later deals come from `rng`.
    pub fn new(game: G, deal: G::Deal, episode: Episode, rng: ChaCha8Rng) -> Series<G> {
        Series {
            game,
            deal,
            episode,
            totals: [0; 4],
            rng,
            winner: None,
            rewards: [0.0; 4],
            previous: None,
            deals_played: 0,
            steps: 0,
        }
    }

    /// This episode with the game score set: `totals` per side and
    /// `deals_played` deals finished before the current one (a position given
    /// from outside, such as a seat's view sent to `bones serve`).
    pub fn with_score(mut self, totals: [u32; 4], deals_played: u32) -> Series<G> {
        self.totals = totals;
        self.deals_played = deals_played;
        self
    }

    /// The current deal.
    pub fn deal(&self) -> &G::Deal {
        &self.deal
    }
    /// The deal that finished on the last action of a game episode, when a new
    /// one was dealt after it.
    pub fn previous_deal(&self) -> Option<&G::Deal> {
        self.previous.as_ref()
    }
    /// Deals finished so far in this episode.
    pub fn deals_played(&self) -> u32 {
        self.deals_played
    }
    /// Actions taken in this episode.
    pub fn steps(&self) -> u32 {
        self.steps
    }
    /// One deal or a whole game.
    pub fn episode(&self) -> Episode {
        self.episode
    }
    /// The game (rules) this state is played under.
    pub fn game(&self) -> &G {
        &self.game
    }

    fn finish_deal(&mut self) {
        self.deals_played += 1;
        if self.episode == Episode::Hand {
            self.rewards = self.game.deal_rewards(&self.deal);
            return;
        }
        for (t, s) in self.totals.iter_mut().zip(self.game.deal_scores(&self.deal)) {
            *t += s;
        }
        self.winner = self.game.game_winner(&self.totals, &self.deal);
        match self.winner {
            Some(w) => self.rewards = self.game.win_rewards(w),
            None => {
                self.previous = Some(self.deal);
                self.deal = self.game.next_deal(&mut self.rng, &self.deal);
            }
        }
    }

    /// The deal the last action finished, if any (at a terminal state, the last deal).
    pub fn finished(&self) -> Option<&G::Deal> {
        self.previous.as_ref().or(G::is_over(&self.deal).then_some(&self.deal))
    }
}

impl<G: DealGame> GameState for Series<G> {
    type View = G::View;
    #[inline]
    fn view(&self, seat: usize) -> G::View {
        G::view(self, seat)
    }
    #[inline]
    fn current_seat(&self) -> Option<usize> {
        (!self.is_terminal()).then(|| G::to_move(&self.deal))
    }
    #[inline]
    fn legal_mask(&self) -> ActionMask {
        if self.is_terminal() {
            ActionMask::EMPTY
        } else {
            G::legal(&self.deal)
        }
    }
    /// Applies an action; a finished deal is scored, and in a game episode the
    /// next one is dealt unless the game is won.
    #[inline]
    fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        if self.is_terminal() {
            return Err(IllegalAction { action: a, legal: ActionMask::EMPTY });
        }
        G::apply(&mut self.deal, a)?;
        self.steps += 1;
        self.rewards = [0.0; 4];
        self.previous = None;
        if G::is_over(&self.deal) {
            self.finish_deal();
        }
        Ok(())
    }
    #[inline]
    fn is_terminal(&self) -> bool {
        match self.episode {
            Episode::Hand => G::is_over(&self.deal),
            Episode::Game => self.winner.is_some(),
        }
    }
    fn rewards(&self) -> [f32; 4] {
        self.rewards
    }
    #[inline]
    fn observe(&self, seat: usize, out: &mut [f32]) {
        G::observe(self, seat, out)
    }
    fn seat_hands(&self) -> [DominoSet; 4] {
        G::hands(&self.deal)
    }
    fn finished_deal(&self) -> Option<DealOutcome> {
        self.finished().map(|d| self.game.outcome(d))
    }
    fn winning_side(&self) -> Option<usize> {
        self.winner
    }
    fn dominoes(&self) -> Option<DominoLedger> {
        G::dominoes(&self.deal)
    }
    fn resample_hidden(&self, seat: usize, seed: u64) -> Option<Series<G>> {
        Some(Series { deal: G::resample_deal(&self.deal, seat, seed)?, ..self.clone() })
    }
}
