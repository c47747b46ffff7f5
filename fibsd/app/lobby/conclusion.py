"""A match's end: `conclude` after any action on a table, `finish_match` for every end.

Whoever acts on a table (a verb, a start, a resume, a reseat, the tick's clocks) calls
`conclude` afterwards; the table itself only records the win (`table.match_won`, and how
in `match_won_how`: a game, or the clock, `fibsd.app.play.match_clock`). `finish_match`
does what every end needs, however it came (the last game, a claim, a loss on time):
ratings and experience, the result lines and reports (§6.9), the record, and the match
as data (`MatchFinished`) for what acts on a match's end above the lobby.
"""

from __future__ import annotations

import attrs

from fibsd.app.lobby.seating import announce_to_others, pair_key
from fibsd.app.outcome import Ending, MatchFinished, Outcome
from fibsd.app.play import match_clock
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.accounts import Account
from fibsd.domain.dice import SeededDice
from fibsd.domain.ratings import rating_calculation_block, rating_change
from fibsd.infra.house_bots import house_bot_named
from fibsd.rules import MatchWon
from fibsd.store.api import Store
from protocol.messages import TextLine
from protocol.wording import Text


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
    updates: list[tuple[str, float, int]] = []
    winner, loser = won.winner, 1 - won.winner
    score = won.score
    length = match.length
    winner_session, loser_session = table.seats[winner], table.seats[loser]
    # A player who dropped and was claimed against is not online: the account as the
    # server last saw it (it left during this run; its rating changes only here).
    w = winner_session.account if winner_session is not None else registry.known_account(table.names[winner])
    lo = loser_session.account if loser_session is not None else registry.known_account(table.names[loser])
    if length is not None and w is not None and lo is not None and _rated(registry, w, lo):
        change = rating_change(
            winner_rating=w.rating, winner_experience=w.experience,
            loser_rating=lo.rating, loser_experience=lo.experience, match_length=length,
        )
        block = rating_calculation_block(change, winner_name=w.name, loser_name=lo.name)
        for player in (winner_session, loser_session):
            if player is not None and player.account.toggles.ratings:
                out.lines(player, *block)
        if winner_session is not None:
            winner_session.account = attrs.evolve(w, rating=change.winner_rating, experience=change.winner_experience)
        if loser_session is not None:
            loser_session.account = attrs.evolve(lo, rating=change.loser_rating, experience=change.loser_experience)
        if winner_session is None:
            registry.update_gone_account(
                attrs.evolve(w, rating=change.winner_rating, experience=change.winner_experience))
        if loser_session is None:
            registry.update_gone_account(
                attrs.evolve(lo, rating=change.loser_rating, experience=change.loser_experience))
        updates = [(w.name, change.winner_rating, change.winner_experience),
                   (lo.name, change.loser_rating, change.loser_experience)]
    if length is not None:
        fields = dict(length=length, score=score[winner], opponent_score=score[loser])
        table.say(out, winner, TextLine.of(Text.YOU_WIN_MATCH, **fields),
                  TextLine.of(Text.WINS_MATCH, name=table.names[winner], **fields),
                  TextLine.of(Text.WINS_MATCH, name=table.names[winner], **fields))
        report = TextLine.of(Text.REPORT_WINS_MATCH, name=table.names[winner], opponent=table.names[loser],
                             **fields)
        # (The watchers heard it from the table already.)
        announce_to_others(registry, table, report, out, told=set(table.watchers()))
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
        finished_at=finished_at, rated=bool(updates), ending=ending, tournament=table.tournament,
    )
    out.finished.append(finished)

    def record(store: Store) -> None:
        # One transaction: the record and both new ratings are stored together or not at all.
        finished.record.id = store.record_match(
            players=names, match_data=state, length=length, score=score, winner=winner,
            started_at=started_at, finished_at=finished_at, ratings=updates,
            saved_games_before=stored,
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


def _rated(registry: Registry, first: Account, second: Account) -> bool:
    """Whether a finished fixed-length match changes ratings: always, except a match
    against a house bot when the operator turned that off (`bots_rated = false`)."""
    if registry.config.bots_rated:
        return True
    return not any(player.bot and house_bot_named(registry.config.house_bots, player.name)
                   for player in (first, second))
