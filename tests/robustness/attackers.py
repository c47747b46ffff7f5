"""The attackers of the abuse test, run in a process of their own (as on the Internet).

`python -m tests.robustness.attackers PORT MAX_LINE_BYTES SECONDS` attacks the fibsd server
on 127.0.0.1:PORT for SECONDS with 20 connections, each from its own loopback source
address 127.0.0.10-29: random garbage bytes, lines over MAX_LINE_BYTES, telnet IAC storms
and subnegotiations that never end, floods of bad login lines, and floods of commands from
logged-in accounts (`flooder_e`, ... with password `secret`, which must exist; hundreds of
lines per second, some never reading their output); plus 40 idle connections from
127.0.0.60. A connection the server cuts off is opened again (at most 8 times). At the end
it prints its counters as one JSON line. Every loop is bounded in count and in time.

Running them apart keeps their own CPU work out of the server's event loop, so that the
test measures the server, not the test's attackers.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import attrs
import trio

from tests.server.client import TestClient

ATTACKERS = 20
PASSWORD = "secret"

_DISCONNECTED = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, EOFError,
                 trio.TooSlowError)


async def connect_from(target: Any, host_number: int) -> TestClient:
    """A client connected to `target.port` on 127.0.0.1 from source address
    127.0.0.`host_number`; it joins `target.clients` (closed at the end)."""
    stream = await trio.open_tcp_stream("127.0.0.1", target.port,
                                        local_address=f"127.0.0.{host_number}")
    client = TestClient(stream)
    target.clients.append(client)
    return client


async def clip_login_from(target: Any, host_number: int, name: str) -> TestClient:
    client = await connect_from(target, host_number)
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
        await _send(client, rng.randbytes(size), stats)
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


async def attacker(target: Any, limit: int, number: int, stats: AttackStats, stop_at: float) -> None:
    """One attacker: connects (again after being cut off) and attacks until `stop_at`."""
    rng = random.Random(number)
    host = 10 + number
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
                    client = await clip_login_from(target, host, flooder)
                else:
                    client = await connect_from(target, host)
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


async def connection_flood(target: Any, host_number: int, count: int, stats: AttackStats,
                           stop_at: float) -> None:
    """Many idle connections from one address, held open until `stop_at` (beyond the
    per-address limit, the server may refuse them: both are fine)."""
    held: list[TestClient] = []
    try:
        with trio.move_on_at(stop_at):
            for _ in range(count):
                try:
                    held.append(await connect_from(target, host_number))
                    stats.connections += 1
                except _DISCONNECTED:
                    stats.disconnections += 1
            await trio.sleep_forever()
    finally:
        with trio.CancelScope(shield=True):
            for client in held:
                await client.close()


@attrs.define
class Target:
    port: int
    clients: list[TestClient] = attrs.field(factory=list)


async def storm(port: int, limit: int, seconds: float) -> AttackStats:
    """All the attackers at once, for `seconds`."""
    stats = AttackStats()
    target = Target(port)
    stop_at = trio.current_time() + seconds
    try:
        async with trio.open_nursery() as nursery:
            for number in range(ATTACKERS):
                nursery.start_soon(attacker, target, limit, number, stats, stop_at)
            nursery.start_soon(connection_flood, target, 60, 40, stats, stop_at)
    finally:
        with trio.CancelScope(shield=True):
            for client in target.clients:
                await client.close()
    return stats


def main(argv: list[str]) -> int:
    port, limit, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    stats = trio.run(storm, port, limit, seconds)
    print(json.dumps(attrs.asdict(stats)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
