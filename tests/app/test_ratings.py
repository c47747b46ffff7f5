"""FIBS's rating formula (reference §8) and its calculation block (§6.9)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fibsd.domain.ratings import k_factor, rating_calculation_block, rating_change

# The reference's worked example: D = 155.634835, n = 3, "myself" (experience 2761) is
# the favourite and wins against "someplayer" (experience 187).
EXAMPLE_BLOCK = [
    "rating calculation:",
    "rating difference D=155.634835",
    "match length      N=3",
    "Experience: myself 2761 - someplayer 187",
    "Probability that underdog wins: Pu=1/(10^(D*sqrt(N)/2000)+1)=0.423029",
    "P=0.423029 is 1-Pu if underdog wins and Pu if favorite wins",
    "K=max(1 , -Experience/100+5) for myself: 1.000000",
    "change for myself: 4*K*sqrt(N)*P=2.930831",
    "K=max(1 , -Experience/100+5) for someplayer: 3.130000",
    "change for someplayer: -4*K*sqrt(N)*P=-9.173502",
    "",
]


def test_worked_example_numbers() -> None:
    result = rating_change(
        winner_rating=1655.634835, winner_experience=2761,
        loser_rating=1500.0, loser_experience=187, match_length=3,
    )
    assert result.difference == pytest.approx(155.634835)
    assert result.probability_underdog == pytest.approx(0.423029, abs=5e-7)
    assert not result.underdog_won
    assert result.probability == result.probability_underdog
    assert result.winner_k == 1.0
    assert result.loser_k == pytest.approx(3.13)
    assert result.winner_change == pytest.approx(2.930831, abs=5e-7)
    assert result.loser_change == pytest.approx(-9.173502, abs=5e-7)
    assert result.winner_rating == pytest.approx(1655.634835 + 2.930831, abs=1e-6)
    assert result.loser_rating == pytest.approx(1500.0 - 9.173502, abs=1e-6)
    assert (result.winner_experience, result.loser_experience) == (2764, 190)


def test_worked_example_block_is_the_reference_text() -> None:
    result = rating_change(
        winner_rating=1655.634835, winner_experience=2761,
        loser_rating=1500.0, loser_experience=187, match_length=3,
    )
    block = rating_calculation_block(result, winner_name="myself", loser_name="someplayer")
    assert block == EXAMPLE_BLOCK


def test_underdog_win_uses_one_minus_pu() -> None:
    result = rating_change(
        winner_rating=1500.0, winner_experience=187,
        loser_rating=1655.634835, loser_experience=2761, match_length=3,
    )
    assert result.underdog_won
    assert result.probability == pytest.approx(1 - 0.423029, abs=5e-7)
    # The underdog gains more than the favourite would have.
    assert result.winner_change == pytest.approx(4 * 3.13 * math.sqrt(3) * (1 - 0.423029), abs=1e-5)
    assert result.loser_change == pytest.approx(-4 * math.sqrt(3) * (1 - 0.423029), abs=1e-5)


def test_equal_ratings_one_point_experienced_is_two_points() -> None:
    result = rating_change(
        winner_rating=1500.0, winner_experience=500,
        loser_rating=1500.0, loser_experience=1000, match_length=1,
    )
    assert result.probability == 0.5
    assert f"{result.winner_rating:.2f}" == "1502.00"
    assert f"{result.loser_rating:.2f}" == "1498.00"
    assert (result.winner_change, result.loser_change) == (2.0, -2.0)


@pytest.mark.parametrize(
    ("experience", "k"),
    [(0, 5.0), (1, 4.99), (100, 4.0), (187, 3.13), (300, 2.0), (399, 1.01), (400, 1.0),
     (401, 1.0), (2761, 1.0)],
)
def test_k_factor_falls_linearly_from_five_to_one_at_400(experience: int, k: float) -> None:
    assert k_factor(experience) == pytest.approx(k)


def test_new_players_change_five_times_as_much() -> None:
    result = rating_change(
        winner_rating=1500.0, winner_experience=0,
        loser_rating=1500.0, loser_experience=0, match_length=1,
    )
    assert (result.winner_change, result.loser_change) == (10.0, -10.0)
    assert (result.winner_experience, result.loser_experience) == (1, 1)


def test_zero_length_is_refused() -> None:
    with pytest.raises(ValueError):
        rating_change(winner_rating=1500, winner_experience=0, loser_rating=1500,
                      loser_experience=0, match_length=0)


ratings = st.floats(min_value=500.0, max_value=2500.0, allow_nan=False)
experiences = st.integers(min_value=0, max_value=20000)
lengths = st.integers(min_value=1, max_value=99)


@given(ratings, experiences, ratings, experiences, lengths)
def test_changes_follow_the_formula(
    rw: float, ew: int, rl: float, el: int, n: int
) -> None:
    result = rating_change(
        winner_rating=rw, winner_experience=ew, loser_rating=rl, loser_experience=el,
        match_length=n,
    )
    # An independent restatement of §8.
    pu = 1 / (10 ** (abs(rw - rl) * math.sqrt(n) / 2000) + 1)
    p = 1 - pu if rw < rl else pu
    kw, kl = max(1, 5 - ew / 100), max(1, 5 - el / 100)
    assert result.winner_rating == pytest.approx(rw + 4 * kw * math.sqrt(n) * p)
    assert result.loser_rating == pytest.approx(rl - 4 * kl * math.sqrt(n) * p)
    assert result.winner_rating - rw == pytest.approx(result.winner_change)
    assert result.loser_rating - rl == pytest.approx(result.loser_change)
    assert (result.winner_experience, result.loser_experience) == (ew + n, el + n)
    # The winner never loses and the loser never gains.
    assert result.winner_change > 0 > result.loser_change
    assert 0 < result.probability_underdog <= 0.5
    # The sum is zero between equally experienced players and otherwise has the sign
    # of K_w - K_l: points are created only by inexperience.
    total = result.winner_change + result.loser_change
    if kw == kl:
        assert total == pytest.approx(0, abs=1e-9)
    elif kw > kl:
        assert total > 0
    else:
        assert total < 0
    # An upset is worth more than the expected result.
    if rw < rl:
        assert result.probability >= 0.5
    else:
        assert result.probability <= 0.5


@given(ratings, experiences, ratings, experiences, lengths)
def test_block_has_ten_lines_and_an_empty_one(
    rw: float, ew: int, rl: float, el: int, n: int
) -> None:
    result = rating_change(
        winner_rating=rw, winner_experience=ew, loser_rating=rl, loser_experience=el,
        match_length=n,
    )
    block = rating_calculation_block(result, winner_name="a", loser_name="b")
    assert len(block) == 11 and block[-1] == ""
    assert block[3] == f"Experience: a {ew} - b {el}"
    assert block[7].startswith("change for a: 4*K*sqrt(N)*P=")
    assert block[9].startswith("change for b: -4*K*sqrt(N)*P=-")
