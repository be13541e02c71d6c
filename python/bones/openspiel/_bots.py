"""Bots across the two libraries: Bones' agents as OpenSpiel bots
(:class:`BonesBot`, for ``evaluate_bots`` and anything else that steps
``pyspiel.Bot``\\ s), OpenSpiel's ISMCTS on a Bones game (:func:`ismcts_bot`),
and any OpenSpiel bot seated in :func:`bones.evaluate` (:class:`BotSeat`)."""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bones
from bones._bones import Table
from bones.openspiel._game import BonesGame, BonesState

# UCT's exploration constant by default, in the units of each game's returns
# (Texas 42: marks, about 1 a hand; Doubles: points, tens a round).
_UCT_C = {"texas42": 2.0, "doubles": 40.0}


def _bones_game(game) -> BonesGame:
    if not isinstance(game, BonesGame):
        raise pyspiel.SpielError(f"expected a Bones game (bones_texas42 or bones_doubles); got {game}")
    return game


class BonesBot(pyspiel.Bot):
    """A Bones agent (a spec of ``bones agents``: ``heuristic``,
    ``pimc:worlds=N``, ``search``, ``model:PATH`` ...) as an OpenSpiel bot of
    a Bones game. It acts from the view of the seat to move only, as in
    ``bones eval``; ``seed`` seeds its random stream (restarted by
    ``restart``/``restart_at``)."""

    def __init__(self, game, spec: str, seed: int = 0):
        pyspiel.Bot.__init__(self)
        cfg = _bones_game(game).cfg
        self._seed = seed
        try:
            self._agent = bones.Agent(spec, game=cfg.game, rules=cfg.rules, players=cfg.players, seed=seed)
        except bones.BonesError as e:
            raise pyspiel.SpielError(f"{cfg.name}: {e}") from None

    @property
    def spec(self) -> str:
        """The agent's spec in canonical form."""
        return self._agent.spec

    def step(self, state: BonesState) -> int:
        if state.table is None:
            raise pyspiel.SpielError("a Bones bot acts for a seat, not at a chance node of the deal")
        return self._agent.act(state.table)

    def restart(self) -> None:
        self._agent.reseed(self._seed)

    def restart_at(self, state) -> None:
        self._agent.reseed(self._seed)


def ismcts_bot(
    game,
    max_simulations: int = 100,
    *,
    seed: int = 0,
    uct_c: Optional[float] = None,
    rollouts: int = 1,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.
    ismcts``, Cowling et al. 2011) on a Bones game: ``max_simulations``
    simulations per decision, each from a state drawn by Bones' sampler
    (``resample_from_infostate``) and ending in ``rollouts`` random play-outs;
    UCT with ``uct_c`` (default 2 for Texas 42's marks, 40 for Doubles'
    points); the most visited action. Everything it draws comes from ``seed``
    (taken mod 2**32)."""
    cfg = _bones_game(game).cfg
    rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=_UCT_C[cfg.game] if uct_c is None else uct_c,
        max_simulations=max_simulations,
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    # Bones' sampler seeded from the bot's own stream (reproducible).
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    return bot


class BotSeat:
    """An OpenSpiel bot as one side of :func:`bones.evaluate` (and so of the
    arena's duplicate deals): ``bones.evaluate(BotSeat(game, make_bot, name),
    "heuristic", hands=..., game=..., rules=...)``. At each of its decisions
    the evaluation hands it a one-deal table whose dominoes the seat cannot see
    are drawn by Bones' sampler (so the bot cannot see more than the seat
    knows), and a seed from the seat's random stream; ``make_bot(seed)``
    makes the bot that steps the state at that table. The evaluation's game,
    rules and players must be ``game``'s. It plays on one thread."""

    def __init__(self, game, make_bot: Callable[[int], pyspiel.Bot], name: str):
        self.game = _bones_game(game)
        self.make_bot = make_bot
        #: Its name in the evaluation's report (``python:NAME``).
        self.name = name

    def act_table(self, table: Table, seed: int) -> int:
        """The bot's action id at ``table`` (the seat to move)."""
        state = self.game.state_from_table(table)
        return int(self.make_bot(seed).step(state))


def ismcts_seat(game, max_simulations: int = 100, **kwargs) -> BotSeat:
    """:func:`ismcts_bot` as a side of :func:`bones.evaluate`, named
    ``ismcts:sims=N``; ``kwargs`` as :func:`ismcts_bot` takes them (not
    ``seed``: each decision's seed comes from the evaluation)."""
    return BotSeat(
        game,
        lambda seed: ismcts_bot(game, max_simulations, seed=seed, **kwargs),
        f"ismcts:sims={max_simulations}",
    )
