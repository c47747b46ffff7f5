"""Issue 31: logins announced to everyone in paced batches, losing nothing, in order."""

from __future__ import annotations

from typing import Any

from fibsd.domain.accounts import Account
from tests.server.helpers import clip_login

NAMES = [f"user{letter}" for letter in "abcdefgh"]


def _arrival_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(("7 user", "5 user", "8 user"))]


async def _accounts(running: Any, *names: str) -> None:
    password_hash = running.server.hasher.hash("secret")
    for name in names:
        running.server.store.create_account(Account.new(name, password_hash, 0.0))


async def test_a_login_storm_reaches_each_user_as_one_batch_in_order(start_server: Any) -> None:
    # An interval no run reaches: only what the module promises sends the batch early.
    running = await start_server(**{"limits.announce_interval_seconds": 60.0})
    await _accounts(running, "watcher", *NAMES)
    watcher, _ = await clip_login(running, "watcher")
    batches = running.server.announcements.arrival_batches
    clients = [(await clip_login(running, name))[0] for name in NAMES]
    # A plain login tells nobody else anything: the arrivals wait. A shout reaches
    # everyone, so they go first, all together, in login order.
    await clients[-1].send("shout hello")
    lines = await watcher.read_until(lambda line: line == f"13 {NAMES[-1]} hello")
    heard = _arrival_lines(lines)
    expected = []
    for name in NAMES:
        expected += [f"7 {name} {name} logs in.", name]
    assert [line if line.startswith("7") else line.split()[1] for line in heard] == expected
    assert running.server.announcements.arrival_batches == batches + 1


async def test_a_newcomer_hears_of_later_arrivals_only_and_of_its_own_status_after_its_login(
        start_server: Any) -> None:
    # Whenever the batches go, their order is the same: arrivals, then status changes.
    running = await start_server(**{"limits.announce_interval_seconds": 0.05})
    await _accounts(running, "watcher", "usera", "userb")
    watcher, _ = await clip_login(running, "watcher")
    first, _ = await clip_login(running, "usera")
    second, who = await clip_login(running, "userb")
    assert any(line.startswith("5 usera ") for line in who)  # in its who list already
    # The first newcomer's status change: everyone hears of both logins before it.
    await first.send("toggle ready")
    lines = await first.read_until(lambda line: line.startswith("7 userb "), timeout=30)
    assert not any(line.startswith("7 usera") for line in lines)  # not its own
    heard = _arrival_lines(await watcher.read_until(
        lambda line: line.startswith("5 usera ") and line.split()[4] == "1", timeout=30))
    assert [line.split()[:2] for line in heard] == [
        ["7", "usera"], ["5", "usera"], ["7", "userb"], ["5", "userb"], ["5", "usera"]]
    assert heard[1].split()[4] == "0" and heard[-1].split()[4] == "1"  # ready: last state wins
    second_lines = await second.read_until(
        lambda line: line.startswith("5 usera ") and line.split()[4] == "1", timeout=30)
    assert not any(line.startswith(("7 usera", "7 userb")) for line in second_lines)


async def test_a_user_who_comes_and_goes_is_heard_of_in_that_order(start_server: Any) -> None:
    running = await start_server(**{"limits.announce_interval_seconds": 60.0})
    await _accounts(running, "watcher", "usera")
    watcher, _ = await clip_login(running, "watcher")
    visitor, _ = await clip_login(running, "usera")
    await visitor.send("bye")
    await visitor.read_all_until_closed()
    heard = _arrival_lines(await watcher.read_until(lambda line: line.startswith("8 usera ")))
    assert [line.split()[0] for line in heard] == ["7", "5", "8"]


async def test_arrivals_go_out_by_themselves_once_the_interval_is_over(start_server: Any) -> None:
    running = await start_server(**{"limits.announce_interval_seconds": 0.05})
    await _accounts(running, "watcher", "usera")
    watcher, _ = await clip_login(running, "watcher")
    await clip_login(running, "usera")
    heard = _arrival_lines(await watcher.read_until(lambda line: line.startswith("5 usera "),
                                                    timeout=30))
    assert heard[0] == "7 usera usera logs in."
