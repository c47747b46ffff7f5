"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013,
glicko.net/glicko/glicko2.pdf), used for puzzle ratings (issue 37, docs/puzzles.md).

Owns one rating period's update (`rate`) of a `Glicko2` rating from a list of results
against rated opponents, exactly as the paper's steps 1-8; tests/app/test_glicko2.py
checks its worked example. Pure arithmetic: no store, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import attrs

__all__ = ["DEFAULT", "TAU", "Glicko2", "rate"]

#: The paper's scale between the Glicko and the Glicko-2 units.
SCALE: Final = 173.7178
#: The system constant: how much the volatility may change (the paper: 0.3 to 1.2).
TAU: Final = 0.5
#: The convergence tolerance of the volatility's iteration (step 5).
EPSILON: Final = 0.000001


@attrs.frozen
class Glicko2:
    """A rating, its deviation (RD) and its volatility, in the Glicko scale."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


DEFAULT: Final = Glicko2()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Glicko2, results: Sequence[tuple[Glicko2, float]], *, tau: float = TAU) -> Glicko2:
    """`player`'s rating after one rating period of `results` (opponent, score 0..1)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:  # step 6 alone: the deviation grows
        return attrs.evolve(player, deviation=math.sqrt(phi * phi + sigma * sigma) * SCALE)
    # Step 3: the estimated variance v; step 4: the improvement delta.
    inverse_v = 0.0
    outcome = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.deviation / SCALE
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        outcome += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * outcome
    # Step 5: the new volatility (the Illinois algorithm).
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6-8: the new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * outcome
    return Glicko2(rating=new_mu * SCALE + 1500.0, deviation=new_phi * SCALE,
                   volatility=new_sigma)
