"""House bots run by the server (issue 36), against the real GNU Backgammon: the server
starts them as processes of their own, a telnet user plays a 1-point match to the end
against each strength, a CLIP client finds them marked, a bot killed with kill -9 in the
middle of a match is started again and the match goes on, and the server stops with no
bot process left."""

from __future__ import annotations

import os
import signal
from typing import Any

import attrs
import pytest
import trio

from fibsd.infra.house_bots import HouseBot
from fibsd.infra.wallclock import SystemClock
from fibsd.rules import legal_plays
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG
from fibsd.tools.bots.moves import play_line, position_of
from protocol.board import BoardLine
from protocol.wording import Text
from tests.server.client import TestClient
from tests.server.helpers import house_bots_online, register, telnet_login
from tests.server.players import Player

#: Generous bounds for a slow, shared machine (the test waits on lines, not on time).
LINE_SECONDS = 120.0
#: The scripted players answer each cue at once, faster than any person, and with a bot at
#: full speed a match goes over the server's command limit (20 a second): a dropped move
#: then stalled the match. The limit has its own tests (tests/server); here it is lifted.
NO_COMMAND_LIMIT: dict[str, object] = {"limits.commands_per_second": 10_000.0, "limits.command_burst": 100_000}
MATCH_MOVES = 400

STRENGTHS = (HouseBot("hb_beginner", strength="beginner"),
             HouseBot("hb_intermediate", strength="intermediate"),
             HouseBot("hb_expert", strength="expert"))


def _require_gnubg() -> None:
    if not os.access(DEFAULT_GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is missing at {DEFAULT_GNUBG}: apt-get install -y gnubg "
                    "(./scripts/test installs it)")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(word) for word in children.read().split()]
    except OSError:
        return []


def _clean(line: str) -> str:
    """The line without the telnet prompts before it: a command answered by a prompt
    alone (no line) leaves its "> " in front of the next line, so there may be several."""
    while line.startswith("> "):
        line = line[2:]
    return line


async def _play_to_end(client: TestClient, bot: str, *, on_first_turn: Any = None) -> str:
    """React to the server's cues until the 1-point match ends; the result line. Each cue
    makes the user look at the board and do what it shows (roll, or the first legal play)."""
    unread: list[str] = []  # lines that came in while we looked at the board
    for _ in range(MATCH_MOVES):
        try:
            line = unread.pop(0) if unread else _clean(await client.read_line(timeout=LINE_SECONDS))
        except trio.TooSlowError:
            raise AssertionError(f"nothing more against {bot}: {client.lines[-20:]}") from None
        if line.startswith(("You win the 1 point match", f"{bot} wins the 1 point match")):
            return line
        cue = line in (Text.YOUR_TURN_ROLL_OR_DOUBLE.value, Text.YOUR_TURN_TO_MOVE.value) \
            or (line.startswith("Please move ") and line.endswith(" pieces."))
        if "wants to resign. You will win" in line or line.endswith("Type 'accept' or 'reject'."):
            await client.send("accept")
        elif cue:
            if on_first_turn is not None:
                await on_first_turn()
                on_first_turn = None
            await client.send("board")
            try:
                lines = await client.read_until(lambda text: _clean(text).startswith("board:"),
                                                timeout=LINE_SECONDS)
            except trio.TooSlowError:
                raise AssertionError(f"no board against {bot}: {client.lines[-20:]}") from None
            # The bot may have offered to resign meanwhile (it may, on our turn): those
            # lines are still to be answered.
            unread.extend(_clean(text) for text in lines[:-1])
            board = BoardLine.decode(_clean(lines[-1]))
            if board.turn != board.colour:
                continue
            if board.player_dice == (0, 0):
                await client.send("roll")
            else:
                plays = legal_plays(position_of(board), board.player_dice)
                if plays:
                    await client.send(play_line(plays[0], board.colour))
    raise AssertionError(f"the match against {bot} did not end: {client.lines[-20:]}")


async def _telnet_user(running: Any, name: str) -> TestClient:
    await register(running, name)
    client, _ = await telnet_login(running, name)
    await client.send("set boardstyle 3")
    await client.read_until(lambda line: "Value of 'boardstyle' set to 3." in line)
    return client


async def _invite(client: TestClient, bot: str) -> None:
    await client.send(f"invite {bot} 1")
    try:
        await client.read_until(lambda line: Text.JOINED_YOU_MATCH.value.format(name=bot, length=1) in line,
                                timeout=LINE_SECONDS)
    except trio.TooSlowError:
        raise AssertionError(f"{bot} never joined: {client.lines[-10:]}") from None


async def test_house_bots_of_each_strength_play_marked_and_stop_with_the_server(start_server: Any) -> None:
    _require_gnubg()
    running = await start_server(clock=SystemClock(), **NO_COMMAND_LIMIT,
                                 **{"bots.house_bots": [attrs.asdict(bot) for bot in STRENGTHS]})
    bots = running.server.house_bots
    names = [bot.name for bot in STRENGTHS]
    await house_bots_online(running.server, names)
    pids = dict(bots.pids)
    assert sorted(pids) == sorted(names)

    # A CLIP client finds them marked as bots, with their strength.
    watcher = await Player.join_server(running, "clipper", extensions=True)
    for bot in STRENGTHS:
        await watcher.send(f"whois {bot.name}")
        await watcher.expect(f"  {bot.name} is a bot.")
        await watcher.expect(f"  {bot.name} is a house bot: {bot.settings.described}.")

    # A telnet user plays a 1-point match to the end against each strength (at once).
    results: dict[str, str] = {}

    async def play(bot: str) -> None:
        client = await _telnet_user(running, f"t_{bot[3:]}")
        await _invite(client, bot)
        results[bot] = await _play_to_end(client, bot)

    async with trio.open_nursery() as nursery:
        for name in names:
            nursery.start_soon(play, name)
    assert sorted(results) == sorted(names)

    # Rated (bots_rated defaults to true), and each bot's record counts its match.
    for bot in STRENGTHS:
        player = running.server.registry.get(f"t_{bot.name[3:]}")
        assert player is not None and player.account.experience == 1
        won = results[bot.name].startswith(f"{bot.name} wins")
        await watcher.send(f"whois {bot.name}")
        await watcher.expect(f"  Record in finished matches: {int(won)} won, {int(not won)} lost.")

    # Their gnubg processes are their children; the server's stop leaves none of them.
    engines = [child for pid in pids.values() for child in _children(pid)]
    assert len(engines) == len(names)
    running.server.request_stop()  # (as SIGTERM does)
    with trio.fail_after(LINE_SECONDS):
        await running.stopped.wait()
    assert bots.pids == {}
    with trio.fail_after(LINE_SECONDS):
        while any(_alive(pid) for pid in [*pids.values(), *engines]):
            await trio.sleep(0.05)  # (the kernel reaps gnubg after its bot died)


async def test_a_bot_killed_mid_match_is_started_again_and_the_match_goes_on(start_server: Any) -> None:
    _require_gnubg()
    bot = HouseBot("hb_fast", strength="intermediate")
    running = await start_server(clock=SystemClock(), **NO_COMMAND_LIMIT, **{"bots.house_bots": [attrs.asdict(bot)],
                                                         "bots.bots_rated": False})
    bots = running.server.house_bots
    await house_bots_online(running.server, [bot.name])
    first = bots.pids[bot.name]
    client = await _telnet_user(running, "survivor")
    await _invite(client, bot.name)

    # A busy house bot: whoever else invites it is told why, and what to do.
    latecomer = await Player.join_server(running, "latecomer", extensions=True)
    await latecomer.send(f"invite {bot.name} 1")
    await latecomer.expect(f"** {bot.name} is already playing with someone else.")
    await latecomer.expect(Text.HOUSE_BOT_BUSY.value.format(name=bot.name))

    async def kill_the_bot() -> None:
        os.kill(first, signal.SIGKILL)
        await client.read_until(
            lambda line: Text.JOINED_MATCH_LOADED.value.format(name=bot.name) in line,
            timeout=LINE_SECONDS)

    result = await _play_to_end(client, bot.name, on_first_turn=kill_the_bot)
    assert "1 point match" in result
    assert bots.starts[bot.name] == 2 and bots.pids[bot.name] != first
    assert not _alive(first)
    # The operator turned rating off for house bots: nobody's rating moved.
    survivor = running.server.registry.get("survivor")
    assert survivor is not None and survivor.account.experience == 0
    assert running.server.registry.get(bot.name).account.experience == 0

    # It answers an invitation to an unlimited (money) match as well.
    await client.send(f"invite {bot.name} unlimited")
    await client.read_until(lambda line: Text.JOINED_YOU_UNLIMITED.value.format(name=bot.name) in line,
                            timeout=LINE_SECONDS)


async def test_without_gnubg_the_server_says_once_that_the_house_bots_are_off(
        start_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    running = await start_server(**NO_COMMAND_LIMIT, **{"bots.house_bots": [attrs.asdict(STRENGTHS[0])],
                                    "bots.bots_gnubg": "/nonexistent/gnubg"})
    said = [record.getMessage() for record in caplog.records if "house bots are off" in record.getMessage()]
    assert said == [("the house bots are off: GNU Backgammon is not installed (/nonexistent/gnubg "
                     "not found) (install the Debian package gnubg, or set bots_gnubg)")]
    assert running.server.house_bots.pids == {} and not running.server.house_bots.enabled
    player = await Player.join_server(running, "alone")  # (the server serves regardless)
    await player.command("whois hb_beginner", "No information found on user hb_beginner.")
