"""The trio shell over in-memory streams under trio's mock clock: timeouts and a
shutdown countdown of minutes run in no real time.

`MemoryListener` hands the server one end of `trio.testing.memory_stream_pair()` per
connection (the model is trio's own `test_highlevel_serve_listeners.py`), so every
connection takes the server's ordinary path; only the bytes stay in memory. The mock
clock jumps ahead whenever every task has waited for a moment of real time, short enough
that an hour-long idle timeout passes in a fraction of a second, but never while a worker
thread (a password check, a commit) is running: on a busy machine a thread can take
longer than any such moment, and the clock would jump to a deadline meanwhile.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
import trio.testing

from fibsd.infra.wallclock import ManualClock
from fibsd.infra.passwords import PasswordHasher
from fibsd.shell.server import Server
from fibsd.store.sqlite import SQLiteStore as Store
from tests.server.client import TestClient
from tests.server.conftest import test_config as server_config

#: Real seconds of idleness before the mock clock jumps (the worker threads' time).
AUTOJUMP_SECONDS = 0.05


@pytest.fixture
def mock_clock(monkeypatch: pytest.MonkeyPatch) -> trio.testing.MockClock:
    """pytest-trio runs a test under the clock a fixture returns, when the test itself
    asks for that fixture (asked for only through another fixture, it is not used).
    The clock does not jump while a worker thread runs (see the module docstring)."""
    clock = trio.testing.MockClock(autojump_threshold=AUTOJUMP_SECONDS)
    run_sync = trio.to_thread.run_sync
    running = 0

    async def counted_run_sync(*args: Any, **kwargs: Any) -> Any:
        nonlocal running
        running += 1
        clock.autojump_threshold = math.inf
        try:
            return await run_sync(*args, **kwargs)
        finally:
            running -= 1
            if not running:
                clock.autojump_threshold = AUTOJUMP_SECONDS

    monkeypatch.setattr(trio.to_thread, "run_sync", counted_run_sync)
    return clock


@attrs.define
class MemoryListener(trio.abc.Listener[trio.abc.Stream]):
    """A listener whose connections are in-memory stream pairs."""

    _queue: tuple[trio.MemorySendChannel[trio.abc.Stream], trio.MemoryReceiveChannel[trio.abc.Stream]] = \
        attrs.field(factory=lambda: trio.open_memory_channel[trio.abc.Stream](16))

    async def connect(self) -> TestClient:
        client, server = trio.testing.memory_stream_pair()
        await self._queue[0].send(server)
        return TestClient(client)  # type: ignore[arg-type]

    async def accept(self) -> trio.abc.Stream:
        return await self._queue[1].receive()

    async def aclose(self) -> None:
        await self._queue[1].aclose()


@attrs.define
class MemoryServer:
    server: Server
    listener: MemoryListener
    store: Store


@pytest.fixture
async def memory_server(tmp_path: Path, mock_clock: trio.testing.MockClock) -> AsyncIterator[MemoryServer]:
    config = server_config(tmp_path, **{"limits.idle_timeout_seconds": 3600.0,
                                      "limits.login_timeout_seconds": 120.0})
    store = Store.open(config.db_path)
    server = Server(config, store, clock=ManualClock(), hasher=PasswordHasher.for_tests("pbkdf2_sha256"))
    listener = MemoryListener()
    async with trio.open_nursery() as nursery:
        await nursery.start(lambda task_status: server.serve(listeners=[listener], task_status=task_status))
        yield MemoryServer(server, listener, store)
        nursery.cancel_scope.cancel()
    store.close()


async def _register_and_log_in(running: MemoryServer, name: str) -> TestClient:
    client = await running.listener.connect()
    await client.expect_prompt("login: ", timeout=60)
    await client.send("guest")
    await client.expect_prompt("> ", timeout=60)
    await client.send(f"name {name}")
    await client.expect_prompt("Please give your password: ", timeout=60)
    await client.send("secret")
    await client.expect_prompt("Please retype your password: ", timeout=60)
    await client.send("secret")
    await client.expect_prompt("> ", timeout=60)
    return client


async def test_an_idle_user_is_timed_out_after_an_hour(
    memory_server: MemoryServer, mock_clock: trio.testing.MockClock
) -> None:
    client = await _register_and_log_in(memory_server, "sleepy")
    start = trio.current_time()
    # Nothing typed for an hour (of the mock clock): the server says so and closes.
    rest = await client.read_all_until_closed(timeout=7200)
    assert rest[-1] == "Connection timed out."
    assert 3600 <= trio.current_time() - start < 3700


async def test_the_idle_timeout_counts_from_the_last_command(
    memory_server: MemoryServer, mock_clock: trio.testing.MockClock
) -> None:
    # One idle scope serves many commands (its deadline moves at each read): each command
    # must start the hour again, and handling one must not count as idle time.
    client = await _register_and_log_in(memory_server, "sleepy")
    for _ in range(3):
        await trio.sleep(2400)  # 40 minutes, less than the hour
        await client.send("who")
        await client.expect_prompt("> ", timeout=60)
    last = trio.current_time()
    rest = await client.read_all_until_closed(timeout=7200)
    assert rest[-1] == "Connection timed out."
    assert 3600 <= trio.current_time() - last < 3700


async def test_a_login_left_unfinished_is_closed_at_the_login_timeout(
    memory_server: MemoryServer, mock_clock: trio.testing.MockClock
) -> None:
    client = await memory_server.listener.connect()
    await client.expect_prompt("login: ", timeout=60)
    start = trio.current_time()
    rest = await client.read_all_until_closed(timeout=600)
    assert rest[-1] == "Connection timed out."
    assert 120 <= trio.current_time() - start < 130


async def test_an_operators_shutdown_counts_down_and_stops(
    tmp_path: Path, mock_clock: trio.testing.MockClock
) -> None:
    config = server_config(tmp_path, **{"admin.admins": ["boss"]})
    store = Store.open(config.db_path)
    server = Server(config, store, clock=ManualClock(), hasher=PasswordHasher.for_tests("pbkdf2_sha256"))
    listener = MemoryListener()
    async with trio.open_nursery() as nursery:
        await nursery.start(lambda task_status: server.serve(listeners=[listener], task_status=task_status))
        running = MemoryServer(server, listener, store)
        boss = await _register_and_log_in(running, "boss")
        start = trio.current_time()
        await boss.send("shutdown 300")
        lines = await boss.read_all_until_closed(timeout=1000)
    store.close()
    notices = [line for line in lines if line.startswith("*** ATTENTION ! FIBS will shut down in")]
    assert notices[0] == "*** ATTENTION ! FIBS will shut down in 300 seconds"
    assert notices[-1] == "*** ATTENTION ! FIBS will shut down in 0 seconds"
    assert 300 <= trio.current_time() - start < 310


async def test_a_background_job_runs_beside_the_users_commands(
    memory_server: MemoryServer, mock_clock: trio.testing.MockClock
) -> None:
    """`Outcome.jobs`: a background job's work runs in a worker thread while its issuer
    goes on typing; its follow-up reaches him when it finishes. (The outcome is handed
    to the shell directly: no command issues a background job yet.)"""
    import threading

    from fibsd.app.outcome import Job, Outcome

    client = await _register_and_log_in(memory_server, "patient")
    session = memory_server.server.registry.get("patient")
    assert session is not None
    release = threading.Event()

    def work() -> str:
        release.wait(timeout=30)  # (a worker thread: the event loop runs on meanwhile)
        return "the analysis is ready"

    def then(result: str) -> Outcome:
        follow = Outcome()
        follow.lines(session, result)
        return follow

    out = Outcome()
    out.lines(session, "analysing")
    out.run(Job.background(work, then, name="test"))
    await memory_server.server._apply(out, issuer=None)
    assert "analysing" in await client.read_until("analysing", timeout=60)
    await client.send("toggle")  # the job does not hold the prompt: commands go on
    await client.expect_prompt("> ", timeout=60)
    release.set()
    assert "the analysis is ready" in await client.read_until("the analysis is ready", timeout=60)
