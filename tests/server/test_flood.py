"""A flood of connect-and-close connections from one address does not make a user from
another address wait behind it (issue 32 §5; fibsd.shell.admission).

The flood's connections are made with blocking sockets before the server runs again, so
all of them wait in the kernel's queue ahead of the newcomer's: exactly the order of the
fault. The test waits on conditions (the newcomer's prompt, the log), not on time: it
asserts the order in which the server took up the connections."""

from __future__ import annotations

import logging
import socket
from typing import Any

import pytest
import trio

from fibsd.shell.admission import AddressTurns
from tests.server.client import TestClient

FLOOD = 300


def _connect_from(source: str, port: int) -> socket.socket:
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", port))
    return connection


async def test_a_newcomer_is_taken_up_before_a_flood_queued_ahead_of_him(
    start_server: Any, caplog: pytest.LogCaptureFixture,
) -> None:
    running = await start_server()
    caplog.set_level(logging.INFO, logger="fibsd.shell.server")
    # (blocking calls, no checkpoint: the server cannot accept anything meanwhile)
    for _ in range(FLOOD):
        _connect_from("127.0.0.2", running.port).close()
    newcomer = _connect_from("127.0.0.3", running.port)
    newcomer.setblocking(False)
    client = TestClient(trio.SocketStream(trio.socket.from_stdlib_socket(newcomer)))
    await client.expect_prompt("login: ", timeout=120)
    taken_up = [record.getMessage() for record in caplog.records
                if record.getMessage().startswith("connection from ")]
    position = taken_up.index("connection from 127.0.0.3")
    # Without fair admission it came after every one of the flood's (FIFO accept).
    assert position < 10, (position, len(taken_up))
    await client.close()


async def test_turns_are_per_address_and_a_waiting_address_holds_up_no_other() -> None:
    turns = AddressTurns(per_address=2)
    first = await turns.enter("10.0.0.1")
    second = await turns.enter("10.0.0.1")
    entered: list[str] = []

    async def wait_for_a_turn(name: str, address: str) -> None:
        turn = await turns.enter(address)
        entered.append(name)
        turn.leave()

    async with trio.open_nursery() as nursery:
        for number in range(3):
            nursery.start_soon(wait_for_a_turn, f"flood-{number}", "10.0.0.1")
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(wait_for_a_turn, "newcomer", "10.0.0.2")
        await trio.testing.wait_all_tasks_blocked()
        assert entered == ["newcomer"]  # the flood's waiters wait; another address does not
        first.leave()
        first.leave()  # (idempotent)
        await trio.testing.wait_all_tasks_blocked()
        assert entered[0] == "newcomer" and sorted(entered[1:]) == ["flood-0", "flood-1", "flood-2"]
        second.leave()
    assert len(turns) == 0  # nothing kept for addresses that are gone
