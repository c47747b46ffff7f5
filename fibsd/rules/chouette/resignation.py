"""Resignations, per contract (C51, C52), and a side that runs out of time (K6).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import GameResult
from ..game import GamePhase
from .contracts import Contract, Holder, Kind
from .events import (
    AnyEvent,
    Cause,
    ResignationAnswered,
    ResignationOffered,
)
from .settlement import after_settlements, end_game, settle
from .state import (
    ChouetteState,
    R,
    _refuse,
)


def resign(
    t: ChouetteState,
    name: str,
    result: GameResult,
    targets: Sequence[str] | None = None,
) -> list[AnyEvent]:
    """A live member resigns his main contract to the box; the box resigns to
    `targets` or to every live member. Each answerer accepts or rejects."""
    game = t._playing()
    t._partner_pending()
    if not isinstance(result, GameResult):
        _refuse(R.WRONG_PHASE, f"not a result: {result!r}")
    if t._offers:
        _refuse(R.ANSWERS_PENDING)
    if game.phase not in (GamePhase.AWAITING_ROLL, GamePhase.AWAITING_MOVE):
        _refuse(R.WRONG_PHASE, "resign during play")
    chosen: list[Contract]
    if name == t._box:
        side = Holder.BOX
        live = [c for c in t._contracts if c.kind is Kind.MAIN and c.live]
        if targets is None:
            chosen = live
        else:
            chosen = []
            for target in dict.fromkeys(targets):
                found = [c for c in live if c.member == target]
                if not found:
                    _refuse(R.NOT_LIVE, f"{target} holds no live contract")
                chosen.extend(found)
    else:
        side = Holder.TEAM
        c = t.main_of(name)
        if c is None or not c.live or targets:
            _refuse(R.NOT_LIVE, f"{name} holds no live contract")
        chosen = [c]
    if not chosen:
        _refuse(R.NOT_LIVE, "no live contract to resign")
    if any(c.cid in t._resigns for c in chosen):
        _refuse(R.RESIGNATION_PENDING)
    events: list[AnyEvent] = []
    for c in chosen:
        t._resigns[c.cid] = (side, result)
        events.append(
            ResignationOffered(
                c.cid,
                name,
                c.player_of(side.other),
                result,
                c.value * t._k(c, result),
            )
        )
    return events


def answer_resignation(
    t: ChouetteState, name: str, accept: bool, targets: Sequence[str] | None = None
) -> list[AnyEvent]:
    t._playing()
    pending = [
        cid
        for cid, (side, _) in t._resigns.items()
        if t.contract(cid).player_of(side.other) == name
        and (
            targets is None or t.contract(cid).player_of(t._resigns[cid][0]) in targets
        )
    ]
    if not pending:
        _refuse(R.NO_RESIGNATION, f"nobody resigned to {name}")
    events: list[AnyEvent] = []
    for cid in pending:
        side, result = t._resigns.pop(cid)
        events.append(ResignationAnswered(cid, name, accept))
        if not accept:
            continue
        c = t.contract(cid)
        if c.member == t._captain:
            t._captain_fate = side is Holder.BOX
        settle(
            t,
            c,
            side.other,
            c.value * t._k(c, result),
            Cause.RESIGN,
            result,
            events,
        )
    after_settlements(t, events)
    return events


def time_out(t: ChouetteState, side: Holder) -> list[AnyEvent]:
    """`side`'s clock ran out (club-play.md K6, the server's clock): that side loses the
    game as a resignation of a single game would, every live contract settling at its
    cube's value (doubles and resignations still pending are void), and the game ends as
    any game does: rotation, the partner's share, the record."""
    t._playing()
    winner_side = side.other
    t._offers.clear()
    t._resigns.clear()
    events: list[AnyEvent] = []
    for c in list(t._contracts):
        if c.live:
            settle(t, c, winner_side, c.value, Cause.TIME, GameResult.SINGLE, events)
    if t._decided is None:
        t._decided = winner_side
    end_game(t, events)
    return events
