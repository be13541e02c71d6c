//! A third game is cheap: a toy game defined only here runs through every
//! generic tool of Bones — `Env`, `VecEnv`, record replay, the `random` agent,
//! the arena and a one-update training run — with no change to agents/ or
//! train/. What it had to write is what the compiler asks of every game: the
//! rules ([`Game`], [`GameState`], [`SeatView`], in bones-env), and what the
//! agents need ([`AgentGame`]: the agents written for it, none here; a
//! redraw of what a seat cannot see; a seat view read back; [`ReviewGame`]:
//! whether its deals are reviewed; and [`SeatRequest`]: its view as an
//! outside program is sent it). Registering
//! it for the command line, the web page and Python is one variant of
//! `AnyGame` and one arm of `on_game!` in env/src/registry.rs; every tool
//! that reaches games through `on_game!` then fails to compile until those
//! impls exist (docs/interfaces/library.md, "Adding a game").
//!
//! The game, "high card": two players are dealt three dominoes each; in each
//! of three tricks the leader plays a domino, the other answers, and the higher
//! pip total takes the trick (a tie goes to the leader, who leads the next).
//! The side with more tricks wins the deal (+1/-1); a whole game is the first
//! to two deals.

use bones_agents::resample;
use bones_agents::resample::ResampleError;
use bones_agents::review::{Decisions, ReviewGame, Reviewer};
use bones_agents::seat_request::SeatRequest;
use bones_agents::{
    evaluate, Agent, AgentFactory, AgentGame, AgentRng, AgentSpec, Amount, EvalOptions, PolicyLoader, SpecError,
};
use bones_env::action::{ActionError, ActionMask};
use bones_env::deal::{deal, rng_for_seed};
use bones_env::observe::{layout_len, ObsWriter, Segment};
use bones_env::position::ViewError;
use bones_env::record::deals::{apply_named, legal_names, step_json};
use bones_env::record::json::{get_actions, get_u64, RecordError};
use bones_env::{
    Action, DealOutcome, Domino, DominoSet, Env, Episode, Game, GameState, IllegalAction, SeatView, VecEnv,
};
use bones_train::{train, TrainConfig, TrainError};
use burn::prelude::Device;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

const SEGMENTS: [Segment; 3] = [
    Segment { name: "hand", len: 28, doc: "my dominoes" },
    Segment { name: "led", len: 28, doc: "the domino led to this trick, if any" },
    Segment { name: "played", len: 28, doc: "every domino played so far" },
];
const OBS_LEN: usize = layout_len(&SEGMENTS);

/// High card; `lying` plants a bug that only an evaluation meets: a seat's
/// view names every domino *not* in its hand as legal (training reads the
/// state's legal mask, which is right; the arena's players read the view).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct HighCard {
    lying: bool,
}

/// The honest game.
const HIGH_CARD: HighCard = HighCard { lying: false };

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct HighCardState {
    #[serde(with = "bones_env::deal::rng_serde")]
    rng: ChaCha8Rng,
    episode: Episode,
    hands: [DominoSet; 4],
    played: DominoSet,
    led: Option<Domino>,
    to_move: usize,
    tricks: [u8; 2],
    deals_won: [u8; 2],
    finished: Option<[u8; 2]>,
    winner: Option<usize>,
    rewards: [f32; 4],
    /// The seats are told a wrong legal set ([`HighCard::lying`]).
    #[serde(default)]
    lying: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct HighCardView {
    seat: usize,
    hand: DominoSet,
    led: Option<Domino>,
    played: DominoSet,
    legal: ActionMask,
}

impl SeatView for HighCardView {
    fn seat(&self) -> usize {
        self.seat
    }
    fn legal(&self) -> ActionMask {
        self.legal
    }
    fn observe(&self, out: &mut [f32]) {
        let mut w = ObsWriter::new(out, &SEGMENTS);
        let hand = w.next("hand");
        for d in self.hand {
            hand[d.index()] = 1.0;
        }
        let led = w.next("led");
        if let Some(d) = self.led {
            led[d.index()] = 1.0;
        }
        let played = w.next("played");
        for d in self.played {
            played[d.index()] = 1.0;
        }
        w.finish();
    }
}

impl HighCardState {
    fn new(rng: ChaCha8Rng, episode: Episode) -> HighCardState {
        let mut s = HighCardState {
            rng,
            episode,
            hands: [DominoSet::EMPTY; 4],
            played: DominoSet::EMPTY,
            led: None,
            to_move: 0,
            tricks: [0; 2],
            deals_won: [0; 2],
            finished: None,
            winner: None,
            rewards: [0.0; 4],
            lying: false,
        };
        s.deal();
        s
    }

    fn deal(&mut self) {
        self.hands = deal(&mut self.rng, 2, 3).0;
        self.played = DominoSet::EMPTY;
        self.led = None;
        self.tricks = [0; 2];
    }
}

impl GameState for HighCardState {
    type View = HighCardView;
    fn view(&self, seat: usize) -> HighCardView {
        let mine = self.current_seat() == Some(seat);
        HighCardView {
            seat,
            hand: self.hands[seat],
            led: self.led,
            played: self.played,
            legal: match (mine, self.lying) {
                (false, _) => ActionMask::EMPTY,
                (true, false) => self.legal_mask(),
                (true, true) => {
                    let mut told = ActionMask::EMPTY;
                    (0..28).filter(|&a| !self.legal_mask().contains(a)).for_each(|a| told.insert(a));
                    told
                }
            },
        }
    }
    fn current_seat(&self) -> Option<usize> {
        (!self.is_terminal()).then_some(self.to_move)
    }
    fn legal_mask(&self) -> ActionMask {
        let mut m = ActionMask::EMPTY;
        if !self.is_terminal() {
            for d in self.hands[self.to_move] {
                m.insert(d.index());
            }
        }
        m
    }
    fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        let legal = self.legal_mask();
        if !legal.contains(a) {
            return Err(IllegalAction { action: a, legal });
        }
        let d = Domino::from_index(a);
        let seat = self.to_move;
        self.hands[seat].remove(d);
        self.played.insert(d);
        self.rewards = [0.0; 4];
        self.finished = None;
        match self.led.take() {
            None => {
                self.led = Some(d);
                self.to_move = 1 - seat;
            }
            Some(led) => {
                let leader = 1 - seat;
                let taker = if d.pips() > led.pips() { seat } else { leader };
                self.tricks[taker] += 1;
                self.to_move = taker;
                if self.hands[0].is_empty() {
                    let deal_winner = usize::from(self.tricks[1] > self.tricks[0]);
                    self.finished = Some(self.tricks);
                    self.deals_won[deal_winner] += 1;
                    let r = if deal_winner == 0 { 1.0 } else { -1.0 };
                    match self.episode {
                        Episode::Hand => {
                            self.winner = Some(deal_winner);
                            self.rewards = [r, -r, 0.0, 0.0];
                        }
                        Episode::Game if self.deals_won[deal_winner] == 2 => {
                            self.winner = Some(deal_winner);
                            self.rewards = [r, -r, 0.0, 0.0];
                        }
                        Episode::Game => self.deal(),
                    }
                }
            }
        }
        Ok(())
    }
    fn is_terminal(&self) -> bool {
        self.winner.is_some()
    }
    fn rewards(&self) -> [f32; 4] {
        self.rewards
    }
    fn observe(&self, seat: usize, out: &mut [f32]) {
        self.view(seat).observe(out)
    }
    fn seat_hands(&self) -> [DominoSet; 4] {
        self.hands
    }
    fn finished_deal(&self) -> Option<DealOutcome> {
        let tricks = self.finished?;
        let won = usize::from(tricks[1] > tricks[0]);
        let mut win = [0.0; 4];
        win[won] = 1.0;
        Some(DealOutcome { score: [tricks[0] as f64, tricks[1] as f64, 0.0, 0.0], win, points: None, contract: None })
    }
    fn winning_side(&self) -> Option<usize> {
        self.winner
    }
}

impl Game for HighCard {
    type State = HighCardState;
    fn name(&self) -> &'static str {
        "highcard"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn rules_json(&self) -> Value {
        if self.lying {
            json!({ "lying": true })
        } else {
            json!({})
        }
    }
    fn num_actions(&self) -> usize {
        28
    }
    fn obs_len(&self) -> usize {
        OBS_LEN
    }
    fn obs_segments(&self) -> &'static [Segment] {
        &SEGMENTS
    }
    fn obs_version(&self) -> u32 {
        1
    }
    fn action_name(&self, a: Action) -> &'static str {
        const NAMES: [&str; 28] = [
            "0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0", "3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4",
            "5-0", "5-1", "5-2", "5-3", "5-4", "5-5", "6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6",
        ];
        NAMES.get(a).copied().unwrap_or("?")
    }
    fn parse_action(&self, name: &str) -> Result<Action, ActionError> {
        name.parse::<Domino>().map(|d| d.index()).map_err(|_| ActionError {
            name: name.to_string(),
            game: "highcard",
            expected: "a domino like `6-4`",
        })
    }
    fn new_state(&self, seed: u64, episode: Episode) -> HighCardState {
        HighCardState { lying: self.lying, ..HighCardState::new(rng_for_seed(seed), episode) }
    }
    fn replay_record(record: &mut Map<String, Value>) -> Result<(Self, HighCardState, Value), RecordError> {
        let seed = get_u64(record, "seed", u64::MAX)?.ok_or_else(|| RecordError::record("a record needs `seed`"))?;
        let lying = record.get("rules").and_then(|r| r.get("lying")).and_then(Value::as_bool);
        let game = HighCard { lying: lying.unwrap_or(false) };
        let mut state = game.new_state(seed, Episode::Hand);
        let mut steps = Vec::new();
        for (i, name) in get_actions(record)?.iter().enumerate() {
            let seat = state.current_seat().unwrap_or(0);
            let legal = legal_names(&game, &state);
            let a = apply_named(&game, &mut state, i, name)?;
            steps.push(step_json(seat, game.action_name(a), legal));
        }
        let result = json!({ "steps": steps, "done": state.is_terminal(), "winner": state.winner });
        Ok((game, state, result))
    }
}

/// The view as an outside program (`exec:`) is sent it.
impl SeatRequest for HighCardView {
    const GAME: &'static str = "highcard";

    fn to_request(&self) -> Value {
        let names = |set: DominoSet| set.iter().map(|d| d.to_string()).collect::<Vec<_>>();
        json!({
            "game": Self::GAME,
            "seat": self.seat,
            "hand": names(self.hand),
            "led": self.led.map(|d| d.to_string()),
            "played": names(self.played),
            "legal": self.legal.iter().map(Self::action_name).collect::<Vec<_>>(),
        })
    }

    fn action_name(a: Action) -> &'static str {
        HIGH_CARD.action_name(a)
    }
}

/// The dominoes `seat` cannot see in `state`'s deal: all but its own and
/// those played.
fn unseen(hand: DominoSet, played: DominoSet) -> Vec<Domino> {
    (DominoSet::FULL - hand - played).iter().collect()
}

/// `n` of `pool`, drawn uniformly.
fn draw(mut pool: Vec<Domino>, n: usize, rng: &mut AgentRng) -> DominoSet {
    for j in 0..n {
        let k = rng.random_range(j..pool.len());
        pool.swap(j, k);
    }
    pool[..n].iter().copied().collect()
}

/// High card has no agents of its own; the other hand is any `n` of the
/// dominoes a seat has not seen.
impl AgentGame for HighCard {
    fn position(_: &Map<String, Value>) -> Result<(HighCard, HighCardState), ViewError> {
        Err(ViewError("high card positions are played from records only".into()))
    }

    fn game_agent(
        &self,
        spec: &AgentSpec,
        _models: Option<&dyn PolicyLoader>,
    ) -> Result<Box<dyn Agent<HighCardView>>, SpecError> {
        Err(SpecError::WrongGame {
            spec: spec.to_string(),
            game: "highcard",
            reason: "high card has no agents of its own: use `random` or `model:PATH`".into(),
        })
    }

    fn resample(&self, state: &HighCardState, seat: usize, rng: &mut AgentRng) -> Result<HighCardState, ResampleError> {
        if state.is_terminal() {
            return Err(ResampleError::Over);
        }
        let other = 1 - seat;
        let mut world = state.clone();
        let pool = unseen(state.hands[seat], state.played);
        world.hands[other] = draw(pool, state.hands[other].len(), rng);
        Ok(world)
    }

    fn world_of(&self, view: &HighCardView, rng: &mut AgentRng) -> Result<HighCardState, ResampleError> {
        // The other seat has played to this trick when a domino is led.
        let theirs = view.hand.len() - usize::from(view.led.is_some());
        let mut world = HighCardState::new(rng_for_seed(0), Episode::Hand);
        world.hands = [DominoSet::EMPTY; 4];
        world.hands[view.seat] = view.hand;
        world.hands[1 - view.seat] = draw(unseen(view.hand, view.played), theirs, rng);
        (world.played, world.led, world.to_move) = (view.played, view.led, view.seat);
        Ok(world)
    }
}

impl ReviewGame for HighCard {
    const REVIEWED: bool = false;

    fn review_deal(
        &self,
        _: &mut Reviewer,
        _: &HighCardState,
        _: Action,
        _: usize,
        _: usize,
        _: &Decisions<HighCard>,
    ) -> Value {
        Value::Null
    }
}

#[test]
fn a_toy_game_plays_through_env_and_vec_env() {
    let mut env = Env::new(HIGH_CARD, Episode::Game);
    for seed in 0..20 {
        let mut t = env.reset(seed).clone();
        let mut total = [0.0f32; 2];
        while !t.terminated {
            assert_eq!(t.obs.len(), OBS_LEN);
            let a = t.legal.iter().last().unwrap();
            t = env.step(a).unwrap().clone();
            total[0] += t.rewards[0];
            total[1] += t.rewards[1];
        }
        assert_eq!(total[0], -total[1]);
        assert_eq!(total[0].abs(), 1.0);
        assert!(env.step(0).is_err());
    }
    // The same seeds give the same buffers for any thread count.
    let run = |threads| {
        let mut v = VecEnv::new(HIGH_CARD, Episode::Hand, 6, 3, threads);
        let mut trace = Vec::new();
        for _ in 0..40 {
            let actions: Vec<Action> =
                (0..6).map(|i| (0..28).find(|&a| v.mask[i * 28 + a] == 1.0).expect("a legal action")).collect();
            v.step(&actions).unwrap();
            trace.push((v.obs.clone(), v.rewards.clone(), v.dones.clone()));
        }
        trace
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn a_toy_game_replays_its_records() {
    let mut record = json!({"seed": 4}).as_object().unwrap().clone();
    let state = HIGH_CARD.new_state(4, Episode::Hand);
    let first = state.legal_mask().iter().next().unwrap();
    record.insert("actions".into(), json!([HIGH_CARD.action_name(first)]));
    let (_, after, result) = HighCard::replay_record(&mut record).unwrap();
    assert_eq!(after.current_seat(), Some(1));
    assert_eq!(result["steps"][0]["seat"], 0);
    record.insert("actions".into(), json!(["9-9"]));
    let e = HighCard::replay_record(&mut record).unwrap_err();
    assert_eq!(e.index, Some(0));
}

#[test]
fn a_toy_game_is_played_by_random_agents_in_the_arena() {
    let factory = AgentFactory::new();
    let random = AgentSpec::Random;
    let opts = EvalOptions { amount: Amount::Games(20), seed: 1, threads: 2 };
    let report = evaluate(&HIGH_CARD, [&random, &random], &factory, &opts, &|_| {}).unwrap();
    assert_eq!((report.game, report.games, report.sides), ("highcard", 20, 2));
    assert!(report.hands >= 40);
    assert!(report.points_per_round.is_some() && report.contracts.is_none());
    let again = evaluate(&HIGH_CARD, [&random, &random], &factory, &EvalOptions { threads: 1, ..opts }, &|_| {});
    assert_eq!(again.unwrap().wins, report.wins);
    // Agents written for other games say so.
    let e = factory.build(&AgentSpec::Heuristic, &HIGH_CARD).err().unwrap();
    assert!(matches!(e, SpecError::WrongGame { .. }) && e.to_string().contains("highcard"), "{e}");
}

#[test]
fn a_toy_game_redraws_what_a_seat_cannot_see_and_keeps_what_it_can() {
    use rand::SeedableRng;
    let mut rng = AgentRng::seed_from_u64(3);
    for seed in 0..30 {
        let mut state = HIGH_CARD.new_state(seed, Episode::Hand);
        for _ in 0..seed % 5 {
            let a = state.legal_mask().iter().next().unwrap();
            state.apply(a).unwrap();
        }
        let seat = state.current_seat().unwrap();
        let world = resample(&HIGH_CARD, &state, seat, &mut rng).unwrap();
        assert_eq!(world.view(seat), state.view(seat), "seed {seed}: the seat's view is kept");
        assert_eq!(world.hands[1 - seat].len(), state.hands[1 - seat].len());
        assert!((world.hands[1 - seat] & (state.hands[seat] | state.played)).is_empty());
        let rebuilt = HIGH_CARD.world_of(&state.view(seat), &mut rng).unwrap();
        assert_eq!(rebuilt.view(seat), state.view(seat), "seed {seed}: a world of the view has that view");
    }
    let e = resample(&HIGH_CARD, &HIGH_CARD.new_state(0, Episode::Hand), 2, &mut rng).unwrap_err();
    assert_eq!(e, ResampleError::Seat { seat: 2, players: 2 });
}

/// The smoke config for high card, `total_hands` long and evaluated after
/// every update, and an empty run folder `NAME-PID` in the temporary folder.
fn smoke_run(total_hands: u64, name: &str) -> (TrainConfig, std::path::PathBuf) {
    let mut cfg = TrainConfig::load("smoke").unwrap();
    cfg.model.game = "highcard".into();
    cfg.run.total_hands = total_hands;
    cfg.ppo.num_steps = 8;
    cfg.eval.eval_every = 1;
    let out = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    (cfg, out)
}

#[test]
fn a_toy_game_trains_for_one_update() {
    let (cfg, out) = smoke_run(10, "bones-toy");
    let summary = train(HIGH_CARD, &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.update >= 1 && summary.state.hands >= 10);
    assert!(summary.checkpoint.join("model.bpk").is_file());
    // It has no heuristic player: it is evaluated against random alone.
    let evaluated: Vec<&str> = summary.state.last_eval.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(evaluated, ["win_rate_vs_random", "reward_per_hand_vs_random"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_toy_game_passes_the_conformance_suite() {
    // The suite every registered game passes (bones_env::testing); the toy game
    // has no domino ledger and no resampling of hidden dominoes, so those two
    // checks are skipped and the rest run.
    let config = bones_env::testing::SuiteConfig::default();
    let report = bones_env::testing::check_game(&HIGH_CARD, &config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.episodes, config.hand_episodes + config.game_episodes);
    assert!(report.states > report.episodes && report.restores == report.episodes);
    assert_eq!((report.ledgers, report.resamples), (0, 0));
}

#[test]
fn a_failed_evaluation_stops_the_run_in_one_line_with_its_update_saved() {
    let (cfg, out) = smoke_run(30, "bones-toy-failed-eval");
    let e = train(HighCard { lying: true }, &cfg, &out, false, Device::flex(), &mut ()).unwrap_err();
    let line = e.to_string();
    let TrainError::Evaluation { opponent: "random", update: 1, checkpoint: Ok(dir), .. } = &e else {
        panic!("not the evaluation's failure after update 1: {line}");
    };
    assert!(line.starts_with("the evaluation against `random` after update 1 failed: "), "{line}");
    assert!(line.contains("illegal action") && !line.contains('\n'), "{line}");
    assert!(line
        .ends_with(&format!("the run stopped with its progress saved in {} (resume the run to go on)", dir.display())));
    assert!(dir.ends_with("update-000001") && dir.join("model.bpk").is_file(), "{}", dir.display());
    // The checkpoint holds the update's counters (a registered game's run
    // resumes from it; the toy game is not registered, so it cannot).
    let state = bones_policy::folder::read_run_state(dir).unwrap();
    assert_eq!(state.update, 1);
    assert!(state.hands > 0 && state.last_eval.is_empty());
    let _ = std::fs::remove_dir_all(&out);
}
