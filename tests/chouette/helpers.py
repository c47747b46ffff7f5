"""Builders for chouette tests: a seated, ordered table and set-up boards."""

from __future__ import annotations

from collections.abc import Sequence

from fibsd.rules.chouette import Chouette, Settings
from fibsd.rules.game import Game
from fibsd.rules.position import Position
from tests.rules.helpers import side

# Boards for `start_game(board=...)`; player 0 is the box. Each side is in its own
# perspective ({point: checkers}, the rest borne off).
BOX_NEAR_HOME = {1: 6}  # three non-double rolls to bear off
TEAM_GAMMONED = {13: 15}  # nothing off, nothing in the box's home: a gammon
TEAM_BACKGAMMONED = {13: 14, 20: 1}  # one checker in the box's home board
TEAM_SINGLE = {13: 10}  # five borne off: a single game
TEAM_NEAR_HOME = {1: 6}
BOX_GAMMONED = {13: 15}
BOX_BACKGAMMONED = {13: 14, 20: 1}
BOX_SINGLE = {13: 10}


def board(box: dict[int, int], team: dict[int, int], turn: int = 0) -> Game:
    """A board with `turn` (0 box, 1 team) about to roll."""
    sides = (side(box), side(team))
    position = Position(sides[turn], sides[1 - turn])
    return Game.from_position(position, turn)


def ordered(names: Sequence[str], settings: Settings | None = None) -> Chouette:
    """A table whose initial order rolls put `names` in exactly this order."""
    table = Chouette(settings, names)
    table.begin_order()
    want = {n: i for i, n in enumerate(names)}
    while table.order_to_roll:
        to_roll = table.order_to_roll
        # highest die to the best-placed; ties (more than six) are re-rolled
        ranked = sorted(to_roll, key=want.__getitem__)
        dice = {n: max(1, 6 - i) for i, n in enumerate(ranked)}
        table.order_roll(dice)
    assert table.queue == tuple(names)
    return table


def bear_off(table: Chouette, who: str, moves_left: int) -> None:
    """`who` (box or captain) rolls 2-1 and bears two checkers off his 1-point."""
    table.roll(who, (2, 1))
    table.move(who, [(1, 0), (1, 0)][:moves_left])


def team_shuffle(table: Chouette) -> None:
    """The captain rolls 2-1 and moves two checkers from his 13-point (keeps any
    checker in the box's home where it is)."""
    captain = table.captain
    assert captain is not None
    table.roll(captain, (2, 1))
    table.move(captain, [(13, 11), (13, 12)])


def box_shuffle(table: Chouette) -> None:
    box = table.box
    assert box is not None
    table.roll(box, (2, 1))
    table.move(box, [(13, 11), (13, 12)])


def deltas(table: Chouette, game: int = -1) -> dict[str, int]:
    return {n: d for n, d in table.ledger.games[game].deltas if d}
