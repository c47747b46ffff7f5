"""`show record NAME [OPPONENT]` (issue 37 §2, docs/matches.md): a player's matches won
and lost by length and rating, his unfinished ones, and the PR of his last analysed
matches, as the store counts them (`fibsd.store.families.player_records`), in a job."""

from __future__ import annotations

from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.match_analysis import band
from fibsd.domain.player_record import VERY_SHORT_MOVES, PlayerRecord
from fibsd.store.api import Store
from protocol.messages import TextLine
from protocol.wording import Text, render


def show_record(registry: Registry, session: Session, name: str, opponent: str | None,
                out: Outcome) -> None:
    """Read the record (cold reads: a job) and answer with `record_lines`."""

    def read(store: Store) -> PlayerRecord | str:
        account = store.get_account(name)
        if account is None:
            return name
        against = None
        if opponent is not None:
            other = store.get_account(opponent)
            if other is None:
                return opponent
            against = other.name
        return store.player_record(account.name, against)

    def then(found: PlayerRecord | str) -> Outcome:
        answer = Outcome()
        if isinstance(found, str):
            answer.to(session, TextLine.of(Text.NO_ONE_CALLED_PERIOD, name=found))
        else:
            answer.lines(session, *record_lines(found))
        return answer

    out.run(registry.read(read, then, name="show record"))


def record_lines(record: PlayerRecord) -> list[str]:
    """The lines of `show record` for `record`."""
    totals = dict(played=record.played, won=record.won, lost=record.lost)
    if record.opponent is None:
        lines = [render(Text.RECORD_HEADER, name=record.name, **totals)]
    else:
        lines = [render(Text.RECORD_HEADER_AGAINST, name=record.name, opponent=record.opponent,
                        **totals)]
    for tally in record.tallies:
        kind = "rated" if tally.rated else "unrated"
        if tally.length is None:
            lines.append(render(Text.RECORD_UNLIMITED, kind=kind, played=tally.played))
        else:
            lines.append(render(Text.RECORD_LENGTH, length=tally.length, kind=kind,
                                played=tally.played, won=tally.won, lost=tally.lost))
    unfinished = record.unfinished
    counts = dict(saved=unfinished.saved, abandoned=unfinished.abandoned,
                  time=unfinished.lost_on_time, claimed=unfinished.claimed)
    if unfinished.dropped is None:
        lines.append(render(Text.RECORD_UNFINISHED, **counts))
    else:
        lines.append(render(Text.RECORD_UNFINISHED_DROPS, drops=unfinished.dropped, **counts))
    for figure in record.prs:
        if figure.average is None:
            lines.append(render(Text.RECORD_PR_NONE, span=figure.span))
        else:
            lines.append(render(Text.RECORD_PR, span=figure.span,
                                pr=f"{figure.average:.1f} ({band(figure.average)})",
                                count=figure.matches))
    lines.append(render(Text.RECORD_LEFT_OUT, count=record.left_out, moves=VERY_SHORT_MOVES))
    return lines
