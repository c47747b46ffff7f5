"""Events: every kind survives the JSON form used by histories and saved matches."""

from __future__ import annotations

import json

import pytest

from fibsd.rules.events import (
    Beavered,
    CheckersMoved,
    CubeAutoDoubled,
    CubeOffered,
    CubePassed,
    CubeTaken,
    DiceRolled,
    Event,
    GameResult,
    GameStarted,
    GameWon,
    MatchWon,
    OpeningRolled,
    Raccooned,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    ScoreChanged,
    TurnPassed,
    WinKind,
    event_from_dict,
    event_to_dict,
)
from fibsd.rules.movegen import Move
from fibsd.rules.position import BAR, OFF

SAMPLES: list[Event] = [
    GameStarted(3, True, False),
    OpeningRolled(6, 2),
    CubeAutoDoubled(4),
    DiceRolled(1, (5, 5)),
    CheckersMoved(0, (6, 1), (Move(BAR, 19, True), Move(2, OFF))),
    TurnPassed(1, (6, 6)),
    CubeOffered(0, 2),
    CubeTaken(1, 2),
    CubePassed(1, 2),
    Beavered(1, 4),
    Raccooned(0, 8),
    ResignationOffered(0, GameResult.BACKGAMMON, 6),
    ResignationAccepted(1),
    ResignationRejected(1),
    GameWon(1, GameResult.GAMMON, 2, 4, WinKind.BORNE_OFF),
    ScoreChanged(1, 3, (2, 3)),
    MatchWon(1, (2, 5)),
]


def test_every_event_kind_is_sampled() -> None:
    from fibsd.rules import events

    assert {type(e).__name__ for e in SAMPLES} == set(events._CLASSES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_json_round_trip(event: Event) -> None:
    data = json.loads(json.dumps(event_to_dict(event)))
    assert data["type"] == type(event).__name__
    restored = event_from_dict(data)
    assert restored == event
    assert type(restored) is type(event)


def test_moves_come_back_as_moves() -> None:
    restored = event_from_dict(event_to_dict(SAMPLES[4]))
    assert isinstance(restored, CheckersMoved)
    assert all(isinstance(m, Move) for m in restored.moves)
    assert restored.moves[0].hit


@pytest.mark.parametrize(
    "data",
    [{"type": "Nonsense"}, {"type": "CubeTaken", "player": 1}, {}],
)
def test_malformed_events_are_value_errors(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        event_from_dict(data)
