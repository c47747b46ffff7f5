"""Positions for tests: random ones (seeded `random.Random`) and hypothesis strategies.

Kinds are mixed so that the rare rules get exercised: checkers on the bar, bear-offs,
blocked boards, and positions from random games.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from fibsd.rules.movegen import legal_plays
from fibsd.rules.position import BAR, CHECKERS, Position


def _fill(rng: random.Random, slots: list[int], weights: list[float]) -> list[int]:
    side = [0] * (BAR + 1)
    for slot in rng.choices(slots, weights=weights, k=CHECKERS):
        side[slot] += 1
    return side


def random_position(rng: random.Random) -> Position:
    """One position of a randomly chosen kind (always valid; see also
    `random_game_positions` for positions from play)."""
    kind = rng.random()
    # the mover's checkers: anywhere, mostly home (bear-off), or with some on the bar
    if kind < 0.35:
        slots, weights = list(range(7)), [1.0] * 7  # all home: bear-off
    elif kind < 0.5:
        slots, weights = list(range(8)), [1.0] * 7 + [0.3]  # nearly all home
    elif kind < 0.7:
        slots, weights = list(range(BAR + 1)), [0.5] + [1.0] * 24 + [3.0]  # bar-heavy
    else:
        slots, weights = list(range(BAR + 1)), [0.3] + [1.0] * 25
    me = _fill(rng, slots, weights)
    # the opponent (own perspective q = mover's 25 - q) only where the mover is not;
    # weighting its home board builds blocking boards against the mover's bar checkers
    free = [q for q in range(BAR + 1) if q in (0, BAR) or me[25 - q] == 0]
    opp_weights = [3.0 if 19 <= q <= 24 and rng.random() < 0.5 else 1.0 for q in free]
    opp = _fill(rng, free, opp_weights)
    return Position(tuple(me), tuple(opp))


def random_dice(rng: random.Random) -> tuple[int, int]:
    """Two fair dice (doubles 1 time in 6, about 1,700 in the 10,000-case test)."""
    return rng.randint(1, 6), rng.randint(1, 6)


def random_game_positions(rng: random.Random, count: int) -> list[Position]:
    """`count` positions met along random games from the opening (each on roll)."""
    out: list[Position] = []
    pos = Position.opening()
    while len(out) < count:
        out.append(pos)
        play = rng.choice(legal_plays(pos, random_dice(rng)))
        pos = (
            Position.opening()
            if play.result.me[0] == CHECKERS
            else play.result.swapped()
        )
    return out


_GAME_POOL = random_game_positions(random.Random(7), 1500)


positions = st.one_of(
    st.builds(random_position, st.randoms(use_true_random=False)),
    st.sampled_from(_GAME_POOL),
)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
