#!/usr/bin/env python3
"""Load test of `bones web`: concurrent games through the JSON API on loopback.

Starts `bones web` on a free loopback port, then

1. memory: opens --hold games (each a few moves in) and reads the server's
   resident memory (VmRSS in /proc/PID/status) before and after: the memory per
   open game (the bots' models are loaded before the baseline);
2. throughput: --games workers play whole games at once (Texas 42 and Doubles
   alternately, the person taking a random legal action) for --seconds, each
   worker at most --max-games games; with --hints each move is preceded by a
   hint (GET /api/games/{id}/hint); counts the actions applied (every seat's:
   the growth of the history), the requests, latencies (all requests, and the
   hints alone) and errors;
3. history: the server keeps its games in a fresh SQLite file (--db); at the
   end GET /api/history must list every game the workers finished.

It stops by itself and prints one JSON line of figures; exit status 1 if any
request failed or a finished game is missing from the history. Standard
library only.

    scripts/web_load.py --bones target/release/bones --games 50 --seconds 20 --hints
"""

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Client:
    """One keep-alive connection."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            payload = r.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            raise
        return r.status, json.loads(payload)


def new_game(rng, index, args):
    if index % 2 == 0:
        req = {"game": "texas42"}
    else:
        req = {"game": "doubles", "players": rng.choice([2, 3, 4])}
    req["seat"] = rng.randrange(4 if req["game"] == "texas42" else req["players"])
    if args.opponents:
        req["opponents"] = args.opponents
        if req["game"] == "texas42":
            req["partner"] = args.opponents
    return req


class Totals:
    def __init__(self):
        self.lock = threading.Lock()
        self.actions = 0
        self.requests = 0
        self.games = 0
        self.errors = []
        self.latencies = []
        self.hint_latencies = []

    def add(self, actions=0, requests=0, games=0, latency=None, error=None, hint=False):
        with self.lock:
            self.actions += actions
            self.requests += requests
            self.games += games
            if latency is not None:
                self.latencies.append(latency)
                if hint:
                    self.hint_latencies.append(latency)
            if error is not None:
                self.errors.append(error)


def worker(wid, port, args, deadline, totals):
    rng = random.Random(wid)
    client = Client(port)
    for g in range(args.max_games):
        if time.time() >= deadline:
            return
        try:
            t0 = time.perf_counter()
            status, body = client.call("POST", "/api/games", new_game(rng, wid + g, args))
            totals.add(requests=1, latency=time.perf_counter() - t0)
            if status != 201:
                totals.add(error=f"create: {status} {body}")
                continue
            gid, st = body["id"], body["state"]
            totals.add(actions=len(st["history"]))
            while not st["done"] and time.time() < deadline:
                seen = len(st["history"])
                if args.hints:
                    t0 = time.perf_counter()
                    status, hint = client.call("GET", f"/api/games/{gid}/hint")
                    totals.add(requests=1, latency=time.perf_counter() - t0, hint=True)
                    if status != 200 or hint.get("action") not in st["legal"]:
                        totals.add(error=f"hint: {status} {hint}")
                        break
                action = rng.choice(st["legal"])
                t0 = time.perf_counter()
                status, nxt = client.call("POST", f"/api/games/{gid}/actions", {"action": action, "ply": seen})
                totals.add(requests=1, latency=time.perf_counter() - t0)
                if status != 200:
                    totals.add(error=f"action {action}: {status} {nxt}")
                    break
                totals.add(actions=len(nxt["history"]) - seen)
                st = nxt
            if st["done"]:
                totals.add(games=1)
            client.call("DELETE", f"/api/games/{gid}")
        except Exception as e:  # noqa: BLE001 - every failure is counted and reported
            totals.add(error=f"{type(e).__name__}: {e}")


def hold_games(port, args):
    """Opens --hold games a few moves in; returns their ids."""
    ids = []
    lock = threading.Lock()

    def opener(wid, n):
        rng = random.Random(1000 + wid)
        client = Client(port)
        for i in range(n):
            status, body = client.call("POST", "/api/games", new_game(rng, i, args))
            if status != 201:
                raise RuntimeError(f"create: {status} {body}")
            st = body["state"]
            for _ in range(3):
                if st["done"]:
                    break
                status, st = client.call("POST", f"/api/games/{body['id']}/actions", {"action": rng.choice(st["legal"])})
                if status != 200:
                    raise RuntimeError(f"action: {status} {st}")
            with lock:
                ids.append(body["id"])

    threads = [threading.Thread(target=opener, args=(w, args.hold // 10 + (w < args.hold % 10))) for w in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bones", default=os.environ.get("BONES_BIN", "target/release/bones"))
    ap.add_argument("--games", type=int, default=50, help="concurrent games (workers)")
    ap.add_argument("--seconds", type=float, default=20, help="length of the throughput phase")
    ap.add_argument("--max-games", type=int, default=20, help="games per worker at most")
    ap.add_argument("--hold", type=int, default=500, help="games held open for the memory figure")
    ap.add_argument("--opponents", default=None, help="level or spec for every bot (default: the server's, the normal level)")
    ap.add_argument("--hints", action="store_true", help="ask for a hint before every move")
    args = ap.parse_args()
    port = free_port()
    work = tempfile.mkdtemp(prefix="bones-web-load-")
    db = os.path.join(work, "history.sqlite3")
    server = subprocess.Popen(
        [args.bones, "web", "--port", str(port), "--db", db, "--max-games", str(max(1000, args.hold + args.games + 10))],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = server.stdout.readline()
        if "http://" not in line:
            raise SystemExit(f"bones web did not start: {line}")
        # Load the bots' models before the baseline: one game of each.
        warm = Client(port)
        for req in ({"game": "texas42"}, {"game": "doubles"}):
            if args.opponents:
                req["opponents"] = args.opponents
            status, body = warm.call("POST", "/api/games", req)
            if status != 201:
                raise SystemExit(f"cannot create a game: {status} {body}")
            warm.call("DELETE", f"/api/games/{body['id']}")
        base = rss_kib(server.pid)
        ids = hold_games(port, args)
        held = rss_kib(server.pid)
        for gid in ids:
            warm.call("DELETE", f"/api/games/{gid}")
        totals = Totals()
        deadline = time.time() + args.seconds
        start = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(w, port, args, deadline, totals)) for w in range(args.games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        lat = sorted(totals.latencies) or [0.0]
        hint_lat = sorted(totals.hint_latencies) or [0.0]
        status, listed = warm.call("GET", "/api/history?limit=1")
        # The warm-up and held games were dropped unfinished: only finished games are stored.
        stored = listed.get("total", -1) if status == 200 else -1
        figures = {
            "concurrent_games": args.games,
            "seconds": round(elapsed, 2),
            "games_finished": totals.games,
            "requests": totals.requests,
            "actions": totals.actions,
            "actions_per_s": round(totals.actions / elapsed, 1),
            "requests_per_s": round(totals.requests / elapsed, 1),
            "latency_ms_p50": round(lat[len(lat) // 2] * 1000, 2),
            "latency_ms_p99": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
            "hints": len(totals.hint_latencies),
            "hint_latency_ms_p50": round(hint_lat[len(hint_lat) // 2] * 1000, 2),
            "hint_latency_ms_p99": round(hint_lat[min(len(hint_lat) - 1, int(len(hint_lat) * 0.99))] * 1000, 2),
            "games_stored": stored,
            "errors": len(totals.errors),
            "held_games": len(ids),
            "rss_kib_base": base,
            "rss_kib_held": held,
            "rss_kib_per_open_game": round((held - base) / max(1, len(ids)), 1),
            "opponents": args.opponents or "server default (shipped models)",
        }
        print(json.dumps(figures))
        for e in totals.errors[:10]:
            print(f"error: {e}", file=sys.stderr)
        if stored != totals.games:
            print(f"error: {totals.games} games finished but the history holds {stored}", file=sys.stderr)
            return 1
        return 1 if totals.errors else 0
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
