"""A player's record as values (`show record`, docs/matches.md): matches played, won and
lost by length and rating, the unfinished ones, and the PR of his latest analysed matches.

The store counts these with queries (`fibsd.store.families.player_records`); this module
says what is counted: the policy for leaving a match out of the PR figures, and how a
finished match's checker plays are tallied when it is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from fibsd.rules import CheckersMoved, Game

#: A match with fewer checker plays than this, in all its games, is very short: left out
#: of the PR figures (a PR over a handful of moves says nothing).
VERY_SHORT_MOVES = 10
#: A match whose last game ended by a resignation after at most this many checker plays
#: was resigned at once: left out of the PR figures too.
RESIGNED_AT_ONCE_MOVES = 2
#: The spans of the PR figures: the last 10 and the last 50 analysed matches.
PR_SPANS = (10, 50)


def checker_plays(games: Iterable[Game]) -> int:
    """How many checker plays the games hold (a dance is not one)."""
    return sum(isinstance(event, CheckersMoved) for game in games for event in game.history)


#: How a match may end, as the match records keep it (`fibsd.app.outcome.Ending`, lower case).
ENDINGS = frozenset({"borne_off", "double_passed", "resigned", "time", "claimed"})


def _known_ending(_instance: object, _attribute: object, value: str) -> None:
    if value not in ENDINGS:
        raise ValueError(f"unknown ending {value!r}")


@attrs.frozen
class MatchEnding:
    """What a finished match's record keeps for the counts: how it ended, whether it was
    rated, and its checker plays in all the games kept in memory and in its last game
    (a long match whose first games were saved away counts only those left: still far
    from very short)."""

    how: str = attrs.field(validator=_known_ending)
    rated: bool
    moves: int
    final_moves: int


@attrs.frozen
class LengthTally:
    """The finished matches of one length (None: unlimited) and one rating kind."""

    length: int | None
    rated: bool
    played: int
    won: int
    lost: int


@attrs.frozen
class Unfinished:
    """Matches the player did not finish at the board. `dropped` is None against one
    opponent (the drop count is kept per player only)."""

    saved: int
    abandoned: int
    lost_on_time: int
    claimed: int
    dropped: int | None


@attrs.frozen
class PrFigure:
    """The mean PR of the player's last `span` analysed matches that count, over how many
    there were (fewer than `span` when he has fewer); `average` None when none."""

    span: int
    average: float | None
    matches: int


@attrs.frozen
class PlayerRecord:
    """Everything `show record NAME [OPPONENT]` says."""

    name: str
    opponent: str | None
    tallies: tuple[LengthTally, ...]
    unfinished: Unfinished
    prs: tuple[PrFigure, ...]
    left_out: int  # analysed matches left out of the PR figures

    @property
    def played(self) -> int:
        return sum(t.played for t in self.tallies)

    @property
    def won(self) -> int:
        return sum(t.won for t in self.tallies)

    @property
    def lost(self) -> int:
        return sum(t.lost for t in self.tallies)

    def decided(self) -> tuple[int, int]:
        """Won and lost among the fixed-length matches (an unlimited one has no winner)."""
        fixed = [t for t in self.tallies if t.length is not None]
        return sum(t.won for t in fixed), sum(t.lost for t in fixed)


@attrs.frozen
class OpponentsPr:
    """The PR of a player's opponents in the analysed matches against him (a house bot's
    page): their mean over the matches that count, how many, and how many left out."""

    average: float | None
    matches: int
    left_out: int
