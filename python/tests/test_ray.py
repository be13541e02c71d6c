"""bones.ray.evaluate on a local Ray with 2 workers returns exactly what
`bones eval --json` prints for the same seed; shards merge in any order and bad
sets of shards are refused."""

import json
import random

import pytest

ray = pytest.importorskip("ray")

import bones  # noqa: E402
import bones.ray  # noqa: E402
from bones import _bones  # noqa: E402
from test_evaluate import cli_eval  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize(
    "case",
    [
        dict(a="heuristic", b="random", hands=60, seed=7),
        dict(a="heuristic", b="random", games=6, seed=1),
        dict(a="heuristic", b="random", hands=45, seed=2, game="doubles", players=3),
    ],
    ids=["texas42-hands", "texas42-games", "doubles-hands"],
)
def test_ray_evaluate_equals_bones_eval(local_ray, case):
    got = bones.ray.evaluate(**case, num_workers=2)
    assert got == cli_eval(**case)
    assert got == bones.evaluate(**case)


def test_more_workers_than_deals_and_one_worker(local_ray):
    case = dict(a="heuristic", b="random", hands=6, seed=3)
    want = bones.evaluate(**case)
    assert bones.ray.evaluate(**case, num_workers=5) == want  # 3 deals: 3 tasks
    assert bones.ray.evaluate(**case, num_workers=1) == want


def test_shards_merge_in_any_order_and_bad_sets_are_refused():
    kw = dict(hands=40, seed=11)
    deals = _bones._eval_deals("heuristic", "random", hands=40)
    assert deals == 20
    ranges = bones.ray.shard_ranges(deals, 3)
    assert ranges == [(0, 6), (6, 13), (13, 20)]
    shards = [_bones._evaluate_shard("heuristic", "random", s, e, **kw) for s, e in ranges]
    want = bones.evaluate("heuristic", "random", **kw)
    shuffled = shards[:]
    random.Random(1).shuffle(shuffled)
    assert _bones._merge_shards(shuffled) == want
    assert json.loads(shards[0])["start"] == 0
    with pytest.raises(ValueError, match="missing"):
        _bones._merge_shards(shards[:2])
    with pytest.raises(ValueError, match="two shards"):
        _bones._merge_shards(shards + [shards[1]])
    other = _bones._evaluate_shard("heuristic", "random", 13, 20, hands=40, seed=12)
    with pytest.raises(ValueError, match="seed"):
        _bones._merge_shards(shards[:2] + [other])
    with pytest.raises(ValueError, match="not a range"):
        _bones._evaluate_shard("heuristic", "random", 15, 21, **kw)


def test_bad_arguments_fail_before_any_task(local_ray):
    with pytest.raises(ValueError, match="greedy"):
        bones.ray.evaluate("greedy", "random", hands=4, num_workers=2)
    with pytest.raises(ValueError, match="num_workers"):
        bones.ray.evaluate("random", "random", hands=4, num_workers=0)


def test_starts_a_local_ray_when_none_is_running(local_ray):
    ray.shutdown()
    try:
        got = bones.ray.evaluate("heuristic", "random", hands=8, seed=4, num_workers=2)
        assert ray.is_initialized()
        assert got == bones.evaluate("heuristic", "random", hands=8, seed=4)
    finally:
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)


def test_ray_evaluate_plays_a_python_policy(local_ray):
    # A nested function: Ray (cloudpickle) sends it to the tasks by value.
    def lowest_legal(observations, masks, seats):
        return masks.argmax(axis=1)

    case = dict(hands=30, seed=4)
    got = bones.ray.evaluate(lowest_legal, "heuristic", num_workers=2, **case)
    assert got == bones.evaluate(lowest_legal, "heuristic", **case)
    assert got["agents"] == ["python:lowest_legal", "heuristic"]
