//! The conformance suite (`bones_env::testing`) over every game of the
//! registry: at every player count, under several rules, each game's pinned
//! observation digest, and games broken on purpose to show each check bites.
//! (The toy game of train/tests/toy_game.rs runs it too.)

use bones_env::doubles::{Doubles, DoublesState, DoublesView};
use bones_env::record::json::RecordError;
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::rules::{parse_rules_arg, BlockedTie, DoublesRules};
use bones_env::testing::{check_game, check_registry, Check, Golden, SuiteConfig, SuiteFailure, SuiteReport};
use bones_env::{
    Action, ActionError, ActionMask, DealOutcome, DominoLedger, DominoSet, Episode, Game, GameState, IllegalAction,
    RewardMode, SeatView, Segment, Texas42, Texas42Rules,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicU64, Ordering};

fn passes<G: Game>(game: &G, config: &SuiteConfig) -> SuiteReport {
    let report = check_game(game, config).unwrap_or_else(|e| panic!("{e}"));
    assert_has_teeth(&report, config);
    report
}

/// Every state's dominoes were accounted for, the hidden part was resampled
/// and changed, every episode was restored mid-way.
fn assert_has_teeth(r: &SuiteReport, config: &SuiteConfig) {
    assert_eq!(r.episodes, config.hand_episodes + config.game_episodes, "{r:?}");
    assert!(r.states > r.episodes && r.ledgers == r.states, "{r:?}");
    assert!(r.resamples_changed > r.states / 2 && r.resamples_changed <= r.resamples, "{r:?}");
    assert_eq!(r.restores, r.episodes, "{r:?}");
}

#[test]
fn every_registered_game_passes_the_conformance_suite() {
    let config = SuiteConfig::default();
    let reports = check_registry(&config).unwrap_or_else(|e| panic!("{e}"));
    let games: Vec<&str> = reports.iter().map(|r| r.game.split(' ').next().unwrap()).collect();
    assert_eq!(games, ["texas42", "doubles", "doubles", "doubles"], "Texas 42, and Doubles for 2, 3 and 4");
    for r in &reports {
        assert_has_teeth(r, &config);
    }
}

#[test]
fn texas42_passes_the_suite_under_every_rule_option_and_reward_mode() {
    let rules = [
        "standard",
        "full",
        r#"{"preset":"full","nello_doubles":"high","all_pass":"redeal"}"#,
        r#"{"preset":"full","nello_doubles":"low","nello_min_marks":1,"early_end":false}"#,
        r#"{"scoring":"points"}"#,
        r#"{"preset":"full","scoring":"points","all_pass":"redeal"}"#,
    ];
    let rewards = [RewardMode::Marks, RewardMode::Points, RewardMode::MarksAndPoints];
    for (i, text) in rules.iter().enumerate() {
        let rules = Texas42Rules::from_json(&parse_rules_arg(text).unwrap()).unwrap();
        let game = Texas42 { rules, dealer: (i % 4) as u8, reward: rewards[i % 3] };
        let config =
            SuiteConfig { hand_episodes: 16, game_episodes: 1, seed: 100 * i as u64, ..SuiteConfig::default() };
        passes(&game, &config);
    }
}

#[test]
fn doubles_passes_the_suite_with_either_blocked_tie_and_other_targets() {
    for (players, blocked_tie, target) in [
        (2, BlockedTie::Split, 50),
        (3, BlockedTie::Split, 150),
        (4, BlockedTie::Split, 100),
        (4, BlockedTie::None, 61),
    ] {
        let game = Doubles::new(DoublesRules { players, blocked_tie, target });
        let config =
            SuiteConfig { hand_episodes: 20, game_episodes: 1, seed: 7 * target as u64, ..SuiteConfig::default() };
        passes(&game, &config);
    }
}

/// The digest of 100 one-deal episodes (seeds 0..100) of each registered game
/// under its default rules, pinned through the suite's golden check (the
/// values were computed with the engine before the suite existed).
#[test]
fn each_registered_game_keeps_its_pinned_observation_digest() {
    struct Digest(u64);
    impl GameVisitor for Digest {
        type Output = Result<SuiteReport, SuiteFailure>;
        fn visit<G: Game>(self, game: G) -> Self::Output {
            let golden = Golden { episode: Episode::Hand, episodes: 100, digest: self.0 };
            check_game(
                &game,
                &SuiteConfig { hand_episodes: 2, game_episodes: 0, golden: Some(golden), ..Default::default() },
            )
        }
    }
    for (name, players, digest) in [
        ("texas42", 4, 0x9bb9_76fc_a947_32f4u64),
        ("doubles", 2, 0x44ad_d650_4426_c9f0),
        ("doubles", 3, 0xeb9a_0a3d_c487_6cca),
        ("doubles", 4, 0xe800_274b_771c_2b66),
    ] {
        let game = AnyGame::new(name, None, Some(players)).unwrap();
        let report = game.visit(Digest(digest)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.digest, Some(digest));
    }
}

// ---------------------------------------------------------------------------
// Games broken on purpose: Doubles with one flaw each.

/// One flaw of a [`Broken`] game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Flaw {
    /// None: the wrapper passes.
    Sound,
    /// `apply` takes id 63 (never in the mask) and does nothing.
    AcceptsAnIllegalId,
    /// Seat 0's reward is off by a little.
    UnevenRewards,
    /// The observation (view and state alike) shows whether the next seat holds 6-6.
    LeaksTheNextHand,
    /// The state writes one float more than the view.
    ViewDiffers,
    /// Every new state is dealt from another seed.
    DealsAtRandom,
    /// Something not saved changes the rewards after a restore.
    ForgetsOnRestore,
    /// A played domino goes back to the hand (in the ledger).
    LosesADomino,
}

#[derive(Copy, Clone, Debug)]
struct Broken(Doubles, Flaw);

#[derive(Clone, Debug, Serialize, Deserialize)]
struct BrokenState {
    inner: DoublesState,
    flaw: Flaw,
    #[serde(skip)]
    live: bool,
}

#[derive(Clone, Debug)]
struct BrokenView {
    inner: DoublesView,
    flaw: Flaw,
    /// The next seat holds 6-6.
    next_has_66: bool,
}

impl SeatView for BrokenView {
    fn seat(&self) -> usize {
        self.inner.seat()
    }
    fn legal(&self) -> ActionMask {
        self.inner.legal()
    }
    fn observe(&self, out: &mut [f32]) {
        self.inner.observe(out);
        if self.flaw == Flaw::LeaksTheNextHand && self.next_has_66 {
            out[0] = 0.5;
        }
    }
}

static DEALS: AtomicU64 = AtomicU64::new(0);

impl GameState for BrokenState {
    type View = BrokenView;
    fn view(&self, seat: usize) -> BrokenView {
        let next = (seat + 1) % self.inner.game().num_players();
        let next_has_66 = self.inner.hands()[next].contains("6-6".parse().unwrap());
        BrokenView { inner: self.inner.view(seat), flaw: self.flaw, next_has_66 }
    }
    fn current_seat(&self) -> Option<usize> {
        self.inner.current_seat()
    }
    fn legal_mask(&self) -> ActionMask {
        self.inner.legal_mask()
    }
    fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        if self.flaw == Flaw::AcceptsAnIllegalId && a == 63 {
            return Ok(());
        }
        self.inner.apply(a)
    }
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    fn rewards(&self) -> [f32; 4] {
        let mut r = self.inner.rewards();
        let off =
            r != [0.0; 4] && (self.flaw == Flaw::UnevenRewards || (self.flaw == Flaw::ForgetsOnRestore && !self.live));
        if off {
            r[0] += 0.25;
            r[1] -= 0.5;
        }
        r
    }
    fn observe(&self, seat: usize, out: &mut [f32]) {
        self.view(seat).observe(out);
        if self.flaw == Flaw::ViewDiffers {
            out[out.len() - 1] += 1.0;
        }
    }
    fn seat_hands(&self) -> [DominoSet; 4] {
        self.inner.seat_hands()
    }
    fn finished_deal(&self) -> Option<DealOutcome> {
        self.inner.finished_deal()
    }
    fn winning_side(&self) -> Option<usize> {
        self.inner.winning_side()
    }
    fn dominoes(&self) -> Option<DominoLedger> {
        let mut l = self.inner.dominoes()?;
        if self.flaw == Flaw::LosesADomino {
            if let Some(d) = l.played.first() {
                l.played.remove(d);
            }
        }
        Some(l)
    }
    fn resample_hidden(&self, seat: usize, seed: u64) -> Option<BrokenState> {
        let inner = self.inner.resample_hidden(seat, seed)?;
        Some(BrokenState { inner, ..self.clone() })
    }
}

impl Game for Broken {
    type State = BrokenState;
    fn name(&self) -> &'static str {
        "broken"
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn rules_json(&self) -> Value {
        self.0.rules_json()
    }
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }
    fn obs_len(&self) -> usize {
        self.0.obs_len()
    }
    fn obs_segments(&self) -> &'static [Segment] {
        self.0.obs_segments()
    }
    fn obs_version(&self) -> u32 {
        self.0.obs_version()
    }
    fn action_name(&self, a: Action) -> &'static str {
        self.0.action_name(a)
    }
    fn parse_action(&self, name: &str) -> Result<Action, ActionError> {
        self.0.parse_action(name)
    }
    fn new_state(&self, seed: u64, episode: Episode) -> BrokenState {
        let seed =
            if self.1 == Flaw::DealsAtRandom { seed ^ DEALS.fetch_add(1, Ordering::Relaxed) << 20 } else { seed };
        BrokenState { inner: self.0.new_state(seed, episode), flaw: self.1, live: true }
    }
    fn replay_record(_: &mut Map<String, Value>) -> Result<(Broken, BrokenState, Value), RecordError> {
        Err(RecordError::record("a broken game has no records"))
    }
}

#[test]
fn games_broken_on_purpose_fail_the_check_they_break() {
    let doubles = Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() });
    let config = SuiteConfig { hand_episodes: 6, game_episodes: 1, ..SuiteConfig::default() };
    for (flaw, check) in [
        (Flaw::AcceptsAnIllegalId, Check::LegalMask),
        (Flaw::UnevenRewards, Check::ZeroSum),
        (Flaw::LeaksTheNextHand, Check::HiddenInformation),
        (Flaw::ViewDiffers, Check::ViewObservation),
        (Flaw::DealsAtRandom, Check::Determinism),
        (Flaw::ForgetsOnRestore, Check::SaveRestore),
        (Flaw::LosesADomino, Check::Dominoes),
    ] {
        let e = check_game(&Broken(doubles, flaw), &config).expect_err("a broken game passed the suite");
        assert_eq!(e.check, check, "{flaw:?}: {e}");
        let m = e.to_string();
        assert!(m.starts_with("broken {") && m.contains(" at hand episode "), "{m}");
    }
    passes(&Broken(doubles, Flaw::Sound), &config);
}
