#!/usr/bin/env python3
"""Real-browser test of `bones web`: headless Chromium plays a whole Texas 42 hand.

It starts `bones web` on a free loopback port, opens the page in headless
Chromium (Debian's `chromium` and `chromium-driver`, driven by Python
`selenium`), starts a one-hand game, plays it by clicking the legal bids, trump
choices and dominoes, checks that the marks changed, downloads the game record
and replays it with `bones replay`, checks the page fits a phone's width, and
saves screenshots (the game in progress; the end with `-end` before the
extension). Exit status 0 on success.

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
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(bones, port):
    proc = subprocess.Popen(
        [bones, "web", "--port", str(port), "--opponents", "heuristic", "--partner", "heuristic"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"bones web did not start: {line}{proc.stdout.read()}")
    return proc


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


def visible(driver, element_id):
    return driver.execute_script(f"return !document.getElementById('{element_id}').hidden")


def click_a_legal_move(driver, turn):
    """Clicks one legal bid, trump or domino; False when none is offered."""
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.legal")
    tiles = driver.find_elements(By.CSS_SELECTOR, "#hand button.legal:not([disabled])")
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


def play_hand(driver, deadline, screenshot):
    """Clicks until the game-over dialog shows the download link."""
    turn = 0
    shot = False
    while time.time() < deadline:
        try:
            if visible(driver, "overlay"):
                if visible(driver, "download"):
                    if not shot:
                        raise SystemExit("the hand ended before a screenshot of a trick in progress was taken")
                    return turn
                driver.find_element(By.ID, "continue").click()
                continue
            # The screenshot: the person to play, with a trick on the table.
            if not shot and driver.execute_script(
                "return !busy && document.querySelectorAll('#center .play:not(.done)').length >= 1"
                " && document.querySelectorAll('#hand button.legal:not([disabled])').length > 0"
            ):
                driver.save_screenshot(screenshot)
                shot = True
            if click_a_legal_move(driver, turn):
                turn += 1
        except (StaleElementReferenceException, WebDriverException) as e:
            if "stale" not in str(e).lower() and "not interactable" not in str(e).lower():
                raise
        time.sleep(0.05)
    raise SystemExit("the hand did not end in time")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bones", default=os.environ.get("BONES_BIN", "target/release/bones"), help="the bones binary")
    ap.add_argument("--screenshot", default="target/web-test.png", help="where to save the screenshot (PNG)")
    ap.add_argument("--seed", type=int, default=12, help="seed of the deal")
    ap.add_argument("--timeout", type=float, default=240, help="seconds allowed for the whole test")
    args = ap.parse_args()
    deadline = time.time() + args.timeout
    bones = os.path.abspath(args.bones)
    if not os.access(bones, os.X_OK):
        raise SystemExit(f"error: {bones} is not an executable (build it: cargo build --release --locked)")
    os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)) or ".", exist_ok=True)
    work = tempfile.mkdtemp(prefix="bones-web-test-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    port = free_port()
    server = start_server(bones, port)
    driver = None
    try:
        driver = browser(downloads, os.path.join(work, "profile"))
        driver.get(f"http://127.0.0.1:{port}/?delay=40")
        Select(driver.find_element(By.ID, "game")).select_by_value("texas42")
        Select(driver.find_element(By.ID, "episode")).select_by_value("hand")
        driver.find_element(By.ID, "seed").send_keys(str(args.seed))
        driver.find_element(By.ID, "start").click()
        time.sleep(0.2)
        before = driver.find_element(By.ID, "scoreboard").text
        assert "Us 0 · Them 0 marks" in before, f"the marks start at 0: {before!r}"
        turns = play_hand(driver, deadline, args.screenshot)
        after = driver.find_element(By.ID, "scoreboard").text
        assert after != before, f"the marks did not change: {after!r}"
        summary = driver.find_element(By.ID, "summary-text").text
        assert "Hand 1 is over" in summary, summary
        end_shot = os.path.splitext(args.screenshot)[0] + "-end.png"
        driver.save_screenshot(end_shot)
        # The record: download it and replay it with the binary.
        driver.find_element(By.ID, "download").click()
        files = []
        while time.time() < deadline and not files:
            files = [f for f in glob.glob(os.path.join(downloads, "*.json"))]
            time.sleep(0.1)
        assert files, "the record was not downloaded"
        time.sleep(0.2)
        replay = subprocess.run([bones, "replay", files[0]], capture_output=True, text=True)
        assert replay.returncode == 0, f"bones replay failed: {replay.stdout}{replay.stderr}"
        replayed = json.loads(replay.stdout)
        assert replayed["result"]["done"] is True, replayed
        assert replayed["episode"] == "hand" and replayed["seed"] == args.seed, replayed
        marks = replayed["result"]["marks"]
        assert f"Us {marks[0]}" in after or f"Us {marks[1]}" in after, (marks, after)
        # A phone's width: nothing wider than the screen.
        driver.find_element(By.ID, "continue").click()
        driver.set_window_size(390, 844)
        time.sleep(0.3)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the page is {overflow}px wider than a phone's screen"
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        assert not errors, f"errors in the browser console: {errors}"
        print(f"web browser test passed: {turns} clicks, {after}; record replayed; screenshots {args.screenshot}, {end_shot}")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
