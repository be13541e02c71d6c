"""bones.VecEnv: numpy views of the Rust buffers, identical to the pure Rust
VecEnv (bones.vec_env_trace) and to single environments seeded by
bones.episode_seed."""

import numpy as np
import pytest

import bones

CASES = [
    ("texas42", {}, 2),
    ("texas42", {"episode": "game", "rules": "full"}, 1),
    ("doubles", {"players": 3}, 2),
]


@pytest.mark.parametrize("game,kwargs,threads", CASES)
def test_vec_env_matches_the_rust_vec_env(game, kwargs, threads):
    n, steps = 7, 120
    ref = bones.vec_env_trace(game, n, 42, 1, steps, action_seed=9, **kwargs)
    v = bones.VecEnv(game, n, seed=42, threads=threads, **kwargs)
    views = (v.obs, v.mask, v.seats, v.rewards, v.dones)
    for k in range(steps + 1):
        np.testing.assert_array_equal(v.obs, ref["obs"][k])
        np.testing.assert_array_equal(v.mask, ref["mask"][k])
        np.testing.assert_array_equal(v.seats, ref["seats"][k])
        np.testing.assert_array_equal(v.rewards, ref["rewards"][k])
        np.testing.assert_array_equal(v.dones, ref["dones"][k])
        if k < steps:
            acts = ref["actions"][k].astype(np.int32 if k % 2 else np.int64)
            out = v.step(acts)
            assert all(a is not None for a in out)
    # The arrays are views, updated in place (no per-step copies).
    for old, new in zip(views, (v.obs, v.mask, v.seats, v.rewards, v.dones)):
        assert np.shares_memory(old, new)
        np.testing.assert_array_equal(old, new)
    assert v.episodes_done == int(ref["dones"].sum())


def test_views_are_read_only_and_typed():
    v = bones.VecEnv("texas42", 4, seed=0)
    assert v.obs.shape == (4, 914) and v.obs.dtype == np.float32
    assert v.mask.shape == (4, 61) and v.mask.dtype == np.float32
    assert v.seats.dtype == np.uint8 and v.rewards.shape == (4, 4) and v.dones.dtype == np.bool_
    with pytest.raises(ValueError):
        v.obs[0, 0] = 5.0


def test_vec_env_matches_single_envs_seeded_by_episode_seed():
    n = 3
    v = bones.VecEnv("doubles", n, seed=7, players=2)
    tables = [bones.Table("doubles", players=2) for _ in range(n)]
    episodes = [0] * n
    for i, t in enumerate(tables):
        t.reset(bones.episode_seed(7, i, 0))
    rng = np.random.default_rng(3)
    for _ in range(150):
        for i, t in enumerate(tables):
            obs, mask = t.observe(t.seat)
            np.testing.assert_array_equal(v.obs[i], obs)
            np.testing.assert_array_equal(v.mask[i], mask.astype(np.float32))
            assert v.seats[i] == t.seat
        acts = [int(rng.choice(np.flatnonzero(v.mask[i]))) for i in range(n)]
        v.step(acts)
        for i, t in enumerate(tables):
            t.step(acts[i])
            np.testing.assert_array_equal(v.rewards[i][:2], t.transition_rewards)
            assert v.dones[i] == t.terminated
            if t.terminated:
                episodes[i] += 1
                t.reset(bones.episode_seed(7, i, episodes[i]))


def test_bad_steps_raise_and_change_nothing():
    v = bones.VecEnv("texas42", 2, seed=1)
    before = v.obs.copy()
    with pytest.raises(bones.BonesError, match="expected 2 actions"):
        v.step([28])
    with pytest.raises(bones.IllegalActionError):
        v.step([0, 0])
    with pytest.raises(bones.IllegalActionError):
        v.step([-1, 28])
    np.testing.assert_array_equal(v.obs, before)
    with pytest.raises(bones.BonesError):
        bones.VecEnv("texas42", 0)


def test_vec_env_pickles_and_continues_identically():
    import copy
    import pickle

    v = bones.VecEnv("texas42", 3, seed=5, threads=2, episode="game")
    rng = np.random.default_rng(0)
    for _ in range(20):
        v.step([int(rng.choice(np.flatnonzero(v.mask[i]))) for i in range(3)])
    for w in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v)):
        assert type(w) is bones.VecEnv and w.num_envs == 3 and w.threads == 2
        np.testing.assert_array_equal(w.obs, v.obs)
        np.testing.assert_array_equal(w.dones, v.dones)
    w = pickle.loads(pickle.dumps(v))
    for _ in range(200):
        acts = [int(rng.choice(np.flatnonzero(v.mask[i]))) for i in range(3)]
        v.step(acts)
        w.step(acts)
        np.testing.assert_array_equal(w.obs, v.obs)
        np.testing.assert_array_equal(w.rewards, v.rewards)
    assert w.episodes_done == v.episodes_done
