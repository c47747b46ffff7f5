"""The multi-line answers of information and setting commands, as pure functions.

Owns the vocabulary of settings (the 17 toggles in FIBS's order with their defaults and
ON/OFF answers; the `set` variables) and the layout of every listing a command prints:
`toggle`, `set`, `whois`, telnet `who`/`rawwho`, `show saved|savedcount|games|watchers`,
`ratings`, `away`, `waitfor`, `time`, the `message` header and `help`. Each function
takes plain values and returns lines without terminators; the wording comes from
`protocol.wording`. It knows nothing of sessions, accounts or clocks: the caller passes
who is online, what time it is and in which zone.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal, TypeAlias

import attrs

from protocol.wording import Text, render, time_line

__all__ = [
    "SET_VARIABLES",
    "TOGGLES",
    "TOGGLE_DEFAULTS",
    "TOGGLE_NAMES",
    "ToggleSpec",
    "Redoubles",
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


def toggle_listing(values: Mapping[str, bool]) -> list[str]:
    """`toggle` without arguments: the header and exactly 17 `name  YES|NO` lines."""
    lines = [Text.TOGGLE_HEADER.value]
    for spec in TOGGLES:
        row = Text.TOGGLE_ROW_YES if values[spec.name] else Text.TOGGLE_ROW_NO
        lines.append(render(row, toggle=spec.name))
    return lines


def toggle_answer(name: str, value: bool) -> str:
    """The `** ...` line after toggle `name` became `value`."""
    return TOGGLE_BY_NAME[name].answer(value)


# --- set (§5.3) ---------------------------------------------------------------------

SET_VARIABLES: Final[tuple[str, ...]] = (
    "boardstyle",
    "linelength",
    "pagelength",
    "redoubles",
    "sortwho",
    "timezone",
)
SORTWHO_VALUES: Final[tuple[str, ...]] = ("login", "name", "rating", "rrating")
Redoubles: TypeAlias = int | Literal["unlimited"]
"""`set redoubles`: 0 (FIBS's `none`), 1..99, or "unlimited"."""
