#!/usr/bin/env bash
# The Python package's tests: builds the `bones` wheel with maturin into the
# repository's own target dir (CARGO_TARGET_DIR=target: the wheel shares its
# dependency artifacts with the cargo build of the same profile), installs it
# into the venv .venv-py with the test dependencies and the `openspiel` extra,
# checks the type stubs of the native module (python/bones/_bones.pyi) against
# the installed module with mypy's stubtest, and runs pytest.
#
#   [BONES_PROFILE=dev] [BONES_BIN=target/debug/bones] scripts/ci/ci_python.sh [PYTEST ARGS ...]
#   scripts/ci/ci_python.sh --deps-only   (the venv and the test dependencies only:
#                                      .ci/run installs them beside the Rust build)
#
# BONES_PROFILE: the cargo profile of the wheel (default release). CI builds it
# with the dev profile right after `cargo test --workspace --profile dev`, so
# it reuses that build's artifacts (`--profile test` would build a test
# harness, not a module), and points BONES_BIN at that build's
# `bones` binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
venv=.venv-py
export CARGO_TARGET_DIR="$root/target"
# Python 3.11 where there is one: OpenSpiel's wheels (the `openspiel` extra)
# are built for it.
python=$(command -v python3.11 || command -v python3)
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
fi
# The test dependencies (onnx: test_onnx.py writes a network with it); ray for
# bones.ray's tests (it is not a dependency of the package itself: bones.ray
# imports it only when called).
"$venv/bin/pip" install --quiet "maturin>=1.9.4,<2" numpy pettingzoo gymnasium pytest onnx mypy
"$venv/bin/pip" install --quiet ray
# The `openspiel` extra's dependency, from its wheel only (--only-binary):
# never an hour's C++ build from source on a Python it has no wheel for.
"$venv/bin/pip" install --quiet --only-binary open_spiel "open_spiel>=2,<3"
if [ "${1:-}" = --deps-only ]; then
    exit 0
fi
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
"$venv/bin/maturin" build --profile "${BONES_PROFILE:-release}" --locked --quiet -m python/Cargo.toml -o "$wheels" \
    --interpreter "$venv/bin/python"
# --no-deps: its dependencies (numpy, gymnasium, pettingzoo) were installed above.
"$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheels"/bones-*.whl
# The `openspiel` extra for bones.openspiel's tests (python/tests/
# test_openspiel.py: OpenSpiel's random_sim_test on both games, about 6 s); its
# open_spiel was installed above.
wheel=$(ls "$wheels"/bones-*.whl)
"$venv/bin/pip" install --quiet --only-binary open_spiel "$wheel[openspiel]"
# The stubs cannot drift from the module: stubtest compares every name,
# signature and property of the installed bones._bones with _bones.pyi (run
# from the repository root, where `bones` is the installed package).
"$venv/bin/python" -m mypy.stubtest bones._bones
# The pytest script (not `python -m pytest`, which would put the source tree
# on sys.path): the tests import the installed package.
"$venv/bin/pytest" -q -p no:cacheprovider python/tests "$@"
