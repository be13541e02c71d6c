"""Bones: domino games (Texas 42, Doubles) as reinforcement-learning environments.

Thin Python over the Rust engine (the extension module ``bones._bones``):

- ``bones.texas42_v0.env(...)``, ``bones.doubles_v0.env(players=...)``: PettingZoo
  AEC environments (and ``raw_env``);
- ``gymnasium.make("bones/Texas42-v0", ...)``, ``"bones/Doubles-v0"``: single-agent
  Gymnasium environments (registered on ``import bones``);
- ``bones.VecEnv(game, num_envs, seed, threads)``: the batched Rust ``VecEnv`` with
  numpy views of its buffers;
- ``bones.Agent(spec, game=...)``: the agents of ``bones eval``;
- ``bones.replay(record)``: validate and annotate a game record;
- ``bones.evaluate(a, b, hands=|games=, seed=)``: A against B on duplicate deals, the
  dict ``bones eval --json`` prints; ``bones.ray.evaluate(..., num_workers=W)``: the
  same, its deals sharded over Ray tasks (needs ``ray``; imported only when called).
  A and B are agent specs or Python policies: callables
  ``policy(observations, masks, seats) -> action ids`` called with batches;
- ``bones.benchmark(agent, game=|benchmark=)``: the standard benchmark's scorecard,
  as ``bones benchmark AGENT --json`` prints it;
- ``bones.Learner(config, out, workers=N)`` and ``bones.RolloutWorker(config, worker)``:
  the two halves of the actor-learner of ``bones train --workers N``, trading bytes
  (weights, the opponent pool, rollout shards); ``bones.ray.train`` and
  ``python -m bones.ray train`` run the workers as Ray actors on a cluster.

See docs/interfaces/python.md for every convention.
"""

from __future__ import annotations

import numpy as _np

from bones import _bones
from bones._bones import (
    Agent,
    BonesError,
    EpisodeOverError,
    GameError,
    IllegalActionError,
    Learner,
    RecordError,
    RestoreError,
    RolloutWorker,
    ShardRefused,
    SpecError,
    Table,
    TrainError,
    benchmark,
    episode_seed,
    evaluate,
    game_info,
    games,
    replay,
    vec_env_trace,
)
from bones import doubles_v0, ray, texas42_v0
from bones._gym import ILLEGAL_ACTION_PENALTY, BonesSingleAgentEnv, DoublesEnv, Texas42Env, register_envs


class VecEnv(_bones.VecEnv):
    """``num_envs`` environments of ``game`` stepped in lockstep by the Rust ``VecEnv``.

    ``VecEnv(game, num_envs, seed=0, threads=1, rules=None, players=None, episode="hand")``.
    ``obs``, ``mask``, ``seats``, ``rewards`` and ``dones`` are read-only numpy
    views of the Rust buffers, updated in place by ``step`` (no copies; copy
    them to keep a step's values). Env ``i``'s ``k``-th episode is dealt from
    ``bones.episode_seed(seed, i, k)``; a finished episode is reset at once
    (its ``rewards`` row holds the final rewards, ``dones[i]`` is True and the
    other rows show the next episode's first decision). Results are identical
    for every thread count and to the Rust ``VecEnv``.
    """

    def step(self, actions):
        """Applies one action id per env (any integer array-like); returns
        ``(obs, mask, seats, rewards, dones)`` (the same views)."""
        super().step(_np.ascontiguousarray(actions, dtype=_np.int64).reshape(-1))
        return self.obs, self.mask, self.seats, self.rewards, self.dones


register_envs()

__all__ = [
    "Agent",
    "BonesError",
    "BonesSingleAgentEnv",
    "DoublesEnv",
    "EpisodeOverError",
    "GameError",
    "ILLEGAL_ACTION_PENALTY",
    "IllegalActionError",
    "Learner",
    "RecordError",
    "RestoreError",
    "RolloutWorker",
    "ShardRefused",
    "SpecError",
    "Table",
    "Texas42Env",
    "TrainError",
    "VecEnv",
    "benchmark",
    "doubles_v0",
    "episode_seed",
    "evaluate",
    "game_info",
    "games",
    "ray",
    "replay",
    "texas42_v0",
    "vec_env_trace",
]
