"""The page-independent parts of scripts/ci/web_browser_test.py: the `bones web`
server (start, stop, a GET), headless Chromium, waiting on the page, the
screen sizes (1280 px and a 390 px phone) and the screenshots at both."""

import glob
import json
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WIDE = (1280, 1000)
PHONE = (390, 844)


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
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
        return json.loads(r.read())


def browser(download_dir, profile_dir):
    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
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
        f"--window-size={WIDE[0]},{WIDE[1]}",
    ]:
        opts.add_argument(flag)
    opts.add_experimental_option(
        "prefs",
        {"download.default_directory": download_dir, "download.prompt_for_download": False, "safebrowsing.enabled": False},
    )
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def visible(driver, element_id):
    return driver.execute_script(f"const e = document.getElementById('{element_id}'); return !!e && !e.hidden")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def wait_for(driver, deadline, script, what, limit=60.0, *args):
    """Polls a JavaScript expression (`return …`) until it is truthy; its value."""
    end = min(deadline, time.time() + limit)
    while time.time() < end:
        value = driver.execute_script(script, *args)
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def phone(driver, on):
    """Emulates a 390x844 phone screen (the page's viewport meta applies), or the 1280 px window."""
    if on:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
        )
    else:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDE[0], "height": WIDE[1], "deviceScaleFactor": 1, "mobile": False},
        )
    time.sleep(0.3)


def check_fits(driver, where):
    """Nothing on the page is wider than the screen."""
    overflow = js(driver, "return document.documentElement.scrollWidth - window.innerWidth")
    width = js(driver, "return window.innerWidth")
    assert overflow <= 1, f"{where}: the page is {overflow}px wider than the {width}px screen"


class Shots:
    """Screenshots at both widths into one folder."""

    def __init__(self, folder):
        self.folder = folder
        self.taken = []
        os.makedirs(folder, exist_ok=True)

    def both(self, driver, name, where, scroll=None):
        """`name`-1280.png and `name`-390.png (checking the page fits the phone); `scroll`: an element id to show."""
        for on, width in [(False, WIDE[0]), (True, PHONE[0])]:
            phone(driver, on)
            if on:
                check_fits(driver, where)
            if scroll and on:
                js(driver, f"document.getElementById('{scroll}').scrollIntoView({{block: 'start'}})")
            else:
                js(driver, "window.scrollTo(0, 0)")
            self.save(driver, f"{name}-{width}")
        phone(driver, False)

    def save(self, driver, name):
        path = os.path.join(self.folder, f"{name}.png")
        driver.save_screenshot(path)
        self.taken.append(path)


def wait_download(deadline, folder, pattern):
    files = []
    while time.time() < deadline and not files:
        files = glob.glob(os.path.join(folder, pattern))
        time.sleep(0.1)
    assert files, f"nothing matching {pattern} was downloaded"
    time.sleep(0.3)  # the file is complete once it has its final name; let it settle
    return files[0]


def rect(driver, css):
    return js(driver, f"const e = document.querySelector(`{css}`); if (!e) return null; const r = e.getBoundingClientRect();"
              " return {l: r.left, t: r.top, r: r.right, b: r.bottom}")


def overlap(a, b):
    return a and b and a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["t"] < b["b"] - 1 and b["t"] < a["b"] - 1


def page_text(driver):
    return js(driver, "return document.body.innerText")
