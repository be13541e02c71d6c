#!/usr/bin/env python3
"""Random playthroughs of a Bones game through the OpenSpiel wrapper
(`bones.openspiel`) and through Bones' PettingZoo environment: microseconds
per player action.

Three loops, each for a fixed wall time, each playing whole deals with uniform
random legal actions from a seeded `random.Random`:

- `openspiel`: `state = game.new_initial_state()`, the 28 chance nodes of the
  deal sampled by their probabilities, then `legal_actions()` and
  `apply_action()` until `is_terminal()`; `returns()` at the end.
- `openspiel+obs`: the same, reading `observation_tensor()` of the seat to
  move before each decision (what an RL loop reads).
- `pettingzoo`: `env.reset(seed=i)`, then PettingZoo's loop: `env.last()` (the
  observation and action mask of the agent to move) and `env.step(a)`.

Per player action = the loop's wall time (and its process CPU time, steadier
on a shared machine) / the player actions (the chance steps of the OpenSpiel
deal are part of the playthrough's cost, not actions); the ratios are of CPU
time. Prints one JSON object. Needs `pip install "./python[openspiel]"`.

    scripts/bench/bench_openspiel_wrapper.py [--game texas42|doubles] [--players N] [--seconds S]
"""

import argparse
import json
import random
import sys
import time

import numpy as np

try:
    import pyspiel

    import bones.openspiel
except ImportError as e:  # pragma: no cover
    print(f"error: {e}; pip install './python[openspiel]'", file=sys.stderr)
    sys.exit(1)

from bones import doubles_v0, texas42_v0


def openspiel_loop(game, seconds, seed, observe):
    """Deals and plays random deals for `seconds`; returns (deals, player actions, wall s)."""
    rng = random.Random(seed)
    deals = actions = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        state.returns()
        deals += 1
    return deals, actions, time.perf_counter() - t0


def pettingzoo_loop(make_env, seconds, seed):
    """PettingZoo's AEC loop with random legal actions for `seconds`."""
    rng = random.Random(seed)
    env = make_env()
    deals = actions = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        env.reset(seed=seed + deals)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            actions += 1
        deals += 1
    return deals, actions, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="texas42", choices=["texas42", "doubles"])
    ap.add_argument("--players", type=int, default=4, help="Doubles players (default 4)")
    ap.add_argument("--seconds", type=float, default=5.0, help="wall time of each loop (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.seconds <= 0:
        ap.error("--seconds must be > 0")
    if args.game == "texas42":
        game = pyspiel.load_game("bones_texas42")
        make_env = texas42_v0.env
    else:
        game = pyspiel.load_game("bones_doubles", {"players": args.players})
        make_env = lambda: doubles_v0.env(players=args.players)  # noqa: E731

    out = {"game": str(game), "seconds": args.seconds}
    runs = {
        "openspiel": lambda s: openspiel_loop(game, s, args.seed, observe=False),
        "openspiel+obs": lambda s: openspiel_loop(game, s, args.seed, observe=True),
        "pettingzoo": lambda s: pettingzoo_loop(make_env, s, args.seed),
    }
    for name, run in runs.items():
        run(min(0.5, args.seconds / 10))  # warm-up, not counted
        c0 = time.process_time()
        deals, actions, wall = run(args.seconds)
        cpu = time.process_time() - c0
        out[name] = {
            "deals": deals,
            "actions": actions,
            "actions_per_deal": round(actions / deals, 2),
            "us_per_action": round(wall / actions * 1e6, 2),
            "cpu_us_per_action": round(cpu / actions * 1e6, 2),
            "cpu_share": round(cpu / wall, 3),
        }
    for name in ("openspiel", "openspiel+obs"):
        ratio = out[name]["cpu_us_per_action"] / out["pettingzoo"]["cpu_us_per_action"]
        out[f"{name}_vs_pettingzoo"] = round(ratio, 2)
    print(json.dumps(out))
    if min(out[n]["cpu_share"] for n in runs) < 0.95:
        print("warning: a loop got less than 95% of a CPU (another process competing)", file=sys.stderr)


if __name__ == "__main__":
    main()
