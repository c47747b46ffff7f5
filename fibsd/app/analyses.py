"""The analysis queue in the core: what is queued, what is done with a result, and what
is analysed without being asked (docs/analysis.md).

The core only sees data: a job queued (stored by a write, then handed to the shell's
workers through `Outcome.analyses`), the stored jobs queued again after a restart
(`requeue`), and a result arrived (`arrived`, with a
`fibsd.domain.match_analysis.AnalysisDone`): the last two come in through the top rung
`fibsd.app.results`, like every event from outside the core. gnubg itself runs in the
shell's worker processes (fibsd/shell/analysis_workers.py). Sits on the lobby's rung: the
aftermath hands finished matches down to `match_finished`, and the commands
(`fibsd.app.verbs.analysis`) queue through `queue`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from fibsd.domain.match_analysis import AnalysisDone
from fibsd.app.outcome import Job, MatchFinished, Outcome
from fibsd.app.registry import Registry
from fibsd.store import Store
from protocol.messages import TextLine
from protocol.wording import Text

__all__ = ["arrived", "match_finished", "queue", "requeue"]

log = logging.getLogger("fibsd.app.analyses")


def queue(registry: Registry, record_id: int, requesters: list[str], out: Outcome) -> bool:
    """Put a match in the queue (stored first, then handed to the workers); False if the
    queue is full or analysis is off."""
    queue = registry.analysis
    if queue.unavailable is not None or queue.full:
        return False
    queue.pending[record_id] = list(requesters)
    at = registry.clock.now()
    names = list(requesters)
    out.write(lambda store: store.queue_analysis(record_id, names, at))
    out.analyses.append(record_id)
    return True


def match_finished(registry: Registry, finished: MatchFinished, out: Outcome) -> None:
    """A match ended: queue it if `analysis_auto` says so ("rated": every rated match;
    "tournament": a tournament's matches, those that carry a tournament's tag). Its
    record id is known only once the record is committed, so the queuing is a background
    job, which runs after that commit."""
    auto = registry.config.analysis_auto
    tournament = finished.tournament is not None
    wanted = (auto == "rated" and finished.rated) or (auto == "tournament" and tournament)
    if not wanted or registry.analysis.unavailable is not None:
        return
    slot = finished.record

    def queue_it(record_id: int | None) -> Outcome:
        follow = Outcome()
        if record_id is not None and not queue(registry, record_id, [], follow):
            log.warning("match %d not analysed automatically: the analysis queue is full",
                        record_id)
        return follow

    out.jobs.append(Job.background(lambda: slot.id, queue_it, name="automatic analysis"))


def requeue(registry: Registry, jobs: Iterable[tuple[int, list[str]]]) -> Outcome:
    """The jobs stored before a restart (record id, who asked), back in the queue in their
    order and handed to the workers again (they are stored already: nothing to write)."""
    out = Outcome()
    for record_id, requesters in jobs:
        registry.analysis.pending[record_id] = list(requesters)
        out.analyses.append(record_id)
    return out


def arrived(registry: Registry, done: AnalysisDone) -> Outcome:
    """A worker finished a job: store the analysis (or drop the failed job), then tell
    whoever asked and is online."""
    out = Outcome()
    requesters = registry.analysis.pending.pop(done.record_id, [])
    analysis = done.analysis
    if analysis is not None:
        sgf, puzzles = done.sgf, done.puzzles

        def save(store: Store) -> None:
            store.save_analysis(analysis, sgf, puzzles)

        out.write(save)
        line = TextLine.of(Text.ANALYSIS_READY, number=done.record_id)
    else:
        record_id = done.record_id
        out.write(lambda store: store.drop_analysis_job(record_id))
        line = TextLine.of(Text.ANALYSIS_FAILED, number=done.record_id,
                           text=done.failure or "unknown reason")
    for key in requesters:
        session = registry.get(key)
        if session is not None:
            out.to(session, line)
    return out
