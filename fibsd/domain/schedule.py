"""Recurring tournaments: a schedule's recurrence rule and the occurrences it opens.

A schedule says when (an RFC 5545 recurrence rule, read and expanded by dateutil's
`rrule`, in an explicit IANA zone), what (the tournament's settings, as `tournament
create` takes them) and how many must have entered (`minimum`). It remembers the last
occurrence it dealt with (`handled_until`), so after a restart it neither opens one twice
nor opens one whose start has passed, and the occurrence it opened and has yet to start
(`opened`, `starts_at`). Time comes in as POSIX seconds: this module reads no clock (only the zone database,
which is why it is not in `fibsd.rules`).

The rule is expanded from the local midnight of the day the schedule was made, so a rule
without BYHOUR/BYMINUTE fires at 00:00; its wall-clock times stay put across a daylight
saving change (20:00 is 20:00 in winter and in summer). Shorthands a telnet user can type:
`daily 18:00`, `weekly thu 20:00`, `weekly mon,thu 19:30`; any of them, or a rule, may be
followed by a zone (`Europe/Paris`), else the server's zone applies.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import attrs
from dateutil import rrule

#: The RFC 5545 day codes, Monday first; the shorthands take their first two letters or more.
DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_DAY_WORDS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_TIME = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")
#: How many occurrences are looked at to refuse a rule that fires twice in a day (each
#: occurrence's tournament is named by its date).
_LOOKAHEAD = 366


class ScheduleError(ValueError):
    """A `when` that cannot be read: `code` says what (`rule`, `zone`, `time`, `day`,
    `when`, `never`, `twice`), `word` the word at fault, `detail` the rule reader's
    reason (for `rule`)."""

    def __init__(self, code: str, word: str = "", detail: str = "") -> None:
        super().__init__(code)
        self.code, self.word, self.detail = code, word, detail


def zone(name: str) -> ZoneInfo:
    """The IANA zone `name` (ScheduleError `zone` if there is none such)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError("zone", name) from None


@attrs.frozen
class Recurrence:
    """An RFC 5545 RRULE (without the `RRULE:` prefix) and the IANA zone it runs in."""

    rule: str
    zone: str

    def _expanded(self, anchor: float) -> Any:
        here = zone(self.zone)
        day = dt.datetime.fromtimestamp(anchor, here).date()
        start = dt.datetime.combine(day, dt.time(0, 0), tzinfo=here)
        try:
            return rrule.rrulestr(self.rule, dtstart=start)
        except (ValueError, TypeError, KeyError) as error:
            raise ScheduleError("rule", self.rule, _reason(error)) from None

    def after(self, moment: float, anchor: float) -> float | None:
        """The first occurrence strictly after `moment` (None: the rule has ended);
        `anchor` is when the schedule was made (the rule is expanded from that day)."""
        found = self._expanded(anchor).after(self._local(moment), inc=False)
        return None if found is None else float(found.timestamp())

    def passed(self, since: float, until: float, anchor: float) -> list[float]:
        """The occurrences after `since` up to and including `until`."""
        rule = self._expanded(anchor)
        return [float(d.timestamp()) for d in rule.between(self._local(since), self._local(until), inc=True)
                if d.timestamp() > since]

    def local(self, moment: float) -> dt.datetime:
        """`moment` on the rule's wall clock."""
        return self._local(moment)

    def _local(self, moment: float) -> dt.datetime:
        return dt.datetime.fromtimestamp(moment, zone(self.zone))

    def weekly_shorthand(self) -> tuple[tuple[int, ...], str] | None:
        """(weekdays, Monday 0, or () for every day; "HH:MM") when the rule is one a
        shorthand writes (`daily HH:MM`, `weekly DAYS HH:MM`), else None: for saying it
        in words."""
        parts = dict(part.split("=", 1) for part in self.rule.split(";") if "=" in part)
        if set(parts) - {"FREQ", "BYDAY", "BYHOUR", "BYMINUTE"}:
            return None
        hour, minute = parts.get("BYHOUR", "0"), parts.get("BYMINUTE", "0")
        if not (hour.isdigit() and minute.isdigit()):
            return None
        at = f"{int(hour):02d}:{int(minute):02d}"
        if parts.get("FREQ") == "DAILY" and "BYDAY" not in parts:
            return (), at
        days = parts.get("BYDAY", "").split(",")
        if parts.get("FREQ") == "WEEKLY" and days and all(d in DAY_CODES for d in days):
            return tuple(sorted(DAY_CODES.index(d) for d in days)), at
        return None


def _reason(error: Exception) -> str:
    if isinstance(error, TypeError):
        return "it needs a FREQ= part"
    text = str(error)
    if text.startswith("not enough values to unpack") or text.startswith("unknown parameter"):
        return "each part is NAME=VALUE, joined by ';'"
    return text


def _day_code(word: str) -> str:
    lowered = word.lower()
    if len(lowered) >= 2:
        for code, full in zip(DAY_CODES, _DAY_WORDS):
            if full.startswith(lowered):
                return code
    raise ScheduleError("day", word)


def _time(word: str) -> tuple[int, int]:
    found = _TIME.fullmatch(word)
    if found is None:
        raise ScheduleError("time", word)
    return int(found[1]), int(found[2])


def read_when(words: Sequence[str], default_zone: str, now: float) -> Recurrence:
    """The recurrence a user typed: `daily HH:MM`, `weekly DAY[,DAY...] HH:MM` or an
    RFC 5545 rule (`FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0`, `RRULE:` optional), each
    optionally followed by an IANA zone. Refused (ScheduleError) if unreadable, if it
    never fires after `now`, or if it fires twice on one day."""
    if not words:
        raise ScheduleError("when")
    words = list(words)
    place = default_zone
    expected = {"daily": 2, "weekly": 3}.get(words[0].lower(), 1)
    if len(words) == expected + 1:  # (the zone after the time, or after the rule)
        place = words.pop()
    zone(place)  # (a clear refusal for an unknown zone, before the rule)
    first = words[0].lower()
    if first == "daily" and len(words) == 2:
        hour, minute = _time(words[1])
        rule = f"FREQ=DAILY;BYHOUR={hour};BYMINUTE={minute}"
    elif first == "weekly" and len(words) == 3:
        codes = [_day_code(word) for word in words[1].split(",")]
        hour, minute = _time(words[2])
        ordered = sorted(set(codes), key=DAY_CODES.index)
        rule = f"FREQ=WEEKLY;BYDAY={','.join(ordered)};BYHOUR={hour};BYMINUTE={minute}"
    elif len(words) == 1 and "=" in words[0]:
        rule = words[0].upper()
        if rule.startswith("RRULE:"):
            rule = rule[len("RRULE:"):]
        if "DTSTART" in rule or "\n" in rule:
            raise ScheduleError("rule", words[0], "only the RRULE's parts, no DTSTART")
    else:
        raise ScheduleError("when", " ".join(words))
    recurrence = Recurrence(rule, place)
    expanded = recurrence._expanded(now)
    if recurrence.after(now, now) is None:
        raise ScheduleError("never", words[0])
    days = [d.date() for d in itertools.islice(iter(expanded), _LOOKAHEAD)]
    if len(days) != len(set(days)):
        raise ScheduleError("twice", words[0])
    return recurrence


@attrs.define
class Schedule:
    """A recurring tournament: its rule, the settings of each occurrence's tournament
    (`settings`: the keyword arguments `Tournament` takes for them: format, length,
    rounds, clock, noshow_seconds, max_entrants, bots_allowed, consolation), the entrants
    an occurrence needs to start, and where it stands."""

    name: str
    recurrence: Recurrence
    settings: dict[str, Any]
    creator: str
    created_at: float
    minimum: int = 2
    #: The last occurrence dealt with (opened or skipped); at first, when it was made.
    handled_until: float = 0.0
    #: The occurrence opened for entries and not started yet: its tournament and start.
    opened: str | None = None
    starts_at: float | None = None
    #: (handled_until, the next occurrence after it): the tick asks every second.
    _next: tuple[float, float | None] | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def next_occurrence(self) -> float | None:
        """The start of the next occurrence not dealt with yet (None: the rule ended)."""
        if self._next is None or self._next[0] != self.handled_until:
            self._next = (self.handled_until, self.recurrence.after(self.handled_until, self.created_at))
        return self._next[1]

    def skip_passed(self, now: float) -> list[float]:
        """Mark as dealt with every occurrence whose start is not ahead of `now` (a
        server that was down across it): those skipped, for the log."""
        coming = self.next_occurrence()
        if coming is None or coming > now:
            return []
        skipped = self.recurrence.passed(self.handled_until, now, self.created_at)
        if skipped:
            self.handled_until = skipped[-1]
        return skipped

    def due_to_open(self, now: float, ahead: float) -> float | None:
        """The occurrence to open now, if its opening time (`ahead` seconds before its
        start) has come and its start is still ahead; it is then dealt with."""
        if self.opened is not None:
            return None
        coming = self.next_occurrence()
        if coming is None or coming - ahead > now or coming <= now:
            return None
        self.handled_until = coming
        return coming

    def occurrence_name(self, start: float) -> str:
        """The name of the occurrence's tournament: the schedule's and its local date."""
        return f"{self.name}-{self.recurrence.local(start).date().isoformat()}"

    def to_dict(self) -> dict[str, Any]:
        settings = dict(self.settings)
        if settings.get("clock") is not None:
            settings["clock"] = list(settings["clock"])
        return {
            "name": self.name, "rule": self.recurrence.rule, "zone": self.recurrence.zone,
            "settings": settings, "creator": self.creator, "created_at": self.created_at,
            "minimum": self.minimum, "handled_until": self.handled_until,
            "opened": self.opened, "starts_at": self.starts_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Schedule:
        """The schedule `to_dict` saved (ValueError if it cannot be read)."""
        try:
            settings = dict(data["settings"])
            if settings.get("clock") is not None:
                delay, reserve = settings["clock"]
                settings["clock"] = (float(delay), float(reserve))
            starts_at = data.get("starts_at")
            return cls(
                name=str(data["name"]), recurrence=Recurrence(str(data["rule"]), str(data["zone"])),
                settings=settings, creator=str(data["creator"]),
                created_at=float(data["created_at"]), minimum=int(data.get("minimum", 2)),
                handled_until=float(data["handled_until"]),
                opened=None if data.get("opened") is None else str(data["opened"]),
                starts_at=None if starts_at is None else float(starts_at),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"unreadable schedule: {error}") from None
