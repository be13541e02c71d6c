"""bones.evaluate: the same dictionary as `bones eval --json`, for both games and
both amounts, whatever the thread count; bad arguments raise ValueError."""

import json
import os
import pathlib
import subprocess

import pytest

import bones

ROOT = pathlib.Path(__file__).resolve().parents[2]


def bones_cli(*args):
    """Runs the `bones` command line ($BONES_BIN, else target/release/bones, else cargo run --release)."""
    exe = os.environ.get("BONES_BIN") or str(ROOT / "target" / "release" / "bones")
    cmd = [exe, *args] if os.path.exists(exe) else ["cargo", "run", "--release", "-q", "--", *args]
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def cli_eval(a, b, *, hands=None, games=None, seed=1, game="texas42", rules=None, players=None):
    args = ["eval", "--json", "--agents", f"{a},{b}", "--game", game, "--seed", str(seed)]
    if hands is not None:
        args += ["--hands", str(hands)]
    if games is not None:
        args += ["--games", str(games)]
    if rules is not None:
        args += ["--rules", rules if isinstance(rules, str) else json.dumps(rules)]
    if players is not None:
        args += ["--players", str(players)]
    return json.loads(bones_cli(*args))


CASES = [
    dict(a="heuristic", b="random", hands=40, seed=3),
    dict(a="heuristic", b="random", games=4, seed=1),
    dict(a="random", b="heuristic", hands=25, seed=9, rules={"preset": "full", "scoring": "points"}),
    dict(a="heuristic", b="random", hands=30, seed=2, game="doubles", players=3),
    dict(a="highest", b="random", games=4, seed=4, game="doubles"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.get('game', 'texas42')}-{'hands' if 'hands' in c else 'games'}")
def test_evaluate_equals_bones_eval_json(case):
    got = bones.evaluate(**case)
    want = cli_eval(**case)
    assert got == want
    assert list(got) == list(want)  # the same keys in the same order


def test_evaluate_does_not_depend_on_threads_and_rules_may_be_text():
    one = bones.evaluate("heuristic", "random", hands=30, seed=5, threads=1)
    two = bones.evaluate("heuristic", "random", hands=30, seed=5, threads=2, rules="standard")
    assert one == two
    assert one["hands"] == 30 and one["deals"] == 15 and one["seed"] == 5
    assert one != bones.evaluate("heuristic", "random", hands=30, seed=6)
    as_dict = bones.evaluate("heuristic", "random", hands=10, rules={"preset": "full"})
    assert as_dict == bones.evaluate("heuristic", "random", hands=10, rules='{"preset":"full"}')


def test_evaluate_plays_a_trained_model():
    model = ROOT / "models" / "texas42"
    if not (model / "model.bpk").exists():
        pytest.skip("no shipped model")
    spec = f"model:{model}"
    got = bones.evaluate(spec, "random", hands=6, seed=1)
    assert got == cli_eval(spec, "random", hands=6, seed=1)
    assert got["agents"][0] == spec


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(a="greedy", b="random"), ["greedy", "heuristic"]),
        (dict(a="highest", b="random"), ["Doubles"]),
        (dict(a="model:/no/such/model", b="random"), ["/no/such/model"]),
        (dict(a="random", b="random", hands=2, games=2), ["not both"]),
        (dict(a="random", b="random", hands=0), ["at least 1"]),
        (dict(a="random", b="random", game="chess"), ["chess"]),
        (dict(a="random", b="random", rules={"preset": "nope"}), ["nope"]),
        (dict(a="random", b="random", game="doubles", players=7), ["7"]),
        (dict(a="random", b="random", threads=0), ["threads"]),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, words):
    with pytest.raises(ValueError) as e:
        bones.evaluate(**kwargs)
    for w in words:
        assert w in str(e.value), str(e.value)
