"""The `fibsd` command line: `fibsd serve [--config FILE] [--host HOST] [--port PORT] [--db PATH]`.

Reads the configuration (command-line values override the file), opens the store (creating
the database on first start), and runs the server until SIGINT/SIGTERM. A bad setting stops
start-up with a one-line error naming it and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import trio

from fibsd import __version__
from fibsd.config import Config, ConfigError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fibsd", description="A FIBS-compatible backgammon server.")
    parser.add_argument("--version", action="version", version=f"fibsd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser("serve", help="run the server")
    serve.add_argument("--config", type=Path, help="TOML configuration file (default: built-in defaults)")
    serve.add_argument("--host", help="listen address (overrides the configuration)")
    serve.add_argument("--port", help="listen port (overrides the configuration)")
    serve.add_argument("--db", help="SQLite database path (overrides the configuration)")
    return parser


def load_config(config_path: Path | None, *, host: str | None, port: str | None, db: str | None) -> Config:
    """The effective configuration; raises ConfigError naming a bad setting."""
    config = Config.from_toml(config_path) if config_path is not None else Config.default()
    return config.with_overrides(host=host, port=port, db_path=db)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    raise AssertionError(args.command)  # argparse guarantees a known command


def _serve(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, host=args.host, port=args.port, db=args.db)
    except ConfigError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # Imported here so that `fibsd --help` and config errors stay fast and quiet.
    from fibsd.server import Server, run_until_signalled
    from fibsd.store import Store, StoreError

    try:
        store = Store.open(config.db_path)
    except StoreError as error:
        print(f"fibsd: database {config.db_path}: {error}", file=sys.stderr)
        return 2
    try:
        trio.run(run_until_signalled, Server(config, store))
    except OSError as error:
        print(f"fibsd: cannot listen on {config.host}:{config.port}: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
