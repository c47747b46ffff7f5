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
search works on two mutable lists with do/undo instead of copying, and the common case
(nothing on the bar, no bear-off possible within the roll: the opponent's blocks are then
fixed) has its own loops: non-doubles generate each result once with a cheap key for the
few plays that can coincide; doubles generate only moves whose source points never
increase (every set of moves of one size can be played in that order if in any), and
each such sequence is a distinct result, so nothing needs deduplicating. Bar and bear-off
positions use a general do/undo search with deduplication by resulting position. All of
it is checked against GNU Backgammon's results and a simple reference generator.
"""

from __future__ import annotations

from typing import NamedTuple

from .position import BAR, OFF, Position, Side

__all__ = [
    "Move",
    "Play",
    "forced_play",
    "greedy_bearoff",
    "has_legal_play",
    "legal_plays",
    "moves_required",
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
                    # p is the highest occupied point unless a checker stands on
                    # d+1..6 (me[d] is empty and p+1..d-1 were just scanned)
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


RawMove = tuple[int, int, bool]
Found = dict[tuple[Side, Side], tuple[RawMove, ...]]

# NamedTuple construction goes through a Python-level __new__; the generator makes
# thousands of plays, so it builds them with tuple.__new__ directly (same objects), and
# takes each Move from a table of all 26 x 26 x 2 possible ones instead of creating it.
_new = tuple.__new__
_MOVES: dict[RawMove, Move] = {
    (f, t, h): Move(f, t, h)
    for f in range(BAR + 1)
    for t in range(BAR + 1)
    for h in (False, True)
}
_move = _MOVES.__getitem__
# _STEPS[d][hit][p]: the Move of d pips from board point p (p > d), for list lookups
# in the innermost loops
_STEPS: list[tuple[list[Move], list[Move]]] = [
    (
        [_MOVES[(p, max(p - d, 0), False)] for p in range(BAR + 1)],
        [_MOVES[(p, max(p - d, 0), True)] for p in range(BAR + 1)],
    )
    for d in range(7)
]


def build_play(moves: tuple[RawMove, ...], me: Side, opp: Side) -> Play:
    """A Play from raw (from, to, hit) moves and the resulting sides (no checks)."""
    return _new(Play, (tuple(map(_move, moves)), _new(Position, (me, opp))))


def _plays(found: Found) -> list[Play]:
    return [build_play(moves, key[0], key[1]) for key, moves in found.items()]


def _non_doubles(position: Position, d1: int, d2: int) -> list[Play]:
    me0 = position.me
    if me0[BAR] or sum(me0[7:]) < 2:
        return _non_doubles_general(position, d1, d2)
    # The common case: nothing on the bar and at least two checkers outside the home
    # board, so no bear-off can happen within the roll, the opponent's blocks are fixed,
    # and which points a die can move from changes only at the points a move touches.
    #
    # Every play is generated once with the dice in the order (d1, d2). With (d2, d1)
    # only one checker moving on with both dice can give anything new: two different
    # checkers could have moved in the other order too. Two plays of the first order
    # reach the same result only when one checker moves on (p -> t -> u) and when a
    # checker fills the point another left (q -> p, p -> t); those, and the chains of
    # the second order, are told apart by a small key: the net move and the hit points.
    opp0 = position.opp
    me = list(me0)
    src1 = [p for p in range(24, d1, -1) if me0[p] and opp0[25 - p + d1] < 2]
    src2 = [p for p in range(24, d2, -1) if me0[p] and opp0[25 - p + d2] < 2]
    seen: set[int] = set()
    plays: list[Play] = []
    a, b = d1, d2
    steps_a, steps_b = _STEPS[a], _STEPS[b]
    for p in src1:
        t = p - a
        hit1 = opp0[25 - t] == 1
        me[p] -= 1
        me[t] += 1
        # sources for b: as before, less p if emptied, plus t if newly occupied
        srcs = src2 if me[p] else [q for q in src2 if q != p]
        if me[t] == 1 and t > b and opp0[25 - t + b] < 2:
            srcs = srcs + [t]
        for q in srcs:
            u = q - b
            hit2 = opp0[25 - u] == 1 and not (hit1 and u == t)
            if q == t or u == p:
                key = (p * 32 + u if q == t else q * 32 + t) | (
                    (hit1 << t) | (hit2 << u)
                ) << 10
                if key in seen:
                    continue
                seen.add(key)
            me[q] -= 1
            me[u] += 1
            result = tuple(me)
            me[u] -= 1
            me[q] += 1
            if hit1 or hit2:
                opp = list(opp0)
                if hit1:
                    opp[25 - t] = 0
                    opp[BAR] += 1
                if hit2:
                    opp[25 - u] = 0
                    opp[BAR] += 1
                opp_t = tuple(opp)
            else:
                opp_t = opp0
            plays.append(
                _new(
                    Play,
                    (
                        (steps_a[hit1][p], steps_b[hit2][q]),
                        _new(Position, (result, opp_t)),
                    ),
                )
            )
        me[t] -= 1
        me[p] += 1
    if not plays:
        # no way to use both dice in this order (rare): the general search applies
        # the one-die rules
        return _non_doubles_general(position, d1, d2)
    a, b = d2, d1
    steps_a, steps_b = _STEPS[a], _STEPS[b]
    for q in src2:
        t = q - a
        if me0[t] or t <= b or opp0[25 - t + b] >= 2:
            continue
        u = t - b
        hit1 = opp0[25 - t] == 1
        hit2 = opp0[25 - u] == 1
        key = (q * 32 + u) | ((hit1 << t) | (hit2 << u)) << 10
        if key in seen:
            continue
        seen.add(key)
        me[q] -= 1
        me[u] += 1
        result = tuple(me)
        me[u] -= 1
        me[q] += 1
        if hit1 or hit2:
            opp = list(opp0)
            if hit1:
                opp[25 - t] = 0
                opp[BAR] += 1
            if hit2:
                opp[25 - u] = 0
                opp[BAR] += 1
            opp_t = tuple(opp)
        else:
            opp_t = opp0
        plays.append(
            _new(
                Play,
                ((steps_a[hit1][q], steps_b[hit2][t]), _new(Position, (result, opp_t))),
            )
        )
    return plays


def _one_die(
    position: Position, d1: int, d2: int, singles: dict[int, Found]
) -> list[Play]:
    """Only one die can be used: the larger one if it can be, else the smaller."""
    larger = max(d2, d1)
    smaller = d2 if larger == d1 else d1
    chosen = singles[larger] or singles[smaller]
    if chosen:
        return _plays(chosen)
    return [Play((), position)]


def _non_doubles_general(position: Position, d1: int, d2: int) -> list[Play]:
    """Any position, including the bar and bear-offs."""
    me = list(position.me)
    opp = list(position.opp)
    outside0 = _outside(me)
    full: Found = {}
    singles: dict[int, Found] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        for p in _sources(me, opp, a, outside0):
            t, hit = _apply(me, opp, p, a)
            outside1 = outside0 - 1 if p > 6 >= t else outside0
            srcs = _sources(me, opp, b, outside1) if me[OFF] < 15 else []
            if srcs:
                for q in srcs:
                    u, hit2 = _apply(me, opp, q, b)
                    key = (tuple(me), tuple(opp))
                    if key not in full:
                        full[key] = ((p, t, hit), (q, u, hit2))
                    _undo(me, opp, q, u, hit2)
            elif not full:
                singles[a].setdefault((tuple(me), tuple(opp)), ((p, t, hit),))
            _undo(me, opp, p, t, hit)
    if full:
        return _plays(full)
    return _one_die(position, d1, d2, singles)


def _doubles(position: Position, d: int) -> list[Play]:
    me = list(position.me)
    opp = list(position.opp)
    entered: list[RawMove] = []
    if me[BAR]:
        # entering is forced: as many checkers as the roll allows, all from the bar
        if opp[d] >= 2:
            return [Play((), position)]
        t = 25 - d
        while me[BAR] and len(entered) < 4:
            hit = opp[d] == 1
            me[BAR] -= 1
            me[t] += 1
            if hit:
                opp[d] = 0
                opp[BAR] += 1
            entered.append((BAR, t, hit))
    left = 4 - len(entered)
    if not left or me[BAR]:
        return _plays({(tuple(me), tuple(opp)): tuple(entered)})
    if sum(me[7:]) < left:
        return _doubles_general(Position(tuple(me), tuple(opp)), d, left, entered)
    # No bear-off can happen within the roll (enough checkers stay outside), and the
    # opponent's blocks never change, so the points a d can move from are fixed: only
    # whether a checker stands there changes. Moves are generated with non-increasing
    # source points (i, j, k, l below), which reaches every result.
    movable = [p for p in range(24, d, -1) if opp[25 - p + d] < 2]
    n = len(movable)
    opp0 = tuple(opp)
    hits = 0
    # Every result comes from exactly one non-increasing sequence of source points (the
    # result is fixed by the multiset of sources when all moves have one size and no
    # checker bears off), so no deduplication is needed: each leaf is a new result.
    found: list[list[tuple[tuple[Move, ...], Side, Side]]] = [[], [], [], [], []]
    e = tuple(map(_move, entered))
    plain, hitting = _STEPS[d]

    for i in range(n):
        p1 = movable[i]
        if not me[p1]:
            continue
        t1 = p1 - d
        me[p1] -= 1
        me[t1] += 1
        h1 = opp[25 - t1] == 1
        if h1:
            opp[25 - t1] = 0
            opp[BAR] += 1
            hits += 1
        m1 = hitting[p1] if h1 else plain[p1]
        deeper1 = False
        if left > 1:
            for j in range(i, n):
                p2 = movable[j]
                if not me[p2]:
                    continue
                deeper1 = True
                t2 = p2 - d
                me[p2] -= 1
                me[t2] += 1
                h2 = opp[25 - t2] == 1
                if h2:
                    opp[25 - t2] = 0
                    opp[BAR] += 1
                    hits += 1
                m2 = hitting[p2] if h2 else plain[p2]
                deeper2 = False
                if left > 2:
                    for k in range(j, n):
                        p3 = movable[k]
                        if not me[p3]:
                            continue
                        deeper2 = True
                        t3 = p3 - d
                        me[p3] -= 1
                        me[t3] += 1
                        h3 = opp[25 - t3] == 1
                        if h3:
                            opp[25 - t3] = 0
                            opp[BAR] += 1
                            hits += 1
                        m3 = hitting[p3] if h3 else plain[p3]
                        deeper3 = False
                        if left > 3:
                            for q in range(k, n):
                                p4 = movable[q]
                                if not me[p4]:
                                    continue
                                deeper3 = True
                                t4 = p4 - d
                                me[p4] -= 1
                                me[t4] += 1
                                if opp[25 - t4] == 1:
                                    opp[25 - t4] = 0
                                    opp[BAR] += 1
                                    found[4].append(
                                        (
                                            e + (m1, m2, m3, hitting[p4]),
                                            tuple(me),
                                            tuple(opp),
                                        )
                                    )
                                    opp[BAR] -= 1
                                    opp[25 - t4] = 1
                                else:
                                    found[4].append(
                                        (
                                            e + (m1, m2, m3, plain[p4]),
                                            tuple(me),
                                            tuple(opp) if hits else opp0,
                                        )
                                    )
                                me[t4] -= 1
                                me[p4] += 1
                        if not deeper3 and not found[4]:
                            found[3].append((e + (m1, m2, m3), tuple(me), tuple(opp)))
                        if h3:
                            opp[BAR] -= 1
                            opp[25 - t3] = 1
                            hits -= 1
                        me[t3] -= 1
                        me[p3] += 1
                if not deeper2 and not found[4] and not found[3]:
                    found[2].append((e + (m1, m2), tuple(me), tuple(opp)))
                if h2:
                    opp[BAR] -= 1
                    opp[25 - t2] = 1
                    hits -= 1
                me[t2] -= 1
                me[p2] += 1
        if not deeper1 and not found[4] and not found[3] and not found[2]:
            found[1].append((e + (m1,), tuple(me), tuple(opp)))
        if h1:
            opp[BAR] -= 1
            opp[25 - t1] = 1
            hits -= 1
        me[t1] -= 1
        me[p1] += 1
    for depth in (4, 3, 2, 1):
        if found[depth]:
            return [
                _new(Play, (moves, _new(Position, (r_me, r_opp))))
                for moves, r_me, r_opp in found[depth]
            ]
    return [_new(Play, (e, _new(Position, (tuple(me), tuple(opp)))))]


def _doubles_general(
    position: Position, d: int, left: int = 4, entered: list[RawMove] | None = None
) -> list[Play]:
    """Any position: a recursive search with do/undo (bear-offs, few checkers left)."""
    me = list(position.me)
    opp = list(position.opp)
    found: Found = {}
    best = [0]
    moves: list[RawMove] = list(entered or ())
    base = len(moves)

    def search(max_from: int, left: int, outside: int) -> None:
        srcs: list[int] = []
        if left and me[OFF] < 15:
            srcs = [p for p in _sources(me, opp, d, outside) if p <= max_from]
        if not srcs:
            n = len(moves) - base
            if n >= best[0]:
                key = (tuple(me), tuple(opp))
                if n > best[0]:
                    best[0] = n
                    found.clear()
                if key not in found:
                    found[key] = tuple(moves)
            return
        for p in srcs:
            t, hit = _apply(me, opp, p, d)
            moves.append((p, t, hit))
            search(p, left - 1, outside - 1 if p > 6 >= t else outside)
            moves.pop()
            _undo(me, opp, p, t, hit)

    search(BAR, left, _outside(me))
    return _plays(found)


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
