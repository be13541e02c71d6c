"""Python policies in bones.evaluate and bones.benchmark: a callable
`policy(observations, masks, seats) -> action ids` is called with batches
across the deals in play; a numpy network with the shipped weights sees what
`model:models/texas42` sees and plays as it does; every bad return is a
bones.BonesError naming what was wrong, and the policy's own exception comes
back as it is."""

import json
import pathlib
import struct

import numpy as np
import pytest

import bones

ROOT = pathlib.Path(__file__).resolve().parents[2]


def lowest_legal(observations, masks, seats):
    """The lowest legal action id of every row."""
    return np.argmax(masks, axis=1)


def load_safetensors(path):
    """The tensors of a .safetensors file (8-byte header length, JSON header, data)."""
    data = pathlib.Path(path).read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    body = data[8 + n :]
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        assert t["dtype"] == "F32", t
        start, end = t["data_offsets"]
        out[name] = np.frombuffer(body[start:end], dtype=np.float32).reshape(t["shape"])
    return out


class NumpyNetwork:
    """The shipped Texas 42 network in numpy (weights stored [in, out]): ReLU
    trunk, then the policy layer; greedy over the legal actions."""

    def __init__(self, folder):
        w = load_safetensors(pathlib.Path(folder) / "weights.safetensors")
        depth = len([k for k in w if k.startswith("trunk.") and k.endswith(".weight")])
        self.trunk = [(w[f"trunk.{i}.weight"], w[f"trunk.{i}.bias"]) for i in range(depth)]
        self.policy = (w["policy.weight"], w["policy.bias"])
        self.batches = []

    def logits(self, observations):
        x = observations
        for weight, bias in self.trunk:
            x = np.maximum(x @ weight + bias, 0.0)
        return x @ self.policy[0] + self.policy[1]

    def __call__(self, observations, masks, seats):
        self.batches.append(len(seats))
        scores = np.where(masks, self.logits(observations), -np.inf)
        return np.argmax(scores, axis=1)


def without_names(report):
    return {k: v for k, v in report.items() if k != "agents"}


def test_the_arrays_a_policy_gets():
    seen = []

    def policy(observations, masks, seats):
        seen.append((observations, masks, seats))
        return lowest_legal(observations, masks, seats)

    info = bones.game_info("texas42")
    report = bones.evaluate(policy, "random", hands=40, seed=3, threads=2)
    assert report["agents"] == ["python:policy", "random"]
    assert report["hands"] == 40
    assert max(len(s) for _, _, s in seen) > 1, "a batch spans several deals"
    for obs, masks, seats in seen:
        n = len(seats)
        assert obs.dtype == np.float32 and obs.shape == (n, info["obs_len"])
        assert masks.dtype == np.bool_ and masks.shape == (n, info["num_actions"])
        assert seats.dtype == np.int64 and set(seats.tolist()) <= {0, 1, 2, 3}
        assert masks.any(axis=1).all()
    assert sum(len(s) for _, _, s in seen) == report["decisions"][0]
    # The same report for any thread count, and from either side.
    assert bones.evaluate(lowest_legal, "random", hands=40, seed=3, threads=1) == {
        **report,
        "agents": ["python:lowest_legal", "random"],
    }
    flipped = bones.evaluate("random", lowest_legal, hands=40, seed=3)
    assert flipped["agents"] == ["random", "python:lowest_legal"]
    assert flipped["decisions"][1] > 0 and flipped["hands"] == 40


def test_a_numpy_network_plays_as_the_shipped_model():
    folder = ROOT / "models" / "texas42"
    net = NumpyNetwork(folder)
    model = bones.Agent(f"model:{folder}")
    agree, near_ties = 0, 0

    def policy(observations, masks, seats):
        nonlocal agree, near_ties
        actions = net(observations, masks, seats)
        scores = np.where(masks, net.logits(observations.astype(np.float64)), -np.inf)
        top2 = np.sort(scores, axis=1)[:, -2:]
        for row in range(len(seats)):
            if masks[row].sum() > 1 and top2[row, 1] - top2[row, 0] < 1e-4:
                near_ties += 1  # float rounding may pick either
                continue
            mask = masks[row].astype(np.float64).tolist()
            assert model.act_observation(observations[row].tolist(), mask) == actions[row]
            agree += 1
        return actions

    for game_kw in (dict(hands=40, seed=5), dict(games=2, seed=1)):
        got = bones.evaluate(policy, "heuristic", threads=2, **game_kw)
        assert got["agents"] == ["python:policy", "heuristic"]
        if near_ties == 0:
            assert without_names(got) == without_names(bones.evaluate(f"model:{folder}", "heuristic", **game_kw))
    assert agree > 500


def test_a_policy_plays_doubles():
    report = bones.evaluate(lowest_legal, "heuristic", hands=30, seed=2, game="doubles", players=3)
    assert report["agents"] == ["python:lowest_legal", "heuristic"]
    assert report["hands"] == 30 and report["game"] == "doubles"
    both = bones.evaluate(lowest_legal, lowest_legal, hands=12, seed=2, game="doubles")
    assert both["decisions"][0] > 0 and both["decisions"][1] > 0


@pytest.mark.parametrize(
    "returns, words",
    [
        (lambda o, m, s: np.argmax(m, axis=1)[:-1], "action ids for a batch of"),
        (lambda o, m, s: np.argmax(m, axis=1).astype(np.float64) + 0.5, "not action ids"),
        (lambda o, m, s: "pass", "not action ids"),
        (lambda o, m, s: None, "not action ids"),
        (lambda o, m, s: -np.ones(len(s), dtype=np.int64), "negative action id -1"),
        (lambda o, m, s: np.argmin(m, axis=1), "illegal action"),
        (lambda o, m, s: np.full(len(s), 10_000), "not an action of texas42"),
    ],
    ids=["too-few", "floats", "a-string", "none", "negative", "illegal", "out-of-range"],
)
def test_a_bad_return_is_a_bones_error_naming_it(returns, words):
    with pytest.raises(bones.BonesError, match=words) as e:
        bones.evaluate(returns, "random", hands=8, seed=1)
    assert "python:<lambda>" in str(e.value)


def test_a_policys_own_exception_comes_back_as_it_is():
    def broken(observations, masks, seats):
        raise KeyError("my bug")

    with pytest.raises(KeyError, match="my bug"):
        bones.evaluate(broken, "random", hands=8)


def test_a_non_callable_is_refused():
    with pytest.raises(bones.BonesError, match="a callable"):
        bones.evaluate(42, "random", hands=2)


def test_benchmark_plays_a_policy_through_the_gauntlet():
    # doubles-v1 is quick; every row against the same deals as `bones benchmark`.
    def highest(observations, masks, seats):
        return np.argmax(masks, axis=1)

    card = bones.benchmark(highest, game="doubles")
    assert card["benchmark"] == "doubles-v1" and card["agent"] == "python:highest"
    assert [r["opponent"] for r in card["rows"]] == [
        "random",
        "highest",
        "heuristic",
        "pimc:worlds=32",
        "model:models/doubles",
    ]
    assert all(r["hands"] == 2000 for r in card["rows"])
    with pytest.raises(bones.BonesError, match="unknown benchmark"):
        bones.benchmark(highest, benchmark="texas42-v9")
    with pytest.raises(bones.BonesError, match="is a doubles benchmark"):
        bones.benchmark(highest, benchmark="doubles-v1", game="texas42")
