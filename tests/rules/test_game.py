"""The game state machine: opening, rolls, plays, the cube, resignations, results."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fibsd.rules.cube import Cube, CubeRules
from fibsd.rules.errors import ActionReason, IllegalAction, IllegalPlay, RuleError
from fibsd.rules.events import (
    Beavered,
    CheckersMoved,
    CubeAutoDoubled,
    CubeOffered,
    CubePassed,
    CubeTaken,
    DiceRolled,
    GameResult,
    GameWon,
    OpeningRolled,
    Raccooned,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    TurnPassed,
    WinKind,
)
from fibsd.rules.game import TRANSITIONS, Action, Game, GamePhase
from fibsd.rules.position import BAR, OFF

from .helpers import pos


def refused(game: Game, action: Callable[[], object], reason: object) -> None:
    """The action raises a RuleError with `reason` and changes nothing."""
    before = game.to_dict()
    with pytest.raises(RuleError) as err:
        action()
    assert err.value.reason is reason
    assert game.to_dict() == before


def started(first: int = 0) -> Game:
    game = Game()
    game.opening_roll(*((5, 3) if first == 0 else (3, 5)))
    return game


def test_opening_tie_rolls_again() -> None:
    game = Game()
    assert game.opening_roll(4, 4) == [OpeningRolled(4, 4)]
    assert game.phase is GamePhase.OPENING and game.turn is None and game.cube == 1


def test_opening_higher_die_moves_first_with_both_dice() -> None:
    game = Game()
    assert game.opening_roll(2, 6) == [OpeningRolled(2, 6)]
    assert (game.phase, game.turn, game.dice) == (GamePhase.AWAITING_MOVE, 1, (6, 2))
    assert game.turns_started == (0, 1)
    assert game.moves_required() == 2


def test_automatic_doubles_up_to_the_maximum() -> None:
    game = Game(CubeRules(auto_doubles_max=2))
    assert game.opening_roll(1, 1) == [OpeningRolled(1, 1), CubeAutoDoubled(2)]
    assert game.opening_roll(2, 2) == [OpeningRolled(2, 2), CubeAutoDoubled(4)]
    assert game.opening_roll(3, 3) == [OpeningRolled(3, 3)]
    assert (game.cube, game.cube_owner) == (4, None)


def test_opening_roll_only_once() -> None:
    game = started()
    refused(game, lambda: game.opening_roll(2, 1), ActionReason.WRONG_PHASE)


def test_moving_then_the_other_player_rolls() -> None:
    game = started(0)
    events = game.move(0, [(8, 3), (6, 3)])
    assert isinstance(events[0], CheckersMoved) and events[0].dice == (5, 3)
    assert (game.phase, game.turn, game.dice) == (GamePhase.AWAITING_ROLL, 1, None)
    assert game.side(0)[3] == 2
    assert game.roll(1, (6, 1)) == [DiceRolled(1, (6, 1))]
    assert game.phase is GamePhase.AWAITING_MOVE


def test_illegal_actions_leave_the_game_unchanged() -> None:
    game = started(0)
    refused(game, lambda: game.move(1, [(8, 3), (6, 3)]), ActionReason.NOT_YOUR_TURN)
    refused(game, lambda: game.roll(0, (1, 2)), ActionReason.WRONG_PHASE)
    refused(game, lambda: game.double(0), ActionReason.WRONG_PHASE)
    before = game.to_dict()
    with pytest.raises(IllegalPlay):
        game.move(0, [(8, 3)])
    assert game.to_dict() == before
    game.move(0, [(8, 3), (6, 3)])
    refused(game, lambda: game.roll(1, (0, 3)), ActionReason.BAD_DICE)
    refused(game, lambda: game.roll(1, (1, 2, 3)), ActionReason.BAD_DICE)
    refused(game, lambda: game.take(0), ActionReason.WRONG_PHASE)
    with pytest.raises(ValueError):
        game.roll(2, (1, 2))


def test_no_legal_play_passes_the_turn() -> None:
    p = pos({BAR: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3})
    game = Game.from_position(p, turn=1)
    assert game.roll(1, (5, 2)) == [DiceRolled(1, (5, 2)), TurnPassed(1, (5, 2))]
    assert (game.phase, game.turn) == (GamePhase.AWAITING_ROLL, 0)


def test_double_take_and_cube_ownership() -> None:
    game = started(0)
    game.move(0, [(8, 3), (6, 3)])
    assert game.may_double(1) and not game.may_double(0)
    assert game.double(1) == [CubeOffered(1, 2)]
    assert game.double_pending and game.actor() == 0
    refused(game, lambda: game.take(1), ActionReason.NOT_YOUR_TURN)
    assert game.take(0) == [CubeTaken(0, 2)]
    assert (game.cube, game.cube_owner, game.phase) == (2, 0, GamePhase.AWAITING_ROLL)
    # player 1 no longer owns the cube: he may not redouble
    refused(game, lambda: game.double(1), ActionReason.CUBE_NOT_YOURS)
    assert game.may_double_ever(0) and not game.may_double_ever(1)
    game.roll(1, (6, 5))
    game.move(1, [(24, 18), (18, 13)])
    assert game.double(0) == [CubeOffered(0, 4)]
    game.take(1)
    assert (game.cube, game.cube_owner) == (4, 1)


def test_only_before_rolling() -> None:
    game = started(0)
    game.move(0, [(8, 3), (6, 3)])
    game.roll(1, (6, 5))
    refused(game, lambda: game.double(1), ActionReason.WRONG_PHASE)


def test_pass_loses_the_current_value() -> None:
    game = started(0)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    events = game.pass_double(0)
    assert events == [
        CubePassed(0, 1),
        GameWon(1, GameResult.SINGLE, 1, 1, WinKind.DOUBLE_PASSED),
    ]
    assert game.phase is GamePhase.GAME_OVER and game.result == events[1]
    refused(game, lambda: game.roll(0, (1, 2)), ActionReason.WRONG_PHASE)


def test_cube_disabled_in_the_crawford_game() -> None:
    game = Game(CubeRules(enabled=False))
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    refused(game, lambda: game.double(1), ActionReason.CRAWFORD_GAME)
    assert not game.may_double_ever(0)


def test_holland_player_may_not_double_before_his_third_turn() -> None:
    game = Game(CubeRules(holland_player=1))
    game.opening_roll(5, 3)  # player 0 moves first
    game.move(0, [(8, 3), (6, 3)])
    refused(game, lambda: game.double(1), ActionReason.HOLLAND_RULE)  # his first turn
    game.roll(1, (2, 1))
    game.move(1, [(13, 11), (6, 5)])
    game.roll(0, (2, 1))
    game.move(0, [(13, 11), (6, 5)])
    refused(game, lambda: game.double(1), ActionReason.HOLLAND_RULE)  # his second turn
    game.roll(1, (2, 1))
    game.move(1, [(13, 11), (6, 5)])
    game.roll(0, (2, 1))
    game.move(0, [(13, 11), (11, 10)])
    assert game.double(1) == [CubeOffered(1, 2)]  # his third turn
    # the leader may double at any time
    leader = Game(CubeRules(holland_player=1))
    leader.opening_roll(3, 5)
    leader.move(1, [(8, 3), (6, 3)])
    assert leader.may_double(0)


def test_redouble_limit() -> None:
    game = Game(CubeRules(max_redoubles=1))
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    game.take(0)
    game.roll(1, (2, 1))
    game.move(1, [(13, 11), (6, 5)])
    game.double(0)  # the first redouble is allowed
    game.take(1)
    game.roll(0, (2, 1))
    game.move(0, [(13, 11), (6, 5)])
    refused(game, lambda: game.double(1), ActionReason.REDOUBLE_LIMIT)


def test_beaver_and_raccoon() -> None:
    game = Game(CubeRules(beavers=True))
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    assert game.beaver(0) == [Beavered(0, 4)]
    assert (game.cube, game.cube_owner, game.turn) == (4, 0, 1)
    refused(game, lambda: game.raccoon(0), ActionReason.NOT_YOUR_TURN)
    assert game.raccoon(1) == [Raccooned(1, 8)]
    assert (game.cube, game.cube_owner, game.phase) == (8, 0, GamePhase.AWAITING_ROLL)
    refused(game, lambda: game.raccoon(1), ActionReason.NO_BEAVERS)  # only once
    game.roll(1, (2, 1))


def test_raccoon_only_before_rolling() -> None:
    game = Game(CubeRules(beavers=True))
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    game.beaver(0)
    game.roll(1, (2, 1))
    refused(game, lambda: game.raccoon(1), ActionReason.WRONG_PHASE)


def test_beavers_off() -> None:
    game = started(0)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    refused(game, lambda: game.beaver(0), ActionReason.NO_BEAVERS)


def test_resignation_accepted_scores_value_times_cube() -> None:
    game = Game.from_position(pos({6: 15}, {6: 15}), turn=0, cube=Cube(4, 1, 2))
    assert game.resign(1, GameResult.GAMMON) == [
        ResignationOffered(1, GameResult.GAMMON, 8)
    ]
    assert game.phase is GamePhase.RESIGNATION_OFFERED and game.actor() == 0
    assert game.resignation == (1, GameResult.GAMMON)
    refused(game, lambda: game.roll(0, (1, 2)), ActionReason.WRONG_PHASE)
    refused(game, lambda: game.accept_resignation(1), ActionReason.NOT_YOUR_TURN)
    assert game.accept_resignation(0) == [
        ResignationAccepted(0),
        GameWon(0, GameResult.GAMMON, 4, 8, WinKind.RESIGNED),
    ]


def test_resignation_rejected_resumes_the_phase() -> None:
    game = started(0)
    game.resign(0, GameResult.SINGLE)
    assert game.reject_resignation(1) == [ResignationRejected(1)]
    assert (game.phase, game.turn, game.dice) == (GamePhase.AWAITING_MOVE, 0, (5, 3))
    assert game.resignation is None


def test_no_resignation_before_the_game_or_during_a_double() -> None:
    game = Game()
    refused(game, lambda: game.resign(0, GameResult.SINGLE), ActionReason.WRONG_PHASE)
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    refused(game, lambda: game.resign(0, GameResult.SINGLE), ActionReason.WRONG_PHASE)


def finish(
    me: dict[int, int], opp: dict[int, int], cube: Cube, jacoby: bool = False
) -> GameWon:
    """Player 0 bears off his last checker (on his 1-point) with a 2-1."""
    game = Game.from_position(
        pos(me, opp), turn=0, rules=CubeRules(jacoby=jacoby), cube=cube
    )
    game.roll(0, (2, 1))
    events = game.move(0, [(1, OFF)])
    assert game.phase is GamePhase.GAME_OVER
    won = events[-1]
    assert isinstance(won, GameWon) and won.how is WinKind.BORNE_OFF and won.winner == 0
    return won


@pytest.mark.parametrize(
    "opp, result",
    [
        ({5: 1}, GameResult.SINGLE),  # one checker left, 14 borne off
        ({6: 15}, GameResult.GAMMON),  # none borne off
        ({6: 14, 20: 1}, GameResult.BACKGAMMON),  # one in the winner's home board
        ({6: 14, BAR: 1}, GameResult.BACKGAMMON),  # one on the bar
    ],
)
def test_results_times_the_cube(opp: dict[int, int], result: GameResult) -> None:
    won = finish({1: 1}, opp, Cube(2, 1, 1))
    assert (won.result, won.cube, won.points) == (result, 2, 2 * result.value)


def test_jacoby_gammon_counts_single_while_the_cube_is_centred() -> None:
    assert finish({1: 1}, {6: 15}, Cube(), jacoby=True).points == 1
    assert finish({1: 1}, {6: 15}, Cube(2, 0, 1), jacoby=True).points == 4
    # automatic doubles leave the cube centred: still no gammons
    assert finish({1: 1}, {6: 15}, Cube(2, None, 0, 1), jacoby=True).points == 2


def test_last_checker_cannot_be_followed_by_more_moves() -> None:
    game = Game.from_position(pos({1: 1}, {6: 15}), turn=0)
    game.roll(0, (6, 6))
    assert game.moves_required() == 1


def test_history_records_every_action() -> None:
    game = started(0)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    game.take(0)
    assert [type(e).__name__ for e in game.history] == [
        "OpeningRolled",
        "CheckersMoved",
        "CubeOffered",
        "CubeTaken",
    ]


def test_transition_table_covers_every_action() -> None:
    assert {a for _, a in TRANSITIONS} == set(Action)
    for targets in TRANSITIONS.values():
        assert targets <= set(GamePhase)


def test_game_serialisation_round_trip() -> None:
    game = Game(CubeRules(beavers=True, jacoby=True))
    game.opening_roll(5, 3)
    game.move(0, [(8, 3), (6, 3)])
    game.double(1)
    game.beaver(0)
    game.resign(0, GameResult.BACKGAMMON)
    copy = Game.from_dict(game.to_dict())
    assert copy == game
    assert copy.reject_resignation(1) == game.reject_resignation(1)
    assert copy == game
    with pytest.raises(ValueError):
        Game.from_dict({"rules": {}})


def test_illegal_action_error_is_a_rule_error() -> None:
    assert issubclass(IllegalAction, RuleError) and issubclass(IllegalPlay, RuleError)
