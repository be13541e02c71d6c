#!/usr/bin/env python3
"""Plots strength against self-play hands, one line per network (issue 46, item 3).

    .venv-plot/bin/python scripts/bench/plot_strength.py docs/strength-curve.csv --out docs/strength-curve.png
    (set up once: python3 -m venv .venv-plot && .venv-plot/bin/pip install matplotlib)

The CSV (`network,hands,games,seed,win_rate,win_lo,win_hi,marks,marks_lo,marks_hi,
ship_marks,ship_lo,ship_hi,model`): each row a model after `hands` self-play
hands in all, against heuristic in `games` games to 7 marks on the duplicate
deals of `seed` (`bones eval --agents model:PATH,heuristic --games G --seed S`):
its win rate and marks per hand, each with its 95% interval; and its marks per
hand against the network shipped before issue 46 (`models/texas42-v1`, 5.8M
hands) over 20,000 duplicate hands
(`bones eval --agents model:PATH,model:models/texas42-v1 --hands 20000 --seed 4650`),
empty for that network itself.
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))

    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    panels = [(axes[0], "win_rate", "win", "win rate vs heuristic (games to 7)"),
              (axes[1], "marks", "marks", "marks/hand vs heuristic"),
              (axes[2], "ship_marks", "ship", "marks/hand vs models/texas42-v1 (5.8M hands)")]
    for ax, key, bounds, label in panels:
        for net in dict.fromkeys(r["network"] for r in rows):
            mine = sorted((r for r in rows if r["network"] == net and r[key]), key=lambda r: float(r["hands"]))
            x = [float(r["hands"]) / 1e6 for r in mine]
            y = [float(r[key]) for r in mine]
            err = [[y[i] - float(r[bounds + "_lo"]) for i, r in enumerate(mine)],
                   [float(r[bounds + "_hi"]) - y[i] for i, r in enumerate(mine)]]
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=net)
        ax.set_xlabel("self-play hands (millions)")
        ax.set_title(label)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("strength against self-play hands (95% intervals)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)


if __name__ == "__main__":
    main()
