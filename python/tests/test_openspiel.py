"""bones.openspiel: Texas 42 and Doubles as OpenSpiel games (the `openspiel` extra)."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import bones  # noqa: E402
import bones.openspiel as bos  # noqa: E402
from bones import doubles_v0, texas42_v0  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

GAMES = ["bones_texas42", "bones_doubles(players=2)", "bones_doubles(players=4)"]


def deal(state, rng):
    """Deals the chance nodes of `state` from `rng` by their probabilities."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


@pytest.mark.parametrize("name", GAMES + ["bones_texas42(variants=nel-o+sevens+plunge+splash,early_end=False)"])
def test_openspiels_random_simulation_test_passes_with_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=100 if "variants" not in name else 25, serialize=True, verbose=False)


def test_the_games_are_registered_with_their_facts():
    t42 = pyspiel.load_game("bones_texas42")
    d2 = bos.load("doubles", players=2)
    assert (t42.num_players(), t42.num_distinct_actions(), t42.max_chance_outcomes()) == (4, 61, 28)
    assert (d2.num_players(), d2.num_distinct_actions()) == (2, 58)
    assert t42.information_state_tensor_size() == t42.observation_tensor_size() == 914
    assert d2.observation_tensor_size() == 597
    kind = t42.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (t42.min_utility(), t42.max_utility()) == (-7.0, 7.0)
    points = pyspiel.load_game("bones_texas42(scoring=points)")
    assert points.max_utility() == 294.0
    # The game string loads the same game back.
    assert str(pyspiel.load_game(str(points))) == str(points)


def test_bad_parameters_raise_openspiels_error_with_bones_reason():
    with pytest.raises(pyspiel.SpielError, match=r"bones_doubles: .*players.*2 or 3 or 4|bones_doubles: .*players"):
        pyspiel.load_game("bones_doubles(players=5)")
    with pytest.raises(pyspiel.SpielError, match=r"bones_texas42: .*variant"):
        pyspiel.load_game("bones_texas42(variants=nelo)")
    with pytest.raises(pyspiel.SpielError, match=r"bones_texas42: .*all_pass"):
        pyspiel.load_game("bones_texas42(all_pass=sometimes)")
    with pytest.raises(pyspiel.SpielError, match=r"bones_texas42: bad dealer 4"):
        pyspiel.load_game("bones_texas42(dealer=4)")
    with pytest.raises(pyspiel.SpielError, match="earlyend"):
        pyspiel.load_game("bones_texas42(earlyend=False)")


def test_action_strings_are_the_docs_names():
    game = pyspiel.load_game("bones_texas42")
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 26) == "deal 6-5"
    deal(state, random.Random(1))
    assert state.action_to_string(state.current_player(), 0) == "0-0"
    assert [state.action_to_string(a) for a in state.legal_actions()][:3] == ["pass", "30", "31"]


def record_of(env, seed, agents):
    """Plays a PettingZoo episode dealt from `seed` with `agents` (specs by
    seat); returns its record and each decision's (seat, observation)."""
    env.reset(seed=seed)
    names, seen = [], []
    players = {a: bones.Agent(agents[i], game=env.unwrapped.table.game_name, players=env.unwrapped.table.num_players,
                              seed=i) for i, a in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append((env.possible_agents.index(agent), obs["observation"].copy()))
        a = players[agent].act(env)
        names.append(env.unwrapped.action_name(a))
        env.step(a)
    table = env.unwrapped.table
    record = {"game": table.game_name, "rules": table.rules, "seed": seed, "actions": names}
    return record, seen


@pytest.mark.parametrize("which", ["texas42", "doubles"])
def test_a_seeded_deal_plays_out_move_for_move_like_bones_replay(which):
    for seed in range(4):
        env = texas42_v0.env() if which == "texas42" else doubles_v0.env(players=3)
        record, seen = record_of(env, seed, ["heuristic", "pimc:worlds=4", "random", "heuristic"])
        game = bos.load("texas42") if which == "texas42" else bos.load("doubles", players=3)
        steps = bones.replay(record)["result"]["steps"]
        state = game.state_from_record(dict(record, actions=[]))
        assert len(state.history()) == 28 and state.current_player() >= 0
        for (seat, obs), step in zip(seen, steps):
            assert state.current_player() == step["seat"] == seat
            assert [state.action_to_string(a) for a in state.legal_actions()] == step["legal"]
            # The same numbers as the PettingZoo observation, in both tensors.
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), obs)
            assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32), obs)
            state.apply_action(state.table.action_id(step["action"]))
        assert state.is_terminal()
        assert state.returns() == pytest.approx(list(env.unwrapped.table.rewards))
        assert sum(state.returns()) == pytest.approx(0.0)


def test_texas42_returns_are_marks_or_game_points_as_bones_replay_scores_the_hand():
    names = [f"{h}-{l}" for h in range(7) for l in range(h + 1)]
    for name, key in [("bones_texas42", "marks"), ("bones_texas42(scoring=points)", "score")]:
        game = pyspiel.load_game(name)
        rng = random.Random(3)
        for _ in range(20):
            state = deal(game.new_initial_state(), rng)
            dealt = [names[d] for d in state.history()]
            actions = []
            while not state.is_terminal():
                a = rng.choice(state.legal_actions())
                actions.append(state.action_to_string(a))
                state.apply_action(a)
            record = {"game": "texas42", "rules": state.table.rules, "dealer": 0,
                      "hands": [dealt[7 * s:7 * s + 7] for s in range(4)], "actions": actions}
            score = bones.replay(record)["result"][key]
            assert state.returns() == [score[s % 2] - score[1 - s % 2] for s in range(4)]


def opener(cfg, order):
    """The seat holding the highest double of a Doubles deal (public once dealt)."""
    doubles = [i for i in range(cfg.dealt) if order[i] in {0, 2, 5, 9, 14, 20, 27}]
    return cfg.holder(max(doubles, key=lambda i: order[i])) if doubles else None


def hidden_twin(game, state, seat, rng):
    """A second deal of `state`'s complete deal in which every domino `seat`
    was not dealt is placed again at random, the public facts of the deal kept
    (a Doubles deal keeps the same opener)."""
    cfg = game.cfg
    order = list(state.history())
    mine = [i for i in range(28) if cfg.holder(i) == seat]
    while True:
        others = [order[i] for i in range(28) if i not in mine]
        rng.shuffle(others)
        twin = list(order)
        for i, d in zip([i for i in range(28) if i not in mine], others):
            twin[i] = d
        if twin != order and (cfg.game == "texas42" or opener(cfg, twin) == opener(cfg, order)):
            break
    other = game.new_initial_state()
    for d in twin:
        other.apply_action(d)
    return other


@pytest.mark.parametrize("name", GAMES)
def test_tensors_and_strings_never_show_another_seats_hidden_dominoes(name):
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    for trial in range(12):
        a = deal(game.new_initial_state(), rng)
        seat = trial % game.num_players()
        b = hidden_twin(game, a, seat, rng)
        differs = False
        while not a.is_terminal() and not b.is_terminal():
            for fn in ("information_state_tensor", "observation_tensor", "information_state_string",
                       "observation_string"):
                assert getattr(a, fn)(seat) == getattr(b, fn)(seat), (fn, trial)
            others = [p for p in range(game.num_players()) if p != seat]
            differs |= any(a.observation_tensor(p) != b.observation_tensor(p) for p in others)
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if a.current_player() != b.current_player() or not common:
                break
            act = rng.choice(common)
            a.apply_action(act)
            b.apply_action(act)
        assert differs, "the twin deals should differ where the seat cannot see"


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_seat_knows_and_redraws_the_rest(name):
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    changed = 0
    for _ in range(10):
        state = deal(game.new_initial_state(), rng)
        for _ in range(rng.randrange(0, 12)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        p = state.current_player()
        r = state.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == state.information_state_string(p)
        assert r.information_state_tensor(p) == state.information_state_tensor(p)
        assert r.legal_actions() == state.legal_actions()
        assert r.history() == state.history()
        changed += str(r) != str(state)
        while not r.is_terminal():  # it plays on
            r.apply_action(rng.choice(r.legal_actions()))
    assert changed > 0
    # While the deal is dealt: the seat keeps its dominoes.
    state = game.new_initial_state()
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    r = state.resample_from_infostate(1, sampler)
    assert r.information_state_string(1) == state.information_state_string(1)
    assert len(r.history()) == 20


def test_bones_agents_are_openspiel_bots_for_evaluate_bots(repo):
    game = pyspiel.load_game("bones_texas42")
    specs = ["heuristic", "pimc:worlds=4", "search", "random"]
    model = repo / "models" / "texas42"
    if (model / "model.bpk").exists():
        specs[3] = f"model:{model}"
    bots = [bos.BonesBot(game, spec, seed=i) for i, spec in enumerate(specs)]
    assert bots[2].spec.startswith("search")
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert len(returns) == 4 and sum(returns) == pytest.approx(0.0)
    again = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert sum(again) == pytest.approx(0.0)
    with pytest.raises(pyspiel.SpielError, match="unknown agent"):
        bos.BonesBot(game, "hueristic")


def test_ismcts_plays_doubles_through_evaluate_bots():
    game = pyspiel.load_game("bones_doubles(players=2)")
    bots = [bos.ismcts_bot(game, 10, seed=1), bos.BonesBot(game, "highest")]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert returns[0] == -returns[1]


def test_an_ismcts_bot_is_seated_in_bones_evaluate():
    game = pyspiel.load_game("bones_texas42")
    seat = bos.ismcts_seat(game, 8)
    r = bones.evaluate(seat, "random", hands=2, seed=4)
    assert r["agents"] == ["python:ismcts:sims=8", "random"] and r["hands"] == 2
    # Reproducible: each decision's seed comes from the evaluation's streams.
    assert bones.evaluate(seat, "random", hands=2, seed=4)["marks_per_hand"] == r["marks_per_hand"]
    d = pyspiel.load_game("bones_doubles(players=2)")
    r = bones.evaluate(bos.ismcts_seat(d, 4), "highest", hands=2, game="doubles", players=2)
    assert r["agents"][0] == "python:ismcts:sims=4"


def test_a_bot_seat_sees_only_a_table_its_seat_could_be_at():
    game = pyspiel.load_game("bones_texas42")
    seen = []

    class Spy(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state):
            seen.append((state.current_player(), state.history(), state.table.steps))
            return state.legal_actions()[0]

    r = bones.evaluate(bos.BotSeat(game, lambda seed: Spy(), "spy"), "heuristic", hands=2)
    assert r["agents"][0] == "python:spy" and seen
    assert all(history == [] for _, history, _ in seen)
    with pytest.raises(pyspiel.SpielError, match="this game is texas42"):
        bones.evaluate(bos.BotSeat(game, lambda seed: Spy(), "spy"), "heuristic", hands=2, rules={"early_end": False})
    with pytest.raises(bones.BonesError, match="acts from a table"):
        bones.evaluate(bos.ismcts_seat(game, 2), lambda o, m, s: np.argmax(m, axis=1), hands=2)
    with pytest.raises(bones.BonesError, match="acts from a table"):
        bones.benchmark(bos.ismcts_seat(game, 2))


def test_table_from_record_and_info_state():
    record = {"game": "texas42", "seed": 5, "actions": ["pass", "30", "pass", "pass", "sixes"]}
    table = bones.Table.from_record(record)
    assert table.seat == bones.replay(record)["result"]["next"]["seat"]
    env = texas42_v0.env()
    env.reset(seed=5)
    for name in record["actions"]:
        env.step(env.unwrapped.action_id(name))
    assert np.array_equal(table.observe(2)[0], env.unwrapped.table.observe(2)[0])
    assert table.info_state(2) == env.unwrapped.table.info_state(2)
    assert table.info_state(2) != table.info_state(1)
    assert table.deal_outcome() is None
    with pytest.raises(bones.RecordError, match="30"):
        bones.Table.from_record(dict(record, actions=["pass", "30", "30"]))
    with pytest.raises(bones.BonesError, match="no seat 4"):
        table.info_state(4)
