"""Where an idle logged-in session's memory goes: tracemalloc in a server process.

Runs a fibsd server in this process with `tracemalloc` on (load-test configuration, as in
`fibsd.tools.loadgen`), logs in a warm-up batch of CLIP sessions from a client subprocess, takes
a snapshot, logs in `--sessions` more, lets everything settle, takes a second snapshot, and
prints the growth per added session: in total, and by the line that allocated it. RSS
growth per session is printed too (it includes allocator overhead and freed-but-kept
memory, which tracemalloc does not count). Traffic goes only to 127.0.0.1.

    scripts/bench-memory --sessions 1000
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import tempfile
import textwrap
import tracemalloc
from pathlib import Path

import trio

from fibsd.infra.config import Config
from fibsd.shell.server import Server
from fibsd.store.sqlite import SQLiteStore as Store
from fibsd.tools.loadgen.scenarios import account_name
from fibsd.tools.loadgen.serverproc import (
    config_text,
    free_port,
    precreate_accounts,
    raise_fd_limit,
    read_rss_kib,
)

CLIENT = textwrap.dedent("""
    import sys, trio
    from fibsd.tools.loadgen.scenarios import Common, account_name, log_in_all
    from fibsd.tools.loadgen.serverproc import raise_fd_limit
    port, start, stop = (int(value) for value in sys.argv[1:4])
    raise_fd_limit(stop - start + 100)

    async def main():
        async with trio.open_nursery() as nursery:
            names = [account_name(index) for index in range(start, stop)]
            held = await log_in_all(nursery, port, names, Common(login_concurrency=100),
                                    drain=lambda name: True)
            print("ready", len(held.clients), held.failed_logins, flush=True)
            await trio.to_thread.run_sync(sys.stdin.read)  # until the parent closes stdin
            nursery.cancel_scope.cancel()

    trio.run(main)
""")


async def _batch(port: int, start: int, stop: int) -> trio.Process:
    """A client subprocess holding sessions start..stop, once all are logged in."""
    process = await trio.lowlevel.open_process(
        [sys.executable, "-c", CLIENT, str(port), str(start), str(stop)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    with trio.fail_after(1800):
        answer = await process.stdout.receive_some(200)
    print(f"client batch {start}..{stop}: {answer.decode().strip()}", flush=True)
    return process


def _settled_snapshot() -> tracemalloc.Snapshot:
    gc.collect()
    return tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )


async def _measure(args: argparse.Namespace, directory: Path) -> None:
    port = free_port()
    db_path = directory / "fibsd.db"
    motd = directory / "motd.txt"
    motd.write_text("memory measurement\n", encoding="utf-8")
    total = args.warmup + args.sessions
    precreate_accounts(db_path, (account_name(index) for index in range(total)))
    config_path = directory / "fibsd.toml"
    config_path.write_text(config_text(port, db_path, motd, log_level="WARNING"), encoding="utf-8")
    config = Config.from_toml(config_path)
    with Store.open(config.db_path) as store:
        server = Server(config, store)
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            first = await _batch(port, 0, args.warmup)
            await trio.sleep(args.settle)
            rss_before = read_rss_kib_self()
            before = _settled_snapshot()
            second = await _batch(port, args.warmup, total)
            await trio.sleep(args.settle)
            rss_after = read_rss_kib_self()
            after = _settled_snapshot()
            _report(before, after, args.sessions, rss_before, rss_after, args.top)
            for process in (first, second):
                assert process.stdin is not None
                await process.stdin.aclose()
                await process.wait()
            server.request_stop()


def read_rss_kib_self() -> int:
    import os

    return read_rss_kib(os.getpid())


def _report(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, sessions: int,
            rss_before: int, rss_after: int, top: int) -> None:
    stats = after.compare_to(before, "lineno")
    grown = sum(stat.size_diff for stat in stats)
    print(f"sessions_added: {sessions}")
    print(f"traced_bytes_per_session: {grown / sessions:.0f}")
    print(f"rss_kib_per_session: {(rss_after - rss_before) / sessions:.1f}")
    print(f"top {top} allocation sites by growth (bytes per session, blocks per session):")
    for stat in stats[:top]:
        frame = stat.traceback[0]
        print(f"  {stat.size_diff / sessions:8.0f} B  {stat.count_diff / sessions:6.2f}  "
              f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    raise_fd_limit(2 * (args.sessions + args.warmup) + 100)
    tracemalloc.start(1)
    with tempfile.TemporaryDirectory(prefix="fibsd-mem-") as directory:
        trio.run(_measure, args, Path(directory))
    return 0


if __name__ == "__main__":
    sys.exit(main())
