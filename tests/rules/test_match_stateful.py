"""Stateful tests over whole matches, checked against an independent model.

Hypothesis drives a match with legal actions (and random illegal ones, which must
change nothing); the model follows the events and predicts the score (results, cube,
Jacoby, full points even past the match length), the Crawford game (exactly once), post-Crawford
doubling and the Holland restriction.
"""

from __future__ import annotations

import json
import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from fibsd.rules.errors import ActionReason, RuleError
from fibsd.rules.events import (
    Beavered,
    CubeOffered,
    CubeTaken,
    Event,
    GameResult,
    GameStarted,
    GameWon,
    MatchWon,
    Raccooned,
    ResignationOffered,
    ScoreChanged,
    WinKind,
)
from fibsd.rules.game import GamePhase
from fibsd.rules.match import Match, MatchOptions
from fibsd.rules.position import OFF

from .driver import step

options_strategy = st.builds(
    MatchOptions,
    # mostly matches long enough for a Crawford game and post-Crawford games to happen
    length=st.sampled_from([5, 3, 7, 1, None]),
    crawford=st.sampled_from([True, True, False]),
    holland=st.sampled_from([True, False]),
    jacoby=st.booleans(),
    beavers=st.booleans(),
    auto_doubles_max=st.integers(0, 3),
    max_redoubles=st.one_of(st.none(), st.integers(0, 3)),
)


class MatchMachine(RuleBasedStateMachine):
    match: Match

    @initialize(options=options_strategy, seed=st.integers(0, 2**32 - 1))
    def start(self, options: MatchOptions, seed: int) -> None:
        self.match = Match(options)
        self.rng = random.Random(seed)
        self.score = [0, 0]
        self.crawford_games = 0
        self.post_crawford_seen = False
        self.cube_turned = False
        self.reached_match_point = False
        self.offered = 0
        self.resigned: GameResult | None = None

    # --- the model -------------------------------------------------------------------

    def follow(self, events: list[Event]) -> None:
        length = self.match.options.length
        money = length is None
        for e in events:
            if isinstance(e, (CubeTaken, Beavered, Raccooned)):
                self.cube_turned = True
            elif isinstance(e, CubeOffered):
                self.offered = e.cube
            elif isinstance(e, ResignationOffered):
                self.resigned = e.result
            elif isinstance(e, GameWon):
                self.check_result(e)
                value = e.result.value
                if money and self.match.options.jacoby and not self.cube_turned:
                    value = 1
                expected = value * e.cube
                assert e.points == expected
                self.score[e.winner] += expected  # full points, no cap at the length
            elif isinstance(e, ScoreChanged):
                assert e.score == tuple(self.score)
            elif isinstance(e, MatchWon):
                assert length is not None and self.score[e.winner] >= length
            elif isinstance(e, GameStarted):
                self.cube_turned = False
                expect_crawford = (
                    self.match.options.crawford
                    and length is not None
                    and not self.reached_match_point
                    and length - 1 in self.score
                )
                if length is not None and length - 1 in self.score:
                    self.reached_match_point = True
                assert e.crawford == expect_crawford
                if e.crawford:
                    self.crawford_games += 1
                assert e.post_crawford == (self.crawford_games == 1 and not e.crawford)
                if e.post_crawford:
                    self.post_crawford_seen = True

    def check_result(self, won: GameWon) -> None:
        """The result class, read off the finished game's checkers independently."""
        game = self.match.game if self.match.over else self.match.finished_games[-1]
        assert game.result == won
        if won.how is WinKind.BORNE_OFF:
            winner, loser = game.side(won.winner), game.side(1 - won.winner)
            assert winner[OFF] == 15
            if loser[OFF]:
                expected = GameResult.SINGLE
            elif any(loser[19:]):  # bar or the winner's home board
                expected = GameResult.BACKGAMMON
            else:
                expected = GameResult.GAMMON
            assert won.result is expected
        elif won.how is WinKind.DOUBLE_PASSED:
            assert won.result is GameResult.SINGLE and won.cube * 2 == self.offered
        else:
            assert won.result is self.resigned

    # --- rules -----------------------------------------------------------------------

    @rule(n=st.integers(1, 40))
    def play_on(self, n: int) -> None:
        for _ in range(n):
            if self.match.over:
                return
            self.check_doubling_rules()
            self.follow(step(self.match, self.rng, double_rate=0.1, resign_rate=0.08))

    @rule(quick=st.booleans())
    def play_a_whole_game(self, quick: bool) -> None:
        """To the end: quick games mostly end by a resignation or a pass, the others
        mostly by bearing off (gammons and backgammons included)."""
        number = self.match.game_number
        double_rate, resign_rate = (0.1, 0.08) if quick else (0.02, 0.0)
        while not self.match.over and self.match.game_number == number:
            self.check_doubling_rules()
            self.follow(step(self.match, self.rng, double_rate, resign_rate))

    @rule(
        action=st.sampled_from(
            [
                "roll",
                "double",
                "take",
                "pass_double",
                "beaver",
                "raccoon",
                "resign",
                "accept_resignation",
                "reject_resignation",
                "opening_roll",
                "move",
            ]
        ),
        player=st.integers(0, 1),
        d1=st.integers(0, 7),
        d2=st.integers(0, 7),
    )
    def try_anything(self, action: str, player: int, d1: int, d2: int) -> None:
        """Any action at all: if refused, nothing changed; if accepted, it was legal."""
        before = self.match.to_dict()
        try:
            if action == "roll":
                events = self.match.roll(player, (d1, d2))
            elif action == "opening_roll":
                events = self.match.opening_roll(d1, d2)
            elif action == "resign":
                events = self.match.resign(player, GameResult(1 + d1 % 3))
            elif action == "move":
                events = self.match.move(player, [(d1 + 18, d1 + 18 - d2)])
            else:
                events = getattr(self.match, action)(player)
        except RuleError:
            assert self.match.to_dict() == before
        else:
            self.follow(events)

    def check_doubling_rules(self) -> None:
        game = self.match.game
        if game.phase is not GamePhase.AWAITING_ROLL or game.turn is None:
            return
        player = game.turn
        reason = game.double_refusal(player)
        if self.match.crawford_game:
            assert reason is ActionReason.CRAWFORD_GAME
        if (
            self.match.options.holland
            and self.match.post_crawford
            and self.match.score[player] < self.match.score[1 - player]
            and game.turns_started[player] < 2
        ):
            assert reason is ActionReason.HOLLAND_RULE
        if (
            self.match.post_crawford
            and not self.match.options.holland
            and game.cube_owner in (None, player)
        ):
            assert reason is None  # post-Crawford doubling is allowed

    # --- invariants ------------------------------------------------------------------

    @invariant()
    def cube_is_a_power_of_two(self) -> None:
        cube = self.match.cube
        assert cube >= 1 and cube & (cube - 1) == 0

    @invariant()
    def score_follows_the_model(self) -> None:
        assert list(self.match.score) == self.score
        length = self.match.options.length
        if length is not None:
            # Full points are added, so the winner may pass the length; the loser never does.
            assert min(self.score) < length
            assert self.match.over == (max(self.score) >= length)
        else:
            assert not self.match.over

    @invariant()
    def crawford_at_most_once(self) -> None:
        assert self.crawford_games <= 1
        if self.match.options.length is None or not self.match.options.crawford:
            assert self.crawford_games == 0

    @invariant()
    def checkers_are_conserved(self) -> None:
        self.match.game.position_for(0).check()

    @invariant()
    def survives_a_json_round_trip(self) -> None:
        saved = json.loads(json.dumps(self.match.to_dict()))
        assert Match.from_dict(saved) == self.match


MatchMachine.TestCase.settings = settings(
    max_examples=15, stateful_step_count=25, deadline=None
)
TestMatchMachine = MatchMachine.TestCase
