"""Small builders for readable test positions."""

from __future__ import annotations

from collections.abc import Iterable

from fibsd.rules.movegen import Play
from fibsd.rules.position import CHECKERS, OFF, Position


def side(points: dict[int, int]) -> tuple[int, ...]:
    """A side from {point: count} in its own perspective; the rest are borne off."""
    counts = [0] * 26
    for point, n in points.items():
        counts[point] += n
    counts[OFF] += CHECKERS - sum(counts)
    assert counts[OFF] >= 0
    return tuple(counts)


def pos(me: dict[int, int], opp: dict[int, int]) -> Position:
    """Mover and opponent (each {own point: count}); checked for consistency."""
    position = Position(side(me), side(opp))
    position.check()
    return position


def results(plays: Iterable[Play]) -> set[Position]:
    """The resulting positions of some plays."""
    return {p.result for p in plays}
