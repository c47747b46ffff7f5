"""fibsd on PostgreSQL over TCP (issue 27): a match goes on through a restart of the
database, and resumes after a restart of both fibsd and the database.

A real `python -m fibsd serve --store postgresql://...` process and a throw-away
PostgreSQL cluster of the test's own (fibsd.tools.pgcluster), both on 127.0.0.1 and
stopped by their PIDs. The players act like bots with the server's own dice
(tests/robustness/test_crash.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from fibsd.tools import pgcluster
from tests.robustness.test_crash import ServerProcess, act_once, resume, settled_board
from tests.server.players import Player


@pytest.fixture
async def cluster() -> AsyncIterator[pgcluster.Cluster]:
    started = await trio.to_thread.run_sync(pgcluster.Cluster.start)
    try:
        yield started
    finally:
        await trio.to_thread.run_sync(started.stop)


async def test_a_match_survives_restarts_of_the_database_and_of_fibsd(
    tmp_path: Path, cluster: pgcluster.Cluster,
) -> None:
    url = await trio.to_thread.run_sync(cluster.create_database, "club")
    server = ServerProcess(tmp_path, url)
    try:
        await server.start()
        alice = await Player.join_server(server, "alice")
        bob = await Player.join_server(server, "bob")
        await alice.send("invite bob 5")
        await bob.expect("Type 'join alice' to accept.")
        await bob.send("join alice")
        await alice.expect("Starting a new game with bob.")
        for _ in range(3):
            await act_once(alice, bob)

        # The database restarts while fibsd runs: an action taken while it is down waits
        # (its commit waits for the database) and completes once it is back.
        await trio.to_thread.run_sync(cluster.halt)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(act_once, alice, bob)
            await trio.to_thread.run_sync(cluster.launch)
        for _ in range(2):
            await act_once(alice, bob)
        first_log = server.log_text()
        assert "database unavailable" in first_log  # it noticed, waited, went on
        assert "Traceback" not in first_log, first_log
        last_alice, last_bob = await settled_board(alice), await settled_board(bob)

        # Both restart: fibsd stops (no goodbyes), the database stops and starts again.
        server.terminate()
        await server.close_clients()
        await trio.to_thread.run_sync(cluster.restart)
        await server.start()
        alice, bob = await resume(server)
        assert await settled_board(alice) == last_alice
        assert await settled_board(bob) == last_bob
        await act_once(alice, bob)  # and the match goes on
        assert "Traceback" not in server.log_text(), server.log_text()
    finally:
        await server.close_clients()
        server.terminate()
