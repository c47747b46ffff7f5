"""What idle clocked matches cost the server: the core's tick with N matches whose clocks run.

Starts N 9-point matches with the standard clock (`invite NAME 9 clock`: 12 s delay,
18 minutes of reserve) through the core (`tests.app.driver.CoreDriver`, an in-memory
store, the production dice), so N clocks run and nobody acts. Then it does what the
shell's ticker does while they stay idle: `timers.next_tick_in` (how long to sleep) and
`timers.tick` (what came due), once per simulated second, and prints the CPU time of one
such wake-up, the wake-ups per second the core asks for, the deadline heap's size, and,
for comparison, one pass that asks every match for its deadline (what a clock checked per
match per second would cost at least). Also the memory of the clocks themselves.

Usage: scripts/bench-clocks [--matches N] [--ticks N]. Figures go to docs/benchmarks.md;
they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fibsd.app import timers  # noqa: E402
from fibsd.rules.timecontrol import MatchClock, TimeControl  # noqa: E402
from tests.app.driver import CoreDriver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--ticks", type=int, default=1000)
    args = parser.parse_args()
    driver = CoreDriver(limits__command_burst=100_000)
    names = [(f"a{index}", f"b{index}") for index in range(args.matches)]
    # Telnet users without `notify`: no login fan-out (which is not what is measured here).
    driver.create(*(name for pair in names for name in pair), ready=True, notify=False)
    started = time.perf_counter()
    for first, second in names:
        driver.log_in(first, clip=False)
        driver.log_in(second, clip=False)
        driver.send(first, f"invite {second} 9 clock")
        driver.send(second, f"join {first}")
        driver.take(first)
        driver.take(second)
    setup = time.perf_counter() - started
    registry = driver.registry
    running = sum(1 for session in registry.online()
                  if session.table is not None and session.table.timer is not None
                  and session.table.timer.running is not None) // 2
    wakeups: list[float] = []
    asked: list[float] = []
    for _ in range(args.ticks):
        driver.clock.advance(1.0)
        begin = time.process_time_ns()
        delay = timers.next_tick_in(registry)
        outcome = timers.tick(registry, driver.clock.now())
        wakeups.append((time.process_time_ns() - begin) / 1e3)
        assert delay is not None, "no clock runs"
        assert not list(outcome.pairs()), list(outcome.pairs())[:3]
        asked.append(delay)
    tables = {id(s.table): s.table for s in registry.online() if s.table is not None}
    scans: list[float] = []
    for _ in range(50):
        begin = time.process_time_ns()
        now = driver.clock.now()
        due = sum(1 for table in tables.values()
                  if table.timer is not None and (table.timer.deadline() or now + 1) <= now)
        scans.append((time.process_time_ns() - begin) / 1e3)
        assert due == 0
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    clocks = [MatchClock(TimeControl.delay_clock(12, 120, 9)) for _ in range(args.matches)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    print(f"matches with a running clock   {running} (set up in {setup:.1f} s)")
    print(f"deadline heap entries          {len(registry.deadlines)}")
    print(f"ticker wake-ups asked          every {statistics.median(asked):.2f} s")
    print(f"CPU per wake-up (next_tick_in + tick), median {statistics.median(wakeups):.1f} us, "
          f"max {max(wakeups):.1f} us, over {args.ticks} idle seconds")
    print(f"one pass over every match      median {statistics.median(scans):.0f} us (for comparison)")
    print(f"memory of {len(clocks)} match clocks  {size / 1024:.0f} KiB "
          f"({size / len(clocks):.0f} bytes each)")


if __name__ == "__main__":
    main()
