"""Settlement, captains and rotation: payments, the acting captain, the game's end (C31,
C32, C51-C59, C63).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

import attrs

from ..events import GameResult
from .contracts import Contract, Holder, Kind
from .events import (
    AnyEvent,
    CaptainChanged,
    Cause,
    ChouetteGameOver,
    ContractSettled,
    MoneyMoved,
    SittingOut,
)
from .ledger import GameRecord, LedgerRow, deltas_of, split_with_partner
from .settings import Rotation
from .state import (
    ChouetteState,
    TableAction,
    TablePhase,
)


def pay(
    t: ChouetteState,
    payer: str,
    payee: str,
    amount: int,
    cause: Cause,
    events: list[AnyEvent],
) -> None:
    if amount <= 0:
        return
    t.ledger.add(LedgerRow(t._game_number, cause, payee, payer, amount))
    events.append(MoneyMoved(payer, payee, amount, cause))


def settle(
    t: ChouetteState,
    c: Contract,
    winner_side: Holder,
    amount: int,
    cause: Cause,
    result: GameResult | None,
    events: list[AnyEvent],
) -> None:
    winner = c.player_of(winner_side)
    loser = c.player_of(winner_side.other)
    t._put(attrs.evolve(c, live=False, winner=winner, raccoon=None))
    t.ledger.add(
        LedgerRow(t._game_number, cause, winner, loser, amount, c.value, result, c.cid)
    )
    events.append(ContractSettled(c.cid, winner, loser, c.value, cause, result, amount))


def move_to_end(t: ChouetteState, name: str, record: bool = True) -> None:
    t._queue.remove(name)
    t._queue.append(name)
    if record:
        t._moved_to_end.append(name)


def captain_beaten(t: ChouetteState, captain: str) -> bool:
    """C36/C56: the box beat the captain who counts; he goes to the end of the
    queue at once. Returns whether he moved."""
    if t._decided is not None or captain != t._rot_captain:
        return False
    move_to_end(t, captain)
    if t.settings.rotation is Rotation.ACTING:
        t._decided = Holder.BOX
    return True


def best_live(t: ChouetteState) -> str | None:
    live = t.live_members()
    present = [m for m in live if m not in t._proxied]
    if present:
        return present[0]
    return live[0] if live else None


def after_settlements(t: ChouetteState, events: list[AnyEvent]) -> None:
    """A new acting captain when the captain is out (C31), the game's end when no
    main contract is live (C32, C55)."""
    if t._game is None:
        return
    old = t._captain
    if old is not None and not t.is_live(old):
        won = bool(t._captain_fate)
        t._captain_fate = None
        to_end = False
        if won:
            if t._decided is None and old == t._rot_captain:
                t._decided = Holder.TEAM
        else:
            to_end = captain_beaten(t, old)
        new = best_live(t)
        t._captain = new
        if t._decided is None:
            if new is None:
                t._decided = Holder.BOX
            else:
                t._rot_captain = new
        events.append(CaptainChanged(old, new, to_end))
    if not any(c.live for c in t._contracts if c.kind is Kind.MAIN):
        end_game(t, events)


def board_over(t: ChouetteState, events: list[AnyEvent]) -> None:
    """C55: a side bore off: every live contract settles at the result (C51)."""
    game = t._game
    assert game is not None and game.result is not None
    won = game.result
    winner_side = Holder.BOX if won.winner == 0 else Holder.TEAM
    t._offers.clear()
    t._resigns.clear()
    for c in list(t._contracts):
        if c.live:
            amount = c.value * t._k(c, won.result)
            settle(t, c, winner_side, amount, Cause.RESULT, won.result, events)
    if t._decided is None:
        t._decided = winner_side
    end_game(t, events)


def end_game(t: ChouetteState, events: list[AnyEvent]) -> None:
    """Close the extras (C55), rotate (C56-C59, C63), split with the partner
    (C53), apply deferred leaves and joins, and record the game."""
    for c in list(t._contracts):
        if c.live:  # an extra whose taker's main contract settled earlier
            main = t.main_of(c.member)
            won = main is not None and main.winner == c.member
            side = Holder.TEAM if won else Holder.BOX
            settle(t, c, side, c.value, Cause.EXTRA_CLOSE, None, events)
    box = t._box
    rot = t._rot_captain
    partner = t._partner
    assert box is not None and rot is not None
    box_won = t._decided is not Holder.TEAM
    if t._partner is not None:
        rows = t.ledger.game_rows(t._game_number)
        net = sum(
            r.amount if r.winner == box else -r.amount
            for r in rows
            if box in (r.winner, r.loser)
        )
        _, share = split_with_partner(net)
        if share > 0:
            pay(t, box, t._partner, share, Cause.PARTNER_SPLIT, events)
        elif share < 0:
            pay(t, t._partner, box, -share, Cause.PARTNER_SPLIT, events)
    if box_won:
        if rot in t._queue and rot not in t._moved_to_end:
            move_to_end(t, rot)
    else:
        if rot in t._queue:  # (he may have left after winning: C68)
            t._queue.remove(rot)
            t._queue.insert(0, rot)
        move_to_end(t, box)
        t._partner = None  # C63: the old partner is the next captain
    for name in sorted(t._proxied - set(t._leaving) - t._sitting_out):
        if name in t._queue:  # C71: still away at the game's end
            t._sitting_out.add(name)
            events.append(SittingOut(name, True))
    # A proxy (and a delegation) lasts for the game: the absent now sit out instead.
    t._proxied.clear()
    t._delegates.clear()
    for name in t._leaving:
        if name in t._queue:
            t._queue.remove(name)
        t._sitting_out.discard(name)
        if name == t._partner:
            t._partner = None
    t._leaving = []
    t._queue.extend(t._joiners)
    t._joiners = []
    if t._partner is not None and t._queue[:1] != [box]:
        t._partner = None
    deltas = deltas_of(t.ledger.game_rows(t._game_number))
    names = [
        *t._participants,
        *(n for n in deltas if n not in t._participants),
    ]
    record = tuple((n, deltas.get(n, 0)) for n in names)
    assert t._first_captain is not None
    t.ledger.games.append(
        GameRecord(
            t._game_number,
            box,
            partner,
            t._first_captain,
            box_won,
            record,
        )
    )
    t._last_game = t._game
    t._reset_game()
    t._enter(TableAction.PLAY, TablePhase.BETWEEN_GAMES)
    events.append(ChouetteGameOver(t._game_number, box_won, record, tuple(t._queue)))
