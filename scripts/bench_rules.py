"""Benchmark of the rules engine: legal-play generation and play validation.

Prints the median microseconds per call over the fixed corpus of positions from random
games (tests/data/legal-plays.jsonl, the same file the tests use), separately for
non-doubles and doubles. Each case is timed `--rounds` times and its fastest time kept
(so that other processes on the machine disturb the figures less); the median is over
cases. Run it with scripts/bench-rules; see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))

from fibsd.rules import Position, legal_plays, moves_required, validate_play

DEFAULT_CORPUS = TOP / "tests" / "data" / "legal-plays.jsonl"

Case = tuple[Position, tuple[int, int]]


def load(path: Path) -> list[Case]:
    cases = []
    with path.open() as f:
        for line in f:
            row = json.loads(line)
            cases.append(
                (
                    Position.from_hex(row["me"], row["opp"]),
                    (row["dice"][0], row["dice"][1]),
                )
            )
    return cases


def best_of(rounds: int, call: Callable[[], object]) -> float:
    """Fastest of `rounds` timed calls, in microseconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter_ns()
        call()
        elapsed = time.perf_counter_ns() - start
        best = min(best, elapsed)
    return best / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    cases = load(args.corpus)
    print(
        f"corpus: {args.corpus} ({len(cases)} positions), best of {args.rounds} per case"
    )
    print(f"{'case':<34}{'n':>6}{'median µs':>12}{'p90 µs':>10}")
    for label, doubles in (("non-doubles", False), ("doubles", True)):
        chosen = [(p, d) for p, d in cases if (d[0] == d[1]) == doubles]
        gen = [
            best_of(args.rounds, lambda p=p, d=d: legal_plays(p, d)) for p, d in chosen
        ]
        # validate what a user would type: one legal play per position (the middle one
        # of the list, so not always the first found), its moves in generated order
        typed = []
        for p, d in chosen:
            plays = legal_plays(p, d)
            play = plays[len(plays) // 2]
            typed.append((p, d, [(m.from_point, m.to_point) for m in play.moves]))
        val = [
            best_of(args.rounds, lambda p=p, d=d, s=s: validate_play(p, d, s))
            for p, d, s in typed
        ]
        req = [
            best_of(args.rounds, lambda p=p, d=d: moves_required(p, d))
            for p, d in chosen
        ]
        for what, times in (
            (f"all legal plays, {label}", gen),
            (f"validate a play, {label}", val),
            (f"moves required, {label}", req),
        ):
            p90 = statistics.quantiles(times, n=10)[-1]
            print(
                f"{what:<34}{len(times):>6}{statistics.median(times):>12.1f}{p90:>10.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
