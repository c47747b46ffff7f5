"""Tournament commands (club-play.md T5): `tournament create|join|leave|start|cancel|list|show`,
and the administrators' `setbot` (B1).

Checks who may do what (creating: any member or administrators only, as the
configuration says, within the limits on live tournaments; starting and cancelling: the
creator or an administrator; bots only where the creator allowed them) and hands the rest
to `fibsd.app.tournaments`, which pairs the rounds and starts the matches. Listings show
the live tournaments, or page through the records (every one is kept under its id).
"""

from __future__ import annotations

import datetime
import logging
import math

import attrs

from fibsd.app import recurring, tournaments
from fibsd.app.lobby.bot_marks import announce_bot_mark
from fibsd.app.outcome import Outcome
from fibsd.app.play import match_clock
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.accounts import Account
from fibsd.rules.tournament import (
    Bracket,
    Ending,
    Format,
    Pairing,
    Phase,
    Tournament,
    TournamentError,
)
from protocol import commands as c
from protocol.messages import TextLine
from protocol.wording import Text, amount_phrase, count_phrase, render

log = logging.getLogger("fibsd.admin")

_REFUSALS = {
    "already": Text.TOURNAMENT_ALREADY_ENTERED,
    "not_entered": Text.TOURNAMENT_NOT_ENTERED,
    "full": Text.TOURNAMENT_FULL,
    "started": Text.TOURNAMENT_STARTED,
    "over": Text.TOURNAMENT_OVER,
}


#: Tournaments a page of `tournament list all|finished` shows.
PAGE_SIZE = 20


def tournament(registry: Registry, session: Session, command: c.Tournament, out: Outcome) -> None:
    A = c.TournamentAction
    if command.action is A.LIST:
        if command.listing is None:
            _list(registry, session, out)
        else:
            _list_records(registry, session, command.listing, command.page, out)
        return
    if command.action is A.SHOW and (command.record_id is not None or command.day is not None):
        _show_record(registry, session, command, out)
        return
    assert command.name is not None
    if command.action is A.CREATE:
        assert command.spec is not None
        _create(registry, session, command.name, command.spec, out)
        return
    found = tournaments.find(registry, command.name)
    if found is None:
        out.to(session, TextLine.of(Text.TOURNAMENT_NO_SUCH, text=command.name))
        return
    match command.action:
        case A.JOIN:
            _join(registry, session, found, out)
        case A.LEAVE:
            _leave(registry, session, found, out)
        case A.START:
            _start(registry, session, found, out)
        case A.CANCEL:
            _cancel(registry, session, found, out)
        case A.SHOW:
            show(registry, session, found, out)


def _refuse(session: Session, tournament: Tournament, error: TournamentError, out: Outcome) -> None:
    reason = str(error)
    if reason == "too_few":
        out.to(session, TextLine.of(Text.TOURNAMENT_TOO_FEW))
    else:
        out.to(session, TextLine.of(_REFUSALS.get(reason, Text.TOURNAMENT_OVER), text=tournament.name))


def _may_direct(registry: Registry, session: Session, tournament: Tournament) -> bool:
    return session.key == tournament.creator.lower() or registry.config.is_admin(session.name)


def _create(registry: Registry, session: Session, name: str, spec: c.TournamentSpec, out: Outcome) -> None:
    if registry.config.tournament_creators == "admins" and not registry.config.is_admin(session.name):
        out.to(session, TextLine.of(Text.TOURNAMENT_CREATE_ADMINS_ONLY))
        return
    if not clock_allowed(registry, session, spec, out):
        return
    config = registry.config
    if spec.max_entrants is not None and spec.max_entrants > config.tournament_max_entrants:
        out.to(session, TextLine.of(Text.TOURNAMENT_BAD_VALUE, text="max", low=2, high=config.tournament_max_entrants))
        return
    existing = tournaments.find_live(registry, name)
    if existing is not None:
        out.to(session, TextLine.of(Text.TOURNAMENT_NAME_TAKEN, text=existing.name))
        return
    live = tournaments.live(registry)
    mine = [t for t in live if t.creator.lower() == session.key]
    if len(mine) >= config.tournament_live_per_creator and not config.is_admin(session.name):
        out.to(session, TextLine.of(Text.TOURNAMENT_CREATOR_LIMIT, n=len(mine)))
        return
    if len(live) >= config.tournament_live_max:
        out.to(session, TextLine.of(Text.TOURNAMENT_SERVER_LIMIT, n=len(live)))
        return
    created = Tournament(
        name=name, format=Format(spec.format), length=spec.length, creator=session.name,
        rounds=spec.rounds, consolation=spec.consolation, max_entrants=spec.max_entrants,
        bots_allowed=spec.bots,
        noshow_seconds=spec.noshow_seconds or int(registry.config.tournament_noshow_seconds),
        clock=spec.clock, created_at=registry.clock.now(), id=tournaments.next_id(registry),
        deadline_days=round_days(spec), move_days=spec.move_days,
    )
    tournaments.add(registry, created)  # (a finished one of that name keeps its record)
    tournaments.persist(created, out)
    line = TextLine.of(Text.TOURNAMENT_CREATED, text=name, name=session.name)
    out.to(session, line)
    out.to_each([s for s in tournaments.audience(registry, created) if s is not session], line)


def round_days(spec: c.TournamentSpec) -> int | None:
    """The days each round lasts: as asked, or a week for a correspondence tournament."""
    if spec.deadline_days is None and spec.move_days is not None:
        return tournaments.CORRESPONDENCE_ROUND_DAYS
    return spec.deadline_days


def clock_allowed(registry: Registry, session: Session, spec: c.TournamentSpec, out: Outcome) -> bool:
    """The club's clock rules (docs/clocks.md) hold for a tournament's matches too: they
    are rated, so a club that requires a clock requires it here (a correspondence
    tournament's days per move are a clock); the delay, the whole reserve and the days per
    move stay within the club's limits."""
    config = registry.config
    if spec.move_days is not None:
        if spec.move_days > config.correspondence_max_days:
            out.to(session, TextLine.of(Text.CLOCK_DAYS_TOO_LONG,
                                        text=f"{config.correspondence_max_days:g}"))
            return False
        return True
    if spec.clock is None:
        if config.clock_required_for_rated:
            out.to(session, TextLine.of(Text.TOURNAMENT_CLOCK_REQUIRED))
            return False
        return True
    delay, reserve = spec.clock
    if delay > config.clock_max_delay_seconds:
        out.to(session, TextLine.of(Text.CLOCK_DELAY_TOO_LONG, seconds=int(config.clock_max_delay_seconds)))
        return False
    if reserve * spec.length > config.clock_max_reserve_seconds:
        out.to(session, TextLine.of(Text.CLOCK_RESERVE_TOO_LONG,
                                    duration=match_clock.duration(config.clock_max_reserve_seconds)))
        return False
    return True


def _join(registry: Registry, session: Session, tournament: Tournament, out: Outcome) -> None:
    if session.account.bot and not tournament.bots_allowed:
        out.to(session, TextLine.of(Text.TOURNAMENT_NO_BOTS, text=tournament.name))
        return
    try:
        tournament.join(session.name, session.account.rating, bot=session.account.bot,
                        limit=registry.config.tournament_max_entrants)
    except TournamentError as error:
        _refuse(session, tournament, error, out)
        return
    tournaments.persist(tournament, out)
    tournaments.tell_entrants(registry, tournament, TextLine.of(
        Text.TOURNAMENT_JOINS, text=tournament.name, name=session.name, count=len(tournament.entrants)), out)


def _leave(registry: Registry, session: Session, tournament: Tournament, out: Outcome) -> None:
    told = tournaments.entrants_online(registry, tournament)
    try:
        tournament.leave(session.name)
    except TournamentError as error:
        _refuse(session, tournament, error, out)
        return
    tournaments.persist(tournament, out)
    out.to_each(told, TextLine.of(
        Text.TOURNAMENT_LEAVES, text=tournament.name, name=session.name, count=len(tournament.entrants)))


def _start(registry: Registry, session: Session, tournament: Tournament, out: Outcome) -> None:
    if not _may_direct(registry, session, tournament):
        out.to(session, TextLine.of(Text.TOURNAMENT_CREATOR_ONLY, name=tournament.creator))
        return
    try:
        first = tournament.start(defer=True)
    except TournamentError as error:
        _refuse(session, tournament, error, out)
        return
    tournaments.persist(tournament, out)
    listeners = tournaments.audience(registry, tournament)
    if session not in listeners:
        listeners.append(session)
    out.to_each(listeners, TextLine.of(
        Text.TOURNAMENT_BEGINS, text=tournament.name, count=len(tournament.entrants)))
    tournaments.next_round(registry, tournament, first, out)


def _cancel(registry: Registry, session: Session, tournament: Tournament, out: Outcome) -> None:
    if not _may_direct(registry, session, tournament):
        out.to(session, TextLine.of(Text.TOURNAMENT_CREATOR_ONLY, name=tournament.creator))
        return
    try:
        tournament.cancel()
    except TournamentError as error:
        _refuse(session, tournament, error, out)
        return
    tournaments.persist(tournament, out)
    listeners = tournaments.audience(registry, tournament)
    if session not in listeners:
        listeners.append(session)
    out.to_each(listeners, TextLine.of(Text.TOURNAMENT_CANCELLED, text=tournament.name, name=session.name))


# ------------------------------------------------------------------ listings


def _options(tournament: Tournament) -> list[str]:
    words = []
    if tournament.format is Format.SWISS and tournament.rounds is not None:
        words.append(render(Text.TOURNAMENT_OPTION_ROUNDS, n=tournament.rounds))
    if tournament.consolation:
        words.append(Text.TOURNAMENT_OPTION_CONSOLATION.value)
    if tournament.bots_allowed:
        words.append(Text.TOURNAMENT_OPTION_BOTS.value)
    return words


def _describe(tournament: Tournament) -> str:
    return ", ".join([tournament.format.value, *_options(tournament)])


def describe_settings(settings: dict[str, object]) -> str:
    """A schedule's tournament settings as `tournament list` says a tournament's."""
    words = [str(settings["format"])]
    rounds = settings.get("rounds")
    if settings["format"] == Format.SWISS.value and isinstance(rounds, int):
        words.append(render(Text.TOURNAMENT_OPTION_ROUNDS, n=rounds))
    if settings.get("consolation"):
        words.append(Text.TOURNAMENT_OPTION_CONSOLATION.value)
    if settings.get("bots_allowed"):
        words.append(Text.TOURNAMENT_OPTION_BOTS.value)
    return ", ".join(words)


def _list(registry: Registry, session: Session, out: Outcome) -> None:
    """The live tournaments (open and running), newest first."""
    shown = tournaments.live(registry)
    if not shown:
        out.to(session, TextLine.of(Text.TOURNAMENT_NONE))
        return
    out.to(session, TextLine.of(Text.TOURNAMENT_LIST_HEADER))
    for t in sorted(shown, key=lambda t: (-t.created_at, -t.id)):
        out.to(session, TextLine.of(
            Text.TOURNAMENT_LIST_ENTRY, text=t.name, names=f"{_describe(t)}, {t.phase.value}",
            length=t.length, count=len(t.entrants), name=t.creator))


def _list_records(registry: Registry, session: Session, listing: c.TournamentListing, page: int,
                  out: Outcome) -> None:
    """Every tournament (`all`) or those over (`finished`: finished or cancelled), newest
    first, PAGE_SIZE to a page, each with its number and the day it was created."""
    kept = sorted(tournaments.records(registry).values(), key=lambda t: -t.id)
    if listing is c.TournamentListing.FINISHED:
        kept = [t for t in kept if not t.live]
    if not kept:
        out.to(session, TextLine.of(Text.TOURNAMENT_NONE_LISTED, text=listing.value))
        return
    pages = math.ceil(len(kept) / PAGE_SIZE)
    if page > pages:
        out.to(session, TextLine.of(Text.TOURNAMENT_NO_SUCH_PAGE, n=page, text=listing.value,
                                    count=count_phrase(pages, "page")))
        return
    lines = [TextLine.of(Text.TOURNAMENT_LIST_RECORDS_HEADER, text=listing.value)]
    for t in kept[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]:
        lines.append(TextLine.of(
            Text.TOURNAMENT_LIST_RECORD, n=t.id, text=t.name, day=_day(t).isoformat(),
            names=f"{_describe(t)}, {t.phase.value}", length=t.length, count=len(t.entrants), name=t.creator))
    if page < pages:
        lines.append(TextLine.of(Text.TOURNAMENT_LIST_NEXT_PAGE, n=page, count=pages, text=listing.value,
                                 next=page + 1))
    else:
        lines.append(TextLine.of(Text.TOURNAMENT_LIST_PAGE, n=page, count=pages))
    out.to(session, *lines)


def _day(t: Tournament) -> datetime.date:
    """The day (UTC) `t` was created: with its name, it names a record."""
    return datetime.datetime.fromtimestamp(t.created_at, datetime.UTC).date()


def _show_record(registry: Registry, session: Session, command: c.Tournament, out: Outcome) -> None:
    """`tournament show #ID`, or `tournament show NAME YYYY-MM-DD` (the most recent one of
    that name created that day)."""
    kept = tournaments.records(registry)
    if command.record_id is not None:
        found = kept.get(command.record_id)
        if found is None:
            out.to(session, TextLine.of(Text.TOURNAMENT_NO_SUCH_NUMBER, n=command.record_id))
            return
        show(registry, session, found, out)
        return
    assert command.name is not None and command.day is not None
    named = [t for t in kept.values() if t.name.lower() == command.name.lower() and _day(t) == command.day]
    if not named:
        out.to(session, TextLine.of(Text.TOURNAMENT_NO_SUCH_DAY, text=command.name, day=command.day.isoformat()))
        return
    show(registry, session, max(named, key=lambda t: t.id), out)


def show(registry: Registry, session: Session, t: Tournament, out: Outcome) -> None:
    """Entrants, each round's pairings and results, the standings, the winner."""
    # (The format alone in the header, the options on a line of their own: the web client
    # reads the header as "NAME: FORMAT, N-point matches, ...".)
    lines = [TextLine.of(Text.TOURNAMENT_SHOW_HEADER, text=t.name, names=t.format.value, length=t.length,
                         name=t.creator)]
    options = _options(t)
    if options:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_OPTIONS, text=", ".join(options)))
    noshow = count_phrase(t.noshow_seconds, "second")
    if t.deadline_days is not None:
        lines.append(_deadline_rules(t))
    elif t.clock is None:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_RULES, noshow=noshow))
    else:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_RULES_CLOCK, noshow=noshow,
                                 delay_phrase=amount_phrase(t.clock[0], "second"), reserve_phrase=amount_phrase(t.clock[1], "second")))
    match t.phase:
        case Phase.OPEN:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_OPEN, count=len(t.entrants)))
            schedule = recurring.opener(registry, t)
            if schedule is not None:
                lines.append(TextLine.of(Text.TOURNAMENT_SHOW_SCHEDULED, text=schedule.name,
                                         date=recurring.when(registry, schedule.starts_at), count=schedule.minimum))
        case Phase.RUNNING if t.awaiting_pairing:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_PAIRING, n=t.round_number + 1, count=t.rounds or 0))
        case Phase.RUNNING:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_RUNNING, n=t.round_number, count=t.rounds or 0))
        case Phase.FINISHED:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_FINISHED, rounds=count_phrase(t.round_number, "round")))
        case Phase.CANCELLED:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_CANCELLED))
    lines.append(TextLine.of(Text.TOURNAMENT_SHOW_NUMBER, n=t.id, day=_day(t).isoformat()))
    if t.live and _may_direct(registry, session, t):
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_MAY_START if t.phase is Phase.OPEN
                                 else Text.TOURNAMENT_SHOW_MAY_CANCEL, text=t.name))
    ratings = {e.name: e.rating for e in t.entrants}
    bots = {e.name for e in t.entrants if e.bot}
    for number, name in enumerate(t.seeds or [e.name for e in t.entrants], start=1):
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_BOT_ENTRANT if name in bots else Text.TOURNAMENT_SHOW_ENTRANT,
                                 n=number, name=name, text=f"{ratings.get(name, 0.0):.2f}"))
    for number, pairings in enumerate(t.played_rounds, start=1):
        deadline = max((p.deadline for p in pairings if p.deadline is not None), default=None)
        if deadline is None:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_ROUND, n=number))
        else:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_ROUND_DEADLINE, n=number,
                                     date=tournaments.deadline_date(deadline, session)))
        lines.extend(_pairing_line(registry, p) for p in pairings if p.bracket is Bracket.MAIN)
        side = [p for p in pairings if p.bracket is Bracket.CONSOLATION]
        if side:
            lines.append(TextLine.of(Text.TOURNAMENT_SHOW_CONSOLATION_ROUND, n=number))
            lines.extend(_pairing_line(registry, p) for p in side)
    if t.phase is not Phase.OPEN and t.format is not Format.KNOCKOUT:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_STANDINGS))
        for place, standing in enumerate(t.standings(), start=1):
            lines.append(TextLine.of(
                Text.TOURNAMENT_SHOW_STANDING, n=place, name=standing.name,
                text=f"{standing.points} {standing.buchholz} {standing.match_points:+d}"))
    if t.winner is not None:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_WINNER, name=t.winner))
    consolation = t.consolation_winner()
    if consolation is not None:
        lines.append(TextLine.of(Text.TOURNAMENT_SHOW_CONSOLATION, name=consolation))
    out.to(session, *lines)


def _deadline_rules(t: Tournament) -> TextLine:
    """`tournament show`'s rules line of a tournament whose rounds have deadlines."""
    assert t.deadline_days is not None
    days = count_phrase(t.deadline_days, "day")
    if t.move_days is not None:
        return TextLine.of(Text.TOURNAMENT_SHOW_RULES_CORRESPONDENCE, days=days,
                           move_days=amount_phrase(t.move_days, "day"))
    if t.clock is None:
        return TextLine.of(Text.TOURNAMENT_SHOW_RULES_DEADLINE, days=days)
    return TextLine.of(Text.TOURNAMENT_SHOW_RULES_DEADLINE_CLOCK, days=days,
                       delay_phrase=amount_phrase(t.clock[0], "second"), reserve_phrase=amount_phrase(t.clock[1], "second"))


def _pairing_line(registry: Registry, p: Pairing) -> TextLine:
    if p.b is None:
        return TextLine.of(Text.TOURNAMENT_SHOW_BYE, name=p.a)
    if p.ending is None:
        playing = p.started and tournaments.in_play(registry, p)
        return TextLine.of(Text.TOURNAMENT_SHOW_PLAYING if playing else Text.TOURNAMENT_SHOW_WAITING,
                           name=p.a, opponent=p.b)
    if p.ending is Ending.DOUBLE_FORFEIT or p.winner is None:
        return TextLine.of(Text.TOURNAMENT_SHOW_DOUBLE_FORFEIT, name=p.a, opponent=p.b)
    loser = p.b if p.winner == p.a else p.a
    if p.ending is Ending.FORFEIT:
        return TextLine.of(Text.TOURNAMENT_SHOW_FORFEIT, winner=p.winner, loser=loser)
    won, lost = (p.score[0], p.score[1]) if p.winner == p.a else (p.score[1], p.score[0])
    return TextLine.of(Text.TOURNAMENT_SHOW_PLAYED, winner=p.winner, loser=loser, score=won,
                       opponent_score=lost)


# ------------------------------------------------------------------ bots (B1)


def setbot(registry: Registry, session: Session, command: c.Setbot, out: Outcome) -> None:
    """`setbot NAME on|off`: an administrator marks an account as a bot's (or clears it)."""
    if not registry.config.is_admin(session.name):
        out.to(session, TextLine.of(Text.PERMISSION_DENIED))
        return
    known = registry.known_account(command.name)
    if known is not None:
        _mark_bot(registry, session, command.name, known, command.bot, out)
        return
    typed, bot = command.name, command.bot

    def marked(account: Account | None) -> Outcome:
        done = Outcome()
        _mark_bot(registry, session, typed, account, bot, done)
        return done

    out.run(registry.read(lambda store: store.get_account(typed), marked, name="setbot: the account"))


def _mark_bot(registry: Registry, session: Session, typed: str, account: Account | None, bot: bool,
              out: Outcome) -> None:
    if account is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED, name=typed))
        return
    log.warning("admin %s: setbot %s %s", session.name, account.name, "on" if bot else "off")
    name = account.name
    out.write(lambda store: store.set_bot(name, bot))
    online = registry.get(name)
    if online is not None:
        online.account = attrs.evolve(online.account, bot=bot)
        announce_bot_mark(registry, online.name, bot, out)
    registry.update_gone_account(attrs.evolve(account, bot=bot))
    out.to(session, TextLine.of(Text.SETBOT_DONE if bot else Text.SETBOT_CLEARED, name=name))
