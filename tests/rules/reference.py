"""A deliberately simple reference move generator, to check the fast one against.

Written straight from the rules, with no speed tricks: every order of the dice, one die
at a time, fresh copies of the board at every step, every legality condition checked
from scratch; then keep the plays that use the most dice, and the larger-die rule.
"""

from __future__ import annotations

from fibsd.rules.position import BAR, OFF, Position


def can_move(me: list[int], opp: list[int], src: int, die: int) -> bool:
    """May one checker move from `src` by `die` pips (ignoring the other dice)?"""
    if me[src] == 0:
        return False
    if me[BAR] > 0 and src != BAR:
        return False  # checkers on the bar must enter first
    dst = src - die
    if dst >= 1:
        return opp[25 - dst] < 2  # not onto a point the opponent holds
    # bearing off: every checker must be in the home board (points 1..6)
    if sum(me[7 : BAR + 1]) > 0:
        return False
    if dst == 0:
        return True
    # a larger die only from the highest occupied point
    return all(me[p] == 0 for p in range(src + 1, 7))


def apply_move(
    me: list[int], opp: list[int], src: int, die: int
) -> tuple[list[int], list[int]]:
    me = list(me)
    opp = list(opp)
    dst = max(src - die, OFF)
    me[src] -= 1
    me[dst] += 1
    if dst != OFF and opp[25 - dst] == 1:
        opp[25 - dst] = 0
        opp[BAR] += 1
    return me, opp


def reference_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """The distinct legal results of `dice` (the unchanged position if none)."""
    d1, d2 = dice
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    # breadth first, one die at a time; a set per step merges identical states, which
    # keeps doubles affordable without any cleverness about move order
    found: set[tuple[tuple[int, ...], Position]] = set()
    for order in orders:
        frontier: set[tuple[tuple[int, ...], Position]] = {((), position)}
        for die in order:
            found |= frontier
            following = set()
            for used, pos in frontier:
                me, opp = list(pos.me), list(pos.opp)
                for src in range(BAR, 0, -1):
                    if can_move(me, opp, src, die):
                        me2, opp2 = apply_move(me, opp, src, die)
                        following.add(
                            (used + (die,), Position(tuple(me2), tuple(opp2)))
                        )
            frontier = following
        found |= frontier
    most = max(len(used) for used, _ in found)
    best = [(used, result) for used, result in found if len(used) == most]
    if d1 != d2 and most == 1:
        larger = [(used, result) for used, result in best if used[0] == max(d1, d2)]
        if larger:
            best = larger
    return {result for _, result in best}
