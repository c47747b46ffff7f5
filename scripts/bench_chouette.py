"""What a chouette costs the core: commands per second and the size of what is saved.

Six players at one table (the core through `tests.app.driver.CoreDriver`, an in-memory
store, seeded dice) type random lines (legal plays most of the time, doubles, answers,
resignations, refusals) until the table has played N games. Prints the commands handled,
the median and 90th percentile time per command (every command saves the table's whole
state before its answer), the games played, and the saved state's size at the end.

Usage: scripts/bench-chouette [--games N] [--seed N]. Figures go to docs/benchmarks.md;
they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.app.driver import CoreDriver  # noqa: E402
from tests.app.test_chouette_fuzz import RandomDice, _line  # noqa: E402

NAMES = ["anna", "bert", "cleo", "dirk", "emma", "finn"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    driver = CoreDriver(RandomDice(rng), limits__command_burst=100_000)
    driver.create(*NAMES)
    for name in NAMES:
        driver.log_in(name)
    driver.send(NAMES[0], "chouette create")
    for name in NAMES[1:]:
        driver.send(name, f"chouette join {NAMES[0]}")
    table = driver.sessions[NAMES[0]].chouette
    assert table is not None
    driver.send(NAMES[0], "chouette start")
    timings: list[float] = []
    while table.engine.game_number <= args.games and len(timings) < 200_000:
        who, line = _line(rng, table, rng.choice(list(table.engine.seated))).split("|", 1)
        start = time.perf_counter()
        driver.send(who, line)
        timings.append(time.perf_counter() - start)
    quantiles = statistics.quantiles(timings, n=10)
    print(f"games played      {table.engine.game_number - 1}")
    print(f"commands          {len(timings)}")
    print(f"per command       median {statistics.median(timings) * 1e6:.0f} us, "
          f"p90 {quantiles[-1] * 1e6:.0f} us")
    print(f"saved state       {len(json.dumps(table.saved_state()))} bytes")


if __name__ == "__main__":
    main()
