"""Abuse over real TCP (issue 7): a storm of bad clients while two honest users talk.

An in-process server (the `start_server` fixture, 127.0.0.1, port 0) gets, for a few
seconds, 20 attacker connections that send random garbage bytes, lines over
`max_line_bytes`, telnet IAC storms and subnegotiations that never end, floods of bad login
lines, and floods of commands from logged-in accounts (hundreds of lines per second, some
of them never reading their output). Meanwhile two honest CLIP users tell each other a
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

import random
import time
from typing import Any

import attrs
import trio

from fibsd.accounts import Account
from fibsd.clock import SystemClock
from fibsd.passwords import PasswordHasher
from tests.server.client import TestClient

STORM_SECONDS = 6.0
TELL_INTERVAL_SECONDS = 0.25
MAX_DELAY_SECONDS = 2.0
ATTACKERS = 20
PASSWORD = "secret"
_DISCONNECTED = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, EOFError,
                 trio.TooSlowError)


async def connect_from(running: Any, host_number: int) -> TestClient:
    """A client connected to the server from source address 127.0.0.`host_number`."""
    stream = await trio.open_tcp_stream("127.0.0.1", running.port,
                                        local_address=f"127.0.0.{host_number}")
    client = TestClient(stream)
    running.clients.append(client)
    return client


async def clip_login_from(running: Any, host_number: int, name: str) -> TestClient:
    client = await connect_from(running, host_number)
    try:
        await client.expect_prompt("login: ")
        await client.send(f"login abusetest 1008 {name} {PASSWORD}")
        await client.read_until(lambda line: line.startswith(f"1 {name} "))
        await client.read_until("6")
    except BaseException:
        # Cancelled or refused half-way: close, or the server keeps a session for it.
        with trio.CancelScope(shield=True):
            await client.close()
        raise
    return client


def create_accounts(running: Any, names: list[str]) -> None:
    """Accounts made directly in the store (test set-up, not what is under test)."""
    hashed = PasswordHasher.for_tests("pbkdf2_sha256").hash(PASSWORD)
    for name in names:
        running.server.store.create_account(Account.new(name, hashed, running.clock.now()))


# ------------------------------------------------------------------------- attackers


@attrs.define
class AttackStats:
    connections: int = 0
    bytes_sent: int = 0
    lines_sent: int = 0
    disconnections: int = 0


async def _drain(client: TestClient) -> None:
    """Read and forget whatever the server sends, until it closes."""
    try:
        while True:
            data = await client.stream.receive_some(65536)
            if not data:
                return
    except _DISCONNECTED:
        return


async def _send(client: TestClient, data: bytes, stats: AttackStats) -> None:
    await client.stream.send_all(data)
    stats.bytes_sent += len(data)


async def garbage(client: TestClient, rng: random.Random, stats: AttackStats, limit: int) -> None:
    for _ in range(200):
        size = rng.randint(1, 600)
        await _send(client, bytes(rng.getrandbits(8) for _ in range(size)), stats)
        await trio.sleep(0.005)


async def over_long_lines(client: TestClient, rng: random.Random, stats: AttackStats, limit: int) -> None:
    for _ in range(20):
        await _send(client, b"who " + b"x" * (limit * rng.randint(2, 8)) + b"\r\n", stats)
        await trio.sleep(0.01)


async def iac_storm(client: TestClient, rng: random.Random, stats: AttackStats, limit: int) -> None:
    for _ in range(30):
        await _send(client, b"\xff\xfb\x01" * rng.randint(10, 3000), stats)
        await _send(client, b"\xff\xfd\x03\xff\xff\xff\xf1" * rng.randint(1, 200), stats)
        if rng.random() < 0.3:  # a subnegotiation that never ends
            await _send(client, b"\xff\xfa\x18" + b"A" * rng.randint(10, limit * 3), stats)
        await trio.sleep(0.01)


async def login_flood(client: TestClient, rng: random.Random, stats: AttackStats, limit: int) -> None:
    lines = [f"login evil 1008 nosuch{rng.randint(0, 999)} wrong", "guest", "name", "",
             "connect nobody nothing", "\x00\x01\x02", "login"]
    for _ in range(30):
        batch = "".join(rng.choice(lines) + "\r\n" for _ in range(20))
        await _send(client, batch.encode(), stats)
        stats.lines_sent += 20
        await trio.sleep(0.02)


def _flood_lines(rng: random.Random, me: str) -> list[str]:
    return [
        "who", "rawwho", "whois honest_a", "shout spam spam spam", f"tell {me} echo",
        "tell honest_a buy cheap dice", "invite honest_b 5", "show games", "ratings",
        "set boardstyle 1", "toggle ready", "board", "roll", "move 24-18", "!!", "help",
        "xyzzy " + "q" * rng.randint(0, 200), "message honest_b spam", "away x", "back",
        "watch honest_a", "unwatch", "kibitz k", "last", "motd",
    ]


async def command_flood(client: TestClient, rng: random.Random, stats: AttackStats, limit: int,
                        me: str) -> None:
    lines = _flood_lines(rng, me)
    for _ in range(25):  # 25 bursts of 20 lines, ~400 lines per second
        batch = "".join(rng.choice(lines) + "\r\n" for _ in range(20))
        await _send(client, batch.encode(), stats)
        stats.lines_sent += 20
        await trio.sleep(0.05)


def flooder_name(number: int) -> str:
    """Account names are letters and underscores only."""
    return "flooder_" + chr(ord("a") + number)


async def attacker(running: Any, number: int, stats: AttackStats, stop_at: float) -> None:
    """One attacker: connects (again after being cut off) and attacks until `stop_at`."""
    rng = random.Random(number)
    host = 10 + number
    limit = running.server.config.max_line_bytes
    kind = number % 6
    flooder = flooder_name(number)
    reads = number % 4 != 3  # some never read their output
    for _attempt in range(8):
        if trio.current_time() >= stop_at:
            return
        client: TestClient | None = None
        with trio.move_on_at(stop_at):
            try:
                if kind in (4, 5):
                    client = await clip_login_from(running, host, flooder)
                else:
                    client = await connect_from(running, host)
                stats.connections += 1
                async with trio.open_nursery() as nursery:
                    if reads:
                        nursery.start_soon(_drain, client)
                    await _attack(client, kind, rng, stats, limit, flooder)
                    nursery.cancel_scope.cancel()
            except _DISCONNECTED:
                stats.disconnections += 1
            finally:
                if client is not None:
                    with trio.CancelScope(shield=True):
                        await client.close()
        await trio.sleep(0.05)


async def _attack(client: TestClient, kind: int, rng: random.Random, stats: AttackStats,
                  limit: int, flooder: str) -> None:
    """One attack until done or cut off (being cut off is an acceptable answer)."""
    try:
        match kind:
            case 0:
                await garbage(client, rng, stats, limit)
            case 1:
                await over_long_lines(client, rng, stats, limit)
            case 2:
                await iac_storm(client, rng, stats, limit)
            case 3:
                await login_flood(client, rng, stats, limit)
            case _:
                await command_flood(client, rng, stats, limit, flooder)
    except _DISCONNECTED:
        stats.disconnections += 1


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


async def chatter(client: TestClient, me: str, other: str, talk: Conversation, until: float) -> None:
    number = 0
    while trio.current_time() < until:
        text = f"{me}-says-{number}"
        talk.sent_at[text] = trio.current_time()
        await client.send(f"tell {other} {text}")
        number += 1
        await trio.sleep(TELL_INTERVAL_SECONDS)


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
    began = time.monotonic()
    # The wall clock, so that the command rate limits refill as in production.
    running = await start_server(clock=SystemClock())
    flooders = [flooder_name(n) for n in range(ATTACKERS) if n % 6 in (4, 5)]
    create_accounts(running, ["honest_a", "honest_b", *flooders])
    alice = await clip_login_from(running, 2, "honest_a")
    bob = await clip_login_from(running, 3, "honest_b")
    to_bob, to_alice = Conversation(), Conversation()
    stats = AttackStats()
    new_user_lines: list[str] = []
    started = trio.current_time()
    stop_at = started + STORM_SECONDS
    stop_listening = trio.Event()

    async def newcomer() -> None:
        await trio.sleep(1.5)  # in the thick of it
        began = trio.current_time()
        new_user_lines.extend(await register_and_log_in(running, 4, "newcomer"))
        new_user_lines.append(f"took {trio.current_time() - began:.2f} s")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(listen, bob, "honest_a", to_bob, stop_listening)
        nursery.start_soon(listen, alice, "honest_b", to_alice, stop_listening)
        async with trio.open_nursery() as storm:
            for number in range(ATTACKERS):
                storm.start_soon(attacker, running, number, stats, stop_at)
            storm.start_soon(chatter, alice, "honest_a", "honest_b", to_bob, stop_at)
            storm.start_soon(chatter, bob, "honest_b", "honest_a", to_alice, stop_at)
            storm.start_soon(newcomer)
        # The last messages get their full 2 s.
        with trio.move_on_after(MAX_DELAY_SECONDS + 0.5):
            while len(to_bob.arrived_at) < len(to_bob.sent_at) or \
                    len(to_alice.arrived_at) < len(to_alice.sent_at):
                await trio.sleep(0.05)
        stop_listening.set()

    assert stats.connections >= ATTACKERS and stats.bytes_sent > 200_000, stats
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
    # Once the attackers are gone, none of their sessions is left behind.
    expected = {"honest_a", "honest_b", "newcomer"}
    with trio.move_on_after(5):
        while {s.name for s in running.server.registry.sessions()} != expected:
            await trio.sleep(0.05)
    left = {s.name for s in running.server.registry.sessions()} - expected
    assert not left, f"still online 5 s after their connections closed: {sorted(left)}"
    assert time.monotonic() - began < 30
