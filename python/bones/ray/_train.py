"""Training on a Ray cluster: `bones.ray.train` (and `python -m bones.ray train`)
runs the actor-learner of `bones train --workers N` with the rollout workers as
Ray actors, anywhere in the cluster, and the learner in the driver.

Each update, the driver puts the new weights into Ray's object store once
(`ray.put`) and every worker's next rollout call takes them; the opponent pool
goes into the store only when it changed, and a worker fetches it only when
its own is older. The schedule is the one of `bones train --workers N`: the
weights after update k play the rollout of update k + 1 + policy_lag, so the
learner never waits for a rollout it could have had and the lag stays bounded.

A worker that dies (its process, or its node) is restarted by Ray and its
rollout retried on the new one, which deals new games; the learner takes one
shard of every worker for every update, so nothing is lost or counted twice.
A shard the learner refuses (`bones.ShardRefused`: inconsistent or
unreadable; nothing of it is counted) has its worker replaced and that
update's rollout played again, up to MAX_SHARD_RETRIES times.
A driver that dies leaves the run folder at its last checkpoint: run it again
with `resume=True` (`--resume`).
"""

from __future__ import annotations

import socket
import sys
import time
from collections import deque
from typing import Any, Callable, Optional

from .. import _bones

__all__ = ["train"]


def _check_reachable(address: str) -> None:
    """Fails fast, with the address, when nothing listens there (ray.init would
    retry for minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise _bones.TrainError(f"--address {address!r}: expected HOST:PORT of the Ray head, or `auto`")
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as e:
        raise _bones.TrainError(f"cannot reach the Ray head at {address}: {e.strerror or e}") from None


def _connect(address: Optional[str]):
    try:
        import ray
    except ImportError:
        raise _bones.TrainError(
            "bones.ray needs Ray, which is not installed: pip install 'bones[ray]' (or pip install ray)"
        ) from None
    if not ray.is_initialized():
        if address not in (None, "auto", "local"):
            _check_reachable(address)
        _join(ray, address)
    return ray


def _join(ray, address: Optional[str]) -> None:
    """`ray.init` with what Ray writes to the standard error held back: shown
    if it joins, read for the reason (and replaced by one line) if it does not.
    Ray's exception says only that it failed; the reason (a refused token, say)
    is in what it wrote meanwhile, a line a second while it retries."""
    import logging
    import os
    import tempfile

    with tempfile.TemporaryFile() as held:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(held.fileno(), 2)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
            failure = None
        except ConnectionError as e:
            failure = e
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        held.seek(0)
        said = held.read().decode(errors="replace")
    if failure is None:
        sys.stderr.write(said)
        return
    raise _bones.TrainError(_refused(address, said, failure))


def _refused(address: Optional[str], said: str, failure: Exception) -> str:
    """One line for a Ray cluster that did not take this driver."""
    if "InvalidAuthToken" in said or "Unauthenticated" in said:
        import os

        if os.environ.get("RAY_AUTH_MODE") != "token":
            why = "token authentication is on there, and this driver has no token (RAY_AUTH_MODE is not `token`)"
        else:
            why = "this driver's token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token) is not the cluster's"
        return f"the Ray cluster at {address} refused this driver: {why}; set RAY_AUTH_MODE=token and the cluster's RAY_AUTH_TOKEN"
    if address in (None, "auto"):
        return "no running Ray cluster to join (--address auto): start one with `ray start --head`, or name its head as HOST:PORT"
    return f"could not join the Ray cluster at {address}: {str(failure).splitlines()[0]}"


class _Worker:
    """A Ray actor around one `bones.RolloutWorker`."""

    def __init__(self, config: str, worker: int):
        import os

        self.pid = os.getpid()
        self.worker = _bones.RolloutWorker(config, worker)

    def rollout(self, weights: bytes, pool: list) -> tuple:
        # `pool` is [version, ObjectRef] in a list, so Ray does not fetch it
        # before the call: only a worker whose pool is older fetches it.
        version, ref = pool
        if self.worker.pool_version != version:
            import ray

            self.worker.set_pool(ray.get(ref))
        self.worker.set_weights(weights)
        return self.pid, self.worker.rollout()


# How many times one update's refused shards are played again before the run stops.
MAX_SHARD_RETRIES = 3


def train(
    config: str = "cpu-quick",
    *,
    workers: int,
    out: str,
    resume: bool = False,
    address: Optional[str] = None,
    overrides: Optional[dict] = None,
    threads_per_worker: int = 1,
    log: Optional[Callable[[str], None]] = None,
) -> dict[str, Any]:
    """Trains `config` (a preset name, a TOML file or TOML text, with the
    config fields in `overrides` set) into the run folder `out` with `workers`
    rollout workers as Ray actors (each reserving `threads_per_worker` CPUs)
    and the learner in this process; with `resume`, continues the run in `out`
    from its latest checkpoint. `address`: the Ray cluster (`auto`, or
    HOST:PORT of its head; None: the running Ray if `ray.init` was called,
    else a local one). The run folder is the one `bones train` writes
    (checkpoints, TensorBoard, config.toml; `model:OUT` plays it). Returns
    `Learner.finish()`'s summary. `log` gets a line per update (default: none).
    """
    if workers < 1:
        raise _bones.TrainError(f"workers must be at least 1, got {workers}")
    if threads_per_worker < 1:
        raise _bones.TrainError(f"threads_per_worker must be at least 1, got {threads_per_worker}")
    # The config is checked before anything connects or writes (a worker's
    # games are dealt only when weights arrive).
    _bones.RolloutWorker(config, 0, workers=workers, overrides=overrides)
    ray = _connect(address)
    learner = _bones.Learner(config, out, workers=workers, resume=resume, overrides=overrides)
    say = log or (lambda line: None)
    say(f"learner at update {learner.update_count} ({learner.hands} hands); {workers} workers")
    actor = ray.remote(num_cpus=threads_per_worker, max_restarts=-1, max_task_retries=-1)(_Worker)
    actors = [actor.remote(learner.config, w) for w in range(workers)]
    pids: list[Optional[int]] = [None] * workers
    lag = learner.policy_lag
    pool: list = [None, None]
    pending: deque = deque()

    def submit(update: int) -> None:
        if pool[0] != learner.pool_version:
            pool[:] = [learner.pool_version, ray.put(learner.pool())]
        weights = ray.put(learner.weights(update))
        pending.append((update, weights, list(pool), [a.rollout.remote(weights, list(pool)) for a in actors]))

    try:
        first = learner.update_count
        for k in range(first, first + lag + 1):
            submit(k)
        start, hands0 = time.monotonic(), learner.hands
        while not learner.finished:
            update, weights, update_pool, refs = pending.popleft()
            assert update == learner.update_count
            results = ray.get(refs)
            for retry in range(MAX_SHARD_RETRIES + 1):
                for w, (pid, _) in enumerate(results):
                    if pids[w] is None:
                        say(f"worker {w} is pid {pid}")
                    elif pids[w] != pid:
                        say(f"worker {w} was replaced (pid {pids[w]}, now pid {pid})")
                    pids[w] = pid
                try:
                    learner.update([shard for _, shard in results])
                    break
                except _bones.ShardRefused as e:
                    # Nothing was counted: the refusing worker is replaced
                    # (Ray restarts the actor) and plays this update's rollout
                    # again; the run goes on.
                    if retry == MAX_SHARD_RETRIES:
                        raise
                    w = e.index
                    say(f"{str(e).splitlines()[0]}; worker {w} is replaced and plays update {update} again")
                    ray.kill(actors[w], no_restart=False)
                    results[w] = ray.get(actors[w].rollout.remote(weights, update_pool))
            rate = (learner.hands - hands0) / max(time.monotonic() - start, 1e-9)
            say(f"update {learner.update_count} · {learner.hands} hands · {rate:.0f} hands/s")
            if not learner.finished:
                submit(learner.update_count + lag)
        return learner.finish()
    finally:
        for a in actors:
            ray.kill(a)


def main(argv: Optional[list[str]] = None) -> int:
    """`python -m bones.ray train ...`: the command line of `train`."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m bones.ray",
        description="Bones on a Ray cluster: `train` runs the actor-learner with its rollout workers as Ray actors.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train with rollout workers as Ray actors (the learner runs here)")
    t.add_argument("--config", default="cpu-quick", help="a config preset (cpu-quick, cpu-full, gpu, smoke) or a TOML file")
    t.add_argument("--workers", type=int, required=True, help="rollout workers (Ray actors), at least 1")
    t.add_argument("--address", default=None, help="the Ray cluster: `auto`, or HOST:PORT of its head (default: a local Ray)")
    t.add_argument("--out", default=None, help="run folder (default: runs/<config name>)")
    t.add_argument("--resume", action="store_true", help="continue the run in --out from its latest checkpoint")
    t.add_argument("--hands", type=int, default=None, help="override the config's total self-play hands")
    t.add_argument("--seed", type=int, default=None, help="override the config's seed")
    t.add_argument("--threads-per-worker", type=int, default=1, help="CPUs each worker reserves (default 1)")
    args = parser.parse_args(argv)
    overrides = {}
    if args.hands is not None:
        overrides["total_hands"] = args.hands
    if args.seed is not None:
        overrides["seed"] = args.seed
    name = args.config.rsplit("/", 1)[-1].removesuffix(".toml")
    out = args.out or f"runs/{name}"
    try:
        summary = train(
            args.config,
            workers=args.workers,
            out=out,
            resume=args.resume,
            address=args.address,
            overrides=overrides,
            threads_per_worker=args.threads_per_worker,
            log=lambda line: print(line, flush=True),
        )
    except _bones.BonesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(
        f"trained {summary['hands']} hands in {summary['update']} updates "
        f"({summary['decisions_per_s']:.0f} decisions/s, {summary['hands_per_hour']:.0f} hands/hour); "
        f"checkpoint {summary['checkpoint']}"
    )
    for k, v in summary["last_eval"].items():
        print(f"  {k}: {v:.3f}")
    return 0
