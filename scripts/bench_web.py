"""What the WebSocket costs next to plain TCP: command round trips over each.

Starts a fibsd server in this process (127.0.0.1, free ports, a temporary database, the
cheapest password hash), registers the users, then for TCP and for the WebSocket
(`ws://.../fibs`):

- **round trip**: one client sends `who u_a` and waits for its answer (a CLIP 5 line and
  `6`), again and again; the median and 90th percentile of the round trips, in microseconds;
- **throughput**: N clients do the same at once; commands answered per second in total.

Usage: scripts/bench-web [--round-trips N] [--clients N] [--commands N]. Figures go to
docs/benchmarks.md; they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' clients

from fibsd.domain.accounts import Account
from fibsd.infra.config import Config
from fibsd.infra.passwords import PasswordHasher
from fibsd.shell.server import Server
from fibsd.store.sqlite import SQLiteStore as Store
from tests.server.client import TestClient
from tests.server.websocket_client import WebSocketClientStream


def name(index: int) -> str:
    """Account names are letters only: u_a, u_b, ..., u_ba, ..."""
    letters = ""
    while True:
        index, digit = divmod(index, 26)
        letters = chr(ord("a") + digit) + letters
        if not index:
            return "u_" + letters


def config(directory: Path, clients: int) -> Config:
    return Config.from_mapping({
        "server": {"port": 0, "db_path": str(directory / "fibsd.db"),
                   "motd_file": str(directory / "none.txt"), "log_level": "WARNING"},
        "limits": {"commands_per_second": 10_000.0, "command_burst": 100_000,
                   "max_connections_per_address": clients * 4 + 10,
                   "new_accounts_per_address_per_hour": 1_000_000,
                   "max_output_lines": 1_000_000},
        "web": {"web_enabled": True, "web_port": 0},
    })


async def connect(server: Server, kind: str) -> TestClient:
    if kind == "tcp":
        port = server.listeners[0].socket.getsockname()[1]
        return TestClient(await trio.open_tcp_stream("127.0.0.1", port))
    port = server.web_listeners[0].socket.getsockname()[1]
    return TestClient(await WebSocketClientStream.connect(port))  # type: ignore[arg-type]


async def log_in(server: Server, kind: str, name: str) -> TestClient:
    client = await connect(server, kind)
    await client.expect_prompt("login: ", timeout=30)
    await client.send(f"login bench 1008 {name} secret")
    await client.read_until("6", timeout=10)
    return client


async def command(client: TestClient) -> None:
    # Read-only and answered to the sender alone: the figures are the transport's and the
    # command loop's, not SQLite's fsync or a fan-out to everyone.
    await client.send("who u_a")
    await client.read_until("6", timeout=30)


async def round_trips(server: Server, kind: str, count: int) -> list[float]:
    client = await log_in(server, kind, name(0))
    times = []
    for _ in range(count):
        started = time.perf_counter()
        await command(client)
        times.append((time.perf_counter() - started) * 1e6)
    await client.stream.aclose()
    return times


async def throughput(server: Server, kind: str, clients: int, commands: int) -> float:
    users = [await log_in(server, kind, name(index)) for index in range(clients)]

    async def run(client: TestClient) -> None:
        for _ in range(commands):
            await command(client)

    started = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for client in users:
            nursery.start_soon(run, client)
    elapsed = time.perf_counter() - started
    for client in users:
        await client.stream.aclose()
    return clients * commands / elapsed


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as directory:
        settings = config(Path(directory), args.clients)
        hasher = PasswordHasher.for_tests("pbkdf2_sha256")
        with Store.open(settings.db_path) as store:
            hashed = hasher.hash("secret")  # one salted hash verifies for every account
            for index in range(args.clients):
                store.create_account(Account.new(name(index), hashed, time.time()))
            server = Server(settings, store, hasher=hasher)
            async with trio.open_nursery() as nursery:
                await nursery.start(server.serve)
                print(f"{'':10} {'round trip µs':>14} {'p90 µs':>8} {'commands/s':>11}")
                print(f"{'':10} {'(1 client)':>14} {'':>8} {f'({args.clients} clients)':>11}")
                for kind in ("tcp", "websocket"):
                    times = await round_trips(server, kind, args.round_trips)
                    rate = await throughput(server, kind, args.clients, args.commands)
                    p90 = statistics.quantiles(times, n=10)[-1]
                    print(f"{kind:10} {statistics.median(times):14.0f} {p90:8.0f} {rate:11.0f}")
                server.request_stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round-trips", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--commands", type=int, default=100)
    trio.run(main, parser.parse_args())
