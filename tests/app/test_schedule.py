"""Recurring tournaments' schedules, pure (fibsd.rules.tournament.schedule): the
shorthands and RFC 5545 rules read, wall-clock times kept across daylight saving changes,
the occurrences opened ahead, skipped when missed, and the state saved and read back."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from fibsd.domain.schedule import Recurrence, Schedule, ScheduleError, read_when

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
UTC = dt.timezone.utc


def _ts(zone: dt.tzinfo, *parts: int) -> float:
    return dt.datetime(*parts, tzinfo=zone).timestamp()  # type: ignore[misc]


def _utc(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")


def _following(recurrence: Recurrence, since: float, count: int) -> list[str]:
    found, moment = [], since
    for _ in range(count):
        coming = recurrence.after(moment, since)
        assert coming is not None
        found.append(_utc(coming))
        moment = coming
    return found


def test_the_shorthands_are_rfc_5545_rules_in_the_zone_given_or_the_servers() -> None:
    now = _ts(PARIS, 2026, 12, 1, 12)
    assert read_when(["daily", "18:00"], "UTC", now) == Recurrence("FREQ=DAILY;BYHOUR=18;BYMINUTE=0", "UTC")
    assert read_when(["weekly", "Thursday,mon", "9:05", "Europe/Paris"], "UTC", now) == Recurrence(
        "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=5", "Europe/Paris")
    assert read_when(["rrule:freq=weekly;byday=th;byhour=20"], "Europe/Paris", now) == Recurrence(
        "FREQ=WEEKLY;BYDAY=TH;BYHOUR=20", "Europe/Paris")


def test_a_weekly_evening_stays_at_20_00_across_the_autumn_change_in_paris() -> None:
    # Europe/Paris leaves summer time on Sunday 25 October 2026: 20:00 is 18:00 UTC before
    # and 19:00 UTC after.
    recurrence = read_when(["weekly", "thu", "20:00"], "Europe/Paris", _ts(PARIS, 2026, 10, 13, 9))
    assert _following(recurrence, _ts(PARIS, 2026, 10, 13, 9), 3) == [
        "2026-10-15 18:00", "2026-10-22 18:00", "2026-10-29 19:00"]


def test_a_daily_event_stays_at_its_hour_across_the_spring_change_in_new_york() -> None:
    # New York moves its clocks on at 2:00 on Sunday 8 March 2026: 18:00 EST is 23:00
    # UTC, 18:00 EDT 22:00 UTC.
    recurrence = read_when(["daily", "18:00", "America/New_York"], "UTC", _ts(NEW_YORK, 2026, 3, 6, 9))
    assert _following(recurrence, _ts(NEW_YORK, 2026, 3, 6, 9), 4) == [
        "2026-03-06 23:00", "2026-03-07 23:00", "2026-03-08 22:00", "2026-03-09 22:00"]


@pytest.mark.parametrize(("words", "code"), [
    ([], "when"), (["weekly", "xx", "20:00"], "day"), (["daily", "7pm"], "time"),
    (["daily", "18:00", "Nowhere/Town"], "zone"), (["FREQ=SOMETIMES"], "rule"),
    (["FREQ=DAILY;BYHOUR=8,20"], "twice"), (["FREQ=DAILY;COUNT=1"], "never"),
    (["DTSTART=20260101;FREQ=DAILY"], "rule"),
])
def test_an_unreadable_or_useless_rule_is_refused_with_its_reason(words: list[str], code: str) -> None:
    with pytest.raises(ScheduleError) as refused:
        read_when(words, "UTC", _ts(PARIS, 2026, 12, 1, 12))
    assert refused.value.code == code


def _schedule(created: float) -> Schedule:
    return Schedule(name="thu", recurrence=Recurrence("FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0", "Europe/Paris"),
                    settings={"format": "knockout", "length": 1, "clock": (12.0, 120.0)}, creator="boss",
                    created_at=created, handled_until=created)


def test_an_occurrence_opens_ahead_once_and_one_missed_is_skipped() -> None:
    created = _ts(PARIS, 2026, 12, 1, 12)
    schedule = _schedule(created)
    start = _ts(PARIS, 2026, 12, 3, 20)
    assert schedule.next_occurrence() == start
    assert schedule.due_to_open(start - 3601, 3600) is None
    assert schedule.due_to_open(start - 3600, 3600) == start
    assert schedule.occurrence_name(start) == "thu-2026-12-03"
    assert schedule.due_to_open(start - 3599, 3600) is None  # dealt with
    # Down from before the next opening to after its start: skipped, never opened late.
    later = _ts(PARIS, 2026, 12, 17, 20, 1)
    assert schedule.skip_passed(later) == [_ts(PARIS, 2026, 12, 10, 20), _ts(PARIS, 2026, 12, 17, 20)]
    assert schedule.due_to_open(later, 3600) is None
    assert schedule.next_occurrence() == _ts(PARIS, 2026, 12, 24, 20)
    again = Schedule.from_dict(schedule.to_dict())
    assert again == schedule and again.settings["clock"] == (12.0, 120.0)
    with pytest.raises(ValueError):
        Schedule.from_dict({"name": "thu"})
