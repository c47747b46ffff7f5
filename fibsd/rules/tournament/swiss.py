"""Swiss pairings (club-play.md T2): score groups, no pair twice, one bye per player.

A round is paired as one maximum-weight matching over the whole field (networkx's
`max_weight_matching`, Edmonds' blossom algorithm), on the graph of the pairs that have
not met yet, so a repeat is never chosen while any repeat-free pairing exists. The weight
of a pair keeps score groups together first (the square of the points between them costs
most) and, inside a group, prefers top half against bottom half (as the Dutch system
does), so round 1 is seed 1 against the first seed of the bottom half.

The bye (an odd field) goes to the lowest-ranked player who has not had one, unless that
leaves the rest unpairable; then to the next one up.

A matching that is best now can leave a later round with no repeat-free pairing (with 8
players, after five rounds the unplayed pairs can form a triangle and a pentagon). So each
choice is checked for the rounds still to come: when every player keeps at least half the
field as possible opponents through the last round, Dirac's theorem guarantees a perfect
matching every round and nothing is searched; otherwise (small fields, late rounds) a
depth-first search over the remaining rounds confirms the choice, and if the preferred
matching fails, the others are tried in order of weight.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import networkx as nx

#: The phantom opponent of the player with the bye, in the look-ahead graph.
BYE = "\0bye"
#: Weights are integers (exact in networkx's matching): a score step costs far more than
#: any within-group preference.
_BASE = 10**9
_SCORE_STEP = 10**5
#: How many matchings a look-ahead may try before it gives up and takes the best one.
_SEARCH_BUDGET = 20_000

Pair = tuple[str, str]


def default_rounds(players: int) -> int:
    """ceil(log2(players)) + 1 (T2), never more than the field allows without repeats."""
    rounds = (max(players, 2) - 1).bit_length() + 1
    return min(rounds, max_rounds(players))


def max_rounds(players: int) -> int:
    """The most rounds a field can play without a repeat (a round robin's worth)."""
    return players - 1 if players % 2 == 0 else players


def _key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def pair_round(
    ranking: Sequence[str],
    points: Mapping[str, int],
    played: set[frozenset[str]],
    had_bye: set[str],
    rounds_left: int = 1,
) -> tuple[list[Pair], str | None]:
    """The pairs of the next round and the player with the bye (None if the field is even).

    `ranking` is the current standings, best first (round 1: by seed); `points` each
    player's points; `played` the pairs that met (as frozensets of two names); `had_bye`
    who already had a bye; `rounds_left` how many rounds remain counting this one (the
    look-ahead keeps them all pairable). Each pair lists the better-ranked player first.
    """
    players = list(ranking)
    rank = {name: index for index, name in enumerate(players)}
    odd = len(players) % 2 == 1
    graph = _available(players, played, had_bye, odd)
    candidates: list[str | None]
    if odd:
        without = [name for name in reversed(players) if name not in had_bye]
        others = [name for name in reversed(players) if name in had_bye]
        candidates = [*without, *others]
    else:
        candidates = [None]
    budget = [_SEARCH_BUDGET]
    fallback: tuple[list[Pair], str | None] | None = None
    for bye in candidates:
        field = [name for name in players if name != bye]
        weighted = _weighted(field, rank, points, played)
        best = _best(weighted, len(field))
        if best is None:
            continue
        if fallback is None:
            fallback = (best, bye)
        if not _repeat_free(best, played):
            continue
        used = _used(best, bye)
        if rounds_left <= 1 or _completable(_without(graph, used), rounds_left - 1, budget):
            return _ordered(best, rank), bye
        for other in _matchings_by_weight(weighted, len(field), played, budget):
            if _completable(_without(graph, _used(other, bye)), rounds_left - 1, budget):
                return _ordered(other, rank), bye
            if budget[0] <= 0:
                break
        if budget[0] <= 0:
            return _ordered(best, rank), bye
    if fallback is None:  # (cannot happen: the complete graph always has a matching)
        raise ValueError("no pairing")
    return _ordered(fallback[0], rank), fallback[1]


def _ordered(pairs: list[Pair], rank: Mapping[str, int]) -> list[Pair]:
    ordered = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in pairs]
    return sorted(ordered, key=lambda pair: rank[pair[0]])


def _used(pairs: list[Pair], bye: str | None) -> list[frozenset[str]]:
    used = [_key(a, b) for a, b in pairs]
    if bye is not None:
        used.append(_key(bye, BYE))
    return used


def _repeat_free(pairs: list[Pair], played: set[frozenset[str]]) -> bool:
    return all(_key(a, b) not in played for a, b in pairs)


def _available(players: list[str], played: set[frozenset[str]], had_bye: set[str], odd: bool) -> nx.Graph:
    """The pairs that may still meet (and, for an odd field, who may still get a bye)."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if _key(a, b) not in played:
                graph.add_edge(a, b)
    if odd:
        graph.add_node(BYE)
        for name in players:
            if name not in had_bye:
                graph.add_edge(name, BYE)
    return graph


def _without(graph: nx.Graph, edges: list[frozenset[str]]) -> nx.Graph:
    rest = graph.copy()
    for edge in edges:
        a, b = tuple(edge)
        if rest.has_edge(a, b):
            rest.remove_edge(a, b)
    return rest


def _weighted(
    field: list[str], rank: Mapping[str, int], points: Mapping[str, int], played: set[frozenset[str]]
) -> nx.Graph:
    """Every pair of `field`, weighted; a repeat weighs so little that it is taken only
    when nothing else pairs everyone (the caller refuses it unless all else failed)."""
    groups: dict[int, list[str]] = {}
    for name in field:
        groups.setdefault(points.get(name, 0), []).append(name)
    place = {name: index for members in groups.values() for index, name in enumerate(members)}
    graph = nx.Graph()
    for i, a in enumerate(field):
        for b in field[i + 1:]:
            step = points.get(a, 0) - points.get(b, 0)
            half = len(groups[points.get(a, 0)]) // 2
            shape = abs(abs(place[a] - place[b]) - half) if step == 0 else abs(rank[a] - rank[b])
            weight = _BASE - _SCORE_STEP * step * step - shape
            if _key(a, b) in played:
                weight -= _BASE // 2
            graph.add_edge(a, b, weight=weight)
    return graph


def _best(weighted: nx.Graph, size: int) -> list[Pair] | None:
    matching = nx.max_weight_matching(weighted, maxcardinality=True)
    if 2 * len(matching) != size:
        return None
    return [(a, b) for a, b in matching]


def _matchings_by_weight(
    weighted: nx.Graph, size: int, played: set[frozenset[str]], budget: list[int]
) -> Iterator[list[Pair]]:
    """Repeat-free perfect matchings of `weighted`, the heaviest first (small fields:
    all of them are listed and sorted; the budget bounds the listing)."""
    found: list[tuple[int, list[Pair]]] = []
    nodes = sorted(weighted.nodes, key=str)

    def walk(left: list[str], chosen: list[Pair], weight: int) -> None:
        if budget[0] <= 0:
            return
        if not left:
            budget[0] -= 1
            found.append((weight, list(chosen)))
            return
        first, rest = left[0], left[1:]
        for other in rest:
            if _key(first, other) in played:
                continue
            chosen.append((first, other))
            walk([name for name in rest if name != other], chosen, weight + weighted[first][other]["weight"])
            chosen.pop()

    walk(nodes, [], 0)
    found.sort(key=lambda item: -item[0])
    for _weight, pairs in found:
        yield pairs


def _completable(graph: nx.Graph, rounds: int, budget: list[int]) -> bool:
    """Whether `rounds` more rounds can be paired on `graph` without a repeat."""
    if rounds <= 0 or graph.number_of_nodes() == 0:
        return True
    degrees = [degree for _node, degree in graph.degree]
    low = min(degrees)
    if low - (rounds - 1) >= graph.number_of_nodes() / 2:
        return True  # Dirac, every round
    if low < rounds:
        return False
    for matching in _perfect_matchings(graph, budget):
        rest = graph.copy()
        rest.remove_edges_from(matching)
        if _completable(rest, rounds - 1, budget):
            return True
        if budget[0] <= 0:
            return False
    return False


def _perfect_matchings(graph: nx.Graph, budget: list[int]) -> Iterator[list[Pair]]:
    """Every perfect matching of `graph` (the least-connected node is matched first)."""

    def walk(left: set[str], chosen: list[Pair]) -> Iterator[list[Pair]]:
        if budget[0] <= 0:
            return
        if not left:
            budget[0] -= 1
            yield list(chosen)
            return
        first = min(left, key=lambda node: (sum(1 for n in graph[node] if n in left), str(node)))
        for other in sorted((n for n in graph[first] if n in left), key=str):
            chosen.append((first, other))
            yield from walk(left - {first, other}, chosen)
            chosen.pop()

    yield from walk(set(graph.nodes), [])
