#!/usr/bin/env bash
# Side-by-side random-play speed: bones (Texas 42) against OpenSpiel's C++
# hearts (and optionally bridge), per player action, on one thread.
#
# Usage: scripts/bench/bench_vs_openspiel.sh [--seconds S] [--bridge] [--openspiel-only] [--bones-only]
#
#   --seconds S        wall time of each timed run (default 10)
#   --bridge           also measure OpenSpiel bridge (cards played out, no double-dummy scoring)
#   --openspiel-only   skip the bones run
#   --bones-only       skip OpenSpiel (no venv needed)
#
# Environment:
#   BONES_BIN   prebuilt `bones` binary (default: cargo run --release -p bones-cli --)
#   PYTHON      interpreter used to create the venv (default: python3)
#   VENV        venv directory (default: <repo>/.venv-openspiel)
#
# The venv is created on first use and `pip install open_spiel` is run into it;
# later runs reuse it. Counting: "actions" are player decisions only (bones:
# bids, declarations and plays; OpenSpiel: non-chance steps, i.e. hearts passes
# + 52 plays, bridge calls + 52 plays); chance steps (deals, hearts pass
# direction) are never counted. See scripts/bench/openspiel_random.py for how the
# OpenSpiel side is timed and counted, and how its Python overhead is removed.
set -euo pipefail

die() {
    echo "bench_vs_openspiel: error: $*" >&2
    exit 1
}

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

SECONDS_ARG=10
BRIDGE=0
RUN_OS=1
RUN_BONES=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds)
            [[ $# -ge 2 ]] || { usage >&2; exit 2; }
            SECONDS_ARG="$2"
            shift 2
            ;;
        --seconds=*) SECONDS_ARG="${1#*=}"; shift ;;
        --bridge) BRIDGE=1; shift ;;
        --openspiel-only) RUN_BONES=0; shift ;;
        --bones-only) RUN_OS=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "bench_vs_openspiel: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done
[[ "$SECONDS_ARG" =~ ^[0-9]+([.][0-9]+)?$ ]] && [[ "$SECONDS_ARG" != 0 ]] ||
    { echo "bench_vs_openspiel: --seconds must be a positive number, got '$SECONDS_ARG'" >&2; exit 2; }
[[ $RUN_OS -eq 1 || $RUN_BONES -eq 1 ]] || { echo "bench_vs_openspiel: nothing to run" >&2; exit 2; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPTS="$ROOT/scripts/bench"
VENV="${VENV:-$ROOT/.venv-openspiel}"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Timings are wall-clock on one thread: other work on the machine skews them.
if [[ -r /proc/loadavg ]]; then
    read -r LOAD1 _ </proc/loadavg
    if awk -v l="$LOAD1" 'BEGIN { exit !(l >= 1.0) }'; then
        echo "bench_vs_openspiel: warning: load average is $LOAD1; other processes may skew the timings" >&2
    fi
fi

# Any python for JSON parsing and the table (the venv one when it exists).
JSONPY="$PYTHON"

# ---------------------------------------------------------------- OpenSpiel
if [[ $RUN_OS -eq 1 ]]; then
    if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import pyspiel' 2>/dev/null; then
        echo "== reusing $VENV" >&2
    else
        echo "== creating venv $VENV and installing open_spiel (pip)" >&2
        command -v "$PYTHON" >/dev/null || die "'$PYTHON' not found (set PYTHON=...)"
        [[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV" || die "could not create venv at $VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2 || true
        "$VENV/bin/python" -m pip install --quiet open_spiel >&2 ||
            die "pip install open_spiel failed (no wheel for $("$VENV/bin/python" -V 2>&1)? try PYTHON=python3.11)"
        "$VENV/bin/python" -c 'import pyspiel' || die "open_spiel installed but 'import pyspiel' fails"
    fi
    JSONPY="$VENV/bin/python"

    OS_GAMES=(hearts)
    [[ $BRIDGE -eq 1 ]] && OS_GAMES+=(bridge)
    for g in "${OS_GAMES[@]}"; do
        echo "== OpenSpiel $g: C++ evaluate_bots, uniform random bots, ${SECONDS_ARG}s" >&2
        "$VENV/bin/python" "$SCRIPTS/openspiel_random.py" --game "$g" --seconds "$SECONDS_ARG" >"$TMP/os_$g.json" ||
            die "OpenSpiel $g measurement failed"
    done
fi

# -------------------------------------------------------------------- bones
if [[ $RUN_BONES -eq 1 ]]; then
    BONES_ARGS=(bench --game texas42 --json --seconds "$SECONDS_ARG" --threads 1)
    if [[ -n "${BONES_BIN:-}" ]]; then
        [[ -x "$BONES_BIN" ]] || die "BONES_BIN='$BONES_BIN' is not an executable file"
        echo "== bones: $BONES_BIN ${BONES_ARGS[*]}" >&2
        "$BONES_BIN" "${BONES_ARGS[@]}" >"$TMP/bones.out" || die "'$BONES_BIN ${BONES_ARGS[*]}' failed"
    else
        command -v cargo >/dev/null || die "cargo not found (or set BONES_BIN to a prebuilt bones binary)"
        echo "== bones: cargo run --release -p bones-cli -- ${BONES_ARGS[*]}" >&2
        (cd "$ROOT" && cargo run --release -p bones-cli -- "${BONES_ARGS[@]}") >"$TMP/bones.out" ||
            die "'cargo run --release -p bones-cli -- ${BONES_ARGS[*]}' failed"
    fi
    # The JSON object is the last stdout line that starts with '{'.
    grep '^[[:space:]]*{' "$TMP/bones.out" | tail -n 1 >"$TMP/bones.json" || true
    [[ -s "$TMP/bones.json" ]] || die "bones bench --json printed no JSON object; stdout was: $(head -c 500 "$TMP/bones.out")"
fi

# -------------------------------------------------------------------- table
"$JSONPY" - "$TMP" "$RUN_BONES" "$RUN_OS" "$BRIDGE" <<'EOF'
import json, os, sys

tmp, run_bones, run_os, bridge = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1", sys.argv[4] == "1"

def fail(msg):
    print(f"bench_vs_openspiel: error: {msg}", file=sys.stderr)
    sys.exit(1)

def load(name):
    path = os.path.join(tmp, name)
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as e:
        fail(f"cannot parse {name}: {e}")

rows = []  # (label, actions/s, decisions per game, note)
bones = None
if run_bones:
    bones = load("bones.json")
    for key in ("random_actions_per_s", "random_hands_per_s", "decisions_per_hand"):
        if not isinstance(bones.get(key), (int, float)) or bones[key] <= 0:
            fail(f"bones bench JSON lacks a positive number '{key}': {bones}")
    rows.append((f"bones {bones.get('game', 'texas42')} random (threads={bones.get('threads')})",
                 bones["random_actions_per_s"], bones["decisions_per_hand"],
                 f"{bones['random_hands_per_s']:,.0f} hands/s"))
os_res = {}
if run_os:
    for g in ["hearts"] + (["bridge"] if bridge else []):
        r = load(f"os_{g}.json")
        os_res[g] = r
        rows.append((f"OpenSpiel {g} C++ random", r["actions_per_s_cpp"], r["decisions_per_game"],
                     f"minus Python overhead ({100 * r['python_overhead_frac']:.1f}%)"))
        rows.append((f"OpenSpiel {g} (raw, incl. Python loop)", r["actions_per_s"], r["decisions_per_game"],
                     f"{r['games_per_s']:,.0f} games/s; {100 * r['cpu_seconds'] / r['seconds']:.0f}% CPU, "
                     f"{r['actions_per_cpu_s']:,.0f} actions/CPU-s"))

print()
print(f"{'':42} {'actions/s':>13} {'ns/action':>10} {'decisions/game':>15}  note")
for label, aps, dpg, note in rows:
    print(f"{label:42} {aps:13,.0f} {1e9 / aps:10.1f} {dpg:15.2f}  {note}")
if bones and os_res:
    print()
    for g, r in os_res.items():
        ratio = bones["random_actions_per_s"] / r["actions_per_s_cpp"]
        raw = bones["random_actions_per_s"] / r["actions_per_s"]
        print(f"ratio per action, bones / OpenSpiel {g}: {ratio:.2f}x  (against the raw figure: {raw:.2f}x)")
print()
print("actions = player decisions only (no chance steps); one thread each.")
for g, r in os_res.items():
    print(f"OpenSpiel {r['open_spiel']} {r['game']}: {r['games']} games in {r['seconds']:.1f}s; {r['count_method']}")
EOF
