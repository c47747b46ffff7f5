"""What the shell's workers bring back enters the core here, like a command or a tick.

Engine analysis runs outside the core: the core queues a finished match (a stored job
and a record id in `Outcome.analyses`), the shell's GNU Backgammon worker processes
(`fibsd.shell.analysis_workers`) analyse it, and their result comes back through
`analysis_done`: handed to the analysis queue (`fibsd.app.analyses.arrived`), an
`Outcome` back, handed on by the aftermath like every outcome made at an entry rung
(`dispatch.handle` for a command line, `presence` for arrivals and departures,
`timers.tick` for time). At start the jobs the store kept across a restart come back the
same way (`analyses_stored`), and so do the saved matches whose clocks run while
nobody is there (`clocks_at_start`). The shell calls nothing below this rung for them.

On the ladder: the top, beside the verbs, presence and timers (the contracts in setup.cfg
forbid every rung below to import it).
"""

from __future__ import annotations

from collections.abc import Iterable

from fibsd.app import aftermath, analyses
from fibsd.app.lobby.correspondence import load_running_clocks
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.domain.match_analysis import AnalysisDone


def analysis_done(registry: Registry, done: AnalysisDone) -> Outcome:
    """A worker finished analysing a match (or gave up on it): what follows, as an outcome."""
    return aftermath.hand_on(registry, analyses.arrived(registry, done))


def analyses_stored(registry: Registry, jobs: Iterable[tuple[int, list[str]]]) -> Outcome:
    """At start: the analysis jobs the store kept (record id, who asked), in their order,
    queued again; the outcome hands them to the workers (`Outcome.analyses`)."""
    return aftermath.hand_on(registry, analyses.requeue(registry, jobs))


def clocks_at_start(registry: Registry) -> Outcome:
    """At start: the saved matches whose clock runs while nobody is there come back into
    play (a background read), so the one tick ends what runs out, whoever is online."""
    return aftermath.hand_on(registry, load_running_clocks(registry))
