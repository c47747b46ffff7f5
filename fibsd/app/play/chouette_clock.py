"""A chouette's clock (club-play.md K6): the box's time against the team's, per game.

A chouette created with a clock (`chouette create ... clock ...`, the terms of `invite`)
keeps one `MatchClock` (`table.timer`) whose seat 0 is the box and seat 1 the team: the
captain's rolls and moves and every crew member's own cube decisions (doubling the box,
answering the box's doubles, resigning, giving an extra) run on the team's time, as the
box's rolls, moves and answers run on his. The reserve is per game (K6), full again at
each game. Whose clock runs is read from the engine after every completed action, at
the table's one save point (`sync`, from `ChouetteTable.persist`), as a match's is:

| the game waits for | whose clock runs |
|---|---|
| an answer to a double or a resignation | the answering side's |
| droppers deciding on an extra | the team's |
| the side on turn to roll or double, then to move | that side's |
| nobody: before the opening roll, between games | nobody's |

When a side runs out (`check`, from `fibsd.app.chouettes.tick_table`: every tick and
before every command of the table's users), its overtime starts if the terms allow one;
otherwise that side loses the game as a resignation of a single game would, each live
cube settling at its value (`Chouette.time_out`), and the table rotates as after any
game. What it shows: the `clock:` line of a match (fields in docs/clocks.md) to the CLIP
clients at the table (joining a chouette is the opt-in to its lines), `clock`'s rows,
and a line with both sides' time under the telnet board's header.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fibsd.app.outcome import Outcome
from fibsd.app.play import match_clock
from fibsd.rules import GamePhase
from fibsd.rules.chouette import Chouette, Holder, TablePhase
from fibsd.rules.timecontrol import Expiry, MatchClock
from protocol.messages import TextLine
from protocol.wording import Text, render

if TYPE_CHECKING:
    from fibsd.app.play.chouette import ChouetteTable

#: The sides as the clock's seats.
BOX, TEAM = 0, 1


def side_waited_for(engine: Chouette) -> int | None:
    """The side whose clock runs now (BOX, TEAM), or None (nobody's)."""
    game = engine.game
    if engine.phase is not TablePhase.PLAYING or game is None:
        return None
    if game.phase in (GamePhase.OPENING, GamePhase.GAME_OVER) or engine.partner_offered_to is not None:
        return None
    waiting = [answerer for _cid, _by, answerer, _result in engine.pending_resignations()]
    waiting += [answerer for _cid, _by, answerer in engine.pending_offers()]
    if waiting:
        return BOX if waiting[0] == engine.box else TEAM
    if engine.extras_givers:
        return TEAM
    return None if game.turn is None else (BOX if game.turn == 0 else TEAM)


def stint_key(engine: Chouette) -> tuple[int, ...] | None:
    """Equal keys are one stint of one side's clock (a new key: a new delay)."""
    side = side_waited_for(engine)
    game = engine.game
    if side is None or game is None:
        return None
    turns = sum(game.turns_started) + (1 if game.dice is None else 0)
    return (engine.game_number, side, turns, len(engine.pending_offers()),
            len(engine.pending_resignations()), len(engine.extras_givers))


def sync(table: ChouetteTable[Any], now: float, out: Outcome) -> None:
    """After an action: start or stop the clock if the side waited for changed, and send
    the clock line to the CLIP clients at the table."""
    timer = table.timer
    if timer is None:
        return
    key = stint_key(table.engine)
    if key == table.clock_stint:
        return
    table.clock_stint = key
    timer.stop(now)
    if key is not None:
        timer.new_game(key[0])  # (per game: full again, K6)
        timer.start(key[1], now)
    line = clock_line(table, now)
    if line is not None:
        out.to_each((occupant for occupant in table.everyone() if occupant.clip), line)


def check(table: ChouetteTable[Any], now: float, out: Outcome) -> None:
    """A side whose time ran out by `now`: its overtime, or the game lost on time."""
    timer = table.timer
    deadline = None if timer is None else timer.deadline()
    if timer is None or deadline is None or now < deadline or timer.running is None:
        return
    side = timer.running
    name = side_name(table.engine, side)
    expiry = timer.expire(now)
    if expiry is Expiry.OVERTIME:
        table.tell_all(out, TextLine.of(Text.CHOUETTE_IN_OVERTIME, side=name,
                                        duration=match_clock.duration(timer.control.overtime)))
        table.persist(out)
        return
    if expiry is not Expiry.LOST:
        return
    timer.lost = None  # (the next game's clock runs again, full)
    table.clock_stint = None
    table.tell_all(out, TextLine.of(Text.CHOUETTE_LOST_ON_TIME, side=name))
    holder = Holder.BOX if side == BOX else Holder.TEAM
    table.act(None, lambda: table.engine.time_out(holder), out)


def side_name(engine: Chouette, side: int) -> str:
    """`the box (ann)` / `the team (ben)`: the side and who acts for it."""
    if side == BOX:
        return render(Text.CHOUETTE_CLOCK_BOX, name=engine.box or "?")
    return render(Text.CHOUETTE_CLOCK_TEAM, name=engine.captain or "?")


def clock_line(table: ChouetteTable[Any], now: float) -> TextLine | None:
    """A match's `clock:` line (docs/clocks.md) with the box as the first player and the
    captain as the second; None between games."""
    timer, engine = table.timer, table.engine
    if timer is None or engine.box is None or engine.captain is None:
        return None
    running = timer.running
    return TextLine.of(
        Text.CLOCK_STATE, name=engine.box, reserve=int(timer.remaining(BOX, now)),
        opponent=engine.captain, opponent_reserve=int(timer.remaining(TEAM, now)),
        delay=int(timer.control.delay),
        delay_left=int(timer.delay_left(running, now)) if running is not None else 0,
        mover="-" if running is None else (engine.box if running == BOX else engine.captain),
        kind="delay",
    )


def rows(table: ChouetteTable[Any], now: float) -> list[TextLine]:
    """`clock` at a chouette: the terms, then the box's and the team's time."""
    timer = table.timer
    assert timer is not None
    lines = [TextLine.of(Text.CHOUETTE_CLOCK_TERMS, text=match_clock.terms(timer.control))]
    for side in (BOX, TEAM):
        state = ""
        if timer.running == side:
            state = Text.CLOCK_ROW_TO_ACT.value
            delay_left = int(timer.delay_left(side, now))
            if delay_left > 0:
                state += render(Text.CLOCK_ROW_DELAY_FIRST, seconds=delay_left)
        if timer.overtime_used[side]:
            state += Text.CLOCK_ROW_OVERTIME.value
        # (The row of a match clock: one template, so a line is recognised as one member.)
        lines.append(TextLine.of(Text.CLOCK_ROW, name=side_name(table.engine, side),
                                 duration=match_clock.duration(timer.remaining(side, now)), text=state))
    return lines


def header_line(table: ChouetteTable[Any], now: float) -> TextLine:
    """The line under the telnet board's header: both sides' time, and whose runs."""
    timer = table.timer
    assert timer is not None
    return TextLine.of(Text.CHOUETTE_HEADER_CLOCK, box_time=match_clock.board_label(timer, BOX, now),
                       team_time=match_clock.board_label(timer, TEAM, now))


def restored(data: dict[str, Any] | None, now: float) -> MatchClock | None:
    """A saved table's clock (None: it has none): a running stint goes on from `now`
    (the time the table was away is nobody's, as for a saved match)."""
    return match_clock.restored(data, now)
