"""`onnx:observation=V:FILE`: a network written outside bones (here one linear
layer built with the `onnx` package, named `obs` -> `scores`, dynamic batch)
plays in bones.evaluate and bones.Agent, decides as its numpy arithmetic says,
and a wrong observation version is a bones.BonesError."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import bones


def linear_onnx(path, obs_len, num_actions, seed):
    """Saves `scores = obs @ W + b` as an ONNX file; returns (W, b)."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((obs_len, num_actions)).astype(np.float32)
    b = rng.standard_normal(num_actions).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["obs", "W"], ["xw"]),
            helper.make_node("Add", ["xw", "b"], ["scores"]),
        ],
        "linear_policy",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", obs_len])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", num_actions])],
        initializer=[numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return w, b


@pytest.mark.parametrize("game", ["texas42", "doubles"])
def test_a_linear_onnx_network_plays_and_decides_by_its_scores(tmp_path, game):
    info = bones.game_info(game)
    path = tmp_path / "linear.onnx"
    w, b = linear_onnx(path, info["obs_len"], info["num_actions"], seed=3)
    spec = f"onnx:observation={info['obs_version']}:{path}"

    report = bones.evaluate(spec, "random", hands=4, seed=2, game=game)
    assert report["agents"] == [spec, "random"]
    assert report["hands"] == 4

    agent = bones.Agent(spec, game=game)
    rng = np.random.default_rng(5)
    for _ in range(50):
        obs = rng.random(info["obs_len"], dtype=np.float32)
        mask = (rng.random(info["num_actions"]) < 0.3).astype(np.float64)
        mask[rng.integers(info["num_actions"])] = 1.0
        scores = obs.astype(np.float64) @ w.astype(np.float64) + b
        legal = np.flatnonzero(mask)
        best = np.sort(scores[legal])[::-1]
        if len(best) > 1 and best[0] - best[1] < 1e-3:
            continue  # a near tie: float32 rounding may pick either
        want = int(legal[np.argmax(scores[legal])])
        assert agent.act_observation(obs.tolist(), mask.tolist()) == want


def test_a_wrong_observation_version_or_shape_is_a_bones_error(tmp_path):
    info = bones.game_info("texas42")
    path = tmp_path / "linear.onnx"
    linear_onnx(path, info["obs_len"], info["num_actions"], seed=1)
    with pytest.raises(bones.BonesError, match="observation version 99"):
        bones.evaluate(f"onnx:observation=99:{path}", "random", hands=2)
    with pytest.raises(bones.BonesError, match="observation=V"):
        bones.Agent(f"onnx:{path}")
    # The texas42 network offered to doubles: its input is too wide.
    doubles = bones.game_info("doubles")
    with pytest.raises(bones.BonesError, match=f"expected \\[batch, {doubles['obs_len']}\\]"):
        bones.Agent(f"onnx:observation={doubles['obs_version']}:{path}", game="doubles")
