"""The board a viewer sees: a `board:` line (or ASCII board) from one player's side.

Builds the codec's `BoardLine` from a table's rules state, for a playing recipient (player
field `You`) or a watcher (the watched player's name), following §4.2 of the reference:
may-double flags stay as FIBS sends them (both 0 while a double is pending, the cube
owner's only when owned, left on in the Crawford game), was-doubled is set for the doubled
player, and the dice are shown on the side of the player who must move them.

It reads a table through the small `TableView` protocol and a viewer through `Viewer`,
so it imports neither the table (which imports it) nor the sessions above it.
"""

from __future__ import annotations

from typing import Protocol

import attrs

from fibsd.domain.accounts import Account
from fibsd.rules import Game, GamePhase, Match
from protocol.board import YOU, BoardLine, Colour, board_line_from_sides
from protocol.messages import BoardMessage


class Viewer(Protocol):
    """Whoever a board is drawn for (a logged-in user)."""

    @property
    def name(self) -> str: ...
    @property
    def account(self) -> Account: ...


class TableView(Protocol):
    """What a board shows of a running match (`fibsd.app.play.table.Table` is one)."""

    @property
    def match(self) -> Match: ...
    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def between_games(self) -> bool: ...
    @property
    def crawford_disabled(self) -> bool: ...
    @property
    def redoubles_field(self) -> int: ...
    def is_o(self, seat: int) -> bool: ...
    def seat_of(self, occupant: object) -> int | None: ...
    def clock_labels(self, seat: int) -> tuple[str, str] | None: ...

#: FIBS's match length for unlimited matches in the board line.
UNLIMITED_LENGTH = 9999


@attrs.frozen
class CubeView:
    """The cube as one viewer sees it (board fields 37-40): its value, who may double,
    and whether the viewer's side was just doubled. A match has one cube; at a chouette
    each member sees his own (C81)."""

    value: int = 1
    player_may_double: bool = True
    opponent_may_double: bool = True
    was_doubled: bool = False


def game_board_line(
    game: Game,
    seat: int,
    *,
    player: str,
    opponent: str,
    is_o: bool,
    cube: CubeView,
    in_play: bool,
    match_length: int,
    player_score: int = 0,
    opponent_score: int = 0,
    no_crawford: int = 0,
    post_crawford: bool = False,
    redoubles: int = 0,
) -> BoardLine:
    """The one board builder of both tables: `game`'s position from `seat`'s side, the
    cube as this viewer sees it, and (while `in_play`) the turn and the dice on the side
    of the player who must move them. `player` is `YOU` for a playing recipient, the
    watched player's name for a watcher."""
    other = 1 - seat
    colour = Colour.O if is_o else Colour.X
    turn: Colour | None = None
    player_dice = opponent_dice = (0, 0)
    can_move = 0
    if in_play and game.turn is not None and game.phase is not GamePhase.GAME_OVER:
        turn = colour if game.turn == seat else colour.opponent
        if game.phase is GamePhase.AWAITING_MOVE and game.dice is not None:
            if game.turn == seat:
                player_dice = game.dice
            else:
                opponent_dice = game.dice
            can_move = game.moves_required()
    # The rules engine's sides are a legal position and the names valid board names:
    # the unchecked constructor builds the same line for a fifth of the cost.
    return board_line_from_sides(
        player=player,
        opponent=opponent,
        colour=colour,
        player_side=game.side(seat),
        opponent_side=game.side(other),
        match_length=match_length,
        player_score=player_score,
        opponent_score=opponent_score,
        turn=turn,
        player_dice=player_dice,
        opponent_dice=opponent_dice,
        cube=cube.value,
        player_may_double=cube.player_may_double,
        opponent_may_double=cube.opponent_may_double,
        was_doubled=cube.was_doubled,
        can_move=can_move,
        no_crawford=no_crawford,
        post_crawford=post_crawford,
        redoubles=redoubles,
    )


def board_line(table: TableView, seat: int, *, as_player: bool) -> BoardLine:
    """The board from `seat`'s side; `as_player` puts `You` in the player field."""
    match = table.match
    game = match.game
    other = 1 - seat
    pending = game.double_pending
    owner = game.cube_owner
    # fibsd's Holland rule: the trailer's flag is off while the rule forbids his double
    # (FIBS has no Holland rule; a client reading the flag then offers no double).
    holland = game.rules.holland_player
    held_back = holland is not None and game.turns_started[holland] < 2
    length = match.length
    no_crawford = 0
    if length is not None and table.crawford_disabled and max(match.score) == length - 1:
        no_crawford = 3
    cube = CubeView(
        value=game.cube,
        player_may_double=not pending and (owner is None or owner == seat)
        and not (held_back and holland == seat),
        opponent_may_double=not pending and (owner is None or owner == other)
        and not (held_back and holland == other),
        was_doubled=pending and game.turn == other,
    )
    return game_board_line(
        game, seat,
        player=YOU if as_player else table.names[seat],
        opponent=table.names[other],
        is_o=table.is_o(seat),
        cube=cube,
        in_play=not (table.between_games or match.over),
        match_length=UNLIMITED_LENGTH if length is None else length,
        player_score=match.score[seat],
        opponent_score=match.score[other],
        no_crawford=no_crawford,
        post_crawford=match.post_crawford,
        redoubles=table.redoubles_field,
    )


def board_for(table: TableView, viewer: Viewer, seat: int) -> BoardMessage:
    """`viewer`'s board in its board style, from `seat`'s side."""
    playing = table.seat_of(viewer) == seat
    return board_message(board_line(table, seat, as_player=playing), viewer, playing=playing,
                         clocks=table.clock_labels(seat))


def board_message(line: BoardLine, viewer: Viewer, *, playing: bool,
                  clocks: tuple[str, str] | None = None) -> BoardMessage:
    """`line` for `viewer` in its board style (`playing`: `line` has `You` for him);
    `clocks`: the match clocks an ASCII board shows (the `board:` line has no room)."""
    style = viewer.account.variables.boardstyle
    return BoardMessage(
        line,
        style=style,
        player_name=viewer.name if playing else None,
        clocks=clocks if style != 3 else None,
    )
