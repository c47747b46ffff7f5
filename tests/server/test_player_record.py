"""`show record` end to end (issue 37 §2): what the players did in this test is what the
record says, over CLIP, with the matches they finished, saved and abandoned."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

from fibsd.domain.dice import ScriptedDice
from tests.server.players import Player


async def _start(a: Player, b: Player, length: int) -> None:
    await a.send(f"invite {b.name} {length}")
    await b.expect(f"Type 'join {a.name}' to accept.")
    await b.send(f"join {a.name}")
    await a.expect("It's your turn to move.")  # alice (player 0) wins the opening roll


async def test_show_record_agrees_with_the_matches_played(start_server: Any) -> None:
    running = await start_server(dice=ScriptedDice([3, 1, 3, 1, 3, 1], coin=0))
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    carol = await Player.join_server(running, "carol", ready=False)

    # A 1-point match alice resigns at once: bob wins it.
    await _start(alice, bob, 1)
    await alice.send("resign n")
    await bob.expect("alice wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await bob.send("accept")
    await alice.expect("bob wins the 1 point match 1-0 .")
    # A 3-point match, saved when alice leaves; then a 5-point match abandons it, and is saved.
    await _start(alice, bob, 3)
    await alice.send("leave")
    await alice.expect("** You terminated the game. The game was saved.")
    await _start(alice, bob, 5)
    await alice.send("leave")
    await alice.expect("** You terminated the game. The game was saved.")

    await carol.send("show record ALICE")
    await carol.expect("Record of alice: 1 matches played, 0 won, 1 lost.")
    await carol.expect("  1-point matches, rated: 1 played, 0 won, 1 lost.")
    await carol.expect("Unfinished: 1 saved, 1 abandoned, 0 lost on time, 0 dropped and claimed;"
                       " 0 drops in all.")
    await carol.expect("PR of the last 10 analysed matches: none analysed.")
    await carol.expect("PR of the last 50 analysed matches: none analysed.")
    await carol.expect("Left out of the PR: 0 analysed matches (abandoned, resigned at once,"
                       " or under 10 checker plays).")
    await carol.send("show record bob alice")
    await carol.expect("Record of bob against alice: 1 matches played, 1 won, 0 lost.")
    await carol.expect("  1-point matches, rated: 1 played, 1 won, 0 lost.")
    await carol.expect("Unfinished: 1 saved, 1 abandoned, 0 lost on time, 0 dropped and claimed.")
    await carol.send("show record bob carol")
    await carol.expect("Record of bob against carol: 0 matches played, 0 won, 0 lost.")
    await carol.send("show record nobody")
    await carol.expect("** There is no one called nobody.")
    await carol.send("show record alice nobody")
    await carol.expect("** There is no one called nobody.")
    # The match is stored as resigned at once (no checker play), which PR figures leave out.
    with closing(sqlite3.connect(running.db_path)) as db:
        assert db.execute("SELECT ending, rated, moves, final_moves FROM match_records").fetchall() \
            == [("resigned", 1, 0, 0)]
