"""Time, for the whole core: the one `tick` the shell runs while anything is timed.

The core has no timers of its own. The shell asks `next_tick_in` how soon it wants a
`tick` (None: nothing is timed, no periodic task runs), and runs one ticker task that
calls `tick(registry, now)` and applies the outcome like a command's. `tick` composes
every feature's deadlines: the chouettes' answer time, grace periods and absence limits,
the tournaments' no-show times, the recurring tournaments' openings and starts
(`fibsd.app.recurring`), and the match clocks (`fibsd.app.play.match_clock`, whose
losses on time the lobby concludes like any match's end). A feature's own
commands may check its deadlines too (`chouettes.tick_table`), so a deadline holds
between two ticks as well.
"""

from __future__ import annotations

from fibsd.app import aftermath, chouettes, recurring, tournaments
from fibsd.app.lobby.conclusion import conclude
from fibsd.app.outcome import Outcome
from fibsd.app.play import match_clock
from fibsd.app.registry import Registry

#: How often the chouettes' deadlines are checked (answer time, grace periods).
CHOUETTE_TICK_SECONDS = 1.0


def next_tick_in(registry: Registry) -> float | None:
    """Seconds until the core wants its next `tick`; None while nothing is timed."""
    wanted: list[float] = []
    if chouettes.tables(registry):  # (loads the saved tables the first time)
        wanted.append(CHOUETTE_TICK_SECONDS)
    tournament_tick = tournaments.next_tick_in(registry)
    if tournament_tick is not None:
        wanted.append(tournament_tick)
    schedule_tick = recurring.next_tick_in(registry)
    if schedule_tick is not None:
        wanted.append(schedule_tick)
    clocks_tick = match_clock.next_tick_in(registry.deadlines, registry.clock.now())
    if clocks_tick is not None:
        wanted.append(clocks_tick)
    return min(wanted, default=None)


def tick(registry: Registry, now: float) -> Outcome:
    """Everything whose time came by `now`, in one outcome."""
    out = Outcome()
    out.extend(chouettes.tick(registry, now))
    out.extend(tournaments.tick(registry, now))
    out.extend(recurring.tick(registry, now))
    for table in match_clock.due(registry.deadlines, now, out):  # (the match clocks)
        conclude(registry, table, out)  # a loss on time ends the match; overtime goes on
    return aftermath.hand_on(registry, out)
