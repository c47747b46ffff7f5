"""The decisions a bot makes, behind one small interface, and the random-legal strategy.

Owns `Strategy` (what the bot client asks: which play, whether to double, whether to take
a double, whether to accept a resignation) and `RandomStrategy`. A strategy sees the
latest `BoardLine` (the bot's own view: "You", its colour, its dice) and, for a play, the
legal plays the client computed with `fibsd.rules` in the mover's own perspective. It
knows nothing about sockets, the FIBS wording or move notation: the client turns its
answers into commands.

The methods are coroutines so that a strategy may talk to another process (GNU
Backgammon, `fibsd.tools.bots.gnubg`) without blocking the bot's connection.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from fibsd.rules import Play
from protocol.board import BoardLine

__all__ = ["RandomStrategy", "Strategy"]


class Strategy(Protocol):
    """What a bot decides. `plays` is never empty; return one of its elements."""

    async def choose_play(self, board: BoardLine, plays: Sequence[Play]) -> Play: ...

    async def should_double(self, board: BoardLine) -> bool: ...

    async def should_accept_double(self, board: BoardLine) -> bool: ...

    async def should_accept_resignation(self, board: BoardLine, points: int) -> bool: ...


class RandomStrategy:
    """Plays a uniformly random legal play; cube and resignation answers are coin flips
    with the given probabilities. Pass `seed` for a reproducible bot."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        double_probability: float = 0.05,
        take_probability: float = 0.7,
        accept_resignation_probability: float = 0.5,
    ) -> None:
        self._random = random.Random(seed)
        self.double_probability = double_probability
        self.take_probability = take_probability
        self.accept_resignation_probability = accept_resignation_probability

    async def choose_play(self, board: BoardLine, plays: Sequence[Play]) -> Play:
        return self._random.choice(list(plays))

    async def should_double(self, board: BoardLine) -> bool:
        return self._random.random() < self.double_probability

    async def should_accept_double(self, board: BoardLine) -> bool:
        return self._random.random() < self.take_probability

    async def should_accept_resignation(self, board: BoardLine, points: int) -> bool:
        return self._random.random() < self.accept_resignation_probability
