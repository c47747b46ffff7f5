"""The multi-line answers of information and setting commands, as pure functions.

Owns the layout of every listing a command prints (the settings vocabulary it lists,
toggles and `set` variables, lives in `protocol.vocabulary`):
`toggle`, `set`, `whois`, telnet `who`/`rawwho`, `show saved|savedcount|games|watchers`,
`ratings`, `away`, `waitfor`, `time` and the `message` header (`help` is
`protocol.help_pages`, re-exported here). Each function
takes plain values and returns lines without terminators; the wording comes from
`protocol.wording`. It knows nothing of sessions, accounts or clocks: the caller passes
who is online, what time it is and in which zone.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import attrs

from protocol.vocabulary import (
    EXTENSIONS_TOGGLE,
    SET_VARIABLES,
    TOGGLE_BY_NAME,
    TOGGLES,
)
from protocol.help_pages import HELP_TOPICS, OPERATOR_VERBS, help_lines
from protocol.wording import MONTHS, WEEKDAYS, Text, render, time_line

__all__ = [
    "HELP_TOPICS",
    "OPERATOR_VERBS",
    "GameEntry",
    "RatingEntry",
    "SavedEntry",
    "SavedMark",
    "WhoEntry",
    "WhoisInfo",
    "away_lines",
    "games_lines",
    "help_lines",
    "messages_header",
    "ratings_lines",
    "rawwho_lines",
    "saved_lines",
    "savedcount_line",
    "set_listing",
    "set_value_is",
    "set_value_set_to",
    "short_date",
    "show_max_line",
    "time_lines",
    "timezone_unknown_lines",
    "toggle_answer",
    "toggle_listing",
    "waitfor_lines",
    "watchers_lines",
    "who_count_line",
    "who_lines",
    "whois_lines",
    "whois_unknown",
]


# --- toggles (§5.3) -------------------------------------------------------------------


def toggle_listing(values: Mapping[str, bool], extensions: bool | None = None) -> list[str]:
    """`toggle` without arguments: the header and exactly 17 `name  YES|NO` lines, plus a
    last `extensions` row when `extensions` is given (sessions that take fibsd's lines)."""
    lines = [Text.TOGGLE_HEADER.value]
    for spec in TOGGLES:
        row = Text.TOGGLE_ROW_YES if values[spec.name] else Text.TOGGLE_ROW_NO
        lines.append(render(row, toggle=spec.name))
    if extensions is not None:
        row = Text.TOGGLE_ROW_YES if extensions else Text.TOGGLE_ROW_NO
        lines.append(render(row, toggle=EXTENSIONS_TOGGLE))
    return lines


def toggle_answer(name: str, value: bool) -> str:
    """The `** ...` line after toggle `name` became `value`."""
    if name == EXTENSIONS_TOGGLE:
        answer = Text.TOGGLE_EXTENSIONS_ON if value else Text.TOGGLE_EXTENSIONS_OFF
        return answer.value
    return TOGGLE_BY_NAME[name].answer(value)


# --- set (§5.3) ---------------------------------------------------------------------

_SET_ROWS: Final[Mapping[str, Text]] = {
    "boardstyle": Text.SET_ROW_BOARDSTYLE,
    "linelength": Text.SET_ROW_LINELENGTH,
    "pagelength": Text.SET_ROW_PAGELENGTH,
    "redoubles": Text.SET_ROW_REDOUBLES,
    "sortwho": Text.SET_ROW_SORTWHO,
    "timezone": Text.SET_ROW_TIMEZONE,
}


def _set_word(variable: str, value: int | str) -> str:
    # redoubles 0 is FIBS's `none` in every answer (CLIP 2 alone prints it as 0).
    return "none" if variable == "redoubles" and value == 0 else str(value)


def set_listing(values: Mapping[str, int | str]) -> list[str]:
    """`set` without arguments: the header and one row per variable, in FIBS's order."""
    lines = [Text.SET_HEADER.value]
    for variable in SET_VARIABLES:
        lines.append(render(_SET_ROWS[variable], value=_set_word(variable, values[variable])))
    return lines


def set_value_is(variable: str, value: int | str) -> str:
    """`set VARIABLE`: `Value of 'boardstyle' is 3`."""
    return render(Text.SET_VALUE_IS, variable=variable, value=_set_word(variable, value))


def set_value_set_to(variable: str, value: int | str) -> str:
    """`set VARIABLE VALUE` accepted: `Value of 'boardstyle' set to 3.`

    The redoubles words are quoted (`set to 'none'.`, `set to 'unlimited'.`), numbers
    are not; FCM has a cookie for each form (§5.3).
    """
    word = _set_word(variable, value)
    if variable == "redoubles" and word in ("none", "unlimited"):
        word = f"'{word}'"
    return render(Text.SET_VALUE_SET_TO, variable=variable, value=word)


def timezone_unknown_lines(zone: str, known_zones: Iterable[str], width: int = 79) -> list[str]:
    """`set timezone X` for an unknown X: the complaint, then the zones, comma-separated."""
    lines = [render(Text.TIMEZONE_UNKNOWN, zone=zone)]
    current = ""
    for name in sorted(set(known_zones)):
        piece = f"{current}, {name}" if current else name
        if current and len(piece) + 1 > width:
            lines.append(current + ",")
            piece = name
        current = piece
    if current:
        lines.append(current)
    return lines


# --- dates --------------------------------------------------------------------------

def _zone_abbreviation(moment: datetime.datetime, zone_name: str) -> str:
    abbreviation = moment.tzname()
    # Zones without an abbreviation in tzdata name themselves like "+03"; FIBS printed
    # the zone, so fall back to its name then.
    if not abbreviation or abbreviation[0] in "+-":
        return zone_name
    return abbreviation


def time_lines(moment: datetime.datetime, zone_name: str) -> list[str]:
    """`time` / `date`: `Wednesday, January 15 22:18:35 EST   ( Wed Jan 15 11:18:35 2003 UTC )`.

    `moment` is an aware datetime already in the user's zone `zone_name` (the caller
    owns the clock and the zone database).
    """
    if moment.tzinfo is None:
        raise ValueError("time_lines needs an aware datetime")
    utc = moment.astimezone(datetime.UTC)
    return [time_line(moment, _zone_abbreviation(moment, zone_name), utc)]


def short_date(moment: datetime.datetime, zone_name: str) -> str:
    """`Tuesday, January 14 20:14 EST`: the date format of `whois` (§5.4)."""
    weekday, month = WEEKDAYS[moment.weekday()], MONTHS[moment.month - 1]
    return (
        f"{weekday}, {month} {moment.day:02d} {moment:%H:%M}"
        f" {_zone_abbreviation(moment, zone_name)}"
    )


# --- whois (§5.4) -------------------------------------------------------------------


@attrs.frozen
class WhoisInfo:
    """What `whois NAME` reports; dates are aware datetimes in the asker's zone."""

    name: str
    rating: float
    experience: int
    last_login: datetime.datetime | None
    last_host: str
    online: bool
    idle_seconds: int = 0
    last_logout: datetime.datetime | None = None
    ready: bool = False
    watching: str | None = None
    playing_with: str | None = None
    away_message: str | None = None
    email: str | None = None
    #: fibsd: matches this user dropped and did not come back to (None: not shown).
    drops: int | None = None
    #: fibsd: an administrator marked the account as a bot's (club-play.md B1; shown only
    #: to sessions that take fibsd's own lines).
    bot: bool = False


def whois_lines(info: WhoisInfo, zone_name: str) -> list[str]:
    """`whois NAME`. The email line is last: KBackgammon reads up to it."""
    lines = [render(Text.WHOIS_HEADER, name=info.name)]
    if info.last_login is not None:
        lines.append(
            render(
                Text.WHOIS_LAST_LOGIN,
                date=short_date(info.last_login, zone_name),
                host=info.last_host,
            )
        )
    if info.online:
        seconds = max(0, info.idle_seconds)
        if seconds < 60:
            lines.append(render(Text.WHOIS_IDLE_SECONDS, seconds=seconds))
        else:
            minutes = f"{seconds // 60}:{seconds % 60:02d}"
            lines.append(render(Text.WHOIS_IDLE_MINUTES, minutes=minutes))
        lines.append(_whois_status(info))
    else:
        if info.last_logout is not None:
            lines.append(
                render(Text.WHOIS_LAST_LOGOUT, date=short_date(info.last_logout, zone_name))
            )
        lines.append(Text.WHOIS_NOT_LOGGED_IN.value)
    if info.away_message is not None:
        lines.append(render(Text.WHOIS_AWAY, name=info.name, text=info.away_message))
    lines.append(render(Text.WHOIS_RATING, rating=info.rating, experience=info.experience))
    if info.drops:
        lines.append(render(Text.WHOIS_DROPS, count=info.drops))
    if info.bot:
        lines.append(render(Text.WHOIS_BOT, name=info.name))
    if info.email:
        lines.append(render(Text.WHOIS_EMAIL, email=info.email))
    else:
        lines.append(Text.WHOIS_NO_EMAIL.value)
    return lines


def _whois_status(info: WhoisInfo) -> str:
    if info.playing_with is not None:
        return render(Text.WHOIS_PLAYING, name=info.name, opponent=info.playing_with)
    if info.watching is not None:
        text = Text.WHOIS_READY_WATCHING if info.ready else Text.WHOIS_NOT_READY_WATCHING
        return render(text, name=info.name, player=info.watching)
    text = Text.WHOIS_READY_NOT_WATCHING if info.ready else Text.WHOIS_NOT_READY_NOT_WATCHING
    return render(text, name=info.name)


def whois_unknown(name: str) -> str:
    """`whois NAME` for a name nobody has."""
    return render(Text.WHOIS_UNKNOWN, name=name)


# --- who and rawwho for telnet users (§5.4) --------------------------------------------

MAX_WHO_HOST_CHARS: Final = 29


@attrs.frozen
class WhoEntry:
    """One online user as `who` shows it; `login` is an aware datetime in the asker's zone."""

    name: str
    rating: float
    experience: int
    login: datetime.datetime
    idle_seconds: int
    host: str
    opponent: str | None = None
    watching: str | None = None
    ready: bool = False
    away: bool = False
    client: str | None = None
    email: str | None = None

    @property
    def status(self) -> str:
        """Three columns: P(laying)/R(eady)/-, W(atching)/-, A(way)/-."""
        play = "P" if self.opponent else ("R" if self.ready else "-")
        return play + ("W" if self.watching else "-") + ("A" if self.away else "-")


def _idle_clock(seconds: int) -> str:
    seconds = max(0, seconds)
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def who_lines(entries: Sequence[WhoEntry]) -> list[str]:
    """Telnet `who`: the header and one numbered row per user, in the order given.

    The caller sorts (per `sortwho`) and filters (ready/playing/away/from/name).
    """
    lines = [Text.WHO_HEADER.value]
    for number, entry in enumerate(entries, start=1):
        lines.append(
            render(
                Text.WHO_ROW,
                count=number,
                status=entry.status,
                name=entry.name,
                rating=entry.rating,
                experience=entry.experience,
                login=f"{entry.login:%H:%M}",
                idle=_idle_clock(entry.idle_seconds),
                host=entry.host[:MAX_WHO_HOST_CHARS] or "-",
            )
        )
    return lines


def who_count_line(count: int) -> str:
    """`who count`: `There are N users logged on.`"""
    return Text.WHO_COUNT_ONE.value if count == 1 else render(Text.WHO_COUNT, count=count)


def rawwho_lines(entries: Sequence[WhoEntry]) -> list[str]:
    """Telnet `rawwho`: `who: ` rows (gnubg's gfibs.c reads them) and `who:end`."""
    lines = []
    for number, entry in enumerate(entries, start=1):
        lines.append(
            render(
                Text.RAWWHO_ROW,
                count=number,
                status=entry.status,
                name=entry.name,
                rating=entry.rating,
                experience=entry.experience,
                seconds=max(0, entry.idle_seconds),
                login=int(entry.login.timestamp()),
                host=entry.host or "-",
                client=entry.client or "-",
                email=entry.email or "-",
            )
        )
    lines.append(Text.RAWWHO_END.value)
    return lines


# --- show (§5.4) --------------------------------------------------------------------


class SavedMark(enum.Enum):
    """The two columns before a saved opponent's name in `show saved` ([CLIP])."""

    NONE = "  "  # opponent offline
    PLAYING = " *"  # the match you are playing right now
    READY = "**"  # opponent online


_SAVED_ROWS: Final[Mapping[tuple[SavedMark, bool], Text]] = {
    (SavedMark.NONE, False): Text.SAVED_ROW,
    (SavedMark.PLAYING, False): Text.SAVED_ROW_PLAYING,
    (SavedMark.READY, False): Text.SAVED_ROW_READY,
    (SavedMark.NONE, True): Text.SAVED_ROW_UNLIMITED,
    (SavedMark.PLAYING, True): Text.SAVED_ROW_UNLIMITED_PLAYING,
    (SavedMark.READY, True): Text.SAVED_ROW_UNLIMITED_READY,
}


@attrs.frozen
class SavedEntry:
    """One saved match from the asker's side; `length` None = unlimited."""

    opponent: str
    length: int | None
    score: int
    opponent_score: int
    mark: SavedMark = SavedMark.NONE


def saved_lines(entries: Sequence[SavedEntry]) -> list[str]:
    """`show saved`: the header, then the rows or `no saved games.` (FCM, Gibbon and MatchDog
    parse them). The header comes first even when there is nothing saved: Gibbon's lexer
    reads `no saved games.` only inside the listing its header opens (docs/compatibility.md)."""
    lines = [Text.SAVED_HEADER.value]
    if not entries:
        lines.append(Text.NO_SAVED_GAMES.value)
        return lines
    for entry in entries:
        text = _SAVED_ROWS[(entry.mark, entry.length is None)]
        lines.append(
            render(
                text,
                name=entry.opponent,
                length=entry.length or 0,
                score=entry.score,
                opponent_score=entry.opponent_score,
            )
        )
    return lines


def savedcount_line(name: str, count: int) -> str:
    """`show savedcount NAME`: `NAME has N saved games.` (GammonBot, Gibbon)."""
    if count == 0:
        return render(Text.SAVEDCOUNT_NONE, name=name)
    if count == 1:
        return render(Text.SAVEDCOUNT_ONE, name=name)
    return render(Text.SAVEDCOUNT_MANY, name=name, count=count)


@attrs.frozen
class GameEntry:
    """A match in progress for `show games`; `length` None = unlimited."""

    player: str
    opponent: str
    length: int | None
    score: int
    opponent_score: int


def games_lines(entries: Sequence[GameEntry]) -> list[str]:
    """`show games`: `List of games:` and `NAME - NAME (N point match A-B)` rows."""
    lines = [Text.GAMES_HEADER.value]
    for entry in entries:
        fields: dict[str, object] = {
            "name": entry.player,
            "opponent": entry.opponent,
            "score": entry.score,
            "opponent_score": entry.opponent_score,
        }
        if entry.length is None:
            lines.append(render(Text.GAMES_ROW_UNLIMITED, **fields))
        else:
            lines.append(render(Text.GAMES_ROW, length=entry.length, **fields))
    return lines


def watchers_lines(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """`show watchers` from (watcher, watched) pairs."""
    if not pairs:
        return [Text.WATCHERS_NONE.value]
    lines = [Text.WATCHERS_HEADER.value]
    lines.extend(render(Text.WATCHERS_ROW, watcher=w, name=p) for w, p in pairs)
    return lines


def show_max_line(logins: int, maximum: int) -> str:
    """`show max`: `max_logins is N (maximum: M)`."""
    return render(Text.SHOW_MAX, count=logins, n=maximum)


# --- ratings (§5.4) -----------------------------------------------------------------


@attrs.frozen
class RatingEntry:
    rank: int
    name: str
    rating: float
    experience: int


def ratings_lines(entries: Sequence[RatingEntry], own_name: str | None = None) -> list[str]:
    """`ratings`: the header and one row per entry; the asker's row starts with `*`.

    The caller picks the rows (ranks 1-20 by default, players with experience > 50,
    plus the asker's own row).
    """
    lines = [Text.RATINGS_HEADER.value]
    for entry in entries:
        text = Text.RATINGS_ROW_OWN if entry.name == own_name else Text.RATINGS_ROW
        lines.append(
            render(
                text,
                n=entry.rank,
                name=entry.name,
                rating=entry.rating,
                experience=entry.experience,
            )
        )
    return lines


# --- away, waitfor, messages (§5.1, §5.2) ------------------------------------------------

def away_lines(entries: Sequence[tuple[str, str]], own_name: str | None = None) -> list[str]:
    """`away` without text: who is away and why; the asker appears as `You`."""
    if not entries:
        return [Text.NOBODY_AWAY.value]
    lines = [Text.AWAY_LIST_HEADER.value]
    for name, message in entries:
        if name == own_name:
            lines.append(render(Text.AWAY_LIST_SELF, text=message))
        else:
            lines.append(render(Text.AWAY_LIST_ENTRY, name=name, text=message))
    return lines


def waitfor_lines(names: Sequence[str]) -> list[str]:
    """`waitfor` without names: whom you are waiting for."""
    if not names:
        return [Text.WAITFOR_NOBODY.value]
    if len(names) == 1:
        return [render(Text.WAITFOR_ONE, name=names[0])]
    lines = [render(Text.WAITFOR_MANY, count=len(names))]
    lines.extend(render(Text.WAITFOR_LIST_ENTRY, name=name) for name in names)
    return lines


def messages_header(count: int) -> str:
    """The line before stored messages (telnet), or that there are none."""
    return Text.MESSAGES_FOR_YOU.value if count else Text.NO_NEW_MESSAGES.value
