#!/usr/bin/env bash
# ONNX parity check: exports each shipped model (or the model folders given)
# with 1,000 self-play observations and burn's outputs for them, then runs the
# ONNX file in onnxruntime and compares (max abs difference <= 1e-4).
# Installs onnxruntime, onnx and numpy into .venv-onnx on first use.
#
#   [BONES_BIN=path/to/bones] scripts/ci/onnx_parity.sh [MODEL_DIR ...]
#       (default models: models/texas42 models/doubles; default binary: a fresh
#       `cargo build --release` of target/release/bones)
#   scripts/ci/onnx_parity.sh --deps-only   (.venv-onnx only: .ci/run installs it
#                                        beside the Rust build)
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.venv-onnx
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet onnxruntime onnx numpy
fi
if [ "${1:-}" = --deps-only ]; then
    exit 0
fi
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
    models=()
    for m in models/texas42 models/doubles; do
        [ -d "$m" ] && models+=("$m")
    done
fi
[ ${#models[@]} -gt 0 ] || { echo "onnx parity: no model folders found" >&2; exit 1; }
bones="${BONES_BIN:-}"
if [ -z "$bones" ]; then
    cargo build --release --locked -q
    bones=target/release/bones
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in "${models[@]}"; do
    out="$tmp/$(basename "$m")"
    "$bones" export --checkpoint "$m" --out "$out" --parity-samples 1000 --seed 7 > /dev/null
    "$venv/bin/python" scripts/ci/onnx_parity.py "$out"
done
