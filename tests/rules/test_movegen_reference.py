"""The fast generator against the simple reference generator: 0 differences allowed."""

from __future__ import annotations

import random

from hypothesis import given, settings

from fibsd.rules.movegen import legal_plays
from fibsd.rules.position import Position

from .generators import (
    dice,
    positions,
    random_dice,
    random_game_positions,
    random_position,
)
from .reference import reference_results


def test_ten_thousand_seeded_positions_and_rolls() -> None:
    rng = random.Random(20261121)
    cases = [random_position(rng) for _ in range(7000)] + random_game_positions(
        rng, 3000
    )
    differences = []
    for position in cases:
        roll = random_dice(rng)
        fast = {p.result for p in legal_plays(position, roll)}
        if fast != reference_results(position, roll):
            differences.append((position.to_hex(), roll))
    assert len(cases) == 10000
    assert differences == []


@settings(max_examples=300)
@given(positions, dice)
def test_hypothesis_positions(position: Position, roll: tuple[int, int]) -> None:
    assert {p.result for p in legal_plays(position, roll)} == reference_results(
        position, roll
    )
