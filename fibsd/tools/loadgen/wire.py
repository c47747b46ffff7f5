"""A lean line client over one trio TCP stream: send a line, read lines, count bytes.

Owns framing on the client side (split on LF, strip CR) and nothing else: no parsing of
what the lines say. Kept small and fast because one process drives thousands of them.
"""

from __future__ import annotations

import os
import select
import threading
from collections import deque

import trio

_READ_BYTES = 65536


class Closed(Exception):
    """The server closed the connection."""


class LineClient:
    """One connection to the server on 127.0.0.1."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self._buffer = b""
        self._lines: deque[str] = deque()
        self.bytes_received = 0

    @classmethod
    async def connect(cls, port: int) -> LineClient:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        return cls(stream)

    async def send(self, line: str) -> None:
        try:
            await self.stream.send_all(line.encode("ascii") + b"\r\n")
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise Closed() from None

    async def _fill(self) -> bytes:
        try:
            data = await self.stream.receive_some(_READ_BYTES)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise Closed() from None
        if not data:
            raise Closed()
        self.bytes_received += len(data)
        return bytes(data)

    async def read_line(self) -> str:
        """The next line without its terminator; raises Closed at end of input."""
        while not self._lines:
            data = self._buffer + await self._fill()
            parts = data.split(b"\n")
            self._buffer = parts.pop()
            self._lines.extend(part.rstrip(b"\r").decode("latin-1") for part in parts)
        return self._lines.popleft()

    def buffered_line(self) -> str | None:
        """The next line if one was already received (no waiting), else None."""
        return self._lines.popleft() if self._lines else None

    async def read_until_prompt(self, prompt: bytes) -> None:
        """Read until the unterminated `prompt` (e.g. b"login: ") ends the input so far."""
        while not self._buffer.endswith(prompt):
            data = self._buffer + await self._fill()
            parts = data.split(b"\n")
            self._buffer = parts.pop()

    async def read_until_line(self, line: bytes) -> None:
        """Discard input up to and including the line `line`.

        Does not decode what it skips: used to wait for the `6` that ends the who list
        without paying for thousands of `5` lines. Later lines stay readable.
        """
        marker = b"\n" + line + b"\r\n"
        data = b"\n" + self._buffer
        self._buffer = b""
        while True:
            found = data.find(marker)
            if found >= 0:
                parts = data[found + len(marker):].split(b"\n")
                self._buffer = parts.pop()
                self._lines.extend(part.rstrip(b"\r").decode("latin-1") for part in parts)
                return
            # keep the last partial line (with its leading LF) for the next search
            data = data[data.rfind(b"\n"):] + await self._fill()

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)


class Drainer:
    """Reads and discards the input of many idle connections, in one thread of its own.

    A trio task per idle session (a `receive_some` per piece the server sends, with the
    wake-up, the epoll registration and the rescheduling around it) made the load client
    use more CPU per login than the server in a 10,000-login ramp-up: every login is
    announced to every session. Here one `epoll` loop reads whatever arrived on any of
    them with plain non-blocking reads. A connection handed over (`add`) must not be read
    by trio any more; `dropped` counts those the server closed."""

    _READ = 262144

    def __init__(self) -> None:
        self.dropped = 0
        self._epoll = select.epoll()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def add(self, client: LineClient) -> None:
        client._buffer = b""
        client._lines.clear()
        fd = client.stream.socket.fileno()
        with self._lock:
            self._epoll.register(fd, select.EPOLLIN | select.EPOLLRDHUP)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="loadgen-drainer", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                events = self._epoll.poll(0.2)
            except OSError:
                return  # closed by `stop`
            for fd, _mask in events:
                self._read_all(fd)

    def _read_all(self, fd: int) -> None:
        while True:
            try:
                data = os.read(fd, self._READ)
            except BlockingIOError:
                return
            except OSError:  # reset by the peer, or closed meanwhile
                data = b""
            if not data:
                self.dropped += 1
                with self._lock:
                    try:
                        self._epoll.unregister(fd)
                    except OSError:
                        pass
                return

    def stop(self) -> None:
        """End the thread (bounded wait); the connections stay open."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        self._epoll.close()
