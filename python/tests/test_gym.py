"""The Gymnasium environments: Gymnasium's env checker, masks, opponents,
illegal actions and seeding."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bones

MAKES = [
    ("texas42", "bones/Texas42-v0", {}),
    ("texas42-heuristic-game", "bones/Texas42-v0", {"opponents": "heuristic", "episode": "game", "seat": 1}),
    ("doubles", "bones/Doubles-v0", {}),
    ("doubles2-heuristic", "bones/Doubles-v0", {"players": 2, "opponents": "heuristic"}),
]


@pytest.mark.parametrize("name,env_id,kwargs", MAKES, ids=[m[0] for m in MAKES])
def test_gymnasium_check_env(name, env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    check_env(gym.make(env_id, render_mode="ansi", **kwargs).unwrapped)


def run(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    out = [obs]
    total = 0.0
    while True:
        a = rng.choice(np.flatnonzero(info["action_mask"]))
        obs, r, term, trunc, info = env.step(a)
        out.append(obs)
        total += r
        if term or trunc:
            return out, total


def test_masks_rewards_and_determinism():
    env = gym.make("bones/Texas42-v0", opponents="heuristic", partner="random")
    assert env.unwrapped.agents == [None, "heuristic", "random", "heuristic"]
    obs, info = env.reset(seed=5)
    assert obs.dtype == np.float32 and obs.shape == (914,)
    assert info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
    a, ra = run(env, 5)
    b, rb = run(gym.make("bones/Texas42-v0", opponents="heuristic", partner="random"), 5)
    assert ra == rb and all(np.array_equal(x, y) for x, y in zip(a, b))
    rewards = [run(env, s)[1] for s in range(30)]
    assert any(r != 0 for r in rewards)
    c, _ = run(env, 6)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_fresh_arrays_every_return():
    env = gym.make("bones/Doubles-v0")
    obs, info = env.reset(seed=1)
    keep, keep_mask = obs.copy(), info["action_mask"].copy()
    obs2, _, _, _, info2 = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert obs2 is not obs and info2["action_mask"] is not info["action_mask"]
    np.testing.assert_array_equal(obs, keep)
    np.testing.assert_array_equal(info["action_mask"], keep_mask)


def test_illegal_action_terminates_with_the_documented_penalty_or_raises():
    env = gym.make("bones/Texas42-v0")
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(bad)
    assert term and not trunc and r == bones.ILLEGAL_ACTION_PENALTY == -1.0 and info["illegal_action"]
    with pytest.raises(bones.EpisodeOverError):
        env.step(0)
    env = gym.make("bones/Texas42-v0", illegal_action="raise")
    obs, info = env.reset(seed=0)
    with pytest.raises(bones.IllegalActionError) as e:
        env.step(bad)
    assert "pass" in e.value.legal
    env.step(np.uint8(np.flatnonzero(info["action_mask"])[0]))
    env = gym.make("bones/Doubles-v0", illegal_penalty=-5.0)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert env.step(bad)[1:3] == (-5.0, True)
    obs, info = env.reset(seed=0)
    assert env.step(58)[1:3] == (-5.0, True), "an id out of range is illegal too"


def test_bad_specs_and_arguments():
    with pytest.raises(bones.SpecError, match="unknown agent"):
        gym.make("bones/Texas42-v0", opponents="grandmaster")
    with pytest.raises(bones.SpecError, match="Doubles"):
        gym.make("bones/Texas42-v0", opponents="highest")
    with pytest.raises(bones.SpecError, match="Texas 42"):
        gym.make("bones/Doubles-v0", opponents="search")
    with pytest.raises(bones.SpecError, match="model"):
        gym.make("bones/Texas42-v0", opponents="model:/no/such/folder")
    with pytest.raises(bones.BonesError, match="seat"):
        gym.make("bones/Texas42-v0", seat=4)
    with pytest.raises(bones.BonesError, match="illegal_action"):
        gym.make("bones/Texas42-v0", illegal_action="ignore")
    with pytest.raises(bones.BonesError, match="partners"):
        gym.make("bones/Doubles-v0", partner="random").unwrapped


def test_model_opponents(repo):
    model = repo / "models" / "texas42"
    if not (model / "model.bpk").exists():
        pytest.skip("no shipped model")
    env = gym.make("bones/Texas42-v0", opponents=f"model:{model}")
    _, total = run(env, 3)
    assert isinstance(total, float)
