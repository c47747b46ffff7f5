"""Cross-check against GNU Backgammon's own move generator (PyPI `gnubg-nn`).

GPL code, used only here in the tests, never imported by the server. When `gnubg-nn` is
one of the project's declared test requirements the test fails if it cannot be imported,
so it is never skipped silently; otherwise it is skipped with the reason shown.
"""

from __future__ import annotations

import importlib.metadata
import random
from types import ModuleType

import pytest

from fibsd.rules.movegen import legal_plays
from fibsd.rules.position import BAR, CHECKERS, Position

from .generators import random_dice, random_game_positions, random_position

REQUIREMENT = "gnubg-nn==1.1.0a11"


def _declared() -> bool:
    try:
        requires = importlib.metadata.requires("fibsd") or []
    except importlib.metadata.PackageNotFoundError:
        return False
    return any(r.replace(" ", "").startswith("gnubg-nn") for r in requires)


def _gnubg() -> ModuleType:
    try:
        import gnubg_nn  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        if _declared():
            raise
        pytest.skip(f"{REQUIREMENT} not installed (not in the test extras)")
    module: ModuleType = gnubg_nn
    return module


def _board(position: Position) -> list[list[int]]:
    # gnubg's board: [player not on roll, player on roll], points 1..24 then the bar
    return [list(position.opp[1 : BAR + 1]), list(position.me[1 : BAR + 1])]


def _position(me25: tuple[int, ...], opp25: tuple[int, ...]) -> Position:
    me = (CHECKERS - sum(me25), *me25)
    opp = (CHECKERS - sum(opp25), *opp25)
    return Position(me, opp)


def gnubg_results(
    gnubg: ModuleType, position: Position, dice: tuple[int, int]
) -> set[Position]:
    keys = gnubg.moves(_board(position), dice[0], dice[1])
    if not keys:
        return {position}
    out = set()
    for key in keys:
        opp25, me25 = gnubg.board_from_position_key(key)
        out.add(_position(tuple(me25), tuple(opp25)))
    return out


def test_gnubg_agrees_on_generated_positions() -> None:
    gnubg = _gnubg()
    rng = random.Random(1107)
    cases = [random_position(rng) for _ in range(1500)] + random_game_positions(
        rng, 1500
    )
    differences = []
    for position in cases:
        dice = random_dice(rng)
        ours = {p.result for p in legal_plays(position, dice)}
        if ours != gnubg_results(gnubg, position, dice):
            differences.append((position.to_hex(), dice))
    assert differences == []


def test_gnubg_opening_sanity() -> None:
    gnubg = _gnubg()
    assert len(gnubg_results(gnubg, Position.opening(), (3, 1))) == 16
