"""Swiss pairing at big fields and the pairing done apart from the tournament (issue 35
§2): score group by score group, no repeats, no pair spanning more score groups than the
field needs, and a round paired by `PairingRequest.solve` (what the server's worker
thread runs) taken back by `apply_pairing`, or refused once the tournament moved on."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibsd.rules.tournament import (
    Format,
    PairingRequest,
    Phase,
    Tournament,
    TournamentError,
    pair_round,
    swiss,
)


def _swiss(n: int, rounds: int, rng: random.Random) -> Tournament:
    t = Tournament("s", Format.SWISS, length=3, creator="p1", rounds=rounds)
    for i in range(1, n + 1):
        t.join(f"p{i}", 1500 + rng.randrange(500))
    return t


def _decide(t: Tournament, rng: random.Random) -> None:
    for pairing in t.pending():
        winner = rng.choice(pairing.names)
        t.record(pairing, winner, (3, 1) if winner == pairing.a else (1, 3), defer=True)


def _spread(pairs: list[tuple[str, str]], points: Mapping[str, int]) -> int:
    return sum((points[a] - points[b]) ** 2 for a, b in pairs)


def _no_pair_spans_more_score_groups_than_needed(request: PairingRequest, pairs: list[tuple[str, str]],
                                                 bye: str | None) -> None:
    """Between two neighbouring score levels, as many pairs cross as the players above are
    odd (0 or 1: the fewest any pairing can have). Where repeats forbid that, the spread
    (the points between partners, squared, summed) is the least any repeat-free pairing
    with that bye has: the whole-field matching's, which minimises it first."""
    points = request.points
    levels = sorted({points[name] for pair in pairs for name in pair}, reverse=True)
    level_of = {score: index for index, score in enumerate(levels)}
    paired = [name for pair in pairs for name in pair]
    for cut in range(1, len(levels)):
        above = sum(1 for name in paired if level_of[points[name]] < cut)
        crossing = sum(1 for a, b in pairs if (level_of[points[a]] < cut) != (level_of[points[b]] < cut))
        if crossing != above % 2:
            break
    else:
        return
    field = [name for name in request.ranking if name != bye]
    rank = {name: index for index, name in enumerate(field)}
    weighted = swiss._weighted(field, rank, points, set(request.played))
    best = swiss._best(weighted, len(field))
    assert best is not None
    assert _spread(pairs, points) <= _spread(best, points)


@settings(max_examples=4, deadline=None)
@given(n=st.integers(200, 512), rounds=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_big_fields_pair_by_score_groups_without_a_repeat(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    t = _swiss(n, rounds, rng)
    t.start(defer=True)
    while t.awaiting_pairing:
        request = t.pairing_request()
        pairs, bye = request.solve()
        assert (bye is None) == (n % 2 == 0)
        if bye is not None:
            without = [name for name in request.ranking if name not in request.had_bye]
            assert bye == without[-1]  # the lowest-ranked without a bye
        assert not any(frozenset(pair) in request.played for pair in pairs)
        _no_pair_spans_more_score_groups_than_needed(request, pairs, bye)
        t.apply_pairing(request, (pairs, bye))
        _decide(t, rng)
    assert t.phase is Phase.FINISHED and len(t.played_rounds) == rounds
    met = [frozenset(p.names) for p in t.all_pairings() if p.b is not None]
    assert len(met) == len(set(met))
    byes = [p.a for p in t.all_pairings() if p.b is None]
    assert len(byes) == len(set(byes))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(8, 33), seed=st.integers(0, 2**32))
def test_rounds_paired_apart_and_taken_back_never_repeat_a_pair(n: int, seed: int) -> None:
    """The server's way (defer, solve, apply), seven rounds: as `record` pairing at once."""
    rng = random.Random(seed)
    t = _swiss(n, 7, rng)
    t.start(defer=True)
    while t.phase is Phase.RUNNING:
        assert t.awaiting_pairing and not t.pending()
        request = t.pairing_request()
        t.apply_pairing(request, request.solve())
        names = sorted(name for p in t.current for name in p.names)
        assert names == sorted(t.seeds)
        _decide(t, rng)
    met = [frozenset(p.names) for p in t.all_pairings() if p.b is not None]
    assert len(met) == len(set(met))
    byes = [p.a for p in t.all_pairings() if p.b is None]
    assert len(byes) == len(set(byes)) == (7 if n % 2 else 0)


def test_a_round_is_awaited_across_a_restart_and_paired_once() -> None:
    rng = random.Random(1)
    t = _swiss(9, 4, rng)
    t.start(defer=True)
    request = t.pairing_request()
    saved = Tournament.from_dict(t.to_dict())  # a restart in the middle
    assert saved.awaiting_pairing and saved.pairing_request() == request
    first = saved.apply_pairing(request, request.solve())
    assert len(first) == 5 and not saved.awaiting_pairing
    with pytest.raises(TournamentError):  # the same round again: refused
        saved.apply_pairing(request, request.solve())


def test_a_pairing_solved_after_a_cancel_is_refused() -> None:
    t = _swiss(8, 3, random.Random(2))
    t.start(defer=True)
    request = t.pairing_request()
    t.cancel()
    with pytest.raises(TournamentError):
        t.apply_pairing(request, request.solve())
    assert t.played_rounds == []


def test_the_last_round_decided_finishes_without_awaiting() -> None:
    t = _swiss(4, 2, random.Random(3))
    t.start(defer=True)
    for _round in range(2):
        request = t.pairing_request()
        t.apply_pairing(request, request.solve())
        for pairing in t.pending():
            t.record(pairing, pairing.a, (3, 0), defer=True)
    assert t.phase is Phase.FINISHED and not t.awaiting_pairing
    with pytest.raises(TournamentError):
        t.pairing_request()


def test_a_knockout_is_never_deferred() -> None:
    t = Tournament("k", Format.KNOCKOUT, length=1, creator="a")
    for name in "abcd":
        t.join(name, 1500)
    assert len(t.start(defer=True)) == 2 and not t.awaiting_pairing


def test_a_group_that_cannot_pair_inside_itself_floats_its_players_down() -> None:
    """The two leaders met: each meets the best of the next group (whole-field matching)."""
    ranking = [f"p{i}" for i in range(1, 13)]
    points = {name: 2 if i < 2 else 1 if i < 8 else 0 for i, name in enumerate(ranking)}
    pairs, bye = pair_round(ranking, points, {frozenset(("p1", "p2"))}, set(), rounds_left=2)
    assert bye is None
    partners = {a: b for a, b in pairs}
    assert points[partners["p1"]] == points[partners["p2"]] == 1
    assert sum(1 for a, b in pairs if points[a] == points[b] == 0) == 2


def test_group_pairing_is_top_half_against_bottom_half_around_a_repeat() -> None:
    ranking = [f"p{i}" for i in range(1, 9)]
    pairs, _bye = pair_round(ranking, {}, {frozenset(("p1", "p5"))}, set(), rounds_left=2)
    assert pairs == [("p1", "p6"), ("p2", "p7"), ("p3", "p8"), ("p4", "p5")]


def test_a_floater_meets_the_best_of_the_group_below() -> None:
    ranking = [f"p{i}" for i in range(1, 10)]
    points = {name: 2 if i < 3 else 1 for i, name in enumerate(ranking)}
    pairs, bye = pair_round(ranking, points, set(), set(), rounds_left=2)
    assert bye == "p9"
    assert ("p1", "p2") in pairs and ("p3", "p4") in pairs  # p3 floats to p4, the best 1-pointer
    assert pairs[2:] == [("p5", "p7"), ("p6", "p8")]


@settings(max_examples=6, deadline=None)
@given(n=st.integers(40, 80), rounds=st.integers(14, 20), seed=st.integers(0, 2**32))
def test_long_swisses_float_lone_leaders_down_without_a_repeat(n: int, rounds: int, seed: int) -> None:
    """Late rounds of a long Swiss have score groups of one or two who met each other; a
    lone leader who met the whole group below floats on down a group more."""
    rng = random.Random(seed)
    t = _swiss(n, rounds, rng)
    t.start(defer=True)
    while t.awaiting_pairing:
        request = t.pairing_request()
        pairs, bye = request.solve()
        assert not any(frozenset(pair) in request.played for pair in pairs)
        _no_pair_spans_more_score_groups_than_needed(request, pairs, bye)
        t.apply_pairing(request, (pairs, bye))
        _decide(t, rng)
    assert t.phase is Phase.FINISHED and len(t.played_rounds) == rounds
    met = [frozenset(p.names) for p in t.all_pairings() if p.b is not None]
    assert len(met) == len(set(met))


def test_a_lone_leader_who_met_the_group_below_floats_on_to_the_next() -> None:
    """Big fields (`float_on`): p1 (3 points) met p2, the only 2-pointer, and p3: both float
    on to the 1-pointers, p1 meeting the best he has not met; the rest pair in their groups."""
    ranking = [f"p{i}" for i in range(1, 11)]
    points = {"p1": 3, "p2": 2, **{f"p{i}": 1 for i in range(3, 7)}, **{f"p{i}": 0 for i in range(7, 11)}}
    played = {frozenset(("p1", "p2")), frozenset(("p1", "p3"))}
    assert swiss._pair_by_groups(ranking, points, played, set(), 2) is None  # (small: exact matching)
    found = swiss._pair_by_groups(ranking, points, played, set(), 2, float_on=True)
    assert found is not None
    pairs, bye = found
    assert bye is None
    assert sorted(tuple(sorted(pair)) for pair in pairs) == [
        ("p1", "p4"), ("p10", "p8"), ("p2", "p3"), ("p5", "p6"), ("p7", "p9")]


def test_a_long_swiss_of_a_big_field_pairs_every_round_without_a_repeat() -> None:
    """300 players, 16 rounds: late rounds float lone leaders on down; never a repeat."""
    rng = random.Random(35)
    t = _swiss(300, 16, rng)
    t.start(defer=True)
    while t.awaiting_pairing:
        request = t.pairing_request()
        pairs, bye = request.solve()
        assert bye is None and not any(frozenset(pair) in request.played for pair in pairs)
        assert sorted(name for pair in pairs for name in pair) == sorted(request.ranking)
        t.apply_pairing(request, (pairs, bye))
        _decide(t, rng)
    assert t.phase is Phase.FINISHED and len(t.played_rounds) == 16
