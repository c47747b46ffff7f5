"""A match: a series of games to a length (1..99) or unlimited (money play).

Owns `MatchOptions`, `Match` and the match's serialised form. Keeps the score (a game's
full points are added even past the match length, as on FIBS: a gammon from 4-1 in a
5-point match ends it 6-1), decides each game's cube rules (Crawford game exactly once,
post-Crawford games, no cube in a 1-point match, the Holland rule, and the money-play-only options: Jacoby, beavers,
automatic doubles, redouble limit) and starts the next game when one ends. Every action
is the game's action, validated before anything changes; the returned events add
`ScoreChanged`, `MatchWon` and `GameStarted` where they happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .cube import CubeRules
from .errors import ActionReason, IllegalAction
from .events import Event, GameResult, GameStarted, GameWon, MatchWon, ScoreChanged
from .game import Game, GamePhase
from .movegen import Play

FORMAT_VERSION = 1
MAX_LENGTH = 99


def _check_length(_instance: object, _attribute: object, length: int | None) -> None:
    if length is not None and not 1 <= length <= MAX_LENGTH:
        raise ValueError(f"match length must be 1..{MAX_LENGTH} or None, not {length}")


def _check_count(
    _instance: object, attribute: attrs.Attribute[Any], value: int | None
) -> None:
    if value is not None and value < 0:
        raise ValueError(f"{attribute.name} must not be negative, not {value}")


@attrs.frozen
class MatchOptions:
    """What the players agreed. `length` None is an unlimited (money) match; jacoby,
    beavers (and raccoons), auto_doubles_max (automatic doubles on opening ties) and
    max_redoubles (cube turns allowed after the first in one game; None = no limit) only
    apply to unlimited matches and are ignored otherwise."""

    length: int | None = attrs.field(default=None, validator=_check_length)
    crawford: bool = True
    holland: bool = False
    jacoby: bool = False
    beavers: bool = False
    auto_doubles_max: int = attrs.field(default=0, validator=_check_count)
    max_redoubles: int | None = attrs.field(default=None, validator=_check_count)


class Match:
    """Score, Crawford bookkeeping and the current game. Starts with game 1 awaiting
    its opening roll."""

    def __init__(self, options: MatchOptions) -> None:
        self.options = options
        self._score = [0, 0]
        self._game_number = 0
        self._crawford_game = False  # the current game is the Crawford game
        self._crawford_used = False  # the Crawford game has been decided (exactly once)
        self._post_crawford = False  # the current game is after the Crawford game
        self._winner: int | None = None
        self._finished: list[Game] = []
        #: Finished games dropped from memory (`forget_finished`), and the points they gave.
        self._forgotten = 0
        self._forgotten_score = (0, 0)
        self._game = Game()
        self._start_game()

    # --- queries ---------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The current game (the last one once the match is over). Act through the
        match, not on it, so that scores follow."""
        return self._game

    @property
    def finished_games(self) -> tuple[Game, ...]:
        """The finished games still in memory (all of them unless `forget_finished`)."""
        return tuple(self._finished)

    @property
    def finished_count(self) -> int:
        """How many games were finished, forgotten ones included (without copying)."""
        return self._forgotten + len(self._finished)

    @property
    def forgotten_count(self) -> int:
        """How many of the first finished games `forget_finished` dropped from memory."""
        return self._forgotten

    @property
    def forgotten_score(self) -> tuple[int, int]:
        """The points the forgotten games gave (the score before the first one kept)."""
        return self._forgotten_score

    def forget_finished(self, keep: int = 1) -> None:
        """Drop all but the last `keep` finished games from memory.

        For a caller that stored them (the server's saved match holds each finished game
        once): an unlimited match can last thousands of games, and memory must not grow
        with them. Scores, the game number and the rules state are unaffected;
        `to_dict` then needs `finished_from` of at least `forgotten_count`."""
        drop = len(self._finished) - max(0, keep)
        if drop <= 0:
            return
        score = list(self._forgotten_score)
        for game in self._finished[:drop]:  # full points, as `_after` adds them
            won = game.result
            if won is not None:
                score[won.winner] += won.points
        self._forgotten_score = (score[0], score[1])
        self._forgotten += drop
        del self._finished[:drop]

    @property
    def score(self) -> tuple[int, int]:
        return self._score[0], self._score[1]

    @property
    def length(self) -> int | None:
        return self.options.length

    @property
    def game_number(self) -> int:
        return self._game_number

    @property
    def crawford_game(self) -> bool:
        """The current game is the Crawford game (nobody may double)."""
        return self._crawford_game

    @property
    def post_crawford(self) -> bool:
        return self._post_crawford

    @property
    def over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def phase(self) -> GamePhase:
        return self._game.phase

    @property
    def turn(self) -> int | None:
        return self._game.turn

    @property
    def dice(self) -> tuple[int, int] | None:
        return self._game.dice

    @property
    def cube(self) -> int:
        return self._game.cube

    @property
    def cube_owner(self) -> int | None:
        return self._game.cube_owner

    def may_double(self, player: int) -> bool:
        return not self.over and self._game.may_double(player)

    # --- the machinery ---------------------------------------------------------------

    def _cube_rules(self) -> CubeRules:
        o = self.options
        money = o.length is None
        holland_player: int | None = None
        if o.holland and self._post_crawford and self._score[0] != self._score[1]:
            holland_player = 0 if self._score[0] < self._score[1] else 1
        return CubeRules(
            # The cube is dead in a 1-point match: FIBS rolls for the player at once.
            enabled=not self._crawford_game and o.length != 1,
            beavers=money and o.beavers,
            auto_doubles_max=o.auto_doubles_max if money else 0,
            max_redoubles=o.max_redoubles if money else None,
            holland_player=holland_player,
            jacoby=money and o.jacoby,
        )

    def _start_game(self) -> list[Event]:
        self._game_number += 1
        started = GameStarted(
            self._game_number, self._crawford_game, self._post_crawford
        )
        self._game = Game(self._cube_rules(), started)
        return [started]

    def _after(self, events: list[Event]) -> list[Event]:
        """Score a finished game and start the next one (or end the match)."""
        won = next((e for e in events if isinstance(e, GameWon)), None)
        if won is None:
            return events
        length = self.options.length
        points = won.points  # all of them, as FIBS adds them (docs/compatibility.md)
        self._score[won.winner] += points
        events.append(ScoreChanged(won.winner, points, self.score))
        if length is not None and self._score[won.winner] >= length:
            self._winner = won.winner
            events.append(MatchWon(won.winner, self.score))
            return events
        self._finished.append(self._game)
        if self._crawford_game:
            self._crawford_game = False
            self._post_crawford = True
        elif (
            self.options.crawford
            and not self._crawford_used
            and length is not None
            and self._score[won.winner] == length - 1
        ):
            self._crawford_game = True
            self._crawford_used = True
        events.extend(self._start_game())
        return events

    def _live(self) -> Game:
        if self._winner is not None:
            raise IllegalAction(ActionReason.MATCH_OVER, "the match is over")
        return self._game

    # --- actions (all delegate to the game; see Game for their rules) -----------------

    def opening_roll(self, die0: int, die1: int) -> list[Event]:
        return self._live().opening_roll(die0, die1)

    def roll(self, player: int, dice: Sequence[int]) -> list[Event]:
        return self._live().roll(player, dice)

    def move(self, player: int, moves: Sequence[tuple[int, int]]) -> list[Event]:
        return self._after(self._live().move(player, moves))

    def play(self, player: int, play: Play) -> list[Event]:
        return self._after(self._live().play(player, play))

    def double(self, player: int) -> list[Event]:
        return self._live().double(player)

    def take(self, player: int) -> list[Event]:
        return self._live().take(player)

    def pass_double(self, player: int) -> list[Event]:
        return self._after(self._live().pass_double(player))

    def beaver(self, player: int) -> list[Event]:
        return self._live().beaver(player)

    def raccoon(self, player: int) -> list[Event]:
        return self._live().raccoon(player)

    def resign(self, player: int, result: GameResult) -> list[Event]:
        return self._live().resign(player, result)

    def accept_resignation(self, player: int) -> list[Event]:
        return self._after(self._live().accept_resignation(player))

    def reject_resignation(self, player: int) -> list[Event]:
        return self._live().reject_resignation(player)

    # --- serialisation -------------------------------------------------------------

    def to_dict(self, *, finished_from: int = 0) -> dict[str, Any]:
        """The complete match, JSON-able and versioned (`from_dict` restores it); with
        `finished_from` N, the finished games from number N on only (the saves of a long
        match write each finished game once). ValueError if some of those were forgotten."""
        if finished_from < self._forgotten:
            raise ValueError(f"finished games before {self._forgotten} are no longer in memory")
        return {
            **self.state_dict(),
            "finished_games": [g.to_dict() for g in self._finished[finished_from - self._forgotten:]],
            "game": self._game.to_dict(),
        }

    def state_dict(self) -> dict[str, Any]:
        """`to_dict` without the games: small, whatever the length of the match."""
        return {
            "version": FORMAT_VERSION,
            "options": attrs.asdict(self.options),
            "score": list(self._score),
            "game_number": self._game_number,
            "crawford_game": self._crawford_game,
            "crawford_used": self._crawford_used,
            "post_crawford": self._post_crawford,
            "winner": self._winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Restore a match saved by `to_dict`; raises ValueError on malformed data or an
        unknown format version."""
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a saved match of format version 1")
        try:
            match = cls(MatchOptions(**data["options"]))
            match._score = [int(n) for n in data["score"]]
            match._game_number = int(data["game_number"])
            match._crawford_game = bool(data["crawford_game"])
            match._crawford_used = bool(data["crawford_used"])
            match._post_crawford = bool(data["post_crawford"])
            match._winner = data["winner"]
            match._finished = [Game.from_dict(g) for g in data["finished_games"]]
            match._game = Game.from_dict(data["game"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a saved match: {exc!r}") from exc
        return match

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable
