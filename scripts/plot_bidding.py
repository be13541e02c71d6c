#!/usr/bin/env python3
"""Plots the bid rounds of a training run (config `[bidding]`).

    .venv-plot/bin/python scripts/plot_bidding.py --rounds docs/bidding-rounds.csv \
        --calibration docs/bidding-calibration.csv --out docs/bidding.png
    (set up once: python3 -m venv .venv-plot && .venv-plot/bin/pip install matplotlib)

Left: each round's model against a reference network (`round,hands,marks,lo,hi`:
marks per hand with its interval from `bones eval` on the same duplicate deals).
Right: the run's `bidding.csv` (`round,bin,declarations,predicted,made`): the
make-rate each declaration's bid value predicts (by the fit that did not see its
hand) against the contracts made, per bin, every round pooled and the last round.
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", required=True)
    ap.add_argument("--calibration", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reference", default="models/texas42-v1")
    args = ap.parse_args()

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    rounds = read(args.rounds)
    x = [int(r["round"]) for r in rounds]
    y = [float(r["marks"]) for r in rounds]
    err = [[y[i] - float(r["lo"]) for i, r in enumerate(rounds)], [float(r["hi"]) - y[i] for i, r in enumerate(rounds)]]
    left.errorbar(x, y, yerr=err, fmt="o-", capsize=3)
    left.axhline(0.0, color="grey", lw=0.8)
    left.set_xlabel("bid round")
    left.set_ylabel(f"marks/hand vs {args.reference}")
    left.set_title(f"each round's model vs {args.reference} ({rounds[0]['hands']} duplicate hands)")

    cal = read(args.calibration)
    last = max(int(r["round"]) for r in cal)
    for label, rows in [("all rounds", cal), (f"round {last}", [r for r in cal if int(r["round"]) == last])]:
        bins = {}
        for r in rows:
            n = int(r["declarations"])
            b = bins.setdefault(r["bin"], [0, 0.0, 0.0])
            b[0] += n
            b[1] += n * float(r["predicted"])
            b[2] += n * float(r["made"])
        pts = sorted((p / n, m / n, n) for n, p, m in bins.values() if n > 0)
        total = sum(n for _, _, n in pts)
        right.plot([p for p, _, _ in pts], [m for _, m, _ in pts], "o-", label=f"{label} ({total:,} declarations)")
    right.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
    right.set_xlabel("predicted make-rate (out of sample)")
    right.set_ylabel("contracts made")
    right.set_title("calibration of the bid values")
    right.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
