"""The fast generator against GNU Backgammon's complete result sets (3,000 positions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fibsd.rules.movegen import legal_plays, moves_required
from fibsd.rules.position import Position
from fibsd.rules.validate import validate_play

# Computed by GNU Backgammon's move generator; the format is in tests/data/README.md.
CORPUS = Path(__file__).resolve().parents[1] / "data" / "legal-plays.jsonl"


def load_corpus() -> list[tuple[Position, tuple[int, int], list[str]]]:
    rows: list[tuple[Position, tuple[int, int], list[str]]] = []
    with CORPUS.open() as f:
        for line in f:
            row = json.loads(line)
            rows.append(
                (
                    Position.from_hex(row["me"], row["opp"]),
                    (row["dice"][0], row["dice"][1]),
                    row["results"],
                )
            )
    return rows


@pytest.fixture(scope="module")
def corpus() -> list[tuple[Position, tuple[int, int], list[str]]]:
    assert CORPUS.exists(), f"reference data missing: {CORPUS}"
    return load_corpus()


def test_corpus_is_complete(
    corpus: list[tuple[Position, tuple[int, int], list[str]]],
) -> None:
    assert len(corpus) == 3000


def test_every_result_set_matches_gnubg(
    corpus: list[tuple[Position, tuple[int, int], list[str]]],
) -> None:
    differences = []
    for position, dice, expected in corpus:
        got = sorted(p.result.to_hex52() for p in legal_plays(position, dice))
        if got != expected:
            differences.append((position.to_hex(), dice))
    assert differences == []


def test_moves_required_and_validation_agree_with_every_play(
    corpus: list[tuple[Position, tuple[int, int], list[str]]],
) -> None:
    for position, dice, _ in corpus:
        plays = legal_plays(position, dice)
        required = moves_required(position, dice)
        assert {len(p.moves) for p in plays} == {required}
        for play in plays:
            # typed in the opposite order (the generated order is the same path, and
            # the validation tests shuffle the order anyway)
            steps = [(m.from_point, m.to_point) for m in play.moves][::-1]
            assert validate_play(position, dice, steps).result == play.result
