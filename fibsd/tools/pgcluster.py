"""A throw-away PostgreSQL cluster, for tests and benchmarks of the PostgreSQL store.

`Cluster.start()` runs Debian's `initdb` and `postgres` (from /usr/lib/postgresql/N/bin,
or PG_BIN) in a new temporary directory, listening on 127.0.0.1 only, on a free port,
with trust authentication for the superuser `fibsd`. PostgreSQL refuses to run as root:
when started by root, the cluster runs as an unprivileged user (`nobody`, or FIBSD_PG_USER)
and its directory belongs to that user. `stop()` stops the server by its PID (SIGINT,
PostgreSQL's fast shutdown) and removes the directory; `restart()` stops and starts it on
the same port and data.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

SUPERUSER = "fibsd"


def binaries() -> Path | None:
    """The directory of PostgreSQL's server programs, or None if none is installed."""
    chosen = os.environ.get("PG_BIN")
    if chosen:
        return Path(chosen) if (Path(chosen) / "postgres").is_file() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                   key=lambda path: int(path.split("/")[4]) if path.split("/")[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


#: How many free ports `Cluster.start` tries (each lost only to a race with another process).
_PORT_ATTEMPTS = 5


class PortTaken(RuntimeError):
    """postgres could not listen: another process took the port probed free for it."""


class Cluster:
    """One throw-away cluster (see the module's docstring)."""

    def __init__(self, bin_dir: Path, directory: Path, port: int, user: str | None) -> None:
        self.bin_dir = bin_dir
        self.directory = directory
        self.data = directory / "data"
        self.port = port
        self.user = user
        self.process: subprocess.Popen[bytes] | None = None
        self._launched_at = 0

    @classmethod
    def start(cls, *, settings: dict[str, str] | None = None) -> Cluster:
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        user = None
        if os.geteuid() == 0:
            user = os.environ.get("FIBSD_PG_USER", "nobody")
        directory = Path(tempfile.mkdtemp(prefix="fibsd-pg-"))
        cluster = cls(bin_dir, directory, 0, user)
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(directory, entry.pw_uid, entry.pw_gid)
        cluster._run([str(bin_dir / "initdb"), "-D", str(cluster.data), "-U", SUPERUSER,
                      "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        conf = cluster.data / "postgresql.conf"
        extra = {
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{directory}'",
            "max_connections": "100",
            "shared_buffers": "32MB",
            "logging_collector": "off",
            **(settings or {}),
        }
        with open(conf, "a", encoding="utf-8") as file:
            file.writelines(f"{key} = {value}\n" for key, value in extra.items())
        # PostgreSQL cannot listen on port 0: the port is probed free just before the
        # start, and another process (a test in the suite's other worker) may take it in
        # between; then postgres exits at once and another port is tried.
        for attempt in range(_PORT_ATTEMPTS):
            cluster.port = free_port()
            with open(conf, "a", encoding="utf-8") as file:  # (the last setting wins)
                file.write(f"port = {cluster.port}\n")
            try:
                cluster.launch()
                return cluster
            except PortTaken:
                if attempt == _PORT_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _run(self, argv: list[str]) -> None:
        subprocess.run(argv, check=True, capture_output=True, user=self.user, cwd=self.directory,
                       timeout=300)

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def url_of(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def launch(self) -> None:
        """Start the server on the cluster's data and wait until it accepts connections."""
        log = open(self.directory / "postgres.log", "ab")  # noqa: SIM115 - the child keeps it
        self._launched_at = log.tell()  # (where this start's part of the log begins)
        self.process = subprocess.Popen(
            [str(self.bin_dir / "postgres"), "-D", str(self.data)],
            stdout=log, stderr=subprocess.STDOUT, user=self.user, cwd=self.directory,
        )
        log.close()
        self.wait_ready()

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Wait until the server accepts a connection (a condition, polled)."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                self.process = None
                tail = self.log_tail()
                if "Address already in use" in self.log_since_launch():
                    raise PortTaken(f"port {self.port} was taken: {tail}")
                raise RuntimeError(f"postgres exited: {tail}")
            if self._says_ready():
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"postgres did not start: {self.log_tail()}")
            time.sleep(0.05)

    def _says_ready(self) -> bool:
        """Whether this cluster's postmaster says it accepts connections: its postmaster.pid
        names our process and, on its eighth line, the status "ready". (Not a connection to
        the port: another process that took the port meanwhile would answer that.)"""
        assert self.process is not None
        try:
            lines = (self.data / "postmaster.pid").read_text(errors="replace").splitlines()
        except OSError:
            return False
        return len(lines) >= 8 and lines[0].strip() == str(self.process.pid) and lines[7].strip() == "ready"

    def log_since_launch(self) -> str:
        with open(self.directory / "postgres.log", "rb") as log:
            log.seek(self._launched_at)
            return log.read().decode(errors="replace")

    def log_tail(self) -> str:
        path = self.directory / "postgres.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def halt(self, how: signal.Signals = signal.SIGINT) -> None:
        """Stop the server by its PID (SIGINT: fast shutdown; SIGKILL: a crash) and wait."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=60)
        self.process = None

    def restart(self) -> None:
        self.halt()
        self.launch()

    def create_database(self, name: str) -> str:
        """A new, empty database; its URL."""
        self._run([str(self.bin_dir.parent / "bin" / "createdb"), "-h", "127.0.0.1",
                   "-p", str(self.port), "-U", SUPERUSER, name])
        return self.url_of(name)

    def stop(self) -> None:
        """Stop the server and remove the cluster's directory."""
        try:
            self.halt()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


@contextlib.contextmanager
def running(**kwargs: dict[str, str]) -> Iterator[Cluster]:
    cluster = Cluster.start(**kwargs)
    try:
        yield cluster
    finally:
        cluster.stop()
