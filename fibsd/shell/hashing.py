"""Password hashes off the event loop: a few at a time, in arrival order, none wasted.

Owns the bound on password hashes computed at once. A hash of the shipped settings
(argon2id) holds 64 MiB and a fifth of a second of one core. Left to trio's default
thread limiter, a club's members and bots all reconnecting after a restart would start
forty hashes at once (2.5 GiB), slow each other down until clients gave up, and the
server would still compute the hashes of clients that had hung up. `HashQueue` computes at
most `password_hashes_at_once` hashes at a time (0: one per core), gives the turns out
first come, first served (trio's `CapacityLimiter` wakes its waiters in the order they
came), and when a login's turn comes, skips the hash if its client has gone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

import trio

T = TypeVar("T")


class ClientGone(Exception):
    """The client hung up before its hash's turn came: nothing was computed."""


class HashQueue:
    """At most `at_once` hashes in worker threads; the others wait their turn in order."""

    def __init__(self, at_once: int = 0) -> None:
        self.at_once = at_once or os.cpu_count() or 1
        self._limiter = trio.CapacityLimiter(self.at_once)
        # The threads' own limiter (trio's default one is shared with the store's reads):
        # as large as ours, so it never makes a turn wait twice.
        self._threads = trio.CapacityLimiter(self.at_once)
        #: Hashes computed, and hashes skipped because the client had gone (for tests
        #: and the operator's figures).
        self.computed = 0
        self.skipped = 0

    @property
    def waiting(self) -> int:
        """Logins waiting for a turn."""
        return self._limiter.statistics().tasks_waiting

    @property
    def running(self) -> int:
        """Hashes being computed now."""
        return self._limiter.borrowed_tokens

    async def run(self, work: Callable[[], T], *, client_gone: Callable[[], bool]) -> T:
        """`work()` (a hash or a verification) in a worker thread once a turn is free;
        ClientGone, without calling it, if `client_gone()` says so when the turn comes."""
        async with self._limiter:
            if client_gone():
                self.skipped += 1
                raise ClientGone()
            self.computed += 1
            return await trio.to_thread.run_sync(work, limiter=self._threads)
