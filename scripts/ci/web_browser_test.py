#!/usr/bin/env python3
"""Real-browser test of `bones web`: headless Chromium plays a Texas 42 hand and a Doubles round.

It starts `bones web --db FILE` on a free loopback port (the games are stored in a
temporary file), opens the page in headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by Python `selenium`) and:

- checks the Opponents and Partner choices are the Texas 42 levels that
  GET /api/info lists, plus "custom", and chooses "easy" for both; checks the
  setup screen fits a phone;
- plays a one-hand Texas 42 game by clicking the legal bids, trump choices and
  dominoes (seed 3: everyone else passes, so the page must explain the
  shaker's forced bid and offer no Pass); on one play it clicks Hint, on
  another presses "h" (the hint names the move it lists first), then plays
  with the "1" key; the hint-level menu is not cut;
- while playing: the trick in progress and the last trick are drawn at full
  size at the seats (who led, who won, the points) without covering a seat's
  name or tile count, and the trick history has one row a trick, grouped by
  hand, with no sideways scrolling at 390 px;
- at the end: the summary says how and why the hand ended, at which trick and
  the counting dominoes each side took, beside the table with the final trick
  still on it; the side's review (the person's plays first, then the
  partner's, and where the side lost most) matches `bones replay --review
  --json` on the downloaded record; the scoreboard of a one-hand game names no
  target and the table no later hand; no "(1 points)";
- plays a 4-player Doubles round: the board is drawn from the spinner (every
  domino on the board, the open ends and locked numbers marked, the drawing no
  wider than the screen at 390 px), the scoreboard fits 2 lines at 390 px, and
  the round summary says how it ended and the pips left in each hand;
- restarts the server on the same --db file, opens Past games (both games are
  listed; the levels read "Opponents Easy, Partner Easy" at 390 px), replays
  the Texas 42 game (a move with the → key and a button, a hand with ↓: the
  final trick, how the hand ended and the review beside it), opens the
  downloaded record file in the page's replay, and downloads a past record and
  replays it with `bones replay`;
- no SEVERE console errors.

Screenshots at 1280 px and 390 px wide go to --shots (a folder, printed at the
end). Exit status 0 on success.

    scripts/ci/web_browser_test.py --bones target/debug/bones --shots target/web-screenshots
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from web_browser_util import (
    Shots, browser, check_fits, free_port, get_json, js, overlap, page_text, phone, rect, start_server, stop_server,
    visible, wait_download, wait_for,
)

# ---------------------------------------------------------------- setup


def choose_levels(driver, deadline, levels, default):
    """Checks the level choices against /api/info's (the default level chosen) and picks "easy" for both roles."""
    want = levels + ["custom"]
    for role in ["opponents", "partner"]:
        wait_for(driver, deadline, f"return document.querySelectorAll('#{role} option').length === {len(want)}",
                 f"the {role} choices")
        values = js(driver, f"return [...document.querySelectorAll('#{role} option')].map((o) => o.value)")
        assert values == want, f"the {role} choices are {values}, expected {want}"
        chosen = js(driver, f"return document.getElementById('{role}').value")
        assert chosen == default, f"the {role} choice starts at {chosen!r}, not the default level {default!r}"
        select = Select(driver.find_element(By.ID, role))
        select.select_by_value("custom")
        assert js(driver, f"return !document.getElementById('{role}-spec').hidden"), f"custom {role}: no spec input"
        select.select_by_value("easy")
        assert js(driver, f"return document.getElementById('{role}-spec').hidden"), f"{role}: spec input left shown"


def start(driver, deadline, port, game, episode, seed, players=None):
    driver.get(f"http://127.0.0.1:{port}/?delay=40")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    if players:
        Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    wait_for(driver, deadline, "return document.querySelectorAll('#opponents option').length > 1", "the levels")
    Select(driver.find_element(By.ID, "opponents")).select_by_value("easy")
    if game == "texas42":
        Select(driver.find_element(By.ID, "partner")).select_by_value("easy")
    Select(driver.find_element(By.ID, "episode")).select_by_value(episode)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    wait_for(driver, deadline, "return !!state && !document.getElementById('play').hidden", "the game to start")


# ---------------------------------------------------------------- playing


def my_turn(driver):
    return js(driver, "return !busy && !!state && !state.done && state.legal.length > 0"
                      " && document.getElementById('summary').hidden")


def click_a_legal_move(driver, turn, prefer=None):
    """Clicks one legal bid, trump, end or domino (`prefer`: that action if offered); False when none is offered."""
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.legal")
    tiles = driver.find_elements(By.CSS_SELECTOR, "#hand button.legal:not([disabled])")
    if prefer:
        for el in buttons + tiles:
            if prefer in (el.get_attribute("data-action"), el.get_attribute("data-domino")):
                el.click()
                return True
    if buttons:
        labels = [b.get_attribute("data-action") for b in buttons]
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
const first = box.querySelector('.hint-moves li');
return {action: box.dataset.action, ply: Number(box.dataset.ply), text: box.innerText,
        first: first && first.dataset.action,
        suggested: [...document.querySelectorAll('#hand .suggested, #actions .suggested')]
          .map((e) => e.dataset.action || e.dataset.domino)};
"""


def check_hint(driver, deadline, how, shots=None, label="Normal"):
    """Asks for a hint (a click on Hint, or the "h" key) and checks the box (`label`: the level's)."""
    ply, legal, hints = js(driver, "return [state.history.length, state.legal, state.hints]")
    if how == "click":
        driver.find_element(By.ID, "hint").click()
    else:
        ActionChains(driver).send_keys("h").perform()
    shown = wait_for(driver, deadline, HINT_SHOWN, f"the hint ({how}) at ply {ply}", 90, ply)
    assert shown["action"] in legal, f"the hint {shown['action']!r} is not a legal move {legal}"
    assert shown["text"].startswith(f"{label} would play {shown['action']}"), shown["text"]
    assert shown["first"] == shown["action"], f"the hint names {shown['action']} but lists {shown['first']} first"
    assert js(driver, "return state.history.length") == ply, "the hint changed the game"
    assert "%" in shown["text"], f"the hint shows no probability: {shown['text']!r}"
    assert shown["action"] in shown["suggested"], f"the hint's move is not marked: {shown['suggested']}"
    used = js(driver, "return document.querySelector('#info .hints-used').textContent")
    assert used == f"Hints used: {(hints or 0) + 1}", f"after a hint the info says {used!r}"
    if shots:
        shots.save(driver, "texas42-hint-1280")
    return shown["action"]


def check_hint_menu(driver):
    """The hint level menu shows its whole choice ("Easy (opponents)")."""
    fits = js(driver, """
        const sel = document.getElementById('hint-level');
        const span = document.createElement('span');
        span.style.font = getComputedStyle(sel).font;
        span.style.whiteSpace = 'pre';
        span.textContent = sel.options[sel.selectedIndex].text;
        document.body.appendChild(span);
        const need = span.getBoundingClientRect().width;
        span.remove();
        return [sel.getBoundingClientRect().width, need, sel.options[sel.selectedIndex].text];""")
    assert fits[0] >= fits[1] + 12, f"the hint menu ({fits[0]:.0f}px) cuts {fits[2]!r} ({fits[1]:.0f}px)"


def play_by_key(driver, deadline):
    """Presses "1" and checks it played the first legal control."""
    ply = js(driver, "return state.history.length")
    first = js(driver, "const c = document.querySelector('#actions button.legal, #hand button.legal:not([disabled])');"
                       "return c && (c.dataset.action || c.dataset.domino)")
    badge = js(driver, "const k = document.querySelector('#actions .key, #hand .key'); return k && k.textContent")
    assert badge == "1", f"the first legal move shows no key badge: {badge!r}"
    ActionChains(driver).send_keys("1").perform()
    wait_for(driver, deadline, f"return document.getElementById('hint-box').hidden && state.history.length > {ply}",
             "the move played with the key 1 (and the hint box cleared)", 90)
    played = js(driver, f"return state.history[{ply}]")
    assert played["seat"] == js(driver, "return state.seat") and played["action"].startswith(first), (played, first)


def check_trick_on_table(driver):
    """The trick on the table: full-size dominoes at the seats, the leader marked, nothing over a seat's name or tiles."""
    info = js(driver, """
        const plays = [...document.querySelectorAll('#center .trick .play')];
        return {n: plays.length, widths: plays.map((p) => p.querySelector('svg').getBoundingClientRect().width),
                led: document.querySelectorAll('#center .trick .tag.led').length,
                note: (document.querySelector('#center .trick-note') || {}).textContent || ''};""")
    assert info["n"] >= 1 and info["led"] == 1, f"the trick on the table: {info}"
    assert min(info["widths"]) >= 28, f"the trick's dominoes are not at full size: {info['widths']}"
    assert " led" in info["note"], info["note"]
    for seat_part in ["#pos-bottom .name", "#pos-top .name", "#pos-top .backs", "#pos-left .backs", "#pos-right .backs"]:
        for play in js(driver, "return [...document.querySelectorAll('#center .trick .play')].map((_, i) => i)"):
            a = rect(driver, f"#center .trick .play:nth-of-type({play + 1})")
            b = rect(driver, seat_part)
            assert not overlap(a, b), f"a domino of the trick covers {seat_part}: {a} {b}"


def check_last_trick(driver):
    """The last trick beside the table: four full-size dominoes, who led and who won with its points."""
    info = js(driver, """
        const box = document.getElementById('last-trick');
        if (box.hidden) return null;
        return {n: box.querySelectorAll('.play').length, won: box.querySelectorAll('.tag.won').length,
                note: box.querySelector('.trick-note').textContent};""")
    assert info and info["n"] >= 3 and info["won"] == 1, f"the last trick: {info}"
    assert " won " in info["note"] and "point" in info["note"], info["note"]
    assert "(1 points)" not in info["note"] and "1 points" not in info["note"], info["note"]


def check_trick_history(driver, where):
    """One row a trick, grouped by hand, no sideways scrolling."""
    rows = js(driver, "return [...document.querySelectorAll('#log .trick-row[data-trick]')].map((r) => r.innerText)")
    heads = js(driver, "return [...document.querySelectorAll('#log .deal-log h4')].map((h) => h.textContent)")
    assert heads and heads[0].startswith("Hand 1"), f"{where}: the history's hands: {heads}"
    wide = js(driver, "const l = document.getElementById('log'); return l.scrollWidth - l.clientWidth")
    assert wide <= 1, f"{where}: the trick history scrolls sideways by {wide}px"
    return rows


def play_texas42(driver, deadline, shots):
    """Clicks through the hand until the game's end; the moves made."""
    turn = 0
    shot = False
    hinted = None
    keyed = False
    forced = None
    while time.time() < deadline:
        try:
            if visible(driver, "summary"):
                if visible(driver, "download"):
                    if not shot or hinted is None or not keyed:
                        raise SystemExit("the hand ended before the screenshot, the hint and the keys were tried")
                    return turn, forced
                driver.find_element(By.ID, "continue").click()
                continue
            if not my_turn(driver):
                time.sleep(0.05)
                continue
            phase = js(driver, "return state.table && state.table.phase")
            if forced is None and phase == "bidding":
                legal = js(driver, "return state.legal")
                note = js(driver, "const n = document.getElementById('prompt-note'); return n.hidden ? '' : n.textContent")
                forced = "pass" not in legal and "must bid" in note
            playing = phase == "playing"
            trick = js(driver, "return document.querySelectorAll('#center .trick .play').length")
            if playing and trick >= 1 and not shot and js(driver, "return !document.getElementById('last-trick').hidden"):
                check_trick_on_table(driver)
                check_last_trick(driver)
                check_trick_history(driver, "during the hand")
                shots.both(driver, "texas42", "a Texas 42 hand in progress")
                shot = True
            if playing and hinted is None:
                hinted = js(driver, "return state.history.length")
                check_hint_menu(driver)
                action = check_hint(driver, deadline, "click", shots)
                click_a_legal_move(driver, turn, prefer=action)
                wait_for(driver, deadline, "return document.getElementById('hint-box').hidden", "the hint box to clear")
                turn += 1
                continue
            if playing and not keyed and hinted is not None and shot:
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


# ---------------------------------------------------------------- the end of a hand and its review


def page_review(driver):
    return js(driver, """
        const t = document.getElementById('review');
        if (!t) return null;
        const rows = [...t.tBodies[0].rows].map((r) => ({who: r.dataset.who, ply: Number(r.dataset.ply),
          action: r.dataset.action, best: r.dataset.best, lost: Number(r.dataset.lost),
          largest: r.classList.contains('largest'), marker: r.textContent.includes('◀ largest')}));
        const total = document.getElementById('review-total');
        const where = t.closest('.review').querySelector('.where');
        return {rows, total: total ? Number(total.dataset.lost) : null, where: where ? where.textContent : '',
                heading: t.closest('.review').querySelector('h4').textContent};""")


def check_review(driver, bones, record_file):
    """The page's review (the person's rows, then the partner's) against `bones replay --review --json`."""
    shown = page_review(driver)
    assert shown and shown["rows"], f"no review table with a play row: {shown}"
    assert "all hands open" in shown["heading"], shown["heading"]
    assert shown["where"].startswith("Where your side lost most:"), shown["where"]
    out = subprocess.run([bones, "replay", "--review", "--json", record_file], capture_output=True, text=True)
    assert out.returncode == 0, f"bones replay --review failed: {out.stdout}{out.stderr}"
    review = json.loads(out.stdout.splitlines()[0])["reviews"][-1]
    assert review["side"]["lost_most"]["text"] in shown["where"], (review["side"], shown["where"])
    whos = [r["who"] for r in shown["rows"]]
    assert whos == sorted(whos, key=lambda w: w != "you"), f"the person's plays are not first: {whos}"
    for who, plays, largest in [("you", review["plays"], review["largest"]),
                                ("partner", review["partner"]["plays"], review["partner"]["largest"])]:
        rows = [r for r in shown["rows"] if r["who"] == who]
        assert len(rows) == len(plays), f"{who}: the page shows {len(rows)} plays, the CLI reviews {len(plays)}"
        for i, (row, p) in enumerate(zip(rows, plays)):
            for key in ["action", "best", "lost", "ply"]:
                assert row[key] == p[key], f"{who}'s review row {i}: page {key}={row[key]!r}, CLI {p[key]!r}"
            assert row["largest"] == (i == largest) == row["marker"], f"{who}'s review row {i}: largest marked wrongly"
    assert shown["total"] == review["lost"], (shown["total"], review["lost"])
    return len(shown["rows"]), review["lost"]


def check_hand_end(driver):
    """The summary beside the table: how and why the hand ended, at which trick, the count taken; the final trick on the table."""
    text = driver.find_element(By.ID, "summary-text").text
    why = js(driver, "const w = document.querySelector('#summary .why'); return w ? w.textContent : ''")
    assert ("a bid of" in why or "must win every trick" in why or "Nel-O" in why), f"no reason: {why!r}"
    assert "trick" in why, f"the summary does not say at which trick: {why!r}"
    assert "Count taken: Us" in text and "Them" in text, text
    plays = js(driver, "return document.querySelectorAll('#center .trick .play').length")
    assert plays >= 3, f"the final trick is not left on the table: {plays} dominoes"
    assert not overlap(rect(driver, "#summary"), rect(driver, "#center .trick")), "the summary covers the final trick"
    return why


def expected_result(st):
    winner = st["winner"] if st["episode"] == "game" else (st["deals"][-1]["winner"] if st["deals"] else None)
    if winner is None:
        return None
    return "won" if winner == st["sides"][st["seat"]] else "lost"


def check_console(driver):
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, f"errors in the browser console: {errors}"


# ---------------------------------------------------------------- Doubles


def check_board(driver):
    """The board drawn from the spinner: every domino on it, an open-end mark per open end, locked ones marked."""
    info = js(driver, """
        const t = state.table, svg = document.querySelector('#center svg.layout');
        const w = svg ? svg.getBoundingClientRect().width : 0, c = document.getElementById('center').getBoundingClientRect().width;
        return {placed: document.querySelectorAll('#center .layout .placed').length, board: t.board.length,
                ends: document.querySelectorAll('#center .layout .end').length, open: t.ends.length,
                locked: document.querySelectorAll('#center .layout .end.locked').length,
                unlocked: t.unlocked, endNumbers: t.ends, width: w, center: c,
                legend: (document.querySelector('#center .ends') || {}).textContent || ''};""")
    assert info["placed"] == info["board"], f"the board shows {info['placed']} of {info['board']} dominoes"
    assert info["ends"] == info["open"], f"{info['ends']} open-end marks for {info['open']} open ends"
    locked = sum(1 for n in info["endNumbers"] if n not in info["unlocked"])
    assert info["locked"] == locked, f"{info['locked']} locked marks, {locked} locked ends"
    assert info["width"] <= info["center"] + 1, f"the board ({info['width']}px) is wider than its place ({info['center']}px)"
    assert "Open ends:" in info["legend"], info["legend"]
    return info


def check_scoreboard_lines(driver, most):
    lines = js(driver, """const r = document.createRange();
        r.selectNodeContents(document.getElementById('scoreboard'));
        return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size""")
    assert lines <= most, f"the scoreboard takes {lines} lines at {js(driver, 'return window.innerWidth')}px"


def play_doubles(driver, deadline, shots):
    """Plays the round through; checks the board along the way; the summary's text."""
    turn = 0
    seen_board = False
    while time.time() < deadline:
        try:
            if visible(driver, "summary") and visible(driver, "download"):
                assert seen_board, "the round ended before the board was checked"
                return driver.find_element(By.ID, "summary-text").text
            if visible(driver, "summary"):
                driver.find_element(By.ID, "continue").click()
                continue
            if not my_turn(driver):
                time.sleep(0.05)
                continue
            if not seen_board and js(driver, "return state.table.board.length") >= 3:
                check_board(driver)
                phone(driver, True)
                check_board(driver)
                check_scoreboard_lines(driver, 2)
                phone(driver, False)
                shots.both(driver, "doubles", "a Doubles round")
                seen_board = True
            if click_a_legal_move(driver, turn):
                turn += 1
                # A domino that fits two ends asks which: take the first.
                if js(driver, "return !!document.querySelector('#actions button.legal[data-action*=\"@\"]')"):
                    click_a_legal_move(driver, turn)
        except (StaleElementReferenceException, WebDriverException) as e:
            if "stale" not in str(e).lower() and "not interactable" not in str(e).lower():
                raise
        time.sleep(0.05)
    raise SystemExit("the Doubles round did not end in time")


# ---------------------------------------------------------------- past games and replays


def check_replay(driver, deadline, what):
    """Steps a replay: a move by key and by button, a hand with ↓; the hand's end, its facts and review beside."""
    wait_for(driver, deadline, "return !!replay && !document.getElementById('replay-bar').hidden", f"the replay of {what}")
    n = js(driver, "return replay.data.history.length")
    assert n > 10 and js(driver, "return replay.step") == 0, f"{what}: {n} moves"
    ActionChains(driver).send_keys("\ue014").perform()  # →
    wait_for(driver, deadline, "return replay.step === 1", f"{what}: → steps one move")
    driver.find_element(By.ID, "replay-next").click()
    wait_for(driver, deadline, "return replay.step === 2", f"{what}: Next steps one move")
    where = driver.find_element(By.ID, "replay-where").text
    assert "move 2 of" in where, where
    ActionChains(driver).send_keys("\ue015").perform()  # ↓
    end = js(driver, "return replay.data.deals[0].end")
    wait_for(driver, deadline, f"return replay.step === {end}", f"{what}: ↓ goes to the end of the hand")
    side = driver.find_element(By.ID, "replay-side").text
    assert "is over" in side and "Review" in side, side
    return side


def open_record_file(driver, deadline, path):
    driver.find_element(By.ID, "record-file").send_keys(path)
    check_replay(driver, deadline, os.path.basename(path))
    driver.find_element(By.ID, "replay-close").click()
    wait_for(driver, deadline, "return !replay && !document.getElementById('setup').hidden", "the replay to close")


def check_history(driver, deadline, port, bones, downloads, first_record, final, shots):
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
    assert len(rows) == 2, f"past games: {len(rows)} rows, expected the two games played: {rows}"
    row = rows[1]  # newest first: the Doubles round, then the Texas 42 hand
    want = expected_result(final)
    assert row["result"] == (want or row["result"]), f"past game result {row['result']!r}, expected {want!r}"
    assert row["hints"] == str(final["hints"]), f"past game hints {row['hints']!r}, expected {final['hints']}"
    phone(driver, True)
    levels = js(driver, f"return document.querySelector(\"#history-table tr[data-id='{row['id']}'] td[data-label=Levels]\").innerText")
    assert "Opponents Easy, Partner Easy" in levels.replace("\n", " ").replace("Levels: ", ""), f"the levels read {levels!r}"
    phone(driver, False)
    shots.both(driver, "history", "past games")
    # The record downloads and replays with the binary.
    driver.find_element(By.CSS_SELECTOR, f"#history-table tr[data-id='{row['id']}'] button.download").click()
    path = wait_download(deadline, downloads, "*.json")
    assert os.path.basename(path) == f"bones-texas42-{row['id']}.json", path
    with open(path) as f:
        text = f.read()
    assert text.endswith("\n") and text.count("\n") == 1, "the downloaded record is not one JSON line"
    assert json.loads(text)["actions"] == first_record["actions"], "the stored record's actions differ from the game's"
    replay = subprocess.run([bones, "replay", path], capture_output=True, text=True)
    assert replay.returncode == 0, f"bones replay of the past game failed: {replay.stdout}{replay.stderr}"
    # The game in the page's replay.
    driver.find_element(By.CSS_SELECTOR, f"#history-table tr[data-id='{row['id']}'] button.replay").click()
    side = check_replay(driver, deadline, "the past Texas 42 game")
    plays = js(driver, "return document.querySelectorAll('#center .trick .play').length")
    assert plays >= 3, f"the replay's hand end shows {plays} dominoes of the final trick"
    assert js(driver, "return document.querySelectorAll('#pos-left .open-hand').length") == 1, "the hands are not shown open"
    shots.both(driver, "replay", "a replay")
    driver.find_element(By.ID, "replay-close").click()
    wait_for(driver, deadline, "return !replay && !document.getElementById('history').hidden", "back to Past games")
    driver.find_element(By.ID, "history-back").click()
    assert visible(driver, "setup") and not visible(driver, "history"), "Back did not return to the setup"
    return row, side


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bones", default=os.environ.get("BONES_BIN", "target/debug/bones"), help="the bones binary")
    ap.add_argument("--shots", default="target/web-screenshots", help="the folder the screenshots go to")
    ap.add_argument("--seed", type=int, default=3, help="seed of the Texas 42 deal (3: everyone else passes, the person must bid)")
    ap.add_argument("--doubles-seed", type=int, default=4, help="seed of the Doubles round")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed for the whole test")
    args = ap.parse_args()
    started = time.time()
    deadline = started + args.timeout
    bones = os.path.abspath(args.bones)
    if not os.access(bones, os.X_OK):
        raise SystemExit(f"error: {bones} is not an executable (build it: cargo build --locked)")
    shots = Shots(os.path.abspath(args.shots))
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
        phone(driver, False)
        driver.get(f"http://127.0.0.1:{port}/?delay=40")
        Select(driver.find_element(By.ID, "game")).select_by_value("texas42")
        choose_levels(driver, deadline, levels, info["default_level"])
        assert visible(driver, "history-button"), "no Past games button on the setup screen"
        shots.both(driver, "setup", "the setup screen")
        # ---- a Texas 42 hand
        start(driver, deadline, port, "texas42", "hand", args.seed)
        Select(driver.find_element(By.ID, "hint-level")).select_by_value("normal")
        before = driver.find_element(By.ID, "scoreboard").text
        assert before == "Us 0 · Them 0 marks", f"a one-hand game's scoreboard: {before!r}"
        assert "Easy" in driver.find_element(By.ID, "pos-left").text, "the opponents' level is not shown"
        turns, forced = play_texas42(driver, deadline, shots)
        assert forced, "the shaker's forced bid was not explained (or Pass was offered)"
        after = driver.find_element(By.ID, "scoreboard").text
        assert after != before and "(to" not in after, f"the marks after the hand: {after!r}"
        summary = driver.find_element(By.ID, "summary-text").text
        assert "Hand 1 is over" in summary and "Hints used: 2" in summary and "won the hand" in summary, summary
        why = check_hand_end(driver)
        info_text = driver.find_element(By.ID, "info").text
        assert "shook" not in info_text and "Game over after 1 hand" in info_text, f"after the end the table says {info_text!r}"
        assert "(1 points)" not in page_text(driver)
        check_trick_history(driver, "at the end")
        phone(driver, True)
        check_fits(driver, "the end of the hand")
        check_trick_history(driver, "at the end, 390 px")
        phone(driver, False)
        final = js(driver, "return state")
        shots.both(driver, "texas42-end", "the end of the hand", scroll="summary")
        driver.find_element(By.ID, "download").click()
        downloaded = wait_download(deadline, downloads, "*.json")
        assert os.path.basename(downloaded) == f"bones-texas42-{args.seed}.json", downloaded
        record_file = os.path.join(work, "record.json")
        shutil.move(downloaded, record_file)
        replay = subprocess.run([bones, "replay", record_file], capture_output=True, text=True)
        assert replay.returncode == 0, f"bones replay failed: {replay.stdout}{replay.stderr}"
        with open(record_file) as f:
            first_record = json.loads(f.read())
        plays, lost = check_review(driver, bones, record_file)
        js(driver, "document.getElementById('review').scrollIntoView({block: 'center'})")
        shots.save(driver, "texas42-review-1280")
        check_console(driver)
        # ---- a Doubles round, four players
        start(driver, deadline, port, "doubles", "hand", args.doubles_seed, players=4)
        round_text = play_doubles(driver, deadline, shots)
        assert "went out" in round_text or "Blocked" in round_text, round_text
        assert "Pips left:" in round_text, round_text
        assert "(to" not in driver.find_element(By.ID, "scoreboard").text
        info_text = driver.find_element(By.ID, "info").text
        assert "opened" not in info_text and "Game over after 1 round" in info_text, f"after the round: {info_text!r}"
        shots.both(driver, "doubles-end", "the end of a Doubles round", scroll="summary")
        check_console(driver)
        # ---- the downloaded record opened in the page
        driver.get(f"http://127.0.0.1:{port}/?delay=40")
        open_record_file(driver, deadline, record_file)
        # ---- the same --db after a restart: past games and their replay
        stop_server(server)
        port = free_port()
        server = start_server(bones, port, db)
        row, _ = check_history(driver, deadline, port, bones, downloads, first_record, final, shots)
        check_console(driver)
        print(
            f"web browser test passed in {time.time() - started:.1f}s: Texas 42 {turns} moves, {after} ({why});"
            f" review {plays} plays of the side, {lost} points given up by the person, matches bones replay --review;"
            f" a Doubles round ({round_text.splitlines()[1] if len(round_text.splitlines()) > 1 else ''});"
            f" past game {row['id']} listed after a restart, replayed in the page and by bones replay;"
            f" a record file replayed in the page"
        )
        print(f"screenshots ({len(shots.taken)}) in {shots.folder}:")
        for path in shots.taken:
            print(f"  {path}")
    finally:
        if driver is not None:
            driver.quit()
        stop_server(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
