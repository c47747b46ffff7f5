"""Engine analysis of finished matches, the commands: `analyse`, `analysis` and
`show pr` (docs/analysis.md). The queue itself is `fibsd.app.analyses`."""

from __future__ import annotations

from fibsd.domain.accounts import name_key
from fibsd.domain.match_analysis import MatchAnalysis, band
from fibsd.app.analyses import queue
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.matfile import MatchRecord
from fibsd.store import Store
from protocol import commands as c
from protocol.messages import TextLine
from protocol.wording import Text, render

__all__ = ["analyse", "analysis", "moves_lines", "show_pr", "summary_lines"]


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _mine(session: Session, record: MatchRecord | None, record_id: int, out: Outcome) -> bool:
    """Whether the finished match is one the asker may see (as `export` allows: his own);
    if not, he is told so."""
    if record is None or session.key not in (name_key(name) for name in record.players):
        out.to(session, TextLine.of(Text.EXPORT_UNKNOWN, number=record_id))
        return False
    return True


def analyse(registry: Registry, session: Session, command: c.Analyse, out: Outcome) -> None:
    """`analyse ID`: queue one of the asker's finished matches. The record and whether it
    was analysed are cold reads (a job); the queue is checked again when they are read."""
    if registry.analysis.unavailable is not None:
        out.to(session, TextLine.of(Text.ANALYSIS_UNAVAILABLE, text=registry.analysis.unavailable))
        return
    record_id = command.record_id

    def read(store: Store) -> tuple[MatchRecord | None, bool]:
        return store.match_record(record_id), store.analysis(record_id) is not None

    def then(found: tuple[MatchRecord | None, bool]) -> Outcome:
        answer = Outcome()
        record, analysed = found
        if _mine(session, record, record_id, answer):
            _queue_for(registry, session, record_id, analysed, answer)
        return answer

    out.run(registry.read(read, then, name="analyse: the record"))


def _queue_for(registry: Registry, session: Session, record_id: int, analysed: bool,
               out: Outcome) -> None:
    queue_state = registry.analysis
    if queue_state.unavailable is not None:
        out.to(session, TextLine.of(Text.ANALYSIS_UNAVAILABLE, text=queue_state.unavailable))
        return
    waiting = queue_state.pending.get(record_id)
    if waiting is not None:
        if session.key not in waiting:
            waiting.append(session.key)
            names = list(waiting)
            at = registry.clock.now()
            out.write(lambda store: store.queue_analysis(record_id, names, at))
        place = queue_state.position(record_id) or 1
        out.to(session, TextLine.of(Text.ANALYSIS_ALREADY_QUEUED, number=record_id,
                                    place=_ordinal(place)))
        return
    if analysed:
        out.to(session, TextLine.of(Text.ANALYSIS_ALREADY_DONE, number=record_id))
        return
    if not queue(registry, record_id, [session.key], out):
        out.to(session, TextLine.of(Text.ANALYSIS_QUEUE_FULL, count=len(queue_state.pending)))
        return
    place = queue_state.position(record_id) or 1
    out.to(session, TextLine.of(Text.ANALYSIS_QUEUED, number=record_id, place=_ordinal(place)))


def _pr_text(pr: float | None) -> str:
    return "n/a" if pr is None else f"{pr:.1f}"


def summary_lines(analysis: MatchAnalysis, record: MatchRecord) -> list[str]:
    """`analysis ID`: a header line, then one line per player (record order)."""
    length = "unlimited" if record.length is None else f"{record.length} point"
    about = (f"{record.players[0]} - {record.players[1]}, {length}, "
             f"{record.score[0]}-{record.score[1]}")
    lines = [render(Text.ANALYSIS_HEADER, number=analysis.record_id, text=about,
                    checker=analysis.checker_plies, cube=analysis.cube_plies)]
    for player in analysis.players:
        lines.append(render(
            Text.ANALYSIS_PLAYER, name=player.name, pr=_pr_text(player.pr), band=player.band,
            decisions=player.decisions, errors=player.checker_errors,
            blunders=player.checker_blunders, cube_errors=player.cube_errors,
            cube_blunders=player.cube_blunders, luck=f"{player.luck:+.3f}",
        ))
    return lines


def moves_lines(analysis: MatchAnalysis) -> list[str]:
    """`analysis ID moves`: a header line, then one line per error or blunder, in order."""
    if not analysis.errors:
        return [render(Text.ANALYSIS_NO_ERRORS, number=analysis.record_id)]
    lines = [render(Text.ANALYSIS_MOVES_HEADER, number=analysis.record_id)]
    for error in analysis.errors:
        dice = "-" if error.dice is None else f"{error.dice[0]}{error.dice[1]}"
        kind = ("blunder" if error.blunder else "error") if error.kind == "move" else (
            "cube-blunder" if error.blunder else "cube-error")
        lines.append(render(
            Text.ANALYSIS_MOVE, game=error.game, name=analysis.players[error.player].name,
            position=error.position, dice=dice, kind=kind, played=error.played or "-",
            best=error.best or "-", lost=error.lost,
        ))
    return lines


def analysis(registry: Registry, session: Session, command: c.Analysis, out: Outcome) -> None:
    """`analysis ID [moves|sgf]`: the stored analysis of one of the asker's matches (cold
    reads: a job)."""
    record_id = command.record_id
    part = command.part

    def read(store: Store) -> tuple[MatchRecord | None, MatchAnalysis | None, str]:
        record = store.match_record(record_id)
        found = store.analysis(record_id) if record is not None else None
        sgf = (store.analysis_sgf(record_id) or "") if found and part is c.AnalysisPart.SGF else ""
        return record, found, sgf

    def then(answer_data: tuple[MatchRecord | None, MatchAnalysis | None, str]) -> Outcome:
        answer = Outcome()
        record, found, sgf = answer_data
        if not _mine(session, record, record_id, answer):
            return answer
        assert record is not None
        _show(registry, session, record, found, part, sgf, answer)
        return answer

    out.run(registry.read(read, then, name="analysis: the record and its analysis"))


def _show(registry: Registry, session: Session, record: MatchRecord,
          found: MatchAnalysis | None, part: c.AnalysisPart, sgf: str, out: Outcome) -> None:
    record_id = record.id
    if found is None:
        place = registry.analysis.position(record_id)
        if place is not None:
            out.to(session, TextLine.of(Text.ANALYSIS_PENDING, number=record_id,
                                        place=_ordinal(place)))
        elif registry.analysis.unavailable is not None:
            out.to(session, TextLine.of(Text.ANALYSIS_UNAVAILABLE,
                                        text=registry.analysis.unavailable))
        else:
            out.to(session, TextLine.of(Text.ANALYSIS_NOT_YET, number=record_id))
        return
    match part:
        case c.AnalysisPart.SUMMARY:
            out.lines(session, *summary_lines(found, record))
        case c.AnalysisPart.MOVES:
            out.lines(session, *moves_lines(found))
        case c.AnalysisPart.SGF:
            out.lines(session, *sgf.splitlines(), render(Text.ANALYSIS_SGF_END, number=record_id))


def show_pr(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    """`show pr [NAME]`: the mean PR over the player's analysed matches, and how many
    (cold reads: a job)."""

    def read(store: Store) -> tuple[str, tuple[float, int] | None] | None:
        account = store.get_account(name)
        return None if account is None else (account.name, store.average_pr(account.name))

    def then(found: tuple[str, tuple[float, int] | None] | None) -> Outcome:
        answer = Outcome()
        if found is None:
            answer.to(session, TextLine.of(Text.NO_ONE_CALLED_PERIOD, name=name))
            return answer
        shown, average = found
        if average is None:
            answer.to(session, TextLine.of(Text.SHOW_PR_NONE, name=shown))
        else:
            answer.lines(session, render(Text.SHOW_PR, name=shown, pr=f"{average[0]:.1f}",
                                         band=band(average[0]), count=average[1]))
        return answer

    out.run(registry.read(read, then, name="show pr: the player's analyses"))
