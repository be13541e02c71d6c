#!/usr/bin/env python3
"""Speed of the Python package `bones`, against OpenSpiel's Python API and the Rust VecEnv.

Two measurements, both printed as a table and (with --json) as one JSON object:

1. Random play per action through the PettingZoo AEC API, one thread:
   `bones.texas42_v0.env()` played hand after hand by the documented loop
   (`for agent in env.agent_iter(): obs, ... = env.last(); env.step(a)`), each
   action drawn uniformly from `obs["action_mask"]`; against OpenSpiel's Python
   API on hearts in the same process and run (`state.legal_actions()`,
   `state.apply_action(...)`, chance outcomes sampled with `state.chance_outcomes()`),
   each action drawn uniformly from the legal actions. Only player decisions are
   counted (no chance steps, no terminal `step(None)` calls); wall time includes
   everything the loop does (bones deals inside `reset`, OpenSpiel by 52 chance
   steps, so the table also gives OpenSpiel's rate counting every step).
   Goal: bones at least 5x OpenSpiel per action.
   The AEC loop hands the agent an observation and a legal-action mask at every
   decision; two more OpenSpiel rows do the same work, so the ratios are like for
   like: pyspiel with `state.information_state_tensor(player)` (hearts has no observation tensor) and
   `state.legal_actions_mask(player)` read before each decision, and OpenSpiel's
   own Python RL API, `open_spiel.python.rl_environment.Environment("hearts")`,
   stepped with a uniform legal action (its chance steps are inside `step`).

2. Batched stepping: the numpy `bones.VecEnv("texas42", num_envs=512, ...)`
   stepped with random legal actions chosen in numpy (a vectorised argmax of
   mask-weighted uniforms), against the Rust `VecEnv` stepped the same way by
   `bones bench` (same number of envs and threads). Goal: numpy at least half
   the Rust steps/s.

Usage:
    python scripts/bench/bench_python.py [--seconds S] [--envs 512] [--threads T] [--json]
        [--bones-bin PATH] [--skip-openspiel] [--skip-vec]

Needs `bones` (pip install ./python), numpy, and for the comparison
`open_spiel` (pip install open_spiel). The Rust figure comes from the `bones`
binary (--bones-bin, $BONES_BIN, else `cargo run --release -p bones-cli --`).
Timings are wall clock; other work on the machine skews them (a warning is
printed when the load average is 1 or more).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(seconds, play_one):
    """Calls `play_one()` (one game or hand; it returns its counts as a tuple) until `seconds`
    have passed, at least once: the counts summed, then the games played and the wall seconds."""
    totals = None
    games = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        counts = play_one()
        totals = counts if totals is None else tuple(a + b for a, b in zip(totals, counts))
        games += 1
        if time.perf_counter() >= end:
            break
    return (*totals, games, time.perf_counter() - t0)


def bones_aec(seconds, seed):
    """Random play through the AEC API for about `seconds`: (decisions, hands, wall s)."""
    import bones

    env = bones.texas42_v0.env()
    # The agent: a uniform legal action, drawn with Python's `random` as the
    # OpenSpiel loops draw theirs (numpy's Generator costs ~3 us a call).
    rand = random.Random(seed).random
    episodes = iter(range(seed, 2**63))

    def hand():
        env.reset(seed=next(episodes))
        decisions = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rand() * len(legal))]))
            decisions += 1
        return (decisions,)

    return timed(seconds, hand)


def sample_chance(outcomes, x):
    """The chance outcome that the uniform draw `x` picks from `[(action, probability), ...]`."""
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


def openspiel_hearts(seconds, seed):
    """Random play through pyspiel's Python API on hearts: (decisions, chance steps, games, wall s)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice = rng.choice
    rand = rng.random

    def play():
        decisions = chance = 0
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                chance += 1
                st.apply_action(sample_chance(st.chance_outcomes(), rand()))
            else:
                st.apply_action(choice(st.legal_actions()))
                decisions += 1
        return decisions, chance

    return timed(seconds, play)


def openspiel_hearts_observed(seconds, seed):
    """pyspiel on hearts, reading the mover's observation and legal mask before each decision
    (the work the AEC loop's `last()` does): (decisions, games, wall s)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice = rng.choice
    rand = rng.random

    def play():
        decisions = 0
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(sample_chance(st.chance_outcomes(), rand()))
            else:
                player = st.current_player()
                _obs = st.information_state_tensor(player)
                mask = st.legal_actions_mask(player)
                st.apply_action(choice([a for a, m in enumerate(mask) if m]))
                decisions += 1
        return (decisions,)

    return timed(seconds, play)


def openspiel_rl_environment(seconds, seed):
    """OpenSpiel's Python RL API (`rl_environment.Environment("hearts")`), a uniform legal
    action per step: (decisions, games, wall s)."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("hearts")
    env.seed(seed)
    rng = random.Random(seed)
    choice = rng.choice

    def play():
        decisions = 0
        ts = env.reset()
        while not ts.last():
            player = ts.observations["current_player"]
            ts = env.step([choice(ts.observations["legal_actions"][player])])
            decisions += 1
        return (decisions,)

    return timed(seconds, play)


def numpy_vec_env(num_envs, threads, seconds, seed):
    """The numpy VecEnv stepped with random legal actions: env steps per second."""
    import numpy as np

    import bones

    venv = bones.VecEnv("texas42", num_envs, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)
    mask = venv.mask  # a view of the Rust buffer, float32[num_envs, num_actions], updated by step
    noise = np.empty(mask.shape, dtype=np.float32)
    scored = np.empty(mask.shape, dtype=np.float32)
    steps = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        for _ in range(8):
            # A uniform legal action per env: the argmax of mask-weighted uniforms.
            rng.random(out=noise, dtype=np.float32)
            np.multiply(mask, noise, out=scored)
            venv.step(scored.argmax(axis=1))
            steps += num_envs
    return steps / (time.perf_counter() - t0)


def rust_vec_env(bones_bin, num_envs, threads, seconds):
    """`bones bench --json` with num_envs envs over `threads` threads: its vec_steps_per_s."""
    if num_envs % threads:
        raise SystemExit(f"--envs ({num_envs}) must be a multiple of --threads ({threads}) for bones bench")
    args = [
        "bench", "--game", "texas42", "--json", "--seconds", str(seconds),
        "--threads", str(threads), "--envs-per-thread", str(num_envs // threads),
    ]
    cmd = [bones_bin, *args] if bones_bin else ["cargo", "run", "--release", "-q", "-p", "bones-train", "--", *args]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    line = [x for x in out.splitlines() if x.strip().startswith("{")][-1]
    return json.loads(line), " ".join(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="wall time of each measurement (default 5)")
    ap.add_argument("--envs", type=int, default=512, help="VecEnv environments (default 512)")
    ap.add_argument("--threads", type=int, default=1, help="VecEnv threads, both sides (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bones-bin", default=os.environ.get("BONES_BIN"), help="prebuilt bones binary")
    ap.add_argument("--skip-openspiel", action="store_true", help="no OpenSpiel comparison")
    ap.add_argument("--skip-vec", action="store_true", help="no VecEnv comparison")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if not args.seconds > 0 or args.envs < 1 or args.threads < 1:
        ap.error("--seconds, --envs and --threads must be positive")
    try:
        if os.getloadavg()[0] >= 1.0:
            print(f"warning: load average {os.getloadavg()[0]:.2f}; other processes may skew the timings",
                  file=sys.stderr)
    except OSError:
        pass

    import bones

    out = {"bones": getattr(bones, "__version__", None), "seconds": args.seconds}
    # Warm-up (imports, page faults), not counted.
    bones_aec(min(0.5, args.seconds / 10), args.seed + 1000)
    d, h, s = bones_aec(args.seconds, args.seed)
    out["aec"] = {"decisions": d, "hands": h, "seconds": s, "actions_per_s": d / s}
    if not args.skip_openspiel:
        import pyspiel  # noqa: F401  (fail early with a clear ImportError)
        from importlib.metadata import version

        openspiel_hearts(min(0.5, args.seconds / 10), args.seed + 1000)
        d, c, g, s = openspiel_hearts(args.seconds, args.seed)
        out["openspiel_hearts"] = {"open_spiel": version("open_spiel"), "decisions": d, "chance_steps": c, "games": g,
                                   "seconds": s, "actions_per_s": d / s, "steps_per_s": (d + c) / s}
        out["aec_over_openspiel_all_steps"] = out["aec"]["actions_per_s"] / out["openspiel_hearts"]["steps_per_s"]
        out["aec_over_openspiel"] = out["aec"]["actions_per_s"] / out["openspiel_hearts"]["actions_per_s"]
        openspiel_hearts_observed(min(0.5, args.seconds / 10), args.seed + 1000)
        d, g, s = openspiel_hearts_observed(args.seconds, args.seed)
        out["openspiel_hearts_observed"] = {"decisions": d, "games": g, "seconds": s, "actions_per_s": d / s}
        out["aec_over_openspiel_observed"] = out["aec"]["actions_per_s"] / (d / s)
        openspiel_rl_environment(min(0.5, args.seconds / 10), args.seed + 1000)
        d, g, s = openspiel_rl_environment(args.seconds, args.seed)
        out["openspiel_rl_environment"] = {"decisions": d, "games": g, "seconds": s, "actions_per_s": d / s}
        out["aec_over_openspiel_rl_environment"] = out["aec"]["actions_per_s"] / (d / s)
    if not args.skip_vec:
        numpy_vec_env(args.envs, args.threads, min(0.5, args.seconds / 10), args.seed + 1000)
        py = numpy_vec_env(args.envs, args.threads, args.seconds, args.seed)
        rust, cmd = rust_vec_env(args.bones_bin, args.envs, args.threads, args.seconds)
        out["vec_env"] = {"envs": args.envs, "threads": args.threads, "numpy_steps_per_s": py,
                          "rust_steps_per_s": rust["vec_steps_per_s"], "numpy_over_rust": py / rust["vec_steps_per_s"],
                          "rust_command": cmd}

    if args.json:
        print(json.dumps(out))
        return
    a = out["aec"]
    print(f"{'':44} {'actions/s':>12} {'us/action':>10}")
    print(f"{'bones texas42, PettingZoo AEC (Python)':44} {a['actions_per_s']:12,.0f} {1e6 / a['actions_per_s']:10.2f}"
          f"  ({a['hands']} hands)")
    if "openspiel_hearts" in out:
        o = out["openspiel_hearts"]
        print(f"{'OpenSpiel hearts, pyspiel Python API':44} {o['actions_per_s']:12,.0f} {1e6 / o['actions_per_s']:10.2f}"
              f"  ({o['games']} games, open_spiel {o['open_spiel']})")
        print(f"{'  counting its chance steps (deal) as actions':44} {o['steps_per_s']:12,.0f} {1e6 / o['steps_per_s']:10.2f}")
        o = out["openspiel_hearts_observed"]
        print(f"{'  reading observation + mask per decision':44} {o['actions_per_s']:12,.0f} {1e6 / o['actions_per_s']:10.2f}")
        o = out["openspiel_rl_environment"]
        print(f"{'OpenSpiel hearts, rl_environment (Python RL)':44} {o['actions_per_s']:12,.0f} {1e6 / o['actions_per_s']:10.2f}")
        print(f"ratio per action: {out['aec_over_openspiel']:.2f}x (goal >= 5x); "
              f"{out['aec_over_openspiel_all_steps']:.2f}x against every OpenSpiel step; like for like: "
              f"{out['aec_over_openspiel_observed']:.2f}x against pyspiel reading observation and mask, "
              f"{out['aec_over_openspiel_rl_environment']:.2f}x against rl_environment")
    if "vec_env" in out:
        v = out["vec_env"]
        print()
        print(f"VecEnv texas42, {v['envs']} envs, {v['threads']} thread(s)")
        print(f"{'  numpy bones.VecEnv':44} {v['numpy_steps_per_s']:12,.0f} steps/s")
        print(f"{'  Rust VecEnv (bones bench)':44} {v['rust_steps_per_s']:12,.0f} steps/s")
        print(f"numpy / Rust: {v['numpy_over_rust']:.2f} (goal >= 0.5)")


if __name__ == "__main__":
    main()
