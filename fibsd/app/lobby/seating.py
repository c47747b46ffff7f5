"""Seating players at a table, and who hears of it: the pieces every way into a match shares.

A table restored from its save (`restore_table`), the two players seated (`seat_players`,
which ends their watching and tells whoever waits for a house bot's copy that sat down
which copy is free), what a player sees when he sits down at a resumed match
(`show_resumed`), the reports of a start or an end to the users with `report` on and the
watchers (`announce`, `announce_to_others`), and the key of a pair of players (`pair_key`).
"""

from __future__ import annotations

from typing import Any

from fibsd.app import watchers
from fibsd.app.lobby.house_bot_copies import tell_waiting_inviters
from fibsd.app.outcome import Outcome
from fibsd.app.play import boards
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol.messages import TextLine
from protocol.wording import Text, resume_synopsis_lines


def pair_key(name: str, other: str) -> tuple[str, str]:
    low, high = sorted((name.lower(), other.lower()))
    return low, high


def restore_table(registry: Registry, data: dict[str, Any]) -> Table[Session]:
    """A saved match as a table (nobody seated); ValueError if the data is not one."""
    dice = data.get("dice") if isinstance(data, dict) else None
    return Table.from_saved(
        data, clock=registry.clock, roll_counts=registry.roll_counts,
        dice=registry.match_dice.restored(dice if isinstance(dice, dict) else None),
    )


def seat_players(registry: Registry, table: Table[Session], first: Session, second: Session, out: Outcome) -> None:
    for seat, player in enumerate((first, second)):
        stop_watching(player, out)
        player.invitation = None
        player.table = table
        table.seats[seat] = player
    for player in (first, second):
        registry.announce_status(player, out)
    for player in (first, second):  # (a house bot's copy: who else invited it hears which is free)
        tell_waiting_inviters(registry, player, out)


def announce(registry: Registry, table: Table[Session], line: TextLine, out: Outcome) -> None:
    """Users with `report` on, and the watchers of either player, hear of starts/ends."""
    watchers = list(table.watchers())
    out.to_each(watchers, line)
    announce_to_others(registry, table, line, out, told=set(watchers))


def announce_to_others(
    registry: Registry, table: Table[Session], line: TextLine, out: Outcome, *, told: set[Session]
) -> None:
    """Users with `report` on, other than the players and those already `told`."""
    out.to_each(
        (other for other in registry.online()
         if other.account.toggles.report and other.table is not table and other not in told),
        line,
    )


def stop_watching(session: Session, out: Outcome, *, quietly: bool = False) -> None:
    watched = session.watching
    if watched is None:
        return
    watched.watched_by.discard(session)
    session.watching = None
    if quietly:
        return
    out.to(watched, TextLine.of(Text.STOPS_WATCHING_YOU, name=session.name))
    table = watched.table
    if table is not None:
        seat = table.seat_of(watched)
        assert seat is not None
        other = table.seats[1 - seat]
        if other is not None:
            out.to(other, TextLine.of(Text.STOPS_WATCHING, watcher=session.name, name=watched.name))


def show_resumed(registry: Registry, table: Table[Session], session: Session, seat: int,
                 out: Outcome) -> None:
    """The synopsis and board a player sees when he sits down at a resumed match (by
    `join` or at a correspondence table); his watchers from before a drop are back."""
    match = table.match
    turn = match.game.turn
    out.lines(session, *resume_synopsis_lines(
        turn=table.names[turn if turn is not None else 0],
        match_length=match.length,
        names_and_scores=[(table.names[0], match.score[0]), (table.names[1], match.score[1])],
    ))
    out.to(session, boards.board_for(table, session, seat))
    watchers.put_back(registry, table, session, seat, out)
