"""Correspondence matches (club-play.md K7): days per move, and a clock that runs while
nobody is at the table.

A player who gets up leaves the match in progress, not saved (`leave_correspondence`);
at login the user's saved correspondence matches are loaded (a cold read) and he is told
where he is to move (`load_correspondence`); `correspondence NAME` sits him down at one
(`enter_correspondence`). The running ones are `registry.correspondence`, by pair.
"""

from __future__ import annotations

from typing import Any

import attrs

from fibsd.app.lobby.conclusion import catch_up_clock, conclude
from fibsd.app.lobby.seating import pair_key, restore_table, show_resumed, stop_watching
from fibsd.app.outcome import Outcome
from fibsd.app.play import boards, match_clock
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol.messages import TextLine
from protocol.wording import Text


def leave_correspondence(registry: Registry, table: Table[Session], session: Session, seat: int,
                         *, left: bool, out: Outcome) -> None:
    """A player gets up from a correspondence match: it stays in progress (not a drop,
    nothing waits for him); the clock runs for whoever is to move."""
    other = table.seats[1 - seat]
    table.seats[seat] = None
    session.table = None
    if left:
        out.to(session, TextLine.of(Text.CORRESPONDENCE_YOU_LEFT, name=table.names[1 - seat],
                                    opponent=table.names[1 - seat]))
    if other is not None:
        out.to(other, TextLine.of(Text.CORRESPONDENCE_LEFT, name=session.name))
    table.persist(out)
    if registry.get(session.name) is session:
        registry.announce_status(session, out)


def correspondence_tables(registry: Registry, name: str) -> list[Table[Session]]:
    """`name`'s running correspondence matches (those loaded since the server started:
    every login loads the user's, `load_correspondence`)."""
    key = name.lower()
    return [table for pair, table in registry.correspondence.items() if key in pair]


def load_correspondence(registry: Registry, session: Session, out: Outcome) -> None:
    """At login: bring `session`'s saved correspondence matches into play (their clocks
    ran while the server was down or nobody was there; a deadline that passed ends the
    match now), and remind him of those where he is to move. The saved matches are a
    cold read (a job); what this server already runs is answered at once."""
    name = session.name
    _remind(registry, session, out)  # those this server runs already
    read = registry.read(lambda store: store.saved_matches_of(name),
                         lambda saved: _loaded_correspondence(registry, session, saved),
                         name="correspondence at login")
    out.run(attrs.evolve(read, holds_prompt=False))  # (the login does not wait for it)


def _loaded_correspondence(registry: Registry, session: Session,
                           saved: list[tuple[str, dict[str, Any]]]) -> Outcome:
    out = Outcome()
    loaded = [table for _opponent, data in saved
              if (table := _bring_back(registry, data, out)) is not None]
    if loaded and registry.get(session.name) is session:
        _remind(registry, session, out, only=loaded)
    return out


def load_running_clocks(registry: Registry) -> Outcome:
    """At start: every saved match whose clock runs while nobody is there comes back into
    play, so that the one tick ends what runs out whether or not anyone logs in: the
    correspondence matches (K7), and the matches whose dropper's clock ran when the
    server stopped (K8: it runs on). The saved matches are a background read."""
    out = Outcome()
    out.run(attrs.evolve(registry.read(lambda store: store.saved_clocked_matches(),
                                       lambda saved: _loaded_at_start(registry, saved),
                                       name="running clocks at start"), holds_prompt=False))
    return out


def _loaded_at_start(registry: Registry, saved: list[dict[str, Any]]) -> Outcome:
    out = Outcome()
    for data in saved:
        if _dropper_away(registry, data) is not None:
            _bring_back_drop(registry, data, out)
        else:
            _bring_back(registry, data, out)
    return out


def _dropper_away(registry: Registry, data: dict[str, Any]) -> int | None:
    """The seat of the dropper whose clock ran when this match was saved, if he is still
    away (None: no clock runs through a drop here)."""
    clock, dropped, names = data.get("clock"), data.get("dropped"), data.get("names")
    if not isinstance(clock, dict) or not isinstance(dropped, list) or not isinstance(names, list):
        return None
    seat = dropped[0] if dropped else None
    if seat not in (0, 1) or clock.get("running") != seat or len(names) != 2:
        return None
    if registry.get(str(names[seat])) is not None:
        return None  # he logged in meanwhile: an ordinary saved match
    return int(seat)


def _bring_back_drop(registry: Registry, data: dict[str, Any], out: Outcome) -> None:
    """A dropper's clock that ran when the server stopped runs on (from the restart, as a
    crash's stint does): the match waits for him as after any drop, nobody seated, until
    he comes back (`release_drop`) or his time runs out."""
    try:
        table = restore_table(registry, data)
        seat, at = int(data["dropped"][0]), float(data["dropped"][1])
    except (ValueError, TypeError, KeyError, IndexError):
        return
    key = table.names[seat].lower()
    if key in registry.suspended:
        return
    table.dropped = (seat, at)
    registry.suspended[key] = table
    if not catch_up_clock(registry, table, out):
        conclude(registry, table, out)


def release_drop(registry: Registry, table: Table[Session], session: Session, out: Outcome) -> None:
    """The dropper of a match brought back at start (`load_running_clocks`) logs in, with
    nobody at the table: unless his time ran out meanwhile, it becomes an ordinary saved
    match again (the clock stops; `join` resumes it, as after any drop)."""
    registry.suspended.pop(session.key, None)
    if catch_up_clock(registry, table, out):
        return
    table.dropped = None
    match_clock.pause(table, registry.clock.now())
    table.persist(out)


def _bring_back(registry: Registry, data: dict[str, Any], out: Outcome) -> Table[Session] | None:
    """A saved correspondence match into play (None: not one, already here, or lost on
    time meanwhile: a deadline that passed ends it now)."""
    clock = data.get("clock")
    names = data.get("names")
    if not isinstance(clock, dict) or not isinstance(names, list) or len(names) != 2:
        return None
    if not isinstance(clock.get("control"), dict) or clock["control"].get("per_move") is None:
        return None
    key = pair_key(str(names[0]), str(names[1]))
    if key in registry.correspondence:
        return None  # (running here already, or loaded while the read ran)
    try:
        table = restore_table(registry, data)
    except ValueError:
        return None
    registry.correspondence[key] = table
    timer = table.timer
    if timer is not None and timer.running is not None and timer.since < registry.started_at:
        # The stint spans a restart: nobody could move while the server was down, and
        # the server cannot tell when it went down: the stint starts again.
        timer.since = registry.started_at
        table.persist(out)
    if catch_up_clock(registry, table, out):
        return None
    return table


def _remind(registry: Registry, session: Session, out: Outcome,
            only: list[Table[Session]] | None = None) -> None:
    """`session` is to move at these correspondence matches: say so, with the time left."""
    now = registry.clock.now()
    for table in correspondence_tables(registry, session.name) if only is None else only:
        timer = table.timer
        if timer is None or timer.running is None:
            continue
        seat = table.seat_of_name(session.name)
        if timer.running == seat:
            opponent = table.names[1 - seat]
            out.to(session, TextLine.of(Text.CORRESPONDENCE_YOUR_MOVE, name=opponent, opponent=opponent,
                                        duration=match_clock.duration(timer.remaining(seat, now))))


def enter_correspondence(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    """`correspondence NAME`: sit down at the correspondence match with NAME."""
    table = next((t for t in correspondence_tables(registry, session.name)
                  if t.names[1 - t.seat_of_name(session.name)].lower().startswith(name.lower())), None)
    if table is None:
        out.to(session, TextLine.of(Text.NO_CORRESPONDENCE_WITH, name=name))
        return
    if session.table is table:
        return
    if session.table is not None or session.chouette is not None:
        out.to(session, TextLine.of(Text.YOU_ARE_ALREADY_PLAYING))
        return
    if catch_up_clock(registry, table, out):
        return
    seat = table.seat_of_name(session.name)
    stop_watching(session, out)
    session.invitation = None
    table.seats[seat] = session
    session.table = table
    other = table.seats[1 - seat]
    opponent = table.names[1 - seat]
    out.to(session, TextLine.of(Text.RESUMED_MATCH_LOADED, name=opponent))
    show_resumed(registry, table, session, seat, out)
    if other is not None:
        # (a FIBS client takes it for FIBS's resumed match: the board follows, as there)
        out.to(other, TextLine.of(Text.CORRESPONDENCE_SAT_DOWN, name=session.name))
        out.to(other, boards.board_for(table, other, 1 - seat))
    table.prompt_current(out)
    registry.announce_status(session, out)
    conclude(registry, table, out)
