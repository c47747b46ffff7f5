"""Round robin by Berger tables: every pair meets once; a bye each round when odd.

The tables are FIDE's (Handbook C.05, Annex 1): with N players (N even; an odd field
adds a bye as player N), player N stays put and the others turn. Round 1 is 1-N, 2-(N-1),
3-(N-2), ...; each round the "pivot" who meets player N moves on by N/2 (mod N-1), and the
other tables pair pivot+k with pivot-k. Backgammon has no colours, but the order of the two
names is kept as the tables print it, so a reader can check a draw against them.
"""

from __future__ import annotations


def berger_rounds(players: int) -> list[list[tuple[int, int | None]]]:
    """All rounds of a round robin of `players`, as pairs of 1-based numbers.

    `None` stands for the bye (an odd field). N - 1 rounds of N/2 pairs each, N the field
    rounded up to even.

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    n = players + players % 2
    m = n - 1

    def wrap(number: int) -> int:
        return (number - 1) % m + 1

    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(m):
        pivot = wrap(1 + r * (n // 2))
        first: tuple[int, int] = (pivot, n) if r % 2 == 0 else (n, pivot)
        pairs = [first] + [(wrap(pivot + k), wrap(pivot - k)) for k in range(1, n // 2)]
        rounds.append([
            (a if a <= players else b, None) if a > players or b > players else (a, b)
            for a, b in pairs
        ])
    return rounds
