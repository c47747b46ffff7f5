"""FIBS's settings vocabulary and name rules: the one home of each of these facts.

Owns the 17 toggles (names in FIBS's listing order, a new account's defaults, the ON/OFF
answers, the `autoroll` alias) plus fibsd's per-session `extensions` toggle; the `set`
variables, the `sortwho` values and the `redoubles` value type (fibs-protocol.md §5.3);
and the user-name rules (§2.5, §2.6): the pattern, the length, the reserved names, and
the problems a new name can have, in the order FIBS reports them.

The command parser (`protocol.commands`), the listings (`protocol.listings`), the
account model (`fibsd.domain.accounts`), the login dialogue and the configuration all ask this
module, so they cannot disagree. It knows nothing of sessions, accounts or storage.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

import attrs

from protocol.errors import CommandError
from protocol.wording import Text, render

__all__ = [
    "EXTENSIONS_TOGGLE",
    "MAX_NAME_LENGTH",
    "NAME_PATTERN",
    "RESERVED_NAMES",
    "SESSION_TOGGLE_NAMES",
    "SET_VARIABLES",
    "SORTWHO_VALUES",
    "TOGGLES",
    "TOGGLE_ALIASES",
    "TOGGLE_BY_NAME",
    "TOGGLE_DEFAULTS",
    "TOGGLE_NAMES",
    "NameProblem",
    "Redoubles",
    "SortWho",
    "ToggleSpec",
    "check_new_name",
    "is_valid_name",
    "name_problem",
]


# --- toggles (§5.3) -------------------------------------------------------------------


@attrs.frozen
class ToggleSpec:
    """One FIBS toggle: its name, a new account's value, and the answers to `toggle NAME`."""

    name: str
    default: bool
    on: Text
    off: Text

    def answer(self, value: bool) -> str:
        """What `toggle NAME` prints after the toggle became `value`."""
        return (self.on if value else self.off).value


# The order of the `toggle` listing; MatchDog counts exactly these 17 lines. Defaults are
# the 2008 fresh-account own-info line (§3.2, §13): moreboards and ready start NO.
TOGGLES: Final[tuple[ToggleSpec, ...]] = (
    ToggleSpec("allowpip", True, Text.TOGGLE_ALLOWPIP_ON, Text.TOGGLE_ALLOWPIP_OFF),
    ToggleSpec("autoboard", True, Text.TOGGLE_AUTOBOARD_ON, Text.TOGGLE_AUTOBOARD_OFF),
    ToggleSpec("autodouble", False, Text.TOGGLE_AUTODOUBLE_ON, Text.TOGGLE_AUTODOUBLE_OFF),
    ToggleSpec("automove", False, Text.TOGGLE_AUTOMOVE_ON, Text.TOGGLE_AUTOMOVE_OFF),
    ToggleSpec("bell", False, Text.TOGGLE_BELL_ON, Text.TOGGLE_BELL_OFF),
    ToggleSpec("crawford", True, Text.TOGGLE_CRAWFORD_ON, Text.TOGGLE_CRAWFORD_OFF),
    ToggleSpec("double", True, Text.TOGGLE_DOUBLE_ON, Text.TOGGLE_DOUBLE_OFF),
    ToggleSpec("greedy", False, Text.TOGGLE_GREEDY_ON, Text.TOGGLE_GREEDY_OFF),
    ToggleSpec("moreboards", False, Text.TOGGLE_MOREBOARDS_ON, Text.TOGGLE_MOREBOARDS_OFF),
    ToggleSpec("moves", False, Text.TOGGLE_MOVES_ON, Text.TOGGLE_MOVES_OFF),
    ToggleSpec("notify", True, Text.TOGGLE_NOTIFY_ON, Text.TOGGLE_NOTIFY_OFF),
    ToggleSpec("ratings", False, Text.TOGGLE_RATINGS_ON, Text.TOGGLE_RATINGS_OFF),
    ToggleSpec("ready", False, Text.TOGGLE_READY_ON, Text.TOGGLE_READY_OFF),
    ToggleSpec("report", True, Text.TOGGLE_REPORT_ON, Text.TOGGLE_REPORT_OFF),
    ToggleSpec("silent", False, Text.TOGGLE_SILENT_ON, Text.TOGGLE_SILENT_OFF),
    ToggleSpec("telnet", True, Text.TOGGLE_TELNET_ON, Text.TOGGLE_TELNET_OFF),
    ToggleSpec("wrap", False, Text.TOGGLE_WRAP_ON, Text.TOGGLE_WRAP_OFF),
)
TOGGLE_NAMES: Final[tuple[str, ...]] = tuple(spec.name for spec in TOGGLES)
TOGGLE_DEFAULTS: Final[Mapping[str, bool]] = {spec.name: spec.default for spec in TOGGLES}
TOGGLE_BY_NAME: Final[Mapping[str, ToggleSpec]] = {spec.name: spec for spec in TOGGLES}
# Old names FIBS still accepts (§5.3: `autoroll` is an alias of `double`).
TOGGLE_ALIASES: Final[Mapping[str, str]] = {"autoroll": "double"}
# fibsd's own per-session toggle, not an account setting (so not in CLIP 2 nor in a CLIP
# client's listing of FIBS's 17): whether the session gets `wording.EXTENSION_LINES`.
EXTENSIONS_TOGGLE: Final = "extensions"
SESSION_TOGGLE_NAMES: Final[tuple[str, ...]] = (EXTENSIONS_TOGGLE,)


# --- set (§5.3) -----------------------------------------------------------------------

# The order of the `set` listing.
SET_VARIABLES: Final[tuple[str, ...]] = (
    "boardstyle",
    "linelength",
    "pagelength",
    "redoubles",
    "sortwho",
    "timezone",
)


class SortWho(enum.Enum):
    """How `who` is sorted (`set sortwho`); the values are the FIBS words."""

    LOGIN = "login"
    NAME = "name"
    RATING = "rating"
    RRATING = "rrating"


SORTWHO_VALUES: Final[tuple[str, ...]] = tuple(value.value for value in SortWho)

Redoubles: TypeAlias = int | Literal["unlimited"]
"""`set redoubles`: 0 (FIBS's `none`, also how CLIP 2 prints it), 1..99, or "unlimited"."""


# --- user names (§2.5, §2.6) ----------------------------------------------------------

MAX_NAME_LENGTH: Final = 20
NAME_PATTERN: Final = re.compile(r"[A-Za-z_]+")

# Names nobody may register, compared case-insensitively. `guest` is FIBS's own; `you`
# because board lines and several sentences use "You" for the reader, so a player called
# You would be indistinguishable from the reader in every client; the rest are names a
# player could use to impersonate the server itself.
RESERVED_NAMES: Final = frozenset(
    {"guest", "you", "fibs", "fibsd", "server", "system", "admin", "administrator"}
)


class NameProblem(enum.Enum):
    """Why a name cannot be registered (uniqueness is the store's job: `NameTaken`)."""

    EMPTY = enum.auto()
    BAD_CHARACTERS = enum.auto()  # anything but A-Z a-z _
    TOO_LONG = enum.auto()  # more than MAX_NAME_LENGTH
    RESERVED = enum.auto()  # FIBS answers as if the name were taken


def is_valid_name(name: str) -> bool:
    """True for a possible FIBS user name: ASCII letters and `_`, at most 20 (§2.6).

    Reserved names pass: it says whether a word can name a user, not whether it may be
    registered (`name_problem`).
    """
    return len(name) <= MAX_NAME_LENGTH and NAME_PATTERN.fullmatch(name) is not None


def name_problem(name: str) -> NameProblem | None:
    """What is wrong with `name` as a new account name, or None if it is acceptable.

    The checks run in the order FIBS reports them: characters first, then length.
    """
    if not name:
        return NameProblem.EMPTY
    if NAME_PATTERN.fullmatch(name) is None:
        return NameProblem.BAD_CHARACTERS
    if len(name) > MAX_NAME_LENGTH:
        return NameProblem.TOO_LONG
    if name.lower() in RESERVED_NAMES:
        return NameProblem.RESERVED
    return None


def check_new_name(name: str) -> None:
    """Refuse `name` as a new account name with FIBS's words (guest registration, §2.5).

    A reserved name is refused as if it were taken. `name` is not checked at parse time
    because a logged-in user typing `name x` must get the session's `** You're not
    supposed to change your name.` whatever x is.
    """
    match name_problem(name):
        case None:
            return
        case NameProblem.EMPTY | NameProblem.BAD_CHARACTERS:
            raise CommandError(Text.NAME_INVALID_CHARACTERS.value)
        case NameProblem.TOO_LONG:
            raise CommandError(Text.NAME_TOO_LONG.value)
        case NameProblem.RESERVED:
            raise CommandError(render(Text.NAME_ALREADY_USED, name=name))
