"""Texas 42 and Doubles in OpenSpiel (``pip install "./python[openspiel]"``).

Importing this module registers two games with ``pyspiel.register_game``:

- ``bones_texas42``: one hand of Texas 42. Parameters: the rules keys of
  docs/rules.md (``variants``: ``none`` or names joined by ``+``, e.g.
  ``nel-o+sevens``; ``all_pass``, ``early_end``, ``scoring``,
  ``nello_min_marks``, ``nello_doubles``) and ``dealer`` (the shaker, 0..3).
- ``bones_doubles``: one round of Doubles. Parameters: ``players`` (2, 3 or 4)
  and ``blocked_tie``.

Both are sequential, imperfect-information, zero-sum games with the deal as
chance outcomes, played by the Bones engine; see :mod:`bones.openspiel._game`
for the conventions (chance, actions, returns, tensors, strings, resampling).
Bad parameters raise OpenSpiel's ``pyspiel.SpielError`` with Bones' reason.

The three-line start (load, play a hand, evaluate)::

    import pyspiel, bones, bones.openspiel as bos
    game = pyspiel.load_game("bones_texas42")
    print(pyspiel.evaluate_bots(game.new_initial_state(), [bos.ismcts_bot(game, 100), *(bos.BonesBot(game, "heuristic") for _ in range(3))], 1))
    print(bones.evaluate(bos.ismcts_seat(game, 100), "heuristic", hands=8))

Bots: :class:`BonesBot` (a Bones agent spec as a ``pyspiel.Bot``),
:func:`ismcts_bot` (OpenSpiel's ISMCTS with Bones' sampler), :class:`BotSeat`
and :func:`ismcts_seat` (an OpenSpiel bot as a side of :func:`bones.evaluate`).
"""

from __future__ import annotations

import pyspiel

from bones.openspiel._bots import BonesBot, BotSeat, ismcts_bot, ismcts_seat
from bones.openspiel._game import GAME_NAMES, BonesGame, BonesObserver, BonesState, DoublesGame, Texas42Game


def load(game: str = "texas42", **params) -> BonesGame:
    """``pyspiel.load_game`` of the Bones game ``game`` (``texas42`` or
    ``doubles``, or its OpenSpiel name) with ``params``."""
    name = GAME_NAMES.get(game, game)
    if name not in GAME_NAMES.values():
        raise pyspiel.SpielError(f"unknown Bones game `{game}`: expected texas42 or doubles")
    return pyspiel.load_game(name, params)


for _game in (Texas42Game, DoublesGame):
    if _game.game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_game.game_type, _game)

__all__ = [
    "GAME_NAMES",
    "BonesBot",
    "BonesGame",
    "BonesObserver",
    "BonesState",
    "BotSeat",
    "DoublesGame",
    "Texas42Game",
    "ismcts_bot",
    "ismcts_seat",
    "load",
]
