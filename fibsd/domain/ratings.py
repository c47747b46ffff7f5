"""FIBS's rating formula (reference §8) and the calculation block players see (§6.9).

Owns the arithmetic of one finished match's rating change: the rating difference D,
the underdog's winning chance Pu, the P actually used, each player's K factor and
change, and the new ratings and experiences. Pure: no store, no clock, no protocol
state; the block is worded through `protocol.wording`. Unlimited (money) matches never
change ratings, so they never call this module.

    n      = match length
    D      = |r_winner - r_loser|
    Pu     = 1 / (10^(D*sqrt(n)/2000) + 1)        the underdog's chance
    P      = 1 - Pu if the underdog won, Pu if the favourite won
    K(exp) = max(1, 5 - exp/100)                  experience before the match
    winner += 4*K_w*sqrt(n)*P ; loser -= 4*K_l*sqrt(n)*P ; both gain n experience
"""

from __future__ import annotations

import math

import attrs

from protocol.wording import RatingChange, rating_calculation_lines

#: Below this experience a player's changes are amplified (K > 1); FIBS's "experienced".
EXPERIENCED: int = 400


def k_factor(experience: int) -> float:
    """FIBS's K = max(1, -experience/100 + 5): 5 for a new player, 1 from 400 on."""
    return max(1.0, -experience / 100 + 5)


def underdog_probability(difference: float, match_length: int) -> float:
    """Pu = 1/(10^(D*sqrt(N)/2000)+1): the lower-rated player's chance to win."""
    return 1.0 / (10 ** (difference * math.sqrt(match_length) / 2000) + 1)


@attrs.frozen
class RatingChangeResult:
    """Every number of one match's rating calculation, as the §6.9 block prints them.

    `winner_change` is >= 0 and `loser_change` <= 0 (the loser's is already negative).
    When the ratings are equal the winner counts as the favourite (P = Pu = 1/2 either
    way, so the choice changes nothing).
    """

    match_length: int
    difference: float  # D
    probability_underdog: float  # Pu
    probability: float  # P
    underdog_won: bool
    winner_k: float
    loser_k: float
    winner_change: float
    loser_change: float
    winner_rating: float  # after the match
    loser_rating: float
    winner_experience: int  # after the match (before + match length)
    loser_experience: int
    winner_experience_before: int
    loser_experience_before: int


def rating_change(
    *,
    winner_rating: float,
    winner_experience: int,
    loser_rating: float,
    loser_experience: int,
    match_length: int,
) -> RatingChangeResult:
    """The rating change of a finished match of `match_length` points (>= 1)."""
    if match_length < 1:
        raise ValueError(f"only finished matches of 1 point or more are rated, not {match_length}")
    if winner_experience < 0 or loser_experience < 0:
        raise ValueError("experience cannot be negative")
    difference = abs(winner_rating - loser_rating)
    pu = underdog_probability(difference, match_length)
    underdog_won = winner_rating < loser_rating
    p = 1 - pu if underdog_won else pu
    root = math.sqrt(match_length)
    winner_k = k_factor(winner_experience)
    loser_k = k_factor(loser_experience)
    winner_change = 4 * winner_k * root * p
    loser_change = -4 * loser_k * root * p
    return RatingChangeResult(
        match_length=match_length,
        difference=difference,
        probability_underdog=pu,
        probability=p,
        underdog_won=underdog_won,
        winner_k=winner_k,
        loser_k=loser_k,
        winner_change=winner_change,
        loser_change=loser_change,
        winner_rating=winner_rating + winner_change,
        loser_rating=loser_rating + loser_change,
        winner_experience=winner_experience + match_length,
        loser_experience=loser_experience + match_length,
        winner_experience_before=winner_experience,
        loser_experience_before=loser_experience,
    )


def rating_calculation_block(
    result: RatingChangeResult, *, winner_name: str, loser_name: str
) -> list[str]:
    """The `rating calculation:` lines (ending with an empty line) of §6.9.

    FIBS lists the winner first; experiences are those before the match, as K uses them.
    """
    return rating_calculation_lines(
        difference=result.difference,
        match_length=result.match_length,
        probability_underdog=result.probability_underdog,
        probability=result.probability,
        winner=RatingChange(
            name=winner_name,
            experience=result.winner_experience_before,
            k=result.winner_k,
            change=result.winner_change,
        ),
        loser=RatingChange(
            name=loser_name,
            experience=result.loser_experience_before,
            k=result.loser_k,
            change=result.loser_change,
        ),
    )
