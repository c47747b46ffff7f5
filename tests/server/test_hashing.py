"""Issue 31: password hashes a few at a time, in arrival order, and none for a client gone."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing

from fibsd.shell.hashing import ClientGone, HashQueue
from tests.server.helpers import register


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait (bounded) until `condition()` holds; it changes when other tasks run."""
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.005)


async def test_a_login_storm_is_hashed_in_arrival_order_a_bounded_number_at_a_time() -> None:
    queue = HashQueue(at_once=2)
    started: list[int] = []
    in_flight = [0]
    most_in_flight = [0]
    gates = [threading.Event() for _ in range(7)]

    def note_start(number: int) -> None:  # runs in trio's thread
        started.append(number)
        in_flight[0] += 1
        most_in_flight[0] = max(most_in_flight[0], in_flight[0])

    def note_end() -> None:
        in_flight[0] -= 1

    def hash_of(number: int) -> Callable[[], int]:
        def work() -> int:  # a worker thread, as a real hash
            trio.from_thread.run_sync(note_start, number)
            assert gates[number].wait(10)
            trio.from_thread.run_sync(note_end)
            return number
        return work

    results: list[int] = []

    async def login(number: int) -> None:
        results.append(await queue.run(hash_of(number), client_gone=lambda: False))

    async with trio.open_nursery() as nursery:
        for number in range(7):
            nursery.start_soon(login, number)
            await trio.testing.wait_all_tasks_blocked()  # they arrive in this order
        await _until(lambda: len(started) == 2)
        await trio.testing.wait_all_tasks_blocked()
        # (the first two run side by side: either may note its start first)
        assert sorted(started) == [0, 1] and queue.running == 2 and queue.waiting == 5
        # Each hash that ends lets the next in line start, and only it.
        for finished in [1, 0, 2, 4, 3, 5, 6]:
            gates[finished].set()
            expected = min(7, len(started) + 1)
            await _until(lambda: len(started) == expected)
            await trio.testing.wait_all_tasks_blocked()
            assert len(started) == expected and in_flight[0] <= 2
        await _until(lambda: len(results) == 7)
    assert sorted(started[:2]) == [0, 1] and started[2:] == [2, 3, 4, 5, 6]
    assert most_in_flight[0] == 2
    assert queue.computed == 7 and queue.skipped == 0


async def test_a_client_gone_before_its_turn_costs_no_hash() -> None:
    queue = HashQueue(at_once=1)
    computed: list[str] = []
    with pytest.raises(ClientGone):
        await queue.run(lambda: computed.append("gone"), client_gone=lambda: True)
    assert await queue.run(lambda: computed.append("here") or 1, client_gone=lambda: False) == 1
    assert computed == ["here"]
    assert (queue.computed, queue.skipped) == (1, 1)


async def test_the_server_skips_the_hash_of_a_client_that_hung_up_while_waiting(
        start_server: Any) -> None:
    running = await start_server(**{"passwords.password_hashes_at_once": 1})
    server = running.server
    assert server.hashes.at_once == 1
    await register(running, "alice")
    computed_before = server.hashes.computed
    # Another login's hash holds the only turn.
    async with server.hashes._limiter:
        quitter = await running.connect()
        await quitter.expect_prompt("login: ")
        await quitter.send("login test 1008 alice secret")
        await _until(lambda: server.hashes.waiting == 1)
        await quitter.close()  # gives up before its turn comes
        patient = await running.connect()
        await patient.expect_prompt("login: ")
        await patient.send("login test 1008 alice secret")
        await _until(lambda: server.hashes.waiting == 2)
    # The turn is free: the quitter's login is skipped, the patient one is served.
    await patient.read_until(lambda line: line.startswith("1 alice "))
    assert server.hashes.skipped == 1
    assert server.hashes.computed == computed_before + 1
