#!/usr/bin/env bash
# Side-by-side engine speed of two `bones` builds: runs `bones bench --json` for
# OLD and NEW alternately (ROUNDS times, both games) on the same machine and
# prints each rate's median per build and the ratio NEW/OLD. The machines are
# shared and noisy: compare the ratios, not the absolute figures.
#
#   [THREADS=2] scripts/bench_compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [SECONDS]
#
# Build an old binary from a commit with, for example:
#   git worktree add /tmp/bones-old-src COMMIT && \
#   CARGO_TARGET_DIR=/tmp/bones-old-target cargo build --release --manifest-path /tmp/bones-old-src/Cargo.toml
set -euo pipefail
old=${1:?usage: bench_compare.sh OLD NEW [ROUNDS] [SECONDS]}
new=${2:?usage: bench_compare.sh OLD NEW [ROUNDS] [SECONDS]}
rounds=${3:-5}
seconds=${4:-1}
threads=${THREADS:-2}
out=$(mktemp)
for i in $(seq 1 "$rounds"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    for game in texas42 doubles; do
      printf '%s %s ' "$which" "$game" >> "$out"
      "$bin" bench --game "$game" --seconds "$seconds" --threads "$threads" --json >> "$out"
    done
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    which, game, js = line.split(' ', 2)
    for k, v in json.loads(js).items():
        if k.endswith('_per_s'):
            rows.setdefault((game, k), {}).setdefault(which, []).append(v)
print(f"{'game':8} {'rate':22} {'old (median)':>14} {'new (median)':>14} {'new/old':>8}")
for (game, k), v in sorted(rows.items()):
    o, n = statistics.median(v['old']), statistics.median(v['new'])
    print(f"{game:8} {k:22} {o:14.0f} {n:14.0f} {n / o:8.3f}")
PY
rm -f "$out"
