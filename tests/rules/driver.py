"""A test driver that plays matches with scripted or random choices."""

from __future__ import annotations

import random

from fibsd.rules.events import Event, GameResult
from fibsd.rules.game import GamePhase
from fibsd.rules.match import Match
from fibsd.rules.movegen import legal_plays


def step(
    match: Match,
    rng: random.Random,
    double_rate: float = 0.1,
    resign_rate: float = 0.01,
) -> list[Event]:
    """One legal action chosen at random (doubling, taking, resigning now and then)."""
    game = match.game
    phase = game.phase
    if phase is GamePhase.OPENING:
        return match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    actor = game.actor()
    assert actor is not None
    if phase is GamePhase.AWAITING_ROLL:
        if match.may_double(actor) and rng.random() < double_rate:
            return match.double(actor)
        if rng.random() < resign_rate:
            # mostly singles, so that match scores grow a point at a time
            return match.resign(
                actor, rng.choice([GameResult.SINGLE] * 4 + list(GameResult))
            )
        return match.roll(actor, (rng.randint(1, 6), rng.randint(1, 6)))
    if phase is GamePhase.AWAITING_MOVE:
        assert game.dice is not None
        play = rng.choice(legal_plays(game.position_for(actor), game.dice))
        return match.play(actor, play)
    if phase is GamePhase.DOUBLE_OFFERED:
        r = rng.random()
        if r < 0.1 and match.options.beavers and match.length is None:
            return match.beaver(actor)
        return match.take(actor) if r < 0.75 else match.pass_double(actor)
    if phase is GamePhase.RESIGNATION_OFFERED:
        if rng.random() < 0.5:
            return match.accept_resignation(actor)
        return match.reject_resignation(actor)
    raise AssertionError(f"no action in {phase}")
