"""Texas 42 as a PettingZoo AEC environment (``bones.texas42_v0.env()``).

Four agents ``player_0`` .. ``player_3`` in two partnerships (0 and 2 against
1 and 3); 61 actions (bids, trumps, plays: docs/interfaces/encodings.md);
observation float32[914].
"""

from __future__ import annotations

from typing import Any, Optional

from bones._aec import BonesAECEnv, OrderEnforcing


class raw_env(BonesAECEnv):
    """Texas 42 (the unwrapped AEC environment).

    ``rules``: a rules object (dict), a preset name (``"standard"``, ``"full"``,
    ``"dropped30"``) or JSON text; ``episode``: ``"hand"`` (one hand) or ``"game"`` (to 7
    marks); ``render_mode``: None or ``"ansi"``; ``max_steps``: truncate after
    that many decisions.
    """

    metadata = {"render_modes": ["ansi"], "name": "texas42_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        rules: Any = None,
        episode: str = "hand",
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
    ):
        super().__init__("texas42", rules, None, episode, render_mode, max_steps)


def env(**kwargs) -> OrderEnforcing:
    """Texas 42 wrapped as PettingZoo's classic games are (order enforcing)."""
    return OrderEnforcing(raw_env(**kwargs))
