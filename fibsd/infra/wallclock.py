"""The wall clock, injected: production reads the system time, tests set it by hand.

Only wall-clock facts (login times, message timestamps, idle seconds shown to users) come
from here. Timeouts are measured by trio's own clock in the shell, so tests can run them
instantly with `autojump_clock`.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds since the Unix epoch."""

    def now(self) -> float: ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to; for tests."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.seconds = start

    def now(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds
