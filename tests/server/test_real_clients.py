"""End-to-end (issue 13): what real FIBS clients see, as exact transcripts.

Each test replays what a real client does (GNU Gibbon's start-up, MatchDog's 1-point
match) or checks what a CLIP client that knows only FIBS receives: nothing outside FIBS's
catalogue unless it opted in with `toggle extensions` (docs/compatibility.md).
"""

from __future__ import annotations

from typing import Any

from fibsd.domain.dice import ScriptedDice
from fibsd.domain.matfile import parse_mat
from protocol.messages import TextLine, UnknownLine, parse_server_line
from protocol.wording import EXTENSION_LINES
from tests.server.client import TestClient
from tests.server.helpers import clip_login, register, telnet_login
from tests.server.players import Player

NEXT_GAME = "Type 'join' if you want to play the next game, type 'leave' if you don't."
COMMITTED = "** The dice of this match are committed: fibsd-dice-v1 "
SEED = "** The dice seed of this match was "


async def test_a_fresh_account_starts_as_gibbon_does(start_server: Any) -> None:
    """GNU Gibbon's first commands after login. It waits for `show saved` to end before
    it sends `set boardstyle 3`; its lexer ends the listing only at the header's partner."""
    running = await start_server()
    await register(running, "newbie")
    client, greeting = await clip_login(running, "newbie", client_name="Gibbon_0.2.0")
    assert greeting[:2] == [
        "1 newbie 1700000000 127.0.0.1",
        "2 newbie 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC",
    ]
    assert greeting[-2:] == ["5 newbie - - 0 0 1500.00 0 0 1700000000 127.0.0.1 Gibbon_0.2.0 -", "6"]
    await client.send("show saved")
    assert await client.read_until("no saved games.") == [
        "  opponent          matchlength   score (your points first)",
        "no saved games.",
    ]
    await client.send("set boardstyle 3")
    assert await client.read_until(lambda line: True) == ["Value of 'boardstyle' set to 3."]
    await client.send("rawwho newbie")
    assert await client.read_until("6") == [
        "5 newbie - - 0 0 1500.00 0 0 1700000000 127.0.0.1 Gibbon_0.2.0 -",
        "6",
    ]


def _outside_fibs(lines: list[str]) -> list[str]:
    """The lines a client that knows only FIBS could not place: unparseable ones and
    fibsd's own extension lines."""
    outside = []
    for line in lines:
        event = parse_server_line(line)
        if isinstance(event, UnknownLine) or (isinstance(event, TextLine) and event.text in EXTENSION_LINES):
            outside.append(line)
    return outside


async def _drain(client: TestClient) -> list[str]:
    """Everything `client` was sent so far (read up to the answer to `time`, left out)."""
    await client.send("time")
    return (await client.read_until(lambda line: line.endswith(" UTC )")))[:-1]


async def test_a_match_seen_by_a_fibs_client_a_telnet_user_and_a_watcher(start_server: Any) -> None:
    running = await start_server()  # seeded dice: the match is committed and revealed
    for name in ("alice", "bob", "carol"):
        await register(running, name)
    alice_client, _ = await clip_login(running, "alice")  # a FIBS client
    alice, after_login = Player("alice", alice_client), len(alice_client.lines)
    await alice.command("set boardstyle 3", "Value of 'boardstyle' set to 3.")
    await alice.command("toggle ready", "** You're now ready to invite or join someone.")
    bob, _ = await telnet_login(running, "bob")  # a person with telnet
    carol_client, _ = await clip_login(running, "carol")  # a FIBS client watching
    carol, carol_after_login = Player("carol", carol_client), len(carol_client.lines)
    await carol.command("set boardstyle 3", "Value of 'boardstyle' set to 3.")
    await carol.command("watch alice", "You're now watching alice.")
    await bob.send("toggle ready")
    await bob.expect_prompt("> ")
    await alice.send("invite bob 1")
    await bob.read_until(lambda line: line.startswith("Type 'join alice' to accept."))
    await bob.send("join alice")
    # Whoever opens resigns; the other accepts: a complete 1-point match.
    opening = await bob.read_until(lambda line: line in ("It's your turn to move.", "alice makes the first move."))
    assert any(line.startswith(COMMITTED) for line in opening)  # the telnet user sees it
    if opening[-1] == "It's your turn to move.":
        await bob.send("resign n")
        await alice.expect("bob wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
        await alice.send("accept")
        winner = "alice"
    else:
        await alice.expect("It's your turn to move.")
        await alice.send("resign n")
        await bob.read_until("alice wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
        await bob.send("accept")
        winner = "bob"
    ended = f"{winner} wins the 1 point match 1-0 ."
    assert any(line.startswith(SEED) for line in await bob.read_until(lambda line: line.startswith(SEED)))
    await carol.expect(ended)
    # (The greeting's message of the day is the operator's text, not FIBS's catalogue.)
    alice_lines = alice.client.lines[after_login:] + await _drain(alice.client)
    carol_lines = carol.client.lines[carol_after_login:] + await _drain(carol.client)
    assert len(alice_lines) > 20 and len(carol_lines) > 10
    assert _outside_fibs(alice_lines) == []
    assert _outside_fibs(carol_lines) == []
    # What the lines told, a FIBS client can still ask for: the commitment and the seed.
    await alice.send("show dice")
    shown = [await alice.client.read_line(), await alice.client.read_line()]
    assert shown[0].startswith(COMMITTED) and shown[1].startswith(SEED)
    assert shown == [line for line in bob.lines if line.startswith((COMMITTED, SEED))]


async def test_gammon_from_four_one_wins_the_five_point_match_six_one(start_server: Any) -> None:
    dice = ScriptedDice(coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await alice.send("invite bob 5")
    await bob.expect("Type 'join alice' to accept.")
    # Alice's die comes first: 1-3 opens for bob, 3-1 for alice; the opener resigns.
    for game, (loser, winner, kind) in enumerate([
        (bob, alice, "n"), (bob, alice, "n"), (bob, alice, "n"), (bob, alice, "n"),
        (alice, bob, "n"),  # the Crawford game: 4-1
        (bob, alice, "g"),  # a gammon in the post-Crawford game
    ]):
        dice.extend([1, 3] if loser is bob else [3, 1])
        if game == 0:
            await bob.send("join alice")
        else:
            await alice.send("join")
            await bob.send("join")
        await loser.expect("It's your turn to move.")
        board = await loser.next_board()  # the score fields agree with the lines
        assert (board.player_score, board.opponent_score) == ((4, 0) if game == 4 else (1, 4) if game == 5 else (0, game))
        await loser.send(f"resign {kind}")
        # A client accepts what it was offered: wait for the offer. (Sent at once, the
        # accept can be handled while the offer's own lines still wait for their commit,
        # and then the winner reads the offer only after the end of the match.)
        offer = await winner.client.read_until(lambda line: "wants to resign" in line)
        await winner.send("accept")
        if game < 5:
            await winner.expect(NEXT_GAME)
    assert offer[-1] == "bob wants to resign. You will win 2 points. Type 'accept' or 'reject'."
    lines = await alice.expect("You win the 5 point match 6-1 .")
    assert lines == [
        "You accept and win 2 points.",
        "You win the 5 point match 6-1 .",
    ]
    lines = await bob.expect("alice wins the 5 point match 6-1 .")
    assert lines[-2:] == ["alice accepts and wins 2 points.", "alice wins the 5 point match 6-1 ."]
    # Every record agrees with the points announced: the stored result, the ratings'
    # input, the .mat export.
    record = running.server.store.match_records_of("alice")[0]
    assert record.score == (6, 1) and record.winner == 0 and record.length == 5
    await alice.send(f"export {record.id}")
    exported = await alice.client.read_until(lambda line: "and the match" in line)
    mat = parse_mat("\n".join(exported[next(i for i, line in enumerate(exported) if line.startswith("; [")):]) + "\n")
    assert len(mat.games) == 6
    assert " alice : 4" in "\n".join(exported) and "Wins 2 points and the match" in exported[-1]


async def test_a_one_point_match_never_asks_to_roll_or_double(start_server: Any) -> None:
    """MatchDog invited to a 1-point match waits for the server's roll: the cube is dead."""
    dice = ScriptedDice([3, 1, 6, 5, 4, 2], coin=0)
    running = await start_server(dice=dice)
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    await alice.send("invite bob 1")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await bob.expect("You roll 6 and 5.")  # rolled for him at once
    await bob.expect("Please move 2 pieces.")
    await bob.send("1-7 7-12")
    await alice.expect("You roll 4 and 2.")
    await alice.expect("Please move 2 pieces.")
    for player in (alice, bob):
        assert "It's your turn. Please roll or double" not in player.client.lines
    await alice.send("double")
    await alice.expect("** You can only double before you roll the dice.")
