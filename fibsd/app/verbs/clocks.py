"""Match clocks at the command line: the clock an invitation asks for, and `clock`.

`invitation_clock` turns the invitation's clock words (club-play.md K9) into the agreed
`TimeControl` within the operator's limits (`[clocks]` in conf/fibsd.toml); `clock`
shows both players' time to a player or a watcher (docs/clocks.md gives both formats).
"""

from __future__ import annotations

from fibsd.app.lobby.correspondence import correspondence_tables, enter_correspondence
from fibsd.app.outcome import Outcome
from fibsd.app.play import chouette_clock, match_clock
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.rules.timecontrol import TimeControl
from protocol import commands as c
from protocol.messages import TextLine
from protocol.wording import Text, render


def _number(value: float) -> str:
    return f"{value:g}"


def invitation_clock(registry: Registry, session: Session, command: c.Invite,
                     out: Outcome) -> tuple[bool, TimeControl | None]:
    """(whether the invitation may go ahead, the clock it asks for). Refusals are told."""
    config = registry.config
    asked = command.clock
    rated = command.length is not None and not command.unlimited
    if asked is None:
        if rated and config.clock_required_for_rated:
            out.to(session, TextLine.of(Text.CLOCK_REQUIRED))
            return False, None
        return True, None
    return clock_terms(registry, session, asked, None if command.unlimited else command.length, out)


def clock_terms(registry: Registry, session: Session, asked: c.InviteClock, length: int | None,
                out: Outcome) -> tuple[bool, TimeControl | None]:
    """The clock words' terms within the operator's limits (`length` None: per game, as
    in an unlimited match or a chouette); refusals are told."""
    config = registry.config
    if asked.days is not None:
        if asked.days > config.correspondence_max_days:
            out.to(session, TextLine.of(Text.CLOCK_DAYS_TOO_LONG, text=_number(config.correspondence_max_days)))
            return False, None
        return True, TimeControl.days(asked.days)
    if asked.delay > config.clock_max_delay_seconds:
        out.to(session, TextLine.of(Text.CLOCK_DELAY_TOO_LONG, seconds=int(config.clock_max_delay_seconds)))
        return False, None
    overtime = config.clock_default_overtime_seconds if asked.overtime is None else asked.overtime
    if asked.per_point:
        control = TimeControl.delay_clock(asked.delay, asked.reserve, length, overtime=overtime)
    else:  # (bullet: the reserve is the whole match's)
        control = TimeControl(delay=asked.delay, reserve=asked.reserve, per_game=length is None,
                              overtime=overtime)
    if control.reserve > config.clock_max_reserve_seconds or overtime > config.clock_max_reserve_seconds:
        out.to(session, TextLine.of(Text.CLOCK_RESERVE_TOO_LONG,
                                    duration=match_clock.duration(config.clock_max_reserve_seconds)))
        return False, None
    return True, control


def clock(registry: Registry, session: Session, out: Outcome) -> None:
    """`clock`: both players' time and the terms, for a player or a watcher."""
    table: Table[Session] | None = session.table
    if table is None and session.watching is not None:
        table = session.watching.table
    at_chouette = session.chouette
    if table is None and at_chouette is not None and at_chouette.timer is not None:
        now = registry.clock.now()
        line = chouette_clock.clock_line(at_chouette, now)
        if session.clip and session.extensions and line is not None:
            out.to(session, line)
        else:
            out.to(session, *chouette_clock.rows(at_chouette, now))
        return
    if table is None or table.timer is None:
        out.to(session, TextLine.of(Text.NO_MATCH_CLOCK))
        return
    now = registry.clock.now()
    if session.clip and session.extensions:
        out.to(session, match_clock.clock_line(table, now))  # the format a client parses
        return
    timer = table.timer
    out.to(session, TextLine.of(Text.MATCH_CLOCK, text=match_clock.terms(timer.control)))
    for seat, name in enumerate(table.names):
        state = ""
        if timer.running == seat:
            state = Text.CLOCK_ROW_TO_ACT.value
            delay_left = int(timer.delay_left(seat, now))
            if delay_left > 0:
                state += render(Text.CLOCK_ROW_DELAY_FIRST, seconds=delay_left)
        if timer.overtime_used[seat]:
            state += Text.CLOCK_ROW_OVERTIME.value
        out.to(session, TextLine.of(Text.CLOCK_ROW, name=name,
                                    duration=match_clock.duration(timer.remaining(seat, now)), text=state))


def correspondence(registry: Registry, session: Session, command: c.Correspondence, out: Outcome) -> None:
    """`correspondence [NAME]`: list your correspondence matches, or sit down at one."""
    if command.name is not None:
        enter_correspondence(registry, session, command.name, out)
        return
    tables = correspondence_tables(registry, session.name)
    if not tables:
        out.to(session, TextLine.of(Text.CORRESPONDENCE_NONE))
        return
    now = registry.clock.now()
    out.to(session, TextLine.of(Text.CORRESPONDENCE_HEADER))
    for table in tables:
        seat = table.seat_of_name(session.name)
        timer = table.timer
        assert timer is not None
        running = timer.running
        out.to(session, TextLine.of(
            Text.CORRESPONDENCE_ROW, name=table.names[1 - seat], score=table.match.score[seat],
            opponent_score=table.match.score[1 - seat], match_length=table.length_phrase,
            mover="-" if running is None else table.names[running],
            duration=match_clock.duration(timer.remaining(running if running is not None else seat, now)),
        ))
