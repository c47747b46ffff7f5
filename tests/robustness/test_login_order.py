"""Regression (found by the abuse test): nothing reaches a user before its own login greeting.

A CLIP client learns that it is logged in from the `1 NAME ...` welcome (fibs-protocol
§2.2/§3.1), and a telnet user from `** User NAME authenticated.`; lines that arrive before
that are read as part of the login dialogue. The shell puts the new session into the
registry, then commits its login writes in a worker thread, and only then delivers the
greeting: while that commit runs, anything another user does that needs no write of its
own (a `tell`, `away`/`back` status lines) is delivered to the newcomer first.

The commit is held here (a gate inside the worker thread, as a busy disk would hold it)
until alice's `tell` has been answered, so that the window the abuse storm hit by chance
is hit every time, however busy the machine.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import trio

from tests.robustness.attackers import clip_login_from, connect_from
from tests.robustness.test_abuse import create_accounts
from tests.server.test_delivery_order import Handled


async def test_a_tell_sent_while_a_login_is_committed_arrives_after_the_welcome(
        start_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    running = await start_server()
    handled = Handled(monkeypatch)
    create_accounts(running, ["alice", "bob"])
    alice = await clip_login_from(running, 2, "alice")
    store = running.server.store
    record_login = store.record_login
    committing, opened = threading.Event(), threading.Event()

    def held_record_login(name: str, at: float, host: str) -> None:
        if name == "bob":  # runs in the shell's worker thread
            committing.set()
            opened.wait(10)
        record_login(name, at, host)

    store.record_login = held_record_login
    bob = await connect_from(running, 3)
    await bob.expect_prompt("login: ")
    await bob.send("login ordertest 1008 bob secret")
    assert await trio.to_thread.run_sync(committing.wait, 10)  # bob is online, no greeting yet
    await alice.send("tell bob hello")
    # (alice's echo waits too: bob's login status line, queued before it, waits for the
    # commit, and nothing overtakes it, issue 20 §1)
    await handled.wait_for("alice", "tell bob hello")
    opened.set()
    lines = await bob.read_until("12 alice hello")
    if not any(line.startswith("1 bob ") for line in lines):
        lines += await bob.read_until(lambda line: line.startswith("1 bob "))
    assert lines[0].startswith("1 bob "), f"bob's first lines after logging in: {lines[:3]}"
