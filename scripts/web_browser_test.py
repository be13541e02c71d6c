#!/usr/bin/env python3
"""Real-browser test of `bones web`: headless Chromium plays a whole Texas 42 hand.

It starts `bones web --db FILE` on a free loopback port (the games are stored in a
temporary file), opens the page in headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by Python `selenium`) and:

- checks the Opponents and Partner choices are the Texas 42 levels that
  GET /api/info lists, plus "custom", and chooses "easy" for both;
- checks the setup screen fits a 360x740 phone screen;
- starts a one-hand game and plays it by clicking the legal bids, trump choices
  and dominoes; on one of the person's plays it clicks Hint and checks the hint
  box names a legal move with percentages (and marks it in the hand), on
  another it presses "h" and checks the box is updated, then plays a move with
  the "1" key;
- at the end checks the marks changed, the hand's review table (#review) and
  "Hints used: 2", downloads the record, replays it with `bones replay` and
  compares every row of the page's review with `bones replay --review --json`;
- checks the summary fits a 360x740 screen, and no SEVERE console errors;
- restarts the server on the same --db file, opens "Past games", checks the game
  is listed (result and hints), downloads its record and replays it.

Screenshots go next to --screenshot: the game in progress (the path itself),
`-hint` (a hint shown), `-end` (the game over), `-review` (the review table),
`-phone` (the summary at 360 px), `-history` (past games). Exit status 0 on success.

    scripts/web_browser_test.py --bones target/release/bones --screenshot target/web.png
"""

import argparse
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

PHONE = (360, 740)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(bones, port, db):
    """`bones web --db DB` (bots at their default levels); returns once it listens."""
    proc = subprocess.Popen(
        [bones, "web", "--port", str(port), "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = []
    while True:
        line = proc.stdout.readline()
        seen.append(line)
        if "http://" in line:
            break
        if not line or len(seen) > 50:
            proc.kill()
            raise SystemExit(f"bones web did not start: {''.join(seen)}{proc.stdout.read()}")
    # Keep reading what the server prints, so that it never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc


def stop_server(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def get_json(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
        return json.loads(r.read())


def browser(download_dir, profile_dir):
    opts = webdriver.ChromeOptions()
    binary = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    opts.binary_location = binary
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile_dir}",
        "--window-size=1000,1100",
    ]:
        opts.add_argument(flag)
    opts.add_experimental_option(
        "prefs",
        {
            "download.default_directory": download_dir,
            "download.prompt_for_download": False,
            "safebrowsing.enabled": False,
        },
    )
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def shot_path(screenshot, suffix):
    base, ext = os.path.splitext(screenshot)
    return f"{base}-{suffix}{ext or '.png'}"


def visible(driver, element_id):
    return driver.execute_script(f"return !document.getElementById('{element_id}').hidden")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def wait_for(driver, deadline, script, what, limit=30.0, *args):
    """Polls a JavaScript expression (`return …`) until it is truthy; its value."""
    end = min(deadline, time.time() + limit)
    while time.time() < end:
        value = driver.execute_script(script, *args)
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def phone(driver, on):
    """Emulates a 360x740 phone screen (the page's viewport meta applies) or stops emulating."""
    if on:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
        )
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    time.sleep(0.3)


def check_fits_phone(driver, where):
    phone(driver, True)
    width = js(driver, "return window.innerWidth")
    overflow = js(driver, "return document.documentElement.scrollWidth - window.innerWidth")
    assert width == PHONE[0], f"the phone emulation gave a {width}px wide window"
    assert overflow <= 1, f"{where}: the page is {overflow}px wider than a {PHONE[0]}px screen"


def wait_download(deadline, folder, pattern):
    files = []
    while time.time() < deadline and not files:
        files = glob.glob(os.path.join(folder, pattern))
        time.sleep(0.1)
    assert files, f"nothing matching {pattern} was downloaded"
    time.sleep(0.3)  # the file is complete once it has its final name; let it settle
    return files[0]


# ---------------------------------------------------------------- setup


def choose_levels(driver, deadline, levels, default):
    """Checks the level choices against /api/info's (the default level chosen) and picks "easy" for both roles."""
    want = levels + ["custom"]
    for role in ["opponents", "partner"]:
        wait_for(
            driver, deadline,
            f"return document.querySelectorAll('#{role} option').length === {len(want)}",
            f"the {role} choices",
        )
        values = js(driver, f"return [...document.querySelectorAll('#{role} option')].map((o) => o.value)")
        assert values == want, f"the {role} choices are {values}, expected {want}"
        chosen = js(driver, f"return document.getElementById('{role}').value")
        assert chosen == default, f"the {role} choice starts at {chosen!r}, not the default level {default!r}"
        select = Select(driver.find_element(By.ID, role))
        # "Custom…" shows the spec input; a level hides it.
        select.select_by_value("custom")
        assert js(driver, f"return !document.getElementById('{role}-spec').hidden"), f"custom {role}: no spec input"
        select.select_by_value("easy")
        assert js(driver, f"return document.getElementById('{role}-spec').hidden"), f"{role}: spec input left shown"
        label = js(driver, f"return document.querySelector('label[for={role}]').textContent")
        assert label.strip(), f"the {role} choice has no label"


# ---------------------------------------------------------------- playing


def my_turn(driver):
    return js(driver, "return !busy && !!state && !state.done && state.legal.length > 0 && document.getElementById('overlay').hidden")


def click_a_legal_move(driver, turn, prefer=None):
    """Clicks one legal bid, trump or domino (`prefer`: that action if offered); False when none is offered."""
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.legal")
    tiles = driver.find_elements(By.CSS_SELECTOR, "#hand button.legal:not([disabled])")
    if prefer:
        for el in buttons + tiles:
            if prefer in (el.get_attribute("data-action"), el.get_attribute("data-domino")):
                el.click()
                return True
    if buttons:
        labels = [b.get_attribute("data-action") for b in buttons]
        # Bid 30 when the person may (so the person sometimes declares), else the first choice.
        choice = labels.index("30") if "30" in labels and turn % 2 == 0 else 0
        buttons[choice].click()
        return True
    if tiles:
        tiles[turn % len(tiles)].click()
        return True
    return False


HINT_SHOWN = """
const box = document.getElementById('hint-box');
if (box.hidden || !box.dataset.action || Number(box.dataset.ply) !== arguments[0]) return null;
return {action: box.dataset.action, ply: Number(box.dataset.ply), text: box.innerText,
        suggested: [...document.querySelectorAll('#hand .suggested, #actions .suggested')]
          .map((e) => e.dataset.action || e.dataset.domino)};
"""


def check_hint(driver, deadline, how, screenshot=None, label="Normal"):
    """Asks for a hint (a click on Hint, or the "h" key) and checks the box (`label`: the level's)."""
    ply, legal, hints = js(driver, "return [state.history.length, state.legal, state.hints]")
    if how == "click":
        driver.find_element(By.ID, "hint").click()
    else:
        ActionChains(driver).send_keys("h").perform()
    shown = wait_for(driver, deadline, HINT_SHOWN, f"the hint ({how}) at ply {ply}", 60, ply)
    assert shown["action"] in legal, f"the hint {shown['action']!r} is not a legal move {legal}"
    assert shown["text"].startswith(f"{label} would play {shown['action']}"), shown["text"]
    assert js(driver, "return state.history.length") == ply, "the hint changed the game"
    assert "%" in shown["text"], f"the hint shows no probability: {shown['text']!r}"
    assert shown["action"] in shown["suggested"], f"the hint's move is not marked: {shown['suggested']}"
    used = js(driver, "return document.querySelector('#info .hints-used').textContent")
    assert used == f"Hints used: {(hints or 0) + 1}", f"after a hint the info says {used!r}"
    if screenshot:
        driver.save_screenshot(screenshot)
    return shown["action"]


def play_by_key(driver, deadline):
    """Presses "1" and checks it played the first legal control."""
    ply = js(driver, "return state.history.length")
    first = js(
        driver,
        "const c = document.querySelector('#actions button.legal, #hand button.legal:not([disabled])');"
        "return c && (c.dataset.action || c.dataset.domino)",
    )
    badge = js(driver, "const k = document.querySelector('#actions .key, #hand .key'); return k && k.textContent")
    assert badge == "1", f"the first legal move shows no key badge: {badge!r}"
    ActionChains(driver).send_keys("1").perform()
    wait_for(driver, deadline, f"return document.getElementById('hint-box').hidden && state.history.length > {ply}",
             "the move played with the key 1 (and the hint box cleared)", 60)
    played = js(driver, f"return state.history[{ply}]")
    assert played == {"seat": js(driver, "return state.seat"), "action": first}, (played, first)


def play_hand(driver, deadline, screenshot):
    """Clicks until the game-over dialog shows the download link; the number of moves made."""
    turn = 0
    shot = False
    hinted = None  # the ply of the hint asked by a click
    keyed = False  # the "h" key and the "1" key done
    while time.time() < deadline:
        try:
            if visible(driver, "overlay"):
                if visible(driver, "download"):
                    if not shot:
                        raise SystemExit("the hand ended before a screenshot of a trick in progress was taken")
                    if hinted is None or not keyed:
                        raise SystemExit("the hand ended before the hint and the keys were tried")
                    return turn
                driver.find_element(By.ID, "continue").click()
                continue
            if not my_turn(driver):
                time.sleep(0.05)
                continue
            playing = js(driver, "return state.table && state.table.phase === 'playing'")
            # The screenshot: the person to play, with a trick on the table.
            if not shot and js(
                driver,
                "return document.querySelectorAll('#center .play:not(.done)').length >= 1"
                " && document.querySelectorAll('#hand button.legal:not([disabled])').length > 0",
            ):
                driver.save_screenshot(screenshot)
                shot = True
            if playing and hinted is None:
                hinted = js(driver, "return state.history.length")
                action = check_hint(driver, deadline, "click", shot_path(screenshot, "hint"))
                click_a_legal_move(driver, turn, prefer=action)
                wait_for(driver, deadline, "return document.getElementById('hint-box').hidden", "the hint box to clear")
                turn += 1
                continue
            if playing and not keyed:
                check_hint(driver, deadline, "key")
                play_by_key(driver, deadline)
                keyed = True
                turn += 1
                continue
            if click_a_legal_move(driver, turn):
                turn += 1
        except (StaleElementReferenceException, WebDriverException) as e:
            if "stale" not in str(e).lower() and "not interactable" not in str(e).lower():
                raise
        time.sleep(0.05)
    raise SystemExit("the hand did not end in time")


# ---------------------------------------------------------------- the review


def page_review(driver):
    return js(
        driver,
        """
        const t = document.getElementById('review');
        if (!t) return null;
        const rows = [...t.tBodies[0].rows].map((r) => ({ply: Number(r.dataset.ply), action: r.dataset.action,
          best: r.dataset.best, lost: Number(r.dataset.lost), largest: r.classList.contains('largest'),
          marker: r.textContent.includes('◀ largest')}));
        const total = document.getElementById('review-total');
        return {rows, total: total ? Number(total.dataset.lost) : null,
                heading: (t.closest('.review') || document).querySelector('h4').textContent};
        """,
    )


def check_review(driver, bones, record_file):
    """The page's review table against `bones replay --review --json` of the record."""
    shown = page_review(driver)
    assert shown and shown["rows"], f"no review table with a play row in the summary: {shown}"
    assert "all hands open" in shown["heading"], shown["heading"]
    out = subprocess.run([bones, "replay", "--review", "--json", record_file], capture_output=True, text=True)
    assert out.returncode == 0, f"bones replay --review failed: {out.stdout}{out.stderr}"
    line = json.loads(out.stdout.splitlines()[0])
    reviews = line.get("reviews")
    assert reviews, f"bones replay --review --json gave no reviews: {out.stdout[:500]}"
    review = reviews[-1]
    plays = review["plays"]
    rows = shown["rows"]
    assert len(rows) == len(plays), f"the page shows {len(rows)} plays, the CLI reviews {len(plays)}"
    for i, (row, p) in enumerate(zip(rows, plays)):
        for key in ["action", "best", "lost"]:
            assert row[key] == p[key], f"review row {i}: page {key}={row[key]!r}, CLI {p[key]!r}"
        assert row["ply"] == p["ply"], f"review row {i}: page ply {row['ply']}, CLI {p['ply']}"
        assert row["largest"] == (i == review.get("largest")), f"review row {i}: largest marked wrongly"
        assert row["marker"] == row["largest"], f"review row {i}: the ◀ largest marker"
    assert shown["total"] == review["lost"] == sum(p["lost"] for p in plays), (shown["total"], review["lost"])
    return len(rows), review["lost"]


def expected_result(st):
    """won/lost from the final state's winner (the last hand's for a one-hand game); None: tied or done."""
    winner = st["winner"] if st["episode"] == "game" else (st["deals"][-1]["winner"] if st["deals"] else None)
    if winner is None:
        return None
    return "won" if winner == st["sides"][st["seat"]] else "lost"


def check_console(driver):
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, f"errors in the browser console: {errors}"


# ---------------------------------------------------------------- past games


def check_history(driver, deadline, port, bones, downloads, first_record, final, screenshot):
    driver.get(f"http://127.0.0.1:{port}/?delay=40")
    wait_for(driver, deadline, "return !document.getElementById('history-button').hidden", "the Past games button")
    driver.find_element(By.ID, "history-button").click()
    rows = wait_for(
        driver, deadline,
        "const r = [...document.querySelectorAll('#history-table tbody tr')];"
        "return r.length && r.map((tr) => ({id: tr.dataset.id, result: tr.dataset.result,"
        " hints: tr.dataset.hints, text: tr.innerText}))",
        "the past games",
    )
    assert len(rows) == 1, f"past games: {len(rows)} rows, expected the one game played: {rows}"
    row = rows[0]
    want = expected_result(final)
    if want is None:
        assert row["result"] in ("tied", "done"), f"past game result {row['result']!r}, expected tied or done"
    else:
        assert row["result"] == want, f"past game result {row['result']!r}, expected {want!r}"
    assert row["hints"] == str(final["hints"]), f"past game hints {row['hints']!r}, expected {final['hints']}"
    listed = get_json(port, "/api/history")["games"][0]
    assert listed["scores"] == final["scores"], (listed["scores"], final["scores"])
    driver.save_screenshot(screenshot)
    check_fits_phone(driver, "past games")
    phone(driver, False)
    driver.find_element(By.CSS_SELECTOR, f"#history-table tr[data-id='{row['id']}'] button").click()
    path = wait_download(deadline, downloads, "*.json")
    assert os.path.basename(path) == f"bones-texas42-{row['id']}.json", path
    with open(path) as f:
        text = f.read()
    assert text.endswith("\n") and text.count("\n") == 1, "the downloaded record is not one JSON line"
    record = json.loads(text)
    assert record["actions"] == first_record["actions"], "the stored record's actions differ from the game's"
    replay = subprocess.run([bones, "replay", path], capture_output=True, text=True)
    assert replay.returncode == 0, f"bones replay of the past game failed: {replay.stdout}{replay.stderr}"
    driver.find_element(By.ID, "history-back").click()
    assert visible(driver, "setup") and not visible(driver, "history"), "Back did not return to the setup"
    return row


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bones", default=os.environ.get("BONES_BIN", "target/release/bones"), help="the bones binary")
    ap.add_argument("--screenshot", default="target/web-test.png", help="where to save the screenshot (PNG)")
    ap.add_argument("--seed", type=int, default=3, help="seed of the deal (3: the person bids, names trump and gives up points)")
    ap.add_argument("--timeout", type=float, default=240, help="seconds allowed for the whole test")
    args = ap.parse_args()
    started = time.time()
    deadline = started + args.timeout
    bones = os.path.abspath(args.bones)
    if not os.access(bones, os.X_OK):
        raise SystemExit(f"error: {bones} is not an executable (build it: cargo build --release --locked)")
    os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)) or ".", exist_ok=True)
    work = tempfile.mkdtemp(prefix="bones-web-test-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    db = os.path.join(work, "games.db")
    port = free_port()
    server = start_server(bones, port, db)
    driver = None
    try:
        info = get_json(port, "/api/info")
        levels = [level["name"] for level in info["levels"]["texas42"]]
        assert "easy" in levels and info["default_level"] in levels, info
        assert info["history"] is True, f"/api/info says history {info.get('history')!r} with --db"
        driver = browser(downloads, os.path.join(work, "profile"))
        driver.get(f"http://127.0.0.1:{port}/?delay=40")
        Select(driver.find_element(By.ID, "game")).select_by_value("texas42")
        choose_levels(driver, deadline, levels, info["default_level"])
        assert visible(driver, "history-button"), "no Past games button on the setup screen"
        check_fits_phone(driver, "the setup screen")
        phone(driver, False)
        Select(driver.find_element(By.ID, "episode")).select_by_value("hand")
        driver.find_element(By.ID, "seed").send_keys(str(args.seed))
        driver.find_element(By.ID, "start").click()
        wait_for(driver, deadline, "return !!state && !document.getElementById('play').hidden", "the game to start")
        # Hints from the network's level: it gives every move a probability.
        hint_levels = js(driver, "return [...document.querySelectorAll('#hint-level option')].map((o) => o.value)")
        assert "normal" in hint_levels, f"the hint levels are {hint_levels}"
        Select(driver.find_element(By.ID, "hint-level")).select_by_value("normal")
        before = driver.find_element(By.ID, "scoreboard").text
        assert "Us 0 · Them 0 marks" in before, f"the marks start at 0: {before!r}"
        levels_shown = js(driver, "return state.levels")
        assert levels_shown[1:] == ["easy"] * 3 and levels_shown[0] is None, f"the state's levels: {levels_shown}"
        assert "Easy" in driver.find_element(By.ID, "pos-left").text, "the opponents' level is not shown"
        turns = play_hand(driver, deadline, args.screenshot)
        after = driver.find_element(By.ID, "scoreboard").text
        assert after != before, f"the marks did not change: {after!r}"
        summary = driver.find_element(By.ID, "summary-text").text
        assert "Hand 1 is over" in summary, summary
        assert "Hints used: 2" in summary, f"the summary does not say two hints were used: {summary!r}"
        assert "won the hand" in summary, f"the summary does not say who won: {summary!r}"
        assert visible(driver, "again"), "no New game button at the end"
        final = js(driver, "return state")
        end_shot = shot_path(args.screenshot, "end")
        driver.save_screenshot(end_shot)
        # The record: download it and replay it with the binary.
        driver.find_element(By.ID, "download").click()
        downloaded = wait_download(deadline, downloads, "*.json")
        assert os.path.basename(downloaded) == f"bones-texas42-{args.seed}.json", downloaded
        # Out of the download folder: the past game's download below may have the same name.
        record_file = os.path.join(work, "record.json")
        shutil.move(downloaded, record_file)
        replay = subprocess.run([bones, "replay", record_file], capture_output=True, text=True)
        assert replay.returncode == 0, f"bones replay failed: {replay.stdout}{replay.stderr}"
        replayed = json.loads(replay.stdout)
        assert replayed["result"]["done"] is True, replayed
        assert replayed["episode"] == "hand" and replayed["seed"] == args.seed, replayed
        marks = replayed["result"]["marks"]
        assert f"Us {marks[0]}" in after or f"Us {marks[1]}" in after, (marks, after)
        with open(record_file) as f:
            first_record = json.loads(f.read())
        # The review: the page's table against the CLI's.
        plays, lost = check_review(driver, bones, record_file)
        js(driver, "document.getElementById('review').scrollIntoView({block: 'center'})")
        review_shot = shot_path(args.screenshot, "review")
        driver.save_screenshot(review_shot)
        # A phone's screen with the summary open: nothing wider than the screen.
        check_fits_phone(driver, "the summary")
        js(driver, "document.getElementById('summary').scrollTop = 0")
        driver.save_screenshot(shot_path(args.screenshot, "phone"))
        phone(driver, False)
        driver.find_element(By.ID, "continue").click()
        check_console(driver)
        # The same --db after a restart: the game is among the past games.
        stop_server(server)
        port = free_port()
        server = start_server(bones, port, db)
        history_shot = shot_path(args.screenshot, "history")
        row = check_history(driver, deadline, port, bones, downloads, first_record, final, history_shot)
        check_console(driver)
        print(
            f"web browser test passed in {time.time() - started:.1f}s: {turns} moves, {after}; hints 2;"
            f" review {plays} plays, {lost} points given up, matches bones replay --review;"
            f" record replayed; past game {row['id']} ({row['result']}) listed after a restart and replayed;"
            f" screenshots next to {args.screenshot}"
        )
    finally:
        if driver is not None:
            driver.quit()
        stop_server(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
