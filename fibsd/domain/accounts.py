"""The account domain model: who a player is and what they chose, with FIBS's defaults.

This module owns the persistent per-account state (`Account`, the 17 `Toggles`, the `set`
`Variables`) and the pure rules about it: which passwords are acceptable (§2.6 of the
protocol reference), which values a `set` variable takes (§5.3), which e-mail addresses
`address` accepts. The vocabulary it stores (toggle names and defaults, variable names,
`sortwho` values, `Redoubles`) and the user-name rules are FIBS's, so they live in
`protocol.vocabulary`; this module derives from them and keeps no copy. Problems come back as enum members, never as sentences: the FIBS wording
lives in `protocol.wording`, and the session turns a problem into the right line.

It must not know about the wire, trio, the clock or storage: times are passed in, and
`fibsd.store` persists these values.
"""

from __future__ import annotations

import enum
import functools
import re
import secrets
import zoneinfo
from collections.abc import Mapping
from typing import Final

import attrs

from protocol.vocabulary import TOGGLE_DEFAULTS, TOGGLE_NAMES, Redoubles, SortWho

# --- passwords (§2.6) ---------------------------------------------------------------

MIN_PASSWORD_CHARS: Final = 4


class PasswordProblem(enum.Enum):
    """Why a password cannot be used."""

    EMPTY = enum.auto()
    TOO_SHORT = enum.auto()  # fewer than MIN_PASSWORD_CHARS
    HAS_COLON = enum.auto()  # `password OLD:NEW:NEW` uses ':' as its separator
    HAS_WHITESPACE = enum.auto()  # the CLIP login line is split on whitespace
    NOT_PRINTABLE_ASCII = enum.auto()  # FIBS is 7-bit; the codec turns the rest into '?'


def name_key(name: str) -> str:
    """The form under which names are unique: case-insensitive (names are ASCII only)."""
    return name.lower()


def password_problem(password: str) -> PasswordProblem | None:
    """What is wrong with `password` as a new password, or None if it is acceptable."""
    if not password:
        return PasswordProblem.EMPTY
    if any(ch.isspace() for ch in password):
        return PasswordProblem.HAS_WHITESPACE
    if ":" in password:
        return PasswordProblem.HAS_COLON
    if not all(" " < ch < "\x7f" for ch in password):
        return PasswordProblem.NOT_PRINTABLE_ASCII
    if len(password) < MIN_PASSWORD_CHARS:
        return PasswordProblem.TOO_SHORT
    return None


# --- e-mail address (`address`) ---------------------------------------------------------

MAX_EMAIL_CHARS: Final = 100
# One '@' between printable 7-bit characters other than ':' and '@' (no spaces either).
_EMAIL_RE: Final = re.compile(r"[!-9;-?A-~]+@[!-9;-?A-~]+")


def email_is_valid(address: str) -> bool:
    """True if `address` is acceptable for `address` (else FIBS: `'X' is not an email address.`).

    Deliberately loose (one `@` with something on both sides) but safe for the wire: the
    address is the last field of the space-separated CLIP 5 line, so no whitespace, and
    7-bit printable only.
    """
    return len(address) <= MAX_EMAIL_CHARS and _EMAIL_RE.fullmatch(address) is not None


# --- toggles (§5.3) ---------------------------------------------------------------------

@attrs.frozen
class Toggles:
    """The 17 FIBS toggles; the defaults are a new account's (2008 capture, §3.2 and §5.3).

    `moreboards` and `ready` start NO, as on the real server; clients turn them on. The
    fields are `protocol.vocabulary.TOGGLE_NAMES` in their order (a test checks it), and
    typed attributes so that `toggles.greedy` is checked by mypy.
    """

    allowpip: bool = TOGGLE_DEFAULTS["allowpip"]
    autoboard: bool = TOGGLE_DEFAULTS["autoboard"]
    autodouble: bool = TOGGLE_DEFAULTS["autodouble"]
    automove: bool = TOGGLE_DEFAULTS["automove"]
    bell: bool = TOGGLE_DEFAULTS["bell"]
    crawford: bool = TOGGLE_DEFAULTS["crawford"]
    double: bool = TOGGLE_DEFAULTS["double"]
    greedy: bool = TOGGLE_DEFAULTS["greedy"]
    moreboards: bool = TOGGLE_DEFAULTS["moreboards"]
    moves: bool = TOGGLE_DEFAULTS["moves"]
    notify: bool = TOGGLE_DEFAULTS["notify"]
    ratings: bool = TOGGLE_DEFAULTS["ratings"]
    ready: bool = TOGGLE_DEFAULTS["ready"]
    report: bool = TOGGLE_DEFAULTS["report"]
    silent: bool = TOGGLE_DEFAULTS["silent"]
    telnet: bool = TOGGLE_DEFAULTS["telnet"]
    wrap: bool = TOGGLE_DEFAULTS["wrap"]

    def get(self, name: str) -> bool:
        """The value of toggle `name` (one of TOGGLE_NAMES; anything else is a KeyError)."""
        if name not in TOGGLE_NAMES:
            raise KeyError(name)
        value: bool = getattr(self, name)
        return value

    def with_value(self, name: str, value: bool) -> Toggles:
        """A copy with toggle `name` set to `value`."""
        if name not in TOGGLE_NAMES:
            raise KeyError(name)
        return attrs.evolve(self, **{name: value})

    def toggled(self, name: str) -> Toggles:
        """A copy with toggle `name` flipped (what `toggle NAME` does)."""
        return self.with_value(name, not self.get(name))

    def for_new_game(self) -> Toggles:
        """A copy as FIBS resets it at each game start or reload: double YES, greedy NO."""
        return attrs.evolve(self, double=True, greedy=False)

    def as_dict(self) -> dict[str, bool]:
        """Name → value in TOGGLE_NAMES order."""
        return {name: self.get(name) for name in TOGGLE_NAMES}

    @classmethod
    def from_dict(cls, values: Mapping[str, object]) -> Toggles:
        """Rebuild from stored values; missing or non-boolean entries take the default.

        Lenient on purpose: a toggle added in a later version, or a damaged entry, must
        not stop a player from logging in.
        """
        known = {k: v for k, v in values.items() if k in TOGGLE_NAMES and isinstance(v, bool)}
        return cls(**known)


# --- `set` variables (§5.3) -------------------------------------------------------------

MAX_REDOUBLES: Final = 99
MAX_LINE_OR_PAGE_LENGTH: Final = 999
DEFAULT_TIMEZONE: Final = "UTC"


class VariableProblem(enum.Enum):
    """Why `set NAME VALUE` was refused; each has its own FIBS sentence."""

    UNKNOWN_VARIABLE = enum.auto()
    BAD_BOARDSTYLE = enum.auto()
    BAD_LINELENGTH = enum.auto()
    BAD_PAGELENGTH = enum.auto()
    BAD_REDOUBLES = enum.auto()
    BAD_SORTWHO = enum.auto()
    BAD_TIMEZONE = enum.auto()


@functools.cache
def _known_timezones() -> frozenset[str]:
    # Checking membership in the installed list (rather than trying ZoneInfo(name)) refuses
    # path tricks and non-zone files such as `zone.tab`; cached because the walk is slow.
    return frozenset(zoneinfo.available_timezones())


def timezone_is_valid(name: str) -> bool:
    """True if `name` is an IANA zone known here. UTC is always valid, even without tzdata."""
    return name == DEFAULT_TIMEZONE or name in _known_timezones()


def _stored_redoubles(value: object) -> Redoubles | None:
    if value == "unlimited":
        return "unlimited"
    if type(value) is int and 0 <= value <= MAX_REDOUBLES:
        return value
    return None


@attrs.frozen
class Variables:
    """The `set` variables of an account.

    `boardstyle` starts at 2 (FIBS's new-account value, an ASCII board for telnet users);
    every CLIP client sends `set boardstyle 3` right after login anyway.
    """

    boardstyle: int = 2
    linelength: int = 0
    pagelength: int = 0
    redoubles: Redoubles = 0
    sortwho: SortWho = SortWho.LOGIN
    timezone: str = DEFAULT_TIMEZONE

    def as_dict(self) -> dict[str, int | str]:
        """JSON-friendly name → value (sortwho as its FIBS word)."""
        return {
            "boardstyle": self.boardstyle,
            "linelength": self.linelength,
            "pagelength": self.pagelength,
            "redoubles": self.redoubles,
            "sortwho": self.sortwho.value,
            "timezone": self.timezone,
        }

    @classmethod
    def from_dict(cls, values: Mapping[str, object]) -> Variables:
        """Rebuild from stored values; a missing or invalid entry takes the default.

        Lenient on purpose: e.g. a zone that vanished from a newer tzdata must not stop a
        player from logging in.
        """
        default = cls()
        boardstyle = values.get("boardstyle")
        linelength = values.get("linelength")
        pagelength = values.get("pagelength")
        redoubles = _stored_redoubles(values.get("redoubles"))
        sortwho = values.get("sortwho")
        timezone = values.get("timezone")
        return cls(
            boardstyle=boardstyle
            if type(boardstyle) is int and 1 <= boardstyle <= 3
            else default.boardstyle,
            linelength=linelength
            if type(linelength) is int and 0 <= linelength <= MAX_LINE_OR_PAGE_LENGTH
            else default.linelength,
            pagelength=pagelength
            if type(pagelength) is int and 0 <= pagelength <= MAX_LINE_OR_PAGE_LENGTH
            else default.pagelength,
            redoubles=redoubles if redoubles is not None else default.redoubles,
            sortwho=SortWho(sortwho)
            if sortwho in {s.value for s in SortWho}
            else default.sortwho,
            timezone=timezone
            if isinstance(timezone, str) and timezone_is_valid(timezone)
            else default.timezone,
        )


def _parse_length(text: str) -> int | None:
    # FIBS quirk (§5.3): a non-number sets linelength/pagelength to 0, while a number out of
    # range (negative included) is refused.
    try:
        value = int(text)
    except ValueError:
        return 0
    return value if 0 <= value <= MAX_LINE_OR_PAGE_LENGTH else None


def set_variable(variables: Variables, name: str, text: str) -> Variables | VariableProblem:
    """What `set NAME TEXT` does to `variables`: the new values, or why it was refused.

    `name` must be a full variable name (any case); `text` is the argument as typed.
    """
    name = name.lower()
    match name:
        case "boardstyle":
            if text in ("1", "2", "3"):
                return attrs.evolve(variables, boardstyle=int(text))
            return VariableProblem.BAD_BOARDSTYLE
        case "linelength":
            length = _parse_length(text)
            if length is None:
                return VariableProblem.BAD_LINELENGTH
            return attrs.evolve(variables, linelength=length)
        case "pagelength":
            length = _parse_length(text)
            if length is None:
                return VariableProblem.BAD_PAGELENGTH
            return attrs.evolve(variables, pagelength=length)
        case "redoubles":
            word = text.lower()
            if word == "none":
                return attrs.evolve(variables, redoubles=0)
            if word == "unlimited":
                return attrs.evolve(variables, redoubles="unlimited")
            if text.isdigit() and 1 <= int(text) <= MAX_REDOUBLES:
                return attrs.evolve(variables, redoubles=int(text))
            return VariableProblem.BAD_REDOUBLES
        case "sortwho":
            try:
                return attrs.evolve(variables, sortwho=SortWho(text.lower()))
            except ValueError:
                return VariableProblem.BAD_SORTWHO
        case "timezone":
            if timezone_is_valid(text):
                return attrs.evolve(variables, timezone=text)
            return VariableProblem.BAD_TIMEZONE
        case _:
            return VariableProblem.UNKNOWN_VARIABLE


# --- the account ------------------------------------------------------------------------

DEFAULT_RATING: Final = 1500.0


@attrs.frozen
class Account:
    """One registered player, as persisted. Times are epoch seconds; None = never.

    `name` keeps the spelling chosen at registration; lookups are case-insensitive.
    `password_hash` is a passlib hash string (never the password) and is kept out of repr
    so that logging an account cannot leak it.
    """

    name: str
    password_hash: str = attrs.field(repr=False)
    created_at: float
    last_login_at: float | None = None
    last_login_host: str | None = None
    last_logout_at: float | None = None
    rating: float = DEFAULT_RATING
    experience: int = 0
    email: str | None = None
    toggles: Toggles = Toggles()
    variables: Variables = Variables()
    #: An administrator marked the account as a bot's (club-play.md B1, `setbot`).
    bot: bool = False

    @classmethod
    def new(cls, name: str, password_hash: str, created_at: float) -> Account:
        """A freshly registered account: rating 1500.00, experience 0, FIBS defaults."""
        return cls(name=name, password_hash=password_hash, created_at=created_at)


#: Invitation codes (clubs with registration by code): an alphabet without look-alikes.
_CODE_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"
_CODE_LENGTH: Final = 10


def new_invitation_codes(count: int) -> list[str]:
    """`count` fresh, unguessable invitation codes (about 50 bits each)."""
    return [
        "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
        for _ in range(count)
    ]
