"""Past-tense events returned by every accepted chouette action.

Owns the chouette's event classes and their JSON-able form (`chouette_event_to_dict`).
They say what happened, by player name, never how to word it: the server turns them
into `Chouette:` status lines and boards. A chouette action's event list may also hold
the two-player engine's board events (`OpeningRolled`, `DiceRolled`, `CheckersMoved`,
`TurnPassed`, `GameWon`), player 0 being the box and player 1 the team's captain.
"""

from __future__ import annotations

import enum
from typing import Any, TypeAlias, get_args, get_origin, get_type_hints

import attrs

from ..events import Event as BoardEvent
from ..events import GameResult, event_from_dict, event_to_dict


class Answer(enum.Enum):
    """An answer to a double on one contract."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


class Cause(enum.Enum):
    """Why a contract settled or money moved (ledger rows, C76)."""

    DROP = "drop"  # a double was dropped: the value before it
    RESULT = "result"  # the board's result (single/gammon/backgammon)
    RESIGN = "resign"  # an accepted resignation
    ABANDON = "abandon"  # a player left with live contracts (C70)
    EXTRA_FEE = (
        "extra_fee"  # the point a dropper pays the lone taker for an extra (C47)
    )
    EXTRA_CLOSE = "extra_close"  # an extra still live when the game ended early (C55)
    PARTNER_SPLIT = "partner_split"  # the box side's net shared with the partner (C53)
    TIME = "time"  # a side's clock ran out: a single game at the cube's value (K6)


@attrs.frozen
class PlayerJoined:
    name: str
    position: int  # 0-based place in the queue (-1: placed after the running game)


@attrs.frozen
class PlayerLeft:
    name: str


@attrs.frozen
class LeaveDeferred:
    """He holds live contracts: he leaves when the game ends (C67)."""

    name: str


@attrs.frozen
class SittingOut:
    name: str
    on: bool


@attrs.frozen
class OrderRolled:
    """One die each for the initial order (C21); `tied` must roll again."""

    dice: tuple[tuple[str, int], ...]
    tied: tuple[str, ...]


@attrs.frozen
class OrderDecided:
    queue: tuple[str, ...]


@attrs.frozen
class ChouetteGameStarted:
    game_number: int
    box: str
    partner: str | None
    captain: str
    crew: tuple[str, ...]


@attrs.frozen
class PartnerOffered:
    name: str


@attrs.frozen
class PartnerDeclined:
    name: str


@attrs.frozen
class PartnerDrawNeeded:
    """Nobody accepted: the server draws one of `candidates` at random (C61)."""

    candidates: tuple[str, ...]


@attrs.frozen
class PartnerChosen:
    name: str
    captain: str  # the captain from now on (changes when the captain became partner)


@attrs.frozen
class CubesAutoDoubled:
    """An opening tie doubled every centred cube (C50)."""

    value: int


@attrs.frozen
class Doubled:
    """`doubler` offered the cube of contract `cid` to `answerer`."""

    cid: int
    doubler: str
    answerer: str
    value: int  # the value if taken


@attrs.frozen
class AnswerSealed:
    """A member answered the box's double; answers are shown together (C29)."""

    name: str


@attrs.frozen
class DoubleAnswered:
    """The answer on one contract, once it is final (after any C44 change)."""

    cid: int
    answerer: str
    doubler: str
    answer: Answer
    value: int  # the contract's value after the answer (a drop: the value paid)
    forced: bool = False  # C44 changed it (the lone taker)
    proxied: bool = False  # given for an absent or silent member (C29, C71)
    follows: str | None = None  # proxied: the delegate whose answer he copied (C71)
    defaulted: bool = False  # proxied with nobody's answer to copy: a drop by default


@attrs.frozen
class Raccooned:
    cid: int
    by: str
    value: int


@attrs.frozen
class CaptainChanged:
    old: str
    new: str | None  # None: nobody on the team is live any more
    old_to_end: bool  # the old captain went to the end of the queue at once (C36)


@attrs.frozen
class ExtrasOpen:
    """C46: the droppers may each give the lone taker an extra 2-cube."""

    taker: str
    givers: tuple[str, ...]
    fee: int
    value: int


@attrs.frozen
class ExtraGiven:
    cid: int
    giver: str
    taker: str
    fee: int
    value: int


@attrs.frozen
class ExtraDeclined:
    giver: str


@attrs.frozen
class ResignationOffered:
    cid: int
    resigner: str
    answerer: str
    result: GameResult
    amount: int  # what accepting would cost the resigner


@attrs.frozen
class ResignationAnswered:
    cid: int
    answerer: str
    accepted: bool


@attrs.frozen
class ProxySet:
    """A member follows the captain from now on (C71), or `to`, the team member he
    delegated his cube to (`chouette delegate`); or he is back in control."""

    name: str
    on: bool
    to: str | None = None


@attrs.frozen
class ContractSettled:
    cid: int
    winner: str
    loser: str
    value: int
    cause: Cause
    result: GameResult | None
    amount: int


@attrs.frozen
class MoneyMoved:
    """Money that is no contract's settlement: extra fees and the partner's split."""

    payer: str
    payee: str
    amount: int
    cause: Cause


@attrs.frozen
class ChouetteGameOver:
    game_number: int
    box_won: bool  # the box beat the captain who counts for the rotation (C56)
    deltas: tuple[tuple[str, int], ...]  # every player with money moved this game
    queue: tuple[str, ...]  # the next queue (box first)


@attrs.frozen
class TableClosed:
    totals: tuple[tuple[str, int], ...]


ChouetteEvent: TypeAlias = (
    PlayerJoined
    | PlayerLeft
    | LeaveDeferred
    | SittingOut
    | OrderRolled
    | OrderDecided
    | ChouetteGameStarted
    | PartnerOffered
    | PartnerDeclined
    | PartnerDrawNeeded
    | PartnerChosen
    | CubesAutoDoubled
    | Doubled
    | AnswerSealed
    | DoubleAnswered
    | Raccooned
    | CaptainChanged
    | ExtrasOpen
    | ExtraGiven
    | ExtraDeclined
    | ResignationOffered
    | ResignationAnswered
    | ProxySet
    | ContractSettled
    | MoneyMoved
    | ChouetteGameOver
    | TableClosed
)
AnyEvent: TypeAlias = ChouetteEvent | BoardEvent


def _plain(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def chouette_event_to_dict(event: AnyEvent) -> dict[str, Any]:
    """JSON-able form of any event a chouette action returns ({"type": ..., ...});
    board events use the two-player engine's own form."""
    if not type(event).__module__.endswith("chouette.events"):
        return event_to_dict(event)  # type: ignore[arg-type]
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in attrs.fields(type(event)):
        out[field.name] = _plain(getattr(event, field.name))
    return out


_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in get_args(ChouetteEvent) if attrs.has(cls)
}


def _from_plain(tp: Any, value: Any) -> Any:
    """A field's value from its JSON form, by its annotation."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_plain(args[0], v) for v in value)
        return tuple(_from_plain(a, v) for a, v in zip(args, value, strict=True))
    if args and type(None) in args:  # X | None
        if value is None:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _from_plain(inner, value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp[value]
    if tp in (str, int, bool) and not isinstance(value, tp):
        raise TypeError(f"{value!r} is not {tp.__name__}")
    return value


def chouette_event_from_dict(data: dict[str, Any]) -> AnyEvent:
    """Inverse of `chouette_event_to_dict`; ValueError on an unknown type or field."""
    cls = _CLASSES.get(data.get("type", "")) if isinstance(data, dict) else None
    if cls is None:
        return event_from_dict(data)
    try:
        hints = get_type_hints(cls)
        kwargs = {
            f.name: _from_plain(hints[f.name], data[f.name]) for f in attrs.fields(cls)
        }
        event: AnyEvent = cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a chouette event: {data!r}") from exc
    return event
