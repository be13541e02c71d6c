"""Doubles as a PettingZoo AEC environment (``bones.doubles_v0.env(players=4)``).

2, 3 or 4 agents ``player_0`` ..., each for themself; 58 actions (openings,
attachments, ``draw``, ``pass``: docs/interfaces/encodings.md); observation float32[597].
"""

from __future__ import annotations

from typing import Any, Optional

from bones._aec import BonesAECEnv, OrderEnforcing


class raw_env(BonesAECEnv):
    """Doubles (the unwrapped AEC environment).

    ``players``: 2, 3 or 4; ``rules``: a rules object (dict), ``"standard"`` or
    JSON text; ``episode``: ``"hand"`` (one round) or ``"game"`` (to the
    target); ``render_mode``: None or ``"ansi"``; ``max_steps``: truncate after
    that many decisions.
    """

    metadata = {"render_modes": ["ansi"], "name": "doubles_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        players: int = 4,
        rules: Any = None,
        episode: str = "hand",
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
    ):
        super().__init__("doubles", rules, players, episode, render_mode, max_steps)


def env(**kwargs) -> OrderEnforcing:
    """Doubles wrapped as PettingZoo's classic games are (order enforcing)."""
    return OrderEnforcing(raw_env(**kwargs))
