"""One client connection in the trio shell: framed input, bounded output, prompts.

Owns the socket stream of one user: it turns received bytes into lines (through the
`protocol` codec, with its hard line-length limit) and queues outgoing bytes into a bounded
channel drained by one writer task. A client that stops reading fills the channel and is
disconnected; nobody else ever waits for it. For telnet users it also keeps track of the
`> ` prompt, so that asynchronous lines start on a fresh line.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable

import trio

from fibsd.config import Config
from protocol.framing import LineReader, encode_line, encode_prompt

log = logging.getLogger("fibsd.connection")

_READ_BYTES = 4096


class ConnectionClosed(Exception):
    """The peer went away (or was disconnected) while we waited for input."""


class Connection:
    """The byte-level side of one user's connection."""

    def __init__(self, stream: trio.abc.Stream, config: Config, *, host: str) -> None:
        self.stream = stream
        self.host = host
        self._reader = LineReader(config.max_line_bytes)
        self._lines: deque[str] = deque()
        self._send, self._receive = trio.open_memory_channel[bytes](config.max_output_lines)
        self._max_held = config.max_output_lines
        self._open = True
        self._eof = False
        self._prompt_pending = False
        self._writer_done = trio.Event()
        self._read_scope: trio.CancelScope | None = None
        #: While set, lines from other users wait here (see `hold`).
        self._held: list[bytes] | None = None

    @property
    def is_open(self) -> bool:
        return self._open

    # ------------------------------------------------------------------ input

    async def read_line(self) -> str | None:
        """The next complete line, or None at end of input. Raises LineTooLong."""
        while not self._lines:
            if self._eof or not self._open:
                return None
            with trio.CancelScope() as scope:
                # close_soon() cancels this, so a kicked user's reader stops at once.
                self._read_scope = scope
                try:
                    data = await self.stream.receive_some(_READ_BYTES)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    raise ConnectionClosed() from None
                finally:
                    self._read_scope = None
            if scope.cancelled_caught:
                return None
            if not data:
                self._eof = True
                return None
            self._lines.extend(self._reader.feed(bytes(data)))
        self._prompt_pending = False
        return self._lines.popleft()

    # ----------------------------------------------------------------- output

    def write_line(self, line: str) -> None:
        self.write_lines([line])

    def hold(self) -> None:
        """Keep other users' lines back until `release`: a newly logged-in user must get
        its own greeting first (clients read anything before it as the login dialogue)."""
        self._held = []

    def release(self) -> None:
        held, self._held = self._held, None
        for data in held or ():
            self.write_encoded(data, asynchronous=True)

    def write_lines(self, lines: Iterable[str], *, asynchronous: bool = False) -> None:
        """Queue complete lines; asynchronous ones start on a fresh line after a prompt."""
        self.write_encoded(b"".join(encode_line(line) for line in lines), asynchronous=asynchronous)

    def write_encoded(self, data: bytes, *, asynchronous: bool = False) -> None:
        """Queue lines already encoded (CRLF-terminated): fan-out encodes a line once."""
        if not data:
            return
        if asynchronous and self._held is not None:
            if len(self._held) >= self._max_held:
                self.close_soon()  # a flood while logging in: the outbox bound applies
            else:
                self._held.append(data)
            return
        if asynchronous and self._prompt_pending:
            data = b"\r\n" + data
        self._prompt_pending = False
        self._queue(data)

    def write_prompt(self, text: str) -> None:
        """Queue a prompt (no line end); later asynchronous output starts a new line."""
        self._queue(encode_prompt(text))
        self._prompt_pending = True

    def write_bytes(self, data: bytes) -> None:
        """Queue raw bytes (telnet negotiation)."""
        self._queue(data)

    def _queue(self, data: bytes) -> None:
        if not self._open:
            return
        try:
            self._send.send_nowait(data)
        except trio.WouldBlock:
            # Invariant: a slow reader is cut off, nobody waits for it.
            log.warning("output buffer of %s full; disconnecting", self.host)
            self.close_soon()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._open = False

    # -------------------------------------------------------------- lifecycle

    async def run_writer(self) -> None:
        """Drain the outbox into the socket until the outbox is closed."""
        try:
            async with self._receive:
                async for data in self._receive:
                    # Everything queued meanwhile goes out in one send (fewer system calls).
                    batch = [data]
                    while True:
                        try:
                            batch.append(self._receive.receive_nowait())
                        except (trio.WouldBlock, trio.EndOfChannel):
                            break
                    await self.stream.send_all(b"".join(batch) if len(batch) > 1 else data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            self._open = False
            self._writer_done.set()

    def close_soon(self) -> None:
        """Stop accepting output; the writer sends what is queued, then the reader ends."""
        if self._open:
            self._open = False
            self._send.close()
        if self._read_scope is not None:
            self._read_scope.cancel()

    def finish(self) -> None:
        """No more output will be produced: let the writer drain and stop."""
        self.close_soon()

    async def aclose_gracefully(self, flush_seconds: float) -> None:
        """Flush queued output for a bounded time, then close the stream."""
        self.close_soon()
        with trio.move_on_after(flush_seconds):
            await self._writer_done.wait()
        await self.aclose()

    async def aclose(self) -> None:
        self.close_soon()
        await trio.aclose_forcefully(self.stream)
