"""Server configuration: every operator setting, its default and its validation.

This module owns `Config` (an immutable value with one field per setting, units in the
names), reading it from TOML (`conf/fibsd.toml` documents every setting with its
default), command-line overrides, and the rule that a bad setting stops start-up with a
one-line `ConfigError` naming it (the MOTD file is `fibsd.infra.motd`'s). It must not
import trio or the wire codec (of `protocol` it asks only `protocol.vocabulary` whether an
admin name is a possible name), and nothing reads configuration into module globals:
the server builds one `Config` at start-up and passes it down.

TOML layout (every table and key optional; unknown tables and keys are errors, because a
typo must not silently leave a default in force):

    [server]     host, port, db_path, store, store_pool_size, motd_file, club_name, log_level
    [limits]     idle_timeout_seconds, login_timeout_seconds, max_line_bytes,
                 max_output_lines, max_login_failures
    [passwords]  password_hash_scheme, argon2_time_cost, argon2_memory_cost_kib,
                 argon2_parallelism, pbkdf2_rounds, password_hashes_at_once
    [admin]      admins
    [club]       registration, allowed_networks
    [tls]        tls_enabled, tls_port, tls_cert_file, tls_key_file
    [web]        web_enabled, web_port, web_tls_port, web_allowed_origins, web_board
    [analysis]   analysis_gnubg, analysis_workers, analysis_queue_size,
                 analysis_time_limit_seconds, analysis_checker_plies,
                 analysis_cube_plies, analysis_auto, puzzle_threshold
    [tournaments] tournament_creators, tournament_noshow_seconds,
                 tournament_live_per_creator, tournament_live_max, tournament_max_entrants
    [clocks]     clock_required_for_rated, clock_default_overtime_seconds,
                 clock_max_delay_seconds, clock_max_reserve_seconds, correspondence_max_days
    [bots]       house_bots, bots_gnubg, bots_rated, bots_restart_max_seconds

Key names are exactly the `Config` field names, so an error message, the file and the
code use one name for each setting. Relative paths (`db_path`, `motd_file`) are relative
to the current working directory of the server process, not to the config file:
`./scripts/serve` runs from the repository root, where `var/` and `conf/` live.
"""

from __future__ import annotations

import difflib
import ipaddress
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Final, Literal

import attrs

from fibsd.infra.house_bots import HouseBot, house_bots_from
from fibsd.infra.passwords import SCHEMES, PasswordHasher, Scheme
from protocol.vocabulary import name_problem

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LOG_LEVELS: Final[tuple[LogLevel, ...]] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# Which TOML table each setting lives in; the order here is the order of conf/fibsd.toml.
TABLES: Final[Mapping[str, tuple[str, ...]]] = {
    "server": ("host", "port", "db_path", "store", "store_pool_size", "motd_file", "club_name",
               "log_level"),
    "limits": (
        "idle_timeout_seconds",
        "login_timeout_seconds",
        "max_line_bytes",
        "max_output_lines",
        "max_login_failures",
        "commands_per_second",
        "command_burst",
        "flood_warnings",
        "shout_interval_seconds",
        "max_connections_per_address",
        "new_accounts_per_address_per_hour",
        "login_failures_before_delay",
        "login_failures_before_block",
        "login_block_seconds",
        "reconnect_grace_seconds",
        "announce_interval_seconds",
    ),
    "passwords": (
        "password_hash_scheme",
        "argon2_time_cost",
        "argon2_memory_cost_kib",
        "argon2_parallelism",
        "pbkdf2_rounds",
        "password_hashes_at_once",
    ),
    "admin": ("admins",),
    "club": ("registration", "allowed_networks"),
    # Issue 8: the optional second listener speaking TLS (fibsd/shell/tls.py).
    "tls": ("tls_enabled", "tls_port", "tls_cert_file", "tls_key_file"),
    # Issue 16: the HTTP/WebSocket listener and its web client (fibsd/shell/web.py).
    "web": ("web_enabled", "web_port", "web_tls_port", "web_allowed_origins", "web_board"),
    # Issue 23: engine analysis by GNU Backgammon worker processes (fibsd/shell/analysis_workers.py).
    "analysis": (
        "analysis_gnubg",
        "analysis_workers",
        "analysis_queue_size",
        "analysis_time_limit_seconds",
        "analysis_checker_plies",
        "analysis_cube_plies",
        "analysis_auto",
        "puzzle_threshold",
    ),
    # Issue 24: club tournaments (docs/tournaments.md).
    "tournaments": ("tournament_creators", "tournament_noshow_seconds", "tournament_live_per_creator",
                    "tournament_live_max", "tournament_max_entrants"),
    # Issue 22: match clocks and correspondence (docs/clocks.md).
    "clocks": (
        "clock_required_for_rated",
        "clock_default_overtime_seconds",
        "clock_max_delay_seconds",
        "clock_max_reserve_seconds",
        "correspondence_max_days",
    ),
    # Issue 36: house bots run by the server (fibsd/shell/house_bots.py, docs/bots.md).
    "bots": ("house_bots", "bots_gnubg", "bots_rated", "bots_restart_max_seconds"),
}
REGISTRATION_POLICIES: Final = ("open", "closed", "code")
TOURNAMENT_CREATORS: Final = ("members", "admins")
# Which finished matches the analysis queue takes by itself (docs/analysis.md).
AUTO_CHOICES: Final = ("rated", "tournament", "none")
_TABLE_OF: Final = {key: table for table, keys in TABLES.items() for key in keys}

MAX_CLUB_NAME_CHARS: Final = 40


class ConfigError(Exception):
    """A setting is missing its mark; `str(error)` is one line naming the setting."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


def _shown(value: object) -> str:
    """A value as the operator wrote it, on one line (repr escapes newlines)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return repr(value)


def _fail(setting: str, requirement: str, value: object) -> ConfigError:
    return ConfigError(f"setting '{setting}': {requirement}, got {_shown(value)}", setting)


def _int_in(setting: str, value: object, low: int, high: int) -> int:
    # bool is an int in Python, but `port = true` is a mistake, not the port 1.
    if type(value) is not int or not low <= value <= high:
        raise _fail(setting, f"must be an integer {low}..{high}", value)
    return value


def _seconds(setting: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise _fail(setting, f"must be a number of seconds {low:g}..{high:g}", value)
    return float(value)


def _number_in(setting: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise _fail(setting, f"must be a number {low:g}..{high:g}", value)
    return float(value)


def _text(setting: str, value: object, max_chars: int) -> str:
    if (
        not isinstance(value, str)
        or not value
        or len(value) > max_chars
        or not all(" " <= ch < "\x7f" for ch in value)
    ):
        raise _fail(setting, f"must be 1..{max_chars} printable ASCII characters", value)
    return value


def _path(setting: str, value: object) -> Path:
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise _fail(setting, "must be a non-empty path", value)
    return Path(value)


#: The looks of the web client's board (`[web] web_board`).
WEB_BOARDS: Final = ("felt", "wood")

def _one_of(setting: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _fail(setting, "must be one of " + ", ".join(repr(c) for c in choices), value)
    assert isinstance(value, str)
    return value


def _admins(value: object) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise _fail("admins", "must be a list of account names", value)
    for name in value:
        # An admin must be a name someone can register, or the entry is a typo.
        if not isinstance(name, str) or name_problem(name) is not None:
            raise _fail("admins", "must be a list of valid account names", name)
    return tuple(value)


def _host(value: object) -> str:
    # An address or a host name to bind; "" is refused because it means "all interfaces"
    # by accident; write "0.0.0.0" or "::" to mean it.
    if (
        not isinstance(value, str)
        or not value
        or len(value) > 253
        or not all(ch.isascii() and (ch.isalnum() or ch in ".-:_%") for ch in value)
    ):
        raise _fail("host", "must be an IP address or host name", value)
    return value


def _store(setting: str, value: object) -> str:
    # "" (the SQLite file db_path), "sqlite:PATH" or a PostgreSQL URL.
    if not isinstance(value, str) or not (
        value == "" or value.startswith(("sqlite:", "postgresql://", "postgres://"))
    ):
        raise _fail(setting, 'must be "", "sqlite:PATH" or "postgresql://..."', value)
    return value


def _validate(config: Config) -> None:
    """Check every field; the first bad one raises. Called by attrs after __init__, so a
    Config that exists is valid however it was built (default, TOML, overrides, evolve)."""
    _host(config.host)
    _int_in("port", config.port, 0, 65535)
    _path("db_path", config.db_path)
    _store("store", config.store)
    _int_in("store_pool_size", config.store_pool_size, 2, 1000)
    _path("motd_file", config.motd_file)
    _text("club_name", config.club_name, MAX_CLUB_NAME_CHARS)
    _one_of("log_level", config.log_level, LOG_LEVELS)
    _seconds("idle_timeout_seconds", config.idle_timeout_seconds, 1, 7 * 24 * 3600)
    _seconds("login_timeout_seconds", config.login_timeout_seconds, 1, 24 * 3600)
    # A CLIP login line (name 20, client 20, password) must fit; 64 KiB is already silly.
    _int_in("max_line_bytes", config.max_line_bytes, 128, 65536)
    # The outbox counts pieces (one per command answer or announcement, however many
    # lines): a client that is this far behind is cut off.
    _int_in("max_output_lines", config.max_output_lines, 100, 1_000_000)
    _int_in("max_login_failures", config.max_login_failures, 1, 100)
    _seconds("commands_per_second", config.commands_per_second, 0.1, 10_000)
    _int_in("command_burst", config.command_burst, 1, 100_000)
    _int_in("flood_warnings", config.flood_warnings, 0, 1000)
    _seconds("shout_interval_seconds", config.shout_interval_seconds, 0, 24 * 3600)
    _int_in("max_connections_per_address", config.max_connections_per_address, 1, 1_000_000)
    _int_in("new_accounts_per_address_per_hour", config.new_accounts_per_address_per_hour, 0, 1_000_000)
    _int_in("login_failures_before_delay", config.login_failures_before_delay, 0, 1000)
    _int_in("login_failures_before_block", config.login_failures_before_block, 1, 1000)
    _seconds("login_block_seconds", config.login_block_seconds, 0, 30 * 24 * 3600)
    _seconds("reconnect_grace_seconds", config.reconnect_grace_seconds, 0, 7 * 24 * 3600)
    _one_of("password_hash_scheme", config.password_hash_scheme, SCHEMES)
    _int_in("argon2_time_cost", config.argon2_time_cost, 1, 100)
    _int_in("argon2_parallelism", config.argon2_parallelism, 1, 64)
    # argon2 needs at least 8 KiB per lane; 4 GiB is the most any sane server would spend.
    _int_in(
        "argon2_memory_cost_kib",
        config.argon2_memory_cost_kib,
        8 * config.argon2_parallelism,
        4 * 1024 * 1024,
    )
    _int_in("pbkdf2_rounds", config.pbkdf2_rounds, 1000, 100_000_000)
    _int_in("password_hashes_at_once", config.password_hashes_at_once, 0, 64)
    _seconds("announce_interval_seconds", config.announce_interval_seconds, 0, 60)
    _admins(config.admins)
    _one_of("registration", config.registration, REGISTRATION_POLICIES)
    _networks(config.allowed_networks)
    # [tls]: "off" is a boolean rather than an unset port because TOML has no null and
    # conf/fibsd.toml shows every setting with its default.
    if type(config.tls_enabled) is not bool:
        raise _fail("tls_enabled", "must be true or false", config.tls_enabled)
    _int_in("tls_port", config.tls_port, 0, 65535)
    _path("tls_cert_file", config.tls_cert_file)
    _path("tls_key_file", config.tls_key_file)
    if config.tls_enabled and config.tls_port == config.port != 0:
        raise _fail("tls_port", "must differ from 'port'", config.tls_port)
    if type(config.web_enabled) is not bool:
        raise _fail("web_enabled", "must be true or false", config.web_enabled)
    _int_in("web_port", config.web_port, 0, 65535)
    _int_in("web_tls_port", config.web_tls_port, 0, 65535)
    if config.web_enabled and config.web_port != 0 and config.web_port in (
        config.port, config.tls_port if config.tls_enabled else -1
    ):
        raise _fail("web_port", "must differ from 'port' and 'tls_port'", config.web_port)
    _origins(config.web_allowed_origins)
    _one_of("web_board", config.web_board, WEB_BOARDS)
    _text("analysis_gnubg", config.analysis_gnubg, 4096)
    _int_in("analysis_workers", config.analysis_workers, 0, 64)
    _int_in("analysis_queue_size", config.analysis_queue_size, 1, 100_000)
    _seconds("analysis_time_limit_seconds", config.analysis_time_limit_seconds, 1, 24 * 3600)
    _int_in("analysis_checker_plies", config.analysis_checker_plies, 0, 4)
    _int_in("analysis_cube_plies", config.analysis_cube_plies, 0, 4)
    _one_of("analysis_auto", config.analysis_auto, AUTO_CHOICES)
    _number_in("puzzle_threshold", config.puzzle_threshold, 0.001, 2.0)
    _one_of("tournament_creators", config.tournament_creators, TOURNAMENT_CREATORS)
    _seconds("tournament_noshow_seconds", config.tournament_noshow_seconds, 1, 7 * 24 * 3600)
    _int_in("tournament_live_per_creator", config.tournament_live_per_creator, 1, 1000)
    _int_in("tournament_live_max", config.tournament_live_max, 1, 10_000)
    _int_in("tournament_max_entrants", config.tournament_max_entrants, 2, 10_000)  # (protocol.commands.MAX_TOURNAMENT_ENTRANTS)
    if type(config.clock_required_for_rated) is not bool:
        raise _fail("clock_required_for_rated", "must be true or false", config.clock_required_for_rated)
    _seconds("clock_default_overtime_seconds", config.clock_default_overtime_seconds, 0, 3600)
    _seconds("clock_max_delay_seconds", config.clock_max_delay_seconds, 0, 3600)
    _seconds("clock_max_reserve_seconds", config.clock_max_reserve_seconds, 1, 7 * 24 * 3600)
    _seconds("correspondence_max_days", config.correspondence_max_days, 0.0001, 365)
    _text("bots_gnubg", config.bots_gnubg, 4096)
    if type(config.bots_rated) is not bool:
        raise _fail("bots_rated", "must be true or false", config.bots_rated)
    _seconds("bots_restart_max_seconds", config.bots_restart_max_seconds, 1, 24 * 3600)


def _origins(value: object) -> tuple[str, ...]:
    # An origin is what a browser sends in its Origin header: scheme://host[:port], no
    # path. "*" allows every page (the server's own page is always allowed).
    requirement = 'must be a list of origins like "https://example.org" (or "*")'
    if not isinstance(value, (list, tuple)):
        raise _fail("web_allowed_origins", requirement, value)
    for origin in value:
        if not isinstance(origin, str) or not (
            origin == "*"
            or (
                origin.startswith(("http://", "https://"))
                and "/" not in origin.split("://", 1)[1]
                and all(" " < ch < "\x7f" for ch in origin)
            )
        ):
            raise _fail("web_allowed_origins", requirement, origin)
    return tuple(value)


def _networks(value: object) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise _fail("allowed_networks", "must be a list of networks like \"192.168.0.0/16\"", value)
    for network in value:
        try:
            ipaddress.ip_network(network, strict=False)
        except (ValueError, TypeError):
            raise _fail("allowed_networks", "must be a list of networks like \"192.168.0.0/16\"", network) from None
    return tuple(value)


def _to_path(value: object) -> object:
    # Accept str from TOML/CLI; leave anything else for the validator to name.
    return Path(value) if isinstance(value, str) and value and "\0" not in value else value


def _to_house_bots(value: object) -> tuple[HouseBot, ...]:
    try:
        return house_bots_from(value)
    except (TypeError, ValueError) as error:  # (one line naming the setting, as the others)
        raise ConfigError(f"setting 'house_bots': {error}", "house_bots") from None


def _to_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _to_upper(value: object) -> object:
    return value.upper() if isinstance(value, str) else value


@attrs.frozen
class Config:
    """Every setting of a fibsd server, with safe defaults (loopback only, slow hashes).

    Build it with `Config.default()`, `Config.from_toml(path)` and `with_overrides(...)`;
    invalid values raise `ConfigError` whichever way they come in.
    """

    # [server]
    host: str = "127.0.0.1"
    port: int = 4321
    db_path: Path = attrs.field(default=Path("var/fibsd.db"), converter=_to_path)
    #: Where the store is: "" for the SQLite file `db_path`, or "postgresql://..." (or
    #: "sqlite:PATH"); see docs/operations.md.
    store: str = ""
    #: The most connections a PostgreSQL store opens at once.
    store_pool_size: int = 4
    motd_file: Path = attrs.field(default=Path("conf/motd.txt"), converter=_to_path)
    club_name: str = "fibsd"
    log_level: LogLevel = attrs.field(default="INFO", converter=_to_upper)
    # [limits]
    idle_timeout_seconds: float = 3600.0  # FIBS: about one hour without input
    login_timeout_seconds: float = 120.0
    max_line_bytes: int = 1024
    max_output_lines: int = 2000
    max_login_failures: int = 5
    # [passwords]: argon2id at RFC 9106's second recommended option (64 MiB, t=3);
    # pbkdf2 at OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    password_hash_scheme: Scheme = "argon2"
    argon2_time_cost: int = 3
    argon2_memory_cost_kib: int = 65536
    argon2_parallelism: int = 1
    pbkdf2_rounds: int = 600_000
    #: Password hashes computed at the same time (each argon2 one holds its memory);
    #: 0: one per CPU core.
    password_hashes_at_once: int = 0
    # Abuse limits (fibsd's own; FIBS documents none of these numbers).
    commands_per_second: float = 20.0  # sustained; bots at full speed need a few per move
    command_burst: int = 60
    flood_warnings: int = 3  # warnings while over the limit, then the connection closes
    shout_interval_seconds: float = 10.0
    max_connections_per_address: int = 16
    new_accounts_per_address_per_hour: int = 5
    login_failures_before_delay: int = 3  # then each failed login waits longer (up to 8 s)
    login_failures_before_block: int = 10  # per address and per account, within an hour
    login_block_seconds: float = 900.0
    # A player who drops out of a match may come back within this time and is put
    # straight back into it; after it the opponent may `claim` the match. 0: FIBS's way
    # (the match is simply saved).
    reconnect_grace_seconds: float = 300.0
    #: Logins are announced to everyone in batches at most this often (0: at once).
    announce_interval_seconds: float = 0.2
    # [admin]
    admins: tuple[str, ...] = attrs.field(default=(), converter=_to_tuple)
    # [club]: "open" (guest registration, as on FIBS), "closed" (only operators create
    # accounts) or "code" (guests need an invitation code an admin handed out).
    registration: str = "open"
    # Networks allowed to connect (CIDR); empty: everyone.
    allowed_networks: tuple[str, ...] = attrs.field(default=(), converter=_to_tuple)
    # [tls]: a second listener speaking TLS, off by default; `scripts/make-cert` writes a
    # self-signed pair to the default paths. 0 picks a free port (tests).
    tls_enabled: bool = False
    tls_port: int = 4322
    tls_cert_file: Path = attrs.field(default=Path("var/tls/fibsd-cert.pem"), converter=_to_path)
    tls_key_file: Path = attrs.field(default=Path("var/tls/fibsd-key.pem"), converter=_to_path)
    # [web]: HTTP for the web client and WebSocket (`/fibs`) for any browser client, on
    # the same address as `host`; off here, on in conf/fibsd.toml (`./scripts/serve`).
    # With TLS on, `web_tls_port` serves https/wss with the same certificate.
    web_enabled: bool = False
    web_port: int = 8080
    web_tls_port: int = 8443
    # Pages on other sites allowed to open the WebSocket (Origin header); the server's own
    # page, and clients that send no Origin (not browsers), are always allowed.
    web_allowed_origins: tuple[str, ...] = attrs.field(default=(), converter=_to_tuple)
    # The web client's board: green felt or wood, at the operator's choice.
    web_board: str = "felt"
    # [analysis]: GNU Backgammon (GPL) run as separate worker processes, never imported;
    # defaults from docs/benchmarks.md ("Engine analysis"). 0 workers: analysis is off.
    analysis_gnubg: str = "/usr/games/gnubg"
    analysis_workers: int = 1
    analysis_queue_size: int = 50
    analysis_time_limit_seconds: float = 600.0
    analysis_checker_plies: int = 1
    analysis_cube_plies: int = 1
    analysis_auto: str = "rated"
    # Issue 37 (docs/puzzles.md): a decision of an analysed match that cost its player
    # more than this (EMG, the unit of docs/analysis.md) becomes a puzzle.
    puzzle_threshold: float = 0.050
    # [tournaments]: who may `tournament create` ("members": anyone logged in; "admins":
    # the accounts in `admins`), and the no-show time of a tournament that sets none.
    tournament_creators: str = "members"
    tournament_noshow_seconds: float = 600.0
    # Issue 35: live (open or running) tournaments a member may have created at a time
    # (administrators exempt), live ones on the server at a time, and entrants in one
    # (the highest `max` a tournament may set, and the bound of `tournament join`).
    tournament_live_per_creator: int = 2
    tournament_live_max: int = 20
    tournament_max_entrants: int = 512
    # [clocks] (docs/clocks.md): whether a rated (fixed-length) match needs a clock; the
    # overtime every clocked match gets unless its invitation names one (K4; 0: none);
    # the longest delay and the longest reserve of a whole match (per game in unlimited
    # matches) an invitation may ask for; the longest correspondence limit per move.
    clock_required_for_rated: bool = False
    clock_default_overtime_seconds: float = 0.0
    clock_max_delay_seconds: float = 60.0
    clock_max_reserve_seconds: float = 6 * 3600.0
    correspondence_max_days: float = 30.0
    # [bots] (docs/bots.md): the house bots the server runs (none by default; conf/fibsd.toml
    # lists three), their gnubg, rated or not, the longest wait before restarting one.
    house_bots: tuple[HouseBot, ...] = attrs.field(default=(), converter=_to_house_bots)
    bots_gnubg: str = "/usr/games/gnubg"
    bots_rated: bool = True
    bots_restart_max_seconds: float = 60.0

    def __attrs_post_init__(self) -> None:
        _validate(self)

    @classmethod
    def default(cls) -> Config:
        """Every setting at its default (what an empty config file gives)."""
        return cls()

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Config:
        """Build from parsed TOML (tables of settings); unknown tables or keys are errors."""
        values: dict[str, object] = {}
        for table, content in data.items():
            if table not in TABLES:
                if table in _TABLE_OF:
                    raise ConfigError(
                        f"setting '{table}': must be inside the [{_TABLE_OF[table]}] table",
                        table,
                    )
                raise ConfigError(f"unknown table [{table}]{_did_you_mean(table, TABLES)}")
            if not isinstance(content, Mapping):
                raise ConfigError(f"[{table}] must be a table, got {_shown(content)}")
            for key, value in content.items():
                if key not in TABLES[table]:
                    if key in _TABLE_OF:
                        raise ConfigError(
                            f"setting '{key}': belongs in [{_TABLE_OF[key]}], not [{table}]",
                            key,
                        )
                    raise ConfigError(
                        f"unknown setting '{table}.{key}'{_did_you_mean(key, _TABLE_OF)}",
                        key,
                    )
                values[key] = value
        return cls(**values)  # type: ignore[arg-type]  # each value is validated

    @classmethod
    def from_toml(cls, path: str | Path) -> Config:
        """Read and validate a TOML file; errors are one line starting with the file name."""
        path = Path(path)
        try:
            with path.open("rb") as file:
                data = tomllib.load(file)
        except OSError as error:
            raise ConfigError(f"{path}: cannot read config file: {error.strerror}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise ConfigError(f"{path}: not valid TOML: {error}") from None
        try:
            return cls.from_mapping(data)
        except ConfigError as error:
            raise ConfigError(f"{path}: {error}", error.setting) from None

    def with_overrides(
        self,
        *,
        host: str | None = None,
        port: int | str | None = None,
        db_path: str | Path | None = None,
        web_port: int | str | None = None,
        store: str | None = None,
    ) -> Config:
        """A copy with the command-line values that were given (None = not given).

        `port` may be the string from the command line: it is parsed here so that a bad
        value gets the same one-line error as in the file.
        """
        changes: dict[str, object] = {}
        if host is not None:
            changes["host"] = host
        if port is not None:
            if isinstance(port, str):
                port = int(port) if port.isascii() and port.isdigit() else port
            changes["port"] = port
        if db_path is not None:
            changes["db_path"] = db_path
            changes.setdefault("store", "")  # --db names the SQLite file to use
        if store is not None:
            changes["store"] = store
        if web_port is not None:
            if isinstance(web_port, str):
                web_port = int(web_port) if web_port.isascii() and web_port.isdigit() else web_port
            changes["web_port"] = web_port
        return attrs.evolve(self, **changes)  # type: ignore[arg-type]  # validated

    @property
    def store_location(self) -> str:
        """The store to open (`fibsd.store.backends.open_store`): `store`, else `db_path`."""
        return self.store or str(self.db_path)

    def password_hasher(self) -> PasswordHasher:
        """The hasher the server uses: the `[passwords]` scheme and cost.

        Built here so that `fibsd.infra.passwords` knows nothing of configuration.
        """
        return PasswordHasher(
            self.password_hash_scheme,
            argon2_time_cost=self.argon2_time_cost,
            argon2_memory_cost_kib=self.argon2_memory_cost_kib,
            argon2_parallelism=self.argon2_parallelism,
            pbkdf2_rounds=self.pbkdf2_rounds,
        )

    def is_admin(self, name: str) -> bool:
        """True if account `name` is listed in `admins` (case-insensitively, like names)."""
        return name.lower() in {admin.lower() for admin in self.admins}


def _did_you_mean(word: str, choices: Mapping[str, object]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
