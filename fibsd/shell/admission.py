"""New connections, fairly: a flood from one address never makes another address wait.

Owns the two halves of that. `BurstListener` accepts every connection already waiting
in the kernel's queue at once (up to a bound) instead of one per turn of the event loop,
so a newcomer queued behind a thousand connections of a flood is accepted with them, not
after them. `AddressTurns` then lets only a few connections of one address at a time do
the work before the login prompt (the refusal checks, the banner): the rest of that
address's connections wait for their turn without costing the event loop anything, while
a connection from another address takes its own turn at once. A connection leaves its
turn when it first waits for input (the banner is out), so a real user typing his name
holds nobody up.
"""

from __future__ import annotations

import collections
import errno
import os
import socket

import trio

#: Connections of one address doing their pre-login work at the same time.
TURNS_PER_ADDRESS = 2
#: Connections accepted in one go (the rest of a bigger queue in the next go).
BURST = 1024
#: accept() errors that mean "no more now" rather than a broken listener.
_TRANSIENT = {errno.ECONNABORTED, errno.EPROTO, errno.EPERM}


class Turn:
    """One connection's turn for its address; `leave` is idempotent."""

    def __init__(self, turns: AddressTurns, address: str) -> None:
        self._turns = turns
        self._address = address
        self._held = True

    def leave(self) -> None:
        if self._held:
            self._held = False
            self._turns._leave(self._address)


class AddressTurns:
    """At most `per_address` turns held per address; waiters are served in order."""

    def __init__(self, per_address: int = TURNS_PER_ADDRESS) -> None:
        self.per_address = per_address
        self._semaphores: dict[str, trio.Semaphore] = {}
        self._users: collections.Counter[str] = collections.Counter()

    async def enter(self, address: str) -> Turn:
        semaphore = self._semaphores.get(address)
        if semaphore is None:
            semaphore = self._semaphores[address] = trio.Semaphore(self.per_address)
        self._users[address] += 1  # (holders and waiters: the entry lives while any)
        try:
            await semaphore.acquire()
        except BaseException:
            self._forget(address)
            raise
        return Turn(self, address)

    def _leave(self, address: str) -> None:
        self._semaphores[address].release()
        self._forget(address)

    def _forget(self, address: str) -> None:
        self._users[address] -= 1
        if self._users[address] <= 0:
            del self._users[address]
            del self._semaphores[address]

    def __len__(self) -> int:
        """Addresses with a connection holding or waiting for a turn."""
        return len(self._semaphores)


class BurstListener(trio.abc.Listener[trio.SocketStream]):
    """A TCP listener that takes every waiting connection in one go (see the module)."""

    def __init__(self, inner: trio.SocketListener, burst: int = BURST) -> None:
        self.inner = inner
        self.burst = burst
        # A second descriptor of the same listening socket, non-blocking, so that the
        # queue can be drained without a checkpoint per connection.
        self._raw = socket.socket(fileno=os.dup(inner.socket.fileno()))
        self._raw.setblocking(False)
        self._ready: collections.deque[trio.SocketStream] = collections.deque()

    async def accept(self) -> trio.SocketStream:
        """The next connection; waits (a checkpoint) only when none is waiting. Returning
        the rest of a burst without a checkpoint is what lets the caller start them all
        in one turn of the event loop."""
        while not self._ready:
            await trio.lowlevel.wait_readable(self._raw)
            for _ in range(self.burst):
                try:
                    accepted, _address = self._raw.accept()
                except BlockingIOError:
                    break
                except OSError as error:
                    if error.errno in _TRANSIENT:
                        continue
                    if self._ready:
                        break  # (the error again next time, after these are served)
                    raise
                self._ready.append(trio.SocketStream(trio.socket.from_stdlib_socket(accepted)))
        return self._ready.popleft()

    async def aclose(self) -> None:
        trio.lowlevel.notify_closing(self._raw)
        self._raw.close()
        for stream in self._ready:
            await trio.aclose_forcefully(stream)
        self._ready.clear()
        await self.inner.aclose()
