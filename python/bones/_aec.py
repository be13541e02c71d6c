"""PettingZoo AEC environments of the Bones games, in the style of PettingZoo's
classic games (agents ``player_0`` ..., dict observations with an action mask)."""

from __future__ import annotations

import copy
from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from bones import _bones
from bones._render import check_render_mode, render


def _seed_bits(seed: int) -> int:
    if isinstance(seed, (bool,)) or int(seed) != seed or not 0 <= int(seed) < 2**64:
        raise _bones.BonesError(f"bad seed {seed!r}: expected an integer 0 <= seed < 2**64")
    return int(seed)


class BonesAECEnv(AECEnv):
    """One Bones game as a PettingZoo AEC environment.

    Every seat is an agent (``player_0`` ... ``player_{n-1}``); the seat to
    move is ``agent_selection``. ``observe(agent)`` gives
    ``{"observation": float32[obs_len], "action_mask": int8[num_actions]}``
    (the mask is zero for agents not to move). Rewards, termination and
    truncation are the Rust ``Env``'s: zero-sum, paid when the episode ends.
    An illegal action raises :class:`bones.IllegalActionError` (with the legal
    action names) and changes nothing. ``reset(seed=s)`` deals the deal of a
    record with ``"seed": s``; later ``reset()`` calls draw their deals from a
    stream seeded by ``s``.
    """

    metadata = {"render_modes": ["ansi"], "name": "bones_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        game: str,
        rules: Any = None,
        players: Optional[int] = None,
        episode: str = "hand",
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
    ):
        super().__init__()
        check_render_mode(render_mode)
        self._args = dict(game=game, rules=rules, players=players, episode=episode, max_steps=max_steps)
        self._table = _bones.Table(game, rules, players, episode, None, max_steps)
        self.render_mode = render_mode
        n = self._table.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_len, num_actions = self._table.obs_len, self._table.num_actions
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=(obs_len,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._deal_rng: Optional[np.random.Generator] = None
        self._deal_base: Optional[int] = None
        self.agents = []
        self.rewards = {}
        # Whether every value of `rewards` is zero (step then leaves it as it is).
        self._rewards_zero = True
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self.agent_selection = self.possible_agents[0]

    # -- spaces ---------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------
    @property
    def table(self) -> "_bones.Table":
        """The Rust environment (full state: for tools, not for learners)."""
        return self._table

    def action_name(self, action: int) -> str:
        """The canonical name of an action id."""
        return self._table.action_name(int(action))

    def action_id(self, name: str) -> int:
        """The id of an action name."""
        return self._table.action_id(name)

    def observe(self, agent: str) -> dict:
        obs, mask = self._table.observe(self.agent_name_mapping[agent])
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        """``(observation, cumulative reward, terminated, truncated, info)`` of
        ``agent_selection`` (``AECEnv.last``, in one call to Rust)."""
        agent = self.agent_selection
        if observe:
            obs, mask = self._table.observe(self.agent_name_mapping[agent])
            observation = {"observation": obs, "action_mask": mask}
        else:
            observation = None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            deal = _seed_bits(seed)
            # The stream of later unseeded deals, made when first needed.
            self._deal_rng, self._deal_base = None, deal
        else:
            if self._deal_rng is None:
                self._deal_rng = np.random.default_rng(self._deal_base)
            deal = int(self._deal_rng.integers(0, 2**64, dtype=np.uint64))
        self._table.reset(deal)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_zero = True
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._table.seat]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise _bones.IllegalActionError(f"{agent} is to move: None is only the action of an agent that is done")
        # Raises IllegalActionError and changes nothing.
        seat, term, trunc, r, _ = self._table.step(action)
        self._cumulative_rewards[agent] = 0.0
        # While no seat is paid (most steps), `rewards` stays as it is.
        if any(r):
            self.rewards = dict(zip(self.possible_agents, r)) if len(self.agents) == len(r) else {
                a: r[self.agent_name_mapping[a]] for a in self.agents
            }
            self._rewards_zero = False
            self._accumulate_rewards()
        elif not self._rewards_zero:
            self.rewards = {a: 0.0 for a in self.agents}
            self._rewards_zero = True
        if term or trunc:
            for a in self.agents:
                self.terminations[a] = term
                self.truncations[a] = trunc and not term
        else:
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":  # pragma: no cover - only "ansi" is offered
            self.render()

    def render(self) -> Optional[str]:
        return render(self._table, self.render_mode)

    def close(self) -> None:
        pass

    # -- saving ---------------------------------------------------------
    def save(self) -> bytes:
        """The environment's Rust state as bytes (pickle and deepcopy use it too)."""
        return self._table.save()

    def resample(self, seat: Union[int, str], seed: int) -> "BonesAECEnv":
        """A new environment (this one unchanged) whose state has the dominoes
        ``seat`` (a seat number or an agent name) cannot see drawn again from
        ``seed``, uniformly among the deals consistent with everything it knows
        (:meth:`bones.Table.resample`); everything else (agents, rewards, the
        seat to move, the history, the deal stream) is a copy of this one's, so
        it steps on, e.g. for a rollout of a search agent."""
        if isinstance(seat, str):
            if seat not in self.agent_name_mapping:
                raise _bones.BonesError(f"bad agent {seat!r}: expected one of {', '.join(self.possible_agents)}")
            seat = self.agent_name_mapping[seat]
        table = self._table.resample(seat, seed)
        return copy.deepcopy(self, {id(self._table): table})


def _forwarded(name: str) -> property:
    """A property of the wrapper that reads (and writes) the wrapped
    environment's attribute `name`, raising before ``reset()`` as the base
    class's ``__getattr__`` does."""

    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set(self, value):
        setattr(self.env, name, value)

    return property(get, set, doc=f"The wrapped environment's ``{name}`` (after ``reset()``).")


class _Iterator(AECOrderEnforcingIterator):
    """``agent_iter()``'s iterator: the base class's checks, without its
    attribute forwarding."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (the wrapper of its classic games)
    with the attributes an AEC loop reads on every step answered by the wrapped
    environment directly.

    The base class reaches ``agents``, ``agent_selection`` and the reward and
    done dictionaries through ``__getattr__`` forwarding, which was most of an
    AEC step's time. The checks are the same: before ``reset()`` these
    attributes and ``last()`` raise the ``AttributeError`` the base class
    raises, and ``step()`` and ``agent_iter()`` report what it reports.
    """

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset or not self.env.agents:
            super().step(action)
            return
        self._has_updated = True
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _Iterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def resample(self, seat: Union[int, str], seed: int) -> "OrderEnforcing":
        """The wrapped environment's :meth:`BonesAECEnv.resample`, wrapped
        again (a new wrapper; this one unchanged)."""
        env = self.env.resample(seat, seed)
        return copy.deepcopy(self, {id(self.env): env})

    def __str__(self) -> str:
        return str(self.env)
