"""A chouette's presence and time: who is away and since when, and what is decided for
the absent and the silent (C29, C47, C70-C75).

A player who drops or logs out is away (`depart`): the others wait for him, for the
grace period (the box for `box_absent_seconds`); back at the table he decides for
himself again and gets the table's status (`arrive`, `status_for`). The table's clock
(`tick`, called by `fibsd.app.chouettes` from the core's one tick) decides what the
absent and the silent did not: a proxy, sitting out, the box abandoning his game, and
the answer time of sealed answers, extras and a partner offer.
"""

from __future__ import annotations

from typing import Any

from fibsd.app.outcome import Outcome
from fibsd.app.play.chouette import ChouetteTable
from fibsd.app.play.table import Occupant
from fibsd.domain.accounts import name_key
from fibsd.rules.chouette import TablePhase
from protocol.messages import TextLine
from protocol.wording import Text


def depart(table: ChouetteTable[Any], occupant: Occupant, grace: float, out: Outcome) -> None:
    """A player at the table dropped or logged out: the others wait for him."""
    key = name_key(occupant.name)
    if table.present.get(key) is not occupant:
        return
    del table.present[key]
    table.away[key] = table.clock.now()
    engine = table.engine
    if engine.game is not None and engine.box is not None and name_key(engine.box) == key:
        # C73: the box has box_absent_seconds, then he abandons the game.
        table.tell_all(out, TextLine.of(Text.CHOUETTE_BOX_AWAY, name=occupant.name,
                                       seconds=engine.settings.box_absent_seconds))
        return
    table.tell_all(out, TextLine.of(Text.CHOUETTE_AWAY, name=occupant.name, seconds=int(grace)))


def arrive(table: ChouetteTable[Any], occupant: Occupant, out: Outcome) -> None:
    """A seated player is (back) at the table: he decides for himself again."""
    key = name_key(occupant.name)
    table.present[key] = occupant
    came_back = table.away.pop(key, None) is not None
    name = table.seated_name(occupant.name)
    if name is None:
        return
    if came_back:
        table.say(out, name, None, TextLine.of(Text.CHOUETTE_BACK, name=name))
    engine = table.engine
    if name in engine.proxied and engine.game is not None:
        table.act(None, lambda: engine.set_proxy(name, False), out)
    elif name in engine.sitting_out:
        table.act(None, lambda: engine.sit_out(name, False), out)
    if engine.game is not None:
        table.board_for(occupant, out)
    status_for(table, occupant, out)


def status_for(table: ChouetteTable[Any], occupant: Occupant, out: Outcome) -> None:
    """C75: a returning player gets the table's status (`chouette show`) and what he
    owes it now: answers, resignations, extras, a partner offer, with the time left."""
    name = table.seated_name(occupant.name)
    if name is None or table.engine.phase is TablePhase.CLOSED:
        return
    out.to(occupant, *table.show_lines())
    owed = table.owed_lines(name)
    if owed:
        out.to(occupant, *owed)


def tick(table: ChouetteTable[Any], now: float, grace: float, out: Outcome) -> None:
    """The clock: decide what the absent and the silent did not (C29, C47, C70-C73).

    Its steps, in order: nobody at the table holds every clock (`_hold`); the
    absent (`_absences`); then the answer time (`_deadlines`), so that an absent
    captain's replacement answers for him when his grace period ends with the
    answer time (C72). A per-game clock (issue 22: set at `chouette create`, saved
    in `SavedChouette`) is one more step here, after the absences."""
    if table.engine.phase is TablePhase.CLOSED:
        return
    if not table.present:
        _hold(table, now)
        return
    _absences(table, now, grace, out)
    _deadlines(table, now, out)


def _hold(table: ChouetteTable[Any], now: float) -> None:
    """Nobody is at the table (a night's restart, everyone gone): nothing is decided
    for anyone; every clock starts again when someone is back."""
    for key in table.away:
        table.away[key] = now
    if table.deadline is not None:
        table.deadline = max(table.deadline, now + table.engine.settings.answer_seconds)


def _absences(table: ChouetteTable[Any], now: float, grace: float, out: Outcome) -> None:
    engine = table.engine
    for key, since in list(table.away.items()):
        name = table.seated_name(key)
        if name is None:
            del table.away[key]
            continue
        waited = now - since
        if engine.phase is TablePhase.PLAYING:
            if name == engine.box:
                if waited >= engine.settings.box_absent_seconds:
                    table.act(None, lambda: engine.leave(name, now=True), out)
            elif waited >= grace:
                if name == engine.captain:
                    if not table.act(None, engine.captain_absent, out):
                        # Nobody present can take over: his cubes are abandoned
                        # (C70); he keeps his seat, sitting out (C71).
                        table.act(None, lambda: engine.leave(name, now=True, keep_seat=True), out)
                elif engine.is_live(name) and name not in engine.proxied:
                    table.act(None, lambda: engine.set_proxy(name), out)
        elif waited >= grace and name not in engine.leaving and name not in engine.sitting_out \
                and name in engine.queue:
            # C71: still away after the grace period: he sits out, keeping his seat,
            # until he is back (`arrive`); the owner may `chouette kick` him.
            table.act(None, lambda: engine.sit_out(name, True), out)


def _deadlines(table: ChouetteTable[Any], now: float, out: Outcome) -> None:
    """The answer time ran out: sealed answers, extras and a partner offer are
    decided for the silent."""
    engine = table.engine
    if table.deadline is None or now < table.deadline:
        return
    table.deadline = None
    if engine.extras_givers:
        table.act(None, engine.close_extras, out)
    elif any(name_key(doubler) == name_key(engine.box or "") for _, doubler, _ in engine.pending_offers()):
        table.act(None, engine.answer_timeout, out)
    offered = engine.partner_offered_to
    if offered is not None:
        table.act(None, lambda: engine.partner_answer(offered, False), out)
