"""Fixtures for end-to-end tests: a real fibsd server on 127.0.0.1, port 0, over real TCP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import attrs
import pytest
import trio

from fibsd.infra.wallclock import ManualClock
from fibsd.infra.config import Config
from fibsd.domain.dice import DiceSource
from fibsd.infra.passwords import PasswordHasher
from fibsd.shell.server import Server
from fibsd.store.sqlite import SQLiteStore as Store
from tests.server.client import TestClient


@attrs.define
class RunningServer:
    """A server under test and what tests need to reach it."""

    server: Server
    port: int
    clock: ManualClock
    db_path: Path
    nursery: trio.Nursery
    cancel_scope: trio.CancelScope
    clients: list[TestClient]
    #: Set once the server has stopped and closed its store.
    stopped: trio.Event = attrs.field(factory=trio.Event)

    async def connect(self) -> TestClient:
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        client = TestClient(stream)
        self.clients.append(client)
        return client

    async def stop(self) -> None:
        """Stop the server (as a kill would: no goodbyes) and wait until its store is closed."""
        self.cancel_scope.cancel()
        with trio.fail_after(10):
            await self.stopped.wait()


def test_config(tmp_path: Path, **overrides: object) -> Config:
    values: dict[str, object] = {
        "server": {"host": "127.0.0.1", "port": 0, "db_path": str(tmp_path / "fibsd.db"),
                   "motd_file": str(tmp_path / "no-motd.txt")},
        "limits": {"login_timeout_seconds": 30.0},
        # No gnubg in the background of every match played (tests/server/test_analysis*.py
        # turn it on where they need it).
        "analysis": {"analysis_auto": "none"},
    }
    for key, value in overrides.items():
        table, _, setting = key.partition(".")
        values.setdefault(table, {})[setting] = value  # type: ignore[index]
    return Config.from_mapping(values)


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """Start servers sharing `tmp_path` (restart = start again on the same database)."""
    clients: list[TestClient] = []
    async with trio.open_nursery() as nursery:

        async def start(clock: ManualClock | None = None, dice: DiceSource | None = None,
                        **overrides: object) -> RunningServer:
            config = test_config(tmp_path, **overrides)
            store = Store.open(config.db_path)
            server = Server(config, store, clock=clock or ManualClock(),
                            hasher=PasswordHasher.for_tests("pbkdf2_sha256"), dice=dice)
            scope = trio.CancelScope()
            stopped = trio.Event()

            async def run(task_status: trio.TaskStatus[list[trio.SocketListener]] = trio.TASK_STATUS_IGNORED) -> None:
                with scope:
                    try:
                        await server.serve(task_status=task_status)
                    finally:
                        store.close()
                        stopped.set()

            listeners = await nursery.start(run)
            port = listeners[0].socket.getsockname()[1]
            return RunningServer(server, port, server.clock, Path(config.db_path), nursery, scope,  # type: ignore[arg-type]
                                 clients, stopped)

        yield start
        for client in clients:
            await client.close()
        nursery.cancel_scope.cancel()
