"""What engine analysis costs: seconds per analysed match at each ply setting, how far
the cheap settings' PR is from the strongest offered, and how responsive the server stays
while gnubg workers run.

1. **Matches**: GNU Backgammon plays itself (0-ply, a little noise, fixed seeds) and
   exports each match as .mat: realistic play, unlike random moves. `--matches N` per
   length (5 and 11 points).
2. **Seconds per match**: each match is analysed by `fibsd.shell.analysis_workers.run_gnubg` (gnubg in
   its own process, one thread, as the server's workers run it) at 0, 1 and 2 plies for
   checker play and cube alike; the median and the largest, per length and setting.
3. **Agreement**: the PR of each player at 0 and 1 ply against the 2-ply PR of the same
   match (mean and largest absolute difference), and the share of 2-ply errors and
   blunders the cheap setting also flags at the same decision.
4. **Server responsiveness** (`--server`): a fibsd server runs in this process with one
   analysis worker; a client sends `time` commands and waits for each answer, first with
   no analysis running, then while the worker analyses match after match; the median and
   99th percentile of the round trips, and the server process's own CPU seconds.

Usage: scripts/bench-analysis [--matches N] [--plies 0,1,2] [--server] [--gnubg PATH]
Figures go to docs/benchmarks.md; they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fibsd.shell.analysis_workers import run_gnubg
from fibsd.domain.match_analysis import MatchAnalysis, read_gnubg_output

SELF_PLAY = r'''
import gnubg, os
n = int(os.environ["LEN"]); seed = int(os.environ["SEED"]); out = os.environ["OUT"]
for c in ["set threads 1", "set seed %d" % seed, "set player 0 gnubg", "set player 1 gnubg",
          "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
          "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
          "set player 0 chequerplay evaluation noise 0.03", "set player 1 chequerplay evaluation noise 0.05",
          "set player 0 cubedecision evaluation noise 0.03", "set player 1 cubedecision evaluation noise 0.05",
          "new match %d" % n]:
    gnubg.command(c)
for i in range(5000):
    gnubg.nextturn()
    m = gnubg.match(analysis=0, boards=0)
    if m and m["match-info"].get("result"):
        break
gnubg.command("export match mat %s" % out)
'''


def self_play(gnubg: str, folder: Path, length: int, seed: int) -> str:
    script = folder / "selfplay.py"
    script.write_text(SELF_PLAY)
    out = folder / f"m{length}-{seed}.mat"
    env = dict(os.environ, LEN=str(length), SEED=str(seed), OUT=str(out))
    subprocess.run([gnubg, "-t", "-q", "-p", str(script)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return out.read_text()


CPU: dict[int, float] = {}  # id(analysis) -> gnubg's CPU seconds


async def analyse(gnubg: str, mat: str, plies: int) -> MatchAnalysis:
    # The worker's own nice 19 would measure the machine's other load, not gnubg's cost:
    # the benchmark runs gnubg at normal priority and reports its CPU time beside the wall.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = await run_gnubg(gnubg, mat, checker_plies=plies, cube_plies=plies,
                          time_limit_seconds=7200, niceness=0)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    analysis = read_gnubg_output(run.output, record_id=0, checker_plies=plies,
                                 cube_plies=plies, analysed_at=time.time(), seconds=run.seconds)
    CPU[id(analysis)] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return analysis


def flagged(analysis: MatchAnalysis) -> set[tuple[int, int, str, str]]:
    return {(e.game, e.player, e.kind, e.position) for e in analysis.errors}


async def engine(args: argparse.Namespace) -> None:
    plies = [int(p) for p in args.plies.split(",")]
    reference = max(plies)
    lengths = [int(n) for n in args.lengths.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        print(f"gnubg {args.gnubg}; {args.matches} self-played matches per length "
              f"({args.reference_matches} at {reference}-ply); load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        print(f"{'length':>6} {'plies':>5} {'decisions':>9} {'wall s':>7} {'max':>6} "
              f"{'CPU s':>6} {'max':>6}   {'|PR-PR(' + str(reference) + ')| mean':>20} "
              f"{'max':>5} {'errors found':>12}", flush=True)
        for length in lengths:
            mats = [self_play(args.gnubg, Path(folder), length, seed)
                    for seed in range(1, args.matches + 1)]
            results: dict[int, list[MatchAnalysis]] = {}
            for p in sorted(plies, reverse=True):
                chosen = mats[:args.reference_matches] if p == reference else mats
                results[p] = [await analyse(args.gnubg, mat, p) for mat in chosen]
                wall = [a.seconds for a in results[p]]
                cpu = [CPU[id(a)] for a in results[p]]
                decisions = statistics.median(sum(pl.decisions for pl in a.players) for a in results[p])
                diffs = []
                found = total = 0
                for mine, ref in zip(results[p], results[reference]):
                    for pm, pr_ in zip(mine.players, ref.players):
                        if pm.pr is not None and pr_.pr is not None:
                            diffs.append(abs(pm.pr - pr_.pr))
                    ref_flags = flagged(ref)
                    found += len(ref_flags & flagged(mine))
                    total += len(ref_flags)
                share = f"{100 * found / total:.0f}%" if total else "-"
                print(f"{length:>6} {p:>5} {decisions:>9.0f} {statistics.median(wall):>7.2f}"
                      f" {max(wall):>6.2f} {statistics.median(cpu):>6.2f} {max(cpu):>6.2f}"
                      f"   {statistics.mean(diffs):>20.2f} {max(diffs):>5.2f} {share:>12}",
                      flush=True)
            for index, (a, ref) in enumerate(zip(results[min(plies)], results[reference])):
                print(f"  {length}-point match {index + 1}: PR "
                      + ", ".join(f"{x.pr:.1f}/{y.pr:.1f}" for x, y in zip(a.players, ref.players)
                                  if x.pr is not None and y.pr is not None)
                      + f" ({min(plies)}-ply/{reference}-ply)", flush=True)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def server_bench(args: argparse.Namespace) -> None:
    """The server's command round trips with and without gnubg workers busy."""
    import random

    from fibsd.domain.accounts import Account
    from fibsd.infra.config import Config
    from fibsd.infra.passwords import PasswordHasher
    from fibsd.rules import MatchOptions
    from fibsd.shell.server import Server
    from fibsd.store.sqlite import SQLiteStore
    from tests.app.random_matches import play_match
    from tests.server.client import TestClient

    with tempfile.TemporaryDirectory() as directory:
        settings = Config.from_mapping({
            "server": {"port": 0, "db_path": f"{directory}/fibsd.db",
                       "motd_file": f"{directory}/none.txt", "log_level": "WARNING"},
            "limits": {"commands_per_second": 10_000.0, "command_burst": 100_000},
            "analysis": {"analysis_gnubg": args.gnubg, "analysis_workers": 1,
                         "analysis_checker_plies": args.server_plies,
                         "analysis_cube_plies": args.server_plies},
        })
        hasher = PasswordHasher.for_tests("pbkdf2_sha256")
        with SQLiteStore.open(settings.db_path) as store:
            store.create_account(Account.new("alice", hasher.hash("secret"), time.time()))
            ids = []
            for seed in range(40):
                match = play_match(random.Random(seed), MatchOptions(length=5), double_chance=0.03)
                ids.append(store.record_match(
                    players=("alice", "bob"), match_data=match.to_dict(), length=5,
                    score=match.score, winner=match.winner, started_at=0.0, finished_at=60.0))
            server = Server(settings, store, hasher=hasher)
            async with trio.open_nursery() as nursery:
                await nursery.start(server.serve)
                port = server.listeners[0].socket.getsockname()[1]
                client = TestClient(await trio.open_tcp_stream("127.0.0.1", port))
                await client.expect_prompt("login: ", timeout=30)
                await client.send("login bench 1008 alice secret")
                await client.read_until("6", timeout=30)

                async def measure() -> tuple[list[float], float, float]:
                    me, children = os.times()[0:2], os.times()[2:4]
                    times: list[float] = []
                    end = time.perf_counter() + args.seconds
                    while time.perf_counter() < end:
                        started = time.perf_counter()
                        await client.send("time")
                        await client.read_until(lambda line: "UTC" in line, timeout=60)
                        times.append((time.perf_counter() - started) * 1000)
                    after = os.times()
                    return (times, sum(after[0:2]) - sum(me), sum(after[2:4]) - sum(children))

                print(f"server: 1 gnubg worker at {args.server_plies}-ply, 5-point random "
                      f"matches queued; `time` round trips for {args.seconds:g} s each; "
                      f"load average {os.getloadavg()[0]:.1f}")
                print(f"{'':28} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} "
                      f"{'fibsd CPU s':>12} {'gnubg CPU s':>12} {'wall s':>7}")
                for label in ("idle", "while analysing"):
                    if label != "idle":
                        for number in ids:
                            await client.send(f"analyse {number}")
                        pool = server.analysis_pool
                        assert pool is not None
                        while not pool.running:
                            await pool.changed.wait()
                    started = time.perf_counter()
                    times, cpu, gnubg_cpu = await measure()
                    wall = time.perf_counter() - started
                    print(f"{label:28} {statistics.median(times):10.2f} "
                          f"{_percentile(times, 0.99):8.2f} {max(times):8.2f} {cpu:12.2f} "
                          f"{gnubg_cpu:12.2f} {wall:7.1f}")
                pool = server.analysis_pool
                print(f"matches analysed meanwhile: {pool.done_count if pool else 0} "
                      "(gnubg CPU counts the finished ones)")
                server.request_stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--plies", default="0,1,2")
    parser.add_argument("--lengths", default="5,11")
    parser.add_argument("--reference-matches", type=int, default=3,
                        help="how many matches also get the strongest (slow) setting")
    parser.add_argument("--gnubg", default="/usr/games/gnubg")
    parser.add_argument("--server", action="store_true", help="only the server part")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--server-plies", type=int, default=1)
    args = parser.parse_args()
    if args.server:
        trio.run(server_bench, args)
    else:
        trio.run(engine, args)


if __name__ == "__main__":
    main()
