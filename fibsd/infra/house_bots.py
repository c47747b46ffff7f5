"""The house bots an operator lists in `[bots]`: their names, engine and strength.

Owns the strengths (each a set of GNU Backgammon's own evaluation settings) and the
validation of the `house_bots` setting (a list of `{name, engine, strength}` tables in
conf/fibsd.toml). Nothing here runs a bot: `fibsd.shell.house_bots` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from protocol.vocabulary import name_problem

__all__ = ["ENGINES", "STRENGTHS", "HouseBot", "Strength", "house_bot_named", "house_bots_from"]


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


@attrs.frozen
class HouseBot:
    """One house bot: its account name, its engine and its strength (a STRENGTHS key)."""

    name: str
    engine: str = "gnubg"
    strength: str = "intermediate"

    @property
    def settings(self) -> Strength:
        return STRENGTHS[self.strength]


def house_bots_from(value: object) -> tuple[HouseBot, ...]:
    """The `house_bots` setting as values; TypeError or ValueError with a one-line reason if it is not
    a list of tables with a valid, unique `name`, a known `engine` and `strength`."""
    if isinstance(value, tuple) and all(isinstance(bot, HouseBot) for bot in value):
        return value
    if not isinstance(value, (list, tuple)):
        raise TypeError('must be a list of tables like {name = "gnubg_expert", strength = "expert"}')
    bots: list[HouseBot] = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise TypeError(f"each house bot must be a table, got {entry!r}")
        unknown = set(entry) - {"name", "engine", "strength"}
        if unknown:
            raise ValueError(f"unknown key {min(unknown)!r} in a house bot (name, engine, strength)")
        name, engine = entry.get("name"), entry.get("engine", "gnubg")
        strength = entry.get("strength", "intermediate")
        if not isinstance(name, str) or name_problem(name) is not None:
            raise ValueError(f"house bot name {name!r} is not a possible user name")
        if engine not in ENGINES:
            raise ValueError(f"house bot {name}: engine must be one of {', '.join(ENGINES)}")
        if not isinstance(strength, str) or strength not in STRENGTHS:
            raise ValueError(f"house bot {name}: strength must be one of {', '.join(STRENGTHS)}")
        if any(bot.name.lower() == name.lower() for bot in bots):
            raise ValueError(f"house bot {name} is listed twice")
        bots.append(HouseBot(name, engine, strength))
    return tuple(bots)


def house_bot_named(bots: tuple[HouseBot, ...], name: str) -> HouseBot | None:
    """The house bot called `name` (in any case, as user names are), or None."""
    return next((bot for bot in bots if bot.name.lower() == name.lower()), None)
