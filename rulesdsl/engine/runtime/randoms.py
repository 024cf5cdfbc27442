"""The game's random numbers: SplitMix64, a small generator whose whole state is one
64-bit integer (easy to save, to clone and to seed a sample from)."""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, 64 random bits). Small state, easy to save."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)
