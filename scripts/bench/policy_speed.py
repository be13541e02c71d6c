#!/usr/bin/env python3
"""How fast a Python policy plays in bones.evaluate: the shipped Texas 42
network written in numpy (a callable, called with batches across the deals in
play) beside the same network as `model:models/texas42` (Rust, one decision at
a time), each against `random` on the same duplicate deals, one thread.

    python scripts/bench/policy_speed.py [--hands 2000] [--rounds 3]

Prints, per round (the two alternated), each evaluation's wall time and the
network side's decisions per second (its decisions over the whole evaluation's
wall time: the environment and `random` are in both), then the median ratio
numpy / model. Install the package first (scripts/ci/ci_python.sh, or maturin
with --release for figures that mean something).
"""

import argparse
import pathlib
import statistics
import sys
import time

import numpy as np

import bones

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from test_policies import NumpyNetwork  # noqa: E402


def timed(a, hands, seed):
    start = time.perf_counter()
    report = bones.evaluate(a, "random", hands=hands, seed=seed, threads=1)
    return time.perf_counter() - start, report


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    folder = ROOT / "models" / "texas42"
    net = NumpyNetwork(folder)
    ratios = []
    for r in range(args.rounds):
        t_np, rep_np = timed(net, args.hands, args.seed)
        t_model, rep_model = timed(f"model:{folder}", args.hands, args.seed)
        dps_np = rep_np["decisions"][0] / t_np
        dps_model = rep_model["decisions"][0] / t_model
        ratios.append(dps_np / dps_model)
        same = {k: v for k, v in rep_np.items() if k != "agents"} == {
            k: v for k, v in rep_model.items() if k != "agents"
        }
        print(
            f"round {r + 1}: numpy {t_np:.2f} s ({dps_np:,.0f} decisions/s, mean batch "
            f"{np.mean(net.batches):.0f}), model: {t_model:.2f} s ({dps_model:,.0f} decisions/s); "
            f"ratio {ratios[-1]:.2f}; same report: {same}"
        )
        net.batches.clear()
    print(f"median ratio numpy / model: {statistics.median(ratios):.2f} over {args.rounds} rounds of {args.hands} hands")


if __name__ == "__main__":
    main()
