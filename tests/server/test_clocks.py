"""Match clocks end to end over TCP (docs/clocks.md): the real ticker, the real wall clock.

A 1-point match with `clock 1 1` (1 s delay, 1 s reserve): the invited player wins the
opening roll and does nothing, and loses on time within a few seconds. Each kind of
client hears it in its own lines: the telnet user in words, the CLIP client that did not
opt in only in FIBS's `... wins the 1 point match 1-0 .`, the watcher in both.
"""

from __future__ import annotations

from typing import Any

import trio

from fibsd.infra.wallclock import SystemClock
from fibsd.domain.dice import ScriptedDice
from tests.server.client import TestClient
from tests.server.helpers import register, telnet_login
from tests.server.players import Player


async def _telnet(running: Any, name: str) -> TestClient:
    await register(running, name)
    client, _ = await telnet_login(running, name)
    return client


def _ends(text: str) -> Any:
    # (a telnet line may follow the `> ` prompt on the same line)
    return lambda line: line.endswith(text)


async def test_the_invited_player_who_does_nothing_loses_on_time(start_server: Any) -> None:
    running = await start_server(clock=SystemClock(), dice=ScriptedDice([1, 3], coin=0))
    alice = await Player.join_server(running, "alice")  # CLIP, no `toggle extensions`
    bob = await _telnet(running, "bob")
    await bob.send("toggle ready")
    await bob.read_until(_ends("** You're now ready to invite or join someone."))
    carol = await _telnet(running, "carol")
    await carol.send("watch alice")
    await carol.read_until(_ends("You're now watching alice."))

    await alice.send("invite bob 1 clock 1 1")
    await alice.expect("** You invited bob to a 1 point match.")
    await alice.expect("Clock: delay 1 s, reserve 0:01.")
    await bob.read_until(_ends("Clock: delay 1 s, reserve 0:01."))
    await bob.send("join alice")
    await bob.read_until(_ends("It's your turn to move."))  # bob rolled 3, alice 1

    # The condition, not a time: the server's own ticker ends the match (nobody types
    # anything more); the timeout only stops a broken run, generously for a busy machine.
    lost = await bob.read_until(_ends("** You ran out of time and lose the match."), timeout=60)
    await bob.read_until(_ends("alice wins the 1 point match 1-0 ."))
    assert not any("wins the 1 point match" in line for line in lost)

    seen = await alice.expect("You win the 1 point match 1-0 .", timeout=10)
    assert not any("time" in line for line in seen)  # no line a FIBS client does not know
    await carol.read_until(_ends("** bob ran out of time and loses the match."), timeout=10)
    await carol.read_until(_ends("alice wins the 1 point match 1-0 ."))

    # Rated as a loss, and nobody plays any more.
    await alice.send("whois bob")
    await alice.expect("  Rating: 1490.00 Experience: 1")
    await alice.send("clock")
    await alice.expect("** No clock: you're not playing or watching a match with one.")


async def test_a_correspondence_match_ends_after_a_restart_with_nobody_of_it_online(start_server: Any) -> None:
    """The server's start loads the correspondence matches (a background read) and its
    ticker ends one that runs out though neither player ever logs in again."""
    running = await start_server(dice=ScriptedDice([1, 3], coin=0))  # a manual clock
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await alice.send("invite bob 1 days 1")
    await bob.send("join alice")
    await bob.expect("It's your turn to move.")  # bob is to move; both go
    await running.stop()
    restarted = await start_server(dice=ScriptedDice(), clock=running.clock)
    carol = await Player.join_server(restarted, "carol")
    running.clock.advance(86400)
    seen: list[str] = []
    for _attempt in range(200):  # (the ticker looks once a second at most)
        await carol.send("whois bob")
        seen = await carol.client.read_until(lambda line: line.startswith("  Rating:"))
        if seen[-1] == "  Rating: 1490.00 Experience: 1":
            break
        await trio.sleep(0.05)
    assert seen[-1] == "  Rating: 1490.00 Experience: 1"  # bob lost on time, and was rated
