"""What the AEC and Gymnasium environments share about rendering: the one
render mode offered, ``"ansi"`` (the table as text, ``bones._bones.Table.render``)."""

from __future__ import annotations

from typing import Optional

import gymnasium

from bones import _bones

#: The render modes of every bones environment.
RENDER_MODES = ["ansi"]


def check_render_mode(render_mode: Optional[str]) -> None:
    """Raises :class:`bones.BonesError` unless ``render_mode`` is None or ``"ansi"``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise _bones.BonesError(f"bad render_mode {render_mode!r}: expected None or 'ansi'")


def render(table: _bones.Table, render_mode: Optional[str]) -> Optional[str]:
    """The table as text under ``render_mode="ansi"``; None (with a warning) without a render mode."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi'")
        return None
    return table.render()
