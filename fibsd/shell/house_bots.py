"""The house bots: GNU Backgammon players the server runs as processes of their own.

Owns the bot processes (docs/bots.md, "House bots"), one per copy of each bot (a bot with
`matches = N` runs N processes under N accounts, `fibsd.infra.house_bots.copy_name`): their
accounts (created at the first
start with the bot mark, and a fresh random password at every start that only this
process knows: it reaches the bot on its standard input, never on a command line, in the
environment or in a log), starting each bot after the listeners as
`python -m fibsd.tools.bots gnubg ...` logging in over CLIP on 127.0.0.1 (so GNU
Backgammon stays out of the server's process), restarting a bot that died after a
back-off, and stopping them by PID with the server. Like the analysis workers they run at
the lowest CPU priority with a clean environment and die with the server on kill -9
(the parent-death signal).
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import attrs
import trio

import fibsd
from fibsd.domain.accounts import Account
from fibsd.infra.config import Config
from fibsd.infra.house_bots import HouseBot
from fibsd.infra.passwords import PasswordHasher
from fibsd.shell.analysis_workers import (
    WORKER_NICENESS,
    die_with_the_server,
    exited,
    find_gnubg,
)
from fibsd.store import Store

__all__ = ["HouseBots"]

log = logging.getLogger("fibsd.shell.house_bots")

#: A bot that ran this long before it died starts again after the shortest wait.
_HEALTHY_SECONDS = 60.0
#: How long a bot has to log out and stop gnubg after SIGTERM before it is killed.
_STOP_SECONDS = 5.0
_PASSED_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "TZ")
_PROJECT_ROOT = str(Path(fibsd.__file__).resolve().parents[1])


class HouseBots:
    """The house bots of one server. `off` says why none run (None: they do); `pids` maps
    each running copy (by its account name) to its process id, `starts` counts each copy's
    starts (tests and the operator watch them; `changed` is set and renewed at every start
    or death)."""

    def __init__(self, config: Config, store: Store, hasher: PasswordHasher,
                 now: Callable[[], float]) -> None:
        self.config = config
        self._now = now
        self.store = store
        self.hasher = hasher
        self.bots: tuple[HouseBot, ...] = config.house_bots
        self.gnubg = find_gnubg(config.bots_gnubg)
        self.off: str | None = None
        if self.bots and self.gnubg is None:
            self.off = f"GNU Backgammon is not installed ({config.bots_gnubg} not found)"
            # Said once, at start-up: the server runs on without them.
            log.warning("the house bots are off: %s (install the Debian package gnubg, "
                        "or set bots_gnubg)", self.off)
        self.pids: dict[str, int] = {}
        self.starts: dict[str, int] = {}
        self.changed = trio.Event()
        self._passwords: dict[str, str] = {}

    @property
    def enabled(self) -> bool:
        return bool(self.bots) and self.off is None

    def _changed(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    def _prepare_accounts(self) -> None:
        """Create each copy's account (bot mark set) or give it a new password; a name that
        belongs to a player (no bot mark) is left alone and that copy stays off."""
        now = self._now()
        for name in (copy for bot in self.bots for copy in bot.copies):
            password = secrets.token_urlsafe(24)
            digest = self.hasher.hash(password)
            account = self.store.get_account(name)
            if account is None:
                self.store.create_account(attrs.evolve(Account.new(name, digest, now), bot=True))
                log.info("created the account of house bot %s", name)
            elif not account.bot:
                log.warning("house bot %s is off: the account exists and is not marked as a "
                            "bot (an administrator's `setbot %s on` hands it over)", name, name)
                continue
            else:
                self.store.set_password_hash(account.name, digest)
            self._passwords[name] = password

    async def run(self, port: int, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Prepare the accounts, then keep every copy of every bot running until cancelled
        (the server's stop), which stops them all by PID."""
        if not self.enabled:
            task_status.started()
            return
        await trio.to_thread.run_sync(self._prepare_accounts)
        async with trio.open_nursery() as nursery:
            for bot in self.bots:
                for name in bot.copies:
                    if name in self._passwords:
                        nursery.start_soon(self._keep_running, bot, name, port)
            task_status.started()

    def _command(self, bot: HouseBot, name: str, port: int) -> list[str]:
        assert self.gnubg is not None
        strength = bot.settings
        return [
            sys.executable, "-m", "fibsd.tools.bots", "gnubg", "--name", name,
            "--password-stdin", "--host", "127.0.0.1", "--port", str(port),
            "--plies", str(strength.plies), "--noise", f"{strength.noise:g}", "--gnubg", self.gnubg,
        ]

    async def _keep_running(self, bot: HouseBot, name: str, port: int) -> None:
        """Keep the copy `name` of `bot` running (each copy has its own back-off)."""
        delay = 1.0
        while True:
            started = trio.current_time()
            code = await self._run_once(bot, name, port)
            ran = trio.current_time() - started
            if ran >= _HEALTHY_SECONDS:
                delay = 1.0
            log.warning("house bot %s stopped (%s); starting it again in %g s", name, code, delay)
            await trio.sleep(delay)
            delay = min(delay * 2, self.config.bots_restart_max_seconds)

    async def _run_once(self, bot: HouseBot, name: str, port: int) -> str:
        """Run the copy's process until it exits (a description of how) or the server stops
        (then it is stopped by its PID: SIGTERM, which logs it out, then SIGKILL)."""
        with tempfile.TemporaryDirectory(prefix="fibsd-bot-") as home:
            env = {name: os.environ[name] for name in _PASSED_ENVIRONMENT if name in os.environ}
            env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/games")
            env.update({"HOME": home, "TMPDIR": home, "PYTHONPATH": _PROJECT_ROOT})
            try:
                # From the event loop's thread, as the analysis workers: the parent-death
                # signal follows the thread that started the child.
                process = subprocess.Popen(  # noqa: ASYNC220
                    self._command(bot, name, port), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                    env=env, cwd=home, preexec_fn=die_with_the_server(os.getpid()),  # noqa: PLW1509
                )
            except OSError as error:
                return f"it could not be started: {error}"
            try:
                try:
                    os.setpriority(os.PRIO_PROCESS, process.pid, WORKER_NICENESS)
                except OSError:
                    pass
                assert process.stdin is not None
                try:  # a few bytes into an empty pipe: never blocks
                    process.stdin.write(self._passwords[name].encode() + b"\n")
                    process.stdin.close()
                except OSError:
                    pass
                self.pids[name] = process.pid
                self.starts[name] = self.starts.get(name, 0) + 1
                self._changed()
                log.info("house bot %s started (pid %d)", name, process.pid)
                await exited(process)
            finally:
                if process.poll() is None:
                    with trio.CancelScope(shield=True):
                        process.send_signal(signal.SIGTERM)
                        with trio.move_on_after(_STOP_SECONDS):
                            await exited(process)
                        if process.poll() is None:
                            process.kill()
                            await exited(process)
                self.pids.pop(name, None)
                self._changed()
        code = process.returncode
        return f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
