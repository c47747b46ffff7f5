"""One client connection in the trio shell: framed input, bounded output, prompts.

Owns the socket stream of one user: it turns received bytes into lines (through the
`protocol` codec, with its hard line-length limit) and keeps a bounded outbox of encoded
output. A client that stops reading fills the outbox and is disconnected; nobody else ever
waits for it. For telnet users it also keeps track of the `> ` prompt, so that asynchronous
lines start on a fresh line.

Output of a plain TCP connection is written by the server's one `Flusher`: queuing only
marks the connection, and the flusher writes everything queued meanwhile with one
non-blocking `send` per connection. A login storm or a status change sends one line to
thousands of users; a writer task per connection would cost a task switch and a trio
`send_all` per recipient per line, and each task's memory besides. Only a connection whose
socket buffer is full gets a task of its own, which waits until the socket is writable.
TLS and WebSocket connections keep one writer task each (their layers have their own
state to drive).

Status lines coalesce: a line that only states a user's current status (CLIP `5` who-info,
a user's own line sent at once) replaces that user's previous one while it still waits in
the outbox, and does not count towards the outbox bound: only the latest status matters.
What everyone else hears of status changes comes in the paced batches of
`fibsd.shell.announcements`, one piece per batch.
"""

from __future__ import annotations

import logging
import os
import socket
from collections import deque
from collections.abc import Callable, Iterable

import trio

from fibsd.infra.config import Config
from protocol.framing import LineReader, encode_line, encode_prompt

log = logging.getLogger("fibsd.shell.connection")

_READ_BYTES = 4096


class ConnectionClosed(Exception):
    """The peer went away (or was disconnected) while we waited for input."""


class Outbox:
    """Encoded output not yet handed to the kernel, oldest first, with status coalescing.

    `counted` is the number of pieces the outbox bound applies to: status pieces are left
    out (there is at most one per user, see `put_status`)."""

    __slots__ = ("_status_at", "counted", "pieces")

    def __init__(self) -> None:
        self.pieces: list[bytes] = []
        self.counted = 0
        #: user key -> (index in `pieces` of that user's status line still waiting,
        #: whether it starts with a CRLF that ends a prompt).
        self._status_at: dict[str, tuple[int, bool]] = {}

    def __bool__(self) -> bool:
        return bool(self.pieces)

    def append(self, data: bytes) -> None:
        self.pieces.append(data)
        self.counted += 1

    def put_status(self, key: str, data: bytes, *, after_prompt: bool = False) -> None:
        """Queue `key`'s status lines (`data`, which starts with a CRLF ending a prompt if
        `after_prompt`); an older one of the same user still waiting is dropped (its place
        keeps that CRLF, so that what follows the prompt still starts on a new line)."""
        older = self._status_at.get(key)
        if older is not None:
            index, fresh_line = older
            self.pieces[index] = b"\r\n" if fresh_line else b""
        self._status_at[key] = (len(self.pieces), after_prompt)
        self.pieces.append(data)

    def take(self) -> bytes:
        """Everything queued, as one piece; the outbox is empty afterwards."""
        data = b"".join(self.pieces)
        self.clear()
        return data

    def clear(self) -> None:
        self.pieces.clear()
        self.counted = 0
        self._status_at.clear()

    def put_back(self, rest: bytes) -> None:
        """What the kernel did not take of `take()`'s piece, into the empty outbox."""
        self.pieces.append(rest)
        self.counted = 1


class Flusher:
    """Writes the queued output of every plain TCP connection, once per scheduler pass.

    Lines queued by all the commands handled in one pass of the trio scheduler go out
    together: one system call per connection however many lines it was sent."""

    #: A pass that took longer than this is followed by a pause as long (at most MAX).
    PAUSE_AFTER_SECONDS = 0.001
    MAX_PAUSE_SECONDS = 0.05

    def __init__(self) -> None:
        self._dirty: dict[Connection, None] = {}
        self._wake = trio.Event()
        self._nursery: trio.Nursery | None = None

    def mark(self, connection: Connection) -> None:
        if not self._dirty:
            self._wake.set()
        self._dirty[connection] = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Flush marked connections until cancelled (the server runs it beside the
        committer, so that it outlives every connection)."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            try:
                while True:
                    await self._wake.wait()
                    self._wake = trio.Event()
                    started = trio.current_time()
                    self.flush_marked()
                    # Flush at most half of the time: after a long pass (thousands of
                    # connections, e.g. a login announced to everyone) let the commands
                    # run for as long, so that the next pass sends each connection more
                    # lines with one system call. A short pass costs no delay to speak of.
                    spent = trio.current_time() - started
                    if spent > self.PAUSE_AFTER_SECONDS:
                        await trio.sleep(min(spent, self.MAX_PAUSE_SECONDS))
            finally:
                self._nursery = None
                self.flush_marked()

    def flush_marked(self) -> None:
        dirty, self._dirty = self._dirty, {}
        for connection in dirty:
            connection.flush()

    def wait_writable(self, connection: Connection) -> None:
        """`connection`'s socket is full: a task of its own sends the rest when it can."""
        if self._nursery is not None:
            self._nursery.start_soon(connection.drain_when_writable)


class Connection:
    """The byte-level side of one user's connection."""

    def __init__(
        self, stream: trio.abc.Stream, config: Config, *, host: str, flusher: Flusher,
        on_first_read: Callable[[], None] | None = None,
    ) -> None:
        self.stream = stream
        #: Called once, when the connection first waits for input (the banner is out).
        self._on_first_read = on_first_read
        self.host = host
        self._flusher = flusher
        # Plain TCP is written directly with non-blocking sends (see the module docstring);
        # anything else (TLS) through the stream's own send_all, by a writer task.
        self._socket: trio.socket.SocketType | None = (
            stream.socket if isinstance(stream, trio.SocketStream) else None
        )
        self._reader = LineReader(config.max_line_bytes)
        self._lines: deque[str] = deque()
        #: Encoded output not yet handed to the kernel, oldest first.
        self._outbox = Outbox()
        self._max_held = config.max_output_lines
        self._open = True  # accepting output
        self._closed = False  # the stream is closed: never touch the socket again
        self._eof = False
        self._prompt_pending = False
        self._blocked = False  # a task waits for the socket to become writable
        #: Set when the outbox becomes empty; made only when someone waits for that (a
        #: closing connection), not at every burst of output.
        self._drained: trio.Event | None = None
        self._sending = False  # (TLS) the writer task is handing a piece to the stream
        self._read_scope: trio.CancelScope | None = None
        #: TLS only: wakes the writer task when output is queued or the connection closes.
        self._writer_wake: trio.Event | None = trio.Event() if self._socket is None else None
        #: While set, lines from other users wait here (see `hold`).
        self._held: Outbox | None = None

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def needs_writer_task(self) -> bool:
        """True for streams the flusher cannot write directly (TLS, WebSocket): run
        `run_writer`."""
        return self._socket is None

    # ------------------------------------------------------------------ input

    async def read_line(self) -> str | None:
        """The next complete line, or None at end of input. Raises LineTooLong."""
        if self._on_first_read is not None:
            first, self._on_first_read = self._on_first_read, None
            first()
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

    def peer_gone(self) -> bool:
        """Whether the client has hung up, known without waiting: our side closed it, or
        (plain TCP) the socket is at end of input with nothing unread before the end. A
        line typed ahead counts as a client still there."""
        if self._eof or not self._open or self._closed:
            return True
        if self._socket is None:
            return False  # (TLS, WebSocket: their layers would have to be asked)
        try:
            # trio's socket has no synchronous recv: borrow the descriptor for one peek.
            probe = socket.socket(fileno=self._socket.fileno())
        except OSError:
            return True
        try:
            return probe.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            probe.detach()  # (the descriptor stays trio's)

    # ----------------------------------------------------------------- output

    def write_line(self, line: str) -> None:
        self.write_lines([line])

    def hold(self) -> None:
        """Keep other users' lines back until `release`: a newly logged-in user must get
        its own greeting first (clients read anything before it as the login dialogue)."""
        self._held = Outbox()

    def release(self) -> None:
        held, self._held = self._held, None
        if held:
            self.write_encoded(held.take(), asynchronous=True)

    def write_lines(self, lines: Iterable[str], *, asynchronous: bool = False) -> None:
        """Queue complete lines; asynchronous ones start on a fresh line after a prompt."""
        self.write_encoded(b"".join(encode_line(line) for line in lines), asynchronous=asynchronous)

    def write_encoded(self, data: bytes, *, asynchronous: bool = False) -> None:
        """Queue lines already encoded (CRLF-terminated): fan-out encodes a line once."""
        if not data:
            return
        if asynchronous and self._held is not None:
            if self._held.counted >= self._max_held:
                self.close_soon()  # a flood while logging in: the outbox bound applies
            else:
                self._held.append(data)
            return
        if asynchronous and self._prompt_pending:
            data = b"\r\n" + data
        self._prompt_pending = False
        self._queue(data)

    def write_status(self, key: str, data: bytes) -> None:
        """Queue user `key`'s status lines (encoded; from another user, so asynchronous),
        replacing any of that user's that still wait (see the module docstring)."""
        if not data or not self._open:
            return
        if self._held is not None:
            self._held.put_status(key, data)
            return
        after_prompt = self._prompt_pending
        if after_prompt:
            data = b"\r\n" + data
        self._prompt_pending = False
        self._wake_for_output()
        self._outbox.put_status(key, data, after_prompt=after_prompt)

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
        if self._outbox.counted >= self._max_held:
            # Invariant: a slow reader is cut off, nobody waits for it.
            log.warning("output buffer of %s full; disconnecting", self.host)
            self.close_soon()
            return
        self._wake_for_output()
        self._outbox.append(data)

    def _wake_for_output(self) -> None:
        """Output is about to be queued: if the outbox is empty, see that it is sent."""
        if not self._outbox:
            if self._writer_wake is not None:
                self._writer_wake.set()
            elif not self._blocked:
                self._flusher.mark(self)

    def flush(self) -> None:
        """Hand the outbox to the kernel without waiting (the flusher calls this)."""
        if self._blocked or not self._outbox or self._socket is None:
            return
        if self._closed:
            self._outbox.clear()
            return
        try:
            self._send_outbox(self._socket)
        except OSError:  # the peer is gone: what is queued can never be delivered
            self._broken()
            return
        if self._outbox:
            self._blocked = True
            self._flusher.wait_writable(self)
        else:
            self._now_drained()

    def _send_outbox(self, sock: trio.socket.SocketType) -> None:
        """One non-blocking send of everything queued; what the kernel did not take stays
        queued, as one piece."""
        data = self._outbox.take()
        sent = _send_now(sock, data)
        if sent < len(data):
            self._outbox.put_back(data[sent:])

    async def drain_when_writable(self) -> None:
        """Send the rest of a full socket's outbox as the peer reads it."""
        assert self._socket is not None
        try:
            while self._outbox and not self._closed:
                await trio.lowlevel.wait_writable(self._socket)
                self._send_outbox(self._socket)
        except (OSError, trio.ClosedResourceError, trio.BusyResourceError):
            self._broken()
        finally:
            self._blocked = False
            if not self._outbox:
                self._now_drained()

    async def run_writer(self) -> None:
        """For streams the flusher cannot write directly (TLS): drain the outbox with the
        stream's own send_all until the connection closes."""
        assert self._writer_wake is not None
        try:
            while True:
                if not self._outbox:
                    self._now_drained()
                    if not self._open:
                        return
                    await self._writer_wake.wait()
                    self._writer_wake = trio.Event()
                    continue
                self._sending = True
                try:
                    await self.stream.send_all(self._outbox.take())
                finally:
                    self._sending = False
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._broken()
        finally:
            self._open = False
            self._outbox.clear()
            self._now_drained()

    def _now_drained(self) -> None:
        if self._drained is not None:
            self._drained.set()
            self._drained = None

    def _broken(self) -> None:
        """The peer cannot be written to any more: drop the output, end the reader."""
        self._outbox.clear()
        self._now_drained()
        self.close_soon()

    def close_soon(self) -> None:
        """Stop accepting output; what is queued is still sent, then the reader ends."""
        self._open = False
        if self._writer_wake is not None:
            self._writer_wake.set()  # let the TLS writer see that it is done
        if self._read_scope is not None:
            self._read_scope.cancel()

    def finish(self) -> None:
        """No more output will be produced: let the writer drain and stop."""
        self.close_soon()

    async def aclose_gracefully(self, flush_seconds: float) -> None:
        """Flush queued output for a bounded time, then close the stream."""
        self.close_soon()
        with trio.move_on_after(flush_seconds):
            if self._outbox or self._blocked or self._sending:
                self._drained = trio.Event()
                await self._drained.wait()
        await self.aclose()

    async def aclose(self) -> None:
        self.close_soon()
        self._closed = True
        self._outbox.clear()  # nothing more will be sent: nobody need wait for it
        self._now_drained()
        await trio.aclose_forcefully(self.stream)


def _send_now(sock: trio.socket.SocketType, data: bytes) -> int:
    """One non-blocking write of `data`; how much the kernel took (0 if its buffer is
    full). trio's sockets are non-blocking, and the interpreter ignores SIGPIPE, so a
    vanished peer raises an OSError here; a closed socket's descriptor is -1 (EBADF)."""
    try:
        return os.write(sock.fileno(), data)
    except BlockingIOError:
        return 0

