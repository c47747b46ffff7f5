"""The group committer: the shell's one task that makes store writes durable.

Writes of all connections that arrive while a transaction is being committed wait here
and share the next one (one transaction, one fsync), in arrival order, in a worker
thread: a durable commit costs milliseconds, and one per action would cap the whole
server at a few hundred actions per second (the shell's invariant 5). Each caller of
`commit` waits until its own writes are durable and gets its own writes' failures.
Part of the trio shell; testable alone over any `Store`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import trio

from fibsd.app.outcome import Write
from fibsd.store import Store

log = logging.getLogger("fibsd.shell.server")


class GroupCommitter:
    """Commits writes in batches, one transaction per batch, off the event loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending_writes: list[_PendingWrites] = []
        self._writes_arrived = trio.Event()
        #: While `run` runs; otherwise (before start-up, after shutdown) `commit`
        #: commits its writes directly.
        self._running = False

    async def commit(self, writes: Sequence[Write]) -> None:
        """Commit writes durably, in order, off the event loop (the shell's invariants 5 and 6).
        Writes of many connections share one transaction (group commit); a write that
        fails raises here, in the task that made it."""
        if not writes:
            return
        pending = _PendingWrites(list(writes))
        if not self._running:  # shutting down: commit directly
            with trio.CancelScope(shield=True):
                pending.errors = await trio.to_thread.run_sync(self.store.run_batch, pending.writes)
        else:
            self._pending_writes.append(pending)
            self._writes_arrived.set()
            await pending.done.wait()
        for error in pending.errors:
            if error is not None:
                raise error

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self._running = True
        task_status.started()
        try:
            while True:
                await self._writes_arrived.wait()
                self._writes_arrived = trio.Event()
                batch, self._pending_writes = self._pending_writes, []
                await self._commit_batch(batch)
        finally:
            self._running = False
            with trio.CancelScope(shield=True):
                batch, self._pending_writes = self._pending_writes, []
                await self._commit_batch(batch)

    async def _commit_batch(self, batch: list[_PendingWrites]) -> None:
        if not batch:
            return
        writes = [write for pending in batch for write in pending.writes]
        try:
            with trio.CancelScope(shield=True):  # a started commit always finishes
                errors = await trio.to_thread.run_sync(self.store.run_batch, writes)
        except BaseException as failure:  # the whole transaction failed (disk full, ...)
            log.exception("store commit failed")
            errors = [failure] * len(writes)
        index = 0
        for pending in batch:
            pending.errors = errors[index:index + len(pending.writes)]
            index += len(pending.writes)
            pending.done.set()


class _PendingWrites:
    """One outcome's writes waiting for the group commit, and how it went."""

    def __init__(self, writes: list[Write]) -> None:
        self.writes = writes
        self.done = trio.Event()
        self.errors: list[BaseException | None] = []
