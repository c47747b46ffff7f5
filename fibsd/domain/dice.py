"""Where dice come from: the `DiceSource` interface, the server's `SeededDice`, and
`ScriptedDice` for tests.

The rules engine never rolls; the server asks a `DiceSource` and hands the values in.
Matches draw from `SeededDice`, a stream of the published `fibsd-dice-v1` scheme
(`fibsd.domain.fairdice`) seeded from the operating system's CSPRNG, so that a player can
check every roll after the match.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from fibsd.domain.fairdice import (
    SCHEME,
    SEED_BYTES,
    coin_from_uniform,
    commitment_of,
    die_from_uniform,
    seed_from_hex,
    uniform_value,
)


class DiceSource(Protocol):
    def die(self) -> int:
        """One die, 1..6."""
        ...

    def coin(self) -> int:
        """0 or 1: who plays O in the first game of a match."""
        ...


class SeededDice:
    """A `DiceSource` drawing value after value from one secret seed (the scheme is in
    the docstring of `fibsd.domain.fairdice`). `SeededDice.new()` for a new match;
    `SeededDice(seed, position)` or `from_dict` to continue a saved match where it stopped."""

    def __init__(self, seed: bytes, position: int = 0) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a dice seed is {SEED_BYTES} bytes, not {len(seed)}")
        if type(position) is not int or position < 0:
            raise ValueError(f"a stream position is an integer >= 0, not {position!r}")
        self._seed = bytes(seed)
        self._position = position

    @classmethod
    def new(cls) -> SeededDice:
        """Fresh dice for a new match, seeded from the operating system's CSPRNG."""
        return cls(secrets.token_bytes(SEED_BYTES))

    @classmethod
    def from_hex(cls, seed_hex: str, position: int = 0) -> SeededDice:
        return cls(seed_from_hex(seed_hex), position)

    @property
    def position(self) -> int:
        """How many values have been drawn (the index of the next one)."""
        return self._position

    @property
    def seed_hex(self) -> str:
        """The secret: reveal it only when the match is over or abandoned."""
        return self._seed.hex()

    @property
    def commitment(self) -> str:
        """What the server announces at match start (safe to show at any time)."""
        return commitment_of(self._seed)

    def _next(self) -> int:
        u = uniform_value(self._seed, self._position)
        self._position += 1
        return u

    def die(self) -> int:
        return die_from_uniform(self._next())

    def coin(self) -> int:
        return coin_from_uniform(self._next())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able state for a saved match (it holds the secret seed: keep it private)."""
        return {"scheme": SCHEME, "seed": self.seed_hex, "position": self._position}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeededDice:
        """Inverse of `to_dict`; ValueError on anything else."""
        if not isinstance(data, Mapping) or data.get("scheme") != SCHEME:
            raise ValueError(f"not saved dice of scheme {SCHEME}")
        seed, position = data.get("seed"), data.get("position")
        if not isinstance(seed, str) or type(position) is not int:
            raise ValueError("saved dice need a hex 'seed' and an integer 'position'")
        return cls(seed_from_hex(seed), position)

    def __repr__(self) -> str:  # never show the seed in logs or tracebacks
        return f"SeededDice(commitment={self.commitment[:16]}..., position={self._position})"


class ScriptedDice:
    """Dice read from a script, for tests: `ScriptedDice([3, 1, 6, 5])` rolls 3, 1, 6, 5.

    When the script runs out it raises, so a test never silently plays with dice it did
    not choose.
    """

    def __init__(self, values: Iterable[int] = (), *, coin: int = 0) -> None:
        self._values: list[int] = []
        #: Who plays O in the first game of every match started with these dice.
        self.coin_value = coin
        self.extend(values)

    def extend(self, values: Iterable[int]) -> None:
        for value in values:
            if not 1 <= value <= 6:
                raise ValueError(f"a die shows 1..6, not {value}")
            self._values.append(value)

    @property
    def remaining(self) -> int:
        return len(self._values)

    def coin(self) -> int:
        return self.coin_value

    def die(self) -> int:
        if not self._values:
            raise LookupError("the scripted dice ran out")
        return self._values.pop(0)


class MatchDice:
    """The per-match dice factory: a new `SeededDice` for every match, its saved stream
    continued for a resumed one; or, for tests, one shared source for every match."""

    def __init__(self, shared: DiceSource | None = None) -> None:
        self._shared = shared

    def new(self) -> DiceSource:
        """The dice of a new match."""
        return self._shared if self._shared is not None else SeededDice.new()

    def restored(self, saved: Mapping[str, Any] | None) -> DiceSource:
        """The dice of a resumed match: its own stream, continued where it stopped."""
        if self._shared is not None:
            return self._shared
        if saved is not None:
            try:
                return SeededDice.from_dict(saved)
            except (ValueError, KeyError, TypeError):
                pass
        return SeededDice.new()  # a match saved before seeded dice: fresh, still fair
