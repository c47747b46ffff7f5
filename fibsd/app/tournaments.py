"""A tournament's life around its matches: entries, rounds, matches started for the
players, results taken from the matches' ends, no-shows, announcements.

The rung between the aftermath and the lobby: the aftermath hands every finished match
here (`match_finished`), the tick runs the no-show times and the rounds' deadlines of
leagues and correspondence tournaments (`tick`), presence tells a
player who logs in of his pairing (`arrive`), and the verbs (`fibsd.app.verbs.tournament`)
create, enter, start and cancel. A Swiss round is paired in a worker thread
(`pair_off_the_loop`). The pairing rules are pure (`fibsd.rules.tournament`);
this module keeps the registry's tournaments (loaded from the store on first use, so a
restart or a kill -9 resumes every one with all its results), saves each change with
the outcome that made it, and starts each pairing's match through the lobby as soon as
both players are online and free, resuming it if it was saved (docs/tournaments.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fibsd.app.lobby.rating import rate
from fibsd.app.lobby import start
from fibsd.app.lobby.seating import pair_key
from fibsd.app.outcome import Job, MatchFinished, Outcome, TournamentTag
from fibsd.app.play import match_clock
from fibsd.app.presentation import local_time
from fibsd.app.registry import Registry
from fibsd.app.session import Invitation, Session
from fibsd.rules.timecontrol import SECONDS_PER_DAY, TimeControl
from fibsd.rules.tournament import Ending, Pairing, Phase, Tournament, TournamentError
from protocol.listings import short_date
from protocol.messages import TextLine
from protocol.wording import Text, amount_phrase, count_phrase

#: A correspondence tournament created without `deadline`: each round's matches are to
#: begin within this many days.
CORRESPONDENCE_ROUND_DAYS = 7


#: How often the no-show deadlines are checked while a tournament runs.
TICK_SECONDS = 1.0


# ------------------------------------------------------------------ the registry's tournaments


def tournaments(registry: Registry) -> dict[str, Tournament]:
    """Each name's key to the tournament it names: the live one (open or running), else the
    most recent one over. The saved ones are loaded the first time (`records` has them all).

    A pairing still to be played gets its full no-show time again after a restart: the
    server was away, not the players."""
    if not registry.tournaments_loaded:
        registry.tournaments_loaded = True
        now = registry.clock.now()
        loaded = []
        for data in registry.reader.saved_tournaments():
            try:
                tournament = Tournament.from_dict(data)
            except ValueError:
                continue  # an unreadable one stays in the store, untouched
            for pairing in tournament.pending():
                pairing.since = now
            loaded.append(tournament)
        for tournament in sorted(loaded, key=lambda t: t.id):
            if tournament.id <= 0:  # (a state saved without its id: given one now)
                tournament.id = max(registry.tournament_records, default=0) + 1
            add(registry, tournament)
    return registry.tournaments


def records(registry: Registry) -> dict[int, Tournament]:
    """Every tournament, over ones included, by its id."""
    tournaments(registry)
    return registry.tournament_records


def add(registry: Registry, tournament: Tournament) -> None:
    """Keep `tournament` (a new one, or one loaded): by its id, and by its name unless a
    live one has that name (a new one's name is never a live one's: `_create` checks)."""
    registry.tournament_records[tournament.id] = tournament
    key = tournament.name.lower()
    named = registry.tournaments.get(key)
    if named is None or not named.live or tournament.live:
        registry.tournaments[key] = tournament


def next_id(registry: Registry) -> int:
    """The id of the next tournament created (ids are never reused)."""
    return max(records(registry), default=0) + 1


def find(registry: Registry, name: str) -> Tournament | None:
    """The tournament called `name`: the live one, else the most recent one over."""
    return tournaments(registry).get(name.lower())


def find_live(registry: Registry, name: str) -> Tournament | None:
    found = find(registry, name)
    return found if found is not None and found.live else None


def live(registry: Registry) -> list[Tournament]:
    """The open and running tournaments."""
    return [t for t in tournaments(registry).values() if t.live]


def running(registry: Registry) -> list[Tournament]:
    return [t for t in tournaments(registry).values() if t.phase is Phase.RUNNING]


def persist(tournament: Tournament, out: Outcome) -> None:
    """Save `tournament` with the outcome that changed it (committed before it is told)."""
    number, name, data = tournament.id, tournament.name, tournament.to_dict()
    out.write(lambda store: store.save_tournament(number, name, data))


# ------------------------------------------------------------------ who hears what


def entrants_online(registry: Registry, tournament: Tournament) -> list[Session]:
    found = (registry.get(entrant.name) for entrant in tournament.entrants)
    return [session for session in found if session is not None]


def audience(registry: Registry, tournament: Tournament) -> list[Session]:
    """Who hears a tournament's opening, start and end: its entrants, and everyone with
    `report` on who takes fibsd's own lines (telnet users; CLIP clients after
    `toggle extensions`), so a FIBS client that did not opt in sees nothing new."""
    entrants = entrants_online(registry, tournament)
    others = [session for session in registry.online()
              if session not in entrants and session.extensions and session.account.toggles.report]
    return [*entrants, *others]


def tell_entrants(registry: Registry, tournament: Tournament, line: TextLine, out: Outcome) -> None:
    out.to_each(entrants_online(registry, tournament), line)


# ------------------------------------------------------------------ rounds and matches


def announce_round(registry: Registry, tournament: Tournament, pairings: list[Pairing], out: Outcome) -> None:
    """Tell the entrants a new round's pairings, and each player his own; then start
    every match whose players are here."""
    if not pairings:
        return
    now = registry.clock.now()
    number = tournament.round_number
    described = ", ".join(
        f"{p.a} (bye)" if p.b is None else f"{p.a}-{p.b}" for p in pairings)
    tell_entrants(registry, tournament, TextLine.of(
        Text.TOURNAMENT_ROUND, text=tournament.name, n=number, names=described), out)
    for pairing in pairings:
        if pairing.b is None:
            session = registry.get(pairing.a)
            if session is not None:
                out.to(session, TextLine.of(Text.TOURNAMENT_YOUR_BYE, text=tournament.name, n=number))
            continue
        pairing.since = now
        if tournament.deadline_days is not None:
            pairing.deadline = now + tournament.deadline_days * SECONDS_PER_DAY
        for me, other in ((pairing.a, pairing.b), (pairing.b, pairing.a)):
            session = registry.get(me)
            if session is not None:
                out.to(session, _your_pairing(tournament, pairing, other, number, session))
    start_ready(registry, tournament, out)


def _your_pairing(tournament: Tournament, pairing: Pairing, opponent: str, number: int,
                  session: Session) -> TextLine:
    """A player's own pairing: whom he plays, and by when (the no-show time, or the
    round's deadline in his own time zone)."""
    if pairing.deadline is None:
        return TextLine.of(Text.TOURNAMENT_YOUR_PAIRING, text=tournament.name, n=number,
                           length=tournament.length, name=opponent, seconds=tournament.noshow_seconds)
    date = deadline_date(pairing.deadline, session)
    if tournament.move_days is not None:
        return TextLine.of(Text.TOURNAMENT_YOUR_ROUND_CORRESPONDENCE, text=tournament.name, n=number,
                           length=tournament.length, name=opponent, date=date,
                           days=amount_phrase(tournament.move_days, "day"))
    return TextLine.of(Text.TOURNAMENT_YOUR_ROUND_MATCH, text=tournament.name, n=number,
                       length=tournament.length, name=opponent, date=date)


def deadline_date(deadline: float, session: Session) -> str:
    """A deadline in `session`'s time zone, as `whois` writes dates."""
    zone = session.account.variables.timezone
    return short_date(local_time(deadline, zone), zone)


def is_free(registry: Registry, session: Session | None) -> bool:
    """Online, not playing or sitting at a chouette, not leaving: ready for a pairing."""
    return (session is not None and registry.get(session.name) is session and session.table is None
            and session.chouette is None and session.departure is None
            and session.key not in registry.suspended)


def in_play(registry: Registry, pairing: Pairing) -> bool:
    """Whether the pairing's match is at a table now (or waits there for a dropper, or is
    a correspondence match under way, seated or not)."""
    if pairing.b is not None and pair_key(pairing.a, pairing.b) in registry.correspondence:
        return True
    key = frozenset(name.lower() for name in pairing.names)
    for name in pairing.names:
        session = registry.get(name)
        if session is not None and session.table is not None:
            if frozenset(n.lower() for n in session.table.names) == key:
                return True
        table = registry.suspended.get(name.lower())
        if table is not None and frozenset(n.lower() for n in table.names) == key:
            return True
    return False


def start_ready(registry: Registry, tournament: Tournament, out: Outcome) -> None:
    """Start (or resume) the match of every pending pairing whose players are both free."""
    for pairing in tournament.pending():
        if pairing.b is None or pairing.resuming or pairing.held_by is not None:
            continue
        if pair_key(pairing.a, pairing.b) in registry.correspondence:
            continue  # (its correspondence match is under way: played at the players' pace)
        first, second = registry.get(pairing.a), registry.get(pairing.b)
        if first is None or second is None or not is_free(registry, first) or not is_free(registry, second):
            continue
        _start(registry, tournament, pairing, first, second, out)


def _start(registry: Registry, tournament: Tournament, pairing: Pairing, first: Session,
           second: Session, out: Outcome) -> None:
    """Start the pairing's match for its players; if it began before and was saved, read
    the saved match (a cold read: a job) and resume it."""
    pairing.since = None
    if pairing.started and registry.reader.saved_match_info(first.name, second.name) is not None:
        pairing.resuming = True
        names = (first.name, second.name)
        out.run(registry.read(
            lambda store: store.saved_match(*names),
            lambda saved: _resume(registry, tournament, pairing, saved),
            name="tournament: the saved match",
        ))
        return
    pairing.started = True
    persist(tournament, out)
    invitation = _invitation(registry, tournament, pairing, second)
    _state_the_clock(invitation, (first, second), out)
    out.extend(start.start_match(registry, first, second, invitation))


def _state_the_clock(invitation: Invitation, players: tuple[Session, Session], out: Outcome) -> None:
    """A clocked match states its terms before it starts, as a clocked invitation does
    (a plain line: a FIBS client shows it as text and knows a clock runs)."""
    if invitation.clock is not None:
        for player in players:
            out.to(player, TextLine.of(Text.MATCH_CLOCK, text=match_clock.terms(invitation.clock)))


def _invitation(registry: Registry, tournament: Tournament, pairing: Pairing,
                invitee: Session) -> Invitation:
    """The invitation the server makes for a pairing's players: the tournament's length,
    its clock (docs/clocks.md: DELAY seconds of delay, RESERVE per point, the server's
    default overtime), and the pairing's tag, which the match carries to its end."""
    clock = None
    if tournament.move_days is not None:
        clock = TimeControl.days(tournament.move_days)
    elif tournament.clock is not None:
        delay, reserve = tournament.clock
        clock = TimeControl.delay_clock(delay, reserve, tournament.length,
                                        overtime=registry.config.clock_default_overtime_seconds)
    return Invitation(invitee.key, tournament.length, clock=clock, tournament=tag(tournament, pairing))


def tag(tournament: Tournament, pairing: Pairing) -> TournamentTag:
    """The tag of `pairing`, of the current round of `tournament`."""
    place = next(index for index, other in enumerate(tournament.current) if other is pairing)
    return TournamentTag(tournament.name, tournament.round_number, place, tournament.id)


def tagged(registry: Registry, finished: MatchFinished) -> tuple[Tournament, Pairing] | None:
    """The running tournament and the undecided pairing a finished match was played for,
    by the tag it carries (None: not a tournament's match, or its pairing was decided
    meanwhile, by a no-show or a cancellation)."""
    return pairing_tagged(registry, finished.tournament)


def _resume(registry: Registry, tournament: Tournament, pairing: Pairing,
            saved: dict[str, Any] | None) -> Outcome:
    """The saved match is read: everything is checked again (the players may have moved
    on meanwhile), then the match goes on (or starts afresh if nothing was saved)."""
    out = Outcome()
    pairing.resuming = False
    if tournament.phase is not Phase.RUNNING or pairing.done or pairing.b is None:
        return out
    first, second = registry.get(pairing.a), registry.get(pairing.b)
    if first is None or second is None or not is_free(registry, first) or not is_free(registry, second):
        return out
    invitation = _invitation(registry, tournament, pairing, second)
    _state_the_clock(invitation, (first, second), out)
    if saved is None:
        out.extend(start.start_match(registry, first, second, invitation))
    else:
        out.extend(start.resume_match(registry, first, second, saved,
                                      tournament=tag(tournament, pairing)))
    return out


def match_finished(registry: Registry, finished: MatchFinished, out: Outcome) -> None:
    """A match ended (handed on by the aftermath): if it was played for a pairing (its
    tag says which), record it; either way its players are free now, so pending pairings
    may start."""
    found = tagged(registry, finished)
    if found is not None:
        tournament, pairing = found
        winner, loser = finished.winner_name, finished.loser_name
        won, lost = finished.score[finished.winner], finished.score[1 - finished.winner]
        score = (won, lost) if pairing.a.lower() == winner.lower() else (lost, won)
        tell_entrants(registry, tournament, TextLine.of(
            Text.TOURNAMENT_RESULT, text=tournament.name, winner=winner, loser=loser,
            score=won, opponent_score=lost), out)
        _record(registry, tournament, pairing, winner, score, Ending.PLAYED, out)
    for tournament in running(registry):
        start_ready(registry, tournament, out)


def _record(registry: Registry, tournament: Tournament, pairing: Pairing, winner: str | None,
            score: tuple[int, int], ending: Ending, out: Outcome) -> None:
    following = tournament.record(pairing, winner, score, ending, defer=True)
    persist(tournament, out)
    if tournament.phase is Phase.FINISHED:
        announce_end(registry, tournament, out)
    else:
        next_round(registry, tournament, following, out)


def next_round(registry: Registry, tournament: Tournament, pairings: list[Pairing], out: Outcome) -> None:
    """A round was paired (announce it) or, for a Swiss, is to be paired off the loop."""
    if pairings:
        announce_round(registry, tournament, pairings, out)
    else:
        pair_off_the_loop(registry, tournament, out)


def pair_off_the_loop(registry: Registry, tournament: Tournament, out: Outcome) -> None:
    """A Swiss `awaiting_pairing`: its next round is paired in a worker thread (a
    background job: every other command is answered meanwhile, whatever the field), then
    applied, saved and announced, unless the tournament moved on meanwhile (cancelled:
    the result is dropped). Nothing is saved for the job itself: a restart finds the
    tournament awaiting and pairs it again (`tick`)."""
    if not tournament.awaiting_pairing or tournament.pairing_underway:
        return
    tournament.pairing_underway = True
    request = tournament.pairing_request()

    def paired(solved: tuple[list[tuple[str, str]], str | None]) -> Outcome:
        done = Outcome()
        tournament.pairing_underway = False
        try:
            pairings = tournament.apply_pairing(request, solved)
        except TournamentError:
            return done  # (cancelled, or paired already: this result is stale)
        persist(tournament, done)
        if tournament.phase is Phase.FINISHED:  # (only byes: cannot happen, but never stall)
            announce_end(registry, tournament, done)
        else:
            announce_round(registry, tournament, pairings, done)
        return done

    out.run(Job.background(request.solve, paired, name=f"tournament {tournament.name}: pairing round {request.round}"))


def announce_end(registry: Registry, tournament: Tournament, out: Outcome) -> None:
    if tournament.winner is not None:
        out.to_each(audience(registry, tournament), TextLine.of(
            Text.TOURNAMENT_WINNER, text=tournament.name, name=tournament.winner))


# ------------------------------------------------------------------ presence and time


def arrive(registry: Registry, session: Session, out: Outcome) -> None:
    """A user logs in: he hears of each pairing of his still to be played, and the
    matches whose players are both here now start."""
    for tournament in running(registry):
        for pairing in tournament.pending():
            if pairing.b is None or not pairing.involves(session.name):
                continue
            if in_play(registry, pairing):
                continue  # (a correspondence match under way has its own reminder)
            other = pairing.b if pairing.a.lower() == session.key else pairing.a
            out.to(session, _your_pairing(tournament, pairing, other, tournament.round_number, session))
            if (pairing.held_by or "").lower() == session.key:
                out.to(session, _held_line(tournament, pairing, other, session))
        start_ready(registry, tournament, out)


def pairing_tagged(registry: Registry, found: TournamentTag | None) -> tuple[Tournament, Pairing] | None:
    """The running tournament and the undecided pairing of its current round that a
    match's tag names (None: no tag, or the pairing is decided or of a past round). The
    tag's id names the tournament (a tag saved before ids: the live one of its name), so
    a match of a tournament that is over never counts for a new one of the same name."""
    if found is None:
        return None
    tournament = records(registry).get(found.id) if found.id else find_live(registry, found.tournament)
    if found is None or tournament is None or tournament.phase is not Phase.RUNNING:
        return None
    if found.round != tournament.round_number or not 0 <= found.pairing < len(tournament.current):
        return None
    pairing = tournament.current[found.pairing]
    return None if pairing.done else (tournament, pairing)


def hold(registry: Registry, name: str, opponent: str, found: TournamentTag | None, out: Outcome) -> None:
    """`name` left his running match with `opponent` (`leave`): if it is a tournament
    pairing's (its tag `found` says which), it waits for him (`come_back`) instead of
    starting again by itself, and the no-show time runs from now; when it is up, the
    opponent wins by forfeit."""
    tagged_pairing = pairing_tagged(registry, found)
    if tagged_pairing is not None:
        tournament, pairing = tagged_pairing
        if in_play(registry, pairing):
            return  # (a correspondence match: getting up is no leaving, it goes on)
        pairing.held_by = name
        pairing.since = registry.clock.now()
        persist(tournament, out)
        session = registry.get(name)
        if session is not None:
            out.to(session, _held_line(tournament, pairing, opponent, session))


def _held_line(tournament: Tournament, pairing: Pairing, opponent: str, session: Session) -> TextLine:
    if pairing.deadline is not None:
        return TextLine.of(Text.TOURNAMENT_LEFT_MATCH_DEADLINE, text=tournament.name, name=opponent,
                           date=deadline_date(pairing.deadline, session))
    return TextLine.of(Text.TOURNAMENT_LEFT_MATCH, text=tournament.name, name=opponent,
                       noshow=count_phrase(tournament.noshow_seconds, "second"))


def come_back(registry: Registry, session: Session, opponent: str, out: Outcome) -> bool:
    """`join OPPONENT` by a player who left his tournament match with him: the match goes
    on as soon as both are free. Whether there was such a match."""
    found = False
    for tournament in running(registry):
        pairing = next((p for p in tournament.pending()
                        if (p.held_by or "").lower() == session.key and p.involves(opponent)), None)
        if pairing is None:
            continue
        found = True
        pairing.held_by = None
        persist(tournament, out)
        start_ready(registry, tournament, out)
    return found


def next_tick_in(registry: Registry) -> float | None:
    return TICK_SECONDS if running(registry) else None


def tick(registry: Registry, now: float) -> Outcome:
    """No-shows (T4): a pairing whose match has not begun (or was saved and not taken up
    again) within the no-show time is decided: the player who is there and free wins by
    forfeit; if neither is, both lose (a knockout sends the better seed through). A round
    with a deadline decides its unplayed pairings at the deadline instead (`_deadline`).
    Then every pairing whose players are both free starts."""
    out = Outcome()
    for tournament in running(registry):
        pair_off_the_loop(registry, tournament, out)  # (a restart found it awaiting)
        for pairing in list(tournament.pending()):
            if pairing.b is None or tournament.phase is not Phase.RUNNING:
                continue
            if pairing.deadline is not None:
                _deadline(registry, tournament, pairing, now, out)
                continue
            if pairing.started and in_play(registry, pairing):
                pairing.since = None
                continue
            if pairing.since is None:
                pairing.since = now
                continue
            if now - pairing.since < tournament.noshow_seconds:
                continue
            _no_show(registry, tournament, pairing, out)
        if tournament.phase is Phase.RUNNING:
            start_ready(registry, tournament, out)
    return out


def _there(registry: Registry, pairing: Pairing) -> list[str]:
    """The pairing's players online and free for it (not the one who left its match)."""
    held = (pairing.held_by or "").lower()
    return [name for name in pairing.names
            if name.lower() != held and is_free(registry, registry.get(name))]


def _deadline(registry: Registry, tournament: Tournament, pairing: Pairing, now: float,
              out: Outcome) -> None:
    """A round with a deadline: until then the server notes who showed (was online and
    free for the pairing); a match under way at the deadline is played to its end. At the
    deadline an unplayed pairing is decided as a no-show: a player who never showed loses
    to one who did; if both showed but never together, the one here now wins; if both
    are here, the match starts now; otherwise both are absent (the no-show rule)."""
    if in_play(registry, pairing):
        return
    there = _there(registry, pairing)
    new = [name for name in there if name not in pairing.showed]
    if new:
        pairing.showed = (*pairing.showed, *new)
        persist(tournament, out)
    assert pairing.deadline is not None
    if now < pairing.deadline or len(there) == 2:
        return
    held = (pairing.held_by or "").lower()
    came = [name for name in pairing.showed if name.lower() != held]
    winners = came if len(came) == 1 else there
    _forfeit(registry, tournament, pairing, winners[0] if len(winners) == 1 else None, out)


def _no_show(registry: Registry, tournament: Tournament, pairing: Pairing, out: Outcome) -> None:
    there = _there(registry, pairing)
    if len(there) == 2:
        return  # (both here: start_ready starts it)
    _forfeit(registry, tournament, pairing, there[0] if there else None, out)


def _forfeit(registry: Registry, tournament: Tournament, pairing: Pairing, winner: str | None,
             out: Outcome) -> None:
    """Decide `pairing` unplayed: `winner` wins by forfeit (rated as a win of the whole
    match); None: both are absent (both lose; a knockout sends the better seed through)."""
    assert pairing.b is not None
    length = tournament.length
    if winner is not None:
        loser = pairing.b if winner == pairing.a else pairing.a
        score = (length, 0) if winner == pairing.a else (0, length)
        tell_entrants(registry, tournament, TextLine.of(
            Text.TOURNAMENT_FORFEIT, text=tournament.name, winner=winner, loser=loser), out)
        _record(registry, tournament, pairing, winner, score, Ending.FORFEIT, out)
        # Rated as a loss of the whole match, whoever is online (issue 34 §2): the absent
        # player's account is read through the store when this server does not know it.
        updates = rate(registry, winner, loser, length, out, seated=[])
        if updates:
            out.write(lambda store: store.update_ratings(updates))
    else:
        tell_entrants(registry, tournament, TextLine.of(
            Text.TOURNAMENT_DOUBLE_FORFEIT, text=tournament.name, name=pairing.a, opponent=pairing.b), out)
        _record(registry, tournament, pairing, None, (0, 0), Ending.DOUBLE_FORFEIT, out)


def of_player(registry: Registry, name: str) -> Iterable[Tournament]:
    """The tournaments `name` entered that have not ended."""
    for tournament in tournaments(registry).values():
        if tournament.phase in (Phase.OPEN, Phase.RUNNING) and tournament.entrant(name) is not None:
            yield tournament
