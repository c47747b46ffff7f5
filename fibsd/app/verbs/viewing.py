"""Seeing matches: watch, unwatch, look, board, pip, oldboard/oldmoves, export.

Watching follows a player (blinding and the watcher's own toggles apply, §5.5); `look`
and `board` show a board once; `oldboard`/`oldmoves` and `export` read saved and
finished matches (cold reads: jobs, answered when read).
"""

from __future__ import annotations

from typing import Any

from fibsd.app.lobby.seating import restore_table, stop_watching
from fibsd.app.outcome import Outcome
from fibsd.app.play import boards
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.matfile import MatchRecord, mat_lines, record_summary
from protocol import commands as c
from protocol.messages import (
    BoardMessage,
    TextLine,
)
from protocol.wording import Text


def watch(registry: Registry, session: Session, command: c.Watch, out: Outcome) -> None:
    if session.table is not None:
        out.to(session, TextLine.of(Text.CANT_WATCH_WHILE_PLAYING))
        return
    target = registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_APOSTROPHE, name=command.name))
        return
    if target is session:
        out.to(session, TextLine.of(Text.USE_A_MIRROR))
        return
    if _blinded(session, target):
        out.to(session, TextLine.of(Text.DOESNT_WANT_YOU_TO_WATCH, name=target.name))
        return
    if session.watching is not None:
        out.to(session, TextLine.of(Text.YOU_STOP_WATCHING_OLD, name=session.watching.name))
        stop_watching(session, out)
    session.watching = target
    target.watched_by.add(session)
    # Puzzles never come from a match the user watched live that day (docs/puzzles.md).
    key, target_key, at = session.key, target.key, registry.clock.now()
    out.write(lambda store: store.note_watch(key, target_key, at))
    out.to(session, TextLine.of(Text.NOW_WATCHING, name=target.name))
    out.to(target, TextLine.of(Text.IS_WATCHING_YOU, name=session.name))
    table = target.table
    chouette = target.chouette
    if table is None and chouette is not None and chouette.board_line(target.name) is not None:
        chouette.board_for(session, out)  # a chouette: the captain's board
    elif table is None:
        out.to(session, TextLine.of(Text.NOT_DOING_ANYTHING, name=target.name))
    else:
        seat = table.seat_of(target)
        assert seat is not None
        other = table.seats[1 - seat]
        if other is not None:
            out.to(other, TextLine.of(Text.STARTS_WATCHING, watcher=session.name, name=target.name))
        out.to(session, boards.board_for(table, session, seat))
    registry.announce_status(session, out)


def _blinded(session: Session, target: Session) -> bool:
    """`target` or their opponent blinded `session`."""
    if session.key in target.blinded:
        return True
    table = target.table
    if table is not None:
        return any(p is not None and session.key in p.blinded for p in table.seats)
    return False


def unwatch(registry: Registry, session: Session, out: Outcome) -> None:
    if session.watching is None:
        out.to(session, TextLine.of(Text.NOT_WATCHING))
        return
    out.to(session, TextLine.of(Text.YOU_STOP_WATCHING, name=session.watching.name))
    stop_watching(session, out)
    registry.announce_status(session, out)


def look(registry: Registry, session: Session, command: c.Look, out: Outcome) -> None:
    target = registry.find(command.name)
    if target is session:
        out.to(session, TextLine.of(Text.YOU_LOOK_GREAT))
        return
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_APOSTROPHE, name=command.name))
        return
    table = target.table
    if table is None:
        out.to(session, TextLine.of(Text.IS_NOT_PLAYING, name=target.name))
        return
    if _blinded(session, target):
        out.to(session, TextLine.of(Text.DOESNT_WANT_YOU_TO_LOOK, name=target.name))
        return
    seat = table.seat_of(target)
    assert seat is not None
    out.to(session, boards.board_for(table, session, seat))


def board(session: Session, out: Outcome) -> None:
    table = session.table
    if table is not None:
        seat = table.seat_of(session)
        assert seat is not None
        out.to(session, boards.board_for(table, session, seat))
        return
    watched = session.watching
    if watched is not None:
        if watched.table is None and watched.chouette is not None \
                and watched.chouette.board_line(watched.name) is not None:
            watched.chouette.board_for(session, out)
            return
        if watched.table is None:
            out.to(session, TextLine.of(Text.IS_NOT_PLAYING, name=watched.name))
            return
        seat = watched.table.seat_of(watched)
        assert seat is not None
        out.to(session, boards.board_for(watched.table, session, seat))
        return
    out.to(session, TextLine.of(Text.NOT_PLAYING))


def pip(session: Session, out: Outcome) -> None:
    table = session.table or (session.watching.table if session.watching is not None else None)
    if table is None:
        out.to(session, TextLine.of(Text.NOT_PLAYING_OR_WATCHING))
        return
    seat = table.seat_of(session)
    if seat is not None:
        opponent = table.seats[1 - seat]
        if not session.account.toggles.allowpip:
            out.to(session, TextLine.of(Text.PIP_TOGGLE_FIRST))
            return
        if opponent is not None and not opponent.account.toggles.allowpip:
            out.to(session, TextLine.of(Text.PIP_NOT_ALLOWED, name=opponent.name))
            return
    elif not all(p is None or p.account.toggles.allowpip for p in table.seats):
        out.to(session, TextLine.of(Text.PLAYERS_DONT_ALLOW_PIP))
        return
    out.to(session, table.pip_line(session))


def old(registry: Registry, session: Session, command: c.Oldboard | c.Oldmoves, out: Outcome) -> None:
    """`oldboard NAME` / `oldmoves NAME`: the saved (or just finished) match with NAME."""
    if isinstance(command, c.Oldboard) and session.table is not None:
        out.to(session, TextLine.of(Text.NOT_WHILE_PLAYING))
        return
    if not (session.table is not None and (session.opponent_name or "").lower() == command.name.lower()) \
            and registry.reader.saved_match_info(session.name, command.name) is not None:
        # The saved match: a cold read, and the answer when it is read.
        name, other = session.name, command.name
        out.run(registry.read(
            lambda store: store.saved_match(name, other),
            lambda data: _old_answer(registry, session, command, data),
            name="oldboard/oldmoves: the saved match",
        ))
        return
    out.extend(_old_answer(registry, session, command, None))


def _old_answer(registry: Registry, session: Session, command: c.Oldboard | c.Oldmoves,
                data: dict[str, Any] | None) -> Outcome:
    """`oldboard`/`oldmoves` with the saved match `data` read (None: none)."""
    out = Outcome()
    table: Table[Session] | None = None
    if session.table is not None and (session.opponent_name or "").lower() == command.name.lower():
        table = session.table
    elif data is not None:
        try:
            table = restore_table(registry, data)
        except ValueError:
            table = None
    elif session.last_table is not None and command.name.lower() in (
        n.lower() for n in session.last_table.names
    ):
        table = session.last_table
    if table is None:
        missing = Text.NO_SAVED_MATCH_WITH_PLAYER if isinstance(command, c.Oldboard) else Text.NO_SAVED_GAME_WITH
        out.to(session, TextLine.of(missing, name=command.name))
        return out
    if isinstance(command, c.Oldmoves):
        out.lines(session, *table.moves_lines(table.last_game()))
        return out
    seat = table.seat_of_name(session.name)
    line = boards.board_line(table, seat, as_player=True)
    out.to(session, BoardMessage(line, style=session.account.variables.boardstyle, player_name=session.name))
    return out


def export(registry: Registry, session: Session, command: c.Export, out: Outcome) -> None:
    """fibsd's `export`: your finished matches, or one of them as a Jellyfish .mat file."""
    # Match records are cold reads: jobs, answered when read.
    if command.record_id is None:
        name = session.name

        def listing(records: list[MatchRecord]) -> Outcome:
            answer = Outcome()
            if not records:
                answer.to(session, TextLine.of(Text.EXPORT_NONE))
                return answer
            answer.to(session, TextLine.of(Text.EXPORT_HEADER))
            answer.lines(session, *(record_summary(record) for record in records))
            return answer

        out.run(registry.read(lambda store: store.match_records_of(name), listing,
                              name="export: the records"))
        return
    record_id = command.record_id

    def exported(record: MatchRecord | None) -> Outcome:
        answer = Outcome()
        if record is None or session.key not in (name.lower() for name in record.players):
            answer.to(session, TextLine.of(Text.EXPORT_UNKNOWN, number=record_id))
            return answer
        answer.lines(session, *mat_lines(record, registry.config.club_name))
        return answer

    out.run(registry.read(lambda store: store.match_record(record_id), exported,
                          name="export: a record"))
