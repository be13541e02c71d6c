#!/usr/bin/env bash
# Builds the `bones` Python wheel once, to install on every machine of a
# cluster instead of building it on each: one abi3 wheel (any CPython from 3.9
# on) for this machine's OS, architecture and C library, in release mode, over
# the workspace's own target dir (after `cargo build --release` the wheel
# reuses its artifacts).
#
#   scripts/release/build_wheel.sh [OUT_DIR]        (default: dist/)
#
# Then on each machine: pip install OUT_DIR/bones-*.whl   (plus `ray` for a cluster)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-dist}
venv=.venv-wheel
export CARGO_TARGET_DIR="$PWD/target"
if [ ! -x "$venv/bin/maturin" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "maturin>=1.9.4,<2"
fi
mkdir -p "$out"
start=$SECONDS
"$venv/bin/maturin" build --release --locked -m python/Cargo.toml -o "$out"
wheel=$(ls -t "$out"/bones-*.whl | head -1)
case "$wheel" in
*abi3*) ;;
*) echo "error: $wheel is not an abi3 wheel (python/Cargo.toml's pyo3 should have abi3-py39)" >&2; exit 1 ;;
esac
echo "built $wheel in $(( SECONDS - start )) s; on each machine: pip install $wheel"
