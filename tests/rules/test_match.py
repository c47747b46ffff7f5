"""Matches: score with no bonus, Crawford exactly once, post-Crawford, Holland, money
play options, serialisation."""

from __future__ import annotations

import json
import random

import pytest

from fibsd.rules.errors import ActionReason, IllegalAction, RuleError
from fibsd.rules.events import (
    Event,
    GameResult,
    GameStarted,
    GameWon,
    MatchWon,
    ScoreChanged,
    WinKind,
)
from fibsd.rules.game import GamePhase
from fibsd.rules.match import Match, MatchOptions
from fibsd.rules.movegen import Play, legal_plays

from .driver import step


def _any_play(match: Match, player: int) -> Play:
    dice = match.dice
    assert dice is not None
    return legal_plays(match.game.position_for(player), dice)[0]


def resign_game(match: Match, winner: int, result: GameResult) -> list[Event]:
    loser = 1 - winner
    match.opening_roll(*((6, 5) if loser == 0 else (5, 6)))
    match.resign(loser, result)
    return list(match.accept_resignation(winner))


def test_options_validate_length() -> None:
    for bad in (0, 100, -1):
        with pytest.raises(ValueError):
            MatchOptions(length=bad)
    assert MatchOptions(length=99).length == 99
    assert MatchOptions().length is None
    with pytest.raises(ValueError):
        MatchOptions(auto_doubles_max=-1)
    with pytest.raises(ValueError):
        MatchOptions(max_redoubles=-1)


def test_first_game_awaits_the_opening_roll() -> None:
    match = Match(MatchOptions(length=5))
    assert (match.phase, match.score, match.game_number) == (
        GamePhase.OPENING,
        (0, 0),
        1,
    )
    assert not match.crawford_game and not match.post_crawford
    assert match.game.history == (GameStarted(1, False, False),)


def test_full_points_are_added_past_the_match_length() -> None:
    # FIBS adds every point of the deciding game: a backgammon wins a 2-point match 3-0.
    match = Match(MatchOptions(length=2))
    events = resign_game(match, 0, GameResult.BACKGAMMON)
    assert ScoreChanged(0, 3, (3, 0)) in events
    assert MatchWon(0, (3, 0)) in events
    assert match.over and match.winner == 0 and match.score == (3, 0)
    with pytest.raises(IllegalAction) as err:
        match.opening_roll(1, 2)
    assert err.value.reason is ActionReason.MATCH_OVER


def test_crawford_game_exactly_once_then_post_crawford() -> None:
    match = Match(MatchOptions(length=3))
    events = resign_game(match, 0, GameResult.GAMMON)  # 2-0: player 0 at match point
    assert events[-1] == GameStarted(2, True, False)
    assert match.crawford_game and match.score == (2, 0)
    # no doubling in the Crawford game
    match.opening_roll(6, 5)
    match.play(0, _any_play(match, 0))
    assert not match.may_double(1)
    with pytest.raises(RuleError) as err:
        match.double(1)
    assert err.value.reason is ActionReason.CRAWFORD_GAME
    match.resign(0, GameResult.SINGLE)
    events = match.accept_resignation(1)  # 2-1
    assert events[-1] == GameStarted(3, False, True)
    assert match.post_crawford and not match.crawford_game
    # post-Crawford: the trailer may double
    match.opening_roll(6, 5)
    match.play(0, _any_play(match, 0))
    assert match.may_double(1)
    match.double(1)
    match.take(0)
    match.roll(1, (2, 1))
    match.play(1, _any_play(match, 1))
    match.resign(0, GameResult.SINGLE)
    events = match.accept_resignation(1)  # 2-1, the cube at 2: 2 points, the match 2-3
    assert ScoreChanged(1, 2, (2, 3)) in events and MatchWon(1, (2, 3)) in events


def test_no_second_crawford_game() -> None:
    match = Match(MatchOptions(length=3))
    resign_game(match, 0, GameResult.GAMMON)  # 2-0, Crawford game next
    resign_game(match, 1, GameResult.GAMMON)  # 2-2 after the Crawford game
    assert match.score == (2, 2)
    assert match.post_crawford and not match.crawford_game


def test_crawford_off() -> None:
    match = Match(MatchOptions(length=3, crawford=False))
    events = resign_game(match, 0, GameResult.GAMMON)
    assert events[-1] == GameStarted(2, False, False)


def test_holland_rule_in_post_crawford_games() -> None:
    match = Match(MatchOptions(length=3, holland=True))
    resign_game(match, 0, GameResult.GAMMON)  # 2-0
    resign_game(match, 1, GameResult.SINGLE)  # Crawford game: 2-1; post-Crawford next
    assert match.game.rules.holland_player == 1
    match.opening_roll(6, 5)
    match.play(0, _any_play(match, 0))
    with pytest.raises(RuleError) as err:
        match.double(1)
    assert err.value.reason is ActionReason.HOLLAND_RULE


def test_one_point_match_has_no_crawford_game() -> None:
    match = Match(MatchOptions(length=1))
    events = resign_game(match, 1, GameResult.SINGLE)
    assert MatchWon(1, (0, 1)) in events


def test_one_point_match_has_a_dead_cube() -> None:
    # FIBS rolls for the player at once in a 1-point match: nobody may double.
    match = Match(MatchOptions(length=1))
    match.opening_roll(6, 5)
    match.play(0, _any_play(match, 0))
    assert not match.may_double(1)
    assert not match.game.may_double_ever(0) and not match.game.may_double_ever(1)
    with pytest.raises(RuleError):
        match.double(1)


def test_gammon_from_four_one_wins_five_point_match_six_one() -> None:
    match = Match(MatchOptions(length=5))
    for winner in (0, 0, 0, 0, 1):  # 4-1 (the Crawford game among them)
        resign_game(match, winner, GameResult.SINGLE)
    assert match.score == (4, 1)
    events = resign_game(match, 0, GameResult.GAMMON)
    assert ScoreChanged(0, 2, (6, 1)) in events and MatchWon(0, (6, 1)) in events


def test_unlimited_match_never_ends_and_uses_money_options() -> None:
    options = MatchOptions(
        length=None, jacoby=True, beavers=True, auto_doubles_max=1, max_redoubles=3
    )
    match = Match(options)
    rules = match.game.rules
    assert (
        rules.jacoby,
        rules.beavers,
        rules.auto_doubles_max,
        rules.max_redoubles,
    ) == (
        True,
        True,
        1,
        3,
    )
    for _ in range(5):
        resign_game(match, 0, GameResult.BACKGAMMON)
    # Jacoby: the cube was never turned, so a backgammon resignation is worth 1
    assert match.score == (5, 0) and not match.over


def test_money_options_do_not_apply_to_a_match_to_a_length() -> None:
    match = Match(
        MatchOptions(
            length=7, jacoby=True, beavers=True, auto_doubles_max=3, max_redoubles=0
        )
    )
    rules = match.game.rules
    assert not rules.jacoby and not rules.beavers
    assert rules.auto_doubles_max == 0 and rules.max_redoubles is None


def test_gammon_with_the_cube() -> None:
    match = Match(MatchOptions(length=9))
    match.opening_roll(5, 6)
    match.play(1, _any_play(match, 1))
    match.double(0)
    match.take(1)
    match.roll(0, (2, 1))
    match.play(0, _any_play(match, 0))
    match.resign(1, GameResult.GAMMON)
    events = match.accept_resignation(0)
    assert GameWon(0, GameResult.GAMMON, 2, 4, WinKind.RESIGNED) in events
    assert match.score == (4, 0)


def test_serialisation_round_trip_through_json_during_random_matches() -> None:
    rng = random.Random(5)
    for options in (
        MatchOptions(length=5, holland=True),
        MatchOptions(length=None, jacoby=True, beavers=True, auto_doubles_max=2),
    ):
        match = Match(options)
        for i in range(600):
            if match.over:
                break
            step(match, rng, double_rate=0.05)
            if i % 7 == 0:
                saved = json.loads(json.dumps(match.to_dict()))
                restored = Match.from_dict(saved)
                assert restored == match
                assert restored.to_dict() == match.to_dict()


def test_from_dict_refuses_other_versions() -> None:
    data = Match(MatchOptions(length=3)).to_dict()
    data["version"] = 99
    with pytest.raises(ValueError):
        Match.from_dict(data)
    with pytest.raises(ValueError):
        Match.from_dict({"version": 1})
