"""Gymnasium single-agent environments: the learner plays one seat, agents
(spec strings) play every other seat."""

from __future__ import annotations

import copy
from typing import Any, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bones import _bones
from bones._render import check_render_mode, render

#: The reward of an illegal action under ``illegal_action="terminate"``
#: (the default): the episode ends at once with this reward.
ILLEGAL_ACTION_PENALTY = -1.0


class BonesSingleAgentEnv(gym.Env):
    """One Bones game as a Gymnasium environment for the learner in ``seat``.

    Observations are float32[obs_len] (the learner's seat); actions are the
    game's dense ids (``Discrete(num_actions)``, any integer type). The legal
    actions are in ``info["action_mask"]`` (int8[num_actions]) and
    ``action_masks()`` (bool, as sb3-contrib's MaskablePPO expects). The
    reward is the learner's reward since its last decision (the Rust ``Env``'s
    rewards: zero-sum, paid when the episode ends).

    ``opponents`` is the spec of every other seat (``"random"``,
    ``"heuristic"``, ``"highest"``, ``"pimc:worlds=N"``, ``"model:PATH"``);
    ``partner`` overrides it for the learner's partner (Texas 42); or give
    ``agents``, one spec per seat with None for the learner's.

    An illegal action, with ``illegal_action="terminate"`` (the default), ends
    the episode with reward ``illegal_penalty`` (default
    ``ILLEGAL_ACTION_PENALTY`` = -1.0) and ``info["illegal_action"] = True``;
    with ``"raise"`` it raises :class:`bones.IllegalActionError` and changes
    nothing. The deal and the agents' random stream come from
    ``self.np_random`` (seeded by ``reset(seed=...)``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        rules: Any = None,
        players: Optional[int] = None,
        seat: int = 0,
        opponents: str = "random",
        partner: Optional[str] = None,
        agents: Optional[Sequence[Optional[str]]] = None,
        episode: str = "hand",
        illegal_action: str = "terminate",
        illegal_penalty: float = ILLEGAL_ACTION_PENALTY,
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
    ):
        if illegal_action not in ("terminate", "raise"):
            raise _bones.BonesError(f"bad illegal_action {illegal_action!r}: expected 'terminate' or 'raise'")
        check_render_mode(render_mode)
        info = _bones.game_info(game, rules, players)
        n = info["players"]
        if not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise _bones.BonesError(f"bad seat {seat!r}: expected 0..{n - 1}")
        seat = int(seat)
        if agents is None:
            agents = [opponents] * n
            if partner is not None:
                if info["sides"] == n:
                    raise _bones.BonesError(f"{game} has no partners: use opponents= or agents=")
                agents[(seat + n // 2) % n] = partner
            agents[seat] = None
        else:
            agents = list(agents)
            if len(agents) != n or agents[seat] is not None:
                raise _bones.BonesError(f"agents: expected {n} specs with None in the learner's seat {seat}")
        self._table = _bones.Table(game, rules, players, episode, agents, max_steps)
        self.seat = seat
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=0.0, high=np.inf, shape=(info["obs_len"],), dtype=np.float32)
        self.action_space = spaces.Discrete(info["num_actions"])
        self._num_actions = info["num_actions"]
        self._mask = np.zeros(info["num_actions"], dtype=np.int8)
        self._over = True

    @property
    def table(self) -> "_bones.Table":
        """The Rust environment (full state: for tools, not for learners)."""
        return self._table

    @property
    def agents(self) -> list:
        """The agent spec of every seat (None for the learner's)."""
        return self._table.agents

    def _observe(self):
        obs, mask = self._table.observe(self.seat)
        self._mask = mask
        return obs, {"action_mask": mask.copy()}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        agent_seed = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        self._table.reset(deal, agent_seed)
        self._over = self._table.seat is None
        obs, info = self._observe()
        return obs, info

    def step(self, action):
        if self._over:
            raise _bones.EpisodeOverError("the episode is over: call reset()")
        a = action
        if isinstance(a, np.ndarray):
            a = a.item()
        if not isinstance(a, (int, np.integer)) or not 0 <= int(a) < self._num_actions or not self._mask[int(a)]:
            if self.illegal_action == "terminate":
                self._over = True
                obs, info = self._observe()
                info["illegal_action"] = True
                return obs, self.illegal_penalty, True, False, info
        _, terminated, truncated, _, rewards = self._table.step(a)
        reward = float(rewards[self.seat])
        self._over = terminated or truncated
        obs, info = self._observe()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's seat as booleans (MaskablePPO)."""
        return self._mask.astype(bool)

    def render(self) -> Optional[str]:
        return render(self._table, self.render_mode)

    def save(self) -> bytes:
        """The environment's Rust state (agents' random stream included) as bytes."""
        return self._table.save()

    def resample(self, seat: Optional[int], seed: int) -> "BonesSingleAgentEnv":
        """A new environment (this one unchanged) whose state has the dominoes
        ``seat`` (None: the learner's seat) cannot see drawn again from
        ``seed``, uniformly among the deals consistent with everything it knows
        (:meth:`bones.Table.resample`); the agents, their random stream,
        ``np_random`` and the rest are copies of this one's, so it steps on."""
        table = self._table.resample(self.seat if seat is None else seat, seed)
        new = copy.deepcopy(self, {id(self._table): table})
        _, new._mask = table.observe(new.seat)
        return new


class Texas42Env(BonesSingleAgentEnv):
    """``bones/Texas42-v0``: the learner in ``seat``; ``partner`` and ``opponents`` are agent specs."""

    def __init__(self, rules: Any = None, seat: int = 0, opponents: str = "random", partner: Optional[str] = None, **kwargs):
        super().__init__("texas42", rules, None, seat, opponents, partner, **kwargs)


class DoublesEnv(BonesSingleAgentEnv):
    """``bones/Doubles-v0``: the learner in ``seat`` of ``players``; ``opponents`` is an agent spec."""

    def __init__(
        self,
        players: int = 4,
        rules: Any = None,
        seat: int = 0,
        opponents: str = "random",
        partner: Optional[str] = None,
        **kwargs,
    ):
        super().__init__("doubles", rules, players, seat, opponents, partner, **kwargs)


def register_envs() -> None:
    """Registers ``bones/Texas42-v0`` and ``bones/Doubles-v0`` with Gymnasium."""
    for env_id, entry in (("bones/Texas42-v0", "bones._gym:Texas42Env"), ("bones/Doubles-v0", "bones._gym:DoublesEnv")):
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry)
