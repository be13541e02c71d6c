"""resample(seat, seed) on bones.Table, the AEC and the Gymnasium environments:
a new environment whose hidden dominoes are drawn again for a seat, uniformly
among the deals consistent with what it knows (as Bones' pimc draws them)."""

import math
import pickle
from collections import Counter

import gymnasium as gym
import numpy as np
import pytest

import bones
from bones import doubles_v0, texas42_v0


def random_steps(table, rng, n):
    for _ in range(n):
        if table.seat is None or table.truncated:
            break
        table.step(int(rng.choice(table.legal_ids())))


def play_out(table, rng):
    steps = 0
    while table.seat is not None:
        table.step(int(rng.choice(table.legal_ids())))
        steps += 1
        assert steps < 2000
    return steps


def observations(table):
    return [table.observe(s)[0].tobytes() for s in range(table.num_players)]


@pytest.mark.parametrize(
    "game,kwargs",
    [
        ("texas42", {}),
        ("texas42", {"rules": "full", "episode": "game"}),
        ("doubles", {"players": 2}),
        ("doubles", {"players": 3, "episode": "game"}),
        ("doubles", {"players": 4}),
    ],
)
def test_table_resample_keeps_the_seat_view_and_plays_on(game, kwargs):
    rng = np.random.default_rng(3)
    checked = 0
    for deal in range(6):
        t = bones.Table(game, **kwargs)
        t.reset(100 + deal)
        random_steps(t, rng, int(rng.integers(0, 30)))
        if t.seat is None:
            continue
        for seat in range(t.num_players):
            before = t.save()
            obs = observations(t)
            r = t.resample(seat, int(rng.integers(0, 2**63)))
            assert isinstance(r, bones.Table)
            # The original is unchanged.
            assert t.save() == before
            # The seat sees the same thing; everything public is the same.
            assert r.observe(seat)[0].tobytes() == obs[seat]
            np.testing.assert_array_equal(r.observe(seat)[1], t.observe(seat)[1])
            assert (r.seat, r.steps, r.rules, r.episode, r.agents) == (t.seat, t.steps, t.rules, t.episode, t.agents)
            assert r.legal_names() == t.legal_names() or r.seat != seat
            # It steps on to the end, and so does a pickled copy of it.
            c = pickle.loads(pickle.dumps(r))
            assert play_out(r, rng) > 0
            assert r.terminated or r.truncated
            assert play_out(c, rng) > 0
            checked += 1
    assert checked >= 8


def test_resample_is_deterministic_for_a_seed():
    for game in ("texas42", "doubles"):
        t = bones.Table(game)
        t.reset(9)
        random_steps(t, np.random.default_rng(1), 5)
        assert t.seat is not None
        a, b = t.resample(1, 123), t.resample(1, 123)
        assert a.save() == b.save()
        assert len({t.resample(1, s).save() for s in range(20)}) > 1


def wilson_hilferty_p(chi2, df):
    """Upper tail probability of a chi-square statistic."""
    z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_texas42_resample_is_uniform_late_in_a_hand():
    # After 20 dominoes are played, few deals are consistent: each is drawn
    # about equally often.
    rng = np.random.default_rng(5)
    for deal in range(40):
        t = bones.Table("texas42")
        t.reset(700 + deal)
        plays = 0
        while t.seat is not None and plays < 20:
            a = int(rng.choice(t.legal_ids()))
            plays += a < 28
            t.step(a)
        if t.seat is None:
            continue
        seat = t.seat
        others = [s for s in range(4) if s != seat]

        def world(seed):
            r = t.resample(seat, seed)
            return tuple(r.observe(s)[0].tobytes() for s in others)

        n = len({world(s) for s in range(2000)})
        if not 3 <= n <= 60:
            continue
        draws = 300 * n
        freq = Counter(world(10_000 + s) for s in range(draws))
        assert len(freq) == n
        expect = draws / n
        chi2 = sum((f - expect) ** 2 / expect for f in freq.values())
        p = wilson_hilferty_p(chi2, n - 1)
        assert p > 0.001, (chi2, n, p)
        return
    pytest.fail("no small position found")


@pytest.mark.parametrize("make", [lambda: texas42_v0.env(), lambda: doubles_v0.env(players=3)])
@pytest.mark.parametrize("wrapped", [True, False])
def test_aec_resample(make, wrapped):
    env = make()
    if not wrapped:
        env = env.unwrapped
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(7):
        agent = env.agent_selection
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    me = env.agent_selection
    before = env.unwrapped.save()
    obs = env.observe(me)
    new = env.resample(me, 77)
    assert type(new) is type(env) and new is not env
    assert env.unwrapped.save() == before
    got = new.observe(me)
    np.testing.assert_array_equal(got["observation"], obs["observation"])
    np.testing.assert_array_equal(got["action_mask"], obs["action_mask"])
    assert new.agent_selection == env.agent_selection and new.agents == env.agents
    # A seat number works too, and gives the same draw for the same seed.
    seat = env.unwrapped.agent_name_mapping[me]
    assert env.resample(seat, 77).unwrapped.save() == new.unwrapped.save()
    # The new environment plays to the end; the old one is untouched by it.
    for agent in new.agent_iter():
        _, _, term, trunc, _ = new.last()
        new.step(None if term or trunc else int(rng.choice(np.flatnonzero(new.observe(agent)["action_mask"]))))
    assert not new.agents or all(new.terminations.values()) or all(new.truncations.values())
    assert env.unwrapped.save() == before
    with pytest.raises(bones.BonesError, match="bad agent 'nobody'"):
        env.resample("nobody", 1)


@pytest.mark.parametrize("env_id,kwargs", [("bones/Texas42-v0", {}), ("bones/Doubles-v0", {"players": 3})])
def test_gym_resample(env_id, kwargs):
    env = gym.make(env_id, opponents="heuristic", **kwargs).unwrapped
    obs, info = env.reset(seed=6)
    obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not (term or trunc)
    new = env.resample(None, 5)
    assert isinstance(new, type(env)) and new.seat == env.seat
    np.testing.assert_array_equal(new.table.observe(env.seat)[0], obs)
    np.testing.assert_array_equal(new.action_masks(), env.action_masks())
    rng = np.random.default_rng(2)
    done = False
    while not done:
        _, _, term, trunc, _ = new.step(int(rng.choice(np.flatnonzero(new.action_masks()))))
        done = term or trunc
    # Another seat's resample: the learner's mask is the new table's.
    other = env.resample((env.seat + 1) % env.table.num_players, 5)
    np.testing.assert_array_equal(other.action_masks(), other.table.observe(env.seat)[1].astype(bool))


def test_bad_arguments_raise():
    t = bones.Table("texas42")
    t.reset(1)
    for seat in (-1, 4, 1.0, "0", None, True):
        with pytest.raises(bones.BonesError, match=r"bad seat .*expected an integer 0 <= seat < 4"):
            t.resample(seat, 0)
    for seed in (-1, 2**64, 1.5, "7", None):
        with pytest.raises(bones.BonesError, match=r"bad seed .*expected an integer 0 <= seed < 2\*\*64"):
            t.resample(0, seed)
    # numpy integers are integers.
    t.resample(np.int64(2), np.uint64(2**64 - 1))
    d = bones.Table("doubles", players=2)
    d.reset(1)
    with pytest.raises(bones.BonesError, match="0 <= seat < 2"):
        d.resample(2, 0)
    # A finished episode, and a table never reset.
    play_out(t, np.random.default_rng(0))
    with pytest.raises(bones.EpisodeOverError, match="episode is over"):
        t.resample(0, 0)
    with pytest.raises(bones.EpisodeOverError):
        bones.Table("doubles").resample(0, 0)
    # Truncated by max_steps.
    m = bones.Table("texas42", max_steps=2)
    m.reset(3)
    random_steps(m, np.random.default_rng(0), 5)
    assert m.truncated
    with pytest.raises(bones.BonesError, match="episode is over"):
        m.resample(0, 0)
    env = texas42_v0.env()
    env.reset(seed=1)
    with pytest.raises(bones.BonesError, match="bad seed"):
        env.resample("player_0", "x")
