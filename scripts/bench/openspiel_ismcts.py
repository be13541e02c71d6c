#!/usr/bin/env python3
"""OpenSpiel's ISMCTS against Bones' agents on duplicate deals: each budget
(simulations per decision) against each opponent through `bones.evaluate`
(A = ISMCTS seated with `bones.openspiel.ismcts_seat`, B = the opponent's
spec), one hand per duplicate seating. Prints one markdown table row per
match (marks and points per hand and hands won with their 95% intervals,
ISMCTS's contracts declared and made with its mean bid, wall seconds per
hand: the columns of docs/results.md), and the reports as JSON lines on
standard error.

    scripts/bench/openspiel_ismcts.py [--sims 25,100] [--opponents heuristic,pimc:worlds=8,model:models/texas42]
                                [--hands 40] [--seed 1]

Needs `pip install "./python[openspiel]"`; run from the repository root
(`model:PATH` is a path).
"""

import argparse
import json
import sys
import time

import pyspiel

import bones
import bones.openspiel as bos


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", default="25,100", help="ISMCTS budgets, comma-separated (default 25,100)")
    ap.add_argument("--opponents", default="heuristic,pimc:worlds=8,model:models/texas42")
    ap.add_argument("--hands", type=int, default=40, help="hands per match (default 40: 20 duplicate deals)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game("bones_texas42")
    print(
        "| ISMCTS sims | opponent | hands | marks/hand [95%] | points/hand [95%] | hands won [95%] "
        "| ISMCTS's contracts: declared, made | s per hand (wall) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for sims in [int(s) for s in args.sims.split(",")]:
        for opponent in args.opponents.split(","):
            t0 = time.perf_counter()
            r = bones.evaluate(bos.ismcts_seat(game, sims), opponent, hands=args.hands, seed=args.seed)
            wall = time.perf_counter() - t0
            lo, hi = r["marks_ci"]
            plo, phi = r["points_ci"]
            wlo, whi = r["win_ci"]
            c = r["contracts"]["a"]
            print(
                f"| {sims} | `{opponent}` | {r['hands']} | {r['marks_per_hand']:+.2f} [{lo:+.2f}, {hi:+.2f}] "
                f"| {r['points_per_hand']:+.1f} [{plo:+.1f}, {phi:+.1f}] | {r['win_rate']:.2f} [{wlo:.2f}, {whi:.2f}] "
                f"| {c['declared']}, {c['made']} (mean bid {c['mean_bid']:.1f}) | {wall / r['hands']:.1f} |",
                flush=True,
            )
            print(json.dumps(dict(r, wall_s=round(wall, 1))), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
