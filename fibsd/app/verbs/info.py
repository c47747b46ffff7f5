"""Information commands: who, rawwho, whois, where, show, ratings, last, time, motd, help.

Wording and formats from the FIBS reference §5.4; the listings themselves are built by
`protocol.listings`. `show games|saved|savedcount|watchers|max|dice` lives here whole; `show pr` and
`show record` in their own modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from fibsd import __version__
from fibsd.app.lobby.seating import restore_table
from fibsd.app.outcome import ClipBytes, Outcome
from fibsd.app.presentation import WHO_INFO_END, local_time, who_entry, who_line
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.app.verbs import analysis, puzzles
from fibsd.app.verbs.record import show_record
from fibsd.domain.accounts import Account
from fibsd.domain.fairdice import roll_statistics_from_counts
from fibsd.domain.match_analysis import band
from fibsd.domain.player_record import OpponentsPr
from fibsd.infra.house_bots import house_bot_named
from fibsd.store.api import Store
from protocol import commands as c
from protocol.listings import (
    GameEntry,
    RatingEntry,
    SavedEntry,
    SavedMark,
    WhoisInfo,
    games_lines,
    help_lines,
    ratings_lines,
    rawwho_lines,
    saved_lines,
    savedcount_line,
    show_max_line,
    time_lines,
    watchers_lines,
    who_count_line,
    who_lines,
    whois_lines,
    whois_unknown,
)
from protocol.messages import MotdBegin, MotdEnd, TextLine, UnknownLine
from protocol.wording import Text, render

#: `ratings` without a range shows the top 20 (§5.4).
DEFAULT_RATINGS_RANKS = 20


def who(registry: Registry, session: Session, command: c.Who | c.RawWho, out: Outcome) -> None:
    now = registry.clock.now()
    if command.kind is c.WhoKind.NAME:
        target = registry.get(command.argument or "")
        if target is None:
            out.to(session, TextLine.of(Text.NO_ONE_CALLED_PERIOD, name=command.argument or ""))
            return
        chosen = [target]
    else:
        chosen = _sorted(session, _filtered(registry, session, command))
    if command.kind is c.WhoKind.COUNT and not session.clip:
        out.lines(session, who_count_line(len(chosen)))
        return
    if session.clip:
        # FIBS omits the 6 after `who` but always sends it after `rawwho`; a 6 after `who`
        # is harmless for every client parser reviewed, and meowBG waits for it.
        listing = b"".join(who_line(other, now) for other in chosen)
        out.to(session, ClipBytes(listing + WHO_INFO_END))
        return
    zone = session.account.variables.timezone
    entries = [who_entry(other, now, zone) for other in chosen]
    if isinstance(command, c.RawWho):
        out.lines(session, *rawwho_lines(entries))
    else:
        out.lines(session, *who_lines(entries))


def _filtered(registry: Registry, session: Session, command: c.Who | c.RawWho) -> list[Session]:
    everyone = list(registry.sessions())
    match command.kind:
        case c.WhoKind.READY:
            return [s for s in everyone if s.account.toggles.ready and s.opponent_name is None]
        case c.WhoKind.PLAYING:
            return [s for s in everyone if s.opponent_name is not None]
        case c.WhoKind.AWAY:
            return [s for s in everyone if s.away_message is not None]
        case c.WhoKind.FROM:
            site = (command.argument or "").lower()
            return [s for s in everyone if site in s.host.lower()]
        case _:
            return everyone


def _sorted(session: Session, sessions: list[Session]) -> list[Session]:
    order = session.account.variables.sortwho.value
    if order == "name":
        return sorted(sessions, key=lambda s: s.name.lower())
    if order == "rating":
        return sorted(sessions, key=lambda s: -s.account.rating)
    if order == "rrating":
        return sorted(sessions, key=lambda s: s.account.rating)
    return sessions  # login order


def whois(registry: Registry, session: Session, command: c.Whois, out: Outcome) -> None:
    """`whois NAME`: no name completion (§5.4)."""
    name, want_drops = command.name, session.extensions
    online = registry.get(name)
    if online is not None and not want_drops:
        out.extend(_whois_answer(registry, session, name, None, None))
        return

    house = house_bot_named(registry.config.house_bots, name)

    def query(store: Store) -> tuple[Account | None, int | None, HouseBotRecord | None]:
        account = store.get_account(name)
        drops = store.drop_count(account.name) if want_drops and account is not None else None
        record = None
        if want_drops and house is not None and account is not None and account.bot:
            # A house bot's record: its fixed-length matches won and lost, and its
            # opponents' PR, counted by the store (cold reads, in this job).
            record = (store.player_record(account.name).decided(), store.opponents_pr(account.name))
        return account, drops, record

    # An offline user's account, and anyone's drop count: cold reads, in a job.
    out.run(registry.read(query, lambda found: _whois_answer(registry, session, name, *found),
                          name="whois"))


#: A house bot's `whois` record: its fixed-length matches (won, lost) and its opponents' PR.
HouseBotRecord: TypeAlias = tuple[tuple[int, int], OpponentsPr]


def _whois_answer(registry: Registry, session: Session, name: str, stored: Account | None,
                  drops: int | None, record: HouseBotRecord | None = None) -> Outcome:
    """`whois` with what was read (`stored`: the account in the store; `drops`)."""
    out = Outcome()
    zone = session.account.variables.timezone
    online = registry.get(name)
    account = online.account if online is not None else stored
    if account is None:
        out.lines(session, whois_unknown(name))
        return out
    now = registry.clock.now()
    last_login = online.login_at if online is not None else account.last_login_at
    info = WhoisInfo(
        name=account.name,
        rating=account.rating,
        experience=account.experience,
        last_login=None if last_login is None else local_time(last_login, zone),
        last_host=(online.host if online is not None else account.last_login_host) or "-",
        online=online is not None,
        idle_seconds=online.idle_seconds(now) if online is not None else 0,
        last_logout=(
            local_time(account.last_logout_at, zone)
            if online is None and account.last_logout_at is not None else None
        ),
        ready=account.toggles.ready,
        watching=online.watching_name if online is not None else None,
        playing_with=online.opponent_name if online is not None else None,
        away_message=online.away_message if online is not None else None,
        email=account.email,
        # fibsd's drop count is an extension line (wording.EXTENSION_LINES).
        drops=(drops or 0) if session.extensions else None,
        bot=account.bot and session.extensions,  # (an extension line too)
    )
    out.lines(session, *whois_lines(info, zone))
    house = house_bot_named(registry.config.house_bots, account.name)
    if house is not None and account.bot:  # (a house bot: the server runs it, at this strength)
        if house.matches == 1:
            out.to(session, TextLine.of(Text.WHOIS_HOUSE_BOT, name=account.name,
                                        strength=house.settings.described))
        else:  # (one of its copies; the record below is this account's alone)
            out.to(session, TextLine.of(Text.WHOIS_HOUSE_BOT_COPY, name=account.name,
                                        strength=house.settings.described, count=house.matches,
                                        names=", ".join(house.copies)))
        if record is not None:
            (wins, losses), opponents = record
            out.to(session, TextLine.of(Text.WHOIS_HOUSE_BOT_RECORD, wins=wins, losses=losses))
            if opponents.average is not None:
                out.to(session, TextLine.of(
                    Text.WHOIS_HOUSE_BOT_PR, pr=f"{opponents.average:.1f} ({band(opponents.average)})",
                    count=opponents.matches, left_out=opponents.left_out))
    return out


def where(registry: Registry, session: Session, command: c.Where, out: Outcome) -> None:
    target = session if command.name is None else registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_APOSTROPHE, name=command.name or ""))
        return
    # No reverse DNS lookups (they would block); FIBS repeats the address when unresolved.
    out.to(session, TextLine.of(Text.WHERE_FROM, name=target.name, address=target.host))
    out.to(session, TextLine.of(Text.WHERE_HOST, host=target.host))


def show(registry: Registry, session: Session, command: c.Show, out: Outcome) -> None:
    match command.what:
        case c.ShowWhat.GAMES:
            show_games(registry, session, out)
        case c.ShowWhat.SAVED:
            show_saved(registry, session, out)
        case c.ShowWhat.SAVEDCOUNT:
            show_savedcount(registry, session, command.name or session.name, out)
        case c.ShowWhat.WATCHERS:
            show_watchers(registry, session, out)
        case c.ShowWhat.MAX:
            out.lines(session, show_max_line(registry.online_count(), registry.peak_online))
        case c.ShowWhat.DICE:
            show_dice(session, out)
        case c.ShowWhat.PR:
            analysis.show_pr(registry, session, command.name or session.name, out)
        case c.ShowWhat.RECORD:
            show_record(registry, session, command.name or session.name, command.opponent, out)
        case c.ShowWhat.PUZZLES:
            puzzles.show_puzzles(registry, session, command.name or session.name, out)


def show_dice(session: Session, out: Outcome) -> None:
    """`show dice`: the commitment of the match this user plays or watches, or of the
    last one played, with its seed once that match ended (docs/dice.md). Asked for, so a
    CLIP client gets it without `toggle extensions`."""
    watched = session.watching
    table = session.table or (watched.table if watched is not None else None)
    finished = table is None and session.last_table is not None
    if finished:
        table = session.last_table
    commitment = None if table is None else table.commitment
    if table is None or commitment is None:
        out.lines(session, Text.NO_DICE_COMMITMENT.value)
        return
    out.lines(session, render(Text.DICE_COMMITMENT, commitment=commitment))
    seed = table.seed_hex
    if finished and seed is not None:  # `last_table` is always a finished match
        out.lines(session, render(Text.DICE_REVEALED, seed=seed))


def ratings(registry: Registry, session: Session, command: c.Ratings, out: Outcome) -> None:
    """`ratings [NAME] [from N] [to M]`: players with experience above 50 (§5.4, §8); with
    fibsd's `all`, every player (the page marks those with 50 or fewer provisional)."""
    everyone = command.everyone
    # The ratings list is a cold read: a job, answered when read.
    def answer(lines: list[str]) -> Outcome:
        follow = Outcome()
        follow.lines(session, *lines)
        return follow

    if command.name is not None:
        name = command.name

        def one(store: Store) -> list[str]:
            rank = store.rating_rank(name, everyone=everyone)
            return ratings_lines([] if rank is None else _entries(store.ratings_page(rank, rank, everyone=everyone)))

        out.run(registry.read(one, answer, name="ratings: one player"))
        return
    start = command.start or 1
    end = command.end or (start + DEFAULT_RATINGS_RANKS - 1)
    own_name = session.name

    def page(store: Store) -> list[str]:
        entries = _entries(store.ratings_page(start, end, everyone=everyone))
        own_rank = store.rating_rank(own_name, everyone=everyone)
        if own_rank is not None and not start <= own_rank <= end:
            entries += _entries(store.ratings_page(own_rank, own_rank, everyone=everyone))
        return ratings_lines(entries, own_name=own_name)

    out.run(registry.read(page, answer, name="ratings"))


def _entries(rows: Iterable[tuple[int, str, float, int]]) -> list[RatingEntry]:
    return [RatingEntry(rank=rank, name=name, rating=rating, experience=experience)
            for rank, name, rating, experience in rows]


def last(registry: Registry, session: Session, out: Outcome) -> None:
    zone = session.account.variables.timezone
    lines = [Text.LAST_HEADER.value]
    for at, name, what in registry.recent_logins():
        moment = local_time(at, zone)
        lines.append(render(what, date=f"{moment:%a %H:%M} {zone}", name=name))
    out.lines(session, *lines)


def time(registry: Registry, session: Session, command: c.Time | c.Date, out: Outcome) -> None:
    zone = command.zone or session.account.variables.timezone
    now = registry.clock.now()
    out.lines(session, *time_lines(local_time(now, zone), zone))


def motd(registry: Registry, session: Session, out: Outcome) -> None:
    lines = registry.motd_lines
    if session.clip:
        out.to(session, MotdBegin(), *(UnknownLine(line) for line in lines), MotdEnd())
    else:
        out.lines(session, *lines)


def help(registry: Registry, session: Session, command: c.Help, out: Outcome) -> None:
    topic = command.topic
    verb = None if topic is None else c.resolve_verb(topic)
    out.lines(session, *help_lines(topic, verb, operator=registry.config.is_admin(session.name)))


def server_facts(
    registry: Registry, session: Session, command: c.About | c.Average | c.Dicetest | c.Stat | c.Version | c.Port,
    out: Outcome,
) -> None:
    match command:
        case c.Version():
            out.to(session, TextLine.of(Text.VERSION, version=__version__))
        case c.Port():
            out.to(session, TextLine.of(Text.SERVER_PORT, port=registry.config.port))
        case c.About():
            out.to(session, TextLine.of(Text.ABOUT, club=registry.config.club_name, version=__version__))
        case c.Stat() | c.Average():
            out.to(session, TextLine.of(Text.WHO_COUNT, count=registry.online_count()))
        case c.Dicetest():
            statistics = roll_statistics_from_counts(registry.roll_counts)
            out.lines(session, *statistics.lines())


# ------------------------------------------------------------------ show lists


def show_saved(registry: Registry, session: Session, out: Outcome) -> None:
    name = session.name
    out.run(registry.read(  # the saved matches: a cold read
        lambda store: store.saved_matches_of(name),
        lambda saved: _saved_answer(registry, session, saved),
        name="show saved",
    ))


def _saved_answer(registry: Registry, session: Session,
                  saved: list[tuple[str, dict[str, object]]]) -> Outcome:
    out = Outcome()
    entries: list[SavedEntry] = []
    for opponent_key, data in saved:
        try:
            table = restore_table(registry, data)
        except ValueError:
            continue
        seat = table.seat_of_name(session.name)
        online = registry.get(opponent_key)
        if session.table is not None and (session.opponent_name or "").lower() == opponent_key:
            mark = SavedMark.PLAYING
        elif online is not None:
            mark = SavedMark.READY
        else:
            mark = SavedMark.NONE
        entries.append(SavedEntry(
            mark=mark, opponent=table.names[1 - seat], length=table.match.length,
            score=table.match.score[seat], opponent_score=table.match.score[1 - seat],
        ))
    out.lines(session, *saved_lines(entries))
    return out


def show_savedcount(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    def count(store: Store) -> str:
        account = store.get_account(name)
        spelled = account.name if account is not None else name
        return savedcount_line(spelled, len(store.saved_matches_of(spelled)))

    def answer(line: str) -> Outcome:
        follow = Outcome()
        follow.lines(session, line)
        return follow

    out.run(registry.read(count, answer, name="show savedcount"))  # a cold read


def show_games(registry: Registry, session: Session, out: Outcome) -> None:
    entries: list[GameEntry] = []
    seen: set[int] = set()
    for other in registry.sessions():
        table = other.table
        if table is None or id(table) in seen:
            continue
        seen.add(id(table))
        entries.append(GameEntry(
            player=table.names[0], opponent=table.names[1], length=table.match.length,
            score=table.match.score[0], opponent_score=table.match.score[1],
        ))
    out.lines(session, *games_lines(entries))


def show_watchers(registry: Registry, session: Session, out: Outcome) -> None:
    pairs = [(s.name, s.watching.name) for s in registry.sessions() if s.watching is not None]
    out.lines(session, *watchers_lines(pairs))
