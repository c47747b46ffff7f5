"""Swiss pairings (club-play.md T2): score groups, no pair twice, one bye per player.

A round is paired score group by score group, best group first (`_pair_by_groups`): in
each group, whoever floated down from above meets the best-ranked member he has not met,
the rest pair top half against bottom half (as the Dutch system does: round 1 is seed 1
against the first seed of the bottom half), stepping past a pair that met, and an odd one
out floats down to the next group. That is linear in the field, so a 512-player round
pairs in milliseconds. A group that cannot be paired so is paired by a matching of its
own; where even that fails (a group that cannot pair without a repeat, a floater with no partner
below, a choice that would leave a later round unpairable), the round falls back to the
whole-field pairing (`_pair_whole_field`): one maximum-weight matching over the whole
field (networkx's `max_weight_matching`, Edmonds' blossom algorithm), on the graph of the
pairs that have not met yet, so a repeat is never chosen while any repeat-free pairing
exists. Its weight keeps score groups together first (the square of the points between
them costs most) and, inside a group, prefers top half against bottom half.

The bye (an odd field) goes to the lowest-ranked player who has not had one, unless that
leaves the rest unpairable; then to the next one up.

A matching that is best now can leave a later round with no repeat-free pairing (with 8
players, after five rounds the unplayed pairs can form a triangle and a pentagon). So each
choice is checked for the rounds still to come: when every player keeps at least half the
field as possible opponents through the last round, Dirac's theorem guarantees a perfect
matching every round and nothing is searched (the group pairing checks it from the counts
of who met whom, without building a graph); otherwise (small fields, late rounds) a
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
#: Fields up to this size fall back on the whole-field matching where score groups cannot
#: be paired one by one (exact, and under half a second here at this size: see
#: docs/benchmarks.md); bigger fields float the players left unpaired on down a group
#: more instead (milliseconds at 512 where the matching took up to 16 s; the points
#: between partners may add up to a little more than the exact matching's).
_EXACT_FIELD = 128

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
    big = len(players) > _EXACT_FIELD
    fast = _pair_by_groups(players, points, played, had_bye, rounds_left, float_on=big)
    # A small field takes the group pairing only where it crosses the score levels as
    # little as any pairing can (late in a long Swiss, going group by group can leave a
    # group whose last pairs must reach further down): otherwise the exact matching.
    if fast is not None and (big or _crosses_least(fast[0], points)):
        return _ordered(fast[0], rank), fast[1]
    return _pair_whole_field(players, rank, points, played, had_bye, rounds_left)


def _pair_whole_field(
    players: list[str],
    rank: Mapping[str, int],
    points: Mapping[str, int],
    played: set[frozenset[str]],
    had_bye: set[str],
    rounds_left: int,
) -> tuple[list[Pair], str | None]:
    """One maximum-weight matching over the whole field, with the look-ahead (the
    fallback where score groups cannot be paired one by one)."""
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


def _pair_by_groups(
    players: list[str],
    points: Mapping[str, int],
    played: set[frozenset[str]],
    had_bye: set[str],
    rounds_left: int,
    *,
    float_on: bool = False,
) -> tuple[list[Pair], str | None] | None:
    """The round paired score group by score group, best group first (None: the field
    does not allow it, and the whole-field matching decides).

    The bye goes to the lowest-ranked player without one. In each group, the players who
    floated down from the group above are paired first, each with the best-ranked member
    he has not met; the rest pair top half against bottom half (a member of the top half
    meets the first member of the bottom half, from his own place on, that he has not
    met); an odd one out (the lowest-ranked who leaves the rest pairable) floats down to
    the next group. A group where this fails is paired by a maximum-weight matching of
    its own; if that still leaves more than the odd one out, or a floater unpaired, or
    the pairing could leave a later round without a repeat-free pairing, this gives up.
    So each cut between score groups is crossed by one pair at most, and by one only when
    the players above it are an odd number: no pair spans more groups than needed.

    With `float_on` (big fields, where the whole-field matching is slow) it does not give
    up where a group cannot be paired: whoever is left unpaired floats on down another
    group, and floaters that reach the bottom are paired by matching the lowest groups
    together, one more group up at a time."""
    bye: str | None = None
    field = players
    if len(players) % 2 == 1:
        bye = next((name for name in reversed(players) if name not in had_bye), None)
        if bye is None:
            return None
        field = [name for name in players if name != bye]
    groups: dict[int, list[str]] = {}
    for name in field:
        groups.setdefault(points.get(name, 0), []).append(name)
    found_by_group: list[list[Pair]] = []
    entered: list[list[str]] = []  # each group's players, the floaters first
    floaters: list[str] = []
    for score in sorted(groups, reverse=True):
        members = groups[score]
        paired = _pair_group(floaters, members, points, played)
        group = [*floaters, *members]
        if paired is None and entered:
            # The group cannot be paired with what floated into it (say a lone last
            # player who met the floater): pair it together with the group above.
            found_by_group.pop()
            group = [*entered.pop(), *members]
            paired = _match_group(group, points, played)
        if paired is None and float_on:
            # Late in a long Swiss a lone leader may have met everyone of the group below
            # him: whoever is left unpaired floats on down, another group.
            paired = _match_group(group, points, played, floaters_may_float=True)
        if paired is None:
            return None
        found, floaters = paired
        found_by_group.append(found)
        entered.append(group)
    # Floaters that reached the bottom: the lowest groups are paired together, one more
    # group up at a time, until everyone has a partner.
    for depth in range(2, len(entered) + 1) if floaters and float_on else ():
        together = list(dict.fromkeys(name for group in entered[-depth:] for name in group))
        rematched = _match_group(together, points, played, floaters_may_float=True)
        if rematched is not None and not rematched[1]:
            found_by_group[-depth:] = [rematched[0]]
            floaters = []
            break
    if floaters:
        return None
    pairs = [pair for found in found_by_group for pair in found]
    if rounds_left > 1 and not _keeps_pairable(players, pairs, bye, played, had_bye, rounds_left - 1):
        return None
    return pairs, bye


def _pair_group(
    floaters: list[str], members: list[str], points: Mapping[str, int], played: set[frozenset[str]]
) -> tuple[list[Pair], list[str]] | None:
    """The pairs of one score group (with the players who floated into it) and who floats
    on down: as few as can be, never a floater again (None: the group cannot be paired so)."""
    pairs: list[Pair] = []
    rest = list(members)
    for floater in floaters:
        partner = next((name for name in rest if _key(floater, name) not in played), None)
        if partner is None:
            break
        pairs.append((floater, partner))
        rest.remove(partner)
    else:
        for down in _float_candidates(rest):
            staying = [name for name in rest if name != down]
            found = _top_against_bottom(staying, played)
            if found is not None:
                return pairs + found, [] if down is None else [down]
    return _match_group([*floaters, *members], points, played)


def _float_candidates(rest: list[str]) -> list[str | None]:
    """Who may float down from an odd group, the lowest-ranked first (a few only: the
    group's own matching settles the rare case where none of them will do)."""
    if len(rest) % 2 == 0:
        return [None]
    return list(reversed(rest[-3:]))


def _top_against_bottom(group: list[str], played: set[frozenset[str]]) -> list[Pair] | None:
    """Top half against bottom half, each of the top half taking the first member of the
    bottom half, from his own place on (then wrapping round), that he has not met; one left
    without a partner so takes another's by an augmenting path (Kuhn's algorithm, moving as
    few as it needs). None: the halves cannot be paired without a repeat."""
    half = len(group) // 2
    top, bottom = group[:half], group[half:]

    def fresh(t: int, b: int) -> bool:
        return _key(top[t], bottom[b]) not in played

    def order(t: int) -> Iterator[int]:
        return ((t + step) % len(bottom) for step in range(len(bottom)))

    partner_of: dict[int, int] = {}  # a bottom half's place -> his top half partner's
    unpaired: list[int] = []
    for t in range(half):
        free = next((b for b in order(t) if b not in partner_of and fresh(t, b)), None)
        if free is None:
            unpaired.append(t)
        else:
            partner_of[free] = t

    def augment(t: int, seen: set[int]) -> bool:
        for b in order(t):
            if b in seen or not fresh(t, b):
                continue
            seen.add(b)
            if b not in partner_of or augment(partner_of[b], seen):
                partner_of[b] = t
                return True
        return False

    for t in unpaired:
        if not augment(t, set()):
            return None
    return [(top[t], bottom[b]) for b, t in sorted(partner_of.items(), key=lambda item: item[1])]


def _match_group(
    group: list[str], points: Mapping[str, int], played: set[frozenset[str]],
    *, floaters_may_float: bool = False,
) -> tuple[list[Pair], list[str]] | None:
    """A group (higher scores first: floaters, or a whole group above) paired by a
    maximum-weight matching of the pairs that have not met: as many pairs as can be, then
    the fewest points between partners (squared), then who is left out as low in the
    ranking as can be, then floaters with the nearest-ranked, and top half against bottom
    half. Whoever is left out floats down; it may not be one who floated in, unless
    `floaters_may_float` (then this never fails)."""
    size = len(group)
    place = {name: index for index, name in enumerate(group)}
    lowest = points.get(group[-1], 0)
    half = sum(1 for name in group if points.get(name, 0) == lowest) // 2
    # Each term outweighs everything after it: who is left out weighs more than how the
    # others are arranged (at most size**2 in all), the score steps more than both.
    keep = size * size + 1
    steps = 2 * keep * size * size + 1
    top_step = max(points.get(name, 0) for name in group) - lowest
    graph = nx.Graph()
    graph.add_nodes_from(group)
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            if _key(a, b) in played:
                continue
            step = points.get(a, 0) - points.get(b, 0)
            shape = abs(abs(i - place[b]) - half) if step == 0 else abs(i - place[b])
            weight = steps * (top_step * top_step - step * step) + keep * (2 * size - i - place[b]) - shape
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    paired = {name for pair in matching for name in pair}
    left = [name for name in group if name not in paired]
    if not floaters_may_float and any(points.get(name, 0) != lowest for name in left):
        return None
    return [(a, b) for a, b in matching], left


def _keeps_pairable(
    players: list[str],
    pairs: list[Pair],
    bye: str | None,
    played: set[frozenset[str]],
    had_bye: set[str],
    rounds: int,
) -> bool:
    """Whether `rounds` more rounds stay pairable without a repeat after this one: Dirac's
    condition from the players' counts alone (big fields: no graph is built); otherwise
    the look-ahead search of the whole-field pairing."""
    odd = bye is not None
    size = len(players) + (1 if odd else 0)
    met: dict[str, int] = {name: 0 for name in players}
    for pair in played:
        for name in pair:
            if name in met:
                met[name] += 1
    low = min(len(players) - 2 - met[name] + (1 if odd and name not in had_bye and name != bye else 0)
              for name in players)
    if odd:
        low = min(low, len(players) - len(had_bye & set(players)) - 1)
    if low - (rounds - 1) >= size / 2:
        return True
    used = _used(pairs, bye)
    return _completable(_without(_available(players, played, had_bye, odd), used), rounds, [_SEARCH_BUDGET])


def _crosses_least(pairs: list[Pair], points: Mapping[str, int]) -> bool:
    """Whether between each two neighbouring score levels as many pairs cross as the
    players above are odd (0 or 1): the fewest any pairing can have."""
    levels = sorted({points.get(name, 0) for pair in pairs for name in pair}, reverse=True)
    for cut in levels[1:]:
        above = sum(1 for pair in pairs for name in pair if points.get(name, 0) > cut)
        crossing = sum(1 for a, b in pairs if (points.get(a, 0) > cut) != (points.get(b, 0) > cut))
        if crossing != above % 2:
            return False
    return True


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
