"""What a house bot's move costs: gnubg's CPU seconds per checker play at each strength.

The positions come from random play (a fixed seed, so every strength sees the same ones)
with the rules engine; for each, the bot's strategy (`fibsd.tools.bots.gnubg`, gnubg in
its own process, one thread, the strength's plies and noise from `fibsd.infra.house_bots`)
chooses a play, and the gnubg process's CPU time (user + system, from /proc) and the wall
time of the answer are taken. Prints the median and the largest per strength, and the load
average (the machine may be shared: quote it with the figures).

Usage: scripts/bench-house-bots [--moves N] [--seed S] [--gnubg PATH]
Figures go to docs/benchmarks.md ("House bots"); they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import trio

from fibsd.infra.house_bots import STRENGTHS
from fibsd.rules import Position, legal_plays
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG, GnubgStrategy
from protocol.board import YOU, Checkers, Colour, build_board_line

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def positions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """`count` positions with the dice of the player on roll, from random games."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    position = Position.opening()
    while len(found) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        if len(plays) > 1:
            found.append((position, dice))
        position = (rng.choice(plays).result if plays else position).swapped()
        if min(position.pip_count()) == 0:
            position = Position.opening()
    return found


def checkers(side: tuple[int, ...]) -> Checkers:
    return Checkers(points=tuple(side[1:25]), bar=side[25], off=side[0])


async def measure(strength: str, moves: list[tuple[Position, tuple[int, int]]], gnubg: str,
                  ) -> list[Position]:
    """Print the figures of one strength; the positions its plays left."""
    settings = STRENGTHS[strength]
    chosen: list[Position] = []
    async with GnubgStrategy.started(executable=gnubg, plies=settings.plies, noise=settings.noise) as bot:
        assert bot.pid is not None
        cpu: list[float] = []
        wall: list[float] = []
        first = cpu_seconds(bot.pid)
        for position, dice in moves:
            board = build_board_line(
                player=YOU, opponent="someone", colour=Colour.O, match_length=7,
                player_checkers=checkers(position.me), opponent_checkers=checkers(position.opp),
                turn=Colour.O, player_dice=dice,
            )
            before, started = cpu_seconds(bot.pid), time.perf_counter()
            play = await bot.choose_play(board, legal_plays(position, dice))
            wall.append(time.perf_counter() - started)
            cpu.append(cpu_seconds(bot.pid) - before)
            chosen.append(play.result)
        # /proc counts in clock ticks (10 ms): the mean comes from the total.
        total = cpu_seconds(bot.pid) - first
    print(f"{strength:<13} {settings.described}: {len(moves)} plays; CPU s per play "
          f"mean {total / len(moves):.4f} max {max(cpu):.3f}; wall s median "
          f"{statistics.median(wall):.4f} max {max(wall):.3f}; unmatched {bot.unmatched_plays}")
    return chosen


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--gnubg", default=DEFAULT_GNUBG)
    args = parser.parse_args()
    moves = positions(args.moves, args.seed)
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    plays = {strength: await measure(strength, moves, args.gnubg) for strength in STRENGTHS}
    for strength in STRENGTHS:
        differ = sum(a != b for a, b in zip(plays[strength], plays["expert"], strict=True))
        print(f"{strength:<13} plays other than the expert's: {differ} of {len(moves)}")
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    trio.run(main)
