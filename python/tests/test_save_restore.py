"""copy.deepcopy and pickle of every environment: a restored environment
continues exactly as the original (both games, AEC and Gymnasium, with the
agents' random stream)."""

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

import bones
from bones import doubles_v0, texas42_v0


def aec_tail(env, rng):
    out = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize(
    "make",
    [
        lambda: texas42_v0.env(),
        lambda: texas42_v0.env(episode="game", rules="full"),
        lambda: doubles_v0.env(players=3),
        lambda: doubles_v0.env(players=2, episode="game"),
    ],
)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_aec_envs_restore_and_continue_exactly(make, how):
    env = make()
    env.reset(seed=21)
    rng = np.random.default_rng(1)
    for _ in range(int(rng.integers(3, 25))):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert clone.agent_selection == env.agent_selection
    state = rng.bit_generator.state
    a = aec_tail(env, rng)
    rng.bit_generator.state = state
    b = aec_tail(clone, rng)
    assert a == b and len(a) > 0
    # The next unseeded deal comes from the same stream too.
    env.reset()
    clone.reset()
    np.testing.assert_array_equal(env.observe("player_0")["observation"], clone.observe("player_0")["observation"])


@pytest.mark.parametrize(
    "env_id,kwargs",
    [
        ("bones/Texas42-v0", {"opponents": "random", "episode": "game"}),
        ("bones/Texas42-v0", {"opponents": "heuristic", "partner": "random"}),
        ("bones/Doubles-v0", {"players": 3, "opponents": "random", "episode": "game"}),
        ("bones/Doubles-v0", {"opponents": "heuristic"}),
    ],
)
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_gym_envs_restore_and_continue_exactly(env_id, kwargs, how):
    env = gym.make(env_id, **kwargs).unwrapped
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(3):
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset()
    clone = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)

    def tail(e, info, rng):
        out = []
        for _ in range(400):
            obs, r, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            out.append((obs.tobytes(), r, term, trunc))
            if term or trunc:
                obs, info = e.reset()  # unseeded: from np_random, also restored
                out.append((obs.tobytes(),))
        return out

    state = rng.bit_generator.state
    a = tail(env, dict(info), rng)
    rng.bit_generator.state = state
    b = tail(clone, dict(info), rng)
    assert a == b


def test_tables_save_and_restore_and_reject_bad_bytes():
    t = bones.Table("doubles", players=2)
    t.reset(5)
    data = t.save()
    u = bones._bones.restore_table(data, "doubles", players=2)
    assert u.seat == t.seat and u.legal_names() == t.legal_names()
    with pytest.raises(bones.RestoreError):
        bones._bones.restore_table(data[:-4], "doubles", players=2)
    with pytest.raises(bones.RestoreError):
        bones._bones.restore_table(b"nonsense", "doubles", players=2)
    with pytest.raises(bones.RestoreError, match="not texas42|is doubles"):
        bones._bones.restore_table(data, "texas42")
