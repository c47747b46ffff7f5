"""The house bots an operator lists in `[bots]`: their names, engine and strength.

Owns the strengths (each a set of GNU Backgammon's own evaluation settings), the names of
a bot's copies (one account per concurrent match, as a FIBS account plays one match at a
time) and the validation of the `house_bots` setting (a list of `{name, engine, strength,
matches}` tables in conf/fibsd.toml). Nothing here runs a bot: `fibsd.shell.house_bots`
does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from protocol.vocabulary import name_problem

__all__ = ["ENGINES", "MAX_MATCHES", "STRENGTHS", "HouseBot", "Strength", "copy_name",
           "house_bot_named", "house_bots_from"]


@attrs.frozen
class Strength:
    """gnubg's settings for one strength: evaluation depth and the noise added to it
    (a standard deviation in equity; 0: the engine's best)."""

    title: str
    plies: int
    noise: float = 0.0

    @property
    def described(self) -> str:
        noise = f" with noise {self.noise:g}" if self.noise else ""
        return f"{self.title} (GNU Backgammon {self.plies}-ply{noise})"


#: The strengths a house bot may have (docs/bots.md; their cost in docs/benchmarks.md).
STRENGTHS: Final[Mapping[str, Strength]] = {
    "beginner": Strength("beginner", plies=0, noise=0.06),
    "intermediate": Strength("intermediate", plies=0),
    "expert": Strength("expert", plies=2),
}
ENGINES: Final = ("gnubg",)
#: The most matches one house bot plays at once (each copy is a process with its own gnubg:
#: N copies cost N times the CPU of one at that strength, docs/benchmarks.md).
MAX_MATCHES: Final = 8


def copy_name(name: str, number: int) -> str:
    """The account of copy `number` (1, 2, ...) of the house bot `name`: the name itself for
    the first, then `NAME_b`, `NAME_c`, ... (FIBS names are letters and `_` only)."""
    return name if number == 1 else f"{name}_{chr(ord('a') + number - 1)}"


@attrs.frozen
class HouseBot:
    """One house bot: its account name, its engine, its strength (a STRENGTHS key) and how
    many matches it plays at once (`matches` copies, each an account of its own)."""

    name: str
    engine: str = "gnubg"
    strength: str = "intermediate"
    matches: int = 1

    @property
    def settings(self) -> Strength:
        return STRENGTHS[self.strength]

    @property
    def copies(self) -> tuple[str, ...]:
        """The accounts of its copies, the entry's own name first."""
        return tuple(copy_name(self.name, number) for number in range(1, self.matches + 1))


def house_bots_from(value: object) -> tuple[HouseBot, ...]:
    """The `house_bots` setting as values; TypeError or ValueError with a one-line reason if it is not
    a list of tables with a valid, unique `name`, a known `engine` and `strength`, and
    `matches` from 1 to MAX_MATCHES whose copies' names are possible and unique too."""
    if isinstance(value, tuple) and all(isinstance(bot, HouseBot) for bot in value):
        return value
    if not isinstance(value, (list, tuple)):
        raise TypeError('must be a list of tables like {name = "gnubg_expert", strength = "expert"}')
    bots: list[HouseBot] = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise TypeError(f"each house bot must be a table, got {entry!r}")
        unknown = set(entry) - {"name", "engine", "strength", "matches"}
        if unknown:
            raise ValueError(f"unknown key {min(unknown)!r} in a house bot (name, engine, strength, matches)")
        name, engine = entry.get("name"), entry.get("engine", "gnubg")
        strength, matches = entry.get("strength", "intermediate"), entry.get("matches", 1)
        if not isinstance(name, str) or name_problem(name) is not None:
            raise ValueError(f"house bot name {name!r} is not a possible user name")
        if engine not in ENGINES:
            raise ValueError(f"house bot {name}: engine must be one of {', '.join(ENGINES)}")
        if not isinstance(strength, str) or strength not in STRENGTHS:
            raise ValueError(f"house bot {name}: strength must be one of {', '.join(STRENGTHS)}")
        if isinstance(matches, bool) or not isinstance(matches, int) or not 1 <= matches <= MAX_MATCHES:
            raise ValueError(f"house bot {name}: matches must be a whole number from 1 to {MAX_MATCHES}")
        bot = HouseBot(name, engine, strength, matches)
        for copy in bot.copies:
            if name_problem(copy) is not None:
                raise ValueError(f"house bot {name}: its copy's name {copy!r} is not a possible user "
                                 "name (a shorter name, or fewer matches)")
            if house_bot_named(tuple(bots), copy) is not None:
                raise ValueError(f"house bot {copy} is listed twice")
        bots.append(bot)
    return tuple(bots)


def house_bot_named(bots: tuple[HouseBot, ...], name: str) -> HouseBot | None:
    """The house bot one of whose copies is called `name` (in any case, as user names
    are), or None."""
    wanted = name.lower()
    return next((bot for bot in bots if any(copy.lower() == wanted for copy in bot.copies)), None)
