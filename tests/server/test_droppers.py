"""End-to-end (issue 8): a dropped player comes back into the running match; after the
grace period the opponent may claim it; a new login takes over a half-dead session."""

from __future__ import annotations

from typing import Any

from fibsd.domain.dice import ScriptedDice
from tests.server.helpers import clip_login
from tests.server.players import Player


async def _playing(running: Any, dice: ScriptedDice, *, extensions: bool = True) -> tuple[Player, Player]:
    # alice opts in to fibsd's own lines (the grace notice, the drop count in whois).
    alice = await Player.join_server(running, "alice", extensions=extensions)
    bob = await Player.join_server(running, "bob")
    await alice.send("invite bob 5")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await bob.expect("Please move 2 pieces.")
    return alice, bob


async def test_a_dropped_player_returns_straight_into_the_match(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5, 2, 1], coin=0)
    running = await start_server(dice=dice)
    alice, bob = await _playing(running, dice)
    before = await bob.board()
    await bob.client.close()
    await alice.expect("bob drops connection. The game was saved.")
    await alice.expect("** bob has 300 seconds to come back. Then you may 'claim' the match, or 'leave' to keep it saved.")
    await alice.send("roll")
    await alice.expect("** bob is not connected. Please wait for bob to come back, or type 'leave'.")
    await alice.send("claim")
    await alice.expect("** You may claim the match in 300 seconds.")
    running.clock.advance(120)
    client, _ = await clip_login(running, "bob")
    bob = Player("bob", client)
    await bob.expect("You are now playing with alice. Your running match was loaded.")
    lines = await bob.expect("points for bob: 0")
    assert lines[-4:] == ["turn: bob.", "match length: 5", "points for alice: 0", "points for bob: 0"]
    assert await bob.next_board() == before
    await bob.expect("Please move 2 pieces.")
    await alice.expect("bob has joined you. Your running match was loaded.")
    await bob.send("1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
    await alice.send("whois bob")
    lines = await alice.expect("  No email address.")
    assert not any(line.startswith("  Dropped matches") for line in lines)  # came back in time


async def test_a_fibs_client_that_did_not_opt_in_sees_only_fibs_lines(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice, bob = await _playing(running, dice, extensions=False)
    await bob.client.close()
    await alice.expect("bob drops connection. The game was saved.")
    await alice.send("roll")  # as on FIBS, the match was saved: she is not playing
    lines = await alice.expect("** You're not playing.")
    assert not any("come back" in line or "not connected" in line for line in lines)
    await alice.send("whois bob")
    lines = await alice.expect("  No email address.")
    assert not any(line.startswith("  Dropped matches") for line in lines)


async def test_after_the_grace_period_the_opponent_may_claim(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice, bob = await _playing(running, dice)
    await bob.client.close()
    await alice.expect("bob drops connection. The game was saved.")
    running.clock.advance(301)
    await alice.send("claim")
    await alice.expect("** bob did not come back: you claim the match.")
    await alice.expect("You win the 5 point match 5-0 .")
    await alice.send("whois bob")
    lines = await alice.expect("  No email address.")
    assert "  Dropped matches: 1" in lines
    # Ratings changed as for any won match (both new: K=5; 4*5*sqrt(5)*0.5 = 22.36).
    assert "  Rating: 1477.64 Experience: 5" in lines
    await alice.send("show saved")
    await alice.expect("no saved games.")


async def test_a_new_login_takes_over_a_half_dead_session_and_its_match(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice, bob = await _playing(running, dice)
    before = await bob.board()
    seen_by_alice = len(alice.client.lines)
    # bob's old connection is still open (half-dead); he logs in again elsewhere.
    client, _ = await clip_login(running, "bob")
    newer = Player("bob", client)
    await newer.expect("You are now playing with alice. Your running match was loaded.")
    assert await newer.next_board() == before
    await newer.expect("Please move 2 pieces.")
    assert "Closed old connection with user bob." in await bob.client.read_all_until_closed()
    await newer.send("1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
    # alice's client saw no interruption of the match.
    since = alice.client.lines[seen_by_alice:]
    assert not any("drops connection" in line or "logs out" in line or "saved" in line for line in since)
