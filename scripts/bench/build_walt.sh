#!/usr/bin/env bash
# Builds the bridge programs of walt's repository (github.com/jasonyandell/texas-42,
# CC0) from a checkout you fetched yourself, for `bones eval --agents
# ...,bridge:PATH --rules dropped30` (docs/benchmark.md, "Against walt"). Nothing
# of that repository is copied into Bones: the programs are built in the checkout
# and their paths printed.
#
#   git clone https://github.com/jasonyandell/texas-42 ~/src/texas-42
#   scripts/bench/build_walt.sh ~/src/texas-42
#
# It builds, each with its workspace's own lock file and toolchain file:
#   walt/target/release/walt_bridge   (cargo build --release --locked -p walt-m3-probe --bin walt_bridge)
#   rob/target/release/rob_bridge     (cargo build --release --locked -p rob-verify --bin rob_bridge)
# Give --walt-only to skip rob_bridge.
set -euo pipefail

usage() {
    echo "usage: $0 CHECKOUT [--walt-only]   (CHECKOUT: a clone of github.com/jasonyandell/texas-42)" >&2
    exit 2
}

[[ $# -ge 1 && $# -le 2 ]] || usage
checkout=$1
walt_only=0
if [[ $# -eq 2 ]]; then
    [[ $2 == --walt-only ]] || usage
    walt_only=1
fi
if [[ ! -f "$checkout/walt/walt-m3-probe/src/bin/walt_bridge.rs" ]]; then
    echo "$0: $checkout has no walt/walt-m3-probe/src/bin/walt_bridge.rs: is it a checkout of github.com/jasonyandell/texas-42?" >&2
    exit 1
fi
checkout=$(cd "$checkout" && pwd)

(cd "$checkout/walt" && cargo build --release --locked -p walt-m3-probe --bin walt_bridge)
built=("$checkout/walt/target/release/walt_bridge")
if [[ $walt_only -eq 0 ]]; then
    if [[ -f "$checkout/rob/crates/verify/src/bin/rob_bridge.rs" ]]; then
        (cd "$checkout/rob" && cargo build --release --locked -p rob-verify --bin rob_bridge)
        built+=("$checkout/rob/target/release/rob_bridge")
    else
        echo "$0: no rob/crates/verify/src/bin/rob_bridge.rs in $checkout: rob_bridge not built" >&2
    fi
fi

# One request of the protocol as a smoke check: seat 1 leads (fours trump)
# with its seven dealt dominoes and no plays yet; the reply is
# `domino leader points0 points1`.
for program in "${built[@]}"; do
    reply=$(echo "1 4 1 10 11 12 13 14 15 16 0" | "$program")
    echo "built $program (a first lead of seat 1: \`$reply\`)"
done
echo "play it: bones eval --agents search,bridge:${built[0]} --rules dropped30 --hands 200"
