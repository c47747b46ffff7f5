"""Legal plays: every distinct result of a roll, and the queries built on them.

Owns `Move`, `Play`, `legal_plays`, `moves_required`, `forced_play`, `greedy_bearoff`
and `single_moves` (the one-die steps available now, which validation reuses). Knows the
rules of moving checkers and nothing of games, players, the cube or the protocol.

The rules, all applied here: each die is a separate move of one checker forward; a
checker may land on a point unless the opponent holds it with two or more; a single
opposing checker there is hit and goes to its bar; checkers on the bar enter first
(mover's point 25 - die); bearing off only with all checkers home, with the exact die or
a larger die from the highest occupied point; the mover must use as many dice as
possible, and when only one of two different dice can be used, the larger if it can.

Speed matters (the server validates every play and the bots generate thousands), so the
search works on two mutable lists with do/undo instead of copying, keeps a running count
of checkers outside the home board, and for doubles only generates moves whose source
points never increase (every set of moves of one die size can be played in that order if
in any, so this misses no result and avoids most duplicate orders).
"""

from __future__ import annotations

from typing import NamedTuple

from .position import BAR, OFF, Position

__all__ = [
    "Move",
    "Play",
    "legal_plays",
    "moves_required",
    "forced_play",
    "greedy_bearoff",
    "has_legal_play",
    "single_moves",
]


class Move(NamedTuple):
    """One checker stepping by one die, in the mover's perspective (BAR/OFF named)."""

    from_point: int
    to_point: int
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.from_point == BAR else str(self.from_point)
        dst = "off" if self.to_point == OFF else str(self.to_point)
        return f"{src}-{dst}{'*' if self.hit else ''}"


class Play(NamedTuple):
    """All moves of one roll, in the order played, and the position they lead to.

    `result` is still from the mover's perspective (the mover is `result.me`); the
    opponent to roll next sees `result.swapped()`.
    """

    moves: tuple[Move, ...]
    result: Position


def _sources(me: list[int], opp: list[int], d: int, outside: int) -> list[int]:
    """Points from which a checker may move `d` pips now, highest first."""
    if me[BAR]:
        return [BAR] if opp[d] < 2 else []
    # opp index of the target point p - d is 25 - (p - d)
    srcs = [p for p in range(24, d, -1) if me[p] and opp[25 - p + d] < 2]
    if outside == 0:
        if me[d]:
            srcs.append(d)
        else:
            # a larger die bears off from the highest occupied point only
            for p in range(d - 1, 0, -1):
                if me[p]:
                    # p is highest only if nothing stands on p+1..6 (d..6 is empty
                    # except possibly above d, which the loop above already moved)
                    if not any(me[d + 1 : 7]):
                        srcs.append(p)
                    break
    return srcs


def _apply(me: list[int], opp: list[int], p: int, d: int) -> tuple[int, bool]:
    """Move one checker from p by d in place; return (target, hit)."""
    t = p - d
    if t < 0:
        t = OFF
    me[p] -= 1
    me[t] += 1
    if t and opp[25 - t] == 1:
        opp[25 - t] = 0
        opp[BAR] += 1
        return t, True
    return t, False


def _undo(me: list[int], opp: list[int], p: int, t: int, hit: bool) -> None:
    me[t] -= 1
    me[p] += 1
    if hit:
        opp[BAR] -= 1
        opp[25 - t] = 1


def _outside(me: list[int]) -> int:
    return sum(me[7:])


def single_moves(position: Position, die: int) -> list[Move]:
    """The one-checker moves of `die` pips possible in `position` (ignoring the other
    dice, so not necessarily part of a legal play)."""
    me = list(position.me)
    opp = list(position.opp)
    out = []
    for p in _sources(me, opp, die, _outside(me)):
        t = p - die if p - die > 0 else OFF
        out.append(Move(p, t, bool(t and opp[25 - t] == 1)))
    return out


def _non_doubles(position: Position, d1: int, d2: int) -> list[Play]:
    me = list(position.me)
    opp = list(position.opp)
    outside0 = _outside(me)
    full: dict[Position, tuple[Move, ...]] = {}
    singles: dict[int, dict[Position, tuple[Move, ...]]] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        for p in _sources(me, opp, a, outside0):
            t, hit = _apply(me, opp, p, a)
            m1 = Move(p, t, hit)
            outside1 = outside0 - 1 if p > 6 >= t else outside0
            srcs = _sources(me, opp, b, outside1) if me[OFF] < 15 else []
            if srcs:
                for q in srcs:
                    u, hit2 = _apply(me, opp, q, b)
                    key = Position(tuple(me), tuple(opp))
                    if key not in full:
                        full[key] = (m1, Move(q, u, hit2))
                    _undo(me, opp, q, u, hit2)
            elif not full:
                key = Position(tuple(me), tuple(opp))
                singles[a].setdefault(key, (m1,))
            _undo(me, opp, p, t, hit)
    if full:
        return [Play(m, k) for k, m in full.items()]
    larger = d1 if d1 > d2 else d2
    smaller = d2 if larger == d1 else d1
    # only one die can be used: the larger one if it can be, else the smaller
    chosen = singles[larger] or singles[smaller]
    if chosen:
        return [Play(m, k) for k, m in chosen.items()]
    return [Play((), position)]


def _doubles(position: Position, d: int) -> list[Play]:
    me = list(position.me)
    opp = list(position.opp)
    found: dict[Position, tuple[Move, ...]] = {}
    best = [0]
    moves: list[Move] = []

    def search(max_from: int, left: int, outside: int) -> None:
        srcs: list[int] = []
        if left and me[OFF] < 15:
            srcs = [p for p in _sources(me, opp, d, outside) if p <= max_from]
        if not srcs:
            n = len(moves)
            if n >= best[0]:
                key = Position(tuple(me), tuple(opp))
                if n > best[0]:
                    best[0] = n
                    found.clear()
                if key not in found:
                    found[key] = tuple(moves)
            return
        for p in srcs:
            t, hit = _apply(me, opp, p, d)
            moves.append(Move(p, t, hit))
            search(p, left - 1, outside - 1 if p > 6 >= t else outside)
            moves.pop()
            _undo(me, opp, p, t, hit)

    search(BAR, 4, _outside(me))
    return [Play(m, k) for k, m in found.items()]


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal result of `dice` for the side on roll, one `Play` each.

    When no checker can move, the single play with no moves and the unchanged position
    (so the list is never empty; `moves_required` is then 0).
    """
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be 1..6: {dice}")
    if d1 == d2:
        return _doubles(position, d1)
    return _non_doubles(position, d1, d2)


def _max_dice(position: Position, dice: tuple[int, int]) -> int:
    """How many dice can be used, searching only until the whole roll fits."""
    d1, d2 = dice
    me = list(position.me)
    opp = list(position.opp)
    outside0 = _outside(me)
    if d1 != d2:
        best = 0
        for a, b in ((d1, d2), (d2, d1)):
            for p in _sources(me, opp, a, outside0):
                best = 1
                t, hit = _apply(me, opp, p, a)
                outside1 = outside0 - 1 if p > 6 >= t else outside0
                ok = me[OFF] < 15 and bool(_sources(me, opp, b, outside1))
                _undo(me, opp, p, t, hit)
                if ok:
                    return 2
        return best

    def search(max_from: int, left: int, outside: int) -> int:
        if not left or me[OFF] == 15:
            return 0
        best = 0
        for p in _sources(me, opp, d1, outside):
            if p > max_from:
                continue
            t, hit = _apply(me, opp, p, d1)
            n = 1 + search(p, left - 1, outside - 1 if p > 6 >= t else outside)
            _undo(me, opp, p, t, hit)
            if n > best:
                best = n
                if n == left:
                    break
        return best

    return search(BAR, 4, outside0)


def moves_required(position: Position, dice: tuple[int, int]) -> int:
    """How many moves (dice) the mover must play: 0..2, or 0..4 for doubles.

    This is FIBS's "Please move N pieces" number and the board line's can-move field.
    """
    return _max_dice(position, dice)


def has_legal_play(position: Position, dice: tuple[int, int]) -> bool:
    """False when the roll cannot be played at all (the turn passes)."""
    d1, d2 = dice
    pos_me = list(position.me)
    pos_opp = list(position.opp)
    outside = _outside(pos_me)
    return bool(
        _sources(pos_me, pos_opp, d1, outside) or _sources(pos_me, pos_opp, d2, outside)
    )


def forced_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """The play when exactly one distinct legal result exists and it moves something.

    None when there is a choice, and also when nothing can be moved (then the turn
    simply passes: see `has_legal_play`).
    """
    plays = legal_plays(position, dice)
    if len(plays) == 1 and plays[0].moves:
        return plays[0]
    return None


def greedy_bearoff(position: Position, dice: tuple[int, int]) -> Play | None:
    """A legal play in which every move bears a checker off, if one exists (FIBS's
    `greedy` toggle plays it automatically), else None."""
    if _outside(list(position.me)):
        return None
    for play in legal_plays(position, dice):
        if play.moves and all(m.to_point == OFF for m in play.moves):
            return play
    return None
