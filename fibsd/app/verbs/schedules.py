"""Recurring tournaments' commands: `tournament schedule|schedules|unschedule`
(docs/tournaments.md, "Recurring tournaments").

Checks who may do what (scheduling: administrators, or any member if
`tournament_schedulers` says so; removing: the schedule's maker or an administrator), reads
the recurrence the user typed (`fibsd.rules.tournament.read_when`: a clear `** ` line for
one that cannot be read) and hands the rest to `fibsd.app.recurring`, whose tick opens,
starts and cancels the occurrences.
"""

from __future__ import annotations

import logging

from fibsd.app import recurring
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.app.verbs.tournament import clock_allowed, describe_settings, round_days
from fibsd.domain.schedule import Schedule, ScheduleError, read_when
from protocol import commands as c
from protocol.messages import TextLine
from protocol.wording import Text

log = logging.getLogger("fibsd.admin")


def schedule(registry: Registry, session: Session, command: c.Tournament, out: Outcome) -> None:
    """`tournament schedule NAME WHEN... FORMAT LENGTH [options] [min N]`."""
    assert command.name is not None and command.spec is not None
    config = registry.config
    if not _may_schedule(registry, session):
        out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_ADMINS_ONLY))
        return
    spec = command.spec
    if not clock_allowed(registry, session, spec, out):
        return
    minimum = command.minimum or 2
    most = min(spec.max_entrants or config.tournament_max_entrants, config.tournament_max_entrants)
    if minimum > most:
        out.to(session, TextLine.of(Text.TOURNAMENT_BAD_VALUE, text="min", low=2, high=most))
        return
    existing = recurring.find(registry, command.name)
    if existing is not None:
        out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_NAME_TAKEN, text=existing.name))
        return
    now = registry.clock.now()
    try:
        recurrence = read_when(command.when, config.timezone, now)
    except ScheduleError as error:
        out.to(session, _refusal(error))
        return
    made = Schedule(
        name=command.name, recurrence=recurrence, creator=session.name, created_at=now,
        minimum=minimum, handled_until=now,
        settings={
            "format": spec.format, "length": spec.length, "rounds": spec.rounds, "clock": spec.clock,
            "noshow_seconds": spec.noshow_seconds, "max_entrants": spec.max_entrants,
            "bots_allowed": spec.bots, "consolation": spec.consolation,
            "deadline_days": round_days(spec), "move_days": spec.move_days,
        },
    )
    recurring.schedules(registry)[made.name.lower()] = made
    recurring.persist(made, out)
    log.warning("%s schedules tournament %s: %s in %s", session.name, made.name, recurrence.rule, recurrence.zone)
    out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_MADE, text=made.name, names=recurring.in_words(recurrence),
                                date=recurring.when(registry, made.next_occurrence())))


def _refusal(error: ScheduleError) -> TextLine:
    match error.code:
        case "rule":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_BAD_RULE, text=error.word, names=error.detail)
        case "zone":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_BAD_ZONE, text=error.word)
        case "time":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_BAD_TIME, text=error.word)
        case "day":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_BAD_DAY, text=error.word)
        case "never":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_NEVER, text=error.word)
        case "twice":
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_TWICE, text=error.word)
        case _:
            return TextLine.of(Text.TOURNAMENT_SCHEDULE_BAD_WHEN, text=error.word)


def _may_schedule(registry: Registry, session: Session) -> bool:
    config = registry.config
    return config.tournament_schedulers == "members" or config.is_admin(session.name)


def list_schedules(registry: Registry, session: Session, out: Outcome) -> None:
    """`tournament schedules`: each schedule, in words, with its next occurrence; then,
    to a user who may make one, a line saying so (the web page offers "repeat" then)."""
    found = sorted(recurring.schedules(registry).values(), key=lambda s: s.name.lower())
    may = [TextLine.of(Text.TOURNAMENT_SCHEDULES_YOU_MAY)] if _may_schedule(registry, session) else []
    if not found:
        out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULES_NONE), *may)
        return
    lines = [TextLine.of(Text.TOURNAMENT_SCHEDULES_HEADER)]
    for each in found:
        settings = each.settings
        lines.append(TextLine.of(
            Text.TOURNAMENT_SCHEDULES_ENTRY, text=each.name,
            names=f"{recurring.in_words(each.recurrence)}, {describe_settings(settings)}",
            length=settings["length"], count=each.minimum, name=each.creator,
            date=recurring.when(registry, recurring.next_start(each))))
    out.to(session, *lines, *may)


def unschedule(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    """`tournament unschedule NAME`: its maker or an administrator removes it."""
    found = recurring.find(registry, name)
    if found is None:
        out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_NO_SUCH, text=name))
        return
    if session.key != found.creator.lower() and not registry.config.is_admin(session.name):
        out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_CREATOR_ONLY, name=found.creator))
        return
    recurring.remove(registry, found, out)
    log.warning("%s removes tournament schedule %s", session.name, found.name)
    out.to(session, TextLine.of(Text.TOURNAMENT_SCHEDULE_REMOVED, text=found.name))
