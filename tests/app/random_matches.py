"""Complete random legal matches played through `fibsd.rules.Match`, for export tests.

Seeded `random.Random` only: the same seed always plays the same match.
"""

from __future__ import annotations

import random

from fibsd.rules import GamePhase, GameResult, Match, MatchOptions, legal_plays


def _dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def play_match(
    rng: random.Random,
    options: MatchOptions,
    *,
    max_games: int = 30,
    double_chance: float = 0.08,
    take_chance: float = 0.6,
    resign_chance: float = 0.004,
    beaver_chance: float = 0.3,
    max_cube: int = 16,
) -> Match:
    """Play until the match is over (or, for money, `max_games` games are over).

    Actions are random but legal: cube actions and resignations (sometimes rejected)
    happen at the given chances, plays are drawn from the legal ones. Nobody doubles
    beyond `max_cube` (GNU Backgammon crashes on games worth hundreds of points).
    """
    match = Match(options)
    while not match.over and len(match.finished_games) < max_games:
        game = match.game
        phase = match.phase
        if phase is GamePhase.OPENING:
            match.opening_roll(*_dice(rng))
        elif phase is GamePhase.AWAITING_ROLL:
            player = match.turn
            assert player is not None
            if rng.random() < resign_chance:
                match.resign(player, rng.choice(list(GameResult)))
            elif (
                match.may_double(player)
                and match.cube < max_cube
                and rng.random() < double_chance
            ):
                match.double(player)
            else:
                match.roll(player, _dice(rng))
        elif phase is GamePhase.AWAITING_MOVE:
            player = match.turn
            assert player is not None and match.dice is not None
            if rng.random() < resign_chance:
                match.resign(rng.choice((0, 1)), rng.choice(list(GameResult)))
                continue
            plays = legal_plays(game.position_for(player), match.dice)
            match.play(player, rng.choice(plays))
        elif phase is GamePhase.DOUBLE_OFFERED:
            assert match.turn is not None
            taker = 1 - match.turn
            if game.rules.beavers and rng.random() < beaver_chance:
                match.beaver(taker)
                if rng.random() < 0.5:
                    match.raccoon(match.turn)
            elif rng.random() < take_chance:
                match.take(taker)
            else:
                match.pass_double(taker)
        elif phase is GamePhase.RESIGNATION_OFFERED:
            resignation = game.resignation
            assert resignation is not None
            answerer = 1 - resignation[0]
            if rng.random() < 0.7:
                match.accept_resignation(answerer)
            else:
                match.reject_resignation(answerer)
        else:  # pragma: no cover - a finished game is replaced by the next at once
            raise AssertionError(phase)
    return match
