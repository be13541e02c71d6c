#!/usr/bin/env python3
"""Load and abuse test of `bones web`: many clients on loopback, for a few minutes.

Starts `bones web --host 127.0.0.1 --port P --db TMP --threads 0` (the
server's defaults otherwise: its per-address limits are not raised), then for
--seconds runs, each client from its own loopback source address (127.0.0.2,
127.0.0.3, ...) so that the per-address limits apply to each as to a real user:

- players (--games, default 50): each plays whole games back to back (Texas 42
  and Doubles alternately, the person a random legal move, every bot at
  --opponents, default `hard`: the strongest level, the bots of 50 games
  thinking at once). A good client: a 503 or 429 with a Retry-After is waited
  out and retried (bounded), counted as busy_retries / rate_retries, not as
  errors;
- readers (--readers): GET /api/games/{id} of the live games continuously,
  with small sleeps; the latency of these state reads is reported (p50, p99;
  the goal is p99 < 100 ms: reads never wait for the bots);
- hostile clients (--hostile): cycle through bodies over 64 KiB (413), deeply
  nested JSON (400), huge numbers in seat/players/seed/ply/hand number/history
  limit (400/404/409), every spec past its limit (`pimc:worlds=513`,
  `pimc:worlds=4000000000`, `search:worlds=513`, `search:pool=2049`,
  `search:exact=4`: 400) and now and then one at its limit (Doubles
  `pimc:worlds=512`: 201), `exec:` specs and model paths outside the models
  folder (400), moves for a stale ply and a race of two moves (409), unknown and
  dropped game ids (404), slow clients (partial headers on the per-address
  connection cap and past it: the extra connections must be closed at once; a
  body that never arrives: 408), clients that disconnect mid-body and
  mid-move (the server and the game must go on), a flood from one address (429
  with Retry-After) and more open games than one address may hold (429). Each
  answer must be the intended refusal: its status and a JSON {"error": ...}
  naming the problem; anything else (a 5xx other than a 503 busy, a dropped
  connection where an answer was due) is an error;
- one idle connection with partial headers: the server must close it within its
  idle timeout (120 s; checked when the run is long enough).

Meanwhile the server's VmRSS (/proc/PID/status) is sampled every 100 ms (the
peak, when it came, the peak of each 20 s, and the baseline after a warm-up
game of each kind), and its standard output and error go to a file whose lines
with "panicked" are counted. At the end every game a player finished must be in
GET /api/history (its total). A good client whose request with a body was
refused unread (a 429, a 413) finds the connection closed by the server and
opens another (reopened_after_refusal).

It binds loopback only, runs a bounded number of clients, and stops by itself
(--seconds, then at most --grace seconds for the requests in flight). It prints
one JSON line of figures (requests/s held, games started/finished/stored, state
read and move latencies, busy/rate retries, each hostile kind's requests,
intended answers and statuses, memory, panics, errors) and lists the first 10
distinct errors on standard error; exit status 1 on any error, panic, wrong
refusal, lost game or missed goal (peak VmRSS over --max-rss-mb, 500; state
reads' p99 over --max-read-p99-ms, 100). Standard library only.

    scripts/bench/web_load.py --bones target/release/bones            # 180 s, 50 games at hard
    scripts/bench/web_load.py --bones target/debug/bones --seconds 20 --games 8
"""

import argparse
import collections
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

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
# The server's defaults the hostile clients probe (docs/interfaces/web.md, the limits).
PER_ADDRESS_CONNECTIONS = 32
PER_CLIENT_GAMES = 20
CONNECTION_IDLE_S = 120
BODY_TIMEOUT_S = 10
RETRIES = 40


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def loopback(n):
    """The n-th client address: 127.0.0.2, 127.0.0.3, ... (never .0 or .255 last)."""
    hi, lo = divmod(n, 253)
    return f"127.{(hi >> 8) & 255}.{hi & 255}.{lo + 2}"


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def pct(values, q):
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] * 1000, 2)


def window_peaks(series, start, width):
    peaks = {}
    for t, v in series:
        if t >= start:
            i = int((t - start) // width)
            peaks[i] = max(peaks.get(i, 0), v)
    return [round(peaks.get(i, 0) / 1024) for i in range(max(peaks) + 1)] if peaks else []


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.busy_retries = 0
        self.rate_retries = 0
        self.errors = []
        self.games_started = 0
        self.games_finished = 0
        self.games_abandoned = 0
        self.moves = 0
        self.move_latencies = []
        self.read_latencies = []
        self.reads_of_dropped = 0
        self.reopened_after_refusal = 0
        self.hostile = {}
        self.live = set()

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)

    def error(self, msg):
        with self.lock:
            self.errors.append(msg)

    def outcome(self, kind, status, ok, why=None):
        with self.lock:
            k = self.hostile.setdefault(kind, {"n": 0, "ok": 0, "statuses": collections.Counter()})
            k["n"] += 1
            k["ok"] += bool(ok)
            k["statuses"][str(status)] += 1
            if not ok:
                self.errors.append(f"hostile {kind}: {why}")


class Conn:
    """One keep-alive connection from one source address, reopened after a failure or a long idle."""

    def __init__(self, port, addr, stats, timeout=300):
        self.port, self.addr, self.stats, self.timeout = port, addr, stats, timeout
        self.conn = None
        self.used = 0.0
        self.unread = False

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def send(self, method, path, body=None, raw=None, headers=None):
        """(status, headers, parsed JSON or None, raw bytes); raises on a connection failure."""
        # The server closes connections idle for 120 s: a client reopens before.
        if self.conn is not None and time.time() - self.used > CONNECTION_IDLE_S - 20:
            self.close()
        # A refusal answered without reading the request's body (a 429 from
        # the rate limit, a 413) ends the connection on the server's side:
        # reopen once it is seen closed (counted), as a browser would.
        if self.conn is not None and self.unread and self.conn.sock is not None and peer_closed(self.conn.sock):
            self.stats.add(reopened_after_refusal=1)
            self.close()
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout, source_address=(self.addr, 0))
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        self.stats.add(requests=1)
        try:
            self.conn.request(method, path, body=data, headers=hdrs)
            r = self.conn.getresponse()
            payload = r.read()
        except (http.client.HTTPException, OSError):
            self.close()
            raise
        finally:
            self.used = time.time()
        self.unread = data is not None and r.status in (413, 429)
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = None
        return r.status, r.headers, parsed, payload

    def polite(self, method, path, body=None, until=None, **kw):
        """Like send, waiting out 503/429 answers with a Retry-After (bounded);
        None when `until` passes while waiting."""
        for _ in range(RETRIES):
            status, headers, parsed, payload = self.send(method, path, body, **kw)
            wait = headers.get("Retry-After")
            if status in (429, 503) and wait is not None and wait.isdigit():
                self.stats.add(**{"busy_retries" if status == 503 else "rate_retries": 1})
                if until is not None and time.time() + int(wait) > until:
                    return None
                time.sleep(int(wait) + random.random() * 0.5)
                continue
            return status, headers, parsed, payload
        return status, headers, parsed, payload


def new_game(rng, index, opponents):
    if index % 2 == 0:
        req = {"game": "texas42", "seat": rng.randrange(4)}
        if opponents:
            req["partner"] = opponents
    else:
        req = {"game": "doubles", "players": rng.choice([2, 3, 4])}
        req["seat"] = rng.randrange(req["players"])
    if opponents:
        req["opponents"] = opponents
    return req


def player(wid, ctx):
    stats, rng = ctx.stats, random.Random(wid)
    conn = Conn(ctx.port, loopback(wid), stats)
    index = wid
    while time.time() < ctx.deadline and not ctx.stop.is_set():
        req = new_game(rng, index, ctx.args.opponents)
        index += 1
        try:
            got = conn.polite("POST", "/api/games", req, until=ctx.deadline)
            if got is None:
                return
            status, _, body, raw = got
            if status != 201:
                stats.error(f"player {wid} create {req}: {status} {raw[:200]!r}")
                time.sleep(1)
                continue
            stats.add(games_started=1)
            gid, st = body["id"], body["state"]
            with stats.lock:
                stats.live.add(gid)
            while not st["done"] and time.time() < ctx.deadline:
                ply = len(st["history"])
                t0 = time.perf_counter()
                got = conn.polite("POST", f"/api/games/{gid}/actions", {"action": rng.choice(st["legal"]), "ply": ply}, until=ctx.deadline)
                if got is None:
                    break
                status, _, nxt, raw = got
                if status != 200:
                    stats.error(f"player {wid} move in {gid} at ply {ply}: {status} {raw[:200]!r}")
                    break
                with stats.lock:
                    stats.moves += 1
                    stats.move_latencies.append(time.perf_counter() - t0)
                st = nxt
            with stats.lock:
                stats.live.discard(gid)
            if st["done"]:
                stats.add(games_finished=1)
            else:
                stats.add(games_abandoned=1)
            got = conn.polite("DELETE", f"/api/games/{gid}")
            if got is None or got[0] != 200:
                stats.error(f"player {wid} drop {gid}: {got and got[0]} {got and got[3][:200]!r}")
        except Exception as e:  # noqa: BLE001 - every failure is counted and reported
            stats.error(f"player {wid}: {type(e).__name__}: {e}")
            time.sleep(1)


def reader(rid, ctx):
    stats, rng = ctx.stats, random.Random(10_000 + rid)
    conn = Conn(ctx.port, ctx.reader_addr[rid], stats, timeout=30)
    while time.time() < ctx.deadline and not ctx.stop.is_set():
        with stats.lock:
            ids = list(stats.live)
        if not ids:
            time.sleep(0.05)
            continue
        gid = rng.choice(ids)
        try:
            t0 = time.perf_counter()
            status, headers, body, raw = conn.send("GET", f"/api/games/{gid}")
            dt = time.perf_counter() - t0
        except Exception as e:  # noqa: BLE001
            stats.error(f"reader {rid} GET {gid}: {type(e).__name__}: {e}")
            time.sleep(0.5)
            continue
        if status == 200 and isinstance(body, dict) and "history" in body:
            with stats.lock:
                stats.read_latencies.append(dt)
        elif status == 404:
            with stats.lock:
                gone = gid not in stats.live
            if gone:
                stats.add(reads_of_dropped=1)  # its player dropped it meanwhile
            else:
                stats.error(f"reader {rid}: a live game vanished: GET {gid}: 404 {raw[:200]!r}")
        elif status == 429 and headers.get("Retry-After", "").isdigit():
            stats.add(rate_retries=1)
            time.sleep(int(headers["Retry-After"]))
        else:
            stats.error(f"reader {rid} GET {gid}: {status} {raw[:200]!r}")
        time.sleep(0.06)


def read_response(sock, timeout):
    """A whole HTTP response from a raw socket: (status, headers, body); raises on EOF/reset/timeout."""
    sock.settimeout(timeout)
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed without an answer (got {buf[:80]!r})")
        buf += chunk
    head, body = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def peer_closed(sock):
    """Whether the peer has closed this idle connection (now, without waiting)."""
    timeout = sock.gettimeout()
    sock.settimeout(0)
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(timeout)


def closed_by_peer(sock, timeout):
    """Whether the server closes this connection (EOF or reset) within `timeout`."""
    sock.settimeout(timeout)
    try:
        return sock.recv(1024) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


class Hostile:
    """One hostile client: its own address, cycling through the abuse kinds."""

    def __init__(self, hid, ctx):
        self.hid, self.ctx, self.stats = hid, ctx, ctx.stats
        self.addr = ctx.hostile_addr[hid]
        self.conn = Conn(ctx.port, self.addr, ctx.stats, timeout=60)
        self.rng = random.Random(20_000 + hid)
        self.cycle = 0

    def raw(self, timeout=5):
        s = socket.create_connection((HOST, self.ctx.port), timeout=timeout, source_address=(self.addr, 0))
        self.stats.add(requests=1)
        return s

    def judge(self, kind, status, body, statuses, word, what, raw=b""):
        if status not in statuses:
            return False, f"{what}: {status} {raw[:200]!r}, expected {statuses}"
        if status >= 400:
            err = body.get("error") if isinstance(body, dict) else None
            if not isinstance(err, str):
                return False, f"{what}: {status} without a JSON error: {raw[:200]!r}"
            if word and word.lower() not in err.lower():
                return False, f"{what}: {status} {err!r:.200} does not name {word!r}"
        return True, None

    def expect(self, kind, method, path, body=None, statuses=(400,), word=None, raw=None, headers=None, conn=None):
        """One request whose answer must be in `statuses` (naming `word` if a refusal);
        a 503/429 with a Retry-After that is not the point is waited out."""
        conn = conn or self.conn
        what = f"{method} {path[:80]} {json.dumps(body)[:120] if body is not None else ''}"
        try:
            for _ in range(RETRIES):
                status, hdrs, parsed, payload = conn.send(method, path, body, raw=raw, headers=headers)
                wait = hdrs.get("Retry-After")
                if status in (429, 503) and status not in statuses and wait and wait.isdigit():
                    self.stats.add(**{"busy_retries" if status == 503 else "rate_retries": 1})
                    time.sleep(int(wait) + random.random() * 0.5)
                    continue
                break
        except Exception as e:  # noqa: BLE001
            self.stats.outcome(kind, "dropped", False, f"{what}: {type(e).__name__}: {e}")
            return None, None
        ok, why = self.judge(kind, status, parsed, statuses, word, what, payload)
        self.stats.outcome(kind, status, ok, why)
        time.sleep(0.08)  # under the 20 requests a second an address may make
        return status, parsed

    def cheap_game(self, kind, opponents="easy", conn=None):
        """A Doubles game against quick bots (its id and state), or None."""
        conn = conn or self.conn
        status, body = self.expect(kind, "POST", "/api/games", {"game": "doubles", "players": 2, "opponents": opponents}, (201,), conn=conn)
        if status != 201:
            return None, None
        return body["id"], body["state"]

    def drop(self, gid):
        try:
            got = self.conn.polite("DELETE", f"/api/games/{gid}")
            if got[0] != 200:
                self.stats.error(f"hostile {self.hid}: drop {gid}: {got[0]} {got[3][:200]!r}")
        except Exception as e:  # noqa: BLE001
            self.stats.error(f"hostile {self.hid}: drop {gid}: {type(e).__name__}: {e}")

    def still_served(self, kind):
        """After an abuse, the same address is served again (retrying while its connections close)."""
        for i in range(20):
            conn = Conn(self.ctx.port, self.addr, self.stats, timeout=10)
            try:
                status, _, body, raw = conn.send("GET", "/api/info")
                if status == 200 and isinstance(body, dict) and "games" in body:
                    self.stats.outcome(kind, 200, True)
                    return True
                if status == 429:
                    time.sleep(1)
                    continue
                self.stats.outcome(kind, status, False, f"GET /api/info after the abuse: {status} {raw[:200]!r}")
                return False
            except OSError:
                time.sleep(0.2)
            finally:
                conn.close()
        self.stats.outcome(kind, "dropped", False, "GET /api/info after the abuse: the connection was closed 20 times")
        return False

    # The kinds.

    def oversized(self):
        big = json.dumps({"game": "texas42", "rules": "x" * (MAX_BODY + 4096)}).encode()
        for path in ("/api/games", "/api/replay", "/api/games/0123456789abcdef/actions"):
            self.raw_expect("oversized", "POST", path, big, chunked=self.rng.random() < 0.5, statuses=(413,), word="request body over")

    def raw_expect(self, kind, method, path, body, chunked, statuses, word):
        """A request written on a raw socket, all of it, then its answer read (the
        server may answer and close before reading the whole body)."""
        what = f"{method} {path} ({len(body)} bytes{', chunked' if chunked else ''})"
        try:
            s = self.raw(timeout=20)
        except OSError as e:
            self.stats.outcome(kind, "refused", False, f"{what}: connect: {e}")
            return
        try:
            head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            if chunked:
                data = head.encode() + b"Transfer-Encoding: chunked\r\n\r\n"
                for i in range(0, len(body), 8192):
                    part = body[i : i + 8192]
                    data += f"{len(part):x}\r\n".encode() + part + b"\r\n"
                data += b"0\r\n\r\n"
            else:
                data = head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body
            try:
                s.sendall(data)
            except OSError:
                pass  # answered and closed before the whole body was read: the answer is still there
            status, _, payload = read_response(s, 20)
            try:
                parsed = json.loads(payload)
            except ValueError:
                parsed = None
            ok, why = self.judge(kind, status, parsed, statuses, word, what, payload)
            self.stats.outcome(kind, status, ok, why)
        except Exception as e:  # noqa: BLE001
            self.stats.outcome(kind, "dropped", False, f"{what}: {type(e).__name__}: {e}")
        finally:
            s.close()
        time.sleep(0.08)

    def nested(self):
        depth = self.rng.choice([200, 5000, 20000])
        arrays = b"[" * depth + b"]" * depth
        objects = b'{"a":' * depth + b"1" + b"}" * depth
        for body in (arrays, objects):
            kind = "nested"
            if len(body) > MAX_BODY:
                self.raw_expect(kind, "POST", "/api/games", body, chunked=False, statuses=(413,), word="request body over")
                continue
            self.expect(kind, "POST", self.rng.choice(["/api/games", "/api/replay"]), raw=body, statuses=(400,), word="recursion limit")

    def huge_numbers(self):
        k = "huge_numbers"
        for body, word in [
            ({"game": "texas42", "seat": 10**30}, "seat"),
            ({"game": "texas42", "seat": 2**64}, "seat"),
            ({"game": "texas42", "seat": 4}, "seat"),
            ({"game": "doubles", "players": 10**30}, "players"),
            ({"game": "doubles", "players": 2**64 - 1}, "players"),
            ({"game": "doubles", "players": 64}, "players"),
            ({"game": "texas42", "seed": 2**64}, "seed"),
            ({"game": "texas42", "seed": -1}, "seed"),
            ({"game": "texas42", "seed": 1e300}, "seed"),
        ]:
            self.expect(k, "POST", "/api/games", body, (400,), word)
        self.expect(k, "GET", "/api/history?limit=99999999999999999999", None, (400,), "limit")
        self.expect(k, "GET", "/api/history?limit=0", None, (400,), "limit")
        self.expect(k, "GET", f"/api/history/{2**70}", None, (404,), "no stored game")
        self.expect(k, "GET", f"/api/history/{2**63 - 1}", None, (404,), "no stored game")
        gid, st = self.cheap_game(k)
        if gid is None:
            return
        ply, action = len(st["history"]), st["legal"][0]
        self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": action, "ply": 2**64}, (400,), "ply")
        self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": action, "ply": 2**63}, (409,), "ply")
        self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": action, "ply": -1}, (400,), "ply")
        self.expect(k, "GET", f"/api/games/{gid}/review/{10**25}", None, (400,), "hand number")
        self.expect(k, "GET", f"/api/games/{gid}/review/{2**64 - 1}", None, (404,), "no hand")
        self.expect(k, "GET", f"/api/games/{gid}/review/0", None, (409,), "not over yet")
        self.drop(gid)

    def over_limit(self):
        k = "over_limit"
        for spec, word in [
            ("pimc:worlds=513", "`worlds` is 513"),
            ("pimc:worlds=4000000000", "`worlds` is 4000000000"),
            ("search:worlds=513", "`worlds` is 513"),
            ("search:pool=2049", "`pool` is 2049"),
            ("search:exact=4", "`exact` is 4"),
            ("pimc:worlds=40000000000000", "worlds"),
        ]:
            game = self.rng.choice(["texas42", "doubles"])
            key = "partner" if game == "texas42" and self.rng.random() < 0.5 else "opponents"
            self.expect(k, "POST", "/api/games", {"game": game, key: spec}, (400,), word)
        if self.cycle % 3 == 0:
            # At the limit: accepted (Doubles, two players: the cheaper game at 512 worlds).
            gid, _ = self.cheap_game("at_limit", opponents="pimc:worlds=512")
            if gid is not None:
                self.drop(gid)

    def exec_specs(self):
        k = "exec"
        self.expect(k, "POST", "/api/games", {"game": "doubles", "opponents": "exec:/bin/sh"}, (400,), "exec:")
        self.expect(k, "POST", "/api/games", {"game": "texas42", "partner": "exec:/bin/sh -c 'touch /tmp/pwned'"}, (400,), "exec:")
        self.expect(k, "POST", "/api/games", {"game": "texas42", "opponents": "exec:python3 -c 1"}, (400,), "exec:")
        self.expect(k, "POST", "/api/games", {"game": "doubles", "opponents": "model:/etc/passwd"}, (400,), "models folder")

    def stale(self):
        k = "stale"
        gid, st = self.cheap_game(k)
        if gid is None:
            return
        ply = len(st["history"])
        self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": st["legal"][0], "ply": ply + 1}, (409,), "out of turn")
        self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": "9-9", "ply": ply}, (400,), "unknown action")
        # Two moves chosen at the same ply, at once on two connections: one is
        # played, the other is refused (409) as chosen for a state that is gone.
        other = Conn(self.ctx.port, self.addr, self.stats, timeout=60)
        answers = [None, None]

        def move(i, conn):
            answers[i] = self.expect("race", "POST", f"/api/games/{gid}/actions", {"action": st["legal"][0], "ply": ply}, (200, 409), "out of turn", conn=conn)

        ts = [threading.Thread(target=move, args=(i, c)) for i, c in enumerate((self.conn, other))]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        other.close()
        statuses = sorted(a[0] for a in answers if a)
        if statuses != [200, 409]:
            self.stats.outcome("race", statuses, False, f"two moves at ply {ply} at once answered {statuses}, expected one 200 and one 409")
        self.drop(gid)

    def unknown_ids(self):
        k = "unknown_id"
        gid = "%016x" % self.rng.getrandbits(64)
        for method, path, body in [
            ("GET", f"/api/games/{gid}", None),
            ("POST", f"/api/games/{gid}/actions", {"action": "6-6"}),
            ("GET", f"/api/games/{gid}/hint", None),
            ("GET", f"/api/games/{gid}/review/0", None),
            ("DELETE", f"/api/games/{gid}", None),
            ("GET", "/api/games/" + "z" * 4000, None),
            ("GET", "/api/games/..%2F..%2Fetc%2Fpasswd", None),
        ]:
            self.expect(k, method, path, body, (404,), "unknown game id")
        # Ids and numbers that are not UTF-8 once decoded: refused, in JSON like every answer.
        for path in ("/api/games/%ff%fe", "/api/games/%c3%28/hint", "/api/games/0123456789abcdef/review/%ff", "/api/history/%ff"):
            self.expect("bad_path", "GET", path, None, (400, 404), None)
        gid, _ = self.cheap_game("dropped_id")
        if gid is None:
            return
        self.drop(gid)
        for method, path, body in [
            ("GET", f"/api/games/{gid}", None),
            ("POST", f"/api/games/{gid}/actions", {"action": "6-6"}),
            ("GET", f"/api/games/{gid}/hint", None),
            ("DELETE", f"/api/games/{gid}", None),
        ]:
            self.expect("dropped_id", method, path, body, (404,), "unknown game id")

    def slow_headers(self):
        """Partial headers on as many connections as one address may hold, then
        more: the extra ones must be closed by the server at once."""
        k = "slow_headers"
        self.conn.close()
        time.sleep(0.3)
        held = []
        try:
            for i in range(PER_ADDRESS_CONNECTIONS):
                s = self.raw()
                s.sendall(f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Ty".encode())
                held.append(s)
            time.sleep(1.0)
            for s in held[:4]:
                if closed_by_peer(s, 0.05):
                    self.stats.outcome(k, "closed", False, "a connection within the per-address cap was closed at once")
            for i in range(4):
                try:
                    s = self.raw()
                except OSError as e:
                    self.stats.outcome(k, "refused", True)  # refused outright: closed as well
                    continue
                try:
                    s.sendall(b"GET /api/info HTTP/1.1\r\nHo")
                except OSError:
                    pass
                closed = closed_by_peer(s, 5)
                self.stats.outcome(k, "closed" if closed else "open", closed,
                                   None if closed else f"connection {PER_ADDRESS_CONNECTIONS + i + 1} from one address left open for 5 s")
                s.close()
            # Hold them a while (a slow client), trickling nothing.
            time.sleep(self.rng.uniform(2, 6))
        except OSError as e:
            self.stats.outcome(k, "dropped", False, f"opening connection {len(held) + 1}: {e}")
        finally:
            for s in held:
                s.close()
        self.still_served(k)

    def slow_body(self):
        """A body that never arrives: 408 once the body timeout passes."""
        k = "slow_body"
        try:
            s = self.raw(timeout=BODY_TIMEOUT_S + 15)
        except OSError as e:
            self.stats.outcome(k, "refused", False, f"connect: {e}")
            return
        try:
            s.sendall(f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n".encode() + b'{"game":')
            t0 = time.time()
            status, _, payload = read_response(s, BODY_TIMEOUT_S + 15)
            waited = time.time() - t0
            try:
                parsed = json.loads(payload)
            except ValueError:
                parsed = None
            ok, why = self.judge(k, status, parsed, (408,), "did not arrive", f"a body 92 bytes short (after {waited:.1f} s)", payload)
            self.stats.outcome(k, status, ok, why)
        except Exception as e:  # noqa: BLE001
            self.stats.outcome(k, "dropped", False, f"a body 92 bytes short: {type(e).__name__}: {e}")
        finally:
            s.close()

    def disconnect(self):
        """Disconnects mid-body and mid-move; the game must go on."""
        k = "disconnect"
        try:
            s = self.raw()
            s.sendall(f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode() + b'{"game":"texas42","seat":')
            s.close()
        except OSError as e:
            self.stats.outcome(k, "refused", False, f"connect: {e}")
        self.still_served(k)
        gid, st = self.cheap_game(k, opponents="normal")
        if gid is None:
            return
        body = json.dumps({"action": st["legal"][0], "ply": len(st["history"])}).encode()
        try:
            s = self.raw()
            s.sendall(f"POST /api/games/{gid}/actions HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
            s.close()
        except OSError as e:
            self.stats.outcome(k, "refused", False, f"connect: {e}")
        # The game is still there and playable: the move was played or not, never half.
        until = time.time() + 30
        while True:
            status, cur = self.expect(k, "GET", f"/api/games/{gid}", None, (200,))
            if status != 200:
                break
            if cur["done"]:
                break
            status, _ = self.expect(k, "POST", f"/api/games/{gid}/actions", {"action": cur["legal"][0], "ply": len(cur["history"])}, (200, 409), "out of turn")
            if status != 409 or time.time() > until:
                if status == 409:
                    self.stats.outcome(k, 409, False, f"game {gid}: moves refused as stale for 30 s after a client left mid-move")
                break
            time.sleep(0.5)
        self.drop(gid)

    def flood(self):
        """Requests as fast as one connection goes: past the burst, 429 with a Retry-After."""
        k = "flood"
        limited = 0
        for i in range(150):
            try:
                status, hdrs, body, raw = self.conn.send("GET", "/api/info")
            except Exception as e:  # noqa: BLE001
                self.stats.outcome(k, "dropped", False, f"request {i + 1} of a flood: {type(e).__name__}: {e}")
                return
            if status == 200:
                continue
            retry = hdrs.get("Retry-After", "")
            err = body.get("error", "") if isinstance(body, dict) else ""
            if status == 429 and retry.isdigit() and int(retry) >= 1 and "too many requests" in err:
                limited += 1
            else:
                self.stats.outcome(k, status, False, f"request {i + 1} of a flood: {status} Retry-After={retry!r} {raw[:200]!r}")
                return
        self.stats.outcome(k, 429 if limited else 200, limited > 0, None if limited else "150 requests at once from one address, none refused")
        time.sleep(3.5)  # the allowance refills

    def hoard(self):
        """More open games than one address may hold: the one past it is 429."""
        k = "hoard"
        ids = []
        for i in range(PER_CLIENT_GAMES):
            gid, _ = self.cheap_game(k)
            if gid is None:
                break
            ids.append(gid)
        if len(ids) == PER_CLIENT_GAMES:
            self.expect(k, "POST", "/api/games", {"game": "doubles", "players": 2, "opponents": "easy"}, (429,), "too many open games from your address")
        for gid in ids:
            self.drop(gid)

    def run(self):
        kinds = [self.oversized, self.nested, self.huge_numbers, self.over_limit, self.exec_specs, self.stale,
                 self.unknown_ids, self.slow_headers, self.disconnect, self.flood, self.slow_body]
        if self.hid == 0:
            kinds.append(self.hoard)
        start = self.hid * 3 % len(kinds)
        while not self.ctx.stop.is_set() and time.time() < self.ctx.deadline:
            for i in range(len(kinds)):
                if self.ctx.stop.is_set() or time.time() >= self.ctx.deadline:
                    return
                kind = kinds[(start + i) % len(kinds)]
                try:
                    kind()
                except Exception as e:  # noqa: BLE001
                    self.stats.error(f"hostile {self.hid} {kind.__name__}: {type(e).__name__}: {e}")
                time.sleep(0.2)
            self.cycle += 1
            if kinds[-1] == self.hoard:
                kinds.pop()  # once


def idle_holder(ctx, out):
    """One connection with partial headers and then nothing: the server must close it."""
    try:
        s = socket.create_connection((HOST, ctx.port), timeout=5, source_address=(ctx.idle_addr, 0))
        ctx.stats.add(requests=1)
        s.sendall(f"GET /api/info HTTP/1.1\r\nHost: {HOST}\r\n".encode())
    except OSError as e:
        ctx.stats.error(f"idle connection: {e}")
        return
    t0 = time.time()
    try:
        while not ctx.stop.is_set() and time.time() < ctx.deadline:
            if closed_by_peer(s, 0.5):
                out["closed_after_s"] = round(time.time() - t0, 1)
                return
    finally:
        s.close()


class Ctx:
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bones", default=os.environ.get("BONES_BIN", "target/release/bones"))
    ap.add_argument("--seconds", type=float, default=180, help="length of the run (default 180)")
    ap.add_argument("--games", type=int, default=50, help="players, each playing whole games one after another (default 50)")
    ap.add_argument("--opponents", default="hard", help="the bots' level or spec (default hard: the strongest)")
    ap.add_argument("--readers", type=int, default=4, help="clients reading the live games' states (default 4)")
    ap.add_argument("--hostile", type=int, default=4, help="hostile clients (default 4)")
    ap.add_argument("--max-rss-mb", type=float, default=500, help="the goal for the server's peak VmRSS: over it fails the run (default 500; 0: none)")
    ap.add_argument("--max-read-p99-ms", type=float, default=100, help="the goal for the state reads' p99: over it fails the run (default 100; 0: none)")
    ap.add_argument("--grace", type=float, default=120, help="seconds the requests in flight at the end may take (default 120)")
    args = ap.parse_args()
    if not 1 <= args.games + args.readers + args.hostile <= 5000:
        ap.error("between 1 and 5000 clients")

    port = free_port()
    work = tempfile.mkdtemp(prefix="bones-web-load-")
    db = os.path.join(work, "history.sqlite3")
    log_path = os.path.join(work, "server.log")
    cmd = [args.bones, "web", "--host", HOST, "--port", str(port), "--db", db, "--threads", "0"]
    log = open(log_path, "w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    stats = Stats()
    ctx = Ctx()
    ctx.args, ctx.port, ctx.stats, ctx.stop = args, port, stats, threading.Event()
    n = args.games
    ctx.reader_addr = [loopback(n + i) for i in range(args.readers)]
    n += args.readers
    ctx.hostile_addr = [loopback(n + i) for i in range(args.hostile)]
    n += args.hostile
    control_addr, ctx.idle_addr = loopback(n), loopback(n + 1)
    rss = {"peak": 0, "peak_at": 0.0, "series": []}
    sampling = threading.Event()

    def sampler():
        while not sampling.is_set():
            v = rss_kib(server.pid)
            if v is not None:
                if v > rss["peak"]:
                    rss["peak"], rss["peak_at"] = v, time.time()
                rss["series"].append((time.time(), v))
            time.sleep(0.1)

    threading.Thread(target=sampler, daemon=True).start()
    try:
        up = time.time() + 60
        while True:
            with open(log_path) as f:
                if "http://" in f.read():
                    break
            if server.poll() is not None or time.time() > up:
                with open(log_path) as f:
                    raise SystemExit(f"bones web did not start ({' '.join(cmd)}): {f.read()[-2000:]}")
            time.sleep(0.1)
        # Warm-up: a game of each kind at the bots' level (the models loaded) before the baseline.
        control = Conn(port, control_addr, stats)
        for req in ({"game": "texas42", "opponents": args.opponents, "partner": args.opponents},
                    {"game": "doubles", "opponents": args.opponents}):
            got = control.polite("POST", "/api/games", req)
            if got[0] != 201:
                raise SystemExit(f"cannot create a game {req}: {got[0]} {got[3][:300]!r}")
            control.polite("DELETE", f"/api/games/{got[2]['id']}")
        base = rss_kib(server.pid)
        warm_requests = stats.requests

        ctx.deadline = time.time() + args.seconds
        idle = {}
        threads = [threading.Thread(target=player, args=(w, ctx), daemon=True) for w in range(args.games)]
        threads += [threading.Thread(target=reader, args=(r, ctx), daemon=True) for r in range(args.readers)]
        threads += [threading.Thread(target=Hostile(h, ctx).run, daemon=True) for h in range(args.hostile)]
        threads.append(threading.Thread(target=idle_holder, args=(ctx, idle), daemon=True))
        start = time.perf_counter()
        for t in threads:
            t.start()
        hard_end = ctx.deadline + args.grace
        for t in threads:
            t.join(max(0.0, hard_end - time.time()))
        stuck = sum(t.is_alive() for t in threads)
        ctx.stop.set()
        if stuck:
            stats.error(f"{stuck} clients still waiting for an answer {args.grace:.0f} s after the end")
        elapsed = time.perf_counter() - start
        requests = stats.requests - warm_requests

        if args.seconds >= CONNECTION_IDLE_S + 10 and "closed_after_s" not in idle:
            stats.error(f"a connection with partial headers was still open after {args.seconds:.0f} s (idle limit {CONNECTION_IDLE_S} s)")
        alive = server.poll() is None
        if not alive:
            stats.error(f"the server exited with status {server.returncode}")
        stored = -1
        if alive:
            try:
                got = Conn(port, control_addr, stats).polite("GET", "/api/history?limit=1")
                stored = got[2].get("total", -1) if got[0] == 200 else -1
                if got[0] != 200:
                    stats.error(f"GET /api/history: {got[0]} {got[3][:200]!r}")
            except Exception as e:  # noqa: BLE001
                stats.error(f"GET /api/history: {type(e).__name__}: {e}")
        end_rss = rss_kib(server.pid)
    finally:
        sampling.set()
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log.close()

    with open(log_path, errors="replace") as f:
        lines = f.read().splitlines()
    panics = [l for l in lines if "panicked" in l]
    server_errors = [l for l in lines if l.startswith("error")]
    hostile = {k: {"n": v["n"], "ok": v["ok"], "statuses": dict(sorted(v["statuses"].items()))} for k, v in sorted(stats.hostile.items())}
    lost = stats.games_finished - stored if stored >= 0 else None
    figures = {
        "bones": args.bones,
        "seconds": round(elapsed, 1),
        "players": args.games,
        "readers": args.readers,
        "hostile_clients": args.hostile,
        "opponents": args.opponents,
        "requests": requests,
        "requests_per_s": round(requests / elapsed, 1),
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "games_stored": stored,
        "games_abandoned_at_end": stats.games_abandoned,
        "moves": stats.moves,
        "move_ms_p50": pct(stats.move_latencies, 0.5),
        "move_ms_p99": pct(stats.move_latencies, 0.99),
        "state_reads": len(stats.read_latencies),
        "state_read_ms_p50": pct(stats.read_latencies, 0.5),
        "state_read_ms_p99": pct(stats.read_latencies, 0.99),
        "busy_retries": stats.busy_retries,
        "rate_retries": stats.rate_retries,
        "reopened_after_refusal": stats.reopened_after_refusal,
        "hostile_requests": sum(v["n"] for v in hostile.values()),
        "hostile_wrong": sum(v["n"] - v["ok"] for v in hostile.values()),
        "hostile": hostile,
        "idle_connection_closed_after_s": idle.get("closed_after_s"),
        "rss_mb_base": round(base / 1024, 1) if base else None,
        "rss_mb_peak": round(rss["peak"] / 1024, 1),
        "rss_mb_peak_at_s": round(rss["peak_at"] - ctx.deadline + args.seconds, 1),
        # The highest VmRSS in each 20 s of the run (from the start of the load).
        "rss_mb_per_20s": window_peaks(rss["series"], ctx.deadline - args.seconds, 20),
        "rss_mb_end": round(end_rss / 1024, 1) if end_rss else None,
        "panics": len(panics),
        "server_error_lines": len(server_errors),
        "errors": len(stats.errors),
        "goals_missed": 0,
    }
    missed = []
    if args.max_rss_mb and rss["peak"] / 1024 > args.max_rss_mb:
        missed.append(f"the server's peak VmRSS {rss['peak'] / 1024:.0f} MB is over the goal of {args.max_rss_mb:.0f} MB")
    p99 = figures["state_read_ms_p99"]
    if args.max_read_p99_ms and args.readers and (p99 is None or p99 > args.max_read_p99_ms):
        missed.append(f"the state reads' p99 {p99} ms is over the goal of {args.max_read_p99_ms:.0f} ms")
    figures["goals_missed"] = len(missed)
    print(json.dumps(figures), flush=True)
    # The first 10 distinct errors, with how often each came.
    seen = collections.Counter(stats.errors)
    for e in list(dict.fromkeys(stats.errors))[:10]:
        print(f"error: {e}" + (f" (x{seen[e]})" if seen[e] > 1 else ""), file=sys.stderr)
    for l in (panics + server_errors)[:10]:
        print(f"server: {l}", file=sys.stderr)
    for m in missed:
        print(f"goal missed: {m}", file=sys.stderr)
    failed = bool(stats.errors) or bool(panics) or lost != 0 or bool(missed)
    if lost:
        print(f"error: {stats.games_finished} games finished but the history holds {stored}", file=sys.stderr)
    if failed:
        print(f"(the server's log: {log_path})", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
