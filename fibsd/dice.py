"""Where dice come from: a cryptographically secure source, or a script for tests.

The rules engine never rolls; the server asks a `DiceSource` and hands the values in.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol


class DiceSource(Protocol):
    def die(self) -> int:
        """One die, 1..6."""
        ...

    def coin(self) -> int:
        """0 or 1: who plays O in the first game of a match."""
        ...


class SecureDice:
    """Dice from the operating system's CSPRNG (`secrets`): unpredictable and unbiased."""

    def die(self) -> int:
        return secrets.randbelow(6) + 1

    def coin(self) -> int:
        return secrets.randbelow(2)


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
