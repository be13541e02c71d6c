#!/usr/bin/env bash
# Side-by-side engine speed of two `bones` builds: runs `bones bench --json` for
# OLD and NEW alternately (ROUNDS times, both games) on the same machine and
# prints each rate's median per build and the ratio NEW/OLD. The machines are
# shared and noisy: compare the ratios, not the absolute figures.
#
#   [THREADS=2] scripts/bench/bench_compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [SECONDS]
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
trap 'rm -f "$out"' EXIT
for i in $(seq 1 "$rounds"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    for game in texas42 doubles; do
      "$bin" bench --game "$game" --seconds "$seconds" --threads "$threads" --json | python3 -c '
import json, sys
for k, v in json.load(sys.stdin).items():
    if k.endswith("_per_s"):
        print(f"{sys.argv[1]} {k}\t{sys.argv[2]}\t{v}")' "$game" "$which" >> "$out"
    done
  done
done
python3 "$(dirname "$0")/median_ratio.py" "$out" "game rate"
