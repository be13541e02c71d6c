//! The seat driver ([`bones_agents::Table`]) on Texas 42 (standard and full
//! rules) and Doubles (2 to 4 players), on bare states and on environments:
//! agents play up to the outside seat and wait there, all-agent tables play to
//! the end, the same seeds give the same game (and the same draws as the
//! hand-written loops it replaces), refused actions change nothing, and whole
//! games cross their hand boundaries.

use bones_agents::table::DecideError;
use bones_agents::AgentGame;
use bones_agents::{
    Agent, AgentError, AgentFactory, AgentRng, AgentSpec, Bare, Board, Played, Refusal, Seats, Table, TableError,
    ViewOf,
};
use bones_env::rules::DoublesRules;
use bones_env::{Action, Doubles, Env, EnvError, Episode, GameState, SeatView, Texas42, Texas42Rules};
use rand::{Rng, SeedableRng};

/// Every game the checks run on.
macro_rules! for_each_game {
    ($check:ident) => {
        $check(Texas42::new(Texas42Rules::STANDARD));
        $check(Texas42::new(Texas42Rules::FULL));
        for players in 2..=4 {
            $check(Doubles::new(DoublesRules { players, ..DoublesRules::default() }));
        }
    };
}

fn agent<G: AgentGame>(game: &G, spec: &str) -> Box<dyn Agent<ViewOf<G>>> {
    AgentFactory::new().build(&AgentSpec::parse(spec).unwrap(), game).unwrap()
}

/// `spec` at every seat but `outside`.
fn seats<G: AgentGame>(game: &G, spec: &str, outside: &[usize]) -> Seats<G> {
    (0..game.num_players()).map(|s| (!outside.contains(&s)).then(|| agent(game, spec))).collect()
}

fn rng(seed: u64) -> AgentRng {
    AgentRng::seed_from_u64(seed)
}

/// The state as bytes, to compare states.
fn bytes<S: GameState>(state: &S) -> String {
    serde_json::to_string(state).unwrap()
}

/// A random outside player (its own stream, not the table's).
fn outside_choice<S: GameState>(state: &S, rng: &mut AgentRng) -> Action {
    let legal = state.legal_mask();
    legal.nth(rng.random_range(0..legal.len()))
}

/// Plays a table to the end: the agents, and `outside_choice` for the outside
/// seats. Returns how many outside actions were played.
fn play_out<G: AgentGame, B: Board<Game = G>>(table: &mut Table<G, B>, outside_seed: u64) -> usize {
    let mut own = rng(outside_seed);
    let mut outside = 0;
    table.advance().unwrap();
    while let Some(seat) = table.outside_to_move() {
        assert!(!table.has_agent(seat));
        let a = outside_choice(table.state(), &mut own);
        table.apply(a).unwrap();
        outside += 1;
        table.advance().unwrap();
    }
    outside
}

fn bots_advance_to_the_outside_seat<G: AgentGame>(game: G) {
    for outside in 0..game.num_players() {
        for seed in 0..5 {
            let mut table = Table::new(
                Bare::dealt(game.clone(), seed, Episode::Hand),
                seats(&game, "heuristic", &[outside]),
                rng(seed),
            );
            table.advance().unwrap();
            match table.to_move() {
                Some(seat) => {
                    assert_eq!(seat, outside, "the table waits only for the outside seat");
                    assert_eq!(table.outside_to_move(), Some(outside));
                }
                None => assert!(table.state().is_terminal()),
            }
            assert!(table.history().iter().all(|&(s, _)| s != outside), "no one played for the outside seat");
            // Advancing again plays nothing: the outside seat is still to move.
            let before = table.history().len();
            table.advance().unwrap();
            assert_eq!(table.history().len(), before);
        }
    }
}

#[test]
fn bots_advance_to_the_outside_seat_and_wait_there() {
    for_each_game!(bots_advance_to_the_outside_seat);
}

fn all_bots_play_to_the_end<G: AgentGame>(game: G) {
    for episode in [Episode::Hand, Episode::Game] {
        for seed in 0..3 {
            let mut table =
                Table::new(Bare::dealt(game.clone(), seed, episode), seats(&game, "random", &[]), rng(seed));
            table.advance().unwrap();
            assert!(table.is_over() && table.state().is_terminal());
            assert_eq!(table.outside_to_move(), None);
            // The history replays from the deal to the same state.
            let mut replay = game.new_state(seed, episode);
            for &(seat, a) in table.history() {
                assert_eq!(replay.current_seat(), Some(seat));
                replay.apply(a).unwrap();
            }
            assert_eq!(bytes(&replay), bytes(table.state()));
            let names = table.action_names();
            assert_eq!(names.len(), table.history().len());
            assert!(names.iter().zip(table.history()).all(|(n, &(_, a))| game.parse_action(n) == Ok(a)));
        }
    }
}

#[test]
fn an_all_bot_table_plays_the_episode_to_its_end() {
    for_each_game!(all_bots_play_to_the_end);
}

fn game_of<G: AgentGame>(game: &G, seed: u64, agent_seed: u64, outside: &[usize]) -> Vec<(usize, Action)> {
    let board = Bare::dealt(game.clone(), seed, Episode::Game);
    let mut table = Table::new(board, seats(game, "random", outside), rng(agent_seed));
    play_out(&mut table, 99);
    table.history().to_vec()
}

fn same_seeds_same_game<G: AgentGame>(game: G) {
    for seed in 0..3 {
        assert_eq!(game_of(&game, seed, 5, &[0]), game_of(&game, seed, 5, &[0]));
        assert_eq!(game_of(&game, seed, 5, &[]), game_of(&game, seed, 5, &[]));
        assert_ne!(game_of(&game, seed, 5, &[]), game_of(&game, seed, 6, &[]), "the agents' seed matters");
    }
}

#[test]
fn the_same_seeds_give_the_same_game() {
    for_each_game!(same_seeds_same_game);
}

/// The loop the front ends wrote by hand: one stream for every agent, each
/// acting from its seat's view in move order; the outside seat answered by
/// `outside_choice`.
fn hand_written<G: AgentGame>(game: &G, seed: u64, agent_seed: u64, outside: usize) -> Vec<(usize, Action)> {
    let mut agents = seats(game, "random", &[outside]);
    let mut state = game.new_state(seed, Episode::Game);
    let mut rng = rng(agent_seed);
    let mut own = self::rng(99);
    let mut history = Vec::new();
    while let Some(seat) = state.current_seat() {
        let a = match agents[seat].as_mut() {
            Some(agent) => agent.act(&state.view(seat), &mut rng),
            None => outside_choice(&state, &mut own),
        };
        state.apply(a).unwrap();
        history.push((seat, a));
    }
    history
}

fn draws_as_the_old_loops<G: AgentGame>(game: G) {
    for seed in 0..3 {
        assert_eq!(game_of(&game, seed, seed + 10, &[1]), hand_written(&game, seed, seed + 10, 1));
    }
}

#[test]
fn the_table_draws_as_the_hand_written_loops_did() {
    for_each_game!(draws_as_the_old_loops);
}

fn illegal_outside_action_refused<G: AgentGame>(game: G) {
    for seed in 0..5 {
        let mut table =
            Table::new(Bare::dealt(game.clone(), seed, Episode::Game), seats(&game, "heuristic", &[0]), rng(seed));
        table.advance().unwrap();
        let Some(seat) = table.outside_to_move() else { continue };
        let state = bytes(table.state());
        let history = table.history().to_vec();
        let stream = table.rng().clone();
        let legal = table.state().legal_mask();
        let illegal = (0..game.num_actions()).find(|&a| !legal.contains(a)).unwrap();
        for a in [illegal, game.num_actions(), 1000] {
            match table.apply(a) {
                Err(TableError::Illegal(e)) => assert_eq!((e.action, e.legal), (a, legal)),
                other => panic!("{other:?}"),
            }
            assert_eq!(bytes(table.state()), state, "the state is unchanged");
            assert_eq!(table.history(), &history[..]);
            assert_eq!(table.rng(), &stream, "no draw was taken");
            assert_eq!(table.outside_to_move(), Some(seat));
        }
        // A legal action is then accepted.
        table.apply(legal.nth(0)).unwrap();
        assert_eq!(table.history().last(), Some(&(seat, legal.nth(0))));
    }
}

#[test]
fn an_illegal_outside_action_is_refused_and_the_table_is_unchanged() {
    for_each_game!(illegal_outside_action_refused);
}

fn outside_action_for_an_agent_refused<G: AgentGame>(game: G) {
    let mut table = Table::new(Bare::dealt(game.clone(), 3, Episode::Hand), seats(&game, "heuristic", &[]), rng(3));
    let seat = table.to_move().unwrap();
    let a = table.state().legal_mask().nth(0);
    assert_eq!(table.apply(a).unwrap_err(), TableError::AgentToMove { seat });
    assert!(table.history().is_empty());
    let e = table.apply(a).unwrap_err().to_string();
    assert!(e.contains(&format!("seat {seat}")) && e.contains("agent"), "{e}");
}

#[test]
fn an_outside_action_while_an_agent_is_to_move_is_refused() {
    for_each_game!(outside_action_for_an_agent_refused);
}

fn action_after_the_end_refused<G: AgentGame>(game: G) {
    let mut table = Table::new(Bare::dealt(game.clone(), 4, Episode::Hand), seats(&game, "random", &[]), rng(4));
    table.advance().unwrap();
    assert!(table.is_over());
    let n = table.history().len();
    assert_eq!(table.apply(0).unwrap_err(), TableError::Over);
    assert_eq!(table.decide().unwrap_err(), DecideError::Over);
    table.advance().unwrap();
    assert_eq!(table.history().len(), n, "nothing more is played");
}

#[test]
fn an_action_after_the_end_is_refused_as_over() {
    for_each_game!(action_after_the_end_refused);
}

fn whole_games_cross_hands<G: AgentGame>(game: G) {
    for seed in 0..3 {
        let outside = game.num_players() - 1;
        let mut table =
            Table::new(Bare::dealt(game.clone(), seed, Episode::Game), seats(&game, "random", &[outside]), rng(seed));
        let mut own = rng(seed ^ 77);
        // (ply, by agent) of every action that ended a deal; outside moves per deal.
        let mut ends = Vec::new();
        let mut outside_moves = vec![0usize];
        let mut on = |p: &Played<'_, G>| {
            if p.after.finished_deal().is_some() && !p.after.is_terminal() {
                ends.push(p.ply);
                outside_moves.push(0);
            }
            if !p.by_agent {
                *outside_moves.last_mut().unwrap() += 1;
            }
        };
        table.advance_with(&mut on).unwrap();
        while table.outside_to_move().is_some() {
            let a = outside_choice(table.state(), &mut own);
            table.apply_with(a, &mut on).unwrap();
            table.advance_with(&mut on).unwrap();
        }
        assert!(table.state().is_terminal());
        assert!(table.state().winning_side().is_some(), "the whole game is played to its winner");
        assert!(!ends.is_empty(), "a whole game has more than one deal (seed {seed})");
        assert!(ends.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ends.len() + 1, outside_moves.len());
        // The outside seat is asked in the later deals too.
        assert!(outside_moves[1..].iter().any(|&n| n > 0), "{outside_moves:?}");
    }
}

#[test]
fn a_whole_game_episode_crosses_hand_boundaries() {
    for_each_game!(whole_games_cross_hands);
}

fn played_reports_each_action<G: AgentGame>(game: G) {
    let mut table = Table::new(Bare::dealt(game.clone(), 8, Episode::Hand), seats(&game, "heuristic", &[0]), rng(8));
    let mut seen = Vec::new();
    let mut own = rng(1);
    let mut on = |p: &Played<'_, G>| {
        assert_eq!(p.before.current_seat(), Some(p.seat));
        let mut replay = p.before.clone();
        replay.apply(p.action).unwrap();
        assert_eq!(bytes(&replay), bytes(p.after), "`after` is `before` with the action");
        assert_eq!(p.by_agent, p.seat != 0);
        assert_eq!(p.game.name(), game.name());
        seen.push((p.ply, p.seat, p.action));
    };
    table.advance_with(&mut on).unwrap();
    while table.outside_to_move().is_some() {
        let a = outside_choice(table.state(), &mut own);
        table.apply_with(a, &mut on).unwrap();
        table.advance_with(&mut on).unwrap();
    }
    let expected: Vec<_> = table.history().iter().enumerate().map(|(i, &(s, a))| (i + 1, s, a)).collect();
    assert_eq!(seen, expected);
}

#[test]
fn the_with_variants_report_every_action_with_its_states() {
    for_each_game!(played_reports_each_action);
}

fn decide_without_playing<G: AgentGame>(game: G) {
    for seed in 0..5 {
        let board = Bare::dealt(game.clone(), seed, Episode::Hand);
        let mut table = Table::shared(board, agent(&game, "random"), 0..game.num_players(), rng(seed));
        let state = bytes(table.state());
        let a = table.decide().unwrap();
        assert!(table.state().legal_mask().contains(a));
        assert_eq!(bytes(table.state()), state, "the choice is not played");
        assert!(table.history().is_empty());
        // The same draw as the agent acting on its own.
        let seat = table.to_move().unwrap();
        let mut alone = agent(&game, "random");
        assert_eq!(alone.act(&table.state().view(seat), &mut rng(seed)), a);
        // An outside seat has nothing to decide.
        let mut outside: Table<G> = Table::new(Bare::dealt(game.clone(), seed, Episode::Hand), Vec::new(), rng(seed));
        assert_eq!(outside.decide().unwrap_err(), DecideError::Outside { seat });
    }
}

#[test]
fn decide_asks_the_agent_to_move_without_playing_its_choice() {
    for_each_game!(decide_without_playing);
}

fn shared_agent_plays_its_seats<G: AgentGame>(game: G) {
    let players = game.num_players();
    let mut table =
        Table::shared(Bare::dealt(game.clone(), 2, Episode::Game), agent(&game, "heuristic"), 1..players, rng(2));
    assert!(!table.has_agent(0) && (1..players).all(|s| table.has_agent(s)) && !table.has_agent(players));
    play_out(&mut table, 3);
    assert!(table.is_over());
    // One agent for several seats plays as one agent per seat does (an agent
    // acts from the view and the stream only).
    let mut separate = Table::new(Bare::dealt(game.clone(), 2, Episode::Game), seats(&game, "heuristic", &[0]), rng(2));
    play_out(&mut separate, 3);
    assert_eq!(table.history(), separate.history());
}

#[test]
fn a_shared_agent_plays_every_seat_it_sits_at() {
    for_each_game!(shared_agent_plays_its_seats);
}

/// Chooses an action that is never legal.
struct Cheat;

impl<V: SeatView> Agent<V> for Cheat {
    fn act(&mut self, view: &V, _: &mut AgentRng) -> Action {
        (0..64).find(|&a| !view.legal().contains(a)).unwrap()
    }
}

/// A hand of `game` dealt from seed 6 with `agent` alone, in the seat that
/// acts first: the table, that seat, and the state's bytes before anyone acts.
fn alone_in_the_first_seat<G: AgentGame>(game: G, agent: Box<dyn Agent<ViewOf<G>>>) -> (Table<G>, usize, String) {
    let mut seats: Seats<G> = (0..game.num_players()).map(|_| None).collect();
    let board = Bare::dealt(game, 6, Episode::Hand);
    let first = board.to_move().unwrap();
    seats[first] = Some(agent);
    let table = Table::new(board, seats, rng(6));
    let state = bytes(table.state());
    (table, first, state)
}

fn refused_agent_is_an_error<G: AgentGame>(game: G) {
    let (mut table, first, state) = alone_in_the_first_seat(game, Box::new(Cheat));
    let e: AgentError<_> = table.advance().unwrap_err();
    assert_eq!(e.seat, first);
    match &e.refusal {
        Refusal::Board { action, reason } => assert_eq!(reason.action, *action),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().starts_with(&format!("the agent in seat {first} chose an illegal action: ")), "{e}");
    assert_eq!(bytes(table.state()), state);
    assert!(table.history().is_empty());
    assert_eq!(table.to_move(), Some(first));
    match table.decide().unwrap_err() {
        DecideError::Illegal(AgentError { seat, refusal: Refusal::Board { reason, .. } }) => {
            assert_eq!((seat, reason.legal), (first, table.state().legal_mask()))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_agent_s_illegal_choice_is_an_error_and_the_table_is_unchanged() {
    for_each_game!(refused_agent_is_an_error);
}

/// Panics when asked (a bug, or a network that failed).
struct Panicky;

impl<V: SeatView> Agent<V> for Panicky {
    fn act(&mut self, _: &V, _: &mut AgentRng) -> Action {
        panic!("the network gave NaN everywhere")
    }
}

fn panicking_agent_is_a_failure<G: AgentGame>(game: G) {
    let (mut table, first, state) = alone_in_the_first_seat(game, Box::new(Panicky));
    let e: AgentError<_> = table.advance().unwrap_err();
    assert_eq!(e.seat, first);
    assert!(matches!(e.refusal, Refusal::Failed(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "the agent in seat {first} failed: it panicked: the network gave NaN everywhere; got no action; \
             expected a legal action"
        )
    );
    assert_eq!(bytes(table.state()), state);
    assert!(table.history().is_empty());
    assert!(matches!(
        table.decide().unwrap_err(),
        DecideError::Illegal(AgentError { refusal: Refusal::Failed(_), .. })
    ));
}

#[test]
fn an_agent_that_panics_is_reported_as_failed_and_the_table_is_unchanged() {
    for_each_game!(panicking_agent_is_a_failure);
}

fn env_table<G: AgentGame>(game: &G, episode: Episode, max_steps: Option<u32>, outside: &[usize]) -> Table<G, Env<G>> {
    let mut env = Env::new(game.clone(), episode);
    env.max_steps = max_steps;
    Table::new(env, seats(game, "random", outside), rng(0))
}

fn env_boards<G: AgentGame>(game: G) {
    for seed in 0..3 {
        // An environment board plays the same game as a bare one.
        let mut on_env = env_table(&game, Episode::Game, None, &[0]);
        on_env.reset(seed, rng(seed + 10));
        play_out(&mut on_env, 99);
        assert!(on_env.board().last().terminated);
        assert_eq!(on_env.history().to_vec(), game_of(&game, seed, seed + 10, &[0]));
        assert_eq!(on_env.history().len() as u32, on_env.board().last().steps);
        // Cut off by `max_steps`: over, though the state is not terminal.
        let mut cut = env_table(&game, Episode::Game, Some(5), &[]);
        cut.reset(seed, rng(seed));
        cut.advance().unwrap();
        assert!(cut.is_over() && cut.board().last().truncated && !cut.state().is_terminal());
        assert_eq!(cut.history().len(), 5);
        assert_eq!(cut.apply(0).unwrap_err(), TableError::Over);
        // An illegal action is the environment's refusal.
        let mut t = env_table(&game, Episode::Hand, None, &(0..game.num_players()).collect::<Vec<_>>());
        t.reset(seed, rng(seed));
        let legal = t.state().legal_mask();
        let bad = (0..game.num_actions()).find(|&a| !legal.contains(a)).unwrap();
        assert!(matches!(t.apply(bad).unwrap_err(), TableError::Illegal(EnvError::Illegal { id, .. }) if id == bad));
        assert_eq!(t.board().last().steps, 0);
        // A reset starts afresh.
        t.apply(legal.nth(0)).unwrap();
        t.reset(seed, rng(seed));
        assert!(t.history().is_empty() && t.board().last().steps == 0);
    }
}

#[test]
fn an_env_table_plays_the_same_game_and_stops_where_the_env_does() {
    for_each_game!(env_boards);
}

fn restarts_and_histories<G: AgentGame>(game: G) {
    let mut table = Table::new(Bare::dealt(game.clone(), 1, Episode::Hand), seats(&game, "random", &[0]), rng(1));
    play_out(&mut table, 2);
    let first = table.history().to_vec();
    table.restart(Bare::dealt(game.clone(), 1, Episode::Hand), rng(1));
    assert!(table.history().is_empty() && !table.is_over());
    play_out(&mut table, 2);
    assert_eq!(table.history(), &first[..], "a restart on the same deal and stream plays the same");
    // A table given its history back (a restored one) keeps it and goes on.
    let (game2, state) = Bare::dealt(game.clone(), 1, Episode::Hand).into_parts();
    let restored: Table<G> = Table::new(Bare::new(game2, state), Vec::new(), rng(1)).with_history(first.clone());
    assert_eq!(restored.history(), &first[..]);
}

#[test]
fn a_restarted_table_plays_afresh_and_a_restored_one_keeps_its_history() {
    for_each_game!(restarts_and_histories);
}

/// One game of the Python table: the game and episode, the step limit, the
/// outside player's seat, and the seeds of the deal and of the agents.
struct PythonGame<'a, G: AgentGame> {
    game: &'a G,
    episode: Episode,
    max_steps: Option<u32>,
    outside: usize,
    seed: u64,
    agent_seed: u64,
}

impl<G: AgentGame> PythonGame<'_, G> {
    /// The environment, with the step limit.
    fn env(&self) -> Env<G> {
        let mut env = Env::new(self.game.clone(), self.episode);
        env.max_steps = self.max_steps;
        env
    }

    /// Random agents in every seat but the outside one.
    fn agents(&self) -> Seats<G> {
        seats(self.game, "random", &[self.outside])
    }
}

/// Every time step the outside player saw, and the log.
type Trace = (Vec<bones_env::TimeStep>, Vec<(u8, u8)>);

/// The loop `bones._bones.Table` ran before it used the table (python/src/table.rs,
/// `Core::advance` and `Core::step`), on an environment.
fn python_core_before<G: AgentGame>(run: &PythonGame<G>) -> Trace {
    let mut env = run.env();
    let mut agents = run.agents();
    env.reset(run.seed);
    let mut rng = rng(run.agent_seed);
    let mut log: Vec<(u8, u8)> = Vec::new();
    let mut own = self::rng(99);
    let mut seen = Vec::new();
    loop {
        // Core::advance
        loop {
            let t = env.last();
            if t.terminated || t.truncated {
                break;
            }
            let Some(seat) = t.seat else { break };
            let Some(agent) = agents[seat].as_mut() else { break };
            let view = env.state().view(seat);
            let a = agent.act(&view, &mut rng);
            env.step(a).unwrap();
            log.push((seat as u8, a as u8));
        }
        seen.push(env.last().clone());
        let t = env.last();
        if t.terminated || t.truncated {
            return (seen, log);
        }
        // Core::step
        let a = outside_choice(env.state(), &mut own);
        let seat = env.last().seat;
        env.step(a).unwrap();
        if let Some(s) = seat {
            log.push((s as u8, a as u8));
        }
    }
}

/// The same on the table.
fn python_core_now<G: AgentGame>(run: &PythonGame<G>) -> Trace {
    let mut table = Table::new(run.env(), run.agents(), rng(0));
    table.reset(run.seed, rng(run.agent_seed));
    let mut own = rng(99);
    let mut seen = Vec::new();
    loop {
        table.advance().unwrap();
        seen.push(table.board().last().clone());
        if table.is_over() {
            let log = table.history().iter().map(|&(s, a)| (s as u8, a as u8)).collect();
            return (seen, log);
        }
        let a = outside_choice(table.state(), &mut own);
        table.apply(a).unwrap();
    }
}

fn python_tables_unchanged<G: AgentGame>(game: G) {
    for episode in [Episode::Hand, Episode::Game] {
        for max_steps in [None, Some(30)] {
            for seed in 0..3 {
                let outside = seed as usize % game.num_players();
                let run = PythonGame { game: &game, episode, max_steps, outside, seed, agent_seed: seed + 1 };
                assert_eq!(
                    python_core_now(&run),
                    python_core_before(&run),
                    "{} {episode:?} max_steps {max_steps:?} seed {seed}",
                    game.name()
                );
            }
        }
    }
}

#[test]
fn an_env_table_steps_as_the_python_table_did_before_it() {
    for_each_game!(python_tables_unchanged);
}
