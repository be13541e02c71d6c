#!/usr/bin/env bash
# Side-by-side training speed of two `bones` builds: runs each preset's short
# training (`bones train --config PRESET --hands HANDS`, every build with its own
# built-in preset, so a preset's changed settings count as part of the build;
# pass a TOML file as PRESET to run both on the same settings) for OLD and NEW
# alternately, ROUNDS times, and prints the
# hands/hour each run printed in its summary, the median per build and the ratio
# NEW/OLD. The machines are shared and noisy: compare the ratios. A new build
# also prints where the time went (`time per phase`); the last NEW run's table
# is shown.
#
#   scripts/bench/train_compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [PRESETS] [HANDS]
#   (defaults: 2 rounds, "cpu-full cpu-quick", 100000 hands)
#
# Build an old binary from a commit with, for example:
#   git worktree add /tmp/bones-old-src COMMIT && \
#   CARGO_TARGET_DIR=/tmp/bones-old-target cargo build --release --manifest-path /tmp/bones-old-src/Cargo.toml
set -euo pipefail
old=${1:?usage: train_compare.sh OLD NEW [ROUNDS] [PRESETS] [HANDS]}
new=${2:?usage: train_compare.sh OLD NEW [ROUNDS] [PRESETS] [HANDS]}
rounds=${3:-2}
presets=${4:-cpu-full cpu-quick}
hands=${5:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results"
[ "$rounds" -ge 1 ] || { echo "train_compare.sh: ROUNDS must be at least 1" >&2; exit 2; }
for i in $(seq 1 "$rounds"); do
  # Odd rounds run OLD first, even rounds NEW first (no systematic order bias).
  order="old new"; [ $((i % 2)) -eq 0 ] && order="new old"
  for preset in $presets; do
    tag=$(basename "$preset" .toml)
    for which in $order; do
      bin=$old; [ "$which" = new ] && bin=$new
      log="$work/$which-$tag.log"
      "$bin" train --config "$preset" --hands "$hands" --out "$work/run-$which-$tag-$i" > "$log" 2>&1 \
        || { cat "$log" >&2; echo "train_compare.sh: $which build failed on $preset" >&2; exit 1; }
      rate=$(tr '\r' '\n' < "$log" | sed -n 's/.*decisions\/s, \([0-9]*\) hands\/hour.*/\1/p' | tail -1)
      [ -n "$rate" ] || { cat "$log" >&2; echo "train_compare.sh: no hands/hour in the $which summary" >&2; exit 1; }
      printf '%s\t%s\t%s\n' "$tag" "$which" "$rate" >> "$results"
      echo "round $i: $tag $which $rate hands/hour" >&2
    done
  done
done
python3 "$(dirname "$0")/median_ratio.py" "$results" "preset (hands/hour)"
for preset in $presets; do
  tag=$(basename "$preset" .toml)
  if grep -q "time per phase" "$work/new-$tag.log"; then
    echo "new build, $tag, last round:"
    tr '\r' '\n' < "$work/new-$tag.log" | sed -n '/time per phase/,$p'
  fi
done
