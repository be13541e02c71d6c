"""bones.Agent and bones.replay."""

import json

import numpy as np
import pytest

import bones
from bones import doubles_v0, texas42_v0


def play_out(env, agents):
    """Plays the AEC episode to its end with ``agents`` (by agent name),
    checking that each chooses a legal action."""
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agents[agent].act(env)
        assert obs["action_mask"][a] == 1
        env.step(a)


def test_agents_play_aec_seats_from_their_view():
    env = texas42_v0.env()
    env.reset(seed=3)
    play_out(env, {a: bones.Agent("heuristic", game="texas42") for a in env.possible_agents})


def test_pimc_plays_doubles_from_the_seat_view():
    env = doubles_v0.env(players=3)
    env.reset(seed=4)
    play_out(
        env,
        {a: bones.Agent("pimc:worlds=8", game="doubles", players=3, seed=i) for i, a in enumerate(env.possible_agents)},
    )


def test_agent_on_a_record_and_on_an_observation(repo):
    record = {"game": "texas42", "seed": 1, "actions": ["pass", "30", "pass", "pass"]}
    name = bones.Agent("heuristic").act_record(record)
    assert name in bones.replay(record)["result"]["next"]["legal"]
    assert bones.Agent("heuristic").act_record(json.dumps(record)) == name
    env = doubles_v0.env(players=2)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    r = bones.Agent("random", game="doubles", players=2, seed=1)
    assert obs["action_mask"][r.act_observation(obs["observation"], obs["action_mask"])] == 1
    with pytest.raises(bones.BonesError, match="seat's view"):
        bones.Agent("heuristic", game="doubles").act_observation(obs["observation"], obs["action_mask"])
    model = repo / "models" / "texas42"
    if (model / "model.bpk").exists():
        m = bones.Agent(f"model:{model}")
        t = texas42_v0.env()
        t.reset(seed=2)
        o = t.observe(t.agent_selection)
        assert m.act_observation(o["observation"], o["action_mask"]) == m.act(t)


def test_agent_errors():
    with pytest.raises(bones.SpecError, match="unknown agent"):
        bones.Agent("grandmaster")
    with pytest.raises(bones.SpecError, match="Texas 42"):
        bones.Agent("search", game="doubles")
    with pytest.raises(bones.GameError):
        bones.Agent("random", game="chess")
    env = doubles_v0.env()
    env.reset(seed=0)
    with pytest.raises(bones.BonesError, match="plays texas42"):
        bones.Agent("random").act(env)
    with pytest.raises(bones.RecordError):
        bones.Agent("random").act_record({"game": "texas42"})
    # An outside program that fails is an error, not a made-up action.
    env = texas42_v0.env()
    env.reset(seed=0)
    with pytest.raises(bones.BonesError, match=r"the agent `exec:/bin/false` in seat \d failed: the program"):
        bones.Agent("exec:/bin/false").act(env)


def test_replay_annotates_or_raises():
    out = bones.replay('{"game":"texas42","seed":0,"actions":["pass","30","pass","pass"]}')
    assert out["result"]["bidder"] == 2 and out["result"]["done"] is False
    assert len(out["hands"]) == 4
    with pytest.raises(bones.RecordError) as e:
        bones.replay({"game": "texas42", "seed": 0, "actions": ["pass", "8m"]})
    assert e.value.error["index"] == 1 and e.value.error["action"] == "8m"
    assert "unknown action" in e.value.error["message"]
    with pytest.raises(bones.RecordError, match="malformed JSON"):
        bones.replay("{not json")
