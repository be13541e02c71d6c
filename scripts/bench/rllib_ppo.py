#!/usr/bin/env python3
"""Multi-agent PPO on Texas 42 with RLlib: one shared policy for the four seats.

The PettingZoo AEC environment `bones.texas42_v0.env()` is wrapped as an RLlib
`MultiAgentEnv` (the seat to act gets an observation; every seat gets its
reward as soon as the environment pays it), all four seats map to one policy,
and RLlib's action-masking RLModule (`ActionMaskingTorchRLModule`) sets the
logits of illegal actions to the float minimum, so the policy never samples
one. Episodes are single hands, rewards marks won minus marks lost.

It trains for --iterations PPO iterations with --env-runners env runners
(Ray actors: processes on this machine or anywhere in the cluster), then plays
the greedy policy's team against uniformly random opponents on --eval-hands
duplicate hands (each deal twice, the teams swapping seats) and reports:

  env_steps_per_s           env steps (decisions) sampled per second of training,
                            sampling and learning together
  sampling_env_steps_per_s  env steps per second of the sampling phase alone
  win_rate_vs_random        share of hands the trained team won (a tied hand counts
                            a half), before and after training

Usage:
    python scripts/bench/rllib_ppo.py [--env-runners N] [--envs-per-runner E] [--iterations K] [--short]
        [--eval-hands H] [--seed S] [--address ADDR] [--json]

Ray: with --address (or RAY_ADDRESS set) it joins that cluster, otherwise it
starts a local one. Across machines: `ray start --head` on one, `ray start
--address=HEAD:6379` on the others (each with this venv and `bones` installed),
then run this script on any of them with RAY_ADDRESS=HEAD:6379 or --address
HEAD:6379; env runners are then placed over the cluster's CPUs.

Needs: ray[rllib], torch, gymnasium, numpy, and `bones` (pip install ./python).
"""

import argparse
import json
import os
import sys
import time

import gymnasium as gym
import numpy as np

ENV_NAME = "bones_texas42"
POLICY = "shared"


def make_multi_agent_env_class():
    """The RLlib MultiAgentEnv over the AEC environment (a function so that Ray workers import it lazily)."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    class Texas42MultiAgentEnv(MultiAgentEnv):
        """`bones.texas42_v0.env()` as an RLlib multi-agent env: observations are
        `{"observations": float32[obs_len], "action_mask": float32[num_actions]}`
        for the seat to act; rewards go to every seat the AEC env pays."""

        def __init__(self, config=None):
            super().__init__()
            import bones

            config = dict(config or {})
            self.aec = bones.texas42_v0.env(rules=config.get("rules", "standard"), episode="hand")
            self.possible_agents = list(self.aec.possible_agents)
            self.agents = list(self.possible_agents)
            first = self.possible_agents[0]
            n = self.aec.action_space(first).n
            space = gym.spaces.Dict(
                {
                    "observations": self.aec.observation_space(first)["observation"],
                    "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32),
                }
            )
            self.observation_spaces = {a: space for a in self.possible_agents}
            self.action_spaces = {a: self.aec.action_space(a) for a in self.possible_agents}

        def _obs(self, agent):
            o = self.aec.observe(agent)
            return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}

        def reset(self, *, seed=None, options=None):
            self.aec.reset(seed=seed, options=options)
            self.agents = list(self.possible_agents)
            agent = self.aec.agent_selection
            return {agent: self._obs(agent)}, {}

        def step(self, action_dict):
            agent = self.aec.agent_selection
            self.aec.step(int(action_dict[agent]))
            # Every seat gets an entry (RLlib wants one for each agent that acted).
            rewards = {a: float(self.aec.rewards[a]) for a in self.possible_agents}
            done = all(self.aec.terminations[a] or self.aec.truncations[a] for a in self.possible_agents)
            if done:
                obs = {a: self._obs(a) for a in self.possible_agents}
                term = {a: bool(self.aec.terminations[a]) for a in self.possible_agents}
                trunc = {a: bool(self.aec.truncations[a]) for a in self.possible_agents}
                term["__all__"] = all(term[a] for a in self.possible_agents)
                trunc["__all__"] = not term["__all__"]
                self.agents = []
                return obs, rewards, term, trunc, {}
            nxt = self.aec.agent_selection
            return {nxt: self._obs(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}

    return Texas42MultiAgentEnv


def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return (
        PPOConfig()
        # RLlib's env checker steps unmasked random actions, which the env refuses.
        .environment(ENV_NAME, env_config={"rules": args.rules}, disable_env_checking=True)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kw: POLICY)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    POLICY: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": [256, 256], "fcnet_activation": "relu", "vf_share_layers": False},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(256, args.batch),
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def greedy_actions(module, obs_batch):
    """Greedy (masked argmax) actions of the RLModule for a batch of observations."""
    import torch

    with torch.no_grad():
        batch = {
            "obs": {
                "observations": torch.from_numpy(np.stack([o["observation"] for o in obs_batch])),
                "action_mask": torch.from_numpy(np.stack([o["action_mask"] for o in obs_batch]).astype(np.float32)),
            }
        }
        logits = module.forward_inference(batch)["action_dist_inputs"]
    return logits.argmax(dim=-1).numpy()


def win_rate_vs_random(module, hands, seed, rules):
    """The greedy policy's team against random opponents on `hands` duplicate hands
    (each deal twice, the policy's team in seats 0/2 then 1/3): its share of hands won."""
    import bones

    env = bones.texas42_v0.env(rules=rules, episode="hand")
    rng = np.random.default_rng(seed)
    wins = 0.0
    played = 0
    for deal in range((hands + 1) // 2):
        for team in (0, 1):
            env.reset(seed=seed * 1_000_003 + deal)
            total = {a: 0.0 for a in env.possible_agents}
            for agent in env.agent_iter():
                obs, reward, term, trunc, _ = env.last()
                total[agent] += reward
                if term or trunc:
                    env.step(None)
                    continue
                seat = env.possible_agents.index(agent)
                if seat % 2 == team:
                    action = int(greedy_actions(module, [obs])[0])
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)
            mine = total[env.possible_agents[team]]
            wins += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
            played += 1
    return wins / played


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env-runners", type=int, default=1, help="RLlib env runners (Ray actors), default 1")
    ap.add_argument("--envs-per-runner", type=int, default=8, help="environments each env runner steps (default 8)")
    ap.add_argument("--iterations", type=int, default=20, help="PPO iterations (default 20)")
    ap.add_argument("--short", action="store_true", help="a short run: 3 iterations, 100 evaluation hands")
    ap.add_argument("--batch", type=int, default=4000, help="env steps per iteration (default 4000)")
    ap.add_argument("--epochs", type=int, default=4, help="SGD epochs per iteration (default 4)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--rules", default="standard", help="rules preset or JSON object (default standard)")
    ap.add_argument("--eval-hands", type=int, default=400, help="hands played against random (default 400)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--address", default=None, help="Ray cluster address (default: $RAY_ADDRESS, else a local Ray)")
    ap.add_argument("--json", action="store_true", help="print one JSON object at the end")
    ap.add_argument("--verbose", action="store_true", help="show the Ray workers' logs")
    args = ap.parse_args()
    if args.short:
        args.iterations = min(args.iterations, 3)
        args.eval_hands = min(args.eval_hands, 100)
    if args.env_runners < 0 or min(args.iterations, args.batch, args.eval_hands, args.envs_per_runner) < 1:
        ap.error("--env-runners must be >= 0; --iterations, --batch, --eval-hands and --envs-per-runner >= 1")

    import ray
    from ray.tune.registry import register_env

    address = args.address or os.environ.get("RAY_ADDRESS")
    ray.init(address=address, include_dashboard=False, log_to_driver=args.verbose)
    env_class = make_multi_agent_env_class()
    register_env(ENV_NAME, lambda cfg: env_class(cfg))

    algo = build_config(args).build_algo()
    module = algo.get_module(POLICY)
    before = win_rate_vs_random(module, args.eval_hands, args.seed, args.rules)

    log = []
    steps_total = 0
    train_seconds = 0.0
    sample_seconds = 0.0
    for it in range(1, args.iterations + 1):
        t0 = time.perf_counter()
        result = algo.train()
        dt = time.perf_counter() - t0
        runners = result.get("env_runners", {})
        steps = int(runners.get("num_env_steps_sampled", 0))
        sample_t = float(result.get("timers", {}).get("env_runner_sampling_timer", 0.0))
        steps_total += steps
        train_seconds += dt
        sample_seconds += sample_t
        row = {
            "iteration": it,
            "env_steps": steps,
            "seconds": round(dt, 3),
            "env_steps_per_s": round(steps / dt, 1),
            "episode_return_mean": runners.get("episode_return_mean"),
        }
        log.append(row)
        print(json.dumps(row), file=sys.stderr)

    module = algo.get_module(POLICY)
    after = win_rate_vs_random(module, args.eval_hands, args.seed, args.rules)
    out = {
        "ray": ray.__version__,
        "cluster_cpus": ray.cluster_resources().get("CPU"),
        "env_runners": args.env_runners,
        "envs_per_runner": args.envs_per_runner,
        "iterations": args.iterations,
        "env_steps": steps_total,
        "train_seconds": round(train_seconds, 2),
        "env_steps_per_s": round(steps_total / train_seconds, 1),
        # The first iteration includes warm-up; the steady rate leaves it out.
        "env_steps_per_s_after_first": (
            round(sum(r["env_steps"] for r in log[1:]) / sum(r["seconds"] for r in log[1:]), 1)
            if len(log) > 1 else None
        ),
        "sampling_env_steps_per_s": round(steps_total / sample_seconds, 1) if sample_seconds > 0 else None,
        "eval_hands": 2 * ((args.eval_hands + 1) // 2),
        "win_rate_vs_random_before": round(before, 4),
        "win_rate_vs_random": round(after, 4),
    }
    algo.stop()
    ray.shutdown()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:30} {v}")


if __name__ == "__main__":
    main()
