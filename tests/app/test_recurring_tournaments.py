"""Recurring tournaments through the core (docs/tournaments.md, "Recurring tournaments"):
a schedule opens each occurrence ahead of its start, starts it with enough entrants or
cancels it, survives a restart, and skips an occurrence whose start passed while the
server was down. Time is injected (`CoreDriver.tick` on a manual clock), never waited on.
"""

from __future__ import annotations

import datetime as dt
import logging
from zoneinfo import ZoneInfo

import pytest

from fibsd.infra.wallclock import ManualClock
from fibsd.rules.tournament import Phase
from fibsd.store.sqlite import SQLiteStore as Store
from tests.app.driver import CoreDriver

PARIS = ZoneInfo("Europe/Paris")
PLAYERS = ["pa", "pb", "pc"]


def _at(year: int, month: int, day: int, hour: int, minute: int = 0, second: int = 0) -> float:
    return dt.datetime(year, month, day, hour, minute, second, tzinfo=PARIS).timestamp()


def _driver(store: Store | None = None, clock: ManualClock | None = None, **settings: object) -> CoreDriver:
    # Tuesday 1 December 2026, noon in Paris.
    clock = clock if clock is not None else ManualClock(_at(2026, 12, 1, 12))
    driver = CoreDriver(store=store, clock=clock, admin__admins=["boss"], tournaments__timezone="Europe/Paris",
                        tournaments__tournament_open_ahead_seconds=3600.0, **settings)
    return driver


def _move_to(driver: CoreDriver, moment: float) -> None:
    driver.tick(moment - driver.clock.now())


def test_a_weekly_schedule_opens_cancels_then_starts_its_occurrences() -> None:
    driver = _driver()
    driver.create("boss", *PLAYERS, "watcher")
    for name in ("boss", *PLAYERS):
        driver.log_in(name)
    driver.log_in("watcher", clip=False)  # a telnet user: hears openings (report on)
    assert driver.send("pa", "tournament schedule thu weekly thu 20:00 knockout 1") == [
        "** Only administrators may schedule tournaments here."]
    assert driver.send("boss", "tournament schedule thu weekly thu 20:00 knockout 1 min 3") == [
        "Tournament schedule thu: every Thursday at 20:00 Europe/Paris. The next starts Thu 2026-12-03 20:00 CET."]
    assert driver.send("pa", "tournament schedules") == [
        "Tournament schedules:",
        "  thu: every Thursday at 20:00 Europe/Paris, knockout, 1-point matches, at least 3 players, by boss;"
        " next: Thu 2026-12-03 20:00 CET"]
    you_may = "  You may make schedules ('tournament schedule <name> <when> <format> <length> [options] [min N]')."
    assert driver.send("boss", "tournament schedules")[-1] == you_may
    # Opened an hour ahead (tournament_open_ahead_seconds), not a second earlier.
    _move_to(driver, _at(2026, 12, 3, 18, 59, 59))
    assert "thu-2026-12-03" not in driver.registry.tournaments
    driver.take("watcher")
    _move_to(driver, _at(2026, 12, 3, 19))
    opened = ("Tournament thu-2026-12-03 opened by boss (every Thursday at 20:00 Europe/Paris): it starts"
              " Thu 2026-12-03 20:00 CET if at least 3 players have entered. Type 'tournament join thu-2026-12-03'"
              " to enter.")
    assert driver.take("watcher") == [opened]
    assert driver.registry.tournaments["thu-2026-12-03"].phase is Phase.OPEN
    assert ("  Opened by schedule thu: it starts Thu 2026-12-03 20:00 CET if at least 3 players have entered."
            in driver.send("pa", "tournament show thu-2026-12-03"))
    for name in ("pa", "pb"):
        driver.send(name, "tournament join thu-2026-12-03")
    # At the hour, two of the three needed: cancelled, and the entrants are told why.
    _move_to(driver, _at(2026, 12, 3, 19, 59, 59))
    assert driver.registry.tournaments["thu-2026-12-03"].phase is Phase.OPEN
    driver.take("pa")
    _move_to(driver, _at(2026, 12, 3, 20))
    cancelled = "Tournament thu-2026-12-03 is cancelled: 2 entered by its start, and it needs 3."
    assert driver.take("pa") == [cancelled]
    assert driver.registry.tournaments["thu-2026-12-03"].phase is Phase.CANCELLED
    assert driver.send("boss", "tournament schedules")[1].endswith("next: Thu 2026-12-10 20:00 CET")
    # The next week three enter: it starts by itself at 20:00 and round 1 is paired.
    _move_to(driver, _at(2026, 12, 10, 19, 0, 30))
    for name in PLAYERS:
        driver.send(name, "tournament join thu-2026-12-10")
    _move_to(driver, _at(2026, 12, 10, 20))
    told = driver.take("pc")
    assert "Tournament thu-2026-12-10 starts with 3 players." in told
    assert any(line.startswith("Tournament thu-2026-12-10: round 1 pairings: ") for line in told), told
    week_two = driver.registry.tournaments["thu-2026-12-10"]
    assert week_two.phase is Phase.RUNNING and week_two.creator == "boss"
    # The first week's record is kept apart.
    assert driver.registry.tournaments["thu-2026-12-03"].phase is Phase.CANCELLED


def test_only_its_maker_or_an_administrator_removes_a_schedule() -> None:
    driver = _driver(tournaments__tournament_schedulers="members")
    driver.create("boss", "pa", "pb")
    for name in ("boss", "pa", "pb"):
        driver.log_in(name)
    assert driver.send("pa", "tournament schedule eve daily 18:00 swiss 3 rounds 2")[0].startswith(
        "Tournament schedule eve: every day at 18:00 Europe/Paris.")
    assert driver.send("pb", "tournament schedule EVE daily 19:00 swiss 3") == [
        "** There is a schedule called eve already."]
    assert driver.send("pb", "tournament unschedule eve") == [
        "** Only the schedule's creator (pa) or an administrator may do that."]
    assert driver.send("boss", "tournament unschedule eve") == ["Tournament schedule eve removed."]
    assert driver.send("pa", "tournament schedules") == [
        "** There are no tournament schedules. Type 'tournament schedule' to make one.",
        "  You may make schedules ('tournament schedule <name> <when> <format> <length> [options] [min N]')."]
    assert driver.send("pa", "tournament unschedule eve") == ["** There is no schedule called eve."]
    _move_to(driver, _at(2026, 12, 1, 17, 30))
    assert not driver.registry.tournaments


@pytest.mark.parametrize(("typed", "answer"), [
    ("weekly xyz 20:00", "** Not a day: 'xyz'. Give mon, tue, wed, thu, fri, sat or sun (several joined by commas)."),
    ("daily 25:00", "** Not a time of day: '25:00'. Give HH:MM, from 00:00 to 23:59."),
    ("daily 18:00 Mars/Olympus", "** Unknown time zone 'Mars/Olympus': give an IANA name such as Europe/Paris, or UTC."),
    ("FREQ=WEEKLY;BYDAY=XX", "** Can't read the recurrence rule 'FREQ=WEEKLY;BYDAY=XX': invalid 'BYDAY': XX."
     " Try 'daily 18:00', 'weekly thu 20:00' or FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0."),
    ("BYDAY=TH", "** Can't read the recurrence rule 'BYDAY=TH': it needs a FREQ= part."
     " Try 'daily 18:00', 'weekly thu 20:00' or FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0."),
    ("FREQ=DAILY;UNTIL=20200101T000000Z", "** The rule 'FREQ=DAILY;UNTIL=20200101T000000Z' has no occurrence still to come."),
    ("FREQ=HOURLY", "** The rule 'FREQ=HOURLY' fires twice on one day: a schedule opens at most one tournament a day."),
    ("monthly 3 20:00", "** Can't tell when 'monthly 3 20:00' is: give 'daily HH:MM', 'weekly DAYS HH:MM' or an RFC 5545"
     " rule (FREQ=...), then a zone if not the server's."),
])
def test_a_schedule_that_cannot_be_read_is_told_what_is_wrong(typed: str, answer: str) -> None:
    driver = _driver()
    driver.create("boss")
    driver.log_in("boss")
    assert driver.send("boss", f"tournament schedule club {typed} knockout 1") == [answer]
    assert driver.send("boss", "tournament schedules")[0].startswith("** There are no tournament schedules.")


@pytest.mark.parametrize(("typed", "answer"), [
    ("tournament schedule club knockout 1", "** Usage: tournament schedule <name> daily HH:MM|weekly DAYS HH:MM|RRULE"
     " [ZONE] knockout|swiss|roundrobin <length> [options as for create] [min N]"),
    ("tournament schedule averyveryverylongname daily 18:00 knockout 1",
     "** A schedule's name is 1 to 13 letters, digits, - and _ (its tournaments add the date)."),
    ("tournament schedule club daily 18:00 knockout 1 min 1", "** Tournament option 'min' takes a number from 2 to 10000."),
    ("tournament schedule club daily 18:00 knockout 1 max 4 min 5", "** Tournament option 'min' takes a number from 2 to 4."),
    ("tournament schedule club daily 18:00 knockout 1 min 600", "** Tournament option 'min' takes a number from 2 to 512."),
    ("tournament schedule club daily 18:00 knockout 1 fast", "** Unknown tournament option 'fast': the options are"
     " rounds, clock, noshow, max, bots, consolation, deadline and days."),
])
def test_a_bad_schedule_command_is_told_what_is_wrong(typed: str, answer: str) -> None:
    driver = _driver()
    driver.create("boss")
    driver.log_in("boss")
    assert driver.send("boss", typed) == [answer]


def test_schedules_survive_a_restart_and_an_occurrence_missed_while_down_is_skipped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = Store.open(":memory:")
    driver = _driver(store=store)
    driver.create("boss", "pa")
    driver.log_in("boss")
    driver.send("boss", "tournament schedule night daily 21:00 UTC roundrobin 1")
    driver.send("boss", "tournament schedule thu FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0 knockout 1")
    # kill -9: the server is gone; it comes back at 21:30 Paris time on Tuesday (20:30
    # UTC, after the opening time): tonight's 21:00 UTC occurrence opens now (its start is still ahead).
    clock = ManualClock(_at(2026, 12, 1, 21, 30))
    again = _driver(store=store, clock=clock)
    again.log_in("pa")
    again.tick()
    assert again.registry.tournaments["night-2026-12-01"].phase is Phase.OPEN
    assert again.send("pa", "tournament schedules") == [
        "Tournament schedules:",
        "  night: every day at 21:00 UTC, roundrobin, 1-point matches, at least 2 players, by boss;"
        " next: Tue 2026-12-01 22:00 CET",
        "  thu: every Thursday at 20:00 Europe/Paris, knockout, 1-point matches, at least 2 players, by boss;"
        " next: Thu 2026-12-03 20:00 CET"]
    # Down again from before Thursday's opening to after its start: skipped, in the log.
    third = _driver(store=store, clock=ManualClock(_at(2026, 12, 3, 20, 5)))
    with caplog.at_level(logging.WARNING, logger="fibsd.app.recurring"):
        third.tick()
    assert "thu-2026-12-03" not in third.registry.tournaments
    assert any("schedule thu: 1 occurrence(s) skipped" in record.getMessage() for record in caplog.records)
    # The opened night occurrence's start passed while down too: cancelled (nobody entered).
    assert third.registry.tournaments["night-2026-12-01"].phase is Phase.CANCELLED
    third.create("pc")
    third.log_in("pc")
    assert third.send("pc", "tournament schedules")[2].endswith("next: Thu 2026-12-10 20:00 CET")


def test_a_swiss_occurrence_is_paired_off_the_loop_at_its_start() -> None:
    driver = _driver()
    driver.create("boss", *PLAYERS)
    for name in ("boss", *PLAYERS):
        driver.log_in(name)
    driver.send("boss", "tournament schedule eve daily 18:00 swiss 1 rounds 2")
    _move_to(driver, _at(2026, 12, 1, 17))
    for name in PLAYERS:
        driver.send(name, "tournament join eve-2026-12-01")
    _move_to(driver, _at(2026, 12, 1, 18))
    told = driver.take("pa")
    assert "Tournament eve-2026-12-01 starts with 3 players." in told
    assert any(line.startswith("Tournament eve-2026-12-01: round 1 pairings: ") for line in told), told
