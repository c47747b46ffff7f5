"""Recurring tournaments: the schedules, and each occurrence opened, started or cancelled
by the tick (docs/tournaments.md, "Recurring tournaments").

A rung above `fibsd.app.tournaments`: the tick (`fibsd.app.timers`) hands `tick` the
time, and for each schedule (`fibsd.rules.tournament.Schedule`, pure) this module opens
the next occurrence's tournament `tournament_open_ahead_seconds` before its start (named
by the schedule and the date, announced like a `tournament create`), and at the start
starts it if enough players entered or cancels it, telling them why. An occurrence whose
start passed while the server was down is skipped (said in the log), never opened late.
The schedules are loaded from the store on first use and saved with each change, so a
restart or a kill -9 loses none. The verbs that make, list and remove schedules are
`fibsd.app.verbs.schedules`.
"""

from __future__ import annotations

import calendar
import logging
from typing import Any

from fibsd.app import tournaments
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.schedule import Recurrence, Schedule
from fibsd.rules.tournament import Format, Phase, Tournament, TournamentError
from protocol.messages import TextLine
from protocol.wording import Text, render

log = logging.getLogger("fibsd.app.recurring")

#: How often the tick looks at the schedules at most (it looks sooner when an opening or
#: a start is due sooner).
TICK_SECONDS = 1.0


def schedules(registry: Registry) -> dict[str, Schedule]:
    """Every schedule by its name's key (the saved ones are loaded the first time)."""
    if not registry.schedules_loaded:
        registry.schedules_loaded = True
        for data in registry.reader.saved_schedules():
            try:
                schedule = Schedule.from_dict(data)
            except ValueError:
                log.error("an unreadable schedule is left in the store: %r", data.get("name"))
                continue
            registry.schedules[schedule.name.lower()] = schedule
    return registry.schedules


def find(registry: Registry, name: str) -> Schedule | None:
    return schedules(registry).get(name.lower())


def persist(schedule: Schedule, out: Outcome) -> None:
    """Save `schedule` with the outcome that changed it."""
    name, data = schedule.name, schedule.to_dict()
    out.write(lambda store: store.save_schedule(name, data))


def remove(registry: Registry, schedule: Schedule, out: Outcome) -> None:
    """Forget `schedule`; a tournament it opened stays open for its creator to start."""
    schedules(registry).pop(schedule.name.lower(), None)
    name = schedule.name
    out.write(lambda store: store.remove_schedule(name))


# ------------------------------------------------------------------ saying it


def in_words(recurrence: Recurrence) -> str:
    """`every Thursday at 20:00 Europe/Paris`, `every day at 18:00 UTC`; a rule no
    shorthand writes is shown as it is, with its zone."""
    shorthand = recurrence.weekly_shorthand()
    if shorthand is None:
        return f"{recurrence.rule} {recurrence.zone}"
    days, at = shorthand
    if not days:
        said = render(Text.TOURNAMENT_SCHEDULE_EVERY_DAY, text=at)
    else:
        names = [calendar.day_name[day] for day in days]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        said = render(Text.TOURNAMENT_SCHEDULE_EVERY_WEEK, names=joined, text=at)
    return f"{said} {recurrence.zone}"


def when(registry: Registry, moment: float | None) -> str:
    """`Thu 2026-12-03 20:00 CET`: a moment on the server's wall clock (the schedules'
    occurrences are said in the server's zone, whatever their rule's)."""
    if moment is None:
        return Text.TOURNAMENT_SCHEDULE_NO_NEXT.value
    local = Recurrence("", registry.config.timezone).local(moment)
    return local.strftime("%a %Y-%m-%d %H:%M %Z")


def opener(registry: Registry, tournament: Tournament) -> Schedule | None:
    """The schedule that opened `tournament` and will start it at its hour, if any."""
    for schedule in schedules(registry).values():
        if schedule.opened is not None and schedule.opened.lower() == tournament.name.lower():
            return schedule
    return None


def next_start(schedule: Schedule) -> float | None:
    """The start of the occurrence opened and waiting, else of the next one."""
    return schedule.starts_at if schedule.opened is not None else schedule.next_occurrence()


# ------------------------------------------------------------------ time


def next_tick_in(registry: Registry) -> float | None:
    """While any schedule exists, at most a second (sooner if an event is due sooner)."""
    found = schedules(registry)
    if not found:
        return None
    now = registry.clock.now()
    ahead = registry.config.tournament_open_ahead_seconds
    soonest = TICK_SECONDS
    for schedule in found.values():
        if schedule.opened is not None and schedule.starts_at is not None:
            soonest = min(soonest, schedule.starts_at - now)
            continue
        coming = schedule.next_occurrence()
        if coming is not None:
            soonest = min(soonest, coming - ahead - now)
    return max(soonest, 0.0)


def tick(registry: Registry, now: float) -> Outcome:
    """Start or cancel each opened occurrence whose start has come; skip (and log) those
    whose start passed unopened; open each whose opening time has come."""
    out = Outcome()
    ahead = registry.config.tournament_open_ahead_seconds
    for schedule in list(schedules(registry).values()):
        if schedule.opened is not None and schedule.starts_at is not None and now >= schedule.starts_at:
            _begin(registry, schedule, out)
        skipped = schedule.skip_passed(now)
        if skipped:
            log.warning("schedule %s: %d occurrence(s) skipped, their start passed while the server"
                        " was down (the last: %s)", schedule.name, len(skipped), when(registry, skipped[-1]))
            persist(schedule, out)
        start = schedule.due_to_open(now, ahead)
        if start is not None:
            _open(registry, schedule, start, now, out)
    return out


def _open(registry: Registry, schedule: Schedule, start: float, now: float, out: Outcome) -> None:
    """Open the occurrence starting at `start` for entries and announce it."""
    name = schedule.occurrence_name(start)
    existing = tournaments.find_live(registry, name)
    if existing is not None:
        log.warning("schedule %s: occurrence %s skipped, a tournament of that name is %s",
                    schedule.name, name, existing.phase.value)
        persist(schedule, out)
        return
    created = occurrence(registry, schedule, name, now)
    tournaments.add(registry, created)  # (a finished one of that name keeps its record)
    tournaments.persist(created, out)
    schedule.opened, schedule.starts_at = name, start
    persist(schedule, out)
    log.info("schedule %s: %s opened, starts %s", schedule.name, name, when(registry, start))
    out.to_each(tournaments.audience(registry, created), TextLine.of(
        Text.TOURNAMENT_OCCURRENCE_OPENED, text=name, name=schedule.creator,
        names=in_words(schedule.recurrence), date=when(registry, start), count=schedule.minimum))


def occurrence(registry: Registry, schedule: Schedule, name: str, now: float) -> Tournament:
    """The tournament of one occurrence, with the schedule's settings."""
    settings: dict[str, Any] = schedule.settings
    noshow = settings.get("noshow_seconds") or int(registry.config.tournament_noshow_seconds)
    return Tournament(
        name=name, format=Format(settings["format"]), length=int(settings["length"]),
        creator=schedule.creator, rounds=settings.get("rounds"),
        consolation=bool(settings.get("consolation")), max_entrants=settings.get("max_entrants"),
        bots_allowed=bool(settings.get("bots_allowed")), noshow_seconds=noshow,
        clock=settings.get("clock"), created_at=now, id=tournaments.next_id(registry),
        deadline_days=settings.get("deadline_days"), move_days=settings.get("move_days"),
    )


def _begin(registry: Registry, schedule: Schedule, out: Outcome) -> None:
    """The occurrence's start: it starts with enough entrants, else it is cancelled and
    its entrants are told why. (One its creator started or cancelled meanwhile is left.)"""
    found = tournaments.find(registry, schedule.opened or "")
    schedule.opened, schedule.starts_at = None, None
    persist(schedule, out)
    if found is None or found.phase is not Phase.OPEN:
        return
    listeners = tournaments.audience(registry, found)
    if len(found.entrants) < schedule.minimum:
        _cancel(registry, schedule, found, listeners, out)
        return
    try:
        first = found.start(defer=True)  # (a Swiss pairs its first round off the loop)
    except TournamentError:  # (fewer than the format's minimum)
        _cancel(registry, schedule, found, listeners, out)
        return
    tournaments.persist(found, out)
    log.info("schedule %s: %s starts with %d players", schedule.name, found.name, len(found.entrants))
    out.to_each(listeners, TextLine.of(Text.TOURNAMENT_BEGINS, text=found.name, count=len(found.entrants)))
    tournaments.next_round(registry, found, first, out)


def _cancel(registry: Registry, schedule: Schedule, found: Tournament, listeners: list[Session],
            out: Outcome) -> None:
    entered = len(found.entrants)
    found.cancel()
    tournaments.persist(found, out)
    log.info("schedule %s: %s cancelled, %d entered of %d needed", schedule.name, found.name, entered,
             schedule.minimum)
    out.to_each(listeners, TextLine.of(Text.TOURNAMENT_OCCURRENCE_CANCELLED, text=found.name, n=entered,
                                       count=max(schedule.minimum, 2)))
