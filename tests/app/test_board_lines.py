"""The server's fast board lines (`fibsd.app.play.boards.board_line`, built without the
codec's checks and conversions) equal the lines the checked `build_board_line` makes from
the same state, after every kind of action of random legal matches, from both seats, for
players and watchers; a line keeps its encoding, and one line is shared by watchers."""

from __future__ import annotations

import random

import attrs
import pytest

from fibsd.app.play import boards
from fibsd.rules import GamePhase, GameResult, Match, MatchOptions, legal_plays
from protocol.board import YOU, BoardLine, Checkers, Colour, build_board_line


@attrs.define
class _Table:
    """A `TableView` over a bare match (the real `Table` adds sessions and the store)."""

    match: Match
    names: tuple[str, str] = ("alice", "bob")
    first_o: int = 0
    between_games: bool = False
    crawford_disabled: bool = False
    redoubles_field: int = 0

    def is_o(self, seat: int) -> bool:
        return seat == self.first_o

    def seat_of(self, occupant: object) -> int | None:
        return None


def _checkers(side: tuple[int, ...]) -> Checkers:
    return Checkers(points=side[1:25], bar=side[25], off=side[0])


def _reference(table: _Table, seat: int, *, as_player: bool) -> BoardLine:
    """The board as fibsd built it before the fast path: checked codec objects."""
    match = table.match
    game = match.game
    other = 1 - seat
    colour = Colour.O if table.is_o(seat) else Colour.X
    turn: Colour | None = None
    player_dice = opponent_dice = (0, 0)
    can_move = 0
    if not (table.between_games or match.over) and game.turn is not None \
            and game.phase is not GamePhase.GAME_OVER:
        turn = colour if game.turn == seat else colour.opponent
        if game.phase is GamePhase.AWAITING_MOVE and game.dice is not None:
            if game.turn == seat:
                player_dice = game.dice
            else:
                opponent_dice = game.dice
            can_move = game.moves_required()
    pending = game.double_pending
    owner = game.cube_owner
    holland = game.rules.holland_player
    held_back = holland is not None and game.turns_started[holland] < 2
    length = match.length
    no_crawford = 0
    if length is not None and table.crawford_disabled and max(match.score) == length - 1:
        no_crawford = 3
    return build_board_line(
        player=YOU if as_player else table.names[seat],
        opponent=table.names[other],
        colour=colour,
        player_checkers=_checkers(game.side(seat)),
        opponent_checkers=_checkers(game.side(other)),
        match_length=9999 if length is None else length,
        player_score=match.score[seat],
        opponent_score=match.score[other],
        turn=turn,
        player_dice=player_dice,
        opponent_dice=opponent_dice,
        cube=game.cube,
        player_may_double=not pending and (owner is None or owner == seat)
        and not (held_back and holland == seat),
        opponent_may_double=not pending and (owner is None or owner == other)
        and not (held_back and holland == other),
        was_doubled=pending and game.turn == other,
        can_move=can_move,
        no_crawford=no_crawford,
        post_crawford=match.post_crawford,
        redoubles=table.redoubles_field,
    )


def _check_all_views(table: _Table) -> None:
    for seat in (0, 1):
        for as_player in (True, False):
            fast = boards.board_line(table, seat, as_player=as_player)
            expected = _reference(table, seat, as_player=as_player)
            assert fast == expected
            assert fast.encode() == expected.encode()
            assert fast.encode() is fast.encode()  # encoded once, kept
            assert BoardLine.decode(fast.encode()) == fast


def _actions(rng: random.Random, table: _Table, max_actions: int) -> set[str]:
    """Play random legal actions, checking every view after each; the kinds played."""
    match = table.match
    kinds: set[str] = set()
    _check_all_views(table)
    for _ in range(max_actions):
        if match.over:
            break
        phase = match.phase
        player = match.turn
        if phase is GamePhase.OPENING:
            match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
            kind = "opening"
        elif phase is GamePhase.AWAITING_ROLL:
            assert player is not None
            if rng.random() < 0.005:
                match.resign(player, rng.choice(list(GameResult)))
                kind = "resign"
            elif match.may_double(player) and match.cube < 16 and rng.random() < 0.1:
                match.double(player)
                kind = "double"
            else:
                match.roll(player, (rng.randint(1, 6), rng.randint(1, 6)))
                kind = "roll"
        elif phase is GamePhase.AWAITING_MOVE:
            assert player is not None and match.dice is not None
            match.play(player, rng.choice(legal_plays(match.game.position_for(player), match.dice)))
            kind = "move"
        elif phase is GamePhase.DOUBLE_OFFERED:
            assert player is not None
            taker = 1 - player
            if match.game.rules.beavers and rng.random() < 0.3:
                match.beaver(taker)
                kind = "beaver"
            elif rng.random() < 0.6:
                match.take(taker)
                kind = "take"
            else:
                match.pass_double(taker)
                kind = "pass"
        elif phase is GamePhase.RESIGNATION_OFFERED:
            resignation = match.game.resignation
            assert resignation is not None
            if rng.random() < 0.7:
                match.accept_resignation(1 - resignation[0])
                kind = "accept"
            else:
                match.reject_resignation(1 - resignation[0])
                kind = "reject"
        else:  # pragma: no cover - a finished game is replaced by the next at once
            raise AssertionError(phase)
        kinds.add(kind)
        _check_all_views(table)
        # The table between two games (the match's next game waits for the players):
        table.between_games = True
        _check_all_views(table)
        table.between_games = False
    return kinds


@pytest.mark.parametrize(
    ("seed", "options", "first_o", "crawford_disabled", "redoubles"),
    [
        (1, MatchOptions(length=5), 0, False, 0),
        (2, MatchOptions(length=3, holland=True), 1, False, 0),
        (3, MatchOptions(length=7, crawford=False), 0, True, 0),
        (4, MatchOptions(), 1, False, 2),
        (5, MatchOptions(jacoby=True, beavers=True, auto_doubles_max=2), 0, False, 0),
    ],
)
def test_fast_board_equals_checked_board_after_every_action(
    seed: int, options: MatchOptions, first_o: int, crawford_disabled: bool, redoubles: int
) -> None:
    rng = random.Random(seed)
    kinds: set[str] = set()
    games = 0
    for _ in range(6):  # six matches (unlimited ones stop after 600 actions)
        table = _Table(Match(options), first_o=first_o, crawford_disabled=crawford_disabled,
                       redoubles_field=redoubles)
        kinds |= _actions(rng, table, 600)
        games += table.match.finished_count
    assert {"opening", "roll", "move", "double", "take", "pass"} <= kinds
    assert games >= 3  # games after the first were checked too
