"""Median per build and the NEW/OLD ratio, for the side-by-side speed scripts.

    python3 scripts/bench/median_ratio.py FILE [TITLE]

FILE holds lines `LABEL<TAB>old|new<TAB>VALUE` (several per label and build);
prints one row per label, in the order first seen: the median of each build's
values and the ratio new/old.
"""
import statistics
import sys

rows = {}
for line in open(sys.argv[1]):
    label, which, value = line.rstrip("\n").split("\t")
    rows.setdefault(label, {}).setdefault(which, []).append(float(value))
title = sys.argv[2] if len(sys.argv) > 2 else "what"
width = max([len(title)] + [len(label) for label in rows])
print(f"{title:{width}} {'old (median)':>16} {'new (median)':>16} {'new/old':>8}")
for label, values in rows.items():
    old, new = statistics.median(values["old"]), statistics.median(values["new"])
    print(f"{label:{width}} {old:16,.0f} {new:16,.0f} {new / old:8.3f}")
