"""Glicko-2 (fibsd/domain/glicko2.py) against the worked example of Glickman's paper
"Example of the Glicko-2 system" (2013)."""

from __future__ import annotations

import pytest

from fibsd.domain.glicko2 import Glicko2, rate


def test_the_papers_worked_example() -> None:
    player = Glicko2(1500.0, 200.0, 0.06)
    results = [(Glicko2(1400.0, 30.0), 1.0), (Glicko2(1550.0, 100.0), 0.0),
               (Glicko2(1700.0, 300.0), 0.0)]
    after = rate(player, results, tau=0.5)
    # The paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    after = rate(Glicko2(1500.0, 200.0, 0.06), [])
    assert after.rating == 1500.0 and after.deviation == pytest.approx(200.27, abs=0.01)


def test_a_win_raises_and_a_loss_lowers() -> None:
    start = Glicko2()
    assert rate(start, [(Glicko2(), 1.0)]).rating > 1500.0
    assert rate(start, [(Glicko2(), 0.0)]).rating < 1500.0
    assert rate(start, [(Glicko2(), 0.5)]).rating == pytest.approx(1500.0)
