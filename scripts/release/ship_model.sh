#!/usr/bin/env bash
# Ships a trained run as a model folder with its evaluation figures:
# exports the run's best checkpoint into models/GAME, evaluates that folder with
# `bones eval --json` against the game's baselines, and re-exports it with the
# results recorded in model.json (and printed here for the README).
#
#   scripts/release/ship_model.sh texas42 runs/full      # vs random, heuristic (2,000 games each) and pimc (200 hands)
#   scripts/release/ship_model.sh doubles runs/doubles   # vs random, highest, heuristic (1,000 games each)
set -euo pipefail
cd "$(dirname "$0")/../.."
game=$1
run=$2
out=models/$game
bones=target/release/bones
cargo build --release --locked -q
"$bones" export --checkpoint "$run" --out "$out" > /dev/null
evals=$(mktemp)
trap 'rm -f "$evals"' EXIT
case $game in
texas42)
    "$bones" eval --agents "model:$out,random" --games 2000 --seed 1 --json >> "$evals"
    "$bones" eval --agents "model:$out,heuristic" --games 2000 --seed 1 --json >> "$evals"
    "$bones" eval --agents "model:$out,pimc:worlds=16" --hands 200 --seed 1 --json >> "$evals"
    ;;
doubles)
    for b in random highest heuristic; do
        "$bones" eval --game doubles --agents "model:$out,$b" --games 1000 --seed 1 --json >> "$evals"
    done
    ;;
*)
    echo "unknown game $game: expected texas42 or doubles" >&2
    exit 2
    ;;
esac
"$bones" export --checkpoint "$out" --out "$out" --evaluation "$evals" > /dev/null
cat "$evals"
