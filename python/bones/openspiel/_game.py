"""The OpenSpiel games ``bones_texas42`` and ``bones_doubles``: one hand of
Texas 42 or one round of Doubles, played by the Bones engine (a
:class:`bones.Table` under each state) through OpenSpiel's Python-game API.

- **The deal** is 28 chance nodes, one domino each, as OpenSpiel's bridge deals
  its cards: Texas 42 seat ``s`` gets the dominoes of nodes ``7s .. 7s+6``;
  Doubles seat ``s`` those of nodes ``ks .. ks+k-1`` (``k`` = 8 with two
  players, else 6) and the rest are the boneyard in draw order. Chance outcome
  ``d`` is the domino of dense index ``d`` (``0-0`` = 0 ... ``6-6`` = 27).
  Texas 42 deals are uniform; a Doubles deal with no double in any hand is
  thrown in by the rules, so while no double has been dealt to a hand each
  outcome is weighted by the deals it leaves possible: the deals come out
  uniform among the valid ones, as Bones' own reshuffle makes them.
- **Actions** are Bones' action ids (61 for Texas 42, 58 for Doubles); their
  strings are the names of docs/interfaces/encodings.md (``pass``, ``30``, ``sixes``,
  ``6-4``, ``6-4@6``, ``draw``).
- **Returns** (at the end only): Texas 42 marks won minus marks lost (game
  points won minus lost under ``scoring=points``); Doubles the round's points
  minus the mean of every seat's (the PettingZoo reward). Zero-sum.
- **Tensors**: ``information_state_tensor`` and ``observation_tensor`` are both
  Bones' observation of the seat (the numbers of the PettingZoo environment),
  split into its named segments; zero while the deal is dealt. **Strings**:
  ``information_state_string`` and ``observation_string`` are both the seat's
  Bones view as text (its own dominoes and every public fact;
  :meth:`bones.Table.info_state`); while dealing, the dominoes dealt to it.
- ``resample_from_infostate`` draws the dominoes the seat cannot see with
  Bones' sampler (:meth:`bones.Table.resample`, uniform among the consistent
  deals); as OpenSpiel's own games (gin rummy) do, the new state keeps this
  state's history (its chance outcomes are not redrawn).
- ``clone`` copies the table; ``serialize``/``deserialize`` use OpenSpiel's
  Python-game serialization (the table pickles as its saved bytes).
"""

from __future__ import annotations

import random
from math import comb
from typing import Any, Optional

import numpy as np
import pyspiel

import bones
from bones import _bones

#: The registered names of the games.
GAME_NAMES = {"texas42": "bones_texas42", "doubles": "bones_doubles"}

# Dense domino index -> name ("6-4"): index = high*(high+1)/2 + low.
_NAMES = [f"{h}-{l}" for h in range(7) for l in range(h + 1)]
_DOUBLES = frozenset(h * (h + 1) // 2 + h for h in range(7))
# Parameters that are not rules keys; rules keys that are not parameters
# (the target of a whole game: these games are one deal).
_EXTRA = {"texas42": {"dealer": 0}, "doubles": {}}
_NOT_PARAMS = ("target",)


def _rule_params(game: str) -> dict:
    """The game's parameters and their defaults: every key of its complete
    rules object but the target (a list as its names joined by ``+``, or
    ``none``), and the Texas 42 shaker."""
    params = {}
    for key, value in bones.game_info(game)["rules"].items():
        if key in _NOT_PARAMS:
            continue
        params[key] = ("+".join(value) or "none") if isinstance(value, list) else value
    params.update(_EXTRA[game])
    return params


class _Config:
    """What every state of one game shares: the Bones game, its rules and
    facts. Copies and deep copies are the object itself (it never changes)."""

    def __init__(self, game: str, params: dict):
        self.game = game
        self.name = GAME_NAMES[game]
        self.params = dict(params)
        rules = {}
        for key, value in params.items():
            if key in _EXTRA[game]:
                continue
            if key == "variants":
                value = [v for v in str(value).split("+") if v and v != "none"]
            rules[key] = value
        self.players: Optional[int] = int(rules.pop("players")) if "players" in rules else None
        self.dealer = int(params.get("dealer", 0))
        try:
            info = bones.game_info(game, rules, self.players)
        except bones.BonesError as e:
            raise pyspiel.SpielError(f"{self.name}: {e}") from None
        if game == "texas42" and not 0 <= self.dealer <= 3:
            raise pyspiel.SpielError(f"{self.name}: bad dealer {self.dealer}: expected a seat 0..3")
        self.rules = info["rules"]
        self.num_players = info["players"]
        self.num_actions = info["num_actions"]
        self.obs_len = info["obs_len"]
        self.segments = [(s["name"], s["offset"], s["length"]) for s in info["segments"]]
        self.action_names = info["action_names"]
        n = self.num_players
        self.hand_size = 7 if game == "texas42" else (8 if n == 2 else 6)
        self.dealt = n * self.hand_size  # chance nodes that deal to a hand

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Config, (self.game, self.params))

    def holder(self, position: int) -> Optional[int]:
        """The seat chance node `position` deals to (None: the boneyard)."""
        return position // self.hand_size if position < self.dealt else None

    def record(self, deal: list) -> dict:
        """The record (no actions) of a complete deal."""
        k = self.hand_size
        hands = [[_NAMES[d] for d in deal[s * k:(s + 1) * k]] for s in range(self.num_players)]
        rec = {"game": self.game, "rules": self.rules, "hands": hands, "actions": []}
        if self.game == "texas42":
            rec["dealer"] = self.dealer
        else:
            rec["boneyard"] = [_NAMES[d] for d in deal[self.dealt:]]
        return rec

    def utility_bound(self) -> float:
        """The largest margin one deal can give a seat."""
        if self.game == "texas42":
            # 7 marks; under points scoring a 7-mark contract is worth 7 * 42.
            return 7.0 * (42.0 if self.rules["scoring"] == "points" else 1.0)
        # The pips of every domino (168): more than any hand can hold.
        return 168.0

    def max_game_length(self) -> int:
        """The most player decisions one deal can take."""
        if self.game == "texas42":
            return 4 + 1 + 28  # bids, the declaration, the plays
        n = self.num_players
        draws = max(0, 28 - self.dealt - 2)
        # Each pass follows a draw or a play (at most n - 1 in a row).
        return 28 + 2 * draws + (n - 1) * 29


def _chance_outcomes(cfg: _Config, deal: list) -> list:
    """The next domino of the deal and its probability."""
    dealt = set(deal)
    rest = [d for d in range(28) if d not in dealt]
    p = len(deal)
    if cfg.game == "texas42" or p >= cfg.dealt or not _DOUBLES.isdisjoint(dealt):
        q = 1.0 / len(rest)
        return [(d, q) for d in rest]
    # Doubles, no double dealt to a hand yet: weight each domino by the share
    # of the orders of the rest that then put a double in a hand.
    slots = cfg.dealt - p - 1  # hand slots left after this one
    remaining = len(rest) - 1
    singles = sum(1 for d in rest if d not in _DOUBLES)
    no_double = comb(singles - 1, slots) / comb(remaining, slots) if singles >= 1 else 1.0
    weights = [1.0 if d in _DOUBLES else 1.0 - no_double for d in rest]
    total = sum(weights)
    return [(d, w / total) for d, w in zip(rest, weights) if w > 0]


class BonesGame(pyspiel.Game):
    """A Bones game (one deal) for OpenSpiel; see the module docs."""

    game: str  # "texas42" or "doubles", set by the subclass
    game_type: pyspiel.GameType

    def __init__(self, params: Optional[dict] = None):
        cfg = _Config(self.game, {**_rule_params(self.game), **(params or {})})
        bound = cfg.utility_bound()
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.num_actions,
            max_chance_outcomes=28,
            num_players=cfg.num_players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=cfg.max_game_length(),
        )
        super().__init__(self.game_type, info, params or {})
        self.cfg = cfg

    def new_initial_state(self) -> "BonesState":
        return BonesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "BonesObserver":
        return BonesObserver(self.cfg, iig_obs_type, params)

    def state_from_table(self, table: _bones.Table) -> "BonesState":
        """A state at `table`'s position (a one-deal table of this game, its
        rules and players, as `bones.evaluate` hands a table agent), with no
        history: for a bot to act from."""
        cfg = self.cfg
        if table.game_name != cfg.game or table.rules != cfg.rules or table.num_players != cfg.num_players:
            raise pyspiel.SpielError(
                f"{cfg.name}: the table is {table.game_name} under {table.rules} for {table.num_players} "
                f"players; this game is {cfg.game} under {cfg.rules} for {cfg.num_players}"
            )
        if table.episode != "hand":
            raise pyspiel.SpielError(f"{cfg.name}: the table plays a whole game; these games are one deal")
        state = BonesState(self)
        state._t = table.copy()
        return state

    def state_from_record(self, record: Any) -> "BonesState":
        """The state a game record (a one-deal record of this game, as
        `bones replay` reads it: a dict or a JSON line) reaches: its deal as
        the chance outcomes, then its actions."""
        cfg = self.cfg
        replayed = bones.replay(record)
        if replayed.get("episode", "hand") != "hand":
            raise pyspiel.SpielError(f"{cfg.name}: a whole-game record; these games are one deal")
        rules = bones.game_info(replayed["game"], replayed.get("rules"), replayed.get("players"))["rules"]
        dealer = replayed.get("dealer", 0) if cfg.game == "texas42" else 0
        if replayed["game"] != cfg.game or rules != cfg.rules or dealer != cfg.dealer:
            raise pyspiel.SpielError(
                f"{cfg.name}: the record is {replayed['game']} under {rules} (shaker {dealer}); "
                f"this game is {cfg.game} under {cfg.rules} (shaker {cfg.dealer})"
            )
        # A one-deal record comes back from replay with its deal spelled out.
        deal = [d for hand in replayed["hands"] for d in hand] + list(replayed.get("boneyard", []))
        state = self.new_initial_state()
        for name in deal:
            state.apply_action(_NAMES.index(name))
        for name in replayed.get("actions", []):
            state.apply_action(state._t.action_id(name))
        return state


class BonesState(pyspiel.State):
    """A state of a Bones game: the deal so far, then the Bones table."""

    def __init__(self, game: BonesGame):
        super().__init__(game)
        self._c: _Config = game.cfg
        # The chance outcomes so far (dense domino indices).
        self._deal: list = []
        # The Bones table once the deal is complete.
        self._t: Optional[_bones.Table] = None

    # -- the game ------------------------------------------------------------
    def current_player(self) -> int:
        if self._t is None:
            return pyspiel.PlayerId.CHANCE
        seat = self._t.seat
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list:
        return self._t.legal_ids() if self._t is not None else []

    def chance_outcomes(self) -> list:
        return _chance_outcomes(self._c, self._deal)

    def _apply_action(self, action: int) -> None:
        if self._t is not None:
            self._t.step(int(action))
            return
        self._deal.append(int(action))
        if len(self._deal) == 28:
            self._t = _bones.Table.from_record(self._c.record(self._deal))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {_NAMES[action]}"
        return self._c.action_names[action]

    def is_terminal(self) -> bool:
        return self._t is not None and self._t.seat is None

    def returns(self) -> list:
        outcome = self._t.deal_outcome() if self._t is not None else None
        if outcome is None:
            return [0.0] * self._c.num_players
        score = outcome["score"]
        if self._c.game == "texas42":
            return [score[s % 2] - score[1 - s % 2] for s in range(4)]
        mean = sum(score) / len(score)
        return [x - mean for x in score]

    def __str__(self) -> str:
        if self._t is None:
            return "dealt: " + " ".join(_NAMES[d] for d in self._deal)
        return self._t.render()

    # -- information -----------------------------------------------------------
    def info_text(self, player: int) -> str:
        """`player`'s information as text (both OpenSpiel strings)."""
        if self._t is not None:
            return self._t.info_state(player)
        own = [_NAMES[d] for i, d in enumerate(self._deal) if self._c.holder(i) == player]
        return f"seat {player} dealt {' '.join(own)}"

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "BonesState":
        """A state `player_id` cannot tell from this one: the dominoes it
        cannot see drawn by Bones' sampler from the seed
        ``int(probability_sampler() * 2**53)`` (see the module docs)."""
        seed = int(probability_sampler() * 2**53)
        if self._t is None:
            return self._redeal(player_id, seed)
        table = self._t.resample(player_id, seed)
        new = self.clone()
        new._t = table
        return new

    def _redeal(self, player: int, seed: int) -> "BonesState":
        """While dealing: the dominoes dealt to the other seats drawn again."""
        rng = random.Random(seed)
        own = {d for i, d in enumerate(self._deal) if self._c.holder(i) == player}
        new = self.get_game().new_initial_state()
        for i, d in enumerate(self._deal):
            if self._c.holder(i) != player:
                outcomes = [(a, p) for a, p in new.chance_outcomes() if a not in own]
                d = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            new.apply_action(d)
        return new

    @property
    def table(self) -> Optional[_bones.Table]:
        """The Bones table (full information: for tools, not for players);
        None while the deal is dealt."""
        return self._t


class BonesObserver:
    """OpenSpiel's Python observer for a Bones game: the tensor is the seat's
    Bones observation (its named segments in ``dict``), the string its view."""

    def __init__(self, cfg: _Config, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{cfg.name}: observation parameters are not supported; got {params}")
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{cfg.name}: only a seat's own observation is offered (public_info=True, "
                f"private_info=SINGLE_PLAYER); got {iig_obs_type}"
            )
        self.tensor = np.zeros(cfg.obs_len, np.float32)
        self.dict = {name: self.tensor[off:off + length] for name, off, length in cfg.segments}

    def set_from(self, state: BonesState, player: int) -> None:
        if state._t is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state._t.observe(player)[0]

    def string_from(self, state: BonesState, player: int) -> str:
        return state.info_text(player)


def _game_type(game: str) -> pyspiel.GameType:
    players = {"texas42": (4, 4), "doubles": (2, 4)}[game]
    return pyspiel.GameType(
        short_name=GAME_NAMES[game],
        long_name={"texas42": "Texas 42 (Bones)", "doubles": "Doubles (Bones)"}[game],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_rule_params(game),
    )


class Texas42Game(BonesGame):
    """``bones_texas42``: one hand of Texas 42. Parameters: the rules keys
    (``variants``: ``none`` or names joined by ``+``, ``all_pass``, ``early_end``,
    ``scoring``, ``nello_min_marks``, ``nello_doubles``) and ``dealer`` (the
    shaker, 0..3)."""

    game = "texas42"
    game_type = _game_type("texas42")


class DoublesGame(BonesGame):
    """``bones_doubles``: one round of Doubles. Parameters: ``players`` (2, 3
    or 4) and ``blocked_tie``."""

    game = "doubles"
    game_type = _game_type("doubles")
