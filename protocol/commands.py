"""Client commands: one input line to one typed value, and back to a canonical line.

Owns FIBS's command syntax (fibs-protocol.md §1, §2, §5): the login-prompt lines
(`login CLIENT VERSION NAME PASSWORD`, `connect NAME PASSWORD`, `guest`, a bare telnet
name) and every command verb, matched case-insensitively, by any unique prefix and by
FIBS's special short forms (`b`, `k`, `m`, `r`, `s`, `t`, `w`, `wh`, `i`, `to`, `res`,
`o`), plus the bare move list (`8-5 6-5`). Arguments are validated as far as the line
alone allows; a refusal raises `CommandError` carrying FIBS's exact answer.

It does not know who is online or what state a game is in: names are kept as typed (the
server completes prefixes and answers `** There is no one called NAME`), and a move list
is only checked for its words, not for legality.
"""

from __future__ import annotations

import datetime
import enum
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final, TypeAlias, assert_never

import attrs

from protocol.errors import CommandError, LoginRejected
from protocol.vocabulary import (
    SESSION_TOGGLE_NAMES,
    SET_VARIABLES,
    SORTWHO_VALUES,
    TOGGLE_ALIASES,
    TOGGLE_NAMES,
    is_valid_name,
)
from protocol.wording import Text, render

MAX_CLIENT_NAME_LENGTH: Final = 20  # §2.2: longer and the login fails
MAX_MATCH_LENGTH: Final = 99  # §5.2: what we accept; FIBS's own limit is unverified
#: fibsd's own commands (not FIBS's): they yield to FIBS verbs in prefix matching.
EXTENSION_VERBS: Final = frozenset(
    {"export", "claim", "broadcast", "kick", "ban", "unban", "mute", "unmute", "adduser", "invitecode",
     "chouette", "team", "boxside", "uninvite", "analyse", "analyze", "analysis", "tournament", "setbot",
     "clock", "correspondence"}
)
MAX_SHUTDOWN_SECONDS: Final = 3600
MAX_SANCTION_MINUTES: Final = 5_256_000  # ten years
MAX_INVITATION_CODES: Final = 20
#: fibsd's invitation words (an extension a plain FIBS client never sends).
INVITE_OPTIONS: Final = ("holland", "jacoby", "nocrawford", "beavers")
#: `invite NAME N clock` alone: the federations' standard, 12 s + 2 min per point (K2).
CLOCK_STANDARD: Final = (12.0, 120.0, True)
#: `clock PRESET` (club-play.md K3): delay, reserve, whether the reserve is per point.
CLOCK_PRESETS: Final[Mapping[str, tuple[float, float, bool]]] = {
    "fast": (8.0, 20.0, True),
    "normal": (10.0, 60.0, True),
    "casual": (15.0, 180.0, True),
    "bullet": (2.0, 30.0, False),
}
#: A clock's number as typed: seconds or days, decimals allowed (no exponent, no sign).
_CLOCK_NUMBER = re.compile(r"[0-9]{1,7}(\.[0-9]{1,7})?|\.[0-9]{1,7}")
MAX_MOVES: Final = 4  # four moves with doubles; more is never a legal play
MAX_RATINGS_RANGE: Final = 100  # `** range currently limited to 100.`

_DIGITS = re.compile(r"[0-9]+")


# --- values -------------------------------------------------------------------------


class Place(enum.Enum):
    """The two move ends that are not points. FIBS spells them `bar` and `off`."""

    BAR = "bar"
    OFF = "off"


BAR: Final = Place.BAR
OFF: Final = Place.OFF
MovePoint: TypeAlias = int | Place
"""A point 1..24 (FIBS's absolute numbering, §4.2) or BAR or OFF."""


class ResignKind(enum.Enum):
    """What a resignation offers; the value is the multiple of the cube."""

    NORMAL = 1
    GAMMON = 2
    BACKGAMMON = 3

    @property
    def word(self) -> str:
        return self.name.lower()


class WhoKind(enum.Enum):
    """The selector of `who`/`rawwho` (§5.4); the values are the FIBS words."""

    ALL = ""
    READY = "ready"
    PLAYING = "playing"
    AWAY = "away"
    COUNT = "count"
    NAME = "name"  # `who NAME`: the argument is a user name
    FROM = "from"  # `who from SITE`: the argument is a host fragment


class ShowWhat(enum.Enum):
    """What `show` shows (§5.4)."""

    GAMES = "games"
    SAVED = "saved"
    SAVEDCOUNT = "savedcount"
    WATCHERS = "watchers"
    MAX = "max"
    DICE = "dice"  # fibsd: the dice commitment of the match you play or watch
    PR = "pr"  # fibsd: a player's average PR over his analysed matches (docs/analysis.md)
    RECORD = "record"  # fibsd: a player's record, or against one opponent (docs/matches.md)
    PUZZLES = "puzzles"  # fibsd: a solver's puzzle rating (docs/puzzles.md)


# --- the login prompt (§2.2, §2.3, §2.5) ----------------------------------------------


@attrs.frozen
class Login:
    """`login CLIENT VERSION NAME PASSWORD`: a CLIP login."""

    client: str
    version: str  # kept as sent: any value means CLIP mode (see `clip_version`)
    name: str
    password: str = attrs.field(repr=False)

    @property
    def clip_version(self) -> int:
        """The CLIP version as a number (1008 if it is not one); 1009 adds CLIP 20."""
        if _DIGITS.fullmatch(self.version) and len(self.version) < 10:
            return int(self.version)
        return 1008


@attrs.frozen
class Connect:
    """`connect NAME PASSWORD`: TinyMUD-style autologin, telnet output without prompts."""

    name: str
    password: str = attrs.field(repr=False)


@attrs.frozen
class Guest:
    """`guest`: log in to register a new account."""


@attrs.frozen
class TelnetLogin:
    """A bare name at `login: `; the password prompt follows."""

    name: str


LoginLine: TypeAlias = Login | Connect | Guest | TelnetLogin


# --- commands (§2, §5) --------------------------------------------------------------


@attrs.frozen
class Blank:
    """An empty line: nothing to do (a telnet user pressed Enter)."""


@attrs.frozen
class Name:
    """`name NAME`: a guest chooses an account name. Checked by `protocol.vocabulary.check_new_name`."""

    name: str


@attrs.frozen
class Who:
    kind: WhoKind = WhoKind.ALL
    argument: str | None = None  # the name for NAME, the site for FROM


@attrs.frozen
class RawWho:
    kind: WhoKind = WhoKind.ALL
    argument: str | None = None


@attrs.frozen
class Whois:
    name: str


@attrs.frozen
class Where:
    name: str | None = None


@attrs.frozen
class Tell:
    """`tell NAME TEXT` (also `tellx`, GammonBot's spelling)."""

    name: str
    text: str


@attrs.frozen
class Shout:
    text: str


@attrs.frozen
class Say:
    text: str


@attrs.frozen
class Kibitz:
    text: str


@attrs.frozen
class Whisper:
    text: str


@attrs.frozen
class Message:
    name: str
    text: str


@attrs.frozen
class Messages:
    """`message` without arguments: show the messages received since login."""


@attrs.frozen
class Waitfor:
    names: tuple[str, ...] = ()


@attrs.frozen
class Gag:
    name: str | None = None


@attrs.frozen
class Blind:
    name: str | None = None


@attrs.frozen
class Away:
    text: str | None = None  # None: list who is away


@attrs.frozen
class Back:
    pass


@attrs.frozen
class Invite:
    """`invite NAME [N|unlimited] [holland] [jacoby]`; no length means "resume our saved
    match". The option words are fibsd's extension (FIBS ignores extra words): `holland`
    asks for the Holland rule in a match to N points, `jacoby` for the Jacoby rule in an
    unlimited match."""

    name: str
    length: int | None = None
    unlimited: bool = False
    options: tuple[str, ...] = ()
    #: fibsd's clock words (club-play.md K9): `clock [DELAY RESERVE | PRESET] [overtime S]`
    #: or `days N`; None: no clock.
    clock: InviteClock | None = None


@attrs.frozen
class InviteClock:
    """The clock an invitation asks for. A delay clock: `delay` seconds, `reserve` seconds
    per point (`per_point`; per game in an unlimited match) or for the whole match
    (`bullet`), `overtime` seconds once (None: the server's default). Correspondence:
    `days` per move, nothing else. `words` is how it was typed, for `format_command`."""

    delay: float = 0.0
    reserve: float = 0.0
    per_point: bool = True
    overtime: float | None = None
    days: float | None = None
    words: tuple[str, ...] = ()


@attrs.frozen
class Join:
    name: str | None = None  # None: continue with the next game of the running match


@attrs.frozen
class Watch:
    name: str


@attrs.frozen
class Unwatch:
    pass


@attrs.frozen
class Look:
    name: str


@attrs.frozen
class Oldboard:
    name: str


@attrs.frozen
class Oldmoves:
    name: str


@attrs.frozen
class Toggle:
    """`toggle [NAME ...]`: canonical toggle names; none means "list them".

    One unknown or ambiguous NAME refuses the whole line (`** Don't know how to toggle X`)
    and nothing is toggled, where FIBS toggled the names before it; clients send one
    name per line, so only a typo'd telnet line sees the difference.
    """

    names: tuple[str, ...] = ()


SetValue: TypeAlias = int | str
"""boardstyle/linelength/pagelength: int; redoubles: `Redoubles`; sortwho, timezone: str."""


@attrs.frozen
class Set:
    """`set [VARIABLE [VALUE]]`, VARIABLE canonical, VALUE validated and normalised."""

    variable: str | None = None
    value: SetValue | None = None


@attrs.frozen
class Address:
    email: str


@attrs.frozen
class Password:
    """`password OLD:NEW:NEW`."""

    old: str = attrs.field(repr=False)
    new: str = attrs.field(repr=False)
    repeat: str = attrs.field(repr=False)


@attrs.frozen
class Save:
    pass


@attrs.frozen
class Show:
    what: ShowWhat
    name: str | None = None  # `show savedcount NAME`
    opponent: str | None = None  # `show record NAME OPPONENT`


@attrs.frozen
class Ratings:
    """`ratings [NAME] [from N] [to M] [all]`; start/end as given (the server fills
    defaults). `all` is fibsd's: the provisional players (50 points of experience or
    fewer) are listed too."""

    name: str | None = None
    start: int | None = None
    end: int | None = None
    everyone: bool = False


@attrs.frozen
class Last:
    pass


@attrs.frozen
class Time:
    zone: str | None = None


@attrs.frozen
class Date:
    zone: str | None = None


@attrs.frozen
class Motd:
    pass


@attrs.frozen
class About:
    pass


@attrs.frozen
class Average:
    pass


@attrs.frozen
class Dicetest:
    pass


@attrs.frozen
class Version:
    pass


@attrs.frozen
class Stat:
    pass


@attrs.frozen
class Help:
    topic: str | None = None


@attrs.frozen
class Clear:
    pass


@attrs.frozen
class Uninvite:
    """`uninvite` (fibsd's extension): withdraw your outstanding invitation."""


@attrs.frozen
class Claim:
    """`claim` (fibsd's extension): win a match whose opponent dropped and did not come
    back within the grace period."""


@attrs.frozen
class Export:
    """`export [ID]` (fibsd's extension): list your finished matches, or print match ID as
    a Jellyfish .mat file (the format GNU Backgammon imports)."""

    record_id: int | None = None


class AnalysisPart(enum.Enum):
    """What `analysis ID` shows: the summary, each error, or gnubg's .sgf file."""

    SUMMARY = "summary"
    MOVES = "moves"
    SGF = "sgf"


@attrs.frozen
class Analyse:
    """`analyse ID` / `analyze ID` (fibsd's extension, docs/analysis.md): queue finished
    match ID for engine analysis."""

    record_id: int


@attrs.frozen
class Analysis:
    """`analysis ID [moves|sgf]` (fibsd's extension): the engine's verdict on match ID."""

    record_id: int
    part: AnalysisPart = AnalysisPart.SUMMARY


@attrs.frozen
class Erase:
    pass


@attrs.frozen
class Shutdown:
    """`shutdown [SECONDS]`: administrators only; the countdown is announced to everyone."""

    seconds: int | None = None


# --- fibsd's operator commands (administrators only; EXTENSION_VERBS) -------------------


@attrs.frozen
class Broadcast:
    """`broadcast TEXT`: a message to every user, silent ones included."""

    text: str


@attrs.frozen
class Kick:
    """`kick NAME [REASON]`: disconnect a user."""

    name: str
    reason: str = ""


@attrs.frozen
class Ban:
    """`ban NAME|ADDRESS [MINUTES] [REASON]`: no minutes means until `unban`."""

    target: str
    minutes: int | None = None
    reason: str = ""


@attrs.frozen
class Unban:
    target: str


@attrs.frozen
class Mute:
    """`mute NAME [MINUTES]`: the user may not talk to others (tell, shout, kibitz, ...)."""

    name: str
    minutes: int | None = None


@attrs.frozen
class Unmute:
    name: str


@attrs.frozen
class Adduser:
    """`adduser NAME PASSWORD`: create an account (closed clubs)."""

    name: str
    password: str = attrs.field(repr=False)


@attrs.frozen
class Invitecode:
    """`invitecode [COUNT]`: new invitation codes for clubs with registration by code."""

    count: int = 1


@attrs.frozen
class Port:
    pass


@attrs.frozen
class Roll:
    pass


@attrs.frozen
class Move:
    """`move FROM-TO ...` or a bare move list: up to four (from, to) pairs."""

    moves: tuple[tuple[MovePoint, MovePoint], ...] = ()


@attrs.frozen
class Off:
    pass


@attrs.frozen
class Board:
    pass


@attrs.frozen
class Pip:
    pass


@attrs.frozen
class Double:
    #: In a chouette: the members (or the box) it is for; empty: everyone it may be.
    names: tuple[str, ...] = ()


@attrs.frozen
class Redouble:
    pass


@attrs.frozen
class Beaver:
    #: In a chouette: the members (or the box) it is for; empty: everyone it may be.
    names: tuple[str, ...] = ()


@attrs.frozen
class Raccoon:
    #: In a chouette: the members (or the box) it is for; empty: everyone it may be.
    names: tuple[str, ...] = ()


@attrs.frozen
class Otter:
    pass


@attrs.frozen
class Accept:
    #: In a chouette: the members (or the box) it is for; empty: everyone it may be.
    names: tuple[str, ...] = ()


@attrs.frozen
class Reject:
    #: In a chouette: the members (or the box) it is for; empty: everyone it may be.
    names: tuple[str, ...] = ()


@attrs.frozen
class Resign:
    kind: ResignKind
    #: In a chouette: the members the box resigns to; empty: every live member.
    names: tuple[str, ...] = ()


@attrs.frozen
class Leave:
    pass


@attrs.frozen
class Panic:
    pass


@attrs.frozen
class Bye:
    """`bye` and its aliases adios, ciao, end, exit, logout, quit, tschoe (§2.4)."""


@attrs.frozen
class Wave:
    pass


class ChouetteAction(enum.Enum):
    """The words after `chouette` (fibsd's chouette tables, docs/chouette.md)."""

    CREATE = "create"
    LIST = "list"
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    SHOW = "show"
    SCORE = "score"
    KICK = "kick"
    CLOSE = "close"
    EXPORT = "export"
    PARTNER = "partner"  # the box asks for a partner; `partner yes|no` answers an offer
    EXTRA = "extra"  # a dropper gives the lone taker an extra cube (C46)
    NOEXTRA = "noextra"
    BREAK = "break"  # sit out (and again: play again)
    HISTORY = "history"  # the tables the asker sat at, open or closed
    DELEGATE = "delegate"  # a crew member stepping away: NAME answers for his cube (C71)


@attrs.frozen
class Chouette:
    """`chouette ACTION [WORD ...]`: create (settings words), join/kick/delegate NAME
    (delegate: or `off`), leave [now],
    score/export [NUMBER] (a table's number, as digits)."""

    action: ChouetteAction
    words: tuple[str, ...] = ()


@attrs.frozen
class Team:
    """`team TEXT`: talk to the live members of one's chouette team (consultation)."""

    text: str


@attrs.frozen
class Boxside:
    """`boxside TEXT`: the chouette's box and his partner talk."""

    text: str


class TournamentAction(enum.Enum):
    """The words after `tournament` (club-play.md T5)."""

    CREATE = "create"
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    LIST = "list"
    SHOW = "show"


TOURNAMENT_FORMATS: Final = ("knockout", "swiss", "roundrobin")
#: `clock` alone in `tournament create`: the federations' standard, 12 s + 2 min per point (K2).
TOURNAMENT_STANDARD_CLOCK: Final = (12.0, 120.0)
MAX_TOURNAMENT_ROUNDS: Final = 99
#: The parser's bound on `max N`; the server's own, lower, is `tournament_max_entrants`.
MAX_TOURNAMENT_ENTRANTS: Final = 10_000
MAX_NOSHOW_SECONDS: Final = 7 * 24 * 3600
#: The longest round of a league or correspondence tournament (`deadline DAYS`).
MAX_ROUND_DEADLINE_DAYS: Final = 90
MAX_TOURNAMENT_NAME: Final = 24
_TOURNAMENT_NAME = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOURNAMENT_NAME}}}")
_SECONDS = re.compile(r"[0-9]{1,7}(\.[0-9]{1,3})?")
_TOURNAMENT_ID = re.compile(r"#[0-9]{1,9}")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@attrs.frozen
class TournamentSpec:
    """What `tournament create NAME FORMAT LENGTH [options]` asks for."""

    format: str  # one of TOURNAMENT_FORMATS
    length: int
    rounds: int | None = None
    #: (delay, reserve per point) in seconds; None: no clock.
    clock: tuple[float, float] | None = None
    noshow_seconds: int | None = None
    max_entrants: int | None = None
    bots: bool = False
    consolation: bool = False
    #: Days each round lasts (a league): None, the pairings play as soon as they can.
    deadline_days: int | None = None
    #: A correspondence tournament: days per move, as `invite NAME N days D`.
    move_days: float | None = None

    def words(self) -> tuple[str, ...]:
        """The words after the name, as `format_command` writes them."""
        words = [self.format, str(self.length)]
        if self.rounds is not None:
            words += ["rounds", str(self.rounds)]
        if self.clock is not None:
            words += ["clock", *(f"{value:g}" for value in self.clock)]
        if self.noshow_seconds is not None:
            words += ["noshow", str(self.noshow_seconds)]
        if self.max_entrants is not None:
            words += ["max", str(self.max_entrants)]
        if self.bots:
            words.append("bots")
        if self.consolation:
            words.append("consolation")
        if self.deadline_days is not None:
            words += ["deadline", str(self.deadline_days)]
        if self.move_days is not None:
            words += ["days", f"{self.move_days:g}"]
        return tuple(words)


class TournamentListing(enum.Enum):
    """`tournament list all|finished [PAGE]`: which tournaments a listing pages through
    (plain `tournament list` shows the live ones, open and running)."""

    ALL = "all"
    FINISHED = "finished"


@attrs.frozen
class Tournament:
    """`tournament ACTION [NAME [FORMAT LENGTH options]]` (fibsd's extension, T5), and
    `tournament list [all|finished [PAGE]]`, `tournament show #ID | NAME [YYYY-MM-DD]`."""

    action: TournamentAction
    name: str | None = None
    spec: TournamentSpec | None = None
    #: `tournament show #ID`: that tournament, whatever its name (then `name` is None).
    record_id: int | None = None
    #: `tournament show NAME YYYY-MM-DD`: the one of that name created that day (UTC).
    day: datetime.date | None = None
    #: `tournament list all|finished [PAGE]` (None: the live ones).
    listing: TournamentListing | None = None
    page: int = 1


@attrs.frozen
class Setbot:
    """`setbot NAME on|off` (fibsd's extension, an administrator's, B1): mark an account
    as a bot's or clear the mark."""

    name: str
    bot: bool


@attrs.frozen
class ClockCommand:
    """`clock` (fibsd's extension, club-play.md K9): both players' reserves and the delay
    of the match you play or watch."""


@attrs.frozen
class Correspondence:
    """`correspondence [NAME]` (fibsd's extension, K7): list your correspondence matches,
    or sit down at the one with NAME (who need not be online)."""

    name: str | None = None


class PuzzleSource(enum.Enum):
    """Where `puzzle` looks (fibsd's extension, docs/puzzles.md)."""

    FIRST = "first"  # your own errors first, then anyone's
    MINE = "mine"
    ANY = "any"


@attrs.frozen
class Puzzle:
    """`puzzle [mine|any]` (fibsd's extension): a position from an analysed match to solve."""

    source: PuzzleSource = PuzzleSource.FIRST


@attrs.frozen
class RepeatLast:
    """`!!`: the server repeats the previous command (not a chat command, §1)."""


Command: TypeAlias = (
    Blank | Name | Who | RawWho | Whois | Where | Tell | Shout | Say | Kibitz | Whisper
    | Message | Messages | Waitfor | Gag | Blind | Away | Back | Invite | Join | Watch | Unwatch | Look
    | Oldboard | Oldmoves | Toggle | Set | Address | Password | Save | Show | Ratings | Last
    | Time | Date | Motd | About | Average | Dicetest | Version | Stat | Help | Clear | Erase
    | Shutdown | Export | Claim | Port | Broadcast | Kick | Ban | Unban | Mute | Unmute | Adduser
    | Invitecode | Roll | Move | Off | Board | Pip | Double | Redouble | Beaver
    | Raccoon | Otter | Accept | Reject | Resign | Leave | Panic | Bye | Wave | RepeatLast
    | Chouette | Team | Boxside | Uninvite | Analyse | Analysis | Tournament | Setbot | ClockCommand
    | Correspondence | Puzzle
)

# Chat commands `!!` does not repeat (§1).
NOT_REPEATABLE: Final = (Shout, Tell, Say, Kibitz, Whisper, Team, Boxside)


# --- parsing ------------------------------------------------------------------------

_FIRST_WORD = re.compile(r"(\S+)\s*(.*)", re.DOTALL)


def _split(text: str) -> tuple[str, str]:
    """The first word and the rest (internal spacing of the rest kept verbatim)."""
    found = _FIRST_WORD.fullmatch(text)
    return (found[1], found[2]) if found else ("", "")


def _first(rest: str) -> str | None:
    words = rest.split()
    return words[0] if words else None


def parse_login_line(line: str) -> LoginLine:
    """A line typed at the `login: ` prompt; `LoginRejected` if it cannot log in.

    FIBS answers a rejected line only with a new prompt (§2.2), so the error has no text.
    """
    words = line.split()
    if not words:
        raise LoginRejected("empty line")
    verb = words[0].lower()
    if verb == "login":
        if len(words) != 5:
            raise LoginRejected("login takes exactly 4 arguments")
        _, client, version, name, password = words
        if len(client) > MAX_CLIENT_NAME_LENGTH:
            raise LoginRejected("client name longer than 20 characters")
        if not is_valid_name(name):
            raise LoginRejected("not a possible user name")
        return Login(client, version, name, password)
    if verb == "connect":
        if len(words) != 3 or not is_valid_name(words[1]):
            raise LoginRejected("usage: connect NAME PASSWORD")
        return Connect(words[1], words[2])
    if len(words) == 1:
        if verb == "guest":
            return Guest()
        if is_valid_name(words[0]):
            return TelnetLogin(words[0])
        raise LoginRejected("not a possible user name")
    raise LoginRejected("not a login line")


def _ordinal(index: int) -> str:
    return ("first", "second", "third", "fourth")[index]


def _point(word: str, move_index: int) -> MovePoint:
    lower = word.lower()
    if lower in ("bar", "b"):
        return BAR
    if lower in ("off", "o", "home", "h"):
        return OFF
    if _DIGITS.fullmatch(word) and len(word) <= 3 and 1 <= int(word) <= 24:
        return int(word)
    raise CommandError(render(Text.MOVE_LEGAL_WORDS, ordinal=_ordinal(move_index)))


def _parse_moves(text: str) -> Move:
    # `-` and blanks separate alike: `bar-5 bar 5 bar - 5 bar -5` is four moves (§5.5).
    words = re.findall(r"[^\s-]+", text)
    if len(words) > 2 * MAX_MOVES:
        raise CommandError(render(Text.TOO_MANY_MOVES, n=MAX_MOVES))
    points = [_point(word, index // 2) for index, word in enumerate(words)]
    if len(points) % 2:
        # A move without its destination: FIBS's only word for a malformed move.
        raise CommandError(render(Text.MOVE_LEGAL_WORDS, ordinal=_ordinal(len(points) // 2)))
    return Move(tuple(zip(points[::2], points[1::2], strict=True)))


# A line is a bare move list if its first word starts with a digit, is `bar`, or is a
# point word directly followed by `-` (`b-3`, `bar-22`); `b 22` stays `board` (§5.5).
_BARE_MOVE = re.compile(r"[0-9]|(?:bar|b|off|o|home|h)-|bar\Z", re.IGNORECASE)


def _who(kind_cls: type[Who | RawWho], rest: str) -> Who | RawWho:
    words = rest.split()
    if not words:
        return kind_cls()
    keyword = words[0].lower()
    if keyword in ("ready", "playing", "away", "count"):
        return kind_cls(WhoKind(keyword))
    if keyword == "from" and len(words) > 1:
        return kind_cls(WhoKind.FROM, words[1])
    return kind_cls(WhoKind.NAME, words[0])


def _parse_who(rest: str) -> Command:
    return _who(Who, rest)


def _parse_rawwho(rest: str) -> Command:
    return _who(RawWho, rest)


def _parse_whois(rest: str) -> Command:
    name = _first(rest)
    if name is None:
        raise CommandError(Text.WHOIS_WHO.value)
    return Whois(name)


def _parse_tell(rest: str) -> Command:
    name, text = _split(rest)
    if not name:
        raise CommandError(Text.TELL_WHOM.value)
    if not text:
        raise CommandError(render(Text.TELL_WHAT, name=name))
    return Tell(name, text)


def _parse_message(rest: str) -> Command:
    name, text = _split(rest)
    if not name:
        return Messages()  # `message` alone: the messages received since login
    if not text:
        raise CommandError(Text.MESSAGE_USAGE.value)
    return Message(name, text)


def _parse_invite(rest: str) -> Command:
    words = rest.split()
    if not words:
        raise CommandError(Text.INVITE_WHO.value)
    if len(words) == 1:
        return Invite(words[0])
    length = words[1]
    lowered = [w.lower() for w in words[2:]]
    clock, others = _parse_invite_clock(lowered)
    # Known option words are kept in their order; other extra words are ignored, as FIBS does.
    options = tuple(dict.fromkeys(w for w in others if w in INVITE_OPTIONS))
    if length.lower() == "unlimited":
        return Invite(words[0], unlimited=True, options=options, clock=clock)
    if not _DIGITS.fullmatch(length):
        raise CommandError(Text.INVITE_BAD_LENGTH.value)
    # Compare digits before converting: int() of a huge string is slow or refused.
    digits = length.lstrip("0") or "0"
    if len(digits) > 2 or not 1 <= int(digits) <= MAX_MATCH_LENGTH:
        raise CommandError(render(Text.MATCH_TOO_LONG, length=digits))
    return Invite(words[0], int(digits), options=options, clock=clock)


def _clock_number(word: str | None) -> float | None:
    if word is None or not _CLOCK_NUMBER.fullmatch(word):
        return None
    return float(word)


def parse_clock_words(words: list[str]) -> tuple[InviteClock | None, list[str]]:
    """The clock words among lowered words (`invite`'s, `chouette create`'s), and the
    rest; CommandError (the usage line) for a malformed clock."""
    return _parse_invite_clock(words)


def _parse_invite_clock(words: list[str]) -> tuple[InviteClock | None, list[str]]:
    """The clock words among an invitation's extra words (club-play.md K9), and the rest.
    `clock` [DELAY RESERVE | fast | normal | casual | bullet] [overtime SECONDS], or
    `days N`; a malformed clock is an error (a clock silently dropped would surprise)."""
    if "days" in words:
        at = words.index("days")
        days = _clock_number(words[at + 1] if at + 1 < len(words) else None)
        if days is None or days <= 0 or "clock" in words:
            raise CommandError(Text.INVITE_CLOCK_USAGE.value)
        if _clock_number(words[at + 2] if at + 2 < len(words) else None) is not None:
            raise CommandError(Text.INVITE_CLOCK_USAGE.value)  # (`days 1 2`: which one?)
        return InviteClock(days=days, words=tuple(words[at:at + 2])), words[:at] + words[at + 2:]
    if "clock" not in words:
        return None, words
    at = words.index("clock")
    end = at + 1
    delay, reserve, per_point = CLOCK_STANDARD
    following = words[end] if end < len(words) else None
    if following is not None and following in CLOCK_PRESETS:
        delay, reserve, per_point = CLOCK_PRESETS[following]
        end += 1
    elif _clock_number(following) is not None:
        typed_reserve = _clock_number(words[end + 1] if end + 1 < len(words) else None)
        if typed_reserve is None:
            raise CommandError(Text.INVITE_CLOCK_USAGE.value)
        delay, reserve, per_point = float(words[end]), typed_reserve, True
        end += 2
    elif following is not None and following != "overtime" and following not in INVITE_OPTIONS:
        raise CommandError(Text.INVITE_CLOCK_USAGE.value)
    overtime = None
    if end < len(words) and words[end] == "overtime":
        overtime = _clock_number(words[end + 1] if end + 1 < len(words) else None)
        if overtime is None:
            raise CommandError(Text.INVITE_CLOCK_USAGE.value)
        end += 2
    if reserve <= 0 or _clock_number(words[end] if end < len(words) else None) is not None:
        # (a number left over, `clock 1 1 2`: a clock silently read otherwise would surprise)
        raise CommandError(Text.INVITE_CLOCK_USAGE.value)
    clock = InviteClock(delay=delay, reserve=reserve, per_point=per_point, overtime=overtime,
                        words=tuple(words[at:end]))
    return clock, words[:at] + words[end:]


def _required_name(text: Text, factory: Callable[[str], Command]) -> Callable[[str], Command]:
    def parse(rest: str) -> Command:
        name = _first(rest)
        if name is None:
            raise CommandError(text.value)
        return factory(name)

    return parse


def _unique_prefix(word: str, choices: tuple[str, ...]) -> str | None:
    """`word` itself if it is a choice, else the only choice it begins, else None."""
    if word in choices:
        return word
    found = [choice for choice in choices if choice.startswith(word)]
    return found[0] if len(found) == 1 else None


_ALL_TOGGLE_NAMES: Final = TOGGLE_NAMES + SESSION_TOGGLE_NAMES


def _parse_toggle(rest: str) -> Command:
    names: list[str] = []
    for word in rest.split():
        lower = word.lower()
        name = TOGGLE_ALIASES.get(lower) or _unique_prefix(lower, _ALL_TOGGLE_NAMES)
        if name is None:
            raise CommandError(render(Text.TOGGLE_UNKNOWN, word=word))
        names.append(name)
    return Toggle(tuple(names))


def _set_number(word: str) -> int | None:
    if re.fullmatch(r"[+-]?[0-9]+", word) is None:
        return None
    sign = -1 if word.startswith("-") else 1
    digits = word.lstrip("+-").lstrip("0") or "0"
    return sign * int(digits) if len(digits) <= 6 else sign * 10**6


def _set_value(variable: str, word: str) -> SetValue:
    match variable:
        case "boardstyle":
            number = _set_number(word)
            if number is None or not 1 <= number <= 3:
                raise CommandError(Text.SET_BOARDSTYLE_RANGE.value)
            return number
        case "linelength" | "pagelength":
            number = _set_number(word)
            if number is None:  # FIBS quirk (§5.3): a non-number sets 0
                return 0
            if not 0 <= number <= 999:
                raise CommandError(render(Text.SET_LENGTH_RANGE, variable=variable))
            return number
        case "redoubles":
            lower = word.lower()
            if lower == "none":
                return 0
            if lower == "unlimited":
                return "unlimited"
            number = _set_number(word)
            if number is None or not 0 <= number <= 99:
                raise CommandError(Text.SET_REDOUBLES_RANGE.value)
            return number
        case "sortwho":
            if word.lower() not in SORTWHO_VALUES:
                raise CommandError(render(Text.SET_SORTWHO_UNKNOWN, word=word))
            return word.lower()
        case _:  # timezone: only the server knows the zone database
            return word


def _parse_set(rest: str) -> Command:
    words = rest.split()
    if not words:
        return Set()
    variable = _unique_prefix(words[0].lower(), SET_VARIABLES)
    if variable is None:
        raise CommandError(Text.SET_UNKNOWN.value)
    if len(words) == 1:
        return Set(variable)
    return Set(variable, _set_value(variable, words[1]))


def _parse_password(rest: str) -> Command:
    parts = rest.split(":")
    if not rest or len(parts) != 3:
        raise CommandError(Text.PASSWORD_USAGE.value, Text.PASSWORD_USAGE_NOTE.value)
    return Password(*parts)


def _parse_show(rest: str) -> Command:
    words = rest.split()
    if not words:
        raise CommandError(Text.SHOW_WHAT.value)
    found = _unique_prefix(words[0].lower(), tuple(what.value for what in ShowWhat))
    if found is None:
        raise CommandError(render(Text.SHOW_UNKNOWN, word=words[0]))
    what = ShowWhat(found)
    named = (ShowWhat.SAVEDCOUNT, ShowWhat.PR, ShowWhat.RECORD, ShowWhat.PUZZLES)
    name = words[1] if what in named and len(words) > 1 else None
    opponent = words[2] if what is ShowWhat.RECORD and len(words) > 2 else None
    return Show(what, name, opponent)


def _positive(words: list[str], index: int, keyword: str) -> int:
    word = words[index] if index < len(words) else ""
    digits = word.lstrip("0")
    if not _DIGITS.fullmatch(word) or not digits:
        raise CommandError(render(Text.RATINGS_POSITIVE_NUMBER, word=keyword))
    return int(digits) if len(digits) <= 9 else 10**9


def _parse_ratings(rest: str) -> Command:
    words = rest.split()
    name: str | None = None
    start: int | None = None
    end: int | None = None
    everyone = False
    index = 0
    while index < len(words):
        keyword = words[index].lower()
        if keyword in ("from", "to"):
            number = _positive(words, index + 1, keyword)
            if keyword == "from":
                start = number
            else:
                end = number
            index += 2
            continue
        if keyword == "all":
            everyone = True
            index += 1
            continue
        if name is not None and name != words[index]:
            raise CommandError(render(Text.RATINGS_ONE_NAME, name=name, opponent=words[index]))
        name = words[index]
        index += 1
    if start is not None and end is not None and start > end:
        raise CommandError(render(Text.RATINGS_BAD_RANGE, start=start, end=end))
    if end is not None and end - (start or 1) + 1 > MAX_RATINGS_RANGE:
        raise CommandError(Text.RATINGS_RANGE_LIMIT.value)
    return Ratings(name, start, end, everyone)


def _parse_resign(rest: str) -> Command:
    words = rest.split()
    word = words[0].lower() if words else ""
    for kind in ResignKind:
        if word and kind.word.startswith(word):
            return Resign(kind, tuple(words[1:]))
    raise CommandError(Text.RESIGN_USAGE.value)


def _with_names(factory: Callable[[tuple[str, ...]], Command]) -> Callable[[str], Command]:
    # FIBS ignores words after these; fibsd's chouette reads them as names (a match
    # ignores them still).
    return lambda rest: factory(tuple(rest.split()))


_CHOUETTE_NEEDS_NAME: Final = frozenset(
    {ChouetteAction.JOIN, ChouetteAction.KICK, ChouetteAction.DELEGATE})


def _parse_chouette(rest: str) -> Command:
    words = rest.split()
    if not words:
        raise CommandError(Text.CHOUETTE_USAGE.value)
    lowered = words[0].lower()
    found = [action for action in ChouetteAction if action.value.startswith(lowered)]
    if len(found) != 1:
        raise CommandError(Text.CHOUETTE_USAGE.value)
    action = found[0]
    args = tuple(words[1:])
    if action in _CHOUETTE_NEEDS_NAME and len(args) != 1:
        raise CommandError(render(Text.CHOUETTE_NEEDS_NAME, text=action.value))
    if action is ChouetteAction.LEAVE and args not in ((), ("now",)):
        raise CommandError(Text.CHOUETTE_LEAVE_USAGE.value)
    if action is ChouetteAction.PARTNER:
        args = tuple(word.lower() for word in args)
        if args not in ((), ("yes",), ("no",)):
            raise CommandError(Text.CHOUETTE_PARTNER_USAGE.value)
        return Chouette(action, args)
    if action in (ChouetteAction.SCORE, ChouetteAction.EXPORT):
        if len(args) > 1 or (args and not (args[0].isascii() and args[0].isdigit())):
            raise CommandError(Text.CHOUETTE_NUMBER_USAGE.value)
        return Chouette(action, args)
    if action not in _CHOUETTE_NEEDS_NAME and action not in (ChouetteAction.CREATE, ChouetteAction.LEAVE):
        args = ()  # like FIBS: extra words after a command that takes none are ignored
    return Chouette(action, args)


def _bounded_number(word: str, low: int, high: int) -> int | None:
    if not (word.isascii() and word.isdigit()) or len(word.lstrip("0")) > 7:
        return None
    value = int(word)
    return value if low <= value <= high else None


def parse_tournament_spec(words: Sequence[str]) -> TournamentSpec:
    """`FORMAT LENGTH [rounds N] [clock [DELAY RESERVE]] [noshow SECONDS] [max N] [bots]
    [consolation] [deadline DAYS] [days D]`, options in any order; CommandError saying what
    is wrong otherwise."""
    lowered = [word.lower() for word in words]
    if len(lowered) < 2:
        raise CommandError(Text.TOURNAMENT_CREATE_USAGE.value)
    if lowered[0] not in TOURNAMENT_FORMATS:
        raise CommandError(render(Text.TOURNAMENT_BAD_FORMAT, text=words[0]))
    length = _bounded_number(lowered[1], 1, MAX_MATCH_LENGTH)
    if length is None:
        raise CommandError(render(Text.TOURNAMENT_BAD_LENGTH, n=MAX_MATCH_LENGTH))
    options: dict[str, object] = {}
    at = 2
    while at < len(lowered):
        word = lowered[at]
        after = lowered[at + 1] if at + 1 < len(lowered) else ""
        if word not in ("rounds", "clock", "noshow", "max", "bots", "consolation", "deadline", "days"):
            raise CommandError(render(Text.TOURNAMENT_UNKNOWN_OPTION, text=words[at]))
        if word in options:
            raise CommandError(render(Text.TOURNAMENT_OPTION_TWICE, text=word))
        if word in ("bots", "consolation"):
            options[word] = True
            at += 1
        elif word == "clock":
            later = lowered[at + 2] if at + 2 < len(lowered) else ""
            if _SECONDS.fullmatch(after) and _SECONDS.fullmatch(later):
                options[word] = (float(after), float(later))
                at += 3
            elif _SECONDS.fullmatch(after):  # a delay without its reserve
                raise CommandError(Text.TOURNAMENT_CREATE_USAGE.value)
            else:
                options[word] = TOURNAMENT_STANDARD_CLOCK
                at += 1
        elif word == "days":
            days = _clock_number(after or None)
            if days is None or days <= 0:
                raise CommandError(Text.TOURNAMENT_BAD_DAYS.value)
            options[word] = days
            at += 2
        else:
            low, high = {"rounds": (1, MAX_TOURNAMENT_ROUNDS), "noshow": (1, MAX_NOSHOW_SECONDS),
                         "max": (2, MAX_TOURNAMENT_ENTRANTS),
                         "deadline": (1, MAX_ROUND_DEADLINE_DAYS)}[word]
            value = _bounded_number(after, low, high)
            if value is None:
                raise CommandError(render(Text.TOURNAMENT_BAD_VALUE, text=word, low=low, high=high))
            options[word] = value
            at += 2
    if "consolation" in options and lowered[0] != "knockout":
        raise CommandError(Text.TOURNAMENT_KNOCKOUT_ONLY.value)
    if "rounds" in options and lowered[0] != "swiss":
        raise CommandError(render(Text.TOURNAMENT_SWISS_ONLY, text=lowered[0]))
    if "days" in options and "clock" in options:
        raise CommandError(Text.TOURNAMENT_DAYS_OR_CLOCK.value)
    if "noshow" in options and ("deadline" in options or "days" in options):
        raise CommandError(Text.TOURNAMENT_DEADLINE_OR_NOSHOW.value)
    rounds = options.get("rounds")
    clock = options.get("clock")
    noshow = options.get("noshow")
    most = options.get("max")
    deadline = options.get("deadline")
    move_days = options.get("days")
    return TournamentSpec(
        format=lowered[0], length=length,
        rounds=rounds if isinstance(rounds, int) else None,
        clock=clock if isinstance(clock, tuple) else None,
        noshow_seconds=noshow if isinstance(noshow, int) else None,
        max_entrants=most if isinstance(most, int) else None,
        bots=bool(options.get("bots")), consolation=bool(options.get("consolation")),
        deadline_days=deadline if isinstance(deadline, int) else None,
        move_days=move_days if isinstance(move_days, float) else None,
    )


def _parse_tournament(rest: str) -> Command:
    words = rest.split()
    if not words:
        raise CommandError(Text.TOURNAMENT_USAGE.value)
    lowered = words[0].lower()
    found = [action for action in TournamentAction if action.value.startswith(lowered)]
    if len(found) != 1:
        raise CommandError(Text.TOURNAMENT_USAGE.value)
    action = found[0]
    if action is TournamentAction.LIST:
        return _parse_tournament_list(words[1:])
    if action is TournamentAction.SHOW and len(words) >= 2 and _TOURNAMENT_ID.fullmatch(words[1]):
        return Tournament(action, record_id=int(words[1][1:]))
    if len(words) < 2:
        raise CommandError(
            Text.TOURNAMENT_CREATE_USAGE.value if action is TournamentAction.CREATE
            else render(Text.TOURNAMENT_NEEDS_NAME, text=action.value))
    if not _TOURNAMENT_NAME.fullmatch(words[1]):
        raise CommandError(
            render(Text.TOURNAMENT_BAD_NAME, n=MAX_TOURNAMENT_NAME) if action is TournamentAction.CREATE
            else render(Text.TOURNAMENT_NEEDS_NAME, text=action.value))
    if action is TournamentAction.CREATE:
        return Tournament(action, words[1], parse_tournament_spec(words[2:]))
    if action is TournamentAction.SHOW and len(words) >= 3:
        try:
            day = datetime.date.fromisoformat(words[2]) if _DAY.fullmatch(words[2]) else None
        except ValueError:
            day = None
        if day is None:
            raise CommandError(Text.TOURNAMENT_SHOW_USAGE.value)
        return Tournament(action, words[1], day=day)
    return Tournament(action, words[1])  # (extra words ignored, as FIBS does)


def _parse_tournament_list(words: Sequence[str]) -> Tournament:
    """`[all|finished [PAGE]]` after `tournament list`."""
    if not words:
        return Tournament(TournamentAction.LIST)
    listing = next((kind for kind in TournamentListing if kind.value == words[0].lower()), None)
    page = _bounded_number(words[1], 1, 1_000_000) if len(words) == 2 else 1
    if listing is None or len(words) > 2 or page is None:
        raise CommandError(Text.TOURNAMENT_LIST_USAGE.value)
    return Tournament(TournamentAction.LIST, listing=listing, page=page)


def _parse_setbot(rest: str) -> Command:
    words = rest.split()
    if len(words) != 2 or words[1].lower() not in ("on", "off") or not is_valid_name(words[0]):
        raise CommandError(Text.SETBOT_USAGE.value)
    return Setbot(words[0], words[1].lower() == "on")


def _parse_last(rest: str) -> Command:
    if rest:
        raise CommandError(Text.LAST_USE_WHOIS.value)
    return Last()


def _parse_export(rest: str) -> Command:
    word = _first(rest)
    if word is None:
        return Export()
    if not _DIGITS.fullmatch(word) or len(word) > 9:
        raise CommandError(Text.EXPORT_USAGE.value)
    return Export(int(word))


def _record_number(word: str | None, usage: Text) -> int:
    if word is None or not _DIGITS.fullmatch(word) or len(word) > 9:
        raise CommandError(usage.value)
    return int(word)


def _parse_analyse(rest: str) -> Command:
    return Analyse(_record_number(_first(rest), Text.ANALYSE_USAGE))


def _parse_puzzle(rest: str) -> Command:
    words = rest.split()
    if not words:
        return Puzzle()
    found = _unique_prefix(words[0].lower(), (PuzzleSource.MINE.value, PuzzleSource.ANY.value))
    if found is None or len(words) > 1:
        raise CommandError(Text.PUZZLE_USAGE.value)
    return Puzzle(PuzzleSource(found))


def _parse_analysis(rest: str) -> Command:
    words = rest.split()
    if not words or len(words) > 2:
        raise CommandError(Text.ANALYSIS_USAGE.value)
    number = _record_number(words[0], Text.ANALYSIS_USAGE)
    if len(words) == 1:
        return Analysis(number)
    found = _unique_prefix(words[1].lower(), (AnalysisPart.MOVES.value, AnalysisPart.SGF.value))
    if found is None:
        raise CommandError(Text.ANALYSIS_USAGE.value)
    return Analysis(number, AnalysisPart(found))


def _small_number(word: str, limit: int) -> int | None:
    """A whole number 0..limit as typed, or None (huge numbers never reach int())."""
    if not _DIGITS.fullmatch(word):
        return None
    digits = word.lstrip("0") or "0"
    if len(digits) > len(str(limit)) or int(digits) > limit:
        return None
    return int(digits)


def _parse_shutdown(rest: str) -> Command:
    word = _first(rest)
    if word is None:
        return Shutdown()
    seconds = _small_number(word, MAX_SHUTDOWN_SECONDS)
    if seconds is None:
        raise CommandError(Text.SHUTDOWN_USAGE.value)
    return Shutdown(seconds)


def _parse_broadcast(rest: str) -> Command:
    if not rest.strip():
        raise CommandError(Text.BROADCAST_USAGE.value)
    return Broadcast(rest.strip())


def _parse_kick(rest: str) -> Command:
    name, reason = _split(rest)
    if not name:
        raise CommandError(Text.KICK_USAGE.value)
    return Kick(name, reason.strip())


def _parse_ban(rest: str) -> Command:
    target, rest = _split(rest)
    if not target:
        raise CommandError(Text.BAN_USAGE.value)
    word, reason = _split(rest)
    minutes = _small_number(word, MAX_SANCTION_MINUTES) if word else None
    if word and minutes is None:
        return Ban(target, None, rest.strip())  # no number: everything after is the reason
    return Ban(target, minutes, reason.strip())


def _parse_mute(rest: str) -> Command:
    words = rest.split()
    if not words or len(words) > 2:
        raise CommandError(Text.MUTE_USAGE.value)
    if len(words) == 1:
        return Mute(words[0])
    minutes = _small_number(words[1], MAX_SANCTION_MINUTES)
    if minutes is None:
        raise CommandError(Text.MUTE_USAGE.value)
    return Mute(words[0], minutes)


def _parse_adduser(rest: str) -> Command:
    words = rest.split()
    if len(words) != 2:
        raise CommandError(Text.ADDUSER_USAGE.value)
    return Adduser(words[0], words[1])


def _parse_invitecode(rest: str) -> Command:
    word = _first(rest)
    if word is None:
        return Invitecode()
    count = _small_number(word, MAX_INVITATION_CODES)
    if count is None or count < 1:
        raise CommandError(Text.INVITECODE_USAGE.value)
    return Invitecode(count)


def _required_word(usage: Text, factory: Callable[[str], Command]) -> Callable[[str], Command]:
    def parse(rest: str) -> Command:
        word = _first(rest)
        if word is None:
            raise CommandError(usage.value)
        return factory(word)

    return parse


def _no_arguments(factory: Callable[[], Command]) -> Callable[[str], Command]:
    # FIBS ignores extra words after commands that take none.
    return lambda rest: factory()


def _optional_word(factory: Callable[[str | None], Command]) -> Callable[[str], Command]:
    return lambda rest: factory(_first(rest))


_bye = _no_arguments(Bye)
_help = _optional_word(Help)
_clear = _no_arguments(Clear)
_tell = _parse_tell

# Every verb FIBS knows (§2.4, §5). Aliases share their parser, so that a prefix shared
# only by aliases of one command (`cl` = clear/cls) is not ambiguous.
_VERBS: Final[Mapping[str, Callable[[str], Command]]] = {
    "!!": _no_arguments(RepeatLast),
    "about": _no_arguments(About),
    "accept": _with_names(Accept),
    "address": _required_name(Text.ADDRESS_MISSING, Address),
    "adios": _bye,
    "average": _no_arguments(Average),
    "away": lambda rest: Away(rest or None),
    "back": _no_arguments(Back),
    "beaver": _with_names(Beaver),
    "boxside": Boxside,
    "blind": _optional_word(Blind),
    "board": _no_arguments(Board),
    "bye": _bye,
    "ciao": _bye,
    "clear": _clear,
    "cls": _clear,
    "date": _optional_word(Date),
    "dicetest": _no_arguments(Dicetest),
    "double": _with_names(Double),
    "end": _bye,
    "erase": _no_arguments(Erase),
    "export": _parse_export,
    "claim": _no_arguments(Claim),
    "uninvite": _no_arguments(Uninvite),
    "clock": _no_arguments(ClockCommand),
    "correspondence": _optional_word(Correspondence),
    "chouette": _parse_chouette,
    "tournament": _parse_tournament,
    "setbot": _parse_setbot,
    "exit": _bye,
    "gag": _optional_word(Gag),
    "help": _help,
    "invite": _parse_invite,
    "join": _optional_word(Join),
    "kibitz": Kibitz,
    "last": _parse_last,
    "leave": _no_arguments(Leave),
    "logout": _bye,
    "look": _required_name(Text.LOOK_AT_WHO, Look),
    "man": _help,
    "message": _parse_message,
    "motd": _no_arguments(Motd),
    "move": _parse_moves,
    "name": lambda rest: Name(_first(rest) or ""),
    "off": _no_arguments(Off),
    "oldboard": _required_name(Text.OLDBOARD_USAGE, Oldboard),
    "oldmoves": _required_name(Text.OLDMOVES_USAGE, Oldmoves),
    "otter": _no_arguments(Otter),
    "panic": _no_arguments(Panic),
    "password": _parse_password,
    "pip": _no_arguments(Pip),
    "port": _no_arguments(Port),
    "quit": _bye,
    "raccoon": _with_names(Raccoon),
    "ratings": _parse_ratings,
    "rawwho": _parse_rawwho,
    "redouble": _no_arguments(Redouble),
    "reject": _with_names(Reject),
    "resign": _parse_resign,
    "roll": _no_arguments(Roll),
    "save": _no_arguments(Save),
    "say": Say,
    "set": _parse_set,
    "shout": Shout,
    "show": _parse_show,
    "analyse": _parse_analyse,
    "analyze": _parse_analyse,
    "analysis": _parse_analysis,
    "puzzle": _parse_puzzle,
    "shutdown": _parse_shutdown,
    "broadcast": _parse_broadcast,
    "kick": _parse_kick,
    "ban": _parse_ban,
    "unban": _required_word(Text.UNBAN_USAGE, Unban),
    "mute": _parse_mute,
    "unmute": _required_word(Text.UNMUTE_USAGE, Unmute),
    "adduser": _parse_adduser,
    "invitecode": _parse_invitecode,
    "stat": _no_arguments(Stat),
    "team": Team,
    "tell": _tell,
    "tellx": _tell,
    "time": _optional_word(Time),
    "toggle": _parse_toggle,
    "tschoe": _bye,
    "unwatch": _no_arguments(Unwatch),
    "version": _no_arguments(Version),
    "waitfor": lambda rest: Waitfor(tuple(rest.split())),
    "watch": _required_name(Text.WATCH_WHO, Watch),
    "wave": _no_arguments(Wave),
    "where": _optional_word(Where),
    "whisper": Whisper,
    "who": _parse_who,
    "whois": _parse_whois,
}
VERBS: Final[tuple[str, ...]] = tuple(_VERBS)

# FIBS's special abbreviations, stronger than prefix matching (§1, [S-macfibs]).
SHORT_FORMS: Final[Mapping[str, str]] = {
    "b": "board",
    "i": "invite",
    "k": "kibitz",
    "m": "move",
    "o": "off",
    "r": "roll",
    "res": "resign",
    "s": "say",
    "t": "tell",
    "to": "toggle",
    "w": "who",
    "wh": "whisper",
}


# Other names of the same command; `resolve_verb` answers with the main one.
ALIASES: Final[Mapping[str, str]] = {
    "adios": "bye",
    "ciao": "bye",
    "end": "bye",
    "exit": "bye",
    "logout": "bye",
    "quit": "bye",
    "tschoe": "bye",
    "cls": "clear",
    "man": "help",
    "tellx": "tell",
    "analyze": "analyse",
}


def resolve_verb(word: str) -> str | None:
    """The main verb `word` stands for (exact, short form, unique prefix), or None.

    Aliases answer with their main verb (`quit` → `bye`), e.g. for `help quit`.
    """
    lower = word.lower()
    if lower in _VERBS:
        return ALIASES.get(lower, lower)
    if lower in SHORT_FORMS:
        return SHORT_FORMS[lower]
    found = [verb for verb in _VERBS if verb.startswith(lower)]
    if len(found) > 1:
        # fibsd's own verbs never make a FIBS abbreviation ambiguous (`ex` stays `exit`).
        found = [verb for verb in found if verb not in EXTENSION_VERBS] or found
    if found and all(_VERBS[verb] is _VERBS[found[0]] for verb in found):
        return ALIASES.get(found[0], found[0])
    return None


def parse_command(line: str) -> Command:
    """One line (already framed and cleaned) as a command, or `CommandError`."""
    text = line.strip()
    if not text:
        return Blank()
    word, rest = _split(text)
    if _BARE_MOVE.match(word):
        return _parse_moves(text)
    verb = resolve_verb(word)
    if verb is None:
        raise CommandError(render(Text.UNKNOWN_COMMAND, word=word))
    return _VERBS[verb](rest)


# --- formatting ---------------------------------------------------------------------


def _format_point(point: MovePoint) -> str:
    return point.value if isinstance(point, Place) else str(point)


def _join(*words: str | None) -> str:
    return " ".join(word for word in words if word)


def _format_who(verb: str, kind: WhoKind, argument: str | None) -> str:
    match kind:
        case WhoKind.ALL:
            return verb
        case WhoKind.NAME:
            return _join(verb, argument)
        case WhoKind.FROM:
            return _join(verb, "from", argument)
        case _:
            return _join(verb, kind.value)


def _format_set_value(variable: str, value: SetValue) -> str:
    if variable == "redoubles" and value == 0:
        return "none"
    return str(value)


def format_command(command: Command | LoginLine) -> str:
    """The canonical line for `command`; parsing it gives an equal value back."""
    match command:
        case Login(client, version, name, password):
            return f"login {client} {version} {name} {password}"
        case Connect(name, password):
            return f"connect {name} {password}"
        case Guest():
            return "guest"
        case TelnetLogin(name):
            return name
        case Blank():
            return ""
        case Name(name):
            return _join("name", name)
        case Who(kind, argument):
            return _format_who("who", kind, argument)
        case RawWho(kind, argument):
            return _format_who("rawwho", kind, argument)
        case Whois(name):
            return f"whois {name}"
        case Where(name):
            return _join("where", name)
        case Tell(name, text):
            return f"tell {name} {text}"
        case Shout(text):
            return _join("shout", text)
        case Say(text):
            return _join("say", text)
        case Kibitz(text):
            return _join("kibitz", text)
        case Whisper(text):
            return _join("whisper", text)
        case Message(name, text):
            return f"message {name} {text}"
        case Messages():
            return "message"
        case Waitfor(names):
            return _join("waitfor", *names)
        case Gag(name):
            return _join("gag", name)
        case Blind(name):
            return _join("blind", name)
        case Away(text):
            return _join("away", text)
        case Back():
            return "back"
        case Invite(name, length, unlimited, options, clock):
            words = () if clock is None else clock.words
            if unlimited:
                return _join("invite", name, "unlimited", *options, *words)
            if length is None:
                return f"invite {name}"
            return _join("invite", name, str(length), *options, *words)
        case Join(name):
            return _join("join", name)
        case Watch(name):
            return f"watch {name}"
        case Unwatch():
            return "unwatch"
        case Look(name):
            return f"look {name}"
        case Oldboard(name):
            return f"oldboard {name}"
        case Oldmoves(name):
            return f"oldmoves {name}"
        case Toggle(names):
            return _join("toggle", *names)
        case Set(variable, value):
            if variable is None or value is None:
                return _join("set", variable)
            return f"set {variable} {_format_set_value(variable, value)}"
        case Address(email):
            return f"address {email}"
        case Password(old, new, repeat):
            return f"password {old}:{new}:{repeat}"
        case Save():
            return "save"
        case Show(what, name, opponent):
            return _join("show", what.value, name, opponent)
        case Ratings(name, start, end, everyone):
            return _join(
                "ratings",
                name,
                None if start is None else f"from {start}",
                None if end is None else f"to {end}",
                "all" if everyone else None,
            )
        case Last():
            return "last"
        case Time(zone):
            return _join("time", zone)
        case Date(zone):
            return _join("date", zone)
        case Motd():
            return "motd"
        case About():
            return "about"
        case Average():
            return "average"
        case Dicetest():
            return "dicetest"
        case Version():
            return "version"
        case Stat():
            return "stat"
        case Help(topic):
            return _join("help", topic)
        case Clear():
            return "clear"
        case Claim():
            return "claim"
        case Uninvite():
            return "uninvite"
        case ClockCommand():
            return "clock"
        case Correspondence(name):
            return _join("correspondence", name)
        case Export(record_id):
            return _join("export", None if record_id is None else str(record_id))
        case Analyse(record_id):
            return f"analyse {record_id}"
        case Puzzle(source):
            return _join("puzzle", None if source is PuzzleSource.FIRST else source.value)
        case Analysis(record_id, part):
            return _join("analysis", str(record_id),
                         None if part is AnalysisPart.SUMMARY else part.value)
        case Erase():
            return "erase"
        case Shutdown(seconds):
            return _join("shutdown", None if seconds is None else str(seconds))
        case Broadcast(text):
            return f"broadcast {text}"
        case Kick(name, reason):
            return _join("kick", name, reason or None)
        case Ban(target, minutes, reason):
            return _join("ban", target, None if minutes is None else str(minutes), reason or None)
        case Unban(target):
            return f"unban {target}"
        case Mute(name, minutes):
            return _join("mute", name, None if minutes is None else str(minutes))
        case Unmute(name):
            return f"unmute {name}"
        case Adduser(name, password):
            return f"adduser {name} {password}"
        case Invitecode(count):
            return f"invitecode {count}"
        case Port():
            return "port"
        case Roll():
            return "roll"
        case Move(moves):
            steps = (f"{_format_point(a)}-{_format_point(b)}" for a, b in moves)
            return _join("move", *steps)
        case Off():
            return "off"
        case Board():
            return "board"
        case Pip():
            return "pip"
        case Double(names):
            return _join("double", *names)
        case Redouble():
            return "redouble"
        case Beaver(names):
            return _join("beaver", *names)
        case Raccoon(names):
            return _join("raccoon", *names)
        case Otter():
            return "otter"
        case Accept(names):
            return _join("accept", *names)
        case Reject(names):
            return _join("reject", *names)
        case Resign(kind, names):
            return _join("resign", kind.word, *names)
        case Leave():
            return "leave"
        case Panic():
            return "panic"
        case Bye():
            return "bye"
        case Wave():
            return "wave"
        case RepeatLast():
            return "!!"
        case Chouette(action, words):
            return _join("chouette", action.value, *words)
        case Team(text):
            return _join("team", text)
        case Boxside(text):
            return _join("boxside", text)
        case Tournament(action, name, spec, record_id, day, listing, page):
            if listing is not None:
                return _join("tournament", action.value, listing.value, str(page))
            if record_id is not None:
                return _join("tournament", action.value, f"#{record_id}")
            return _join("tournament", action.value, name, *(() if spec is None else spec.words()),
                         None if day is None else day.isoformat())
        case Setbot(name, bot):
            return f"setbot {name} {'on' if bot else 'off'}"
        case _:
            assert_never(command)
