"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, the
conventions of its classic games, exceptions and rendering."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import bones
from bones import doubles_v0, texas42_v0

ENVS = [
    ("texas42", texas42_v0.env, {}),
    ("texas42-game", texas42_v0.env, {"episode": "game", "rules": "full"}),
    ("doubles4", doubles_v0.env, {}),
    ("doubles2", doubles_v0.env, {"players": 2}),
    ("doubles3-game", doubles_v0.env, {"players": 3, "episode": "game"}),
]


@pytest.mark.parametrize("name,make,kwargs", ENVS, ids=[e[0] for e in ENVS])
def test_pettingzoo_api_test(name, make, kwargs):
    api_test(make(**kwargs), num_cycles=300)


@pytest.mark.parametrize("name,make,kwargs", ENVS[:1] + ENVS[2:4], ids=[e[0] for e in ENVS[:1] + ENVS[2:4]])
def test_pettingzoo_seed_test(name, make, kwargs):
    seed_test(lambda: make(**kwargs), num_cycles=200)


def play(env, seed, rng):
    """Random legal play of one episode: the (agent, obs, reward) sequence."""
    env.reset(seed=seed)
    out = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        out.append((agent, obs["observation"].copy(), obs["action_mask"].copy(), reward, term, trunc))
        if term or trunc:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return out


def test_observation_and_mask_types():
    env = texas42_v0.env()
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (914,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (61,)
    assert env.observation_space(env.agent_selection).contains(obs)
    other = [a for a in env.agents if a != env.agent_selection][0]
    assert env.observe(other)["action_mask"].sum() == 0, "only the agent to move has legal actions"
    assert env.observe(other)["observation"][:28].sum() == 7, "every agent sees its own hand"
    d = doubles_v0.env(players=3)
    d.reset(seed=1)
    assert d.possible_agents == ["player_0", "player_1", "player_2"]
    assert d.observe(d.agent_selection)["observation"].shape == (597,)
    assert d.action_space("player_0").n == 58


@pytest.mark.parametrize("name,make,kwargs", ENVS, ids=[e[0] for e in ENVS])
def test_the_wrapper_behaves_as_pettingzoos_and_rewards_follow_the_table(name, make, kwargs):
    """`env()`'s wrapper (attributes answered without `__getattr__`) shows what
    PettingZoo's own `OrderEnforcingWrapper` shows at every step, and the raw
    env's `rewards` and `_cumulative_rewards` are the table's transition
    rewards, accumulated as `AECEnv` documents (reset for the agent that acts)."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    ours = make(**kwargs)
    ref = OrderEnforcingWrapper(type(ours.unwrapped)(**kwargs))
    for attr in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        for env in (ours, ref):
            with pytest.raises(AttributeError, match="before reset"):
                getattr(env, attr)
    rng = np.random.default_rng(5)
    for episode in range(3):
        ours.reset(seed=40 + episode)
        ref.reset(seed=40 + episode)
        table = ours.unwrapped.table
        cumulative = {a: 0.0 for a in ours.agents}
        paid = False
        for agent, ref_agent in zip(ours.agent_iter(), ref.agent_iter()):
            assert agent == ref_agent
            got, want = ours.last(), ref.last()
            np.testing.assert_array_equal(got[0]["observation"], want[0]["observation"])
            np.testing.assert_array_equal(got[0]["action_mask"], want[0]["action_mask"])
            assert got[1:] == want[1:]
            for attr in ("agents", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards"):
                assert getattr(ours, attr) == getattr(ref, attr), attr
            assert got[1] == pytest.approx(cumulative[agent])
            if got[2] or got[3]:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(got[0]["action_mask"])))
            ours.step(action)
            ref.step(action)
            if action is None:
                del cumulative[agent]
                continue
            transition = dict(zip(ours.possible_agents, table.transition_rewards))
            assert ours.rewards == pytest.approx({a: transition[a] for a in ours.agents})
            cumulative[agent] = 0.0
            for a in ours.agents:
                cumulative[a] += transition[a]
            paid |= any(transition.values())
        assert paid and not ours.agents and not ref.agents


def test_episodes_are_zero_sum_and_deterministic():
    for make, kwargs in [(texas42_v0.env, {}), (doubles_v0.env, {"players": 4})]:
        a = play(make(**kwargs), 7, np.random.default_rng(0))
        b = play(make(**kwargs), 7, np.random.default_rng(0))
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert x[0] == y[0] and x[3] == y[3]
            np.testing.assert_array_equal(x[1], y[1])
        finals = {step[0]: step[3] for step in a if step[4]}
        assert abs(sum(finals.values())) < 1e-5
        assert any(r != 0 for r in finals.values())


def test_reset_seed_is_the_record_seed():
    """reset(seed=s) deals the deal of a record with "seed": s."""
    names = bones.game_info("texas42")["action_names"]
    for seed in (0, 11, 2**64 - 1):
        env = texas42_v0.env()
        env.reset(seed=seed)
        dealt = bones.replay({"game": "texas42", "seed": seed})["hands"]
        for i, agent in enumerate(env.possible_agents):
            hand = np.flatnonzero(env.observe(agent)["observation"][:28])
            assert sorted(names[d] for d in hand) == sorted(dealt[i])


def test_illegal_action_raises_with_the_legal_actions():
    env = texas42_v0.env()
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(bones.IllegalActionError) as e:
        env.step(bad)
    err = e.value
    assert isinstance(err, bones.BonesError) and isinstance(err, ValueError)
    assert "illegal action" in str(err) and "pass" in str(err)
    assert err.action == bad
    assert "pass" in err.legal and set(err.legal_ids) == set(np.flatnonzero(mask).tolist())
    assert env.agent_selection == agent, "nothing changed"
    np.testing.assert_array_equal(env.observe(agent)["observation"], before)
    with pytest.raises(bones.IllegalActionError, match="out of range|ids run"):
        env.step(999)
    with pytest.raises(bones.IllegalActionError):
        env.step(-1)
    env.step(np.int64(np.flatnonzero(mask)[0]))  # any numpy integer is an action


def test_bad_rules_and_arguments_raise_clear_errors():
    with pytest.raises(bones.GameError, match="unknown rules key|bad rules"):
        texas42_v0.env(rules={"no_such_rule": 1})
    with pytest.raises(bones.GameError, match="preset|rules"):
        texas42_v0.env(rules="nonsense")
    with pytest.raises(bones.GameError, match="2 or 3 or 4|played by"):
        doubles_v0.env(players=5)
    with pytest.raises(bones.BonesError, match="episode"):
        texas42_v0.env(episode="set")
    with pytest.raises(bones.BonesError, match="render_mode"):
        texas42_v0.env(render_mode="human")
    assert texas42_v0.env(rules={"preset": "full", "early_end": False}).unwrapped.table.rules["early_end"] is False


def test_render_ansi_shows_the_table():
    env = doubles_v0.env(players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "doubles" in text and "player_0" in text and "player_1" in text and "to move" in text
    a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(a)
    assert env.unwrapped.action_name(a) in env.render()
    t = texas42_v0.env(render_mode="ansi")
    t.reset(seed=1)
    assert "legal: pass 30" in t.render()


def test_truncation_by_max_steps():
    env = texas42_v0.env(max_steps=5)
    env.reset(seed=4)
    for _ in range(5):
        a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        env.step(a)
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_the_wrapper_enforces_order_and_last_reads_the_raw_env():
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    for make in (texas42_v0.env, doubles_v0.env):
        env = make()
        assert isinstance(env, OrderEnforcingWrapper)
        with pytest.raises(AttributeError, match="before reset"):
            env.last()
        env.reset(seed=3)
        raw = env.unwrapped
        for got, want in zip(env.last(), raw.last()):
            if isinstance(want, dict) and "observation" in want:
                assert np.array_equal(got["observation"], want["observation"])
                assert np.array_equal(got["action_mask"], want["action_mask"])
            else:
                assert got == want
        assert env.last(observe=False)[0] is None
