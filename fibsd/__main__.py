"""The `fibsd` command line: `fibsd serve [--config FILE] [--host HOST] [--port PORT] [--db PATH]
[--web-port PORT]`.

Reads the configuration (command-line values override the file), opens the store (creating
the database on first start), and runs the server until SIGINT/SIGTERM. A bad setting stops
start-up with a one-line error naming it and exit status 2; a port that cannot be opened
(another program listens there) with a one-line error naming the listener (game, TLS, web,
web TLS) and its port, and exit status 1.

Moving to PostgreSQL: `fibsd migrate-store --from sqlite:PATH --to postgresql://...`
copies a whole database and checks it (docs/operations.md).

Match records: `fibsd list-matches [--config FILE] [--db PATH] NAME` lists NAME's recent
finished matches; `fibsd export-match [--config FILE] [--db PATH] ID [-o FILE]` writes one
as a Jellyfish `.mat` file (for GNU Backgammon's `import mat`). An unknown id or a missing
database is a one-line error with exit status 2.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import trio

from fibsd import __version__
from fibsd.infra.config import Config, ConfigError

if TYPE_CHECKING:
    from fibsd.store import Store


E = TypeVar("E", bound=BaseException)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fibsd", description="A FIBS-compatible backgammon server.")
    parser.add_argument("--version", action="version", version=f"fibsd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser("serve", help="run the server")
    serve.add_argument("--config", type=Path, help="TOML configuration file (default: built-in defaults)")
    serve.add_argument("--host", help="listen address (overrides the configuration)")
    serve.add_argument("--port", help="listen port (overrides the configuration)")
    serve.add_argument("--db", help="SQLite database path (overrides the configuration)")
    serve.add_argument("--store", help="store URL: postgresql://... or sqlite:PATH (overrides the configuration)")
    serve.add_argument("--web-port", help="web (HTTP/WebSocket) port (overrides the configuration)")
    listing = commands.add_parser("list-matches", help="list a player's recent finished matches")
    listing.add_argument("--config", type=Path, help="TOML configuration file")
    listing.add_argument("--db", help="SQLite database path (overrides the configuration)")
    listing.add_argument("--store", help="store URL: postgresql://... or sqlite:PATH (overrides the configuration)")
    listing.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    listing.add_argument("name", metavar="NAME", help="the player")
    export = commands.add_parser("export-match", help="write a finished match as a .mat file")
    export.add_argument("--config", type=Path, help="TOML configuration file")
    export.add_argument("--db", help="SQLite database path (overrides the configuration)")
    export.add_argument("--store", help="store URL: postgresql://... or sqlite:PATH (overrides the configuration)")
    export.add_argument("id", metavar="ID", type=int, help="the match record's id (list-matches)")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    adduser = commands.add_parser("adduser", help="create an account (closed clubs)")
    adduser.add_argument("--config", type=Path, help="TOML configuration file")
    adduser.add_argument("--db", help="SQLite database path (overrides the configuration)")
    adduser.add_argument("--store", help="store URL: postgresql://... or sqlite:PATH (overrides the configuration)")
    adduser.add_argument(
        "--password-stdin", action="store_true",
        help="read the password from the first line of standard input instead of asking",
    )
    adduser.add_argument("name", metavar="NAME", help="the new account's name")
    codes = commands.add_parser("invitecode", help="make invitation codes (registration by code)")
    codes.add_argument("--config", type=Path, help="TOML configuration file")
    codes.add_argument("--db", help="SQLite database path (overrides the configuration)")
    codes.add_argument("--store", help="store URL: postgresql://... or sqlite:PATH (overrides the configuration)")
    codes.add_argument("count", metavar="COUNT", type=int, nargs="?", default=1, help="how many (1..100)")
    migrate = commands.add_parser(
        "migrate-store", help="copy a whole SQLite database into an empty PostgreSQL one, and check it")
    migrate.add_argument("--from", dest="source", required=True, metavar="sqlite:PATH",
                         help="the SQLite database (stop fibsd first)")
    migrate.add_argument("--to", dest="target", required=True, metavar="postgresql://...",
                         help="the PostgreSQL database (empty, or created by fibsd and empty)")
    migrate.add_argument("--sample", type=int, default=50,
                         help="rows of each table compared after the copy (default 50)")
    return parser


def load_config(config_path: Path | None, *, host: str | None, port: str | None, db: str | None,
                web_port: str | None = None, store: str | None = None) -> Config:
    """The effective configuration; raises ConfigError naming a bad setting."""
    config = Config.from_toml(config_path) if config_path is not None else Config.default()
    return config.with_overrides(host=host, port=port, db_path=db, web_port=web_port, store=store)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    if args.command == "list-matches":
        return _list_matches(args)
    if args.command == "export-match":
        return _export_match(args)
    if args.command == "adduser":
        return _adduser(args)
    if args.command == "invitecode":
        return _invitecode(args)
    if args.command == "migrate-store":
        return _migrate_store(args)
    raise AssertionError(args.command)  # argparse guarantees a known command


def _serve(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, host=args.host, port=args.port, db=args.db,
                             web_port=args.web_port, store=args.store)
    except ConfigError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # Imported here so that `fibsd --help` and config errors stay fast and quiet.
    from fibsd.shell.listeners import ListenError
    from fibsd.shell.server import Server, run_until_signalled
    from fibsd.store import StoreError
    from fibsd.store.backends import open_store

    try:
        store = open_store(config.store_location, pool_size=config.store_pool_size)
    except StoreError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return 2
    try:
        server = Server(config, store)  # reads the TLS certificate and key, if enabled
    except ConfigError as error:
        store.close()
        print(f"fibsd: {error}", file=sys.stderr)
        return 2
    _tune_garbage_collector()
    try:
        trio.run(run_until_signalled, server)
    except BaseExceptionGroup as group:  # trio's nurseries wrap what their tasks raised
        busy = _first(group, ListenError)
        if busy is None:
            raise
        print(f"fibsd: {busy}", file=sys.stderr)
        return 1
    except ListenError as busy:
        print(f"fibsd: {busy}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _first(group: BaseExceptionGroup[BaseException], kind: type[E]) -> E | None:
    """The first exception of `kind` in `group`, however deeply nested."""
    for error in group.exceptions:
        if isinstance(error, kind):
            return error
        if isinstance(error, BaseExceptionGroup):
            found = _first(error, kind)
            if found is not None:
                return found
    return None


#: Allocations between young collections (CPython's default is 700), and how many young
#: (then middle) collections come before an older one is considered.
GC_THRESHOLDS = (50_000, 20, 10)


def _tune_garbage_collector() -> None:
    """Collect cyclic garbage less often, and never scan what start-up made.

    Each command's outcome waits for the group commit across many scheduler passes, so
    the objects of hundreds of commands in flight survive young collections; with the
    default thresholds the server spent about a tenth of its time in collections that
    freed little (500 bot matches: 483 -> 429 us of CPU per command with these values).
    `gc.freeze` moves everything allocated so far (modules, configuration, the registry)
    out of every future collection."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _open_records(args: argparse.Namespace) -> tuple[Config, Store] | None:
    """The configuration and the existing database, or None after a one-line error."""
    return _open_store(args, must_exist=True)


def _list_matches(args: argparse.Namespace) -> int:
    from fibsd.domain.matfile import record_summary

    opened = _open_records(args)
    if opened is None:
        return 2
    with opened[1] as store:
        records = store.match_records_of(args.name, limit=max(args.limit, 1))
    if not records:
        print(f"No finished matches of {args.name}.")
    for record in records:
        print(record_summary(record))
    return 0


def _export_match(args: argparse.Namespace) -> int:
    from fibsd.domain.matfile import mat_lines

    opened = _open_records(args)
    if opened is None:
        return 2
    config, store = opened
    with store:
        record = store.match_record(args.id)
    if record is None:
        print(f"fibsd: no match record {args.id}", file=sys.stderr)
        return 2
    try:
        text = "".join(f"{line}\n" for line in mat_lines(record, config.club_name))
    except ValueError as error:
        print(f"fibsd: match record {args.id} cannot be read: {error}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"fibsd: cannot write {args.output}: {error}", file=sys.stderr)
        return 1
    return 0



def _open_store(args: argparse.Namespace, *, must_exist: bool = False) -> tuple[Config, Store] | None:
    """The configuration and the store, or None after a one-line error. Commands that only
    read (`must_exist`) never leave an empty database behind where a path was mistyped."""
    from fibsd.store import StoreError
    from fibsd.store.backends import open_store

    try:
        config = load_config(args.config, host=None, port=None, db=args.db, store=args.store)
    except ConfigError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return None
    if must_exist and not config.store and not Path(config.db_path).is_file():
        print(f"fibsd: no database at {config.db_path}", file=sys.stderr)
        return None
    try:
        return config, open_store(config.store_location, pool_size=config.store_pool_size)
    except StoreError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return None


def _adduser(args: argparse.Namespace) -> int:
    """Create an account from the command line; the password is asked twice (no echo)."""
    import getpass
    import time

    from fibsd.domain.accounts import Account, password_problem
    from fibsd.store import NameTaken
    from protocol.vocabulary import name_problem

    if name_problem(args.name) is not None:
        print(f"fibsd: '{args.name}' is not a possible name (letters and _ only, at most 20)",
              file=sys.stderr)
        return 2
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Password again: ") != password:
            print("fibsd: the two passwords were not identical", file=sys.stderr)
            return 2
    if password_problem(password) is not None:
        print("fibsd: a password has at least 4 characters, no ':' and no blanks", file=sys.stderr)
        return 2
    opened = _open_store(args)
    if opened is None:
        return 2
    config, store = opened
    with store:
        password_hash = config.password_hasher().hash(password)
        try:
            store.create_account(Account.new(args.name, password_hash, time.time()))
        except NameTaken:
            print(f"fibsd: the name '{args.name}' is already taken", file=sys.stderr)
            return 2
    print(f"Account {args.name} created.")
    return 0


def _invitecode(args: argparse.Namespace) -> int:
    """Print new invitation codes (clubs with `registration = "code"`)."""
    import time

    from fibsd.domain.accounts import new_invitation_codes

    if not 1 <= args.count <= 100:
        print("fibsd: COUNT must be 1..100", file=sys.stderr)
        return 2
    opened = _open_store(args)
    if opened is None:
        return 2
    codes = new_invitation_codes(args.count)
    with opened[1] as store:
        store.add_invitation_codes(codes, by="(command line)", at=time.time())
    print("\n".join(codes))
    return 0


def _migrate_store(args: argparse.Namespace) -> int:
    """Copy a club's SQLite database into PostgreSQL (fibsd.store.copy), checked."""
    from fibsd.store import StoreError
    from fibsd.store.backends import is_postgresql
    from fibsd.store.copy import copy_sqlite_to_postgresql

    source, target = str(args.source), str(args.target)
    if is_postgresql(source) or not is_postgresql(target):
        print("fibsd: migrate-store copies --from sqlite:PATH --to postgresql://...", file=sys.stderr)
        return 2
    try:
        report = copy_sqlite_to_postgresql(
            source.removeprefix("sqlite:"), target, sample=max(args.sample, 1),
            progress=lambda line: print(f"fibsd: copied {line}", file=sys.stderr),
        )
    except StoreError as error:
        print(f"fibsd: {error}", file=sys.stderr)
        return 1
    total = sum(report.rows.values())
    print(f"copied {total} rows of {len(report.rows)} tables; counts equal; "
          f"{report.sampled} sampled rows equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
