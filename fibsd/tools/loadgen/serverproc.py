"""The server under load: a `fibsd serve` subprocess with a load-test configuration.

Owns everything about the server process the load generator starts: a temporary
directory with its own database and config, a free port on 127.0.0.1, pre-created
accounts, the file-descriptor limit of the child, its RSS (VmRSS from /proc/PID/status),
and stopping it by its PID (SIGTERM, then SIGKILL after a bounded wait).

The configuration written here is for load tests only: it uses `pbkdf2_sha256` with the
lowest cost the server accepts (1000 rounds) so that thousands of logins measure the
server rather than the password hash, and raises `max_output_lines` (the outbox counts
pieces of output not yet taken by the kernel; one load client reading thousands of
sessions falls behind the server during a ramp-up, and each login announced to a
session it has not read yet adds a piece), `login_timeout_seconds`,
`idle_timeout_seconds`, and (where the server has them) the per-address connection limit
and the command flood limit, since every session comes from 127.0.0.1 and bots play at
full speed. Never use it for a real server.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Self

PASSWORD = "loadtest"
"""The password of every load-test account."""

STARTUP_SECONDS = 30.0
STOP_SECONDS = 15.0


def raise_fd_limit(wanted: int) -> int:
    """Raise this process's RLIMIT_NOFILE soft limit towards `wanted`; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


#: How many free ports a server start tries (each lost only to a race with another process).
_PORT_ATTEMPTS = 5


def listens(pid: int, port: int) -> bool:
    """Whether process `pid` itself listens on 127.0.0.1:`port` (its own socket in the
    kernel's table; a connection to the port would be answered by whichever process took
    it)."""
    wanted = {f"0100007F:{port:04X}", f"00000000:{port:04X}"}  # (127.0.0.1, or every address)
    listening = set()
    try:
        with open("/proc/net/tcp", encoding="ascii") as table:
            for row in table.readlines()[1:]:
                fields = row.split()
                if fields[1] in wanted and fields[3] == "0A":  # (0A: LISTEN)
                    listening.add(f"socket:[{fields[9]}]")
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in listening:
                    return True
    except OSError:
        return False
    return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# Abuse limits that every load-test session, all coming from 127.0.0.1 and playing at full
# speed, would trip. Written only if this server version has the setting.
_RAISED_LIMITS: dict[str, int | float] = {
    "max_connections_per_address": 1_000_000,
    "commands_per_second": 10_000.0,
    "command_burst": 100_000,
}


def _raised_limits() -> str:
    import attrs

    from fibsd.infra.config import Config

    known = attrs.fields_dict(Config)
    return "".join(f"{key} = {value!r}\n" for key, value in _RAISED_LIMITS.items() if key in known)


def config_text(port: int, db_path: Path, motd_path: Path, *, log_level: str,
                shipped_passwords: bool = False) -> str:
    """The load-test TOML configuration (see the module docstring for why each value);
    `shipped_passwords` keeps the shipped password settings instead of the cheap hash."""
    passwords = "" if shipped_passwords else (
        'password_hash_scheme = "pbkdf2_sha256"\npbkdf2_rounds = 1000\n')
    return f"""\
# Load-test configuration written by fibsd.tools.loadgen. NOT for a real server: the password
# hash is the cheapest the server accepts, so that logins measure the server, not pbkdf2.
[server]
host = "127.0.0.1"
port = {port}
db_path = "{db_path}"
motd_file = "{motd_path}"
club_name = "fibsd-loadtest"
log_level = "{log_level}"

[limits]
idle_timeout_seconds = 86400
login_timeout_seconds = 3600
# The outbox counts pieces of output the kernel has not taken yet; the load client reads
# thousands of sessions and falls behind during a ramp-up, and every login announced to a
# session it has not read yet is one more piece.
max_output_lines = 1000000
# All sessions come from 127.0.0.1 and the bots play at full speed:
{_raised_limits()}
[passwords]
{passwords}
[analysis]
# The load run measures the server, not GNU Backgammon analysing its thousands of matches.
analysis_auto = "none"
"""


def with_overrides(text: str, overrides: Iterable[str]) -> str:
    """`text` with each `TABLE.KEY=VALUE` (VALUE a TOML literal) set in table TABLE.

    Replaces the key's line if the table has one, else adds it under the table's header;
    ValueError for a malformed override or an unknown table.
    """
    lines = text.splitlines()
    for override in overrides:
        name, sep, value = override.partition("=")
        table, dot, key = name.strip().partition(".")
        if not sep or not dot or not key or not value.strip():
            raise ValueError(f"expected TABLE.KEY=VALUE, got {override!r}")
        try:
            header = lines.index(f"[{table}]")
        except ValueError:
            raise ValueError(f"no table [{table}] in the load-test configuration") from None
        end = next((i for i in range(header + 1, len(lines)) if lines[i].startswith("[")), len(lines))
        line = f"{key} = {value.strip()}"
        for i in range(header + 1, end):
            if lines[i].split("=", 1)[0].strip() == key:
                lines[i] = line
                break
        else:
            lines.insert(header + 1, line)
    return "\n".join(lines) + "\n"


def precreate_accounts(location: str | Path, names: Iterable[str], *, shipped: bool = False) -> int:
    """Create accounts (password `PASSWORD`) in the database before the server starts.

    One hash is computed and shared: every account has the same password, and a salted
    hash verifies for any account that stores it. The hash is the load test's cheap
    pbkdf2, or with `shipped` the shipped configuration's (argon2id, 64 MiB), so that a
    run can measure logins as a real server pays for them. Returns how many were created.
    """
    from fibsd.domain.accounts import Account
    from fibsd.infra.config import Config
    from fibsd.infra.passwords import PasswordHasher
    from fibsd.store.backends import open_store

    hasher = (Config.default().password_hasher() if shipped
              else PasswordHasher("pbkdf2_sha256", pbkdf2_rounds=1000))
    hashed = hasher.hash(PASSWORD)
    now = time.time()
    created = 0
    with open_store(location) as store:
        for name in names:
            store.create_account(Account.new(name, hashed, now))
            created += 1
    return created


def read_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process `pid` (all threads); 0.0 if gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # after "pid (comm)": state is field 3, utime field 14, stime field 15 (1-based)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """CPU seconds all processors of the machine spent busy so far (from /proc/stat)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return 0.0
    # cpu user nice system idle iowait irq softirq steal ...: busy = all but idle, iowait
    values = [int(value) for value in fields[1:9]]
    busy = sum(values) - values[3] - values[4]
    return busy / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages, as /proc/loadavg says them."""
    try:
        with open("/proc/loadavg", encoding="ascii") as loadavg:
            return " ".join(loadavg.read().split()[:3])
    except OSError:
        return "?"


def own_cpu_seconds() -> float:
    """User + system CPU seconds of this process (the load client)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def read_rss_kib(pid: int) -> int:
    """VmRSS of process `pid` in KiB (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


class ServerProcess:
    """A fibsd server started for one load run; use as a context manager."""

    def __init__(self, *, fd_limit: int, db_dir: Path | None = None, log_level: str = "WARNING",
                 keep: bool = False, overrides: Iterable[str] = (), store: str | None = None,
                 shipped_passwords: bool = False, server_tree: Path | None = None) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="fibsd-load-", dir=db_dir))
        self.db_path = self.directory / "fibsd.db"
        #: The server's store: the SQLite file `db_path`, or a PostgreSQL URL.
        self.store_location: str | Path = store or self.db_path
        if store:
            overrides = [*overrides, f"server.store={json.dumps(store)}"]
        self.config_path = self.directory / "fibsd.toml"
        self.log_path = self.directory / "server.log"
        self.port = free_port()
        self.port_attempts = 1
        self.fd_limit = fd_limit
        self.log_level = log_level
        self.keep = keep
        self.process: subprocess.Popen[bytes] | None = None
        #: Another checkout whose server to run (before/after runs with one load client).
        self.server_tree = server_tree
        text = config_text(self.port, self.db_path, self.directory / "no-motd.txt", log_level=log_level,
                           shipped_passwords=shipped_passwords)
        try:
            text = with_overrides(text, overrides)
        except ValueError:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise
        self.config_path.write_text(text, encoding="utf-8")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        """Start `python -m fibsd serve` and wait (bounded) until it accepts connections.

        The child inherits RLIMIT_NOFILE, so it is raised here, in this process, first
        (no `preexec_fn`, which is unsafe once threads exist).
        """
        raise_fd_limit(self.fd_limit)
        env = None
        if self.server_tree is not None:
            env = {**os.environ, "PYTHONPATH": str(self.server_tree.resolve())}
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "fibsd", "serve", "--config", str(self.config_path)],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "Address already in use" in self.log_tail() and self.port_attempts < _PORT_ATTEMPTS:
                    # The port probed free was taken before the server bound it (by a
                    # test in another worker, say): another one.
                    self.port_attempts += 1
                    self.port = free_port()
                    self.config_path.write_text(with_overrides(
                        self.config_path.read_text(encoding="utf-8"), [f"server.port={self.port}"]),
                        encoding="utf-8")
                    self.start()
                    return
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.log_tail()}")
            if listens(self.process.pid, self.port):
                return
            time.sleep(0.05)  # (the kernel's tables: look again)
        raise RuntimeError(f"server did not listen on port {self.port} within {STARTUP_SECONDS} s")

    def rss_kib(self) -> int:
        return read_rss_kib(self.pid)

    def cpu_seconds(self) -> float:
        return read_cpu_seconds(self.pid)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def log_count(self, word: str) -> int:
        """How many lines of the server log contain `word` (e.g. ERROR, Traceback)."""
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as log:
                return sum(1 for line in log if word in line)
        except OSError:
            return 0

    def stop(self) -> int | None:
        """SIGTERM by PID, wait (bounded), SIGKILL if needed; the exit status."""
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(STOP_SECONDS)
        return process.returncode

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()
        if not self.keep:
            shutil.rmtree(self.directory, ignore_errors=True)
