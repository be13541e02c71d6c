#!/usr/bin/env bash
# CI: the real-browser test of `bones web` against an already built
# `bones` binary (CI passes the one its `cargo test` build made, as BONES_BIN;
# this script builds nothing). Installs Debian's chromium and chromium-driver
# when missing and Python selenium into .venv-web, then plays a Texas 42 hand
# in headless Chromium (scripts/web_browser_test.py): levels chosen from
# /api/info, a hint asked by click and by key, a move by key, the hand's review
# checked against `bones replay --review --json`, the record replayed, the page
# at 360 px wide, and the game listed under Past games after a server restart
# on the same --db file (a temporary one). Screenshots go next to WEB_SCREENSHOT.
#   BONES_BIN=path/to/bones   the binary (default target/release/bones)
#   WEB_SCREENSHOT=FILE       where the screenshot goes (default target/web-test.png)
set -euo pipefail
cd "$(dirname "$0")/.."
BONES="${BONES_BIN:-target/release/bones}"
if [ ! -x "$BONES" ]; then
    echo "error: $BONES is not built; run cargo build --release --locked first" >&2
    exit 1
fi
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
echo "== the browser test (headless chromium plays a Texas 42 hand, with hints, review and past games)"
"$VENV/bin/python" scripts/web_browser_test.py --bones "$BONES" --screenshot "${WEB_SCREENSHOT:-target/web-test.png}"
