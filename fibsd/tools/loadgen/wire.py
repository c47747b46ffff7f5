"""A lean line client over one trio TCP stream: send a line, read lines, count bytes.

Owns framing on the client side (split on LF, strip CR) and nothing else: no parsing of
what the lines say. Kept small and fast because one process drives thousands of them.
"""

from __future__ import annotations

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

    async def drain_forever(self) -> None:
        """Read and discard everything until the server closes the connection."""
        self._buffer = b""
        self._lines.clear()
        while True:
            await self._fill()

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)
