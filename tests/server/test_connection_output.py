"""A connection's output path: the flusher, a full socket, a slow reader, closing.

Real sockets (a connected pair, with small kernel buffers so that they fill quickly),
the real flusher task, no server around them.
"""

from __future__ import annotations

import socket

import trio
import trio.testing

from fibsd.infra.config import Config
from fibsd.shell.connection import Connection, Flusher


async def _pair(flusher: Flusher, max_output_lines: int = 2000) -> tuple[Connection, trio.SocketStream]:
    ours, theirs = trio.socket.socketpair()
    for sock in (ours, theirs):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    config = Config.from_mapping({"limits": {"max_output_lines": max_output_lines}})
    connection = Connection(trio.SocketStream(ours), config, host="pair", flusher=flusher)
    return connection, trio.SocketStream(theirs)


async def _read_exactly(stream: trio.SocketStream, size: int) -> bytes:
    data = bytearray()
    with trio.fail_after(10):
        while len(data) < size:
            chunk = await stream.receive_some(65536)
            assert chunk, "closed early"
            data += chunk
    return bytes(data)


async def test_output_beyond_the_socket_buffer_arrives_whole_and_in_order() -> None:
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher)
        lines = [f"line {number:06d} {'x' * 60}" for number in range(20_000)]
        for start in range(0, len(lines), 100):
            connection.write_lines(lines[start:start + 100])
        await trio.testing.wait_all_tasks_blocked()  # the flusher ran; the kernel took only a little
        assert connection.is_open
        expected = b"".join(f"{line}\r\n".encode() for line in lines)
        assert len(expected) > 1_000_000
        assert await _read_exactly(peer, len(expected)) == expected
        await connection.aclose()
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_reader_that_stops_reading_is_cut_off_without_blocking_anyone() -> None:
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher, max_output_lines=100)
        with trio.fail_after(5):
            while connection.is_open:  # never blocks: queuing is synchronous
                connection.write_line("y" * 1000)
                await trio.lowlevel.checkpoint()
        assert not connection.is_open
        connection.write_line("after the cut")  # ignored, no error
        await connection.aclose()
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_closing_gracefully_sends_what_was_queued_then_ends_the_stream() -> None:
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher)
        connection.write_lines(["goodbye"] * 2000)
        async with trio.open_nursery() as closing:
            closing.start_soon(connection.aclose_gracefully, 5.0)
            received = await _read_exactly(peer, len(b"goodbye\r\n") * 2000)
        assert received == b"goodbye\r\n" * 2000
        with trio.fail_after(5):
            assert await peer.receive_some(100) == b""  # closed after the last line
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_vanished_peer_ends_the_connection_quietly() -> None:
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher)
        await peer.aclose()
        with trio.fail_after(5):
            while connection.is_open:
                connection.write_line("anyone there?")
                await trio.sleep(0.01)
        assert await connection.read_line() is None
        await connection.aclose()
        nursery.cancel_scope.cancel()


async def _read_until_closed_or(stream: trio.SocketStream, end: bytes) -> bytes:
    data = bytearray()
    with trio.fail_after(10):
        while not data.endswith(end):
            chunk = await stream.receive_some(65536)
            assert chunk, "closed early"
            data += chunk
    return bytes(data)


async def test_status_lines_coalesce_in_a_slow_readers_queue() -> None:
    # Issue 17: 4,000 users starting matches changed everyone's status thousands of times;
    # a client that read a moment late was disconnected for a full outbox. A waiting status
    # line of a user is now replaced by that user's newer one, and status lines are not
    # counted against the bound: only the latest status of each user reaches the reader.
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher, max_output_lines=100)
        # Fill the socket so that everything after waits in the outbox (the slow reader).
        filler = b"f" * 1000 + b"\r\n"
        while connection.is_open and not connection._outbox:
            connection.write_encoded(filler)
            await trio.lowlevel.checkpoint()
        filled = len(connection._outbox.pieces)
        users = [f"user{number}" for number in range(50)]
        for change in range(100):  # 5,000 status lines, far above the bound of 100
            for user in users:
                connection.write_status(user, f"5 {user} status {change}\r\n6\r\n".encode())
        connection.write_line("last")
        assert connection.is_open
        # At most one waiting status piece per user (older ones left as empty places).
        waiting = [piece for piece in connection._outbox.pieces if piece.startswith(b"5 ")]
        assert len(waiting) == len(users)
        assert connection._outbox.counted <= filled + 1
        received = await _read_until_closed_or(peer, b"last\r\n")
        text = received.replace(filler, b"").decode()
        statuses = [line for line in text.split("\r\n") if line.startswith("5 ")]
        # Every user's newest status arrives, each exactly once, in the order last queued.
        assert statuses == [f"5 {user} status 99" for user in users]
        assert text.count("6\r\n") == len(users)
        assert text.endswith("last\r\n")
        await connection.aclose()
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_other_lines_still_count_against_the_bound_beside_status_lines() -> None:
    flusher = Flusher()
    async with trio.open_nursery() as nursery:
        await nursery.start(flusher.run)
        connection, peer = await _pair(flusher, max_output_lines=100)
        with trio.fail_after(5):
            while connection.is_open:  # plain lines to a reader that never reads
                connection.write_status("someone", b"5 someone\r\n6\r\n")
                connection.write_line("y" * 1000)
                await trio.lowlevel.checkpoint()
        assert not connection.is_open
        await connection.aclose()
        await peer.aclose()
        nursery.cancel_scope.cancel()
