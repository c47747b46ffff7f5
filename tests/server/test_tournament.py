"""A club knockout run by the server end to end over TCP (issue 24's acceptance): eight
CLIP clients enter, seven of them bots that only play what the server starts for them,
one never shows and forfeits, the server restarts mid-round and loses nothing, and
`tournament show` names the winner."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from fibsd.rules.tournament import Ending, Phase
from fibsd.tools.bots.client import BotClient
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy
from tests.server.helpers import clip_login, register

BOTS = ["botone", "bottwo", "botthree", "botfour", "botfive", "botsix", "botseven"]
NOSHOW = 30


async def _restart_on_same_port(start_server: Any, old: Any, **overrides: object) -> Any:
    # The old listener closes while the cancelled server shuts down: retry briefly.
    with trio.fail_after(10):
        while True:
            try:
                return await start_server(clock=old.clock, **{"server.port": old.port}, **overrides)
            except OSError:
                await trio.sleep(0.05)


async def _until(condition: Any, what: str) -> None:
    """Wait (polling the server's state, as the reconnect tests do) until `condition()`."""
    while not condition():
        await trio.sleep(0.01)


def _club(running: Any) -> Any:
    return running.server.registry.tournaments.get("club")


def _round_two_match_running(running: Any) -> bool:
    club = _club(running)
    if club is None or club.round_number != 2:
        return False
    for pairing in club.pending():
        session = running.server.registry.get(pairing.a)
        table = None if session is None else session.table
        if table is not None and not table.match.over and table.match_won is None:
            return True
    return False


@pytest.mark.slow
async def test_eight_clip_clients_play_a_knockout_that_runs_by_itself(start_server: Any) -> None:
    settings = {"admin.admins": ["director"], "limits.new_accounts_per_address_per_hour": 50}
    running = await start_server(**settings)
    for name in ["director", "ghost", *BOTS]:
        await register(running, name)
    director, _ = await clip_login(running, "director")
    for name in BOTS:
        await director.send(f"setbot {name} on")
        await director.read_until(f"** {name} is marked as a bot now.")
    await director.send(f"tournament create club knockout 1 noshow {NOSHOW} bots")
    await director.read_until("Tournament club opened by director. Type 'tournament join club' to enter.")

    # The ghost enters first (seed 1 among equal ratings), hears everyone else enter, and
    # leaves before the start: he never shows for his match.
    ghost, _ = await clip_login(running, "ghost")
    await ghost.send("tournament join club")
    await ghost.read_until(lambda line: line.startswith("Tournament club: ghost enters"))
    bots = [BotClient(BotConfig(name, "secret", port=running.port, after_login=("tournament join club",),
                                reconnect_delay_seconds=0.1), RandomStrategy(seed=index))
            for index, name in enumerate(BOTS)]
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.run)
            await ghost.read_until(lambda line: line.endswith("enters (8 entered)."), timeout=60)
            await ghost.send("bye")
            await ghost.read_all_until_closed()
            await director.send("tournament start club")
            lines = await director.read_until(lambda line: line.startswith("Tournament club: round 1")
                                              or line == "Tournament club starts with 8 players.")
            assert "Tournament club starts with 8 players." in lines
            club = _club(running)
            assert club.phase is Phase.RUNNING and club.seeds[0] == "ghost"
            # The ghost's opponent waits; the no-show time passes; he wins by forfeit.
            running.clock.advance(NOSHOW + 1)
            await _until(lambda: any(p.ending is Ending.FORFEIT for p in _club(running).played_rounds[0]),
                         "the forfeit")
            # Mid-round 2, with a match under way on the server, the server goes down.
            await _until(lambda: _round_two_match_running(running), "a round-2 match")
            before = [p.to_dict() for p in _club(running).played_rounds[0]]
            # Every play of the bots so far was legal.
            assert all(bot.player.refusals == [] for bot in bots)
            await running.stop()
            running = await _restart_on_same_port(start_server, running, **settings)
            # The bots log in again by themselves; the matches resume and the rest is played.
            await _until(lambda: _club(running) is not None and _club(running).phase is Phase.FINISHED,
                         "the end")
            for bot in bots:
                bot.stop()
    club = _club(running)
    assert [p.to_dict() for p in club.played_rounds[0]] == before  # round 1 kept every result
    assert len(club.played_rounds) == 3 and club.winner in BOTS
    resumed = sum(bot.player.resumed for bot in bots)
    assert resumed >= 2  # both players of the interrupted match took it up again
    # (After the restart a bot whose resumed match put it mid-turn has been seen to send
    # one play the server refused and to play again from a fresh board: the bot library's
    # resync, not the tournament's business; the match still ends.)
    viewer, _ = await clip_login(running, "director")
    await viewer.send("tournament show club")
    shown = await viewer.read_until(lambda line: line.startswith("  Winner: "))
    assert f"  Winner: {club.winner}" in shown
    forfeit = [line for line in shown if line.endswith("beats ghost by forfeit")]
    assert len(forfeit) == 1, shown
    # The 1-point matches were real, rated and recorded: seven of them were played.
    played = [line for line in shown if " beats " in line and line.endswith(("1-0", "2-0", "3-0"))]
    assert len(played) == 6, shown


async def test_bot_marks_reach_only_the_clip_clients_that_asked(start_server: Any) -> None:
    # Issue 33 §8 / 35 §1: FIBS's who-info has no bot field; a CLIP client that turned
    # `toggle extensions` on (the web page) learns which users online are bots: those
    # online when it asks, and every later `setbot` change; a FIBS client learns nothing.
    running = await start_server(**{"admin.admins": ["director"]})
    for name in ("director", "robo", "page", "gui"):
        await register(running, name)
    director, _ = await clip_login(running, "director")
    await director.send("setbot robo on")
    await director.read_until("** robo is marked as a bot now.")
    gui, _ = await clip_login(running, "gui")  # a FIBS client, there when robo arrives
    await clip_login(running, "robo")
    seen_by_gui = await gui.read_until(lambda line: line.startswith("5 robo "))
    page, _ = await clip_login(running, "page")
    await page.send("toggle extensions")
    assert "bot: robo on" in await page.read_until("bot: robo on")
    await director.send("setbot robo off")
    await director.read_until("** robo is not marked as a bot any more.")
    await page.read_until("bot: robo off")
    # The gui's stream up to its own `toggle extensions` holds every line sent to it
    # before (robo's arrival and both setbot changes included): no bot line; and none now, nobody is a bot.
    await gui.send("toggle extensions")
    lines = seen_by_gui + await gui.read_until("** You will be told fibsd's own notices (dice commitments, droppers).")
    assert not [line for line in lines if line.startswith("bot: ")], lines


async def test_a_schedule_made_over_tcp_survives_a_restart_and_runs_its_occurrence(start_server: Any) -> None:
    # Recurring tournaments (issue 35 §3): made over TCP, kept across a restart on the same
    # database, opened ahead and started at the hour by the server's own ticker as the
    # (manual) clock moves: nothing here waits on the wall clock but the ticker's second.
    settings = {"admin.admins": ["director"], "tournaments.tournament_open_ahead_seconds": 3600.0}
    running = await start_server(**settings)  # the manual clock: Tue 2023-11-14 22:13:20 UTC
    for name in ("director", "pa", "pb"):
        await register(running, name)
    director, _ = await clip_login(running, "director")
    await director.send("tournament schedule night daily 23:30 knockout 1")
    await director.read_until(
        "Tournament schedule night: every day at 23:30 UTC. The next starts Tue 2023-11-14 23:30 UTC.")
    await running.stop()
    running = await _restart_on_same_port(start_server, running, **settings)
    director, _ = await clip_login(running, "director")
    await director.send("toggle extensions")  # (a CLIP client hears openings only if it asked)
    await director.send("tournament schedules")
    await director.read_until("  night: every day at 23:30 UTC, knockout, 1-point matches, at least 2 players,"
                              " by director; next: Tue 2023-11-14 23:30 UTC")
    running.clock.advance(17 * 60)  # 22:30:20: an hour before the start
    await director.read_until(lambda line: line.startswith(
        "Tournament night-2023-11-14 opened by director (every day at 23:30 UTC): it starts Tue 2023-11-14"
        " 23:30 UTC if at least 2 players have entered."))
    players = []
    for name in ("pa", "pb"):
        player, _ = await clip_login(running, name)
        await player.send("tournament join night-2023-11-14")
        await player.read_until(lambda line, name=name: line.startswith(f"Tournament night-2023-11-14: {name} enters"))
        players.append(player)
    running.clock.advance(3600)
    await players[0].read_until("Tournament night-2023-11-14 starts with 2 players.")
    night = running.server.registry.tournaments["night-2023-11-14"]
    assert night.phase is Phase.RUNNING and len(night.entrants) == 2
