#!/usr/bin/env python3
"""OpenSpiel's DQN (open_spiel.python.jax.dqn) learns Texas 42 for a few
minutes, through bones.openspiel, and says what it learned.

One DQN agent per seat of team 0 (seats 0 and 2) plays one-hand games of
``bones_texas42`` through OpenSpiel's ``rl_environment`` against uniform random
bots in seats 1 and 3, for ``--minutes`` of wall time. Its input is the
information-state tensor (Bones' 914-float observation), its reward the hand's
marks. Before and after training, seat 0's network plays greedily (the best
legal Q-value) on both sides of Bones' duplicate deals (``bones.evaluate``, as a
callable policy) against ``random``: marks per hand and win rate with 95%
intervals, and its contracts (how often its side declared, made, and the mean
bid), so what changed is shown in Texas 42's own terms.

Needs JAX besides the extra: ``pip install "./python[openspiel]" jax flax optax
orbax-checkpoint chex``. Run: ``python python/examples/openspiel_dqn.py
[--minutes 3] [--hands 1000] [--seed 1]``.
"""

import argparse
import time

import jax.numpy as jnp
import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.jax import dqn

import bones
import bones.openspiel  # noqa: F401  (registers bones_texas42)


def greedy(agent):
    """The agent's network as a `bones.evaluate` policy: the legal action with
    the highest Q-value, for a batch of seats."""

    def policy(observations, masks, seats):
        q = np.asarray(agent._q_network(jnp.asarray(observations)))
        return np.where(masks, q, -np.inf).argmax(axis=1)

    policy.__name__ = "dqn"
    return policy


def report(title, agent, hands, seed):
    r = bones.evaluate(greedy(agent), "random", hands=hands, seed=seed)
    c = r["contracts"]["a"]
    lo, hi = r["marks_ci"]
    print(
        f"{title}: {r['marks_per_hand']:+.3f} marks/hand [{lo:+.3f}, {hi:+.3f}] against random over {r['hands']} hands, "
        f"hands won {r['win_rate']:.3f}; its side declared {c['declared']} contracts, made "
        f"{c['made_rate']:.2f} of them, mean bid {c['mean_bid']:.1f}"
    )
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="training wall time (default 3)")
    ap.add_argument("--hands", type=int, default=1000, help="hands of each evaluation (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    game = pyspiel.load_game("bones_texas42")
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=args.seed))
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    learners = {
        seat: dqn.DQN(
            player_id=seat,
            state_representation_size=size,
            num_actions=actions,
            hidden_layers_sizes=[128, 128],
            replay_buffer_capacity=50_000,
            batch_size=64,
            learning_rate=1e-3,
            optimizer_str="adam",
            loss_str="huber",
            learn_every=4,
            min_buffer_size_to_learn=1_000,
            update_target_network_every=500,
            epsilon_decay_duration=20_000,
            epsilon_end=0.05,
            seed=args.seed + seat,
            allow_checkpointing=False,
        )
        for seat in (0, 2)
    }
    agents = [learners.get(s) or random_agent.RandomAgent(s, actions) for s in range(4)]

    before = report("before training", learners[0], args.hands, args.seed)
    hands = decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.minutes * 60:
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            time_step = env.step([agents[seat].step(time_step).action])
            decisions += seat in learners
        for agent in agents:  # the final step: every agent sees the result
            agent.step(time_step)
        hands += 1
    minutes = (time.perf_counter() - t0) / 60
    print(f"trained {minutes:.1f} min: {hands} hands, {decisions} decisions of the learners")
    after = report("after training ", learners[0], args.hands, args.seed)
    gain = after["marks_per_hand"] - before["marks_per_hand"]
    print(f"what it learned: {gain:+.3f} marks/hand against random, on the same duplicate deals")


if __name__ == "__main__":
    main()
