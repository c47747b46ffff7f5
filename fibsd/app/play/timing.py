"""A running match's clock: when it starts and stops, what it shows, and the deadline heap.

The pure arithmetic is `fibsd.rules.timecontrol`; this module ties it to a table. Who is to
act is read from the match after every completed action (`sync`, called from the table's
one save point): when that changes, the clock stops for the one who acted and starts for
the one to act (club-play.md K5). It changes when the turn passes, a double is offered or
answered, a resignation is offered or answered, and a game ends (then nobody's clock runs
until the next game has started and its opening roll is done). Rolling and then moving is
one stint: the free delay is given once per stint.

`Deadlines` is the server's heap of instants at which some running clock runs out: the
tick looks at its top only, so idle matches cost nothing per second (docs/benchmarks.md).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Set as AbstractSet
from typing import Generic, Protocol, TypeVar

from fibsd.app.outcome import Outcome, Recipient
from fibsd.rules import GamePhase, Match
from fibsd.rules.timecontrol import SECONDS_PER_DAY, MatchClock, TimeControl
from protocol.messages import TextLine
from protocol.wording import Text, render


class Timed(Protocol):
    """What the clock reads of a table (`fibsd.app.play.table.Table` is one)."""

    timer: MatchClock | None
    clock_stint: tuple[int, ...] | None
    clock_paused: bool

    @property
    def match(self) -> Match: ...
    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def awaiting_join(self) -> AbstractSet[int]: ...
    @property
    def opening_done(self) -> bool: ...
    def viewers(self) -> Iterable[Recipient]: ...


def stint_key(match: Match, awaiting_join: AbstractSet[int], opening_done: bool) -> tuple[int, ...] | None:
    """Who is to act, and in which stint: equal keys are one stint of one player's clock.
    None: nobody is to act (between games, before the opening roll, match over)."""
    if match.over or awaiting_join or not opening_done:
        return None
    game = match.game
    if game.phase in (GamePhase.OPENING, GamePhase.GAME_OVER):
        return None
    actor = game.actor()
    if actor is None:
        return None
    # A turn counts from when it passes to the player, not from his roll: rolling and
    # moving is one stint.
    turns = sum(game.turns_started) + (1 if game.dice is None else 0)
    return (match.game_number, actor, turns, int(game.double_pending), int(game.resignation is not None))


def sync(table: Timed, now: float, out: Outcome) -> None:
    """After an action: start or stop the clock if who is to act changed, and tell the
    CLIP clients that asked for fibsd's lines (the clock line is an extension)."""
    timer = table.timer
    if timer is None or timer.lost is not None or table.clock_paused:
        return
    key = stint_key(table.match, table.awaiting_join, table.opening_done)
    if key == table.clock_stint:
        return
    previous, table.clock_stint = table.clock_stint, key
    if key is None:
        timer.stop(now)
    else:
        timer.stop(now)
        timer.new_game(table.match.game_number)  # (per game: full again, K6)
        timer.start(key[1], now)
    line = clock_line(table, now)
    for viewer in table.viewers():
        if viewer.clip:
            out.to(viewer, line)


def pause(table: Timed, now: float) -> None:
    """The match is saved (a player left or logged out): a delay clock stops, charged up
    to now; a correspondence clock keeps running (K7)."""
    timer = table.timer
    if timer is None or timer.control.correspondence:
        return
    timer.stop(now)
    table.clock_stint = None
    table.clock_paused = True  # until the match is resumed (a new table)


def _whole(seconds: float) -> int:
    return int(seconds)  # shown rounded down: "0" means less than a second is left


def clock_line(table: Timed, now: float) -> TextLine:
    """The machine-readable clock line (docs/clocks.md gives its fields)."""
    timer = table.timer
    assert timer is not None
    running = timer.running
    control = timer.control
    return TextLine.of(
        Text.CLOCK_STATE,
        name=table.names[0], reserve=_whole(timer.remaining(0, now)),
        opponent=table.names[1], opponent_reserve=_whole(timer.remaining(1, now)),
        delay=_whole(control.delay),
        delay_left=_whole(timer.delay_left(running, now)) if running is not None else 0,
        mover="-" if running is None else table.names[running],
        kind="days" if control.correspondence else "delay",
    )


def terms(control: TimeControl) -> str:
    """A clock's terms in words, for the `Clock: ...` line: `delay 12 s, reserve 10:00, one
    overtime of 1:00` / `2 days per move (correspondence)`."""
    if control.per_move is not None:
        return render(Text.CLOCK_TERMS_DAYS, text=f"{control.per_move / SECONDS_PER_DAY:g}")
    text = render(Text.CLOCK_TERMS_PER_GAME if control.per_game else Text.CLOCK_TERMS_DELAY,
                  text=f"{control.delay:g}", duration=duration(control.reserve))
    if control.overtime > 0:
        text += render(Text.CLOCK_TERMS_OVERTIME, duration=duration(control.overtime))
    return text


def duration(seconds: float) -> str:
    """`1:05:09`, `9:47`, `0:03`: hours only when needed; days for correspondence."""
    whole = int(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d{hours:02d}:{minutes:02d}:{secs:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def board_label(timer: MatchClock, seat: int, now: float) -> str:
    """What the ASCII board shows beside a player's name: his time, and whether it runs."""
    text = duration(timer.remaining(seat, now))
    if timer.running == seat:
        return f"{text} running"
    return text


T = TypeVar("T")


class Deadlines(Generic[T]):
    """Instants at which something may run out, nearest first (a heap with lazy removal:
    an entry whose item no longer has that deadline is skipped when it comes up)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, T]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._heap)

    def push(self, when: float, item: T) -> None:
        heapq.heappush(self._heap, (when, next(self._order), item))

    def nearest(self) -> float | None:
        return self._heap[0][0] if self._heap else None

    def due(self, now: float) -> list[tuple[float, T]]:
        """Every entry whose instant has come, removed from the heap, nearest first."""
        found: list[tuple[float, T]] = []
        while self._heap and self._heap[0][0] <= now:
            when, _, item = heapq.heappop(self._heap)
            found.append((when, item))
        return found
