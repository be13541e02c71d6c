//! The policy-guided `search` agent with stand-in policies (the trained
//! network's tests are in the trainer crate): its specs parse and print, it is
//! legal and deterministic per seed, every world it weighs replays the public
//! record, and the weights read the other seats' actions: with a policy that
//! plays its highest legal action, the worlds drawn are those in which every
//! other seat did so.
//!
//! ```text
//! cargo test -p bones-agents --release --test main -- search:: --nocapture
//! ```

use bones_agents::pimc::{public_actions, replay, Constraints};
use bones_agents::playout::{Playouts, Tally};
use bones_agents::solver::remaining_points;
use bones_agents::spec::{Bidding, SearchOptions, DEFAULT_EXACT_TRICKS, DEFAULT_INFOSET_TRICKS, DEFAULT_SEARCH_WORLDS};
use bones_agents::{
    legal_prob, Agent, AgentFactory, AgentRng, AgentSpec, Continuation, Policy, PolicyLoader, SearchAgent,
    SearchSettings, Solver, SpecError,
};
use bones_env::rules::DoublesRules;
use bones_env::texas42::{team, Hand, Outcome, Phase};
use bones_env::{Action, ActionMask, Doubles, Episode, Game, GameState, Texas42, Texas42Rules};
use bones_env::{SeatView, Texas42View};
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// A stand-in policy whose logits do not depend on the observation: `slope`
/// times the action id (0: uniform; large: the highest legal action).
struct Slope {
    slope: f32,
    num_actions: usize,
}

impl Policy for Slope {
    fn decide(&mut self, obs: &[f32], legal: ActionMask, _rng: &mut AgentRng) -> Action {
        let l = self.logits(obs, 1);
        legal.iter().fold(legal.nth(0), |b, a| if l[a] > l[b] { a } else { b })
    }
    fn logits(&mut self, _obs: &[f32], rows: usize) -> Vec<f32> {
        (0..rows).flat_map(|_| (0..self.num_actions).map(|a| self.slope * a as f32)).collect()
    }
}

/// Loads [`Slope`] policies: the path's file name is the slope.
struct SlopeLoader;

impl PolicyLoader for SlopeLoader {
    fn load(&self, path: &Path, game: &str, _obs_len: usize, num_actions: usize) -> Result<Box<dyn Policy>, String> {
        if game != "texas42" {
            return Err(format!("not a {game} policy"));
        }
        let slope = path.to_string_lossy().parse::<f32>().map_err(|_| format!("{} is not a slope", path.display()))?;
        Ok(Box::new(Slope { slope, num_actions }))
    }
    fn shipped(&self, _game: &str) -> Option<PathBuf> {
        Some(PathBuf::from("0"))
    }
}

fn game() -> Texas42 {
    Texas42::new(Texas42Rules::STANDARD)
}

fn agent(slope: f32, settings: SearchSettings) -> SearchAgent {
    let g = game();
    SearchAgent::new(Box::new(Slope { slope, num_actions: g.num_actions() }), settings, g.obs_len())
}

/// Decision points of `hands` hands in which seats 1..=3 play the highest legal
/// action and seat 0 a random one: `(hand, view of seat 0)` at each of seat 0's
/// turns.
fn seat0_positions(hands: u64) -> Vec<(Hand, Texas42View)> {
    let g = game();
    let mut greedy = Slope { slope: 1.0, num_actions: g.num_actions() };
    let mut out = Vec::new();
    for seed in 0..hands {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut st = g.new_state(seed, Episode::Hand);
        while let Some(seat) = st.current_seat() {
            let v = Texas42View::from_hand(st.hand(), seat as u8);
            let a = if seat == 0 {
                out.push((*st.hand(), v));
                bones_agents::random::RandomAgent.act(&v, &mut rng)
            } else {
                greedy.decide(&[], v.legal, &mut rng)
            };
            st.apply(a).unwrap();
        }
    }
    out
}

#[test]
fn search_specs_parse_print_and_reject_bad_options() {
    let spec = |s: &str| s.parse::<AgentSpec>().unwrap();
    assert_eq!(spec("search"), AgentSpec::Search(SearchOptions::default()));
    assert_eq!(SearchOptions::default().worlds, DEFAULT_SEARCH_WORLDS);
    let full = spec("search:worlds=8:pool=20:bidding=pimc:weighted=off:model=runs/a:b");
    assert_eq!(
        full,
        AgentSpec::Search(SearchOptions {
            worlds: 8,
            pool: 20,
            bidding: Bidding::Pimc,
            caution: 0,
            weighted: false,
            continuation: Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS },
            model: Some("runs/a:b".into())
        })
    );
    let policy = spec("search:worlds=8:continuation=policy");
    let AgentSpec::Search(o) = &policy else { panic!("{policy:?}") };
    assert_eq!(o.continuation, Continuation::Policy { exact: DEFAULT_EXACT_TRICKS });
    assert_eq!(
        policy.to_string(),
        format!("search:worlds=8:pool=32:bidding=policy:weighted=on:continuation=policy:exact={DEFAULT_EXACT_TRICKS}")
    );
    assert_eq!(spec("search:exact=0:continuation=policy"), spec("search:continuation=policy:exact=0"));
    let infoset = spec("search:worlds=8:continuation=infoset");
    let AgentSpec::Search(o) = &infoset else { panic!("{infoset:?}") };
    assert_eq!(o.continuation, Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS });
    assert_eq!(
        infoset.to_string(),
        format!(
            "search:worlds=8:pool=32:bidding=policy:weighted=on:continuation=infoset:exact={DEFAULT_INFOSET_TRICKS}"
        )
    );
    assert_eq!(spec("search:exact=2:continuation=infoset"), spec("search:continuation=infoset:exact=2"));
    assert_eq!(spec("search:continuation=infoset"), spec("search"), "the default continuation");
    let solver = spec("search:continuation=solver");
    assert_ne!(solver, spec("search"));
    assert_eq!(solver.to_string(), "search:worlds=128:pool=512:bidding=policy:weighted=on:continuation=solver");
    let cautious = spec("search:caution=1.5:bidding=playout");
    let AgentSpec::Search(o) = &cautious else { panic!("{cautious:?}") };
    assert_eq!((o.bidding, o.caution), (Bidding::Playout, 150));
    assert_eq!(
        cautious.to_string(),
        format!(
            "search:worlds=128:pool=512:bidding=playout:caution=1.50:weighted=on:continuation=infoset:exact={}",
            DEFAULT_INFOSET_TRICKS
        )
    );
    assert_eq!(spec("search:bidding=playout:caution=0"), spec("search:bidding=playout"));
    for s in [
        "search",
        "search:worlds=4",
        "search:weighted=off:model=models/texas42",
        "search:continuation=policy:exact=7:model=m",
        "search:continuation=infoset:exact=1",
        "search:continuation=solver:worlds=16",
        "search:bidding=playout:worlds=3",
        "search:bidding=playout:caution=0.25",
        &full.to_string(),
    ] {
        let once = spec(s);
        assert_eq!(spec(&once.to_string()), once, "{s} does not survive printing");
    }
    assert_eq!(spec("search:worlds=4"), spec("search:worlds=4:pool=16"), "pool defaults to 4 x worlds");
    // `pimc` takes its option after `:` too.
    assert_eq!(spec("pimc:worlds=3"), AgentSpec::Pimc { worlds: 3 });
    for bad in [
        "search:worlds=0",
        "search:worlds=x",
        "search:pool=2:worlds=4",
        "search:bidding=network",
        "search:weighted=yes",
        "search:depth=3",
        "search:model=",
        "search:continuation=network",
        "search:continuation=policy:exact=8",
        "search:continuation=policy:exact=-1",
        "search:continuation=infoset:exact=0",
        "search:continuation=infoset:exact=8",
        "search:continuation=Infoset",
        "search:continuation=solver:exact=2",
        "search:caution=1",
        "search:bidding=pimc:caution=1",
        "search:bidding=playout:caution=-1",
        "search:bidding=playout:caution=11",
        "search:bidding=playout:caution=NaN",
        "search:bidding=playout:caution=",
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err();
        assert!(matches!(e, SpecError::BadOption { .. }), "{bad}: {e}");
        assert!(e.to_string().contains("search"), "{bad}: {e}");
    }
    // A list of agents: `,` between agents, `:` inside one.
    let list = AgentSpec::parse_list("search:worlds=2:weighted=off,pimc:worlds=4").unwrap();
    assert_eq!(list.len(), 2);
}

#[test]
fn search_needs_a_policy_loader_and_texas42() {
    let s: AgentSpec = "search:worlds=2".parse().unwrap();
    let e = AgentFactory::new().build(&s, &game()).err().unwrap();
    assert!(matches!(e, SpecError::NotAvailable { .. }), "{e}");
    let loaded = AgentFactory::with_models(&SlopeLoader);
    assert!(loaded.build(&s, &game()).is_ok(), "the shipped stand-in loads");
    let e = loaded.build(&s, &Doubles::new(DoublesRules::default())).err().unwrap();
    assert!(matches!(e, SpecError::WrongGame { .. }) && e.to_string().contains("Texas 42"), "{e}");
    let e = loaded.build(&"search:model=steep".parse().unwrap(), &game()).err().unwrap();
    assert!(matches!(e, SpecError::BadModel { .. }) && e.to_string().contains("not a slope"), "{e}");
}

#[test]
fn search_is_legal_and_deterministic_in_whole_hands() {
    // search at seats 0 and 2 (every option combination over the hands,
    // every continuation),
    // random at 1 and 3, under the full rules: every action legal, and the
    // same seed plays the same hand again.
    let g = Texas42::new(Texas42Rules::FULL);
    let settings = |i: u64| SearchSettings {
        worlds: 2,
        pool: 6,
        bidding: [Bidding::Policy, Bidding::Pimc, Bidding::Playout][(i % 3) as usize],
        weighted: i % 4 < 2,
        continuation: match i {
            0..=3 => Continuation::Solver,
            4..=7 => Continuation::Policy { exact: (i % 3) as u8 },
            _ => Continuation::Infoset { exact: 1 + (i % 3) as u8 },
        },
        ..SearchSettings::default()
    };
    let play = |seed: u64| -> Vec<Action> {
        let mk = || {
            SearchAgent::new(Box::new(Slope { slope: 0.3, num_actions: g.num_actions() }), settings(seed), g.obs_len())
        };
        let mut searchers = [mk(), mk()];
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut st = g.new_state(seed, Episode::Hand);
        let mut actions = Vec::new();
        while let Some(seat) = st.current_seat() {
            let v = Texas42View::from_hand(st.hand(), seat as u8);
            let a = if seat % 2 == 0 {
                searchers[seat / 2].act(&v, &mut rng)
            } else {
                bones_agents::random::RandomAgent.act(&v, &mut rng)
            };
            assert!(st.legal_mask().contains(a), "illegal {a} (seed {seed}, seat {seat})");
            st.apply(a).unwrap();
            actions.push(a);
        }
        actions
    };
    for seed in 0..12 {
        assert_eq!(play(seed), play(seed), "seed {seed} played two ways");
    }
}

#[test]
fn every_weighed_world_replays_the_public_record() {
    let mut search = agent(0.5, SearchSettings { worlds: 4, pool: 12, ..SearchSettings::default() });
    let mut checked = 0;
    for (i, (real, v)) in seat0_positions(6).into_iter().enumerate() {
        let cons = Constraints::from_view(&v);
        let mut rng = AgentRng::seed_from_u64(i as u64);
        let pool = search.weighted_pool(&v, &mut rng);
        assert_eq!(pool.len(), 12);
        for (w, log_w) in &pool {
            assert!(log_w.is_finite() && *log_w <= 0.0, "a weight is a product of probabilities: {log_w}");
            assert!(cons.admits(&w.hands), "a world breaks the public constraints");
            assert_eq!(w.hands[0], real.hands[0], "the own hand is known");
            assert_eq!(replay(&v, w.dealt).unwrap(), *w, "the world is the public record replayed from its deal");
            assert_eq!(Texas42View::from_hand(w, 0), v, "the world shows seat 0 the same view");
            checked += 1;
        }
    }
    assert!(checked > 100, "too few worlds checked: {checked}");
}

/// Whether every other seat, in world `w`, took the highest legal action at
/// each of its public actions (what the greedy stand-in does).
fn others_greedy(v: &Texas42View, w: &Hand) -> bool {
    let mut h = Hand::new(v.rules, v.dealer, w.dealt);
    for a in public_actions(v) {
        let legal = h.legal_mask();
        if h.to_move != v.seat && legal.iter().last() != Some(a) {
            return false;
        }
        h.apply(a).unwrap();
    }
    true
}

#[test]
fn weighted_worlds_are_the_ones_the_policy_explains() {
    // The other seats play their highest legal action; a steep stand-in
    // policy (probability ~1 for the highest, ~e^-40 for the next) with a tiny
    // floor gives every world where some seat did otherwise a negligible
    // weight, so whenever the pool holds a world that explains the record,
    // only such worlds are drawn. Uniform worlds often do not explain it.
    let settings = SearchSettings { worlds: 8, pool: 64, floor: 1e-30, ..SearchSettings::default() };
    let mut steep = agent(40.0, settings);
    let mut uniform = agent(40.0, SearchSettings { weighted: false, ..settings });
    let (mut explained, mut positions, mut uniform_miss) = (0, 0, 0);
    for (i, (real, v)) in seat0_positions(12).into_iter().enumerate() {
        if v.declaration.is_none() || v.legal.len() < 2 {
            continue;
        }
        assert!(others_greedy(&v, &real), "the real deal explains the record");
        positions += 1;
        let mut rng = AgentRng::seed_from_u64(i as u64);
        let pool = steep.weighted_pool(&v, &mut rng);
        let any = pool.iter().any(|(w, _)| others_greedy(&v, w));
        for (w, log_w) in &pool {
            // The weight is the product over the other seats' choices.
            let expect = others_greedy(&v, w);
            assert_eq!(*log_w > -1.0, expect, "weight {log_w} for a world that explains the record: {expect}");
        }
        let mut rng = AgentRng::seed_from_u64(i as u64);
        let drawn = steep.worlds(&v, &mut rng);
        assert_eq!(drawn.len(), 8);
        if any {
            explained += 1;
            assert!(drawn.iter().all(|w| others_greedy(&v, w)), "a world the policy rules out was drawn");
        }
        let mut rng = AgentRng::seed_from_u64(i as u64);
        uniform_miss += uniform.worlds(&v, &mut rng).iter().filter(|w| !others_greedy(&v, w)).count();
    }
    println!("{explained} of {positions} positions had an explaining world in the pool; uniform drew {uniform_miss} that do not explain it");
    assert!(explained >= positions / 2, "too few positions with an explaining world: {explained} of {positions}");
    assert!(uniform_miss > 0, "uniform worlds should include ones the policy rules out");
}

#[test]
fn declaration_candidates_come_from_the_policy() {
    // The steep stand-in favours the highest declaration id; with the policy
    // bidding, only it is a candidate, so it is declared without search.
    let mut search = agent(40.0, SearchSettings { worlds: 2, pool: 2, ..SearchSettings::default() });
    let mut seen = 0;
    for (i, (_, v)) in seat0_positions(40).into_iter().enumerate() {
        if v.phase != bones_env::texas42::Phase::Declaring {
            continue;
        }
        let probs = search.policy_probs(&v);
        let sum: f32 = probs.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "probabilities over the legal actions sum to 1: {sum}");
        let mut rng = AgentRng::seed_from_u64(i as u64);
        assert_eq!(search.act(&v, &mut rng), v.legal.iter().last().unwrap());
        seen += 1;
    }
    assert!(seen > 0, "no declaration by seat 0 in 40 hands");
    let l = [0.0f32, 1.0, 2.0];
    let p = legal_prob(&l, ActionMask(0b101), 2);
    assert!((p - 1.0 / (1.0 + (-2.0f32).exp())).abs() < 1e-6);
    assert_eq!(legal_prob(&l, ActionMask(0b101), 1), 0.0);
}

#[test]
fn observation_rows_are_the_other_seats_views() {
    // The stand-in ignores observations; check the rows the agent builds are
    // what those seats saw, by a policy that records them.
    struct Recorder(std::sync::Arc<std::sync::Mutex<Vec<f32>>>, usize);
    impl Policy for Recorder {
        fn decide(&mut self, _: &[f32], legal: ActionMask, _: &mut AgentRng) -> Action {
            legal.nth(0)
        }
        fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
            *self.0.lock().unwrap() = obs.to_vec();
            vec![0.0; rows * self.1]
        }
    }
    let g = game();
    let rows = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let settings = SearchSettings { worlds: 1, pool: 1, ..SearchSettings::default() };
    let mut search = SearchAgent::new(Box::new(Recorder(rows.clone(), g.num_actions())), settings, g.obs_len());
    let (real, v) = seat0_positions(3).into_iter().rev().find(|(_, v)| v.trick >= 2).unwrap();
    let mut rng = AgentRng::seed_from_u64(5);
    let pool = search.weighted_pool(&v, &mut rng);
    let w = pool[0].0;
    // The rows, rebuilt by hand from the world's deal.
    let mut expect = Vec::new();
    let mut h = Hand::new(v.rules, v.dealer, w.dealt);
    for a in public_actions(&v) {
        if h.to_move != 0 && h.legal_mask().len() > 1 {
            let mut o = vec![0.0; g.obs_len()];
            Texas42View::from_hand(&h, h.to_move).observe(&mut o);
            expect.extend(o);
        }
        h.apply(a).unwrap();
    }
    assert!(!expect.is_empty());
    assert_eq!(*rows.lock().unwrap(), expect);
    let _ = real;
}

/// `h` played out by `policy` in every seat (its most probable legal action)
/// until `exact` tricks are left, then completed by the solver: the hand at
/// its end.
fn played_out(mut h: Hand, policy: &mut Slope, exact: u8) -> Hand {
    let mut rng = AgentRng::seed_from_u64(0);
    loop {
        if h.is_done() {
            return h;
        }
        if h.phase == Phase::Playing && 7 - h.trick <= exact {
            let mut solver = Solver::new();
            let bidders = team(h.bidder);
            let theirs = solver.value(&h);
            let mut end = h;
            end.points[bidders] += theirs as u8;
            end.points[1 - bidders] += (remaining_points(&h) - theirs) as u8;
            end.outcome = Some(Outcome::Settled { made: solver.contract(&h) });
            return end;
        }
        let obs = vec![0.0; game().obs_len()];
        let a = policy.decide(&obs, h.legal_mask(), &mut rng);
        h.apply(a).unwrap();
    }
}

#[test]
fn a_policy_playout_is_the_hand_played_out_by_the_policy_then_solved() {
    // One world (the true deal) and the same world twice, at bids,
    // declarations and plays: each candidate's tally is the hand played out
    // by the policy in every seat until `exact` tricks are left and then
    // solved, counted once per copy.
    let g = game();
    let mut checked = 0;
    for (hand, v) in seat0_positions(6).into_iter().filter(|(_, v)| v.legal.len() > 1) {
        for exact in [0u8, 2] {
            let mut policy = Slope { slope: 1.0, num_actions: g.num_actions() };
            let mut solver = Solver::new();
            let me = team(v.seat);
            let start = hand.points[me] as i64;
            for copies in [1u32, 2] {
                let worlds = vec![hand; copies as usize];
                let mut playouts = Playouts { policy: &mut policy, solver: &mut solver, obs_len: g.obs_len(), exact };
                let scores = playouts.scores(&v, &worlds, v.legal);
                assert_eq!(scores.iter().map(|t| t.action).collect::<Vec<_>>(), v.legal.iter().collect::<Vec<_>>());
                for t in &scores {
                    let mut h = hand;
                    h.apply(t.action).unwrap();
                    let end = played_out(h, &mut Slope { slope: 1.0, num_actions: g.num_actions() }, exact);
                    let made = end.outcome == Some(Outcome::Settled { made: true });
                    let bidders = team(end.bidder);
                    let award = end.award();
                    let expected = Tally {
                        action: t.action,
                        won: (made == (bidders == me)) as u32 * copies,
                        points: (end.points[me] as i64 - start) * copies as i64,
                        award: (award[me] as i64 - award[1 - me] as i64) * copies as i64,
                        contracts: (end.bidder == v.seat) as u32 * copies,
                        made: (end.bidder == v.seat && made) as u32 * copies,
                    };
                    assert_eq!(*t, expected, "exact={exact}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} positions checked");
}

#[test]
fn the_policy_continuation_with_every_trick_exact_decides_as_the_solver() {
    // `exact=7` leaves every trick to the solver: the same worlds, the same
    // decisions and values as `continuation=solver`.
    let exact = SearchSettings {
        worlds: 4,
        pool: 8,
        continuation: Continuation::Policy { exact: 7 },
        ..SearchSettings::default()
    };
    let solver = SearchSettings { continuation: Continuation::Solver, ..exact };
    let (mut a, mut b) = (agent(0.5, exact), agent(0.5, solver));
    let positions = seat0_positions(4);
    for (i, (_, v)) in positions.iter().enumerate() {
        let (ra, rb) = (&mut AgentRng::seed_from_u64(i as u64), &mut AgentRng::seed_from_u64(i as u64));
        assert_eq!(a.explain(v, ra), b.explain(v, rb), "position {i}");
    }
}

#[test]
fn priced_bidding_makes_the_bid_with_the_best_expected_award() {
    // `bidding=playout` bids the argmax of the mean award over its priced
    // bids (ties to the lowest id), and a pass is priced like any bid.
    let settings = SearchSettings { worlds: 4, pool: 8, bidding: Bidding::Playout, ..SearchSettings::default() };
    let (mut a, mut b) = (agent(0.5, settings), agent(0.5, settings));
    let mut checked = 0;
    for (i, (_, v)) in seat0_positions(12).iter().enumerate() {
        if v.phase != Phase::Bidding || v.legal.len() < 2 {
            continue;
        }
        let (ra, rb) = (&mut AgentRng::seed_from_u64(i as u64), &mut AgentRng::seed_from_u64(i as u64));
        let e = a.explain(v, ra);
        let (tallies, worlds) = b.price_bids(v, rb);
        assert_eq!(worlds, 4);
        assert_eq!(tallies.iter().map(|t| t.action).collect::<Vec<_>>(), v.legal.iter().collect::<Vec<_>>());
        let best = tallies.iter().map(|t| t.award).max().unwrap();
        assert_eq!(e.action, tallies.iter().find(|t| t.award == best).unwrap().action, "position {i}");
        for t in &tallies {
            assert!(t.made <= t.contracts && t.contracts <= 4 && t.won <= 4, "{t:?}");
        }
        assert!(e.values.is_some());
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} bidding positions");
}

#[test]
fn caution_values_a_bid_by_its_gain_over_passing_less_its_standard_errors() {
    use bones_agents::playout::WorldAwards;
    use bones_agents::search::cautious_values;
    use bones_env::texas42::PASS;
    let tally = |action| Tally { action, ..Tally::default() };
    let tallies = [tally(PASS), tally(PASS + 1), tally(PASS + 2)];
    // Three distinct worlds, the last drawn twice: the pass wins nothing, the
    // first bid 1 in each, the second 3, -1, 3 (3 twice).
    let awards = WorldAwards { copies: vec![1, 1, 2], award: vec![0, 1, 3, 0, 1, -1, 0, 1, 3] };
    // Gains over passing: 1 (no spread); 2 with a variance of 12 / 3 = 4 over
    // 4 worlds, a standard error of 1.
    assert_eq!(cautious_values(&tallies, &awards, 0.0), vec![0.0, 1.0, 2.0]);
    assert_eq!(cautious_values(&tallies, &awards, 1.5), vec![0.0, 1.0, 0.5]);
    assert_eq!(cautious_values(&tallies, &awards, 3.0), vec![0.0, 1.0, -1.0]);
    // A forced shaker cannot pass: its bids are worth their mean awards.
    let forced = [tally(PASS + 1), tally(PASS + 2)];
    let awards = WorldAwards { copies: vec![1, 3], award: vec![1, -1, -1, 3] };
    assert_eq!(cautious_values(&forced, &awards, 2.0), vec![-0.5, 2.0]);
    assert_eq!(cautious_values(&forced, &WorldAwards::default(), 2.0), vec![0.0, 0.0]);
}

#[test]
fn a_cautious_priced_bidder_bids_its_best_cautious_value_deterministically() {
    use bones_agents::search::cautious_values;
    let settings =
        SearchSettings { worlds: 6, pool: 12, bidding: Bidding::Playout, caution: 1.0, ..SearchSettings::default() };
    let (mut a, mut b, mut c) = (agent(0.5, settings), agent(0.5, settings), agent(0.5, settings));
    let mut checked = 0;
    for (i, (_, v)) in seat0_positions(12).iter().enumerate() {
        if v.phase != Phase::Bidding || v.legal.len() < 2 {
            continue;
        }
        let rng = || AgentRng::seed_from_u64(i as u64);
        let e = a.explain(v, &mut rng());
        assert!(v.legal.contains(e.action), "position {i}: {} is not legal", e.action);
        assert_eq!(e, c.explain(v, &mut rng()), "position {i}: the same seed bids the same");
        let (tallies, awards) = b.price_bids_by_world(v, &mut rng());
        let k = tallies.len();
        assert_eq!(awards.award.len(), awards.copies.len() * k);
        assert_eq!(awards.copies.iter().sum::<u32>(), 6);
        for (j, t) in tallies.iter().enumerate() {
            let sum: i64 = awards.copies.iter().enumerate().map(|(w, &n)| n as i64 * awards.award[w * k + j]).sum();
            assert_eq!(sum, t.award, "position {i}: the worlds' awards add up to the tally's");
        }
        let values = cautious_values(&tallies, &awards, 1.0);
        let plain = cautious_values(&tallies, &awards, 0.0);
        let best = values.iter().cloned().fold(f64::MIN, f64::max);
        let first_best = values.iter().position(|&x| x == best).unwrap();
        assert_eq!(e.action, tallies[first_best].action, "position {i}");
        assert!(values.iter().zip(&plain).all(|(c, p)| c <= p), "caution only lowers a bid's value");
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} bidding positions");
}
