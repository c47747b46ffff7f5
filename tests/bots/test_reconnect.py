"""A bot whose connection the server drops logs in again and resumes the saved match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from fibsd.infra.wallclock import SystemClock
from fibsd.tools.bots.client import BotClient, ConnectionLost
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy
from protocol.wording import Text, render
from tests.server.players import Player

#: The answer that ends a bot's set-up (it comes after the `show saved` rows).
SET_UP = render(Text.SET_VALUE_SET_TO, variable="boardstyle", value=3)


class _Progress:
    """Wakes a test each time a bot has handled a line (instead of polling it)."""

    def __init__(self, bot: BotClient) -> None:
        self._changed = trio.Event()
        handle = bot.player.handle_line

        async def handle_line(line: str) -> list[str]:
            try:
                return await handle(line)
            finally:
                self._changed.set()
                self._changed = trio.Event()

        bot.player.handle_line = handle_line  # type: ignore[method-assign]

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await self._changed.wait()


async def _restart_on_same_port(start_server: Any, old: Any) -> Any:
    # The old listener closes while the cancelled server shuts down: retry briefly.
    with trio.fail_after(10):
        while True:
            try:
                return await start_server(clock=old.clock, **{"server.port": old.port})
            except OSError:
                await trio.sleep(0.05)


def _match_running(running: Any, name: str) -> bool:
    session = running.server.registry.get(name)
    table = None if session is None else session.table
    return table is not None and not table.match.over and table.match_won is None


async def test_bots_reconnect_after_a_server_restart_and_resume_the_match(
    start_server: Any, bot_server: Any
) -> None:
    running = bot_server
    alice = BotClient(BotConfig("alice", "secret1", port=running.port, invite="bob", matches=1,
                                invite_length=5), RandomStrategy(seed=3))
    bob = BotClient(BotConfig("bob", "secret2", port=running.port, matches=1), RandomStrategy(seed=4))
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(alice.run)
            nursery.start_soon(bob.run)
            # The match is under way on the server (not only as far as alice has read:
            # the server may be a whole match ahead of its clients). No checkpoint lies
            # between this check and the stop, so the stop always finds it running.
            while not _match_running(running, "alice"):
                await trio.sleep(0.005)
            await running.stop()  # every connection is dropped; the match is saved
            await _restart_on_same_port(start_server, running)
    assert alice.logins >= 2 and bob.logins >= 2
    assert alice.player.resumed >= 1 and bob.player.resumed >= 1
    assert len(alice.results) == len(bob.results) == 1
    assert alice.results[0].won != bob.results[0].won
    assert alice.results[0].length == 5 and alice.player.refusals == bob.player.refusals == []


async def test_a_bot_dropped_by_the_server_logs_in_again_and_is_put_back_into_its_match(
    bot_server: Any,
) -> None:
    running = bot_server
    alice = BotClient(BotConfig("alice", "secret1", port=running.port, invite="bob", matches=1,
                                invite_length=5), RandomStrategy(seed=5))
    bob = BotClient(BotConfig("bob", "secret2", port=running.port, matches=1), RandomStrategy(seed=6))
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(alice.run)
            nursery.start_soon(bob.run)
            while not _match_running(running, "bob"):  # on the server (see above)
                await trio.sleep(0.005)
            # the server side closes bob's socket, as a network failure would
            [connection] = [c for s, c in running.server._connections.items() if s.name == "bob"]
            await connection.aclose()
    assert alice.logins == 1 and bob.logins >= 2
    assert bob.player.resumed >= 1 and alice.player.resumed >= 1
    assert len(alice.results) == len(bob.results) == 1
    assert alice.results[0].won != bob.results[0].won
    assert alice.player.refusals == bob.player.refusals == []


async def test_reconnection_attempts_are_bounded() -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()  # nobody listens on this port any more
    bot = BotClient(BotConfig("carol", "secret", port=port, reconnect_attempts=3,
                              reconnect_delay_seconds=0.01), RandomStrategy())
    with trio.fail_after(10):
        try:
            await bot.run()
        except ConnectionLost as error:
            assert "3 retries" in str(error)
        else:
            raise AssertionError("run() returned without a server")
    assert bot.logins == 0


async def test_a_bot_that_logs_in_before_its_opponent_resumes_their_saved_match(
    start_server: Any,
) -> None:
    """After a restart the inviting bot is back first: it must read its `show saved`
    rows (`  bob ...`, leading spaces and all) and resume the match, not start a new
    one over it (issue 20 §2)."""
    running = await start_server(clock=SystemClock())
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await alice.send("invite bob 5")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("** Player bob has joined you for a 5 point match.")
    await alice.client.close()  # alice drops: the match is saved
    await bob.expect("alice drops connection. The game was saved.")
    await bob.client.close()
    await running.stop()
    running = await start_server(clock=SystemClock())

    alice_bot = BotClient(BotConfig("alice", "secret", port=running.port, invite="bob", matches=1,
                                    invite_length=3), RandomStrategy(seed=7))
    bob_bot = BotClient(BotConfig("bob", "secret", port=running.port, matches=1),
                        RandomStrategy(seed=8))
    progress = _Progress(alice_bot)
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(alice_bot.run)
            # bob comes only once alice has read her saved matches and is set up
            await progress.until(lambda: SET_UP in alice_bot.recent_lines)
            nursery.start_soon(bob_bot.run)
    assert alice_bot.player.resumed == 1 and bob_bot.player.resumed == 1
    assert [result.length for result in alice_bot.results] == [5]
    assert alice_bot.results[0].won != bob_bot.results[0].won
