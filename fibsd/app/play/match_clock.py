"""A match's clock, in the core: the one home of its code (docs/clocks.md).

The pure arithmetic (reserves, the delay, overtime, a stint's charge) is
`fibsd.rules.timecontrol.MatchClock`, which a table holds as `table.timer` and saves with
the match. Everything the server does with it is here, and the table, the tick
(`fibsd.app.timers`) and the verbs call it:

* **When it runs** (`sync`, called from the table's one save point): who is to act is
  read from the match after every completed action; when that changes, the clock stops
  for the one who acted and starts for the one to act (club-play.md K5). It changes when
  the turn passes, a double or a resignation is offered or answered, and a game ends
  (then nobody's clock runs until the next game's opening roll is done). Rolling and
  then moving is one stint: the free delay is given once per stint.
* **When it waits**: a saved match's clock stops (`pause`), a correspondence clock does
  not (K7); while a dropper is away only his clock runs (`pause_for_drop`, K8); back at
  the table it goes on (`go_on`).
* **When it runs out**: `Deadlines` is the server's heap of instants at which some
  running clock runs out; the tick looks at its top only (`due`), so idle matches cost
  nothing per second (docs/benchmarks.md), and an action checks its own table first
  (`caught_up`), so a deadline holds between two ticks. Running out starts the player's
  overtime, or loses him the match: then the table's `match_won` is set, like a game
  that won the match, and whoever acted concludes it (`fibsd.app.lobby.conclusion`).
* **What it shows**: the clock line CLIP clients parse (`clock_line`), the labels beside
  the names on the ASCII board (`board_labels`), a clock's terms in words (`terms`),
  durations (`duration`).

`ClockKeeping` is what the table keeps for its clock besides the clock itself.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from fibsd.app.outcome import Ending, Outcome
from fibsd.rules import GamePhase, Match, MatchWon
from fibsd.rules.timecontrol import SECONDS_PER_DAY, Expiry, MatchClock, TimeControl
from protocol.messages import TextLine
from protocol.wording import Text, render

if TYPE_CHECKING:
    from fibsd.app.play.table import Table

#: The longest the shell's ticker sleeps while a match clock runs: a clock started
#: meanwhile with a nearer deadline is then seen within this (deadlines hold to the second).
CLOCK_TICK_SECONDS = 1.0


@attrs.define
class ClockKeeping:
    """What a table keeps for its clock, besides the clock's own state (`table.timer`)."""

    #: Who is to act, as the clock last saw it (`stint_key`).
    stint: tuple[int, ...] | None = None
    #: A saved match's clock waits (`pause`) until the match goes on (`go_on`).
    paused: bool = False
    #: The deadline this table last put on the server's heap (`schedule`).
    scheduled: float | None = None


def keeping_for(match: Match, timer: MatchClock | None, awaiting_join: AbstractSet[int],
                opening_done: bool) -> ClockKeeping:
    """A new or restored table's keeping: a restored clock that runs is in its stint."""
    keeping = ClockKeeping()
    if timer is not None and timer.running is not None:
        keeping.stint = stint_key(match, awaiting_join, opening_done)
    return keeping


def restored(data: dict[str, Any] | None, now: float) -> MatchClock | None:
    """A saved match's clock (None: the match has none). The time the match was saved is
    nobody's (docs/clocks.md): a running stint goes on from `now`."""
    if data is None:
        return None
    timer = MatchClock.from_dict(data)
    timer.resumed(now)
    return timer


# ------------------------------------------------------------------ when it runs


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


def sync(table: Table[Any], now: float, out: Outcome) -> None:
    """After an action: start or stop the clock if who is to act changed, and tell the
    CLIP clients that asked for fibsd's lines (the clock line is an extension)."""
    timer, keeping = table.timer, table.clock_keeping
    if timer is None or timer.lost is not None or keeping.paused:
        return
    key = stint_key(table.match, table.awaiting_join, table.opening_done)
    if key == keeping.stint:
        return
    keeping.stint = key
    timer.stop(now)
    if key is not None:
        timer.new_game(table.match.game_number)  # (per game: full again, K6)
        timer.start(key[1], now)
    line = clock_line(table, now)
    for viewer in table.viewers():
        if viewer.clip:
            out.to(viewer, line)


def stop(table: Table[Any], now: float) -> None:
    """The match is over: the clock stops for good."""
    if table.timer is not None:
        table.timer.stop(now)
        table.clock_keeping.stint = None


# ------------------------------------------------------------------ when it waits


def is_correspondence(table: Table[Any]) -> bool:
    """A correspondence match: days per move, a clock that runs while nobody is there (K7)."""
    return table.timer is not None and table.timer.control.correspondence


def pause(table: Table[Any], now: float) -> None:
    """The match is saved (a player left or logged out): a delay clock stops, charged up
    to now; a correspondence clock keeps running (K7)."""
    timer = table.timer
    if timer is None or timer.control.correspondence:
        return
    timer.stop(now)
    table.clock_keeping.stint = None
    table.clock_keeping.paused = True  # until the match is resumed (a new table)


def pause_for_drop(table: Table[Any], seat: int, now: float) -> None:
    """The player in `seat` dropped: the one still here may not act while the other is
    away, so his clock waits (K8 runs only the dropper's)."""
    if table.timer is not None and table.timer.running == 1 - seat:
        pause(table, now)


def go_on(table: Table[Any]) -> bool:
    """A waiting clock may run again (the dropper is back): the next save starts the
    clock of whoever is to act. True if it was waiting (the table should save)."""
    if not table.clock_keeping.paused:
        return False
    table.clock_keeping.paused = False
    return True


# ------------------------------------------------------------------ when it runs out


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


TableT = TypeVar("TableT", bound="Table[Any]")


def schedule(table: TableT, deadlines: Deadlines[TableT]) -> None:
    """Put the instant the running clock runs out on the server's heap (once per stint)."""
    timer = table.timer
    deadline = None if timer is None else timer.deadline()
    if deadline is not None and deadline != table.clock_keeping.scheduled:
        table.clock_keeping.scheduled = deadline
        deadlines.push(deadline, table)


def next_tick_in(deadlines: Deadlines[Any], now: float) -> float | None:
    """How soon the tick should look at the clocks again (None: no clock runs)."""
    nearest = deadlines.nearest()  # the top of the heap only
    if nearest is None:
        return None
    return min(CLOCK_TICK_SECONDS, max(0.0, nearest - now))


def due(deadlines: Deadlines[TableT], now: float, out: Outcome) -> list[TableT]:
    """The clocks that ran out by `now` (club-play.md K4), each expired (`expire`): the
    tables it touched, for the caller to conclude. Looks only at the top of the heap:
    nothing is done per match per second."""
    touched: list[TableT] = []
    for when, table in deadlines.due(now):
        timer = table.timer
        if timer is None or timer.deadline() != when:
            continue  # the player acted (or the match was saved or ended) in time
        table.clock_keeping.scheduled = None
        expire(table, now, out)
        touched.append(table)
    return touched


def caught_up(table: Table[Any], now: float, out: Outcome) -> bool:
    """Before an action at `table`: if the running clock ran out meanwhile (the tick has
    not come round yet), expire it first. True if that lost the match (`match_won` is
    set: the caller concludes it and the action does not happen)."""
    timer = table.timer
    deadline = None if timer is None else timer.deadline()
    if deadline is None or now < deadline:
        return False
    return expire(table, now, out)


def expire(table: Table[Any], now: float, out: Outcome) -> bool:
    """The running player's clock ran out: his overtime starts, or he loses the match on
    time (rated as a loss, like a claimed match; `match_won` is set for the caller to
    conclude). True if the match is lost."""
    timer = table.timer
    assert timer is not None
    seat = timer.running
    expiry = timer.expire(now)
    if seat is None or expiry is None:
        return False
    name = table.names[seat]
    if expiry is Expiry.OVERTIME:
        text = duration(timer.control.overtime)
        table.say(out, seat, TextLine.of(Text.YOU_IN_OVERTIME, duration=text),
                  TextLine.of(Text.IN_OVERTIME, name=name, duration=text),
                  TextLine.of(Text.IN_OVERTIME, name=name, duration=text))
        table.persist(out)
        return False
    table.say(out, seat, TextLine.of(Text.YOU_LOSE_ON_TIME), TextLine.of(Text.LOSES_ON_TIME, name=name),
              TextLine.of(Text.LOSES_ON_TIME, name=name))
    winner = 1 - seat
    score = list(table.match.score)
    if table.match.length is not None:
        score[winner] = max(score[winner], table.match.length)
    table.match_won = MatchWon(winner, (score[0], score[1]))
    table.match_won_how = Ending.TIME
    return True


# ------------------------------------------------------------------ what it shows


def _whole(seconds: float) -> int:
    return int(seconds)  # shown rounded down: "0" means less than a second is left


def clock_line(table: Table[Any], now: float) -> TextLine:
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


def board_labels(table: Table[Any], seat: int, now: float) -> tuple[str, str] | None:
    """The clocks beside the names on `seat`'s ASCII board (his, his opponent's)."""
    if table.timer is None:
        return None
    return (board_label(table.timer, seat, now), board_label(table.timer, 1 - seat, now))
