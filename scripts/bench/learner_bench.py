"""How many self-play hands an hour one learner can absorb, and one rollout
worker can play, on this machine (issue 26): a `bones.RolloutWorker` with all
of the config's games records `--updates` rollouts with the run's first
weights (timed: the worker's rate), then a `bones.Learner` is fed them, one
update each (timed: the learner's rate, its logs, pool, evaluations and
checkpoints included, as in a run). The learner does not wait for anything, so
its rate is the most hands/hour that any number of workers can feed it.

    .venv-py/bin/python scripts/bench/learner_bench.py [--config cpu-full] [--updates 20]

The machine's threads are the extension's (RAYON_NUM_THREADS=1: one core).
Prints one JSON object.
"""

import argparse
import json
import os
import tempfile
import time

import bones


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", default="cpu-full", help="a config preset or TOML file")
    p.add_argument("--updates", type=int, default=20, help="rollouts recorded and updates timed")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # A run too long to end here: no final evaluation inside the timed updates.
        learner = bones.Learner(args.config, f"{tmp}/run", workers=1, overrides={"total_hands": 10**12})
        worker = bones.RolloutWorker(learner.config, 0)
        shards = []
        start = time.perf_counter()
        for k in range(args.updates):
            worker.set_weights(learner.weights(k))
            shards.append(worker.rollout())
        rollout_s = time.perf_counter() - start
        start = time.perf_counter()
        for shard in shards:
            learner.update([shard])
        update_s = time.perf_counter() - start
        hands = learner.hands
    print(
        json.dumps(
            {
                "config": args.config,
                "threads": os.environ.get("RAYON_NUM_THREADS", "all"),
                "updates": args.updates,
                "hands": hands,
                "worker_s": round(rollout_s, 2),
                "learner_s": round(update_s, 2),
                "worker_hands_per_hour": round(hands / rollout_s * 3600),
                "learner_hands_per_hour": round(hands / update_s * 3600),
            }
        )
    )


if __name__ == "__main__":
    main()
