"""Bones: domino games (Texas 42, Doubles) as reinforcement-learning environments.

Thin Python over the Rust engine (the extension module ``bones._bones``).
"""

from bones._bones import BonesError

__all__ = ["BonesError"]
