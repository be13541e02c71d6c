#!/usr/bin/env python3
"""Plots a training run's learning curve from its TensorBoard event files.

    .venv-plot/bin/python scripts/bench/plot_curve.py runs/full --out docs/learning-curve.png
    (set up once: python3 -m venv .venv-plot && .venv-plot/bin/pip install tensorboard matplotlib)

Panels: evaluation against random and heuristic (hand win rate and reward per
hand), the policy's entropy and approx KL, the value loss and explained
variance, all against self-play decisions (the logs' step). `--print` also prints the eval points.
"""
import argparse
import glob
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator


def load(run):
    files = sorted(glob.glob(os.path.join(run, "events.out.tfevents.*")))
    if not files:
        raise SystemExit(f"no event files in {run}")
    series = {}
    for f in files:  # a resumed run writes a second file
        acc = EventAccumulator(f, size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags()["scalars"]:
            series.setdefault(tag, {}).update({e.step: e.value for e in acc.Scalars(tag)})
    return {t: sorted(v.items()) for t, v in series.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--out", default=None)
    ap.add_argument("--title", default=None)
    ap.add_argument("--print", action="store_true")
    args = ap.parse_args()
    s = load(args.run)
    panels = [
        ("hand win rate (eval)", ["eval/win_rate_vs_random", "eval/win_rate_vs_heuristic"]),
        ("reward per hand (eval)", ["eval/reward_per_hand_vs_random", "eval/reward_per_hand_vs_heuristic"]),
        ("policy", ["losses/entropy", "losses/approx_kl"]),
        ("value", ["losses/value_loss", "losses/explained_variance"]),
    ]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7))
    for ax, (title, tags) in zip(axes.flat, panels):
        for tag in tags:
            if tag in s:
                xs, ys = zip(*s[tag])
                ax.plot(xs, ys, label=tag.split("/")[1], marker="o" if tag.startswith("eval/") else None, ms=3)
        ax.set_title(title)
        ax.set_xlabel("self-play decisions")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(args.title or f"learning curve: {args.run}")
    fig.tight_layout()
    out = args.out or os.path.join(args.run, "learning-curve.png")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    fig.savefig(out, dpi=80)
    print(f"wrote {out}")
    if args.print:
        for tag in sorted(t for t in s if t.startswith("eval/")):
            print(tag, " ".join(f"{x}:{y:.3f}" for x, y in s[tag]))


if __name__ == "__main__":
    main()
