"""What one connection receives is in the order the events happened (issue 20 §1).

The shell commits an outcome's writes before it delivers the outcome's lines. A command
with nothing to commit (`board`, `tell`, ...) must still not be answered before lines
queued earlier for the same recipient that wait for their commit: these tests hold the
group commit open (a gate in the store's batch, opened by the test) while others act.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import trio

from fibsd.app import dispatch
from fibsd.domain.dice import ScriptedDice
from fibsd.shell.ordering import DeliveryOrder
from tests.server.helpers import clip_login
from tests.server.players import Player


class CommitGate:
    """Holds the next group commit in its worker thread until `open` is called."""

    def __init__(self, store: Any) -> None:
        self._run_batch: Callable[[Sequence[Any]], Any] = store.run_batch
        self._armed = False
        self._entered = threading.Event()
        self._opened = threading.Event()
        store.run_batch = self._gated_batch

    def _gated_batch(self, writes: Sequence[Any]) -> Any:
        if self._armed:
            self._armed = False
            self._entered.set()
            self._opened.wait(10)
        return self._run_batch(writes)

    def arm(self) -> None:
        """The next batch waits for `open`."""
        self._entered.clear()
        self._opened.clear()
        self._armed = True

    async def wait_entered(self) -> None:
        """Until a batch is being held (it runs in a worker thread)."""
        entered = await trio.to_thread.run_sync(self._entered.wait, 10)
        assert entered, "no commit reached the gate"

    def open(self) -> None:
        self._opened.set()


class Handled:
    """Records the lines the core has handled, so that a test knows a command was taken
    in even when its answer is (rightly) held back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lines: list[tuple[str, str]] = []
        self._changed = trio.Event()
        handle = dispatch.handle

        def recording(registry: Any, session: Any, line: str, **kwargs: Any) -> Any:
            outcome = handle(registry, session, line, **kwargs)
            self.lines.append((session.name, line))
            self._changed.set()
            self._changed = trio.Event()
            return outcome

        monkeypatch.setattr(dispatch, "handle", recording)

    async def wait_for(self, name: str, line: str) -> None:
        with trio.fail_after(10):
            while (name, line) not in self.lines:
                await self._changed.wait()


async def _match(running: Any, dice: ScriptedDice) -> tuple[Player, Player]:
    """alice and bob in a 1-point match; alice (3-1) to move, then bob rolls 6-5 (no
    cube in a 1-point match: his roll comes with alice's move)."""
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    dice.extend([3, 1, 6, 5])
    await alice.send("invite bob 1")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("It's your turn to move.")
    await alice.next_board()
    await bob.expect("alice makes the first move.")
    await bob.next_board()
    return alice, bob


def _index(lines: list[str], wanted: Callable[[str], bool]) -> int:
    for index, line in enumerate(lines):
        if wanted(line):
            return index
    raise AssertionError(f"not found in {lines}")


async def test_a_board_asked_for_while_a_move_commits_comes_after_the_move(
    start_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice = ScriptedDice(coin=0)
    running = await start_server(dice=dice)
    handled = Handled(monkeypatch)
    alice, bob = await _match(running, dice)
    gate = CommitGate(running.server.store)

    gate.arm()
    await alice.send("8-5 6-5")
    await gate.wait_entered()  # the move is made; its lines wait for the commit
    await bob.send("board")  # nothing to commit: yet it must not overtake the move
    await handled.wait_for("bob", "board")
    gate.open()

    lines = await bob.client.read_until(lambda line: line.startswith("board:"))
    moved = _index(lines, lambda line: line == "alice moves 8-5 6-5 .")
    assert moved < len(lines) - 1, lines


async def test_a_tell_waits_for_the_recipients_earlier_lines_but_not_for_the_teller(
    start_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice = ScriptedDice(coin=0)
    running = await start_server(dice=dice)
    handled = Handled(monkeypatch)
    alice, bob = await _match(running, dice)
    carol = await Player.join_server(running, "carol", ready=False)
    gate = CommitGate(running.server.store)

    gate.arm()
    await alice.send("8-5 6-5")
    await gate.wait_entered()
    await carol.send("tell bob hello")
    # carol had nothing waiting: her answer is not held behind alice's commit
    await carol.expect("16 bob hello")
    await handled.wait_for("carol", "tell bob hello")
    gate.open()

    lines = await bob.client.read_until("12 carol hello")
    assert "alice moves 8-5 6-5 ." in lines, lines


# --- the order itself, without a server ----------------------------------------------


class _Log:
    """Records what `DeliveryOrder` delivers: (payload, recipient) pairs in order."""

    def __init__(self, recipients_of: dict[str, tuple[str, ...]]) -> None:
        self.recipients_of = recipients_of
        self.sent: list[tuple[str, str]] = []

    def deliver(self, payload: str, wanted: Callable[[str], bool] | None) -> None:
        for recipient in self.recipients_of[payload]:
            if wanted is None or wanted(recipient):
                self.sent.append((payload, recipient))

    def to(self, recipient: str) -> list[str]:
        return [payload for payload, who in self.sent if who == recipient]


def test_the_order_delivers_at_once_while_nothing_waits() -> None:
    log = _Log({"who": ("carol",)})
    order: DeliveryOrder[str, str] = DeliveryOrder(log.deliver)
    assert order.submit("who", ["carol"]) is None
    assert log.sent == [("who", "carol")] and order.idle


def test_a_part_waits_only_for_the_recipients_blocked_by_a_commit() -> None:
    log = _Log({"move": ("alice", "bob"), "tell": ("carol", "bob"), "board": ("bob",),
                "who": ("dave",)})
    order: DeliveryOrder[str, str] = DeliveryOrder(log.deliver)
    move = order.reserve("move", ["alice", "bob"])
    tell = order.submit("tell", ["carol", "bob"])
    board = order.submit("board", ["bob"])
    assert order.submit("who", ["dave"]) is None
    assert log.sent == [("tell", "carol"), ("who", "dave")]
    assert tell is not None and board is not None and not tell.delivered
    order.committed(move)
    assert log.to("bob") == ["move", "tell", "board"]
    assert log.to("alice") == ["move"]
    assert tell.delivered and board.delivered and order.idle


def test_later_commits_wait_for_earlier_ones_and_a_withdrawn_one_sends_nothing() -> None:
    log = _Log({"first": ("alice",), "second": ("alice", "bob"), "look": ("alice",)})
    order: DeliveryOrder[str, str] = DeliveryOrder(log.deliver)
    done: list[str] = []
    first = order.reserve("first", ["alice"])
    second = order.reserve("second", ["alice", "bob"])
    look = order.submit("look", ["alice"])
    assert look is not None
    for name, ticket in (("first", first), ("second", second), ("look", look)):
        ticket.on_delivered = lambda name=name: done.append(name)  # type: ignore[misc]
    order.committed(second)  # its commit finished first: it still waits for `first`
    assert log.sent == [] and done == []
    order.withdraw(first)  # first's commit failed: none of its lines go
    assert log.to("alice") == ["second", "look"] and log.to("bob") == ["second"]
    assert done == ["first", "second", "look"] and order.idle


async def test_a_user_back_at_once_is_seen_to_leave_before_he_is_seen_to_arrive(
    start_server: Any,
) -> None:
    """A dropped user who logs in again while his logout still commits: the others must
    get his logout notice (CLIP 8) before his login notice (CLIP 7), or a FIBS client
    drops him from its who list although he is online (seen from the web client's
    register-then-log-in)."""
    running = await start_server()
    carol = await Player.join_server(running, "carol", ready=False)
    bob = await Player.join_server(running, "bob", ready=False)
    await carol.client.read_until(lambda line: line.startswith("7 bob "))
    server = running.server
    arrived = trio.Event()
    arrive = server._arrive

    async def arriving(*args: Any) -> None:
        arrived.set()
        await arrive(*args)

    server._arrive = arriving  # type: ignore[method-assign]
    gate = CommitGate(server.store)

    gate.arm()
    await carol.send("toggle ready")  # a commit held at the gate: what follows queues up
    await gate.wait_entered()
    await bob.client.close()  # his logout's write waits for the next batch
    async with trio.open_nursery() as nursery:
        nursery.start_soon(clip_login, running, "bob")
        with trio.fail_after(10):
            await arrived.wait()  # he is back, while his logout is still to commit
        gate.open()
    lines = await carol.client.read_until(lambda line: line.startswith("7 bob "))
    left = _index(lines, lambda line: line.startswith("8 bob "))
    assert left < len(lines) - 1, lines
