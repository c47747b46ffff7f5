"""Chouettes end to end over TCP: CLIP clients on 127.0.0.1 play several games.

A four-player multi-cube chouette and a three-player single-cube chouette play games that
end on the board's cube (drops), a resignation and checker play, with scripted dice; a
third table survives a restart of the server in the middle of a game (the store is the
same, as after a kill -9) and is played on to its end.
"""

from __future__ import annotations

from typing import Any

from fibsd.domain.dice import ScriptedDice
from tests.server.players import Player


async def _table(running: Any, names: list[str], settings: str = "") -> list[Player]:
    players = [await Player.join_server(running, name, ready=False) for name in names]
    owner = players[0]
    await owner.send(f"chouette create {settings}".strip())
    for player in players[1:]:
        await player.send(f"chouette join {owner.name}")
        await player.expect(f"Chouette: {player.name} joins ({players.index(player) + 1} seated).")
    return players


async def test_four_players_multi_cube_play_three_games(start_server: Any) -> None:
    dice = ScriptedDice([6, 5, 4, 3,  # the order: alice, bob, carol, dave
                         3, 1,  # game 1 opens: alice (box) 3, bob (captain) 1
                         6, 5,  # bob's roll
                         1, 3,  # game 2 opens: alice 1, carol 3
                         2, 4,  # game 3 opens: carol (box) 2, dave (captain) 4
                         5, 6])  # game 4 opens
    running = await start_server(dice=dice)
    alice, bob, carol, dave = await _table(running, ["alice", "bob", "carol", "dave"])
    await alice.send("chouette start")
    await alice.expect("Chouette: game 1. Box: alice. Captain: bob. Crew: carol, dave.")
    await alice.expect("It's your turn to move.")
    await alice.send("move 8-5 6-5")
    await bob.expect("It's your turn. Please roll or double")
    await carol.send("double")
    await alice.expect("Chouette: carol doubles alice.")
    await dave.send("roll")
    await dave.expect("** Only the box and the captain roll and move.")
    await alice.send("accept")
    await carol.expect("Chouette: alice takes carol's double: the cube is 2.")
    board = await carol.next_board()
    assert board.cube == 2 and board.player == "bob"  # the captain's board, her own cube
    await bob.send("roll")
    await bob.expect("Please move 2 pieces.")
    await bob.send("move 1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
    await alice.expect("It's your turn. Please roll or double")
    await alice.send("double")
    await dave.expect("Chouette: alice doubles bob, carol, dave.")
    for player in (bob, carol, dave):
        await player.send("reject")
    await dave.expect("Chouette: game 1 over. alice +4, bob -1, carol -2, dave -1. Next: alice, carol, dave, bob.")
    # Game 2: carol captains and opens; the box resigns a single game to everyone.
    await carol.expect("Chouette: game 2. Box: alice. Captain: carol. Crew: dave, bob.")
    await carol.expect("It's your turn to move.")
    await carol.send("move 17-20 19-20")
    await alice.expect("carol moves 17-20 19-20 .")
    await alice.expect("It's your turn. Please roll or double")
    await alice.send("resign n")
    await bob.expect("Chouette: alice offers bob a normal: 1 to pay. Type 'accept' or 'reject'.")
    for player in (carol, dave, bob):
        await player.send("accept")
    await alice.expect("Chouette: game 2 over. alice -3, carol +1, dave +1, bob +1. Next: carol, dave, bob, alice.")
    # Game 3: every team member doubles and the box drops them all.
    await dave.expect("Chouette: game 3. Box: carol. Captain: dave. Crew: bob, alice.")
    await dave.expect("It's your turn to move.")
    await dave.send("move 17-21 19-21")
    await carol.expect("It's your turn. Please roll or double")
    await carol.send("double")
    await bob.expect("Chouette: carol doubles dave, bob, alice.")
    for player in (dave, bob, alice):
        await player.send("reject")
    await carol.expect("Chouette: game 3 over. carol +3, dave -1, bob -1, alice -1. Next: carol, bob, alice, dave.")
    await alice.send("chouette score")
    await alice.expect("Chouette 1 score after 3 games (unrated):")
    rows = [await alice.client.read_line() for _ in range(4)]
    assert sorted(rows) == sorted([
        "  alice 0 in 3 games (2 as box, 1 won; best +4, worst -3), seated",
        "  bob -1 in 3 games (0 as box, 0 won; best +1, worst -1), seated",
        "  carol +2 in 3 games (1 as box, 1 won; best +3, worst -2), seated",
        "  dave -1 in 3 games (0 as box, 0 won; best +1, worst -1), seated",
    ])


async def test_three_players_single_cube_play_several_games(start_server: Any) -> None:
    dice = ScriptedDice([6, 5, 4,  # the order: ann, ben, cal
                         3, 1,  # game 1 opens: ann (box) 3, ben (captain) 1
                         1, 3,  # game 2: ben (box) 1, cal (captain) 3
                         4, 2,  # game 3: cal (box) 4, ann (captain) 2
                         5, 6])  # game 4 opens
    running = await start_server(dice=dice)
    ann, ben, cal = await _table(running, ["ann", "ben", "cal"], "single")
    await ann.send("chouette start")
    await ann.expect("It's your turn to move.")
    await ann.send("move 8-5 6-5")
    await ben.expect("It's your turn. Please roll or double")
    await cal.send("double")
    await cal.expect("** You can't double now.")  # single cube: only the captain doubles
    await ben.send("double")
    await ann.expect("Chouette: ben doubles ann.")
    await ann.send("reject cal")
    await ann.expect("** Single cube: one double and one answer for the whole team.")
    await ann.send("reject")
    await cal.expect("Chouette: game 1 over. ann -2, ben +1, cal +1. Next: ben, cal, ann.")
    await cal.expect("Chouette: game 2. Box: ben. Captain: cal. Crew: ann.")
    await cal.expect("It's your turn to move.")
    await cal.send("move 17-20 19-20")
    await ben.expect("It's your turn. Please roll or double")
    await ben.send("resign n")
    await ann.expect("Chouette: ben offers ann a normal: 1 to pay. Type 'accept' or 'reject'.")
    await ann.send("reject")
    await ann.expect("Chouette: ann rejects the resignation.")
    await ann.send("accept")
    await ann.expect("** Nobody doubled you there, or you doubled nobody of those.")
    await cal.send("accept")
    await ann.expect("Chouette: cal accepts the resignation.")
    # cal beat the box; ann plays on alone against ben, captain now: ben rolls.
    await ann.send("chouette show")
    await ann.expect("Queue: ben (box), cal, ann (captain)")
    await ben.send("resign n")
    await ann.send("accept")
    await ben.expect("Chouette: game 2 over. ben -2, cal +1, ann +1. Next: cal, ann, ben.")
    await ann.expect("Chouette: game 3. Box: cal. Captain: ann. Crew: ben.")
    await cal.expect("It's your turn to move.")
    await cal.send("move 8-4 6-4")
    await ann.expect("It's your turn. Please roll or double")
    await ann.send("resign n")
    await ben.send("accept")
    await ben.expect("** Nobody doubled you there, or you doubled nobody of those.")
    await cal.send("accept")
    await ben.expect("Chouette: ben is captain now.")  # ann is out of the game: ben plays on
    await ben.send("resign n")
    await cal.send("accept")
    await ben.expect("Chouette: game 3 over. cal +2, ann -1, ben -1. Next: cal, ann, ben.")


async def test_a_chouette_survives_a_restart_in_the_middle_of_a_game(start_server: Any) -> None:
    dice = ScriptedDice([6, 5, 4, 3, 1])
    running = await start_server(dice=dice)
    ann, ben, cal = await _table(running, ["ann", "ben", "cal"])
    await ann.send("chouette start")
    await ann.expect("It's your turn to move.")
    await ann.send("move 8-5 6-5")
    await ben.expect("It's your turn. Please roll or double")
    await cal.send("double")
    await ann.expect("Chouette: cal doubles ann.")
    await running.stop()
    restarted = await start_server(dice=ScriptedDice([2, 2, 6, 5]), clock=running.clock)
    ann = await Player.join_server(restarted, "ann", register_first=False, ready=False)
    ben = await Player.join_server(restarted, "ben", register_first=False, ready=False)
    cal = await Player.join_server(restarted, "cal", register_first=False, ready=False)
    await cal.send("chouette show")
    await cal.expect("Queue: ann (box), ben (captain), cal")
    await cal.expect("  cal against ann: cube 1, centred, doubled, waiting for the answer")
    await cal.expect("Waiting for: ann")
    await ann.send("reject")
    await cal.expect("Chouette: ann drops cal's double and pays 1.")
    await ben.send("roll")
    await ben.expect("Please move 4 pieces.")
    await ben.send("move 1-3 1-3 12-14 12-14")
    await ann.expect("ben moves 1-3 1-3 12-14 12-14 .")
    await ann.expect("It's your turn. Please roll or double")
    await ann.send("double")
    await ben.send("reject")
    await ann.expect("Chouette: game 1 over. ann 0, ben -1, cal +1. Next: ann, cal, ben.")


async def test_the_servers_clock_lets_an_absent_crew_member_follow_the_captain(start_server: Any) -> None:
    running = await start_server(dice=ScriptedDice([6, 5, 4, 3, 1]))
    ann, ben, cal = await _table(running, ["ann", "ben", "cal"])
    await ann.send("chouette start")
    await ann.expect("It's your turn to move.")
    await cal.client.close()
    await ann.expect("Chouette: cal dropped; 300 seconds to come back.")
    running.clock.advance(300)
    # The shell ticks the chouettes once a second: the rules decide for the absent.
    await ann.expect("Chouette: cal is away and follows the captain.")
    cal = await Player.join_server(running, "cal", register_first=False, ready=False)
    # (told right after the login, before the answer to `set boardstyle 3`)
    assert "Chouette: cal decides for himself again." in cal.client.lines
