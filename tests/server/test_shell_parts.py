"""The shell's parts alone: delivery (with coalescing) over connections on memory
streams, and the group committer over an in-memory store, without a server around them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
import trio
import trio.testing

from fibsd.domain.accounts import Account
from fibsd.app.outcome import ClipBytes, Job, Lines, Outcome
from fibsd.app.session import Departure, Session
from fibsd.shell.committer import GroupCommitter
from fibsd.infra.config import Config
from fibsd.shell.connection import Connection, Flusher
from fibsd.shell.delivery import Deliverer
from fibsd.store.api import Store
from fibsd.store.sqlite import SQLiteStore
from protocol.messages import TextLine
from protocol.wording import Text

# ------------------------------------------------------------------ delivery


def _session(name: str, *, clip: bool) -> Session:
    return Session(account=Account.new(name, "x", 0.0), clip=clip, clip_version=1008,
                   client_name="test" if clip else None, host="memory", login_at=0.0,
                   prompts=not clip)


class _Peer:
    """A session whose connection runs over a memory stream; `received` reads its end."""

    def __init__(self, deliverer: Deliverer, name: str, *, clip: bool) -> None:
        self.session = _session(name, clip=clip)
        ours, self.theirs = trio.testing.memory_stream_pair()
        config = Config.from_mapping({})
        self.connection = Connection(ours, config, host="memory", flusher=Flusher())
        deliverer.connections[self.session] = self.connection

    async def received(self) -> bytes:
        """Everything sent before the connection closed."""
        data = b""
        with trio.fail_after(10):
            while chunk := await self.theirs.receive_some(65536):
                data += chunk
        return data


async def _delivered(peers: Sequence[_Peer], then: Callable[[], None]) -> None:
    """Run `then` (queuing output) while every peer's writer task runs, then close the
    connections once everything queued was sent."""
    async with trio.open_nursery() as nursery:
        for peer in peers:
            nursery.start_soon(peer.connection.run_writer)
        then()
        await trio.testing.wait_all_tasks_blocked()
        for peer in peers:
            peer.connection.finish()
    for peer in peers:
        await peer.connection.aclose()


async def test_a_broadcast_is_worded_for_each_kind_of_client_with_a_telnet_prompt() -> None:
    deliverer = Deliverer()
    clip, telnet = _Peer(deliverer, "alice", clip=True), _Peer(deliverer, "bob", clip=False)
    out = Outcome()
    out.to_each([clip.session, telnet.session], TextLine.of(Text.SHUTDOWN_NOTICE, seconds=5))
    out.to(clip.session, ClipBytes(b"5 only for clip\r\n"))
    await _delivered([clip, telnet], lambda: deliverer.deliver(out, issuer=None))
    notice = b"*** ATTENTION ! FIBS will shut down in 5 seconds\r\n"
    assert await clip.received() == notice + b"5 only for clip\r\n"
    assert await telnet.received() == notice + b"> "


async def test_status_lines_of_one_user_coalesce_in_an_outbox() -> None:
    """Two who-info lines of bob reach alice as one, the newer, if both wait at once."""
    deliverer = Deliverer()
    alice = _Peer(deliverer, "alice", clip=True)

    def statuses() -> None:
        for status in (b"5 bob - - 0\r\n6\r\n", b"5 bob carol - 0\r\n6\r\n"):
            out = Outcome()
            out.to(alice.session, ClipBytes(status, status_of="bob"))
            deliverer.deliver(out, issuer=None)

    await _delivered([alice], statuses)
    assert await alice.received() == b"5 bob carol - 0\r\n6\r\n"


async def test_the_issuers_prompt_waits_for_a_job_that_holds_it() -> None:
    deliverer = Deliverer()
    bob = _Peer(deliverer, "bob", clip=False)
    out = Outcome()
    out.lines(bob.session, "hashing")
    out.run(Job.holding_prompt(lambda: None, lambda _result: Outcome()))
    await _delivered([bob], lambda: deliverer.deliver(out, issuer=bob.session))
    assert await bob.received() == b"hashing\r\n"  # no prompt yet


async def test_a_leaving_user_gets_no_prompt_and_a_close_closes() -> None:
    deliverer = Deliverer()
    bob = _Peer(deliverer, "bob", clip=False)
    bob.session.departure = Departure.LOGGED_OUT
    out = Outcome()
    out.to(bob.session, Lines(("bye",)))
    out.close(bob.session, "test")
    await _delivered([bob], lambda: deliverer.deliver(out, issuer=bob.session))
    assert await bob.received() == b"bye\r\n"
    assert not bob.connection.is_open


# ------------------------------------------------------------------ the committer


class _CountingStore:
    """An in-memory store that counts its transactions (`run_batch` calls)."""

    def __init__(self) -> None:
        self.inner = SQLiteStore.open(":memory:")
        self.batches: list[int] = []

    def run_batch(self, writes: Sequence[Callable[[Store], object]]) -> list[BaseException | None]:
        self.batches.append(len(writes))
        return self.inner.run_batch(writes)


async def test_writes_that_arrive_together_share_one_transaction() -> None:
    store = _CountingStore()
    committer = GroupCommitter(store)  # type: ignore[arg-type]
    done: list[str] = []

    async def commit(name: str) -> None:
        await committer.commit([lambda s: s.add_message("alice", name, 0.0, "hi")])
        done.append(name)

    store.inner.create_account(Account.new("alice", "x", 0.0))
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        async with trio.open_nursery() as writers:
            for name in ("bob", "carol", "dave"):
                writers.start_soon(commit, name)
        nursery.cancel_scope.cancel()
    assert sorted(done) == ["bob", "carol", "dave"]
    assert sum(store.batches) == 3 and len(store.batches) < 3  # (one transaction for several)
    assert sorted(m.sender for m in store.inner.pending_messages("alice")) == ["bob", "carol", "dave"]


async def test_a_failing_write_fails_only_the_task_that_made_it() -> None:
    store = _CountingStore()
    committer = GroupCommitter(store)  # type: ignore[arg-type]
    store.inner.create_account(Account.new("alice", "x", 0.0))
    outcomes: dict[str, str] = {}

    def broken(_store: Store) -> None:
        raise RuntimeError("disk on fire")

    async def commit(name: str, write: Callable[[Store], object]) -> None:
        try:
            await committer.commit([write])
            outcomes[name] = "ok"
        except RuntimeError:
            outcomes[name] = "failed"

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        async with trio.open_nursery() as writers:
            writers.start_soon(commit, "good", lambda s: s.add_message("alice", "bob", 0.0, "hi"))
            writers.start_soon(commit, "bad", broken)
        nursery.cancel_scope.cancel()
    assert outcomes == {"good": "ok", "bad": "failed"}
    assert len(store.inner.pending_messages("alice")) == 1


async def test_without_its_task_the_committer_commits_directly() -> None:
    """(Shutting down: the committer task is gone, the last writes still commit.)"""
    store = _CountingStore()
    store.inner.create_account(Account.new("alice", "x", 0.0))
    committer = GroupCommitter(store)  # type: ignore[arg-type]
    await committer.commit([lambda s: s.add_message("alice", "bob", 0.0, "bye")])
    assert store.batches == [1]
    with pytest.raises(RuntimeError):
        await committer.commit([lambda s: (_ for _ in ()).throw(RuntimeError("no"))])
