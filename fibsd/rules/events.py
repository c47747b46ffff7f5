"""Past-tense domain events returned by accepted game and match actions.

Owns the event classes, `GameResult` (single/gammon/backgammon), `WinKind`, and their
JSON-able form (`event_to_dict` / `event_from_dict`), which the per-game history and the
saved matches use. Events are plain immutable values: they say what happened, never how
to word it.
"""

from __future__ import annotations

import enum
from typing import Any, TypeAlias

import attrs

from .movegen import Move


class GameResult(enum.Enum):
    """How much a game is worth before the cube: the value is the multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class WinKind(enum.Enum):
    """How a game ended."""

    BORNE_OFF = enum.auto()
    DOUBLE_PASSED = enum.auto()
    RESIGNED = enum.auto()


@attrs.frozen
class GameStarted:
    game_number: int  # 1-based within the match
    crawford: bool  # this is the Crawford game (no doubling)
    post_crawford: bool


@attrs.frozen
class OpeningRolled:
    """Each player rolled one die (die0 for player 0); equal dice mean a re-roll."""

    die0: int
    die1: int


@attrs.frozen
class CubeAutoDoubled:
    """An opening tie doubled the centred cube (money play, up to the maximum)."""

    cube: int


@attrs.frozen
class DiceRolled:
    player: int
    dice: tuple[int, int]


@attrs.frozen
class CheckersMoved:
    player: int
    dice: tuple[int, int]
    moves: tuple[Move, ...]


@attrs.frozen
class TurnPassed:
    """The roll had no legal play; the turn went to the opponent."""

    player: int
    dice: tuple[int, int]


@attrs.frozen
class CubeOffered:
    player: int
    cube: int  # the value if taken


@attrs.frozen
class CubeTaken:
    player: int
    cube: int  # new value; the taker owns the cube


@attrs.frozen
class CubePassed:
    player: int
    cube: int  # the value lost


@attrs.frozen
class Beavered:
    """The doubled player took and at once redoubled, keeping the cube."""

    player: int
    cube: int


@attrs.frozen
class Raccooned:
    """The doubler answered a beaver by redoubling again; the beaverer keeps the cube."""

    player: int
    cube: int


@attrs.frozen
class ResignationOffered:
    player: int
    result: GameResult
    points: int  # what accepting would give the opponent (value x cube, Jacoby applied)


@attrs.frozen
class ResignationAccepted:
    player: int  # the player who accepted


@attrs.frozen
class ResignationRejected:
    player: int  # the player who rejected


@attrs.frozen
class GameWon:
    winner: int
    result: GameResult
    cube: int
    points: int  # value x cube (Jacoby applied): what the match score gains
    how: WinKind


@attrs.frozen
class ScoreChanged:
    """The match score after a game: the game's full points added (no cap at the length)."""

    winner: int
    points: int
    score: tuple[int, int]


@attrs.frozen
class MatchWon:
    winner: int
    score: tuple[int, int]


Event: TypeAlias = (
    GameStarted
    | OpeningRolled
    | CubeAutoDoubled
    | DiceRolled
    | CheckersMoved
    | TurnPassed
    | CubeOffered
    | CubeTaken
    | CubePassed
    | Beavered
    | Raccooned
    | ResignationOffered
    | ResignationAccepted
    | ResignationRejected
    | GameWon
    | ScoreChanged
    | MatchWon
)

_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        OpeningRolled,
        CubeAutoDoubled,
        DiceRolled,
        CheckersMoved,
        TurnPassed,
        CubeOffered,
        CubeTaken,
        CubePassed,
        Beavered,
        Raccooned,
        ResignationOffered,
        ResignationAccepted,
        ResignationRejected,
        GameWon,
        ScoreChanged,
        MatchWon,
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-able form: {"type": class name, field: value, ...}."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if field.name == "moves":
            value = [[m.from_point, m.to_point, m.hit] for m in value]
        elif isinstance(value, enum.Enum):
            value = value.name
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of `event_to_dict`; raises ValueError on an unknown type or bad field."""
    try:
        cls = _CLASSES[data["type"]]
        kwargs: dict[str, Any] = {}
        for field in attrs.fields(cls):
            value = data[field.name]
            if field.name == "moves":
                value = tuple(Move(int(f), int(t), bool(h)) for f, t, h in value)
            elif field.name == "result":
                value = GameResult[value]
            elif field.name == "how":
                value = WinKind[value]
            elif isinstance(value, list):
                value = tuple(int(v) for v in value)
            kwargs[field.name] = value
        event: Event = cls(**kwargs)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not an event: {data!r}") from exc
    return event
