"""Match clocks, pure: delay clocks with a reserve (club-play.md K1-K6) and correspondence
limits per move (K7), computed from timestamps.

Nothing here runs per second. A clock is told when a player starts to act (`start`) and
when he stops (`stop`); what he used is worked out from the two instants. The only
question asked between those is "when does the running player run out?" (`deadline`),
which the server keeps in a heap and looks at once, when that instant comes (`expire`).

The arithmetic (K1): a player who takes `t` seconds with a delay `d` loses
`max(0, t - d)` seconds of reserve (25 s with a 12 s delay costs 13 s). When the
reserve is used up, an allowed overtime (K4) is added to it once; the second time he
runs out, he has lost. Correspondence (K7): each move may take `per_move` seconds; no
reserve carries over.

Times are seconds (floats); instants are seconds since any fixed origin (the server uses
the Unix epoch), passed in by the caller: no clock is read here.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

#: K2, the federations' standard: 12 s delay, 2 minutes of reserve per point.
STANDARD_DELAY = 12.0
STANDARD_RESERVE_PER_POINT = 120.0
SECONDS_PER_DAY = 86400.0


def _non_negative(_instance: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    if value is not None and not value >= 0:  # (also refuses NaN)
        raise ValueError(f"{attribute.name} must not be negative, not {value}")


@attrs.frozen
class TimeControl:
    """What the players agreed. A delay clock: `delay` free seconds per stint, then the
    `reserve` (the whole match's, or each game's with `per_game`), then `overtime` once
    (0: none). Correspondence: `per_move` seconds for each stint, nothing else."""

    delay: float = attrs.field(default=0.0, validator=_non_negative)
    reserve: float = attrs.field(default=0.0, validator=_non_negative)
    per_game: bool = False
    overtime: float = attrs.field(default=0.0, validator=_non_negative)
    per_move: float | None = attrs.field(default=None, validator=_non_negative)

    @property
    def correspondence(self) -> bool:
        return self.per_move is not None

    @classmethod
    def delay_clock(cls, delay: float, reserve_per_point: float, length: int | None,
                    *, overtime: float = 0.0) -> TimeControl:
        """K9's `clock DELAY RESERVE`: the reserve is per point of the match, or per game
        in an unlimited match (K6)."""
        if length is None:
            return cls(delay=delay, reserve=reserve_per_point, per_game=True, overtime=overtime)
        return cls(delay=delay, reserve=reserve_per_point * length, overtime=overtime)

    @classmethod
    def days(cls, days: float) -> TimeControl:
        """K9's `days N`: N days per move."""
        return cls(per_move=days * SECONDS_PER_DAY)

    def to_dict(self) -> dict[str, Any]:
        return {"delay": self.delay, "reserve": self.reserve, "per_game": self.per_game,
                "overtime": self.overtime, "per_move": self.per_move}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        per_move = data.get("per_move")
        return cls(delay=float(data["delay"]), reserve=float(data["reserve"]),
                   per_game=bool(data["per_game"]), overtime=float(data["overtime"]),
                   per_move=None if per_move is None else float(per_move))


class Expiry(enum.Enum):
    """What running out did (`MatchClock.expire`)."""

    OVERTIME = enum.auto()  # the reserve was gone: the overtime was added, play goes on
    LOST = enum.auto()  # out of time: the player loses the match (K4)


@attrs.define
class MatchClock:
    """Both players' clocks in one match: reserves, overtime used, and who runs since when.

    `running` is the seat whose clock runs (None: nobody's, e.g. between games) and
    `since` the instant his stint began. `reserves` are as of that instant: the running
    player's reserve now is `remaining(seat, now)`.
    """

    control: TimeControl
    reserves: list[float] = attrs.field(factory=list)
    overtime_used: list[bool] = attrs.field(factory=lambda: [False, False])
    running: int | None = None
    since: float = 0.0
    #: Set once a player ran out for good; the clock stops for ever.
    lost: int | None = None
    #: The game of the match the reserves belong to (`new_game`).
    game: int = 1

    def __attrs_post_init__(self) -> None:
        if not self.reserves:
            self.reserves = [self.control.reserve, self.control.reserve]

    # ------------------------------------------------------------------ running

    def start(self, seat: int, now: float) -> None:
        """`seat` is to act from `now` (whoever ran before stops first)."""
        self.stop(now)
        if self.lost is None:
            self.running, self.since = seat, now

    def stop(self, now: float) -> float:
        """The running player has acted (or play pauses): charge him; return the charge."""
        seat = self.running
        if seat is None:
            return 0.0
        self.running = None
        if self.control.correspondence:
            return 0.0
        used = max(0.0, now - self.since - self.control.delay)
        self.reserves[seat] -= used
        if self.reserves[seat] < 0 and not self.overtime_used[seat] and self.control.overtime > 0:
            # He ran out and acted before the server noticed: the overtime pays for it.
            self.overtime_used[seat] = True
            self.reserves[seat] += self.control.overtime
        self.reserves[seat] = max(0.0, self.reserves[seat])
        return used

    def new_game(self, number: int) -> None:
        """Game `number` is being played: if it is a new one and the reserve is per game
        (K6), both reserves are full again."""
        if number == self.game:
            return
        self.game = number
        if self.control.per_game:
            self.reserves = [self.control.reserve, self.control.reserve]
            self.overtime_used = [False, False]

    # --------------------------------------------------------------- questions

    def deadline(self) -> float | None:
        """The instant the running player runs out (None: nobody's clock runs)."""
        if self.running is None:
            return None
        if self.control.per_move is not None:
            return self.since + self.control.per_move
        return self.since + self.control.delay + self.reserves[self.running]

    def remaining(self, seat: int, now: float) -> float:
        """`seat`'s reserve at `now` (for correspondence: what is left of this move)."""
        if self.control.per_move is not None:
            if self.running != seat:
                return self.control.per_move
            return max(0.0, self.since + self.control.per_move - now)
        reserve = self.reserves[seat]
        if self.running == seat:
            reserve -= max(0.0, now - self.since - self.control.delay)
        return max(0.0, reserve)

    def delay_left(self, seat: int, now: float) -> float:
        """What is left of the running player's free delay."""
        if self.running != seat or self.control.correspondence:
            return 0.0
        return max(0.0, min(self.control.delay, self.since + self.control.delay - now))

    def expire(self, now: float) -> Expiry | None:
        """The deadline came (or passed): overtime or a loss for the running player."""
        deadline = self.deadline()
        if deadline is None or now < deadline or self.running is None:
            return None
        seat = self.running
        if not self.control.correspondence and not self.overtime_used[seat] and self.control.overtime > 0:
            self.overtime_used[seat] = True
            # The stint goes on from `since`: its budget grows by the overtime.
            self.reserves[seat] += self.control.overtime
            return Expiry.OVERTIME
        self.running = None
        if not self.control.correspondence:
            self.reserves[seat] = 0.0
        self.lost = seat
        return Expiry.LOST

    # -------------------------------------------------------------- saving

    def to_dict(self) -> dict[str, Any]:
        return {"control": self.control.to_dict(), "reserves": list(self.reserves),
                "overtime_used": list(self.overtime_used), "running": self.running,
                "since": self.since, "lost": self.lost, "game": self.game}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchClock:
        running = data.get("running")
        lost = data.get("lost")
        reserves = [float(value) for value in data["reserves"]]
        used = [bool(value) for value in data["overtime_used"]]
        if len(reserves) != 2 or len(used) != 2:
            raise ValueError("a match clock has two reserves")
        return cls(TimeControl.from_dict(data["control"]), reserves, used,
                   None if running is None else int(running), float(data["since"]),
                   None if lost is None else int(lost), int(data.get("game", 1)))

    def resumed(self, now: float) -> None:
        """The match was saved and comes back at `now`: the stint that was running when it
        was saved starts again from `now` with the reserve it began with. After an orderly
        save the stint was already charged and stopped (`stop`); after a crash (kill -9)
        the time between its start and the crash is not charged: nobody pays for time
        the server could not prove he used."""
        if self.running is not None and not self.control.correspondence:
            self.since = now
