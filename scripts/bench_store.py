"""The store's backends side by side (issue 27): the same `scripts/loadgen matches` run
against fibsd on SQLite and on PostgreSQL, alternating, in one run; prints fibsd's CPU
per match command, the command latency (p50, p99) and the rate, per backend, and the
PostgreSQL server's own CPU per command (its processes, read from /proc).

PostgreSQL is a throw-away cluster (fibsd.tools.pgcluster) on 127.0.0.1, with its
defaults (fsync and synchronous_commit on); each PostgreSQL round gets an empty
database. Recorded in docs/benchmarks.md.

    scripts/bench-store [--rounds 2] [--matches 10] [--seconds 30] [--think-ms 50]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import psycopg

from fibsd.tools import pgcluster

REPO = Path(__file__).resolve().parents[1]
FIGURES = ("commands_per_second", "latency_p50_ms", "latency_p99_ms", "errors")
TICKS = os.sysconf("SC_CLK_TCK")


def cluster_cpu_seconds(cluster: pgcluster.Cluster) -> float:
    """CPU (user + system) of the cluster's processes so far: the postmaster and its
    children (each connection's backend, the WAL writer, the checkpointer, ...)."""
    assert cluster.process is not None
    root = cluster.process.pid
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry), int(fields[1])
        if pid == root or parent == root:
            # utime, stime, and the children's that were waited for (cutime, cstime)
            total += sum(int(value) for value in fields[11:15]) / TICKS
    return total


def run_loadgen(args: argparse.Namespace, store: str | None,
                cluster: pgcluster.Cluster) -> tuple[dict[str, str], float]:
    """One loadgen run; its figures, and the cluster's CPU seconds during the measured play
    (from the `play` phase for --seconds, read off loadgen's phase file)."""
    with tempfile.TemporaryDirectory() as scratch:
        phase_file = Path(scratch) / "phase"
        command = [sys.executable, "-m", "fibsd.tools.loadgen", "matches",
                   "--sessions", str(2 * args.matches), "--matches", str(args.matches),
                   "--warmup", str(args.warmup), "--seconds", str(args.seconds),
                   "--think-ms", str(args.think_ms), "--phase-file", str(phase_file),
                   *(["--store", store] if store else [])]
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        database_cpu = 0.0
        while process.poll() is None:  # wait for the measured play to begin
            if phase_file.exists() and phase_file.read_text().strip() == "play":
                before = cluster_cpu_seconds(cluster)
                time.sleep(args.seconds)  # the play loadgen measures
                database_cpu = cluster_cpu_seconds(cluster) - before
                break
            time.sleep(0.1)
        stdout, stderr = process.communicate(timeout=1800)
    figures: dict[str, str] = {}
    for line in stdout.splitlines():
        name, _, value = line.partition(": ")
        figures.setdefault(name.strip(), value.strip())
    if process.returncode != 0:
        print(stdout[-3000:], stderr[-3000:], file=sys.stderr)
    return figures, database_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs per backend, alternating")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think-ms", type=float, default=50.0)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"sqlite": [], "postgresql": []}
    with pgcluster.running() as cluster:
        for round_number in range(args.rounds):
            for backend in ("sqlite", "postgresql"):
                url = None
                if backend == "postgresql":
                    name = f"bench_{round_number}"
                    with psycopg.connect(cluster.url, autocommit=True) as connection:
                        connection.execute(f"CREATE DATABASE {name}")
                    url = cluster.url_of(name)
                figures, database_cpu = run_loadgen(args, url, cluster)
                row = {name: float(figures.get(name, "nan")) for name in FIGURES}
                row["server_cpu_us_per_command"] = float(figures.get("server_cpu_us_per_command", "nan"))
                answered = float(figures.get("commands_answered", "0") or 0)
                row["database_cpu_us_per_command"] = (
                    1e6 * database_cpu / answered if backend == "postgresql" and answered else 0.0)
                results[backend].append(row)
                print(f"round {round_number + 1} {backend}: " + ", ".join(f"{k}={v:.1f}" for k, v in row.items()),
                      flush=True)
    print()
    print(f"{'median of ' + str(args.rounds) + ' rounds':<32} {'SQLite':>12} {'PostgreSQL':>12}")
    for name in ("server_cpu_us_per_command", "latency_p50_ms", "latency_p99_ms",
                 "commands_per_second", "database_cpu_us_per_command", "errors"):
        values = [median(row[name] for row in results[backend]) for backend in ("sqlite", "postgresql")]
        print(f"{name:<32} {values[0]:>12.1f} {values[1]:>12.1f}")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average after: {' '.join(load)} (nproc {os.cpu_count()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
