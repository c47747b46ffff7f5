"""End-to-end: watchers see every board, in-game chat, look, show games, match records."""

from __future__ import annotations

from typing import Any

from fibsd.domain.dice import ScriptedDice
from fibsd.domain.matfile import parse_mat
from protocol.board import BoardLine
from tests.server.players import Player


async def _match(running: Any, dice: ScriptedDice, length: str = "1", *,
                 moreboards: bool = False) -> tuple[Player, Player, Player]:
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    carol = await Player.join_server(running, "carol", ready=False)
    if moreboards:  # watchers follow their own toggles, as players do; clients turn it on
        await carol.command("toggle moreboards", "** Will send rawboards after rolling.")
    await carol.command("watch bob", "You're now watching bob.")
    await carol.expect("bob is not doing anything interesting.")
    await alice.send(f"invite bob {length}")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    return alice, bob, carol


async def test_a_watcher_receives_every_board_from_the_watched_side(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5, 4, 2], coin=0)
    running = await start_server(dice=dice)
    alice, bob, carol = await _match(running, dice, "3", moreboards=True)
    await carol.expect("alice and bob start a 3 point match.")
    await carol.expect("Starting a new game with alice.")  # the watched player's opponent
    boards: list[BoardLine] = [await carol.next_board()]  # after the opening roll
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    boards.append(await carol.next_board())  # after alice's move
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await carol.expect("bob rolls 6 and 5.")
    boards.append(await carol.next_board())  # after bob's roll
    await bob.send("1-7 7-12")
    boards.append(await carol.next_board())  # after bob's move
    await alice.expect("It's your turn. Please roll or double")
    await alice.send("roll")
    boards.append(await carol.next_board())  # after alice's roll
    assert all(board.player == "bob" and board.opponent == "alice" for board in boards)
    assert all(board.colour == -1 for board in boards)  # bob is X in the first game
    assert boards[2].player_dice == (6, 5) and boards[4].opponent_dice == (4, 2)
    assert [board.turn for board in boards] == [1, -1, -1, 1, 1]
    # kibitz reaches players and watchers; whisper only the watchers
    await carol.send("kibitz nice")
    await carol.expect("19 nice")
    await carol.expect("** 2 users heard you.")
    await alice.expect("15 carol nice")
    await bob.expect("15 carol nice")
    await alice.send("whisper psst")
    await alice.expect("18 psst")
    await alice.expect("** 1 user heard you.")
    await carol.expect("14 alice psst")
    await bob.send("say hi")
    await bob.expect("16 alice hi")
    await alice.expect("12 bob hi")
    # look, show games, show watchers
    dave = await Player.join_server(running, "dave", ready=False)
    await dave.send("look alice")
    look = BoardLine.decode((await dave.client.read_until(lambda line: line.startswith("board:")))[-1])
    assert look.player == "alice" and look.colour == 1
    await dave.send("show games")
    assert (await dave.expect("List of games:")) and (await dave.client.read_line()).split() == [
        "alice", "-", "bob", "(3", "point", "match", "0-0)"]
    await dave.send("show watchers")
    await dave.expect("Watching players:")
    assert await dave.client.read_line() == "carol is watching bob."
    await carol.send("unwatch")
    await carol.expect("You stop watching bob.")
    await bob.expect("carol stops watching you.")
    await alice.expect("carol stops watching bob.")


async def test_a_watcher_gets_boards_as_his_own_toggles_ask(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice, bob, carol = await _match(running, dice, "3")  # carol: moreboards off (default)
    await carol.expect("Starting a new game with alice.")
    await carol.next_board()  # after the opening roll, to everyone
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await carol.next_board()  # after alice's move (autoboard on)
    await bob.expect("It's your turn. Please roll or double")
    await bob.send("roll")
    await bob.expect("Please move 2 pieces.")
    lines = await carol.command("toggle autoboard", "** The board won't be refreshed after every move.")
    await bob.send("1-7 7-12")
    await alice.expect("bob moves 1-7 7-12 .")
    await carol.send("whisper done")  # everything for carol before this arrives before it
    lines += await carol.expect("18 done")
    assert "bob rolls 6 and 5." in lines and "bob moves 1-7 7-12 ." in lines
    assert not any(line.startswith("board:") for line in lines)  # neither after the roll nor the move


async def test_finished_match_can_be_exported_from_inside_the_server(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    running = await start_server(dice=dice)
    alice, bob, carol = await _match(running, dice)
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await bob.expect("You roll 6 and 5.")  # a 1-point match: nobody is asked to double
    await bob.send("resign g")
    await alice.send("accept")
    # A gammon counts in full, as on FIBS: 2-0 in a 1-point match.
    await alice.expect("You win the 1 point match 2-0 .")
    await carol.expect("alice wins the 1 point match 2-0 .")
    await alice.send("export")
    await alice.expect("Your finished matches (type 'export <number>' for the .mat file):")
    summary = (await alice.client.read_line()).split()
    record_id = summary[0]
    assert "alice" in summary and "bob" in summary
    await alice.send(f"export {record_id}")
    lines = await alice.client.read_until(lambda line: "Wins" in line)
    text = "\n".join(lines) + "\n"
    parsed = parse_mat(text)
    assert parsed.length == 1 and len(parsed.games) == 1
    await carol.send(f"export {record_id}")
    await carol.expect(f"** You played no match number {record_id}.")
