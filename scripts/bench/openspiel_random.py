#!/usr/bin/env python3
"""Measure OpenSpiel's C++ random play (player actions per second).

Each game is one call to the C++ `pyspiel.evaluate_bots(state, bots, seed)`
with a `pyspiel.make_uniform_random_bot` in every seat; the whole game
(chance sampling, legal-action generation, random choice, ApplyAction) runs in
C++. Python only loops over games for a fixed wall time.

What is counted: *player actions*, i.e. decisions taken by a bot at a
non-chance node. Chance steps (the deal, the hearts pass direction) are not
counted. The timed loop records `len(state.history())` per game (all actions,
chance included); afterwards the first `--verify-games` games are replayed
with identically seeded bots and their `full_history()` is split into chance
and player steps. If every replayed game has the same number of chance steps
(hearts: 1 pass-direction + 52 deal = 53; bridge: 52 deal) and the replay
reproduces the timed games' history lengths, player actions =
sum(history lengths) - games * chance_steps. Otherwise every game is replayed
(untimed) and counted exactly.

Python overhead: the per-game Python/pybind cost (loop, the evaluate_bots call
itself, the history-length read) is measured separately by the same loop on an
already-terminal state (evaluate_bots returns at once) and reported; the
"cpp" figure subtracts it. `new_initial_state()` is counted as game work.

Wall time is what is reported; the process CPU time of the timed loop is
reported too (`actions_per_cpu_s`), and a warning is printed when the loop got
less than 95% of a CPU (another process competing for the cores).

Prints one JSON object on stdout.
"""

import argparse
import json
import sys
import time

try:
    import pyspiel
except ImportError as e:  # pragma: no cover
    print(f"error: cannot import pyspiel ({e}); pip install open_spiel", file=sys.stderr)
    sys.exit(1)

GAMES = {
    # Defaults of OpenSpiel's hearts: pass phase on (3 passes per seat unless
    # the chance-drawn direction is "no pass"), 52 plays.
    "hearts": {},
    # Play the cards out instead of scoring the contract by double-dummy
    # solving (the default), so the measured loop is auction + 52 plays.
    "bridge": {"use_double_dummy_result": False},
}


def make_bots(game, seed):
    return [pyspiel.make_uniform_random_bot(p, seed + 7919 * (p + 1)) for p in range(game.num_players())]


def timed_loop(game, seconds, seed):
    """Plays games until `seconds` have passed; returns (games, wall s, CPU s, history lengths)."""
    new = game.new_initial_state
    ev = pyspiel.evaluate_bots
    bots = make_bots(game, seed)
    lens = []
    append = lens.append
    n = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        for _ in range(16):
            st = new()
            ev(st, bots, seed + n)
            append(len(st.history()))
            n += 1
        t = time.perf_counter()
        if t >= end:
            return n, t - t0, time.process_time() - c0, lens


def overhead_loop(game, seconds, seed):
    """Same Python-side work per game, but on a terminal state: seconds per game of pure overhead."""
    ev = pyspiel.evaluate_bots
    bots = make_bots(game, seed)
    term = game.new_initial_state()
    ev(term, bots, seed)
    lens = []
    append = lens.append
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        for _ in range(16):
            st = term
            ev(st, bots, seed + n)
            append(len(st.history()))
            n += 1
        t = time.perf_counter()
        if t >= end:
            return (t - t0) / n


def replay(game, seed, count):
    """Replays the first `count` games of timed_loop; yields (history length, chance steps, player steps)."""
    bots = make_bots(game, seed)
    for i in range(count):
        st = game.new_initial_state()
        pyspiel.evaluate_bots(st, bots, seed + i)
        fh = st.full_history()
        chance = sum(1 for pa in fh if pa.player == pyspiel.PlayerId.CHANCE)
        yield len(fh), chance, len(fh) - chance


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hearts", choices=sorted(GAMES))
    ap.add_argument("--seconds", type=float, default=10.0, help="wall time of the timed loop (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify-games", type=int, default=500, help="games replayed to check the count (default 500)")
    args = ap.parse_args()
    if args.seconds <= 0:
        ap.error("--seconds must be > 0")

    game = pyspiel.load_game(args.game, GAMES[args.game])

    # Short warm-up (page faults, caches), not counted.
    timed_loop(game, min(0.5, args.seconds / 10), args.seed + 10**6)

    games, elapsed, cpu, lens = timed_loop(game, args.seconds, args.seed)
    overhead_s = overhead_loop(game, min(1.0, max(0.2, args.seconds / 10)), args.seed)

    # Count player actions.
    k = min(args.verify_games, games)
    sample = list(replay(game, args.seed, k))
    chance_counts = {c for _, c, _ in sample}
    reproducible = all(h == lens[i] for i, (h, _, _) in enumerate(sample))
    if not reproducible:
        print("error: replay did not reproduce the timed games (non-deterministic bots?)", file=sys.stderr)
        sys.exit(1)
    if len(chance_counts) == 1:
        chance_per_game = chance_counts.pop()
        method = f"sum(len(history)) - games*{chance_per_game} chance steps (constant, checked on {k} replayed games)"
        player_actions = sum(lens) - games * chance_per_game
    else:
        method = "exact replay of every game, counting non-chance steps of full_history()"
        chance_per_game = None
        player_actions = 0
        for i, (h, _, p) in enumerate(replay(game, args.seed, games)):
            if h != lens[i]:
                print("error: replay did not reproduce the timed games", file=sys.stderr)
                sys.exit(1)
            player_actions += p
    sample_decisions = sorted({p for _, _, p in sample})

    cpp_elapsed = elapsed - games * overhead_s
    out = {
        "game": str(game),
        "open_spiel": _version(),
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "games": games,
        "games_per_s": games / elapsed,
        "player_actions": player_actions,
        "decisions_per_game": player_actions / games,
        "decision_counts_seen": sample_decisions,
        "chance_steps_per_game": chance_per_game,
        "count_method": method,
        "actions_per_s": player_actions / elapsed,
        "python_overhead_us_per_game": overhead_s * 1e6,
        "python_overhead_frac": games * overhead_s / elapsed,
        "actions_per_s_cpp": player_actions / cpp_elapsed if cpp_elapsed > 0 else None,
        "actions_per_cpu_s": player_actions / cpu if cpu > 0 else None,
    }
    if cpu < 0.95 * elapsed:
        print(
            f"warning: the timed loop got {100 * cpu / elapsed:.0f}% of a CPU (machine busy?); "
            "wall-time figures are low, see actions_per_cpu_s",
            file=sys.stderr,
        )
    print(json.dumps(out))


def _version():
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # pragma: no cover
        return None


if __name__ == "__main__":
    main()
