"""A match's life around the table: start, resume, interrupt, reseat, claim and finish.

The lobby starts a new match (options agreed from both players' settings and the
invitation), resumes a saved one, saves a match when a player leaves or drops (or keeps
it waiting for the dropper), puts a returning player back at the table, lets the
opponent claim an abandoned match, and concludes a match that a table action won:
ratings and experience, the match record, the reports to other users (§6.1-6.3, §6.9,
§6.11). Whoever acts on a table calls `conclude` afterwards; the table itself only
records the win.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from fibsd.app import watchers
from fibsd.app.outcome import Ending, MatchFinished, Outcome
from fibsd.app.play import boards, timing
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Invitation, Session
from fibsd.domain.dice import SeededDice
from fibsd.domain.ratings import rating_calculation_block, rating_change
from fibsd.rules import Match, MatchOptions, MatchWon, WinKind
from fibsd.rules.timecontrol import Expiry, MatchClock
from fibsd.store.api import Store
from protocol.messages import TextLine
from protocol.wording import Text, resume_synopsis_lines

#: Automatic doubles on opening ties in unlimited matches, when both players want them.
AUTO_DOUBLES_MAX = 3
#: Players not on the ratings list (experience 50 or less) may not invite to longer matches.
MAX_LENGTH_FOR_NEWCOMERS = 9
RANKED_EXPERIENCE = 50


class Interruption(enum.Enum):
    """Why a match stops without ending (§6.11)."""

    LEFT = enum.auto()
    LOGGED_OUT = enum.auto()
    DROPPED = enum.auto()
    TIMED_OUT = enum.auto()
    REPLACED = enum.auto()
    SHUT_DOWN = enum.auto()


def _redoubles_limit(value: int | str) -> int:
    return 99 if value == "unlimited" else int(value)


def start_match(registry: Registry, inviter: Session, invitee: Session, invitation: Invitation,
                *, replaced: dict[str, Any] | None = None) -> Outcome:
    """A new match between `inviter` (player 0) and `invitee` (player 1) (§6.2).

    `replaced` is the pair's saved match, which the new one replaces (read by the caller,
    a cold read: `verbs.play.join`): its dice seed is revealed."""
    out = Outcome()
    a, b = inviter.account, invitee.account
    unlimited = invitation.unlimited
    redoubles = min(_redoubles_limit(a.variables.redoubles), _redoubles_limit(b.variables.redoubles))
    options = MatchOptions(
        length=None if unlimited else invitation.length,
        # Unless both said no, or the invitation (which the invitee joined) said so.
        crawford=(a.toggles.crawford or b.toggles.crawford) and not invitation.nocrawford,
        holland=invitation.holland and not unlimited,
        jacoby=unlimited and invitation.jacoby,
        beavers=unlimited and (redoubles > 0 or invitation.beavers),
        auto_doubles_max=AUTO_DOUBLES_MAX if unlimited and a.toggles.autodouble and b.toggles.autodouble else 0,
    )
    dice = registry.match_dice.new()
    table: Table[Session] = Table(
        Match(options), (inviter.name, invitee.name),
        clock=registry.clock, dice=dice, roll_counts=registry.roll_counts,
        first_o_seat=dice.coin(), started_at=registry.clock.now(),
        redoubles_field=redoubles if unlimited else 0,
        crawford_disabled=not options.crawford,
        timer=None if invitation.clock is None else MatchClock(invitation.clock),
    )
    first, second = inviter.name, invitee.name
    if table.timer is not None and table.timer.control.correspondence:
        registry.correspondence[pair_key(first, second)] = table
    _abandon_saved_match(inviter, invitee, replaced, out)
    out.write(lambda store: store.delete_saved_match(first, second))
    _seat(registry, table, inviter, invitee, out)
    if unlimited:
        out.to(invitee, TextLine.of(Text.NOW_PLAYING_UNLIMITED, name=inviter.name))
        out.to(inviter, TextLine.of(Text.JOINED_YOU_UNLIMITED, name=invitee.name))
        report = TextLine.of(Text.START_UNLIMITED, name=inviter.name, opponent=invitee.name)
    else:
        length = invitation.length
        out.to(invitee, TextLine.of(Text.NOW_PLAYING_MATCH, length=length, name=inviter.name))
        out.to(inviter, TextLine.of(Text.JOINED_YOU_MATCH, name=invitee.name, length=length))
        report = TextLine.of(Text.START_MATCH, name=inviter.name, opponent=invitee.name, length=length)
    _report(registry, table, report, out)
    table.announce_commitment(out)
    table.start_game(out)
    conclude(registry, table, out)
    return out


def restore_table(registry: Registry, data: dict[str, Any]) -> Table[Session]:
    """A saved match as a table (nobody seated); ValueError if the data is not one."""
    dice = data.get("dice") if isinstance(data, dict) else None
    return Table.from_saved(
        data, clock=registry.clock, roll_counts=registry.roll_counts,
        dice=registry.match_dice.restored(dice if isinstance(dice, dict) else None),
    )


def _abandon_saved_match(inviter: Session, invitee: Session, data: dict[str, Any] | None,
                         out: Outcome) -> None:
    """A new match replaces the pair's saved one (`data`): its dice seed is revealed now."""
    dice = None if data is None else data.get("dice")
    if not isinstance(dice, dict):
        return  # nothing saved, or scripted dice (tests), or a match from before seeds
    try:
        seed = SeededDice.from_dict(dice).seed_hex
    except (ValueError, KeyError, TypeError):
        return
    line = TextLine.of(Text.DICE_REVEALED, seed=seed)
    out.to(inviter, line)
    out.to(invitee, line)


def resume_match(registry: Registry, inviter: Session, invitee: Session, data: dict[str, Any]) -> Outcome:
    """Resume the saved match of these two players (§6.3)."""
    out = Outcome()
    try:
        table = restore_table(registry, data)
    except ValueError:
        for player in (inviter, invitee):
            out.to(player, TextLine.of(Text.SAVED_MATCH_CORRUPT))
        inviter_name, invitee_name = inviter.name, invitee.name
        out.write(lambda store: store.delete_saved_match(inviter_name, invitee_name))
        return out
    # Seats follow the saved names, whoever invited this time.
    if table.names[0].lower() == inviter.name.lower():
        first, second = inviter, invitee
    else:
        first, second = invitee, inviter
    table.names = (first.name, second.name)
    _seat(registry, table, first, second, out)
    out.to(invitee, TextLine.of(Text.RESUMED_MATCH_LOADED, name=inviter.name))
    out.to(inviter, TextLine.of(Text.JOINED_MATCH_LOADED, name=invitee.name))
    if table.match.length is None:
        report = TextLine.of(Text.RESUMING_UNLIMITED, name=inviter.name, opponent=invitee.name)
    else:
        report = TextLine.of(Text.RESUMING_MATCH, name=inviter.name, opponent=invitee.name,
                             length=table.match.length)
    _report(registry, table, report, out)
    table.announce_commitment(out)
    match = table.match
    turn = match.game.turn
    synopsis = resume_synopsis_lines(
        turn=table.names[turn if turn is not None else 0],
        match_length=match.length,
        names_and_scores=[(table.names[0], match.score[0]), (table.names[1], match.score[1])],
    )
    for seat, player in enumerate((first, second)):
        out.lines(player, *synopsis)
        out.to(player, boards.board_for(table, player, seat))
        watchers.put_back(registry, table, player, seat, out)
    table.prompt_current(out)
    table.persist(out)
    conclude(registry, table, out)  # the automatic roll may have ended the match (§1.6)
    return out


def _seat(registry: Registry, table: Table[Session], first: Session, second: Session, out: Outcome) -> None:
    for seat, player in enumerate((first, second)):
        stop_watching(player, out)
        player.invitation = None
        player.table = table
        table.seats[seat] = player
    for player in (first, second):
        registry.announce_status(player, out)


def _report(registry: Registry, table: Table[Session], line: TextLine, out: Outcome) -> None:
    """Users with `report` on, and the watchers of either player, hear of starts/ends."""
    watchers = list(table.watchers())
    out.to_each(watchers, line)
    _report_to_others(registry, table, line, out, told=set(watchers))


def _report_to_others(
    registry: Registry, table: Table[Session], line: TextLine, out: Outcome, *, told: set[Session]
) -> None:
    """Users with `report` on, other than the players and those already `told`."""
    out.to_each(
        (other for other in registry.online()
         if other.account.toggles.report and other.table is not table and other not in told),
        line,
    )


def stop_watching(session: Session, out: Outcome, *, quietly: bool = False) -> None:
    watched = session.watching
    if watched is None:
        return
    watched.watched_by.discard(session)
    session.watching = None
    if quietly:
        return
    out.to(watched, TextLine.of(Text.STOPS_WATCHING_YOU, name=session.name))
    table = watched.table
    if table is not None:
        seat = table.seat_of(watched)
        assert seat is not None
        other = table.seats[1 - seat]
        if other is not None:
            out.to(other, TextLine.of(Text.STOPS_WATCHING, watcher=session.name, name=watched.name))


def interrupt(registry: Registry, session: Session, how: Interruption, out: Outcome) -> None:
    """`session` stops playing without ending the match: save it, tell the other (§6.11)."""
    table = session.table
    if table is None:
        return
    seat = table.seat_of(session)
    assert seat is not None
    if is_correspondence(table) and how is not Interruption.SHUT_DOWN:
        _leave_correspondence(registry, table, session, seat, how, out)
        return
    other = table.seats[1 - seat]
    name = session.name
    match how:
        case Interruption.LEFT:
            out.to(session, TextLine.of(Text.YOU_TERMINATED_GAME))
            opponent_line = TextLine.of(Text.PLAYER_LEFT_GAME, name=name)
        case Interruption.LOGGED_OUT | Interruption.SHUT_DOWN:
            if other is not None:
                out.to(session, TextLine.of(Text.YOUR_GAME_SAVED, name=other.name))
            opponent_line = TextLine.of(Text.LOGS_OUT_GAME_SAVED, name=name)
        case Interruption.DROPPED:
            opponent_line = TextLine.of(Text.DROPS_CONNECTION_GAME_SAVED, name=name)
        case Interruption.TIMED_OUT:
            opponent_line = TextLine.of(Text.TIMED_OUT_GAME_SAVED, name=name)
        case Interruption.REPLACED:
            opponent_line = TextLine.of(Text.CLOSED_OLD_CONNECTION_GAME_SAVED, name=name)
    if other is not None and how is not Interruption.SHUT_DOWN:
        out.to(other, opponent_line)
    grace = registry.config.reconnect_grace_seconds
    if how in (Interruption.DROPPED, Interruption.TIMED_OUT) and other is not None and grace > 0:
        # Dropper protection: the opponent keeps the table; the dropper may come back.
        _suspend(registry, table, seat, out)
        out.to(other, TextLine.of(Text.DROPPER_GRACE, name=name, seconds=int(grace)))
        return
    if table.dropped is not None:
        _count_unreturned_drop(registry, table, out)
    timing.pause(table, registry.clock.now())  # a saved match's clock waits (docs/clocks.md)
    table.persist(out)
    for player in (session, other):
        if player is not None:
            player.table = None
    table.seats = [None, None]
    for player in (session, other):
        if player is not None and registry.get(player.name) is player:
            registry.announce_status(player, out)


def _suspend(registry: Registry, table: Table[Session], seat: int, out: Outcome) -> None:
    dropper = table.seats[seat]
    assert dropper is not None
    dropper.table = None
    table.seats[seat] = None
    table.dropped = (seat, registry.clock.now())
    registry.suspended[dropper.key] = table
    if table.timer is not None and table.timer.running == 1 - seat:
        # The one still here may not act while the other is away: his clock waits (K8
        # runs only the dropper's).
        timing.pause(table, registry.clock.now())
    table.persist(out)


def _count_unreturned_drop(registry: Registry, table: Table[Session], out: Outcome) -> None:
    """The grace period is over and the dropper is still away: it counts as a drop."""
    assert table.dropped is not None
    seat, dropped_at = table.dropped
    name = table.names[seat]
    registry.suspended.pop(name.lower(), None)
    table.dropped = None
    if registry.clock.now() - dropped_at >= registry.config.reconnect_grace_seconds:
        out.write(lambda store: store.record_drop(name))


def reseat(registry: Registry, table: Table[Session], session: Session, out: Outcome, *, takeover: bool) -> None:
    """Put `session` straight back into its running match: after a drop (within or after
    the grace period), or when a new login takes over a half-dead connection."""
    seat = table.seat_of_name(session.name)
    if table.dropped is not None and table.dropped[0] == seat:
        _count_unreturned_drop(registry, table, out)
    registry.suspended.pop(session.key, None)
    table.seats[seat] = session
    session.table = table
    if table.clock_paused:
        table.clock_paused = False  # (the next save starts the waiting player's clock)
        table.persist(out)
    other = table.seats[1 - seat]
    other_name = table.names[1 - seat]
    out.to(session, TextLine.of(Text.RESUMED_MATCH_LOADED, name=other_name))
    if other is not None and not takeover:
        out.to(other, TextLine.of(Text.JOINED_MATCH_LOADED, name=session.name))
    _show_resumed(registry, table, session, seat, out)
    if other is not None and not takeover:
        out.to(other, boards.board_for(table, other, 1 - seat))
    table.prompt_current(out)
    conclude(registry, table, out)
    if session.table is table:  # (a match the automatic roll ended has announced it)
        registry.announce_status(session, out)


def claim(registry: Registry, session: Session, out: Outcome) -> None:
    """`claim`: the opponent dropped and did not come back in time: win the match."""
    table = session.table
    seat = None if table is None else table.seat_of(session)
    if table is None or seat is None or table.dropped is None or table.dropped[0] != 1 - seat:
        out.to(session, TextLine.of(Text.NOTHING_TO_CLAIM))
        return
    waited = registry.clock.now() - table.dropped[1]
    grace = registry.config.reconnect_grace_seconds
    if waited < grace:
        out.to(session, TextLine.of(Text.CLAIM_TOO_EARLY, seconds=max(1, int(grace - waited + 0.999))))
        return
    dropper = table.names[1 - seat]
    _count_unreturned_drop(registry, table, out)
    out.to(session, TextLine.of(Text.YOU_CLAIM, name=dropper))
    score = list(table.match.score)
    if table.match.length is not None:
        score[seat] = table.match.length  # the dropper forfeits the match
    finish_match(registry, table, MatchWon(seat, (score[0], score[1])), out, ending=Ending.CLAIMED)


def finish_match(registry: Registry, table: Table[Session], won: MatchWon, out: Outcome,
                 *, ending: Ending) -> None:
    """The match is over: rating block, result lines, reports, ratings, record (§6.9).

    The outcome's `finished` gets the match as data (`MatchFinished`), which the top rungs
    hand on (`fibsd.app.aftermath`): what acts on a match's end above the lobby hears of
    it there, never through a call from here."""
    match = table.match
    if table.timer is not None:
        table.timer.stop(registry.clock.now())
        table.clock_stint = None
        registry.correspondence.pop(pair_key(*table.names), None)
    updates: list[tuple[str, float, int]] = []
    winner, loser = won.winner, 1 - won.winner
    score = won.score
    length = match.length
    winner_session, loser_session = table.seats[winner], table.seats[loser]
    # A player who dropped and was claimed against is not online: the account as the
    # server last saw it (it left during this run; its rating changes only here).
    w = winner_session.account if winner_session is not None else registry.known_account(table.names[winner])
    lo = loser_session.account if loser_session is not None else registry.known_account(table.names[loser])
    if length is not None and w is not None and lo is not None:
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
        _report_to_others(registry, table, report, out, told=set(table.watchers()))
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
        finished_at=finished_at, rated=bool(updates), ending=ending,
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
        ending = Ending.BORNE_OFF if how is None else _ENDINGS[how]
        finish_match(registry, table, won, out, ending=ending)
        return
    _schedule(registry, table)


_ENDINGS = {
    WinKind.BORNE_OFF: Ending.BORNE_OFF,
    WinKind.DOUBLE_PASSED: Ending.DOUBLE_PASSED,
    WinKind.RESIGNED: Ending.RESIGNED,
}


# ------------------------------------------------------------------ match clocks


def _schedule(registry: Registry, table: Table[Session]) -> None:
    """Put the instant the running clock runs out on the server's heap (once per stint)."""
    timer = table.timer
    deadline = None if timer is None else timer.deadline()
    if deadline is not None and deadline != table.scheduled_deadline:
        table.scheduled_deadline = deadline
        registry.deadlines.push(deadline, table)


def tick_clocks(registry: Registry, now: float) -> Outcome:
    """The clocks that ran out by `now`: overtime or a loss on time (club-play.md K4).
    Looks only at the top of the heap: nothing is done per match per second."""
    out = Outcome()
    for when, table in registry.deadlines.due(now):
        timer = table.timer
        if timer is None or timer.deadline() != when:
            continue  # the player acted (or the match was saved or ended) in time
        table.scheduled_deadline = None
        expire_clock(registry, table, now, out)
    return out


def check_clock(registry: Registry, table: Table[Session], out: Outcome) -> bool:
    """Before an action at `table`: if the running clock ran out meanwhile (the ticker
    has not come round yet), apply that first. True if it ended the match."""
    timer = table.timer
    deadline = None if timer is None else timer.deadline()
    now = registry.clock.now()
    if deadline is None or now < deadline:
        return False
    return expire_clock(registry, table, now, out)


def expire_clock(registry: Registry, table: Table[Session], now: float, out: Outcome) -> bool:
    """The running player's clock ran out: his overtime starts, or he loses the match
    (rated as a loss, like a claimed match). True if the match ended."""
    timer = table.timer
    assert timer is not None
    seat = timer.running
    expiry = timer.expire(now)
    if seat is None or expiry is None:
        return False
    name = table.names[seat]
    if expiry is Expiry.OVERTIME:
        duration = timing.duration(timer.control.overtime)
        table.say(out, seat, TextLine.of(Text.YOU_IN_OVERTIME, duration=duration),
                  TextLine.of(Text.IN_OVERTIME, name=name, duration=duration),
                  TextLine.of(Text.IN_OVERTIME, name=name, duration=duration))
        table.persist(out)
        _schedule(registry, table)
        return False
    if table.dropped is not None:
        # The clock ended first (K8): a loss on time, not a drop.
        registry.suspended.pop(table.names[table.dropped[0]].lower(), None)
        table.dropped = None
    table.say(out, seat, TextLine.of(Text.YOU_LOSE_ON_TIME), TextLine.of(Text.LOSES_ON_TIME, name=name),
              TextLine.of(Text.LOSES_ON_TIME, name=name))
    winner = 1 - seat
    score = list(table.match.score)
    if table.match.length is not None:
        score[winner] = max(score[winner], table.match.length)
    finish_match(registry, table, MatchWon(winner, (score[0], score[1])), out, ending=Ending.TIME)
    return True


# ------------------------------------------------------------- correspondence (K7)


def pair_key(name: str, other: str) -> tuple[str, str]:
    low, high = sorted((name.lower(), other.lower()))
    return low, high


def is_correspondence(table: Table[Session]) -> bool:
    return table.timer is not None and table.timer.control.correspondence


def _leave_correspondence(registry: Registry, table: Table[Session], session: Session, seat: int,
                          how: Interruption, out: Outcome) -> None:
    """A player gets up from a correspondence match: it stays in progress (not a drop,
    nothing waits for him); the clock runs for whoever is to move."""
    other = table.seats[1 - seat]
    table.seats[seat] = None
    session.table = None
    if how is Interruption.LEFT:
        out.to(session, TextLine.of(Text.CORRESPONDENCE_YOU_LEFT, name=table.names[1 - seat],
                                    opponent=table.names[1 - seat]))
    if other is not None:
        out.to(other, TextLine.of(Text.CORRESPONDENCE_LEFT, name=session.name))
    table.persist(out)
    if registry.get(session.name) is session:
        registry.announce_status(session, out)


def correspondence_tables(registry: Registry, name: str) -> list[Table[Session]]:
    """`name`'s running correspondence matches (those loaded since the server started:
    every login loads the user's, `load_correspondence`)."""
    key = name.lower()
    return [table for pair, table in registry.correspondence.items() if key in pair]


def load_correspondence(registry: Registry, session: Session, out: Outcome) -> None:
    """At login: bring `session`'s saved correspondence matches into play (their clocks
    ran while the server was down or nobody was there; a deadline that passed ends the
    match now), and remind him of those where he is to move. The saved matches are a
    cold read (a job); what this server already runs is answered at once."""
    name = session.name
    _remind(registry, session, out)  # those this server runs already
    read = registry.read(lambda store: store.saved_matches_of(name),
                         lambda saved: _loaded_correspondence(registry, session, saved),
                         name="correspondence at login")
    out.run(attrs.evolve(read, holds_prompt=False))  # (the login does not wait for it)


def _loaded_correspondence(registry: Registry, session: Session,
                           saved: list[tuple[str, dict[str, Any]]]) -> Outcome:
    out = Outcome()
    loaded: list[Table[Session]] = []
    for _opponent, data in saved:
        clock = data.get("clock")
        names = data.get("names")
        if not isinstance(clock, dict) or not isinstance(names, list) or len(names) != 2:
            continue
        if not isinstance(clock.get("control"), dict) or clock["control"].get("per_move") is None:
            continue
        key = pair_key(str(names[0]), str(names[1]))
        if key in registry.correspondence:
            continue  # (running here already, or loaded while the read ran)
        try:
            table = restore_table(registry, data)
        except ValueError:
            continue
        registry.correspondence[key] = table
        timer = table.timer
        if timer is not None and timer.running is not None and timer.since < registry.started_at:
            # The stint spans a restart: nobody could move while the server was down, and
            # the server cannot tell when it went down: the stint starts again.
            timer.since = registry.started_at
            table.persist(out)
        check_clock(registry, table, out)
        if key in registry.correspondence:
            _schedule(registry, table)
            loaded.append(table)
    if loaded and registry.get(session.name) is session:
        _remind(registry, session, out, only=loaded)
    return out


def _remind(registry: Registry, session: Session, out: Outcome,
            only: list[Table[Session]] | None = None) -> None:
    """`session` is to move at these correspondence matches: say so, with the time left."""
    now = registry.clock.now()
    for table in correspondence_tables(registry, session.name) if only is None else only:
        timer = table.timer
        if timer is None or timer.running is None:
            continue
        seat = table.seat_of_name(session.name)
        if timer.running == seat:
            opponent = table.names[1 - seat]
            out.to(session, TextLine.of(Text.CORRESPONDENCE_YOUR_MOVE, name=opponent, opponent=opponent,
                                        duration=timing.duration(timer.remaining(seat, now))))


def enter_correspondence(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    """`correspondence NAME`: sit down at the correspondence match with NAME."""
    table = next((t for t in correspondence_tables(registry, session.name)
                  if t.names[1 - t.seat_of_name(session.name)].lower().startswith(name.lower())), None)
    if table is None:
        out.to(session, TextLine.of(Text.NO_CORRESPONDENCE_WITH, name=name))
        return
    if session.table is table:
        return
    if session.table is not None or session.chouette is not None:
        out.to(session, TextLine.of(Text.YOU_ARE_ALREADY_PLAYING))
        return
    if check_clock(registry, table, out):
        return
    seat = table.seat_of_name(session.name)
    stop_watching(session, out)
    session.invitation = None
    table.seats[seat] = session
    session.table = table
    other = table.seats[1 - seat]
    opponent = table.names[1 - seat]
    out.to(session, TextLine.of(Text.RESUMED_MATCH_LOADED, name=opponent))
    _show_resumed(registry, table, session, seat, out)
    if other is not None:
        # (a FIBS client takes it for FIBS's resumed match: the board follows, as there)
        out.to(other, TextLine.of(Text.CORRESPONDENCE_SAT_DOWN, name=session.name))
        out.to(other, boards.board_for(table, other, 1 - seat))
    table.prompt_current(out)
    registry.announce_status(session, out)
    conclude(registry, table, out)


def _show_resumed(registry: Registry, table: Table[Session], session: Session, seat: int,
                  out: Outcome) -> None:
    """The synopsis and board a player sees when he sits down at a resumed match (by
    `join` or at a correspondence table); his watchers from before a drop are back."""
    match = table.match
    turn = match.game.turn
    out.lines(session, *resume_synopsis_lines(
        turn=table.names[turn if turn is not None else 0],
        match_length=match.length,
        names_and_scores=[(table.names[0], match.score[0]), (table.names[1], match.score[1])],
    ))
    out.to(session, boards.board_for(table, session, seat))
    watchers.put_back(registry, table, session, seat, out)
