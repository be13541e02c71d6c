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
use bones_agents::policy::Wanted;
use bones_agents::spec::{Bidding, SearchOptions, DEFAULT_INFOSET_TRICKS, DEFAULT_SEARCH_WORLDS};
use bones_agents::{
    legal_prob, Agent, AgentFactory, AgentRng, AgentSpec, Continuation, Policy, PolicyLoader, SearchAgent, SpecError,
};
use bones_env::rules::DoublesRules;
use bones_env::texas42::{Hand, Phase};
use bones_env::{Action, ActionMask, Doubles, Episode, Game, GameState, Texas42, Texas42Rules};
use bones_env::{SeatView, Texas42View};
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// A stand-in policy whose logits do not depend on the observation: `slope`
/// times the action id (0: uniform; large: the highest legal action).
pub(crate) struct Slope {
    pub(crate) slope: f32,
    pub(crate) num_actions: usize,
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
    fn load(&self, path: &Path, wanted: Wanted<'_>) -> Result<Box<dyn Policy>, String> {
        let Wanted { game, num_actions, .. } = wanted;
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

fn agent(slope: f32, options: SearchOptions) -> SearchAgent {
    let g = game();
    SearchAgent::new(Box::new(Slope { slope, num_actions: g.num_actions() }), options, g.obs_len())
}

/// [`seat0_positions`], each with the random stream it is searched with
/// (seeded by its index).
fn seeded_positions(hands: u64) -> impl Iterator<Item = (AgentRng, Hand, Texas42View)> {
    seat0_positions(hands).into_iter().enumerate().map(|(i, (h, v))| (AgentRng::seed_from_u64(i as u64), h, v))
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
            weighted: false,
            continuation: Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS },
            model: Some("runs/a:b".into()),
            ..SearchOptions::default()
        })
    );
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
    for s in [
        "search",
        "search:worlds=4",
        "search:weighted=off:model=models/texas42",
        "search:continuation=infoset:exact=1",
        "search:continuation=solver:worlds=16",
        "search:tricks=0",
        "search:tricks=6:bidding=pimc",
        &full.to_string(),
    ] {
        let once = spec(s);
        assert_eq!(spec(&once.to_string()), once, "{s} does not survive printing");
    }
    assert_eq!(spec("search:worlds=4"), spec("search:worlds=4:pool=16"), "pool defaults to 4 x worlds");
    // `tricks=N` prints where it is given; without it the search plays every
    // trick, and the canonical form is the one pinned before it existed.
    let AgentSpec::Search(o) = spec("search:tricks=2") else { unreachable!() };
    assert_eq!(o.tricks, Some(2));
    assert_eq!(
        spec("search:tricks=2").to_string(),
        "search:worlds=128:pool=512:bidding=policy:weighted=on:continuation=infoset:exact=3:tricks=2"
    );
    assert_eq!(SearchOptions::default().tricks, None);
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
        "search:continuation=infoset:exact=0",
        "search:continuation=infoset:exact=8",
        "search:continuation=Infoset",
        "search:continuation=solver:exact=2",
        "search:tricks=7",
        "search:tricks=-1",
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
fn the_removed_search_options_are_refused_with_one_line_saying_what_they_measured_and_where_their_code_is() {
    let playout = "each bid priced by policy playouts of the rest of the hand: -0.031 marks/hand [-0.086, +0.024] \
                   against search over 1,000 hands; the code is at commit fba7eea";
    let replies = "each other seat's own pimc reply to a candidate in the first trick: +0.010 and -0.016 marks/hand \
                   against search over 1,000 hands each; the code is at commit 6a741f9";
    let continuation = "policy playouts from each seat's own view, the solver finishing the last tricks: +0.012 \
                        marks/hand [-0.030, +0.054] against search over 1,000 hands; the code is at commit fba7eea";
    for (bad, part, why) in [
        ("search:bidding=playout", "`bidding=playout`", playout),
        ("search:bidding=playout:caution=1", "`bidding=playout`", playout),
        (
            "search:caution=1.5",
            "`caution`",
            "a margin of K standard errors on `bidding=playout`'s bids: with caution=1 -0.029 marks/hand [-0.084, \
             +0.026] against search over 1,000 hands; the code is at commit fba7eea",
        ),
        (
            "search:level1=2",
            "`level1`",
            "the other seats' replies from their own views (the policy's) in the first tricks: -0.008 marks/hand \
             [-0.045, +0.029] against search over 1,000 hands; the code is at commit d922c9e",
        ),
        ("search:replies=4", "`replies`", replies),
        ("search:replies=8:reply_worlds=32", "`replies`", replies),
        (
            "search:retie=2",
            "`retie`",
            "near ties of the contract fight scored again over fresh worlds: +0.011 marks/hand [-0.005, +0.028] \
             against search over 5,000 hands, at 2.5 times its time; the code is at commit b9dcaa2",
        ),
        ("search:continuation=policy", "`continuation=policy`", continuation),
        ("search:worlds=8:continuation=policy:exact=2", "`continuation=policy`", continuation),
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err();
        assert!(matches!(e, SpecError::BadOption { .. }), "{bad}: {e}");
        assert_eq!(e.to_string(), format!("bad agent spec `{bad}`: {part} was removed ({why})"));
    }
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
    // both continuations),
    // random at 1 and 3, under the full rules: every action legal, and the
    // same seed plays the same hand again.
    let g = Texas42::new(Texas42Rules::FULL);
    let options = |i: u64| SearchOptions {
        worlds: 2,
        pool: 6,
        bidding: Bidding::ALL[(i % 2) as usize],
        weighted: i % 4 < 2,
        continuation: match i {
            0..=5 => Continuation::Solver,
            _ => Continuation::Infoset { exact: 1 + (i % 3) as u8 },
        },
        ..SearchOptions::default()
    };
    let play = |seed: u64| -> Vec<Action> {
        let mk = || {
            SearchAgent::new(Box::new(Slope { slope: 0.3, num_actions: g.num_actions() }), options(seed), g.obs_len())
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
fn after_its_first_n_tricks_search_plays_the_policys_most_probable_play() {
    // With `tricks=N`, every play of trick N on is the policy's favourite (the
    // slope policy: the highest legal action), and the plays before it are
    // the search's own, which differ from it somewhere.
    let mut differs = 0;
    for n in [0u8, 2] {
        let mut a = agent(1.0, SearchOptions { worlds: 4, tricks: Some(n), ..SearchOptions::default() });
        let mut full = agent(1.0, SearchOptions { worlds: 4, ..SearchOptions::default() });
        let mut rng = AgentRng::seed_from_u64(u64::from(n));
        for (_, v) in seat0_positions(30).into_iter().filter(|(_, v)| v.phase == Phase::Playing) {
            let favourite = v.legal.iter().last().unwrap();
            let chosen = a.act(&v, &mut rng);
            assert!(v.legal.contains(chosen));
            if v.trick >= n {
                assert_eq!(chosen, favourite, "tricks={n}: trick {} played by the search", v.trick);
            } else if full.act(&v, &mut rng) != favourite {
                differs += 1;
            }
        }
    }
    assert!(differs > 0, "the first tricks were never the search's own");
}

#[test]
fn every_weighed_world_replays_the_public_record() {
    let mut search = agent(0.5, SearchOptions { worlds: 4, pool: 12, ..SearchOptions::default() });
    let mut checked = 0;
    for (mut rng, real, v) in seeded_positions(6) {
        let cons = Constraints::from_view(&v);
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
    let options = SearchOptions { worlds: 8, pool: 64, floor: 1e-30, ..SearchOptions::default() };
    let mut uniform = agent(40.0, SearchOptions { weighted: false, ..options.clone() });
    let mut steep = agent(40.0, options);
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
    let mut search = agent(40.0, SearchOptions { worlds: 2, pool: 2, ..SearchOptions::default() });
    let mut seen = 0;
    for (mut rng, _, v) in seeded_positions(40) {
        if v.phase != bones_env::texas42::Phase::Declaring {
            continue;
        }
        let probs = search.policy_probs(&v);
        let sum: f32 = probs.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "probabilities over the legal actions sum to 1: {sum}");
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
    let options = SearchOptions { worlds: 1, pool: 1, ..SearchOptions::default() };
    let mut search = SearchAgent::new(Box::new(Recorder(rows.clone(), g.num_actions())), options, g.obs_len());
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
