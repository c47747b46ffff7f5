"""The load generator's command line: `python -m fibsd.tools.loadgen SCENARIO [options]`.

Owns argument parsing, the run of one scenario against a freshly started server
subprocess, and the exit status (0 if the run had no errors, 1 otherwise, 2 for bad
arguments). Prints the report, one `name: value` per line, on stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import trio

from fibsd.tools.loadgen.bot import BotOptions
from fibsd.tools.loadgen.report import Report
from fibsd.tools.loadgen.scenarios import (
    Common,
    account_name,
    run_hold,
    run_matches,
    run_storm,
)
from fibsd.tools.loadgen.serverproc import (
    ServerProcess,
    precreate_accounts,
    raise_fd_limit,
)

EPILOG = """\
scenarios:
  matches   S sessions log in; M pairs play bot-vs-bot matches at full speed for T seconds
            (random legal plays, random doubles/takes); the others stay idle.
            Reports moves per second and command latency (p50, p99, max).
  hold      S CLIP sessions log in (at most --login-concurrency at a time) and stay idle;
            reports the ramp-up time and the server's RSS in total and per session.
  storm     S users connect and log in all at once; reports the time until every one has
            seen the `6` ending its who list. Accounts are pre-created in the database.

The server is started as a subprocess on a free port of 127.0.0.1 with its own temporary
database and a load-test configuration (cheap pbkdf2 hash, large outbox), and stopped by
its PID at the end. Exit status: 0 without errors, 1 with errors.

examples:
  scripts/loadgen matches --sessions 2000 --matches 1000 --warmup 240 --seconds 60
  scripts/loadgen hold --sessions 600 --login-concurrency 1 --settle 10   # idle memory
  scripts/loadgen hold --sessions 10000
  scripts/loadgen storm --sessions 2000
"""

MAX_SESSIONS = 15_000
MAX_SECONDS = 3600.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="loadgen", description="Load generator for fibsd (traffic to 127.0.0.1 only).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    scenarios = parser.add_subparsers(dest="scenario", required=True, metavar="SCENARIO")

    def common(sub: argparse.ArgumentParser, sessions: int) -> None:
        sub.add_argument("--sessions", "-s", type=int, default=sessions,
                         help=f"sessions to log in (default {sessions}, at most {MAX_SESSIONS})")
        sub.add_argument("--login-concurrency", type=int, default=200,
                         help="logins in flight at once (default 200; storm: all)")
        sub.add_argument("--login-timeout", type=float, default=600.0,
                         help="seconds one login may take before it counts as an error (default 600)")
        sub.add_argument("--ramp-timeout", type=float, default=1800.0,
                         help="seconds the whole ramp-up may take; logins still pending then"
                              " are given up and count as errors (default 1800)")
        sub.add_argument("--phase-file", type=Path, default=None,
                         help="write the current phase (login, play, done) to this file,"
                              " for pointing a profiler at the server")
        sub.add_argument("--settle", type=float, default=3.0,
                         help="seconds to wait after the logins before measuring memory (default 3)")
        sub.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        sub.add_argument("--sample-seconds", type=float, default=10.0,
                         help="seconds between samples of the server's RSS (and, in matches,"
                              " of commands/s and CPU per command) (default 10)")
        sub.add_argument("--db-dir", type=Path, default=None,
                         help="directory for the server's temporary database (default: $TMPDIR)")
        sub.add_argument("--store", default=None, metavar="postgresql://...",
                         help="the server's store (default: an SQLite file in its temporary"
                              " directory); the database must be empty")
        sub.add_argument("--server-log-level", default="WARNING",
                         help="the server's log_level (default WARNING)")
        sub.add_argument("--server-setting", action="append", default=[], metavar="TABLE.KEY=VALUE",
                         help="override a setting of the load-test configuration, e.g."
                              " limits.max_output_lines=2000 (VALUE in TOML; repeatable)")
        sub.add_argument("--passwords", choices=("cheap", "shipped"), default="cheap",
                         help="account hashes: the load test's cheap pbkdf2 (default), or the "
                              "shipped settings (argon2id, 64 MiB each), to measure logins as a "
                              "real server pays for them")
        sub.add_argument("--server-tree", type=Path, default=None, metavar="DIR",
                         help="run the server of another checkout (PYTHONPATH=DIR for the server "
                              "only): before and after with the same load client")
        sub.add_argument("--keep", action="store_true",
                         help="keep the temporary directory (database, config, server log)")

    matches = scenarios.add_parser("matches", help="bot-vs-bot matches at full speed")
    common(matches, 20)
    matches.add_argument("--matches", "-m", type=int, default=5, help="concurrent matches (default 5)")
    matches.add_argument("--seconds", "-t", type=float, default=5.0, help="seconds of play (default 5)")
    matches.add_argument("--min-matches", type=int, default=0,
                         help="play on after --seconds until this many matches have finished"
                              " (bounded by --ramp-timeout; for tests on a busy machine) (default 0)")
    matches.add_argument("--warmup", type=float, default=0.0,
                         help="seconds of play before the measured --seconds begin (default 0)")
    matches.add_argument("--match-length", type=int, default=5,
                         help="points per match; 0 for unlimited matches (default 5)")
    matches.add_argument("--think-ms", type=float, default=0.0,
                         help="mean think time in ms before each bot command (exponential,"
                              " seeded by --seed; not counted in the latency) (default 0)")
    matches.add_argument("--double-probability", type=float, default=0.05,
                         help="chance a bot doubles when it may (default 0.05)")
    matches.add_argument("--take-probability", type=float, default=0.7,
                         help="chance a bot takes a double (default 0.7)")
    hold = scenarios.add_parser("hold", help="CLIP sessions logged in and held idle")
    common(hold, 50)
    hold.add_argument("--seconds", "-t", type=float, default=0.0,
                      help="extra seconds to hold after the ramp-up (default 0)")
    storm = scenarios.add_parser("storm", help="everyone logs in at once")
    common(storm, 30)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not 1 <= args.sessions <= MAX_SESSIONS:
        parser.error(f"--sessions must be 1..{MAX_SESSIONS}")
    if not 0 <= getattr(args, "seconds", 0.0) <= MAX_SECONDS:
        parser.error(f"--seconds must be 0..{MAX_SECONDS:g}")
    if args.scenario == "matches" and not 1 <= 2 * args.matches <= args.sessions:
        parser.error("--matches must be at least 1 and at most half of --sessions")
    fd_limit = args.sessions + 1024
    client_limit = raise_fd_limit(fd_limit)
    if client_limit < args.sessions + 64:
        parser.error(f"file-descriptor limit {client_limit} is too low for {args.sessions} sessions")
    common = Common(seed=args.seed, login_concurrency=max(1, args.login_concurrency),
                    login_timeout_seconds=args.login_timeout, settle_seconds=args.settle,
                    ramp_timeout_seconds=args.ramp_timeout, phase_file=args.phase_file,
                    sample_seconds=max(0.1, args.sample_seconds))
    try:
        server = ServerProcess(fd_limit=fd_limit, db_dir=args.db_dir, log_level=args.server_log_level,
                               keep=args.keep, overrides=args.server_setting, store=args.store,
                               shipped_passwords=args.passwords == "shipped",
                               server_tree=args.server_tree)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    with server:
        precreate_accounts(server.store_location, (account_name(i) for i in range(args.sessions)),
                           shipped=args.passwords == "shipped")
        server.start()
        report = trio.run(_run, args, server, common)
        common.phase("done")  # the scenario stopped the server (`stop_server`)
        if args.keep:
            report.add("kept_directory", server.directory)
    report.add("wall_seconds", time.perf_counter() - started)
    for line in report.lines():
        print(line)
    sys.stdout.flush()
    return 0 if _ok(report) else 1


def _ok(report: Report) -> bool:
    return (report.get("errors") == "0" and report.get("server_alive_at_end") == "True"
            and report.get("server_log_errors") == "0")


async def _run(args: argparse.Namespace, server: ServerProcess, common: Common) -> Report:
    match args.scenario:
        case "matches":
            options = BotOptions(match_length=args.match_length,
                                 double_probability=args.double_probability,
                                 take_probability=args.take_probability,
                                 think_ms=max(0.0, args.think_ms))
            return await run_matches(server, args.sessions, args.matches, args.seconds, common,
                                     options, warmup_seconds=args.warmup,
                                     min_matches=max(0, args.min_matches))
        case "hold":
            return await run_hold(server, args.sessions, args.seconds, common)
        case "storm":
            return await run_storm(server, args.sessions, common)
    raise AssertionError(args.scenario)


if __name__ == "__main__":
    sys.exit(main())
