//! Property tests of the Texas 42 engine over random seeds, random rule options
//! and random legal-action sequences (each action chosen by index into the legal
//! mask, optionally steered towards the rare contracts: Nel-O, Sevens, Plunge,
//! Splash). The game-independent invariants (the mask is what `apply` accepts,
//! zero-sum rewards, views, no hidden information, determinism, save/restore)
//! are the conformance suite's (`bones_env::testing`); here they are also run
//! along steered hands under random rules, with what is Texas 42's own:
//!
//! - the mask holds only the phase's actions (plays from the mover's hand), and
//!   `Hand::apply` refuses alike;
//! - the 28 dealt dominoes are conserved (held + played, each exactly once,
//!   played by the seat dealt it), and trick points add up;
//! - points add up (42 for a played-out hand; 7 + 35 - the sitting-out partner's
//!   count under Nel-O), early end stops exactly where docs/rules.md says, and the
//!   award follows the scoring rules;
//! - rewards follow the reward mode, a hand takes at most 33 decisions, and a
//!   whole game ends with a winner and ±1 rewards;
//! - what a seat cannot see is resampled in every phase, the public history
//!   kept; a hand's actions replay to the same hand;
//! - a seeded hand plays out as the same deal given as hands.

use bones_env::action::ActionMask;
use bones_env::deal::{deal_texas42, rng_for_seed};
use bones_env::seed::splitmix64;
use bones_env::testing::{check_state, SuiteConfig, SuiteReport};
use bones_env::texas42::actions::{BID_1M, NEL_O, NUM_ACTIONS_42, PASS, PLAY, PLUNGE, SEVENS, SPLASH, TRUMP_BLANKS};
use bones_env::texas42::{bid_marks, bid_value, team, Hand, Outcome, Phase, RewardMode, OBS_LEN_42, OBS_SEGMENTS_42};
use bones_env::{
    Action, AllPass, DominoSet, Episode, Game, GameState, NelloDoubles, Scoring, Texas42, Texas42Rules, Texas42State,
    Variant, Variants,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Generators and the action chooser

/// Every combination of the rule options (variants subsets, all_pass, early_end,
/// scoring, nello_min_marks 1..3, nello_doubles), as the struct and as the JSON
/// object a record or config would hold. The property checks that they agree.
pub(crate) fn rules_strategy() -> impl Strategy<Value = (Texas42Rules, Value)> {
    (0u8..16, any::<bool>(), any::<bool>(), any::<bool>(), 1u8..=3, 0usize..3, any::<bool>()).prop_map(
        |(v, redeal, early_end, points, min_marks, nd, with_preset)| {
            let variants = Variants(v);
            let names: Vec<&str> = Variant::ALL.iter().filter(|x| variants.has(**x)).map(|x| x.name()).collect();
            let nello_doubles = [NelloDoubles::OwnSuit, NelloDoubles::High, NelloDoubles::Low][nd];
            let rules = Texas42Rules {
                variants,
                all_pass: if redeal { AllPass::Redeal } else { AllPass::Forced },
                early_end,
                scoring: if points { Scoring::Points } else { Scoring::Marks },
                target: if points { 250 } else { 7 },
                nello_min_marks: min_marks,
                nello_doubles,
                dropped30: false,
            };
            let nd_name = ["own-suit", "high", "low"][nd];
            let mut obj = json!({
                "variants": names,
                "all_pass": if redeal { "redeal" } else { "forced" },
                "early_end": early_end,
                "scoring": if points { "points" } else { "marks" },
                "nello_min_marks": min_marks,
                "nello_doubles": nd_name,
            });
            if with_preset {
                // `variants` overrides the preset's variants.
                obj["preset"] = json!(if v == 15 { "full" } else { "standard" });
            }
            (rules, obj)
        },
    )
}

/// Towards which contract the chooser leans (uniform otherwise).
#[derive(Copy, Clone, Debug)]
enum Steer {
    Uniform,
    /// Mark bids while bidding, `nel-o` when declaring.
    Nello,
    /// Mark bids while bidding, `sevens` when declaring.
    Sevens,
    /// `plunge` / `splash` when available.
    Special,
}

fn steer_strategy() -> impl Strategy<Value = Steer> {
    prop_oneof![Just(Steer::Uniform), Just(Steer::Nello), Just(Steer::Sevens), Just(Steer::Special)]
}

/// Random numbers for choosing actions: proptest's list first (so it shrinks),
/// then a splitmix stream (whole games need hundreds of decisions).
#[derive(Clone, Debug)]
struct Choices {
    list: Vec<u16>,
    i: usize,
    mix: u64,
}

impl Choices {
    fn new(list: Vec<u16>, mix: u64) -> Choices {
        Choices { list, i: 0, mix }
    }
    fn next(&mut self) -> usize {
        let r = match self.list.get(self.i) {
            Some(&r) => r as u64,
            None => splitmix64(&mut self.mix),
        };
        self.i += 1;
        (r % (1 << 16)) as usize
    }
}

fn mask_range(lo: Action, hi: Action) -> u64 {
    ((1u64 << hi) - 1) & !((1u64 << lo) - 1)
}

/// Picks a legal action by index into the mask (or into the steered subset).
fn choose(h: &Hand, mask: ActionMask, steer: Steer, ch: &mut Choices) -> Action {
    assert!(!mask.is_empty(), "choose on an empty mask");
    let preferred = match (steer, h.phase) {
        (Steer::Nello | Steer::Sevens, Phase::Bidding) => {
            // Lean to mark bids half of the time (so the winner varies).
            let marks = mask.0 & mask_range(BID_1M, PLUNGE);
            if ch.next() & 1 == 0 && marks != 0 {
                1u64 << (63 - marks.leading_zeros())
            } else {
                0
            }
        }
        (Steer::Nello, Phase::Declaring) => mask.0 & (1 << NEL_O),
        (Steer::Sevens, Phase::Declaring) => mask.0 & (1 << SEVENS),
        (Steer::Special, Phase::Bidding) => mask.0 & ((1 << PLUNGE) | (1 << SPLASH)),
        _ => 0,
    };
    let m = if preferred != 0 { ActionMask(preferred) } else { mask };
    m.nth(ch.next() % m.len())
}

/// Plays one Hand episode to its end; calls `f` on every state (the first and
/// the terminal one included). Returns the actions taken.
fn play_hand(
    game: &Texas42,
    seed: u64,
    steer: Steer,
    ch: &mut Choices,
    mut f: impl FnMut(&Texas42State) -> Result<(), TestCaseError>,
) -> Result<(Texas42State, Vec<Action>), TestCaseError> {
    let mut st = game.new_state(seed, Episode::Hand);
    let mut actions = Vec::new();
    f(&st)?;
    while !st.is_terminal() {
        let a = choose(st.hand(), st.legal_mask(), steer, ch);
        st.apply(a).map_err(|e| TestCaseError::fail(format!("legal action {a} rejected: {e}")))?;
        actions.push(a);
        prop_assert!(actions.len() <= 33, "a hand took more than 33 decisions: {actions:?}");
        f(&st)?;
    }
    Ok((st, actions))
}

fn count_of(set: DominoSet) -> u32 {
    set.iter().map(|d| d.count() as u32).sum()
}

fn obs(st: &Texas42State, seat: usize) -> Vec<u32> {
    let mut out = vec![f32::NAN; OBS_LEN_42];
    st.observe(seat, &mut out);
    out.iter().map(|x| x.to_bits()).collect()
}

/// One random hand: a seed, rules (and the JSON object they were read from), the
/// first shaker, the steer and the chooser's list.
#[derive(Clone, Debug)]
struct Case {
    seed: u64,
    rules: Texas42Rules,
    rules_json: Value,
    dealer: u8,
    steer: Steer,
    choices: Vec<u16>,
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (any::<u64>(), rules_strategy(), 0u8..4, steer_strategy(), prop::collection::vec(any::<u16>(), 0..40)).prop_map(
        |(seed, (rules, rules_json), dealer, steer, choices)| Case { seed, rules, rules_json, dealer, steer, choices },
    )
}

impl Case {
    /// Texas 42 under the case's rules and first shaker.
    fn game(&self) -> Texas42 {
        Texas42 { rules: self.rules, dealer: self.dealer, ..Texas42::default() }
    }

    /// The chooser: the case's list, then a stream seeded by `seed ^ salt`.
    fn choices(&self, salt: u64) -> Choices {
        Choices::new(self.choices.clone(), self.seed ^ salt)
    }

    /// Plays the case's hand under `game` ([`play_hand`]).
    fn play(
        &self,
        game: &Texas42,
        f: impl FnMut(&Texas42State) -> Result<(), TestCaseError>,
    ) -> Result<(Texas42State, Vec<Action>), TestCaseError> {
        play_hand(game, self.seed, self.steer, &mut self.choices(0), f)
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------------
// Checks on one state

/// The conformance suite's checks on one state (the mask against `apply`,
/// rewards, views, dominoes, and `resamples` resamples of what each seat cannot
/// see), then Texas 42's own: the mask holds only the phase's actions (plays
/// from the mover's hand), and `Hand::apply` alone refuses what the state
/// refuses, leaving the hand unchanged.
fn check_state_and_phase_mask(game: &Texas42, st: &Texas42State, resamples: usize) -> Result<(), TestCaseError> {
    let config = SuiteConfig { resamples, ..SuiteConfig::default() };
    let seed = st.hand().dealt[0].0 as u64 ^ st.steps() as u64;
    check_state(game, st, &config, seed, &mut SuiteReport::default())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mask = st.legal_mask();
    prop_assert_eq!(mask.0 >> NUM_ACTIONS_42, 0, "mask holds ids past the action space");
    let h = st.hand();
    let allowed = match h.phase {
        Phase::Bidding => mask_range(PASS, TRUMP_BLANKS),
        Phase::Declaring => mask_range(TRUMP_BLANKS, NUM_ACTIONS_42),
        Phase::Playing => (h.hands[h.to_move as usize].0 as u64) << PLAY,
        Phase::Done => 0,
    };
    if !st.is_terminal() {
        prop_assert_eq!(mask.0 & !allowed, 0, "mask {:?} outside the phase's actions in {:?}", mask, h.phase);
    }
    for a in (0..64usize).filter(|&a| !mask.contains(a)) {
        let mut hc = *h;
        if !st.is_terminal() {
            prop_assert!(hc.apply(a).is_err(), "Hand::apply took id {} outside the mask", a);
            prop_assert_eq!(&hc, h);
        }
    }
    Ok(())
}

/// Held + played = the dealt 28, each exactly once; each domino was played by a
/// seat that was dealt it; each seat has played exactly what it no longer holds;
/// trick points and team points agree with the dominoes.
fn check_conservation(h: &Hand) -> Result<(), TestCaseError> {
    let mut dealt = DominoSet::EMPTY;
    for s in 0..4 {
        prop_assert_eq!(h.dealt[s].len(), 7, "seat {} was dealt {:?}", s, h.dealt[s]);
        prop_assert!((dealt & h.dealt[s]).is_empty(), "deal overlaps: {:?}", h.dealt);
        dealt |= h.dealt[s];
    }
    prop_assert_eq!(dealt, DominoSet::FULL);
    let mut seen = DominoSet::EMPTY;
    let mut n = 0;
    let mut played_by = [DominoSet::EMPTY; 4];
    for s in 0..4 {
        prop_assert_eq!(h.hands[s] - h.dealt[s], DominoSet::EMPTY, "seat {} holds an undealt domino", s);
        seen |= h.hands[s];
        n += h.hands[s].len();
    }
    let mut points = [0u32; 2];
    for t in 0..7 {
        let trick = &h.tricks[t];
        if t > h.trick as usize || (t == h.trick as usize && h.phase == Phase::Done) {
            prop_assert_eq!(trick.len, 0, "trick {} after the current one has plays", t);
            continue;
        }
        let complete = t < h.trick as usize;
        prop_assert!(trick.len <= h.trick_size());
        prop_assert!(!complete || trick.len == h.trick_size(), "complete trick {} has {} plays", t, trick.len);
        for (i, d) in trick.played().iter().enumerate() {
            prop_assert!(!seen.contains(*d), "{} is held or played twice", d);
            seen.insert(*d);
            n += 1;
            let seat = h.seat_of_play(t, i) as usize;
            prop_assert!(h.dealt[seat].contains(*d), "seat {} played {} it was not dealt", seat, d);
            played_by[seat].insert(*d);
        }
        if complete {
            let want = 1 + trick.played().iter().map(|d| d.count()).sum::<u8>();
            prop_assert_eq!(trick.points, want, "trick {} points", t);
            points[team(trick.winner)] += want as u32;
        }
    }
    prop_assert_eq!(seen, DominoSet::FULL);
    prop_assert_eq!(n, 28);
    for (s, played) in played_by.iter().enumerate() {
        prop_assert_eq!(h.dealt[s] - h.hands[s], *played, "seat {}: dealt minus held is not what it played", s);
    }
    prop_assert_eq!([h.points[0] as u32, h.points[1] as u32], points, "team points vs trick points");
    Ok(())
}

/// An independent reading of docs/rules.md's "Result of a hand" (trick winners and
/// the dominoes as the engine recorded them): after how many tricks the hand
/// stops and whether the bidders made it.
fn expected_result(h: &Hand) -> (usize, bool) {
    let bid = h.high_bid as Action;
    let value = bid_value(bid);
    let us = team(h.bidder);
    let early = h.rules.early_end && h.rules.scoring == Scoring::Marks;
    let nello = h.declaration as Action == NEL_O;
    let mut pts = [0u32; 2];
    let mut bidder_won = false;
    let mut defenders_won = false;
    for t in 0..7 {
        let trick = &h.tricks[t];
        let winner = trick.winner;
        pts[team(winner)] += 1 + trick.played().iter().map(|d| d.count() as u32).sum::<u32>();
        bidder_won |= winner == h.bidder;
        defenders_won |= team(winner) != us;
        if early {
            if nello && bidder_won {
                return (t + 1, false);
            }
            if !nello && value < 42 {
                if pts[us] >= value {
                    return (t + 1, true);
                }
                if pts[1 - us] > 42 - value {
                    return (t + 1, false);
                }
            }
            if !nello && value >= 42 && defenders_won {
                return (t + 1, false);
            }
        }
    }
    let made = if nello {
        !bidder_won
    } else if value < 42 {
        pts[us] >= value
    } else {
        !defenders_won
    };
    (7, made)
}

/// What the finished hand should award each team (docs/rules.md scoring).
fn expected_award(h: &Hand, made: bool) -> [u32; 2] {
    let bid = h.high_bid as Action;
    let us = team(h.bidder);
    let side = if made { us } else { 1 - us };
    let mut award = [0u32; 2];
    match h.rules.scoring {
        Scoring::Marks => {
            award[side] = match bid {
                PLUNGE => 4,
                SPLASH => 3,
                b if b >= BID_1M => (b - BID_1M + 1) as u32,
                _ => 1,
            }
        }
        Scoring::Points if bid_value(bid) < 42 => {
            if made {
                award = [h.points[0] as u32, h.points[1] as u32];
            } else {
                award[1 - us] = h.points[1 - us] as u32 + bid_value(bid);
            }
        }
        Scoring::Points => award[side] = 42 * bid_marks(bid),
    }
    award
}

/// The points identities of a finished hand, early end, and the award.
fn check_finished_hand(h: &Hand) -> Result<(), TestCaseError> {
    prop_assert!(h.is_done());
    let made = match h.outcome {
        Some(Outcome::Redeal) => {
            prop_assert_eq!(h.rules.all_pass, AllPass::Redeal, "thrown in under all_pass forced");
            prop_assert_eq!(h.num_bids, 4);
            prop_assert!((0..4u8).all(|s| h.bid_of(s) == Some(PASS)), "thrown in without four passes");
            prop_assert_eq!(h.points, [0, 0]);
            prop_assert_eq!(h.award(), [0, 0]);
            return Ok(());
        }
        Some(Outcome::Settled { made }) => made,
        None => return Err(TestCaseError::fail("finished hand without an outcome")),
    };
    prop_assert!(h.high_bid as Action != PASS);
    let total = h.points[0] as u32 + h.points[1] as u32;
    let tricks = h.trick as usize;
    let played: u32 = h.tricks[..tricks].iter().flat_map(|t| t.played().iter()).map(|d| d.count() as u32).sum();
    // Any settled hand: points = tricks taken + count played in them.
    prop_assert_eq!(total, tricks as u32 + played);
    if !h.rules.stops_early() {
        prop_assert_eq!(tricks, 7, "early_end off (or points scoring) but the hand stopped after {} tricks", tricks);
    }
    if tricks == 7 {
        match h.sitting_out() {
            None => prop_assert_eq!(total, 42, "a played-out hand totals 42"),
            Some(out) => {
                let out = out as usize;
                prop_assert_eq!(h.declaration as Action, NEL_O);
                prop_assert_eq!(h.hands[out], h.dealt[out], "the sitting-out partner played");
                prop_assert_eq!(total, 7 + 35 - count_of(h.dealt[out]), "Nel-O: 7 tricks + count played");
            }
        }
    }
    let (want_tricks, want_made) = expected_result(h);
    prop_assert_eq!(tricks, want_tricks, "hand stopped after {} tricks, docs/rules.md says {}", tricks, want_tricks);
    prop_assert_eq!(made, want_made);
    prop_assert_eq!(h.award(), expected_award(h, made), "award");
    if made && h.rules.stops_early() && bid_value(h.high_bid as Action) >= 42 {
        prop_assert_eq!(tricks, 7, "a contract being made plays all 7 tricks");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Resampling what a seat cannot see

#[derive(Default, Debug)]
struct ResampleStats {
    /// Resampled states by the phase of the state: bidding, declaring, playing, done.
    compared: [usize; 4],
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Bidding => 0,
        Phase::Declaring => 1,
        Phase::Playing => 2,
        Phase::Done => 3,
    }
}

/// For every prefix of `actions` and every observer, resamples what the observer
/// cannot see (`GameState::resample_hidden`): the other seats' holdings change
/// and keep their sizes, the observer's hand, everything played and the hand's
/// public history (its actions) stay, and the observer's observation, view and
/// (when it acts) mask are the same.
fn check_resamples(game: &Texas42, seed: u64, actions: &[Action], mix: u64) -> Result<ResampleStats, TestCaseError> {
    let mut stats = ResampleStats::default();
    let mut st = game.from_seed(game.dealer, seed, Episode::Hand);
    for k in 0..=actions.len() {
        if k > 0 {
            st.apply(actions[k - 1]).unwrap();
        }
        let h = *st.hand();
        for o in 0..4usize {
            for attempt in 0..3u64 {
                let Some(alt) = st.resample_hidden(o, mix ^ ((k as u64) << 8) ^ ((o as u64) << 4) ^ attempt) else {
                    continue;
                };
                let a = alt.hand();
                prop_assert_eq!(a.actions(), h.actions(), "the public history changed");
                prop_assert_eq!(a.hands[o], h.hands[o], "seat {}'s own hand changed", o);
                prop_assert_eq!(a.dealt[o], h.dealt[o]);
                for s in 0..4 {
                    prop_assert_eq!(a.hands[s].len(), h.hands[s].len(), "seat {}'s count changed", s);
                    prop_assert_eq!(a.dealt[s] - a.hands[s], h.dealt[s] - h.hands[s], "seat {} played otherwise", s);
                }
                prop_assert!(a.hands != h.hands, "a resample changed nothing");
                prop_assert_eq!(obs(&st, o), obs(&alt, o), "seat {}'s observation depends on what it cannot see", o);
                prop_assert_eq!(st.view(o), alt.view(o), "seat {}'s view depends on what it cannot see", o);
                if st.current_seat() == Some(o) {
                    prop_assert_eq!(st.legal_mask(), alt.legal_mask());
                }
                stats.compared[phase_index(h.phase)] += 1;
            }
        }
    }
    Ok(stats)
}

// ---------------------------------------------------------------------------
// Trajectories

/// A trajectory as bits: per state the seat, mask, rewards, terminal flag and
/// all four observations; per transition the action.
fn record(st: &Texas42State, out: &mut Vec<u64>) {
    out.push(st.current_seat().map_or(u64::MAX, |s| s as u64));
    out.push(st.legal_mask().0);
    out.extend(st.rewards().iter().map(|r| r.to_bits() as u64));
    out.push(st.is_terminal() as u64);
    out.push(((st.totals()[0] as u64) << 32) | st.totals()[1] as u64);
    for seat in 0..4 {
        out.extend(obs(st, seat).into_iter().map(u64::from));
    }
}

fn run_trajectory(
    game: &Texas42,
    seed: u64,
    episode: Episode,
    steer: Steer,
    mut ch: Choices,
) -> (Vec<u64>, Vec<Action>) {
    let mut st = game.new_state(seed, episode);
    let mut out = Vec::new();
    let mut actions = Vec::new();
    record(&st, &mut out);
    while !st.is_terminal() && actions.len() < 33 * 400 {
        let a = choose(st.hand(), st.legal_mask(), steer, &mut ch);
        st.apply(a).unwrap();
        out.push(a as u64);
        actions.push(a);
        record(&st, &mut out);
    }
    (out, actions)
}

fn replay_trajectory(mut st: Texas42State, actions: &[Action], split: usize) -> Vec<u64> {
    let mut out = Vec::new();
    record(&st, &mut out);
    for (i, &a) in actions.iter().enumerate() {
        if i == split {
            // Continue on a clone: a clone evolves exactly as the original.
            st = st.clone();
        }
        st.apply(a).unwrap();
        out.push(a as u64);
        record(&st, &mut out);
    }
    out
}

// ---------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn steered_hands_under_random_rules_pass_the_suite_state_checks(case in case_strategy()) {
        let read = Texas42Rules::from_json(&case.rules_json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(read, case.rules);
        let game = case.game();
        case.play(&game, |st| {
            check_state_and_phase_mask(&game, st, 1)?;
            // The hand's actions, given again to the same deal, are this hand.
            let h = st.hand();
            let mut again = Hand::new(h.rules, h.dealer, h.dealt);
            for a in h.actions() {
                again.apply(a).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            prop_assert_eq!(&again, h, "a hand's actions do not replay to it");
            Ok(())
        })?;
    }

    #[test]
    fn the_28_dominoes_are_conserved(case in case_strategy()) {
        let dealt = deal_texas42(&mut rng_for_seed(case.seed));
        case.play(&case.game(), |st| {
            prop_assert_eq!(st.hand().dealt, dealt, "the deal is not the seed's deal");
            check_conservation(st.hand())
        })?;
    }

    #[test]
    fn finished_hands_add_up_and_stop_where_the_rules_say(case in case_strategy()) {
        let (st, actions) = case.play(&case.game(), |_| Ok(()))?;
        check_finished_hand(st.hand())?;
        if st.hand().is_nello() {
            prop_assert!(actions.len() <= 5 + 21, "Nel-O took {} decisions", actions.len());
        }
    }

    #[test]
    fn hand_rewards_follow_the_reward_mode_and_hands_end_within_33_decisions(
        case in case_strategy(),
        reward in prop::sample::select(vec![RewardMode::Marks, RewardMode::Points, RewardMode::MarksAndPoints]),
    ) {
        // play_hand itself fails past 33 decisions.
        let (st, _) = case.play(&Texas42 { reward, ..case.game() }, |st| {
            if !st.is_terminal() {
                prop_assert_eq!(st.rewards(), [0.0; 4], "reward before the hand is over");
            }
            Ok(())
        })?;
        let h = st.hand();
        let r = st.rewards();
        let marks = {
            let a = h.award();
            let d = a[0] as f32 - a[1] as f32;
            if case.rules.scoring == Scoring::Points { d / 42.0 } else { d }
        };
        let points = (h.points[0] as f32 - h.points[1] as f32) / 42.0;
        let want = match reward {
            RewardMode::Marks => marks,
            RewardMode::Points => points,
            RewardMode::MarksAndPoints => marks + points,
        };
        prop_assert_eq!(r, [want, -want, want, -want]);
        prop_assert_eq!(st.hands_played(), 1);
    }

    #[test]
    fn what_a_seat_cannot_see_resamples_with_the_public_history_kept(case in case_strategy(), mix in any::<u64>()) {
        let (_, actions) = case.play(&case.game(), |_| Ok(()))?;
        let stats = check_resamples(&case.game(), case.seed, &actions, mix)?;
        prop_assert!(stats.compared[0] > 0, "no bidding-phase resample was made");
    }

    #[test]
    fn a_seeded_hand_plays_out_as_the_same_deal_given_as_hands(
        case in case_strategy(),
        points_reward in any::<bool>(),
        split in 0usize..40,
    ) {
        let reward = if points_reward { RewardMode::Points } else { RewardMode::Marks };
        let game = Texas42 { reward, ..case.game() };
        let (a, actions) = run_trajectory(&game, case.seed, Episode::Hand, case.steer, case.choices(0x5eed));
        let dealt = deal_texas42(&mut rng_for_seed(case.seed));
        let d = replay_trajectory(game.from_hands(case.dealer, dealt), &actions, split.min(actions.len()));
        prop_assert!(a == d, "a seeded state and the same deal given as hands differ");
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn whole_games_end_with_a_winner_and_unit_rewards(
        seed in any::<u64>(),
        (rules, _) in rules_strategy(),
        dealer in 0u8..4,
        steer in steer_strategy(),
    ) {
        let game = Texas42 { rules, dealer, ..Texas42::default() };
        let mut st = game.new_state(seed, Episode::Game);
        let mut rng = rng_for_seed(seed);
        prop_assert_eq!(st.hand().dealt, deal_texas42(&mut rng));
        prop_assert_eq!(st.hand().dealer, dealer);
        let mut ch = Choices::new(Vec::new(), seed ^ 0x9a3e);
        let mut totals = [0u32; 2];
        let mut decisions = 0;
        let mut in_hand = 0;
        let mut hands = 0;
        while !st.is_terminal() {
            let a = choose(st.hand(), st.legal_mask(), steer, &mut ch);
            st.apply(a).map_err(|e| TestCaseError::fail(e.to_string()))?;
            decisions += 1;
            in_hand += 1;
            prop_assert!(in_hand <= 33, "a hand of the game took more than 33 decisions");
            prop_assert!(decisions <= 33 * 1000, "the game did not end");
            let finished = st.previous_hand().copied().or_else(|| st.is_terminal().then(|| *st.hand()));
            if finished.is_some() || decisions <= 40 {
                // The suite's checks hold in game episodes too (across the new deal, at the end).
                check_state_and_phase_mask(&game, &st, 0)?;
            }
            if let Some(h) = finished {
                check_finished_hand(&h)?;
                check_conservation(&h)?;
                hands += 1;
                in_hand = 0;
                let a = h.award();
                totals[0] += a[0];
                totals[1] += a[1];
                prop_assert_eq!(st.totals(), totals);
                prop_assert_eq!(st.hands_played(), hands);
                if !st.is_terminal() {
                    prop_assert_eq!(st.winner(), None);
                    prop_assert!(totals[0] < rules.target && totals[1] < rules.target);
                    prop_assert_eq!(st.rewards(), [0.0; 4], "reward before the game is over");
                    // The next deal comes from the same stream; the shake moves left.
                    prop_assert_eq!(st.hand().dealt, deal_texas42(&mut rng));
                    prop_assert_eq!(st.hand().dealer, (h.dealer + 1) % 4);
                    prop_assert_eq!(st.hand().phase, Phase::Bidding);
                }
            } else {
                prop_assert_eq!(st.rewards(), [0.0; 4], "reward before the game is over");
            }
        }
        let w = st.winner().ok_or_else(|| TestCaseError::fail("a finished game has no winner"))?;
        prop_assert!(w < 2);
        let target = rules.target;
        prop_assert!(totals[w as usize] >= target, "winner {} has {:?} of {}", w, totals, target);
        if totals[0] >= target && totals[1] >= target {
            prop_assert_eq!(w as usize, team(st.hand().bidder), "both reached the target: the bidders win");
        }
        let r = if w == 0 { 1.0 } else { -1.0 };
        prop_assert_eq!(st.rewards(), [r, -r, r, -r]);
        check_state_and_phase_mask(&game, &st, 0)?;
        prop_assert!(st.legal_mask().is_empty() && st.current_seat().is_none());
    }
}

// ---------------------------------------------------------------------------
// Deterministic companions: the rare contracts are reached, and resamples
// happen in every phase.

#[test]
fn nello_sevens_plunge_and_splash_hands_are_reached_and_add_up() {
    let mut reached = [0usize; 5]; // nel-o own-suit, high, low; sevens; plunge/splash
    let nds = [NelloDoubles::OwnSuit, NelloDoubles::High, NelloDoubles::Low];
    for seed in 0..300u64 {
        let nd = nds[(seed % 3) as usize];
        for (early_end, steer) in
            [(false, Steer::Nello), (true, Steer::Nello), (false, Steer::Sevens), (false, Steer::Special)]
        {
            let rules = Texas42Rules {
                early_end,
                nello_min_marks: 1 + (seed % 3) as u8,
                nello_doubles: nd,
                ..Texas42Rules::FULL
            };
            let game = Texas42::new(rules);
            let mut ch = Choices::new(Vec::new(), seed);
            let (st, _) = play_hand(&game, seed, steer, &mut ch, |st| check_conservation(st.hand())).unwrap();
            let h = st.hand();
            check_finished_hand(h).unwrap();
            if h.is_nello() && h.trick == 7 {
                reached[(seed % 3) as usize] += 1;
            }
            if h.declaration as Action == SEVENS && h.trick == 7 {
                reached[3] += 1;
            }
            if matches!(h.high_bid as Action, PLUNGE | SPLASH) {
                reached[4] += 1;
                assert_eq!(h.declarer, (h.bidder + 2) % 4, "the plunger's partner declares");
            }
        }
    }
    assert!(reached.iter().all(|&n| n >= 5), "rare contracts reached too rarely: {reached:?}");
}

/// Every combination of the rule options, a few hands each (thousands of hands
/// in all, so rare edges such as a point bid reached exactly are always seen).
#[test]
fn hands_under_every_rule_combination_add_up() {
    let mut exact_point_bids = 0;
    let mut n = 0u64;
    for v in 0..16u8 {
        for redeal in [false, true] {
            for early_end in [false, true] {
                for scoring in [Scoring::Marks, Scoring::Points] {
                    for min in 1..=3u8 {
                        for nd in [NelloDoubles::OwnSuit, NelloDoubles::High, NelloDoubles::Low] {
                            let rules = Texas42Rules {
                                variants: Variants(v),
                                all_pass: if redeal { AllPass::Redeal } else { AllPass::Forced },
                                early_end,
                                scoring,
                                target: if scoring == Scoring::Points { 250 } else { 7 },
                                nello_min_marks: min,
                                nello_doubles: nd,
                                dropped30: false,
                            };
                            assert_eq!(Texas42Rules::from_json(&rules.to_json()).unwrap(), rules);
                            for _ in 0..4 {
                                n += 1;
                                let game = Texas42 { rules, dealer: (n % 4) as u8, ..Texas42::default() };
                                let steer =
                                    [Steer::Uniform, Steer::Nello, Steer::Sevens, Steer::Special][(n % 4) as usize];
                                let mut ch = Choices::new(Vec::new(), n);
                                let (st, _) = play_hand(&game, n, steer, &mut ch, |_| Ok(())).unwrap();
                                let h = st.hand();
                                check_conservation(h).unwrap();
                                check_finished_hand(h).unwrap();
                                check_state_and_phase_mask(&game, &st, 0).unwrap();
                                let us = team(h.bidder);
                                if h.phase == Phase::Done && bid_value(h.high_bid as Action) == h.points[us] as u32 {
                                    exact_point_bids += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(exact_point_bids >= 10, "only {exact_point_bids} hands where the bidders took exactly their bid");
}

#[test]
fn resamples_of_what_a_seat_cannot_see_happen_in_every_phase() {
    let mut total = [0usize; 4];
    for seed in 0..40u64 {
        let rules = if seed % 2 == 0 { Texas42Rules::STANDARD } else { Texas42Rules::FULL };
        let game = Texas42 { rules: Texas42Rules { early_end: seed % 4 < 2, ..rules }, ..Texas42::default() };
        let steer = [Steer::Uniform, Steer::Nello, Steer::Sevens, Steer::Special][(seed / 2 % 4) as usize];
        let mut ch = Choices::new(Vec::new(), seed);
        let (_, actions) = play_hand(&game, seed, steer, &mut ch, |_| Ok(())).unwrap();
        let stats = check_resamples(&game, seed, &actions, seed).unwrap();
        for (t, c) in total.iter_mut().zip(stats.compared) {
            *t += c;
        }
    }
    // Enough resampled states in every phase for the property to have teeth.
    assert!(total.iter().all(|&n| n >= 20), "resampled states per phase: {total:?}");
}

#[test]
fn observation_layout_sums_to_its_length() {
    let game = Texas42::new(Texas42Rules::FULL);
    assert_eq!(game.obs_len(), OBS_LEN_42);
    assert_eq!(game.obs_segments().iter().map(|s| s.len).sum::<usize>(), OBS_LEN_42);
    assert_eq!(OBS_SEGMENTS_42.iter().map(|s| s.len).sum::<usize>(), OBS_LEN_42);
    let mut names: Vec<&str> = OBS_SEGMENTS_42.iter().map(|s| s.name).collect();
    assert!(OBS_SEGMENTS_42.iter().all(|s| s.len > 0 && !s.doc.is_empty()));
    names.sort();
    names.dedup();
    assert_eq!(names.len(), OBS_SEGMENTS_42.len(), "segment names repeat");
    // The same length under every rule option and in every phase.
    for rules in [Texas42Rules::STANDARD, Texas42Rules::FULL] {
        let st = Texas42::new(rules).new_state(3, Episode::Game);
        for seat in 0..4 {
            assert_eq!(obs(&st, seat).len(), OBS_LEN_42);
        }
    }
}
