"""End-to-end matches over TCP with scripted dice (issue 5): the whole FIBS match flow."""

from __future__ import annotations

from typing import Any


from fibsd.domain.dice import ScriptedDice
from tests.server.players import Player


async def _start(running: Any, a: Player, b: Player, invitation: str) -> None:
    await a.send(f"invite {b.name} {invitation}")
    await b.expect(f"Type 'join {a.name}' to accept.")
    await b.send(f"join {a.name}")


async def test_three_point_match_double_take_pass_gammon_crawford_post_crawford(start_server: Any) -> None:
    dice = ScriptedDice(coin=0)  # alice (player 0) is O in odd games
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    carol = await Player.join_server(running, "carol", ready=False)
    await carol.command("watch alice", "You're now watching alice.")
    await alice.expect("carol is watching you.")

    # --- game 1: bob doubles, alice takes; alice resigns a single: bob 2 (cube 2)
    dice.extend([3, 1, 6, 5])
    await alice.send("invite bob 3")
    assert await alice.expect("** You invited bob to a 3 point match.")
    await bob.expect("alice wants to play a 3 point match with you.")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await bob.expect("** You are now playing a 3 point match with alice")
    await alice.expect("** Player bob has joined you for a 3 point match.")
    await carol.expect("alice and bob start a 3 point match.")
    await alice.expect("Starting a new game with bob.")
    await alice.expect("You rolled 3, bob rolled 1")
    await alice.expect("It's your turn to move.")
    opening = await alice.next_board()
    assert opening.player_dice == (3, 1) and opening.can_move == 2 and opening.colour == 1
    await bob.expect("You rolled 1, alice rolled 3")
    await bob.expect("alice makes the first move.")
    await carol.expect("alice rolled 3, bob rolled 1")
    await carol.expect("alice makes the first move.")
    watched = await carol.next_board()
    assert watched.player == "alice" and watched.opponent == "bob"

    await alice.send("8-5 6-5")
    await bob.expect("alice moves 8-5 6-5 .")
    await carol.expect("alice moves 8-5 6-5 .")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("double")
    await bob.expect("You double. Please wait for alice to accept or reject.")
    await alice.expect("bob doubles. Type 'accept' or 'reject'.")
    doubled = await alice.next_board()
    assert doubled.was_doubled and not doubled.player_may_double and not doubled.opponent_may_double
    await carol.expect("bob doubles.")
    await alice.send("accept")
    await alice.expect("You accept the double. The cube shows 2.")
    await bob.expect("alice accepts the double. The cube shows 2.")
    await carol.expect("alice accepts the double.")
    await bob.expect("You roll 6 and 5.")
    await bob.expect("Please move 2 pieces.")
    await bob.send("1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
    await alice.expect("It's your turn. Please roll or double")
    board = await alice.board()
    assert board.cube == 2 and board.player_may_double and not board.opponent_may_double
    await alice.send("resign n")
    await alice.expect("You want to resign. bob will win 2 points.")
    await bob.expect("alice wants to resign. You will win 2 points. Type 'accept' or 'reject'.")
    await carol.expect("alice wants to resign. bob will win 2 points.")
    await bob.send("accept")
    await bob.expect("You accept and win 2 points.")
    await alice.expect("bob accepts and wins 2 points.")
    await alice.expect("score in 3 point match: alice-0 bob-2")
    await bob.expect("score in 3 point match: bob-2 alice-0")
    await alice.expect("Type 'join' if you want to play the next game, type 'leave' if you don't.")
    await bob.expect("Type 'join' if you want to play the next game, type 'leave' if you don't.")

    # --- game 2: the Crawford game (bob at 2 = 3-1); bob resigns a gammon: 2-2
    dice.extend([2, 5, 4, 3, 1, 2])
    await alice.command("join", "** Please wait for bob to join too.")
    await bob.send("join")
    await bob.expect("You rolled 5, alice rolled 2")
    await bob.expect("It's your turn to move.")
    crawford = await bob.next_board()
    assert crawford.colour == 1  # colours swapped: bob is O now
    assert crawford.player_may_double and crawford.opponent_may_double  # FIBS leaves them on
    assert not crawford.post_crawford
    await bob.send("13-8 13-11")
    await alice.expect("bob moves 13-8 13-11 .")
    await alice.expect("You roll 4 and 3.")  # no "roll or double" in the Crawford game
    await alice.send("double")
    await alice.expect("** The Crawford rule doesn't allow you to double in this game.")
    await alice.send("1-5 1-4")
    await bob.expect("alice moves 1-5 1-4 .")
    await bob.expect("You roll 1 and 2.")
    await bob.send("resign g")
    await alice.expect("bob wants to resign. You will win 2 points. Type 'accept' or 'reject'.")
    await alice.send("accept")
    await alice.expect("score in 3 point match: alice-2 bob-2")

    # --- game 3: post-Crawford; bob doubles, alice passes: bob wins 3-2
    dice.extend([6, 4])
    await alice.send("join")
    await bob.send("join")
    await alice.expect("You rolled 6, bob rolled 4")
    post = await alice.next_board()
    assert post.post_crawford and post.colour == 1
    await alice.send("24-18 13-9")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("double")
    await alice.expect("bob doubles. Type 'accept' or 'reject'.")
    await alice.send("reject")
    await alice.expect("You give up. bob wins 1 point.")
    await bob.expect("alice gives up. You win 1 point.")
    await carol.expect("alice gives up. bob wins 1 point.")
    await bob.expect("You win the 3 point match 3-2 .")
    await alice.expect("bob wins the 3 point match 3-2 .")
    await carol.expect("bob wins the 3 point match 3-2 .")
    assert dice.remaining == 0

    # Ratings: both new (K=5), equal ratings: 4*5*sqrt(3)*0.5 = 17.32 each way.
    await carol.send("whois bob")
    lines = await carol.expect("  No email address.")
    assert "  Rating: 1517.32 Experience: 3" in lines
    await carol.send("whois alice")
    lines = await carol.expect("  No email address.")
    assert "  Rating: 1482.68 Experience: 3" in lines
    # The match is no longer saved; oldmoves shows its last game.
    await alice.send("show saved")
    await alice.expect("no saved games.")
    await alice.send("oldmoves bob")
    moves = await alice.expect("X: wins")
    assert moves[-7:] == [
        "Score is 2-2 in a 3 point match.", "bob is X - alice is O", "",
        "O: (6 4) 24-18 13-9", "X: doubles", "O: rejects", "X: wins",
    ]


async def test_unlimited_match_with_beaver_and_jacoby(start_server: Any) -> None:
    dice = ScriptedDice(coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    for player in (alice, bob):
        await player.command("set redoubles 1", "Value of 'redoubles' set to 1.")
    # game 1: bob doubles, alice beavers (cube 4, alice keeps it), bob resigns a gammon:
    # the cube was turned, so the Jacoby rule lets the gammon count: 2 x 4 = 8.
    dice.extend([3, 1, 5, 5])
    await alice.send("invite bob unlimited jacoby")
    await alice.expect("** You invited bob to an unlimited match.")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await bob.expect("** You are now playing an unlimited match with alice")
    await alice.expect("Player bob has joined you for an unlimited match.")
    board = await alice.next_board()
    assert board.match_length == 9999 and board.redoubles == 1
    await alice.send("8-5 6-5")
    await bob.expect("It's your turn. Please roll or double")
    await bob.command("double", "You double. Please wait for alice to accept or reject.")
    await alice.expect("bob doubles. Type 'accept' or 'reject'.")
    await alice.send("beaver")
    await alice.expect("You beaver. The cube shows 4.")
    await bob.expect("alice beavers. The cube shows 4.")
    await bob.expect("You roll 5 and 5.")
    board = await bob.board()
    assert board.cube == 4 and not board.player_may_double and board.opponent_may_double
    await bob.send("resign g")
    await alice.expect("bob wants to resign. You will win 8 points. Type 'accept' or 'reject'.")
    await alice.send("accept")
    await alice.expect("score in unlimited match: alice-8 bob-0")
    # game 2: nobody doubled, so a gammon counts as a single (Jacoby): 1 point.
    dice.extend([6, 1])
    await alice.send("join")
    await bob.send("join")
    await bob.expect("You rolled 1, alice rolled 6")
    await bob.send("resign g")
    await alice.expect("bob wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await alice.send("reject")
    await bob.expect("alice rejects. The game continues.")
    await bob.send("resign b")
    await alice.expect("bob wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await alice.send("accept")
    await alice.expect("score in unlimited match: alice-9 bob-0")
    # Unlimited matches never change ratings.
    await alice.send("leave")
    await alice.expect("** You terminated the game. The game was saved.")
    await bob.expect("** Player alice has left the game. The game was saved.")
    await bob.send("whois alice")
    assert "  Rating: 1500.00 Experience: 0" in await bob.expect("  No email address.")


async def test_resignation_values_with_the_cube(start_server: Any) -> None:
    dice = ScriptedDice([3, 1], coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await _start(running, alice, bob, "7")
    await alice.expect("It's your turn to move.")
    await alice.send("resign b")
    await bob.expect("alice wants to resign. You will win 3 points. Type 'accept' or 'reject'.")
    await alice.send("resign n")
    await alice.expect("** bob hasn't accepted or rejected your resign yet.")
    await bob.send("roll")
    await bob.expect("** alice wanted to resign. Type 'accept' or 'reject'.")
    await bob.send("reject")
    await alice.expect("bob rejects. The game continues.")
    await alice.send("resign g")
    await bob.expect("alice wants to resign. You will win 2 points. Type 'accept' or 'reject'.")
    await bob.send("accept")
    await bob.expect("You accept and win 2 points.")
    await bob.expect("score in 7 point match: bob-2 alice-0")


async def test_illegal_plays_and_out_of_turn_commands(start_server: Any) -> None:
    dice = ScriptedDice([3, 1], coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await _start(running, alice, bob, "3")  # not 1 point: bob's roll waits for him
    await alice.expect("It's your turn to move.")
    for command, answer in [
        ("8-5", "** You must give 2 moves."),
        ("8-5 6-5 13-10", "** Please don't give more than 2 moves."),
        ("7-4 6-5", "** You can't move from 7 in your first move."),
        ("8-6 6-5", "** You can't move 2 points in your first move."),
        ("8-5 6-off", "** You can't move home in your second move."),
        ("roll", "** You did already roll the dice."),
        ("double", "** You can only double before you roll the dice."),
        ("accept", "** bob didn't double or resign."),
    ]:
        await alice.send(command)
        await alice.expect(answer)
    for command, answer in [
        ("roll", "** It's not your turn to roll the dice."),
        ("1-4", "** It's not your turn to move."),
        ("double", "** Please wait until alice has moved."),
        ("redouble", "** Instant redoubles are only available for unlimited matches."),
    ]:
        await bob.send(command)
        await bob.expect(answer)
    # The refused commands changed nothing: the legal play still works.
    await alice.send("6-5 8-5")
    await bob.expect("alice moves 6-5 8-5 .")


async def test_holland_rule_in_post_crawford_games(start_server: Any) -> None:
    dice = ScriptedDice(coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    # game 1: alice resigns a gammon: bob 2 (of 3); game 2 (Crawford): bob resigns: 1-2.
    dice.extend([3, 1])
    await _start(running, alice, bob, "3 holland")
    await alice.expect("It's your turn to move.")
    await alice.send("resign g")
    await bob.send("accept")
    await alice.expect("Type 'join' if you want to play the next game, type 'leave' if you don't.")
    dice.extend([2, 5])  # player 0 (alice) rolls first: bob starts
    await alice.send("join")
    await bob.send("join")
    await bob.expect("It's your turn to move.")
    await bob.send("resign n")
    await alice.send("accept")
    await alice.expect("score in 3 point match: alice-1 bob-2")
    # game 3, post-Crawford: alice trails and may not double before her third turn.
    dice.extend([1, 3, 6, 5, 4, 2, 6, 6, 5, 4])
    await alice.send("join")
    await bob.send("join")
    await bob.expect("It's your turn to move.")  # bob rolled 3 against 1
    board = await alice.next_board()
    assert board.post_crawford
    assert board.colour == 1  # alice is O in odd games, bob X moves upwards
    await bob.send("17-20 19-20")
    await alice.expect("You roll 6 and 5.")  # rolled for her: she may not double yet
    assert not (await alice.board()).player_may_double
    await alice.send("24-18 18-13")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await bob.expect("You roll 4 and 2.")
    await bob.send("1-5 1-3")
    await alice.expect("You roll 6 and 6.")  # her second turn: still no double
    await alice.send("13-7 13-7 8-2 8-2")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await bob.expect("You roll 5 and 4.")
    await bob.send("12-17 12-16")
    await alice.expect("It's your turn. Please roll or double")  # third turn: she may
    assert (await alice.board()).player_may_double


async def test_dropped_connection_saves_and_join_resumes_after_restart(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice", extensions=True)
    bob = await Player.join_server(running, "bob")
    await _start(running, alice, bob, "5")
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await bob.expect("Please move 2 pieces.")
    before = await bob.board()
    await bob.client.close()
    await alice.expect("bob drops connection. The game was saved.")
    await alice.expect("** bob has 300 seconds to come back. Then you may 'claim' the match, or 'leave' to keep it saved.")
    await alice.send("show saved")
    lines = await alice.expect("  opponent          matchlength   score (your points first)")
    assert lines
    row = await alice.client.read_line()
    assert row.split() == ["*bob", "5", "0", "-", "0"]  # still her running match
    await running.stop()
    restarted = await start_server(dice=ScriptedDice(coin=0), clock=running.clock)
    # `ready` is a persisted toggle: both are still ready after the restart.
    alice = await Player.join_server(restarted, "alice", register_first=False, ready=False)
    bob = await Player.join_server(restarted, "bob", register_first=False, ready=False)
    await bob.send("invite alice")
    await bob.expect("** You invited alice to resume a saved match.")
    await alice.expect("bob wants to resume a saved match with you.")
    await alice.send("join bob")
    await alice.expect("You are now playing with bob. Your running match was loaded.")
    await bob.expect("alice has joined you. Your running match was loaded.")
    synopsis = await bob.expect("points for bob: 0")
    assert synopsis[-4:] == ["turn: bob.", "match length: 5", "points for alice: 0", "points for bob: 0"]
    after = await bob.next_board()
    assert after == before
    await bob.expect("Please move 2 pieces.")
    await bob.send("1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
