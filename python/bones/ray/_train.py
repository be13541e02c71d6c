"""Training on a Ray cluster: `bones.ray.train` (and `python -m bones.ray train`)
runs the actor-learner of `bones train --workers N` with the rollout workers as
Ray actors, anywhere in the cluster, and the learner in the driver.

The learner (`bones.Learner.train`) keeps `bones train`'s schedule and says
which weights play which rollout; this module only carries the bytes and
starts the workers (`_RayTransport`). Each send puts the weights into Ray's
object store once (`ray.put`) and every worker's rollout call takes them; the
opponent pool goes into the store only when it changed, and a worker fetches
it only when its own is older than the one its weights play against.

A worker that dies (its process, or its node) is restarted by Ray and its
rollout retried on the new one, which deals new games; the learner takes one
shard of every worker for every update, so nothing is lost or counted twice.
A shard the learner refuses (inconsistent or unreadable; nothing of it is
counted) has its worker replaced and that update's rollout played again, up
to `bones`' MAX_SHARD_RETRIES times (the learner's `replace`).
A driver that dies leaves the run folder at its last checkpoint: run it again
with `resume=True` (`--resume`). The command line's flags are `bones train`'s
(`bones._bones.train_flags()`), with Ray's own.
"""

from __future__ import annotations

import socket
import sys
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
        # `pool` is [ObjectRef or None] in a list, so Ray does not fetch it
        # before the call: only a worker whose pool is older fetches it.
        wanted = self.worker.set_weights(weights)
        if self.worker.pool_version != wanted:
            import ray

            self.worker.set_pool(ray.get(pool[0]))
        return self.pid, self.worker.rollout()


class _RayTransport:
    """The learner's transport (`bones.Learner.train`) over Ray: weights and
    pools into the object store, rollouts as actor calls, shards back."""

    def __init__(self, ray, actors: list, say: Callable[[str], None]):
        self.ray, self.actors, self.say = ray, actors, say
        self.pids: list[Optional[int]] = [None] * len(actors)
        self.pool = None
        self.pending: dict[int, tuple] = {}
        self.playing: Optional[tuple] = None

    def send(self, update: int, weights: bytes, pool: Optional[bytes]) -> None:
        if pool is not None:
            self.pool = self.ray.put(pool)
        args = (self.ray.put(weights), [self.pool])
        self.pending[update] = (args, [a.rollout.remote(*args) for a in self.actors])

    def receive(self, update: int) -> list:
        args, refs = self.pending.pop(update)
        self.playing = args
        return [self._shard(w, result) for w, result in enumerate(self.ray.get(refs))]

    def replace(self, worker: int, update: int, reason: str) -> bytes:
        self.say(f"{reason.splitlines()[0]}; worker {worker} is replaced and plays update {update} again")
        self.ray.kill(self.actors[worker], no_restart=False)
        return self._shard(worker, self.ray.get(self.actors[worker].rollout.remote(*self.playing)))

    def updated(self, update: int, hands: int, hands_per_s: float) -> None:
        self.say(f"update {update} · {hands} hands · {hands_per_s:.0f} hands/s")

    def _shard(self, worker: int, result: tuple) -> bytes:
        pid, shard = result
        if self.pids[worker] is None:
            self.say(f"worker {worker} is pid {pid}")
        elif self.pids[worker] != pid:
            self.say(f"worker {worker} was replaced (pid {self.pids[worker]}, now pid {pid})")
        self.pids[worker] = pid
        return shard


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
    try:
        learner.train(_RayTransport(ray, actors, say))
        return learner.finish()
    finally:
        for a in actors:
            ray.kill(a)


def _whole(least: int, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `least` to `most`."""
    import argparse

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{value} is not in {least}..={most}")
        return value

    return whole


def _add_train_flags(parser) -> None:
    """`bones train`'s flags (`bones._bones.train_flags()`, from the one table
    in bones-train) on `parser`; `--workers` is required here (Ray actors, at
    least 1)."""
    for flag in _bones.train_flags():
        name, kind = flag["name"], flag["kind"]
        extra: dict[str, Any] = {"help": flag["help"]}
        if kind == "switch":
            extra["action"] = "store_true"
        else:
            extra["metavar"] = flag["shown"]
            extra["default"] = flag["default"]
            if kind == "whole":
                extra["type"] = _whole(flag["min"], flag["max"])
            elif kind == "game":
                extra["choices"] = flag["words"]
        if name == "workers":
            extra["required"] = True
            extra["help"] = "rollout workers (Ray actors), at least 1"
        parser.add_argument(f"--{name}", **extra)


def main(argv: Optional[list[str]] = None) -> int:
    """`python -m bones.ray train ...`: the command line of `train`."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m bones.ray",
        description="Bones on a Ray cluster: `train` runs the actor-learner with its rollout workers as Ray actors.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train with rollout workers as Ray actors (the learner runs here)")
    _add_train_flags(t)
    t.add_argument("--address", default=None, help="the Ray cluster: `auto`, or HOST:PORT of its head (default: a local Ray)")
    t.add_argument("--threads-per-worker", type=int, default=1, help="CPUs each worker reserves (default 1)")
    args = parser.parse_args(argv)
    overrides = {}
    for flag in _bones.train_flags():
        value = getattr(args, flag["name"])
        if flag["field"] is not None and flag["name"] != "workers" and value is not None:
            overrides[flag["field"]] = value
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
