"""Abuse over real TCP (issue 7): a storm of bad clients while two honest users talk.

An in-process server (the `start_server` fixture, 127.0.0.1, port 0) gets, for a few
seconds, the attackers of `tests.robustness.attackers` (run as a separate process): 20
connections that send random garbage bytes, lines over `max_line_bytes`, telnet IAC storms
and subnegotiations that never end, floods of bad login lines, and floods of commands from
logged-in accounts (hundreds of lines per second, some never reading their output), plus
40 idle connections from one address. Meanwhile two honest CLIP users tell each other a
message every 250 ms, and a brand-new user registers as guest and logs in.

What must hold, whether or not the server cuts the attackers off (rate limits may warn and
disconnect them): every honest message arrives within 2 s of being sent, the new user is
registered and logged in, and the server keeps running: it still greets new connections
and, once the attackers are gone, nobody of theirs is left online.

Each client connects from its own loopback source address (127.0.0.X; all traffic goes to
127.0.0.1), so that per-address limits treat the honest users and the attackers apart,
as they would be on the Internet. The server runs on the wall clock, so that its command
rate limits refill as in production. Every loop is bounded in count and in time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import trio

from fibsd.domain.accounts import Account
from fibsd.infra.wallclock import SystemClock
from fibsd.infra.passwords import PasswordHasher
from tests.robustness.attackers import (
    ATTACKERS,
    PASSWORD,
    clip_login_from,
    connect_from,
    flooder_name,
)
from tests.server.client import TestClient

STORM_SECONDS = 6.0
TELL_INTERVAL_SECONDS = 0.25
MAX_DELAY_SECONDS = 2.0
REPO = Path(__file__).resolve().parents[2]

def create_accounts(running: Any, names: list[str]) -> None:
    """Accounts made directly in the store (test set-up, not what is under test)."""
    hashed = PasswordHasher.for_tests("pbkdf2_sha256").hash(PASSWORD)
    for name in names:
        running.server.store.create_account(Account.new(name, hashed, running.clock.now()))


# --------------------------------------------------------------------- honest users


@attrs.define
class Conversation:
    sent_at: dict[str, float] = attrs.field(factory=dict)
    arrived_at: dict[str, float] = attrs.field(factory=dict)
    other_lines: int = 0


async def listen(client: TestClient, sender: str, talk: Conversation, stop: trio.Event) -> None:
    prefix = f"12 {sender} "
    while not stop.is_set():
        try:
            line = await client.read_line(timeout=0.5)
        except trio.TooSlowError:
            continue
        if line.startswith(prefix):
            talk.arrived_at.setdefault(line[len(prefix):], trio.current_time())
        else:
            talk.other_lines += 1


async def register_and_log_in(running: Any, host: int, name: str) -> list[str]:
    """The guest dialogue, then a CLIP login: what a brand-new user does."""
    client = await connect_from(running, host)
    await client.expect_prompt("login: ")
    await client.send("guest")
    await client.expect_prompt("> ")
    await client.send(f"name {name}")
    await client.expect_prompt("Please give your password: ")
    await client.send(PASSWORD)
    await client.expect_prompt("Please retype your password: ")
    await client.send(PASSWORD)
    lines = await client.expect_prompt("> ")
    assert "You are registered." in lines, lines
    await client.send("bye")
    await client.read_all_until_closed()
    fresh = await connect_from(running, host)
    await fresh.expect_prompt("login: ")
    await fresh.send(f"login abusetest 1008 {name} {PASSWORD}")
    await fresh.read_until(lambda line: line.startswith(f"1 {name} "))
    await fresh.read_until("6")  # the end of the who list
    return fresh.lines


async def test_honest_users_are_served_while_twenty_connections_attack(start_server: Any) -> None:
    # The wall clock, so that the command rate limits refill as in production.
    running = await start_server(clock=SystemClock())
    flooders = [flooder_name(n) for n in range(ATTACKERS) if n % 6 in (4, 5)]
    create_accounts(running, ["honest_a", "honest_b", *flooders])
    alice = await clip_login_from(running, 2, "honest_a")
    bob = await clip_login_from(running, 3, "honest_b")
    to_bob, to_alice = Conversation(), Conversation()
    stats: dict[str, int] = {}
    new_user_lines: list[str] = []
    storm_over = trio.Event()
    stop_listening = trio.Event()

    async def attackers() -> None:
        limit = running.server.config.max_line_bytes
        with trio.fail_after(STORM_SECONDS + 20):
            done = await trio.run_process(
                [sys.executable, "-m", "tests.robustness.attackers", str(running.port),
                 str(limit), str(STORM_SECONDS)],
                cwd=REPO, capture_stdout=True, capture_stderr=True, check=False,
            )
        storm_over.set()
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
        stats.update(json.loads(done.stdout.decode().splitlines()[-1]))

    async def chatter(client: TestClient, me: str, other: str, talk: Conversation) -> None:
        for number in range(int(4 * STORM_SECONDS / TELL_INTERVAL_SECONDS)):
            if storm_over.is_set():
                return
            text = f"{me}-says-{number}"
            talk.sent_at[text] = trio.current_time()
            await client.send(f"tell {other} {text}")
            await trio.sleep(TELL_INTERVAL_SECONDS)

    async def newcomer() -> None:
        await trio.sleep(2.0)  # in the thick of it
        began = trio.current_time()
        new_user_lines.extend(await register_and_log_in(running, 4, "newcomer"))
        new_user_lines.append(f"took {trio.current_time() - began:.2f} s")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(listen, bob, "honest_a", to_bob, stop_listening)
        nursery.start_soon(listen, alice, "honest_b", to_alice, stop_listening)
        async with trio.open_nursery() as storm:
            storm.start_soon(attackers)
            storm.start_soon(chatter, alice, "honest_a", "honest_b", to_bob)
            storm.start_soon(chatter, bob, "honest_b", "honest_a", to_alice)
            storm.start_soon(newcomer)
        # The last messages get their full 2 s.
        with trio.move_on_after(MAX_DELAY_SECONDS + 0.5):
            while len(to_bob.arrived_at) < len(to_bob.sent_at) or \
                    len(to_alice.arrived_at) < len(to_alice.sent_at):
                await trio.sleep(0.05)
        stop_listening.set()

    assert stats["connections"] >= ATTACKERS and stats["bytes_sent"] > 200_000, stats
    for talk in (to_bob, to_alice):
        assert len(talk.sent_at) >= STORM_SECONDS / TELL_INTERVAL_SECONDS / 2
        missing = sorted(set(talk.sent_at) - set(talk.arrived_at))
        assert not missing, f"never arrived: {missing} ({stats})"
        delays = {text: talk.arrived_at[text] - sent for text, sent in talk.sent_at.items()}
        slow = {text: round(delay, 2) for text, delay in delays.items() if delay > MAX_DELAY_SECONDS}
        assert not slow, f"arrived late: {slow} ({stats})"
    assert any(line.startswith("1 newcomer ") for line in new_user_lines), new_user_lines

    # The server still serves: a new connection is greeted and the honest users still talk.
    probe = await connect_from(running, 5)
    await probe.expect_prompt("login: ")
    await alice.send("tell honest_b still there?")
    await bob.read_until("12 honest_a still there?", timeout=MAX_DELAY_SECONDS)
    # Once the attackers are gone, none of their sessions is left behind (each one's
    # connection task logs it out as it ends; how soon depends on the machine's load).
    expected = {"honest_a", "honest_b", "newcomer"}
    with trio.move_on_after(60):
        while {s.name for s in running.server.registry.sessions()} != expected:
            await trio.sleep(0.05)
    left = {s.name for s in running.server.registry.sessions()} - expected
    assert not left, f"still online after their connections closed: {sorted(left)}"
