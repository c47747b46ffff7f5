"""Benchmark of Swiss pairing: seconds to pair one round, at big fields.

For each field size (129, 257, 512 entrants by default) a Swiss of `--rounds` rounds is
played through `fibsd.rules.tournament.Tournament`, each result drawn with a fixed seed
(the better-seeded player wins 60% of the time), and the time of each round's pairing
(`PairingRequest.solve`, what the server's worker thread runs: `swiss.pair_round` on
the standings) is taken. With
`--old`, the same rounds are also paired by the whole-field matching the server used
before issue 35 (`swiss._pair_whole_field`: one max-weight matching over the whole field
plus the look-ahead; still the fallback where score groups cannot be paired one by one),
on the same standings, for comparison. Prints the median and the max per round. Run it
with scripts/bench-swiss; see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))

from fibsd.rules.tournament import Format, Phase, Tournament, swiss


def run(size: int, rounds: int, seed: int, old: bool) -> tuple[list[float], list[float], int, int]:
    """Seconds per round paired (new, and old when asked) over one Swiss of `size`; how
    many rounds the score groups could not pair one by one (floaters floated on down a
    group more in a big field; a small field took the whole-field matching), and how many
    the whole-field matching paired."""
    rng = random.Random(seed)
    t = Tournament("bench", Format.SWISS, length=1, creator="p1", rounds=rounds)
    for i in range(1, size + 1):
        t.join(f"p{i}", 1500 + rng.randrange(500))
    new_times: list[float] = []
    old_times: list[float] = []
    fallbacks = 0
    whole = 0
    t.start(defer=True)
    while t.awaiting_pairing:
        request = t.pairing_request()
        if old:
            ranking = list(request.ranking)
            rank = {name: index for index, name in enumerate(ranking)}
            began = time.perf_counter()
            swiss._pair_whole_field(ranking, rank, request.points, set(request.played),
                                    set(request.had_bye), request.rounds_left)
            old_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        solved = request.solve()
        new_times.append(time.perf_counter() - began)
        t.apply_pairing(request, solved)
        ranking = list(request.ranking)
        if swiss._pair_by_groups(ranking, request.points, set(request.played), set(request.had_bye),
                                 request.rounds_left) is None:
            fallbacks += 1
            if swiss._pair_by_groups(ranking, request.points, set(request.played), set(request.had_bye),
                                     request.rounds_left, float_on=size > swiss._EXACT_FIELD) is None:
                whole += 1
        for pairing in t.pending():
            assert pairing.b is not None
            better = min(pairing.names, key=t.seed_of)
            worse = pairing.b if better == pairing.a else pairing.a
            winner = better if rng.random() < 0.6 else worse
            t.record(pairing, winner, (1, 0) if winner == pairing.a else (0, 1), defer=True)
    assert t.phase is Phase.FINISHED
    return new_times, old_times, fallbacks, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="129,257,512", help="entrants, comma-separated")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds per Swiss (default: the format's own for the field)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--old", action="store_true", help="time the whole-field matching too (slow)")
    args = parser.parse_args()
    print(f"Swiss pairing, seed {args.seed}: milliseconds per round (round 1 included)")
    print(f"{'entrants':>8}  {'rounds':>6}  {'median':>8}  {'max':>8}  {'not by groups':>13}  {'whole field':>11}"
          + (f"  {'old median':>10}  {'old max':>8}" if args.old else ""))
    for size in (int(s) for s in args.sizes.split(",")):
        rounds = args.rounds or swiss.default_rounds(size)
        new, old, fallbacks, whole = run(size, rounds, args.seed, args.old)
        line = f"{size:>8}  {rounds:>6}  {1000 * statistics.median(new):>8.1f}  {1000 * max(new):>8.1f}  {fallbacks:>13}  {whole:>11}"
        if args.old and old:
            line += f"  {1000 * statistics.median(old):>10.1f}  {1000 * max(old):>8.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
