"""Command line of the bundled bots: `python -m fibsd.tools.bots random|gnubg --name N
--password P --host H --port N [--invite NAME --length N] ...`.

Owns argument parsing, logging set-up, signals (SIGINT/SIGTERM log the bot out and stop
gnubg) and the exit status. Everything else is the library's.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Sequence

import trio

from fibsd.tools.bots.client import BotClient, ConnectionLost, LoginFailed
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG, GnubgError, GnubgStrategy
from fibsd.tools.bots.player import BotConfig, MatchResult
from fibsd.tools.bots.strategy import RandomStrategy, Strategy


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--name", required=True, help="the bot's account (registered if new)")
    secret = common.add_mutually_exclusive_group(required=True)
    secret.add_argument("--password")
    secret.add_argument("--password-stdin", action="store_true",
                        help="read the password from the first line of standard input "
                             "(kept out of the process list; the server's house bots use it)")
    common.add_argument("--host", default="127.0.0.1")
    common.add_argument("--port", type=int, default=4321)
    common.add_argument("--invite", metavar="NAME", help="invite NAME whenever both are free")
    common.add_argument("--length", type=int, default=3, help="match length for --invite")
    common.add_argument("--accept-from", metavar="NAMES",
                        help="comma-separated users whose invitations are accepted (default: anyone)")
    common.add_argument("--matches", type=int, help="stop after this many finished matches")
    common.add_argument("--not-ready", action="store_true", help="do not toggle ready on")
    common.add_argument("--tournament", metavar="NAME", action="append", default=[],
                        help="enter tournament NAME after each login (repeatable); its matches start by themselves")
    common.add_argument("--verbose", "-v", action="store_true")
    parser = argparse.ArgumentParser(prog="python -m fibsd.tools.bots", description="fibsd bots")
    kinds = parser.add_subparsers(dest="kind", required=True)
    random_bot = kinds.add_parser("random", parents=[common], help="plays random legal plays")
    random_bot.add_argument("--seed", type=int, help="for a reproducible bot")
    gnubg_bot = kinds.add_parser("gnubg", parents=[common], help="GNU Backgammon plays")
    gnubg_bot.add_argument("--gnubg", default=DEFAULT_GNUBG, help="the gnubg executable")
    gnubg_bot.add_argument("--plies", type=int, default=0, help="evaluation depth (0 = fastest)")
    gnubg_bot.add_argument("--noise", type=float, default=0.0,
                           help="gnubg's evaluation noise (standard deviation in equity; 0 = none)")
    return parser


def config_from(args: argparse.Namespace) -> BotConfig:
    accept = None
    if args.accept_from:
        accept = frozenset(name for name in args.accept_from.split(",") if name)
    password = sys.stdin.readline().strip() if args.password_stdin else args.password
    return BotConfig(
        args.name, password, host=args.host, port=args.port, ready=not args.not_ready,
        accept_from=accept, invite=args.invite, invite_length=args.length, matches=args.matches,
        after_login=tuple(f"tournament join {name}" for name in args.tournament),
    )


async def _play(config: BotConfig, strategy: Strategy) -> list[MatchResult]:
    client = BotClient(config, strategy)
    async with trio.open_nursery() as nursery:

        async def stop_on_signal() -> None:
            with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    client.stop()
                    return

        nursery.start_soon(stop_on_signal)
        results = await client.run()
        nursery.cancel_scope.cancel()
    return results


async def _main(args: argparse.Namespace) -> list[MatchResult]:
    config = config_from(args)
    if args.kind == "gnubg":
        async with GnubgStrategy.started(executable=args.gnubg, plies=args.plies,
                                           noise=args.noise) as gnubg:
            return await _play(config, gnubg)
    return await _play(config, RandomStrategy(seed=args.seed))


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        results = trio.run(_main, args)
    except (LoginFailed, ConnectionLost, GnubgError) as error:
        print(f"{args.name}: {error}", file=sys.stderr)
        return 1
    for result in results:
        outcome = "won" if result.won else "lost"
        print(f"{args.name} {outcome} the {result.length} point match against "
              f"{result.opponent} {result.score}-{result.opponent_score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
