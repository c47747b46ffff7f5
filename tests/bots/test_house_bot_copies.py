"""A house bot that plays several matches at once (`matches = 2`: two copies, two accounts,
two processes), against the real GNU Backgammon: two players invite the same strength at
the same time and each plays one copy to the end, whoever asks for a busy copy is told
which copy is free or that all play (a FIBS client hears only FIBS's line), `whois` of a
copy says it is one of two, a copy killed with kill -9 mid-match is started again and its
match resumes while the other copy's match goes on untouched, each copy's record is its
own, and the server stops with no bot or gnubg process left."""

from __future__ import annotations

import os
import signal
from typing import Any

import attrs
import trio

from fibsd.infra.house_bots import HouseBot
from fibsd.infra.wallclock import SystemClock
from protocol.wording import Text
from tests.bots.test_house_bots import (
    LINE_SECONDS,
    NO_COMMAND_LIMIT,
    _alive,
    _children,
    _clean,
    _play_to_end,
    _require_gnubg,
    _telnet_user,
)
from tests.server.client import TestClient
from tests.server.helpers import house_bots_online
from tests.server.players import Player

BOT = HouseBot("hb_cap", strength="intermediate", matches=2)


async def _invite_the_strength(client: TestClient, bot: HouseBot) -> str:
    """Invite the bot by its entry's name; if that copy is taken (at once, or while the
    invitation waited), invite the copy the server names as free. The copy that joined."""
    await client.send(f"invite {bot.name} 1")
    joined = Text.JOINED_YOU_MATCH.value.format(name="{name}", length=1)
    head, tail = joined.split("{name}")
    free_head = f"** {bot.name} is playing; "
    try:
        while True:
            line = _clean(await client.read_line(timeout=LINE_SECONDS))
            if line.startswith(head) and line.endswith(tail):
                return line.removeprefix(head).removesuffix(tail)
            if line.startswith(free_head):
                free = line.removeprefix(free_head).split(" ", 1)[0]
                assert line == Text.HOUSE_BOT_COPY_FREE.value.format(name=bot.name, free=free)
                await client.send(f"invite {free} 1")
    except trio.TooSlowError:
        raise AssertionError(f"no copy of {bot.name} joined: {client.lines[-10:]}") from None


async def test_two_copies_play_two_matches_and_a_killed_copy_resumes_its_own(start_server: Any) -> None:
    _require_gnubg()
    running = await start_server(clock=SystemClock(), **NO_COMMAND_LIMIT, **{"bots.house_bots": [attrs.asdict(BOT)]})
    bots = running.server.house_bots
    copies = list(BOT.copies)
    assert copies == ["hb_cap", "hb_cap_b"]
    await house_bots_online(running.server, copies)
    pids = dict(bots.pids)
    assert sorted(pids) == sorted(copies)  # one process per copy, each its own account

    # `whois` of either copy: a bot, its strength, one of two.
    watcher = await Player.join_server(running, "clipper", extensions=True)
    for name in copies:
        await watcher.send(f"whois {name}")
        await watcher.expect(f"  {name} is a bot.")
        await watcher.expect(f"  {name} is a house bot: intermediate (GNU Backgammon 0-ply), one of 2 "
                             "copies that play at once (hb_cap, hb_cap_b); its record is its own.")

    # Two players invite the same strength at the same time: each gets a copy.
    alice, bob = await _telnet_user(running, "alice"), await _telnet_user(running, "bob")
    opponents: dict[str, str] = {}

    async def invite(client: TestClient, name: str) -> None:
        opponents[name] = await _invite_the_strength(client, BOT)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(invite, alice, "alice")
        nursery.start_soon(invite, bob, "bob")
    assert sorted(opponents.values()) == copies

    # Both copies busy: a player with extensions is told so in one line after FIBS's; a
    # FIBS client (no extensions) hears FIBS's line alone.
    late = await Player.join_server(running, "late", extensions=True)
    await late.send("invite hb_cap_b 1")
    await late.expect("** hb_cap_b is already playing with someone else.")
    assert await late.client.read_line(timeout=LINE_SECONDS) == Text.HOUSE_BOT_ALL_BUSY.value.format(
        name="hb_cap_b", count=2)
    fibs_client = await Player.join_server(running, "cocoa")
    await fibs_client.send("invite hb_cap 1")
    await fibs_client.expect("** hb_cap is already playing with someone else.")
    await fibs_client.send("toggle ready")
    after = await fibs_client.expect(Text.TOGGLE_READY_OFF.value)  # (a marker: the answers come in order)
    assert not [line for line in after if line.startswith("** hb_cap")], after

    # kill -9 of bob's copy mid-match: it is started again and bob's match resumes; alice's
    # copy keeps its process and her match goes on to the end untouched.
    killed, spared = opponents["bob"], opponents["alice"]
    results: dict[str, str] = {}

    async def kill_bobs_copy() -> None:
        os.kill(pids[killed], signal.SIGKILL)
        await bob.read_until(lambda line: Text.JOINED_MATCH_LOADED.value.format(name=killed) in line,
                             timeout=LINE_SECONDS)

    async def play(client: TestClient, name: str, on_first_turn: Any = None) -> None:
        results[name] = await _play_to_end(client, opponents[name], on_first_turn=on_first_turn)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, alice, "alice")
        nursery.start_soon(play, bob, "bob", kill_bobs_copy)
    assert all("1 point match" in result for result in results.values())
    assert bots.starts == {killed: 2, spared: 1}
    assert bots.pids[spared] == pids[spared] and bots.pids[killed] != pids[killed]
    assert not _alive(pids[killed])
    interrupted = (Text.PLAYER_LEFT_GAME.value.format(name=spared),
                   Text.JOINED_MATCH_LOADED.value.format(name=spared))
    assert not [line for line in alice.lines if _clean(line) in interrupted], alice.lines[-30:]

    # Each copy's record is its own account's: one match each.
    for player, name in opponents.items():
        won = results[player].startswith(f"{name} wins")
        await watcher.send(f"whois {name}")
        await watcher.expect(f"  Record in finished matches: {int(won)} won, {int(not won)} lost.",
                             timeout=LINE_SECONDS)

    # The server's stop leaves no copy and no gnubg behind.
    running_pids = dict(bots.pids)
    engines = [child for pid in running_pids.values() for child in _children(pid)]
    assert len(engines) == len(copies)
    running.server.request_stop()
    with trio.fail_after(LINE_SECONDS):
        await running.stopped.wait()
    assert bots.pids == {}
    with trio.fail_after(LINE_SECONDS):
        while any(_alive(pid) for pid in [*running_pids.values(), *engines]):
            await trio.sleep(0.05)  # (the kernel reaps gnubg after its bot died)
