"""What follows a match's end, above the lobby: the one place finished matches are handed on.

`fibsd.app.lobby.conclusion.finish_match` does what every match's end needs (ratings,
the record, the reports) and adds the match to its outcome's `finished` as data
(`MatchFinished`). The entry rungs above (`dispatch.handle`, `presence.log_in`/`log_out`/
`shut_down`, `timers.tick`, `results`) end every outcome with `hand_on`, which gives each
finished match to whoever acts on a match's end, and does the same for what the
outcome's jobs produce later.

This is where a feature that reacts to a match's end plugs in (a tournament advancing
its bracket, the analysis queue taking the match): a call from `hand_on` down into that
feature's module, which sits on the rung between this one and the lobby's, and returns
its effects into the same outcome. Nothing below calls up to reach them.
"""

from __future__ import annotations

from fibsd.app import analyses, tournaments
from fibsd.app.outcome import MatchFinished, Outcome
from fibsd.app.registry import Registry


def hand_on(registry: Registry, out: Outcome) -> Outcome:
    """Hand every match `out` finished on; the outcomes of `out`'s jobs will be handed on
    when they come. Returns `out`. Call it once per outcome, where the outcome is made
    (the entry rungs do)."""
    done = 0
    while done < len(out.finished):  # (whoever acts on an end may end another match)
        _match_finished(registry, out.finished[done], out)
        done += 1
    if out.jobs:
        out.jobs = [job.followed_by(lambda follow: hand_on(registry, follow)) for job in out.jobs]
    return out


def _match_finished(registry: Registry, finished: MatchFinished, out: Outcome) -> None:
    """Everything that acts on the end of one match, in order; each adds to `out`.

    Tournaments (issue 24) record a pairing's result and start what is ready; the analysis
    queue (issue 23) queues what `analysis_auto` asks for (a tournament's matches too)."""
    tournaments.match_finished(registry, finished, out)
    analyses.match_finished(registry, finished, out)
