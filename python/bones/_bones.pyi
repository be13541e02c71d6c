"""Type stubs of the extension module ``bones._bones`` (the Rust bindings in
python/src). CI checks them against the built module with mypy's stubtest
(scripts/ci/ci_python.sh), so they cannot drift from it."""

from __future__ import annotations

import os
from typing import Any, Callable, Literal, Mapping, Optional, Sequence, SupportsIndex, TypeVar, Union

import numpy as np
from numpy.typing import NDArray
from typing_extensions import disjoint_base, final

# A game's rules: None (the defaults), a preset name or JSON text, or a rules object.
__all__ = [
    "Agent",
    "BonesError",
    "EpisodeOverError",
    "GameError",
    "IllegalActionError",
    "Learner",
    "RecordError",
    "RestoreError",
    "RolloutWorker",
    "SpecError",
    "Table",
    "TrainError",
    "ShardRefused",
    "VecEnv",
    "_eval_deals",
    "_evaluate_shard",
    "_merge_shards",
    "benchmark",
    "episode_seed",
    "evaluate",
    "game_info",
    "games",
    "replay",
    "restore_table",
    "restore_vec_env",
    "train_flags",
    "vec_env_trace",
]

_Rules = Union[None, str, Mapping[str, Any]]
# A game record: a dict, or one JSON line.
_Record = Union[str, Mapping[str, Any]]
# A Python policy: (observations float32[n, obs_len], masks bool[n, num_actions],
# seats int64[n]) -> n action ids.
_Policy = Callable[
    [NDArray[np.float32], NDArray[np.bool_], NDArray[np.int64]],
    Union[NDArray[np.integer[Any]], Sequence[int]],
]
# One side of an evaluation: an agent spec or a Python policy.
_Side = Union[str, _Policy]
_Floats = Union[Sequence[float], NDArray[Any]]
_V = TypeVar("_V", bound=VecEnv)

# -- exceptions (python/src/errors.rs, train.rs) -------------------------------

class BonesError(ValueError):
    """Base class of the errors raised by bones (a ValueError)."""

class IllegalActionError(BonesError):
    """An action that is not legal now."""

    # Set on the exceptions raised for a step (not on those of `VecEnv.step`).
    action: int
    action_name: str
    legal: list[str]
    legal_ids: list[int]

class GameError(BonesError):
    """An unknown game, bad rules or a bad player count."""

class SpecError(BonesError):
    """A bad agent spec, or one that does not play the game."""

class RecordError(BonesError):
    """A game record that cannot be replayed."""

    # The `error` object of `bones replay` (set by `replay`).
    error: Any

class RestoreError(BonesError):
    """Saved bytes that cannot be restored."""

class EpisodeOverError(BonesError):
    """`step` after the episode ended, before `reset`."""

class TrainError(BonesError):
    """A training run that cannot start or go on."""

class ShardRefused(TrainError):
    """A rollout shard the learner refused; nothing was counted."""

    index: int
    worker: Optional[int]

# -- games (game.rs) -----------------------------------------------------------

def game_info(game: str, rules: _Rules = None, players: Optional[int] = None) -> dict[str, Any]:
    """The static facts of a game: name, players, sides, num_actions, obs_len, ..."""

def games() -> list[dict[str, Any]]:
    """The registry's games: ``[{"name", "about", "players", "default_players", "deal"}]``."""

def episode_seed(base: int, env: int, episode: int) -> int:
    """The seed of episode ``episode`` of env ``env`` in a ``VecEnv`` seeded ``base``."""

# -- one environment (table.rs) ------------------------------------------------

@final
class Table:
    """One environment of a registered game, with agents in some seats."""

    def __new__(
        cls,
        game: str,
        rules: _Rules = None,
        players: Optional[int] = None,
        episode: str = "hand",
        agents: Optional[Sequence[Optional[str]]] = None,
        max_steps: Optional[int] = None,
    ) -> Table: ...
    def reset(self, seed: int, agent_seed: int = 0) -> None:
        """Starts an episode dealt from ``seed``; the agents draw from ``agent_seed``."""
    def step(self, action: SupportsIndex) -> tuple[Optional[int], bool, bool, list[float], list[float]]:
        """Applies an action id; returns ``(seat, terminated, truncated, transition_rewards, rewards)``."""
    @property
    def seat(self) -> Optional[int]:
        """The seat to move (None when the episode is over)."""
    @property
    def terminated(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def steps(self) -> int: ...
    @property
    def rewards(self) -> list[float]: ...
    @property
    def transition_rewards(self) -> list[float]: ...
    @property
    def winning_side(self) -> Optional[int]: ...
    def legal_ids(self) -> list[int]: ...
    def legal_names(self) -> list[str]: ...
    def observe(self, seat: int) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """``seat``'s observation and legal mask (zero unless it is to move)."""
    def render(self) -> str:
        """The table as text."""
    def action_name(self, action: int) -> str: ...
    def action_id(self, name: str) -> int: ...
    @property
    def game_name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def obs_len(self) -> int: ...
    @property
    def rules(self) -> dict[str, Any]: ...
    @property
    def episode(self) -> Literal["hand", "game"]: ...
    @property
    def agents(self) -> list[Optional[str]]: ...
    def save(self) -> bytes: ...
    @staticmethod
    def restore(
        data: bytes,
        game: str,
        rules: _Rules = None,
        players: Optional[int] = None,
        episode: str = "hand",
        agents: Optional[Sequence[Optional[str]]] = None,
        max_steps: Optional[int] = None,
    ) -> Table: ...
    def __reduce__(self) -> tuple[Callable[..., Table], tuple[Any, ...]]: ...
    def copy(self) -> Table: ...
    def __copy__(self) -> Table: ...
    def __deepcopy__(self, _memo: Any) -> Table: ...
    def resample(self, seat: SupportsIndex, seed: SupportsIndex) -> Table:
        """A new table whose dominoes unseen by ``seat`` are drawn again from ``seed``."""
    @staticmethod
    def from_record(record: _Record) -> Table:
        """A table (no agents) at the state a game record reaches."""
    def info_state(self, seat: int) -> str:
        """``seat``'s information (its view) as text."""
    def deal_outcome(self) -> Optional[dict[str, Any]]:
        """How the deal the last action finished came out: ``score``, ``win``, ``points`` per side."""

def restore_table(
    data: bytes,
    game: str,
    rules: _Rules = None,
    players: Optional[int] = None,
    episode: str = "hand",
    agents: Optional[Sequence[Optional[str]]] = None,
    max_steps: Optional[int] = None,
) -> Table:
    """A table restored from ``Table.save()``'s bytes (what unpickling calls)."""

# -- vector environments (vec.rs) ------------------------------------------------

@disjoint_base
class VecEnv:
    """``num_envs`` environments stepped in lockstep; the arrays are read-only views."""

    def __new__(
        cls,
        game: str,
        num_envs: int,
        seed: int = 0,
        threads: int = 1,
        rules: _Rules = None,
        players: Optional[int] = None,
        episode: str = "hand",
    ) -> VecEnv: ...
    def save(self) -> bytes: ...
    def __reduce__(self) -> tuple[Callable[..., VecEnv], tuple[Any, ...]]: ...
    def step(self, actions: NDArray[np.int64]) -> None:
        """Applies one action id per env (an int64 array of length ``num_envs``)."""
    @property
    def obs(self) -> NDArray[np.float32]: ...
    @property
    def mask(self) -> NDArray[np.float32]: ...
    @property
    def seats(self) -> NDArray[np.uint8]: ...
    @property
    def rewards(self) -> NDArray[np.float32]: ...
    @property
    def dones(self) -> NDArray[np.bool_]: ...
    @property
    def episodes_done(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def obs_len(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def game_name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def episode(self) -> Literal["hand", "game"]: ...

def restore_vec_env(
    cls: type[_V],
    data: bytes,
    game: str,
    rules: _Rules = None,
    players: Optional[int] = None,
    threads: int = 1,
    seed: int = 0,
) -> _V:
    """A ``VecEnv`` of class ``cls`` restored from ``VecEnv.save()``'s bytes."""

def vec_env_trace(
    game: str,
    num_envs: int,
    seed: int,
    threads: int,
    steps: int,
    action_seed: int = 0,
    rules: _Rules = None,
    players: Optional[int] = None,
    episode: str = "hand",
) -> dict[str, NDArray[Any]]:
    """The pure Rust ``VecEnv``'s trajectory under random legal actions."""

# -- agents (agent.rs) -----------------------------------------------------------

@final
class Agent:
    """An agent of a spec for a game, seeded by ``seed``."""

    def __new__(
        cls,
        spec: str,
        game: str = "texas42",
        rules: _Rules = None,
        players: Optional[int] = None,
        seed: int = 0,
    ) -> Agent: ...
    @property
    def spec(self) -> str: ...
    @property
    def game(self) -> str: ...
    def act(self, env: Any) -> int:
        """The action id for the seat to move of a bones environment or ``Table``."""
    def act_record(self, record: _Record) -> str:
        """The action name for the seat to move after a game record."""
    def act_observation(self, observation: _Floats, action_mask: _Floats) -> int:
        """The action id for an observation and its legal mask."""
    def reseed(self, seed: int) -> None: ...
    def __repr__(self) -> str: ...

def replay(record: _Record) -> dict[str, Any]:
    """Replays a game record; returns it with its ``result`` added."""

# -- evaluation (evaluate.rs) --------------------------------------------------

def evaluate(
    a: _Side,
    b: _Side,
    *,
    hands: Optional[int] = None,
    games: Optional[int] = None,
    seed: int = 1,
    game: str = "texas42",
    rules: _Rules = None,
    players: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """``a`` against ``b`` on duplicate deals: the ``bones eval --json`` dict."""

def benchmark(
    agent: _Side,
    *,
    game: Optional[str] = None,
    benchmark: Optional[str] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """The standard benchmark's scorecard of ``agent`` (``bones benchmark --json``)."""

def _eval_deals(
    a: _Side,
    b: _Side,
    *,
    hands: Optional[int] = None,
    games: Optional[int] = None,
    game: str = "texas42",
    rules: _Rules = None,
    players: Optional[int] = None,
) -> int: ...
def _evaluate_shard(
    a: _Side,
    b: _Side,
    start: int,
    end: int,
    *,
    hands: Optional[int] = None,
    games: Optional[int] = None,
    seed: int = 1,
    game: str = "texas42",
    rules: _Rules = None,
    players: Optional[int] = None,
    threads: int = 1,
) -> str: ...
def _merge_shards(
    shards: Sequence[str],
    *,
    game: str = "texas42",
    rules: _Rules = None,
    players: Optional[int] = None,
) -> dict[str, Any]: ...

# -- training (train.rs) ---------------------------------------------------------

@final
class Learner:
    """The learner of a training run (its folder, networks, optimizer and pool)."""

    def __new__(
        cls,
        config: str,
        out: Union[str, os.PathLike[str]],
        *,
        workers: Optional[int] = None,
        resume: bool = False,
        overrides: Optional[dict[str, Any]] = None,
    ) -> Learner: ...
    @property
    def config(self) -> str: ...
    @property
    def workers(self) -> int: ...
    @property
    def policy_lag(self) -> int: ...
    @property
    def total_hands(self) -> int: ...
    @property
    def update_count(self) -> int: ...
    @property
    def hands(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def last_eval(self) -> dict[str, float]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def pool_version(self) -> int: ...
    def weights(self, update: Optional[int] = None) -> bytes: ...
    def pool(self) -> bytes: ...
    def update(self, batches: Sequence[bytes]) -> None: ...
    def train(self, transport: Any) -> None:
        """Trains on ``bones train --workers N``'s schedule, the bytes carried by
        ``transport`` (``send(update, weights, pool)``, ``receive(update)``,
        ``replace(worker, update, reason)``, ``updated(update, hands, hands_per_s)``)."""
    def checkpoint(self) -> str: ...
    def finish(self) -> dict[str, Any]: ...

@final
class RolloutWorker:
    """Rollout worker ``worker`` of a run: one shard of its games."""

    def __new__(
        cls,
        config: str,
        worker: int,
        *,
        workers: Optional[int] = None,
        overrides: Optional[dict[str, Any]] = None,
    ) -> RolloutWorker: ...
    @property
    def pool_version(self) -> int: ...
    def set_pool(self, pool: bytes) -> None: ...
    def set_weights(self, weights: bytes) -> int: ...
    def rollout(self) -> bytes: ...

def train_flags() -> list[dict[str, Any]]:
    """``bones train``'s flags, from bones-train's one table of them."""
