"""Knockout brackets: seeding, byes to the top seeds, and the consolation bracket.

Seeds are 1-based (1 is the best-rated entrant). A bracket of `size` (the next power of
two) slots lists the seeds in the standard order, so that seeds 1 and 2 can meet only in
the final, 1-4 only in a semi-final, and so on: 1 v size, then the winner against the
winner of (size/2) v (size/2 + 1). Seeds beyond the field are byes, so byes always fall to
the top seeds, one each.
"""

from __future__ import annotations


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds `entrants` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of `size` slots (a power of two).

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two slots, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for own in order for seed in (own, total - own)]
    return order


def first_round(entrants: int) -> list[tuple[int, int | None]]:
    """The first round's pairings, by seed, in bracket order; `None` is a bye.

    >>> first_round(5)
    [(1, None), (4, 5), (2, None), (3, None)]
    """
    if entrants < 2:
        raise ValueError("a knockout needs at least two entrants")
    order = bracket_order(bracket_size(entrants))
    pairs: list[tuple[int, int | None]] = []
    for index in range(0, len(order), 2):
        a, b = order[index], order[index + 1]
        pairs.append((a, b if b <= entrants else None))
    return pairs


def rounds_needed(entrants: int) -> int:
    """How many rounds a knockout of `entrants` takes (log2 of the bracket size)."""
    return bracket_size(entrants).bit_length() - 1
