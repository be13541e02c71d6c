#!/usr/bin/env bash
# CI: the real-browser test of `bones web` against an already built
# `bones` binary (CI passes the debug one its `cargo test` build made, as
# BONES_BIN; this script builds nothing). Installs Debian's chromium and
# chromium-driver when missing and Python selenium into .venv-web, then in
# headless Chromium (scripts/ci/web_browser_test.py) plays a Texas 42 hand (levels
# chosen from /api/info, the shaker's forced bid, hints by click and by key, a
# move by key, the trick and the last trick at the seats, the trick history,
# how and why the hand ended, the side's review checked against `bones replay
# --review --json`) and a 4-player Doubles round (the board laid out from the
# spinner, how the round ended and the pips left), replays the downloaded
# record in the page, and after a server restart on the same --db file (a
# temporary one) finds both games under Past games and replays one.
# Screenshots at 1280 and 390 px wide go to WEB_SCREENSHOTS (printed at the end).
#   BONES_BIN=path/to/bones   the binary (default target/debug/bones)
#   WEB_SCREENSHOTS=DIR       the screenshots' folder (default target/web-screenshots)
#   scripts/ci/ci_web.sh --deps-only   (chromium and .venv-web only: .ci/run installs
#                                   them beside the Rust build)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "== installing chromium and chromium-driver"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
VENV=.venv-web
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import selenium" 2>/dev/null; then
    echo "== installing selenium into $VENV"
    "$VENV/bin/pip" install -q "selenium>=4.10,<5"
fi
if [ "${1:-}" = --deps-only ]; then
    exit 0
fi
BONES="${BONES_BIN:-target/debug/bones}"
if [ ! -x "$BONES" ]; then
    echo "error: $BONES is not built; run cargo build --locked first" >&2
    exit 1
fi
SHOTS="${WEB_SCREENSHOTS:-target/web-screenshots}"
echo "== the browser test (headless chromium plays a Texas 42 hand and a Doubles round, replays, past games)"
"$VENV/bin/python" scripts/ci/web_browser_test.py --bones "$BONES" --shots "$SHOTS"
echo "== screenshots: $(cd "$SHOTS" && pwd)"
