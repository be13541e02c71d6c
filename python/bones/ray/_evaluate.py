"""Evaluation scaled out on Ray: `bones.ray.evaluate` shards the duplicate deals
of one evaluation over Ray tasks and merges them into exactly the result that
`bones.evaluate` (and `bones eval --json`) gives for the same seed.

The deals of an evaluation are one seeded sequence (deal i has a seed that is a
fixed function of the seed and i), so any contiguous range of them can be played
anywhere; each task plays one range and returns its per-deal results, and the
merge sums them in deal order (floats to the bit). Only `ray` itself is
imported lazily, so `import bones` does not need it.

    import bones.ray
    r = bones.ray.evaluate("heuristic", "random", hands=2000, seed=1, num_workers=4)

Ray: if `ray.init()` was already called (a local Ray or a cluster, e.g. with
RAY_ADDRESS), the tasks run there; otherwise a local Ray is started (and left
running for later calls; `ray.shutdown()` stops it). On a cluster every node
needs the `bones` package installed (and any `model:PATH` reachable at PATH).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from .. import _bones

__all__ = ["evaluate", "shard_ranges"]


def shard_ranges(deals: int, shards: int) -> list[tuple[int, int]]:
    """Splits deals 0..deals into `shards` contiguous ranges (start, end) whose
    sizes differ by at most one (the same split as the Rust `shard_ranges`)."""
    if shards < 1:
        raise _bones.BonesError(f"shards must be at least 1, got {shards}")
    return [(deals * k // shards, deals * (k + 1) // shards) for k in range(shards)]


def _play_shard(a, b, start, end, kwargs):
    from .. import _bones as native

    return native._evaluate_shard(a, b, start, end, **kwargs)


_remote = None


def _remote_play(ray, threads):
    global _remote
    if _remote is None:
        _remote = ray.remote(_play_shard)
    return _remote.options(num_cpus=threads)


def evaluate(
    a: Union[str, Callable],
    b: Union[str, Callable],
    *,
    hands: Optional[int] = None,
    games: Optional[int] = None,
    seed: int = 1,
    game: str = "texas42",
    rules: Union[str, dict, None] = None,
    players: Optional[int] = None,
    num_workers: Optional[int] = None,
    threads_per_worker: int = 1,
) -> dict[str, Any]:
    """Evaluates `a` against `b` like `bones.evaluate`, with the duplicate
    deals split over `num_workers` Ray tasks (default: the cluster's CPUs divided
    by `threads_per_worker`, at most one task per deal). Returns the same
    dictionary as `bones.evaluate(a, b, ...)` and `bones eval --json` for the
    same arguments. `a` and `b` are agent specs or callables as in
    `bones.evaluate`; a callable is sent to the tasks by Ray (cloudpickle), so
    it must be picklable and everything it needs importable on every node.
    Raises the same exceptions as `bones.evaluate` (bad
    arguments before any task starts; an agent's failure as RuntimeError, or
    ray's RayTaskError wrapping it)."""
    import ray

    if num_workers is not None and num_workers < 1:
        raise _bones.BonesError(f"num_workers must be at least 1, got {num_workers}")
    if threads_per_worker < 1:
        raise _bones.BonesError(f"threads_per_worker must be at least 1, got {threads_per_worker}")
    kwargs = dict(hands=hands, games=games, game=game, rules=rules, players=players)
    # Checks the game, the specs and the amount here, before any task is sent.
    deals = _bones._eval_deals(a, b, **kwargs)
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    if num_workers is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        num_workers = max(1, cpus // threads_per_worker)
    ranges = shard_ranges(deals, min(num_workers, deals))
    task = _remote_play(ray, threads_per_worker)
    opts = dict(kwargs, seed=seed, threads=threads_per_worker)
    shards = ray.get([task.remote(a, b, start, end, opts) for start, end in ranges])
    return _bones._merge_shards(shards, game=game, rules=rules, players=players)
