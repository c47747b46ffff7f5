"""A match's end: `conclude` after any action on a table, `finish_match` for every end.

Whoever acts on a table (a verb, a start, a resume, a reseat, the tick's clocks) calls
`conclude` afterwards; the table itself only records the win (`table.match_won`, and how
in `match_won_how`: a game, or the clock, `fibsd.app.play.match_clock`). `finish_match`
does what every end needs, however it came (the last game, a claim, a loss on time):
ratings and experience, the result lines and reports (§6.9), the record, and the match
as data (`MatchFinished`) for what acts on a match's end above the lobby.
"""

from __future__ import annotations

from collections.abc import Callable

from fibsd.app.lobby.rating import rate, rated_between
from fibsd.app.lobby.seating import announce_to_others, pair_key
from fibsd.app.outcome import Ending, MatchFinished, Outcome
from fibsd.app.play import match_clock
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.dice import SeededDice
from fibsd.domain.player_record import MatchEnding, checker_plays
from fibsd.rules import MatchWon
from fibsd.store.api import Store
from protocol.messages import Message, TextLine
from protocol.wording import Text, render


def finish_match(registry: Registry, table: Table[Session], won: MatchWon, out: Outcome,
                 *, ending: Ending) -> None:
    """The match is over: rating block, result lines, reports, ratings, record (§6.9).

    The outcome's `finished` gets the match as data (`MatchFinished`), which the top rungs
    hand on (`fibsd.app.aftermath`): what acts on a match's end above the lobby hears of
    it there, never through a call from here."""
    match = table.match
    match_clock.stop(table, registry.clock.now())
    registry.correspondence.pop(pair_key(*table.names), None)
    if table.dropped is not None:
        # The match ended while a player was away (his clock ran out first, K8): a loss
        # on time, not a drop; nobody waits for him any more.
        registry.suspended.pop(table.names[table.dropped[0]].lower(), None)
        table.dropped = None
    winner, loser = won.winner, 1 - won.winner
    score = won.score
    length = match.length
    winner_session, loser_session = table.seats[winner], table.seats[loser]
    at_table = [player for player in (winner_session, loser_session) if player is not None]
    # Rated whoever is online: a player away is read through the store (`rating`).
    updates = None if length is None else rate(registry, table.names[winner], table.names[loser],
                                                length, out, seated=at_table)
    if length is not None:
        fields = dict(length=length, score=score[winner], opponent_score=score[loser])
        table.say(out, winner, TextLine.of(Text.YOU_WIN_MATCH, **fields),
                  TextLine.of(Text.WINS_MATCH, name=table.names[winner], **fields),
                  TextLine.of(Text.WINS_MATCH, name=table.names[winner], **fields))
        report = TextLine.of(Text.REPORT_WINS_MATCH, name=table.names[winner], opponent=table.names[loser],
                             **fields)
        # (The watchers heard it from the table already.)
        announce_to_others(registry, table, report, out, told=set(table.watchers()))
    _tell_those_away(registry, table, won, ending, out)
    table.reveal_seed(out)
    stored = match.forgotten_count  # the games only the saved match still holds
    state = match.to_dict(finished_from=stored)
    if isinstance(table.dice, SeededDice):
        # Kept with the record, so the exported .mat carries commitment and seed.
        state["dice"] = {"commitment": table.dice.commitment, "seed": table.dice.seed_hex,
                         "coin": table.first_o_seat}
    names, started_at, finished_at = table.names, table.started_at, registry.clock.now()
    finished = MatchFinished(
        players=names, winner=winner, score=score, length=length, started_at=started_at,
        finished_at=finished_at, rated=bool(updates) if updates is not None else
        length is not None and rated_between(registry, names), ending=ending, tournament=table.tournament,
    )
    out.finished.append(finished)
    kept_games = (*match.finished_games, match.game)  # (the last game is never `finished`)
    ending_kept = MatchEnding(
        how=ending.name.lower(), rated=finished.rated, moves=checker_plays(kept_games),
        final_moves=checker_plays(kept_games[-1:]))

    def record(store: Store) -> None:
        # One transaction: the record and both new ratings are stored together or not at all.
        finished.record.id = store.record_match(
            players=names, match_data=state, length=length, score=score, winner=winner,
            started_at=started_at, finished_at=finished_at, ratings=updates or (),
            saved_games_before=stored, ending=ending_kept,
        )

    out.write(record)  # before the saved match, whose first games it takes, is deleted
    out.write(lambda store: store.delete_saved_match(names[0], names[1]))
    for seated in (winner_session, loser_session):
        if seated is not None:
            seated.table = None
            seated.last_table = table
    table.seats = [None, None]
    for seated in (winner_session, loser_session):
        if seated is not None:
            registry.announce_status(seated, out)


_HOW_IT_ENDED = {
    Ending.BORNE_OFF: Text.ENDED_BORNE_OFF,
    Ending.DOUBLE_PASSED: Text.ENDED_DOUBLE_PASSED,
    Ending.RESIGNED: Text.ENDED_RESIGNED,
    Ending.TIME: Text.ENDED_ON_TIME,
    Ending.CLAIMED: Text.ENDED_CLAIMED,
}


def _tell_those_away(registry: Registry, table: Table[Session], won: MatchWon, ending: Ending,
                     out: Outcome) -> None:
    """A player not at the table when his correspondence match (or a match on time) ended
    hears of it as a FIBS message from his opponent (`Message from bob: ...`, CLIP 9,
    which every client shows): at once if he is online elsewhere, at his next login
    otherwise (docs/clocks.md)."""
    if not (match_clock.is_correspondence(table) or ending is Ending.TIME):
        return
    away = [seat for seat in (0, 1) if table.seats[seat] is None]
    if not away:
        return
    winner, loser = table.names[won.winner], table.names[1 - won.winner]
    length = table.match.length
    if length is None:
        result = render(Text.RESULT_MESSAGE_UNLIMITED, winner=winner, loser=loser)
    else:
        kind = (Text.RESULT_MESSAGE_CORRESPONDENCE if match_clock.is_correspondence(table)
                else Text.RESULT_MESSAGE)
        result = render(kind, winner=winner, loser=loser, length=length,
                        score=won.score[won.winner], opponent_score=won.score[1 - won.winner])
    text = result + render(_HOW_IT_ENDED[ending], name=loser)
    now = int(registry.clock.now())
    for seat in away:
        recipient, sender = table.names[seat], table.names[1 - seat]
        online = registry.get(recipient)
        if online is not None:
            note = Message(sender, now, text)
            online.received_messages.append(note)
            out.to(online, note)
        else:
            out.write(_leave_message(recipient, sender, now, text))


def _leave_message(recipient: str, sender: str, at: int, text: str) -> Callable[[Store], None]:
    def leave(store: Store) -> None:
        store.add_message(recipient, sender, at, text)
    return leave


def conclude(registry: Registry, table: Table[Session], out: Outcome) -> None:
    """After any action on `table`: if it won the match, finish the match (once)."""
    won = table.match_won
    if won is not None:
        table.match_won = None
        how, table.match_won_how = table.match_won_how, None
        finish_match(registry, table, won, out, ending=Ending.BORNE_OFF if how is None else how)
        return
    match_clock.schedule(table, registry.deadlines)  # a clock that runs: its deadline


def catch_up_clock(registry: Registry, table: Table[Session], out: Outcome) -> bool:
    """Before an action at `table`: a clock that ran out meanwhile (the tick has not come
    round yet) is applied first (`match_clock.caught_up`). True if that ended the match:
    the action does not happen."""
    lost = match_clock.caught_up(table, registry.clock.now(), out)
    conclude(registry, table, out)  # the match lost on time, or overtime's deadline
    return lost
