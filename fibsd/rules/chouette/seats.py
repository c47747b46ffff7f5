"""Seats, the initial order and a game's start: join, leave, sit out, close (C18, C21,
C22, C65-C69).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cube import CubeRules
from ..events import GameStarted
from ..game import Game
from .absence import abandon
from .contracts import Kind
from .events import (
    AnyEvent,
    ChouetteGameStarted,
    LeaveDeferred,
    OrderDecided,
    OrderRolled,
    PlayerJoined,
    PlayerLeft,
    SittingOut,
    TableClosed,
)
from .partner import begin_partner
from .settings import (
    START_MIN,
    JoinMode,
    PartnerMode,
)
from .settlement import move_to_end
from .state import (
    ChouetteState,
    R,
    TableAction,
    TablePhase,
    _refuse,
    active_in_order,
)


def join(t: ChouetteState, name: str) -> list[AnyEvent]:
    """C65: newcomers go to the end of the queue (or, with join=behind_loser while
    a game runs, behind its loser when it ends); they play from the next game."""
    if t._phase is TablePhase.CLOSED:
        _refuse(R.CLOSED)
    if name in t.seated:
        _refuse(R.ALREADY_SEATED, name)
    if len(t.seated) >= t.settings.seats_max:
        _refuse(R.TABLE_FULL)
    if t._phase is TablePhase.ORDERING:
        t._order_joiners.append(name)
        return [PlayerJoined(name, -1)]
    if t._game is not None and t.settings.join is JoinMode.BEHIND_LOSER:
        t._joiners.append(name)
        return [PlayerJoined(name, -1)]
    t._queue.append(name)
    return [PlayerJoined(name, len(t._queue) - 1)]


def leave(
    t: ChouetteState, name: str, now: bool = False, keep_seat: bool = False
) -> list[AnyEvent]:
    """C66-C68: out at once when he holds no live contract; else deferred to the
    game's end (C67), or with `now` abandoned at the worst result (C70). The
    partner's leave is always deferred: his share of the game is still open.
    `keep_seat` (a team member the server gives up on, C71): his contracts are
    abandoned as with `now`, but he keeps his seat, sitting out."""
    if name not in t.seated:
        _refuse(R.NOT_SEATED, name)
    events: list[AnyEvent] = []
    if name in t._order_joiners or name in t._joiners:
        t._order_joiners = [n for n in t._order_joiners if n != name]
        t._joiners = [n for n in t._joiners if n != name]
        return [PlayerLeft(name)]
    if t._game is not None and name in t._participants:
        holds = name in (t._box, t._partner) or any(
            c.live and name in (c.member, c.box_side) for c in t._contracts
        )
        if holds and now and name != t._partner:
            if name == t._box:  # C73: he is gone; the game ends with him
                events.append(PlayerLeft(name))
            abandon(t, name, events)
            if name != t._box and name in t._queue:
                if keep_seat:
                    t._sitting_out.add(name)
                    events.append(SittingOut(name, True))
                else:
                    remove(t, name)
                    events.append(PlayerLeft(name))
            return events
        if holds:
            if name in t._leaving:
                _refuse(R.WRONG_PHASE, f"{name} already leaves after this game")
            t._leaving.append(name)
            return [LeaveDeferred(name)]
    remove(t, name)
    events.append(PlayerLeft(name))
    order_done(t, events)  # he may have been the last one tied
    return events


def remove(t: ChouetteState, name: str) -> None:
    was_box = t._game is None and t._queue[:1] == [name]
    if t._phase is TablePhase.ORDERING:
        t._order_groups = [[n for n in g if n != name] for g in t._order_groups]
        t._order_groups = [g for g in t._order_groups if g]
    if name in t._queue:
        t._queue.remove(name)
    t._sitting_out.discard(name)
    t._proxied.discard(name)
    t._delegates.pop(name, None)
    t._delegates = {m: d for m, d in t._delegates.items() if d != name}
    t._leaving = [n for n in t._leaving if n != name]
    if name == t._partner or was_box:
        t._partner = None  # C60: a partnership lasts for its box's run


def sit_out(t: ChouetteState, name: str, on: bool = True) -> list[AnyEvent]:
    """C69: keep your place but be skipped; moved to the end when your turn to be
    box or captain comes (at the next `start_game`)."""
    if name not in t._queue:
        _refuse(R.NOT_SEATED, name)
    if on:
        t._sitting_out.add(name)
    else:
        t._sitting_out.discard(name)
    return [SittingOut(name, on)]


def close(t: ChouetteState) -> list[AnyEvent]:
    """The owner closes the table (between games): the final standing (C78)."""
    t._require(TableAction.CLOSE, "close between games")
    t._enter(TableAction.CLOSE, TablePhase.CLOSED)
    totals = t.ledger.totals()
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [TableClosed(tuple(ranked))]


def begin_order(t: ChouetteState) -> list[AnyEvent]:
    """`chouette start`: everyone seated rolls one die (`order_roll`)."""
    t._require(TableAction.BEGIN_ORDER, "the order is already decided")
    if len(t._queue) < START_MIN:
        _refuse(R.TOO_FEW_PLAYERS, f"{START_MIN} players needed")
    t._order_groups = [list(t._queue)]
    t._enter(TableAction.BEGIN_ORDER, TablePhase.ORDERING)
    return []


def order_roll(t: ChouetteState, dice: Mapping[str, int]) -> list[AnyEvent]:
    """One die for each player in `order_to_roll`. Ties re-roll among themselves,
    keeping their place relative to the others; once all differ the queue is
    highest first: box, captain, then the rest."""
    t._require(TableAction.ORDER_ROLL, "no order to roll")
    expected = set(t.order_to_roll)
    if set(dice) != expected or not all(
        isinstance(d, int) and 1 <= d <= 6 for d in dice.values()
    ):
        _refuse(R.BAD_DICE, f"one die 1..6 each for {sorted(expected)}")
    groups: list[list[str]] = []
    for group in t._order_groups:
        if len(group) == 1:
            groups.append(group)
            continue
        for value in sorted({dice[n] for n in group}, reverse=True):
            groups.append([n for n in group if dice[n] == value])
    t._order_groups = groups
    rolled = tuple((n, dice[n]) for n in t._queue if n in dice)
    events: list[AnyEvent] = [OrderRolled(rolled, t.order_to_roll)]
    order_done(t, events)
    return events


def order_done(t: ChouetteState, events: list[AnyEvent]) -> None:
    """Once no tie is left, the groups' order is the queue (joiners after it)."""
    if t._phase is not TablePhase.ORDERING or t.order_to_roll:
        return
    t._queue = [g[0] for g in t._order_groups] + t._order_joiners
    t._order_joiners = []
    t._order_groups = []
    t._enter(TableAction.ORDER_ROLL, TablePhase.BETWEEN_GAMES)
    events.append(OrderDecided(tuple(t._queue)))


def start_game(t: ChouetteState, board: Game | None = None) -> list[AnyEvent]:
    """Roles from the queue, one centred contract per team member, the board at the
    opening; the partner is kept for his box's run, or chosen now if mandatory.
    `board` (tests, problems) starts from a set-up board instead, e.g.
    `Game.from_position(...)` with player 0 the box; its own cube is not used."""
    t._require(TableAction.START_GAME, "not between games")
    active = [n for n in t._queue if n not in t._sitting_out]
    if len(active) < 2:
        _refuse(R.TOO_FEW_PLAYERS, "a box and a captain are needed")
    if len(active) < 3 or t._partner in t._sitting_out:
        t._partner = None  # a box, a partner and a captain are needed
    # C69: a sitting-out player whose turn as box, partner or captain comes goes to
    # the end; the active players keep their order, so this ends within len(queue)
    slots = 2 if t._partner is not None else 1
    for _ in range(len(t._queue)):
        head = t._queue[: slots + 1]
        out = next((n for n in head if n in t._sitting_out), None)
        if out is None:
            break
        move_to_end(t, out, record=False)
    assert not set(t._queue[: slots + 1]) & t._sitting_out
    if t._partner is not None and t._queue.index(t._partner) != 1:
        t._partner = None
    t._reset_game()
    t._game_number += 1
    t._participants = tuple(active_in_order(t._queue, t._sitting_out))
    t._box = t._queue[0]
    team = t.team()
    t._captain = t._first_captain = t._rot_captain = team[0]
    t._contracts = [t._new_contract(Kind.MAIN, t._box, m) for m in team]
    t._game = (
        board
        if board is not None
        else Game(CubeRules(enabled=True), GameStarted(t._game_number, False, False))
    )
    t._enter(TableAction.START_GAME, TablePhase.PLAYING)
    events: list[AnyEvent] = [started_event(t)]
    if (
        t._partner is None
        and t.settings.partner is PartnerMode.MANDATORY
        and len(t._participants) >= t.settings.partner_from
    ):
        begin_partner(t, events)
    return events


def started_event(t: ChouetteState) -> ChouetteGameStarted:
    assert t._box is not None and t._captain is not None
    return ChouetteGameStarted(
        t._game_number,
        t._box,
        t._partner,
        t._captain,
        tuple(m for m in t.team() if m != t._captain),
    )
