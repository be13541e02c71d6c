//! The arena with batched players (`bones_agents::batched`): a batched policy
//! that chooses as an agent does gives that agent's report to the bit (both
//! games, both amounts, any thread count, either side or both batched), its
//! shards merge with the arena's, batches span many games, and every way a
//! batched player can fail ends the evaluation with an error naming it, the
//! finished deals kept.

use bones_agents::arena::{
    evaluate_shard, evaluate_with, merge_shards, Amount, ArenaError, EvalOptions, EvalReport, MakeAgent,
};
use bones_agents::batched::{self, Batch, BatchPlayer, Entrant, WINDOW};
use bones_agents::AgentGame;
use bones_agents::{Agent, AgentFactory, AgentFailure, AgentRng, AgentSpec};
use bones_env::rules::DoublesRules;
use bones_env::{Action, Doubles, SeatView, Texas42, Texas42Rules};

fn none(_: u64) {}

/// The report without its wall-clock timings, as text (so NaN bounds compare).
fn stats(mut r: EvalReport) -> String {
    r.agent_seconds = [0.0; 2];
    format!("{r:?}")
}

/// The lowest (or highest) legal action id: as an agent, and as a batched policy.
#[derive(Clone, Copy)]
struct Extreme {
    highest: bool,
}

impl Extreme {
    fn pick(self, legal: impl DoubleEndedIterator<Item = Action>) -> Action {
        let mut legal = legal;
        if self.highest { legal.next_back() } else { legal.next() }.expect("a legal action")
    }
}

impl<V: SeatView> Agent<V> for Extreme {
    fn act(&mut self, view: &V, _: &mut AgentRng) -> Action {
        self.pick(view.legal().iter().collect::<Vec<_>>().into_iter())
    }
}

/// An [`Extreme`] deciding in batches, keeping the largest batch it saw.
struct Batched {
    extreme: Extreme,
    largest: usize,
    calls: usize,
}

impl Batched {
    fn new(highest: bool) -> Batched {
        Batched { extreme: Extreme { highest }, largest: 0, calls: 0 }
    }
}

impl BatchPlayer for Batched {
    fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<Action>, AgentFailure> {
        assert_eq!(batch.observations.len(), batch.rows * batch.obs_len);
        assert_eq!(batch.seats.len(), batch.rows);
        self.largest = self.largest.max(batch.rows);
        self.calls += 1;
        Ok((0..batch.rows)
            .map(|r| self.extreme.pick(batch.mask(r).iter().enumerate().filter(|(_, &m)| m).map(|(a, _)| a)))
            .collect())
    }
}

/// `[A, B]` as agents: `Some(highest)` an [`Extreme`], `None` random.
fn as_agents<G: AgentGame>(game: &G, opts: &EvalOptions, sides: [Option<bool>; 2], names: [String; 2]) -> EvalReport {
    let make: &MakeAgent<_> = &|who: usize| match sides[who] {
        Some(highest) => Ok(Box::new(Extreme { highest }) as Box<dyn Agent<_>>),
        None => AgentFactory::new().build(&AgentSpec::Random, game),
    };
    evaluate_with(game, names, make, opts, &none).unwrap()
}

/// The same with the extremes batched.
fn as_batched<G: AgentGame>(game: &G, opts: &EvalOptions, sides: [Option<bool>; 2]) -> (EvalReport, usize) {
    let mut policies = sides.map(|s| Batched::new(s.unwrap_or(false)));
    let [pa, pb] = &mut policies;
    let entrant = |side: Option<bool>, p: &'static str, policy| match side {
        Some(_) => Entrant::Batched { name: p.to_string(), policy },
        None => Entrant::Spec(&AgentSpec::Random),
    };
    let entrants = [entrant(sides[0], "a", pa as &mut dyn BatchPlayer), entrant(sides[1], "b", pb)];
    let r = batched::evaluate(game, entrants, &AgentFactory::new(), opts, &none).unwrap();
    (r, policies.iter().map(|p| p.largest).max().unwrap())
}

fn names(sides: [Option<bool>; 2]) -> [String; 2] {
    [
        if sides[0].is_some() { "a" } else { "random" }.to_string(),
        if sides[1].is_some() { "b" } else { "random" }.to_string(),
    ]
}

fn check_same<G: AgentGame>(game: &G) {
    let cases = [[Some(false), None], [None, Some(true)], [Some(false), Some(true)]];
    for amount in [Amount::Hands(40), Amount::Games(4)] {
        for (k, sides) in cases.into_iter().enumerate() {
            let opts = EvalOptions { amount, seed: 7 + k as u64, threads: 1 + k % 2 };
            let want = as_agents(game, &opts, sides, names(sides));
            let (got, largest) = as_batched(game, &opts, sides);
            assert_eq!(stats(got), stats(want), "{} {amount:?} {sides:?}", game.name());
            assert!(largest > 1, "a batch spans several games");
        }
    }
}

#[test]
fn a_batched_policy_gives_the_report_of_the_agent_that_chooses_alike_in_texas42() {
    check_same(&Texas42::new(Texas42Rules::STANDARD));
}

#[test]
fn a_batched_policy_gives_the_report_of_the_agent_that_chooses_alike_in_doubles() {
    check_same(&Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() }));
}

#[test]
fn batched_shards_merge_with_the_arenas_shards() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let opts = EvalOptions { amount: Amount::Hands(30), seed: 3, threads: 2 };
    let mut policy = Batched::new(false);
    let first = batched::evaluate_shard(
        &game,
        [Entrant::Batched { name: "lowest".into(), policy: &mut policy }, Entrant::Spec(&AgentSpec::Heuristic)],
        &AgentFactory::new(),
        &opts,
        0..6,
        &none,
    )
    .unwrap();
    let make: &MakeAgent<_> = &|who: usize| match who {
        0 => Ok(Box::new(Extreme { highest: false }) as Box<dyn Agent<_>>),
        _ => AgentFactory::new().build(&AgentSpec::Heuristic, &game),
    };
    let names = ["lowest".to_string(), "heuristic".to_string()];
    let rest = bones_agents::arena::evaluate_shard_with(&game, names.clone(), make, &opts, 6..15, &none).unwrap();
    let merged = merge_shards(&game, &[rest, first]).unwrap();
    assert_eq!(stats(merged), stats(evaluate_with(&game, names, make, &opts, &none).unwrap()));
    // A spec-only evaluation goes to the arena unchanged.
    let [h, r] = [AgentSpec::Heuristic, AgentSpec::Random];
    let plain = evaluate_shard(&game, [&h, &r], &AgentFactory::new(), &opts, 0..15, &none).unwrap();
    let via = batched::evaluate_shard(
        &game,
        [Entrant::Spec(&h), Entrant::Spec(&r)],
        &AgentFactory::new(),
        &opts,
        0..15,
        &none,
    );
    let no_time = |mut s: bones_agents::Shard| {
        s.deals.iter_mut().for_each(|d| d.nanos = [0; 2]);
        s
    };
    assert_eq!(no_time(via.unwrap()), no_time(plain));
}

#[test]
fn batches_hold_at_most_the_window() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let opts = EvalOptions { amount: Amount::Hands(3000), seed: 1, threads: 2 };
    let (r, largest) = as_batched(&game, &opts, [Some(false), None]);
    assert_eq!(r.hands, 3000);
    assert!(largest <= WINDOW && largest > WINDOW / 4, "largest batch {largest}");
}

/// A policy that goes wrong in one way at its `at`-th call (counting from 0).
struct Faulty {
    at: usize,
    calls: usize,
    fault: Fault,
}

#[derive(Clone, Copy, Debug)]
enum Fault {
    Fails,
    TooFew,
    Illegal,
    OutOfRange,
}

impl BatchPlayer for Faulty {
    fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<Action>, AgentFailure> {
        let mut lowest = Batched::new(false);
        let mut actions = lowest.decide(batch)?;
        self.calls += 1;
        if self.calls - 1 < self.at {
            return Ok(actions);
        }
        match self.fault {
            Fault::Fails => {
                return Err(AgentFailure { what: "it raised".into(), got: "ValueError".into(), expected: "ids".into() })
            }
            Fault::TooFew => {
                actions.pop();
            }
            Fault::Illegal => actions[0] = (0..batch.num_actions).find(|&a| !batch.mask(0)[a]).unwrap(),
            Fault::OutOfRange => actions[0] = batch.num_actions + 5,
        }
        Ok(actions)
    }
}

fn faulty(fault: Fault, at: usize, amount: Amount) -> ArenaError {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut policy = Faulty { at, calls: 0, fault };
    let entrants = [Entrant::Spec(&AgentSpec::Random), Entrant::Batched { name: "faulty".into(), policy: &mut policy }];
    let opts = EvalOptions { amount, seed: 2, threads: 1 };
    batched::evaluate(&game, entrants, &AgentFactory::new(), &opts, &none).unwrap_err()
}

#[test]
fn every_fault_of_a_batched_player_names_it_and_what_went_wrong() {
    for fault in [Fault::Fails, Fault::TooFew, Fault::Illegal, Fault::OutOfRange] {
        let e = faulty(fault, 0, Amount::Hands(8));
        let text = e.to_string();
        assert!(text.contains("`faulty`"), "{fault:?}: {text}");
        match (fault, &e) {
            (Fault::Fails, ArenaError::BatchFailed { rows, .. }) => assert!(*rows > 1 && text.contains("it raised")),
            (Fault::TooFew, ArenaError::BatchFailed { .. }) => assert!(text.contains("returned"), "{text}"),
            (Fault::Illegal, ArenaError::Illegal { legal, .. }) => assert!(!legal.is_empty()),
            (Fault::OutOfRange, ArenaError::Failed { failure, record, .. }) => {
                assert!(failure.what.contains("not an action of texas42"), "{text}");
                assert!(record.contains("\"seed\""));
            }
            _ => panic!("{fault:?} gave {e:?}"),
        }
    }
}

#[test]
fn a_batched_player_that_fails_late_keeps_the_finished_deals() {
    // Hands of 1,400 deals: the first window of games finishes before the
    // fault, later games are still in play.
    match faulty(Fault::Fails, 15, Amount::Hands(2800)) {
        ArenaError::Stopped { cause, finished } => {
            assert!(matches!(*cause, ArenaError::BatchFailed { .. }));
            assert!(finished.deals > 0 && finished.deals < 1400, "{}", finished.deals);
            assert_eq!(finished.hands, 2 * finished.deals);
        }
        e => panic!("expected Stopped, got {e:?}"),
    }
}
