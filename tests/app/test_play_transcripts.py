"""The verbs at the Outcome level, as transcripts: invite, join, watch, the match flow,
kibitz and whisper, a drop and the return into the running match, leave and resume.

Each step is one command line of one user through `tests.app.driver.CoreDriver`
(scripted dice, a manual clock), with every line each user was told. These run in
milliseconds; the end-to-end tests over TCP (`tests/server/`) cover the shell.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fibsd.app.play.table import Table
from fibsd.app.session import Session
from fibsd.domain.dice import ScriptedDice
from fibsd.rules import Match, MatchOptions
from fibsd.rules.position import side_to_hex
from tests.app.driver import CoreDriver

ALICE_PLAYS = ["5 alice bob - 1 0 1500.00 0 0 1700000000 127.0.0.1 driver -", "6"]
BOB_PLAYS = ["5 bob alice - 1 0 1500.00 0 0 1700000000 127.0.0.1 driver -", "6"]
# Everyone else hears of status changes in a batch after the lines of the command
# (issue 31: status changes are announced together); each user its own at once.
WHO_ALICE_PLAYS = [ALICE_PLAYS[0], BOB_PLAYS[0], "6"]
OPENING = "board:{}:{}:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
AFTER_ALICE = "board:{}:{}:3:0:0:0:-2:0:0:0:2:4:0:2:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0"


def _three(dice: ScriptedDice) -> CoreDriver:
    driver = CoreDriver(dice)
    driver.create("alice", "bob", "carol", ready=True)
    for name in ("alice", "bob", "carol"):
        driver.log_in(name)
        driver.send(name, "set boardstyle 3")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    return driver


def _playing(driver: CoreDriver) -> None:
    """carol watches alice; alice invites bob to 3 points; bob joins; alice opens 3-1."""
    driver.send("carol", "watch alice")
    driver.send("alice", "invite bob 3")
    driver.send("bob", "join alice")
    for name in ("alice", "bob", "carol"):
        driver.take(name)


def test_invite_watch_join_and_the_opening_roll() -> None:
    driver = _three(ScriptedDice([3, 1], coin=0))
    assert driver.send("alice", "invite bob 3") == ["** You invited bob to a 3 point match."]
    assert driver.take("bob") == ["alice wants to play a 3 point match with you.",
                                  "Type 'join alice' to accept."]
    assert driver.send("carol", "watch alice") == [
        "You're now watching alice.", "alice is not doing anything interesting.",
        "5 carol - alice 1 0 1500.00 0 0 1700000000 127.0.0.1 driver -", "6"]
    assert driver.take("alice") == [
        "carol is watching you.", "5 carol - alice 1 0 1500.00 0 0 1700000000 127.0.0.1 driver -", "6"]
    assert driver.send("bob", "join alice") == BOB_PLAYS + [
        "** You are now playing a 3 point match with alice",
        "Starting a new game with alice.",
        "You rolled 1, alice rolled 3",
        "alice makes the first move.",
        "board:You:alice:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:3:1:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:0",
    ] + ALICE_PLAYS
    assert driver.take("alice") == ALICE_PLAYS + [
        "** Player bob has joined you for a 3 point match.",
        "Starting a new game with bob.",
        "You rolled 3, bob rolled 1",
        "It's your turn to move.",
        OPENING.format("You", "bob"),
    ] + BOB_PLAYS
    assert driver.take("carol") == [
        "alice and bob start a 3 point match.",
        "Starting a new game with bob.",  # the watched player's opponent
        "alice rolled 3, bob rolled 1",
        "alice makes the first move.",
        OPENING.format("alice", "bob"),
    ] + WHO_ALICE_PLAYS


def test_a_move_a_roll_and_in_game_chat() -> None:
    driver = _three(ScriptedDice([3, 1, 6, 5], coin=0))
    _playing(driver)
    assert driver.send("alice", "move 8-5 6-5") == [AFTER_ALICE.format("You", "bob")]
    assert driver.take("bob") == [
        "alice moves 8-5 6-5 .",
        "board:You:alice:3:0:0:0:-2:0:0:0:2:4:0:2:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:0:0:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:0:0:0:0",
        "It's your turn. Please roll or double",
    ]
    assert driver.take("carol") == ["alice moves 8-5 6-5 .", AFTER_ALICE.format("alice", "bob")]
    assert driver.send("alice", "roll") == ["** It's not your turn to roll the dice."]
    assert driver.send("bob", "roll") == ["You roll 6 and 5.", "Please move 2 pieces."]
    assert driver.take("alice") == ["bob rolls 6 and 5."]  # moreboards is off
    assert driver.take("carol") == ["bob rolls 6 and 5."]
    assert driver.send("carol", "kibitz nice") == ["19 nice", "** 2 users heard you."]
    assert driver.take("alice") == ["15 carol nice"]  # kibitz: players and watchers
    assert driver.send("alice", "whisper psst") == ["18 psst", "** 1 user heard you."]
    assert driver.take("bob") == ["15 carol nice"]  # a whisper is for watchers only
    assert driver.take("carol") == ["14 alice psst"]
    assert driver.send("bob", "say hi") == ["16 alice hi"]
    assert driver.take("alice") == ["12 bob hi"]


def test_a_dropped_player_comes_back_into_the_running_match() -> None:
    driver = _three(ScriptedDice([3, 1, 6, 5], coin=0))
    _playing(driver)
    driver.send("alice", "move 8-5 6-5")
    driver.send("bob", "roll")
    for name in ("alice", "carol"):
        driver.take(name)
    driver.log_out("bob")  # the connection drops
    # The notice to everyone (CLIP 8) follows the lines of the drop itself.
    assert driver.take("alice") == ["bob drops connection. The game was saved.",
                                    "8 bob bob drops connection."]
    assert driver.send("alice", "roll") == ["** You're not playing."]  # as FIBS says it
    assert driver.send("alice", "toggle extensions")[0].startswith("** You will be told")
    assert driver.send("alice", "roll") == [
        "** bob is not connected. Please wait for bob to come back, or type 'leave'."]
    driver.clock.advance(60)
    driver.log_in("bob")
    bob = driver.take("bob")
    assert bob[bob.index("You are now playing with alice. Your running match was loaded."):] == [
        "You are now playing with alice. Your running match was loaded.",
        "turn: bob.", "match length: 3", "points for alice: 0", "points for bob: 0",
        "board:You:alice:3:0:0:0:-2:0:0:0:2:4:0:2:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:6:5:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:0",
        "Please move 2 pieces.",
        "5 bob alice - 1 0 1500.00 0 0 1700000060 127.0.0.1 driver -", "6",
    ]
    alice = driver.take("alice")
    assert "bob has joined you. Your running match was loaded." in alice
    assert driver.send("bob", "move 1-7 7-12")[0].startswith("board:You:alice:")
    assert driver.take("alice")[0] == "bob moves 1-7 7-12 ."


def test_leave_saves_the_match_and_invite_resumes_it() -> None:
    driver = _three(ScriptedDice([3, 1], coin=0))
    _playing(driver)
    driver.send("alice", "move 8-5 6-5")
    for name in ("bob", "carol"):
        driver.take(name)
    assert driver.send("bob", "leave")[0] == "** You terminated the game. The game was saved."
    assert driver.take("alice")[0] == "** Player bob has left the game. The game was saved."
    assert driver.send("alice", "show saved") == [
        "  opponent          matchlength   score (your points first)",
        "**bob                     3                0 -  0",  # bob is online
    ]
    assert driver.send("alice", "invite bob") == ["** You invited bob to resume a saved match."]
    assert driver.take("bob") == ["alice wants to resume a saved match with you.",
                                  "Type 'join alice' to accept."]
    bob = driver.send("bob", "join alice")
    assert bob[bob.index("You are now playing with alice. Your running match was loaded."):] == [
        "You are now playing with alice. Your running match was loaded.",
        "turn: bob.", "match length: 3", "points for alice: 0", "points for bob: 0",
        "board:You:alice:3:0:0:0:-2:0:0:0:2:4:0:2:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:0:0:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:0:0:0:0",
        "It's your turn. Please roll or double",
    ] + ALICE_PLAYS
    assert driver.take("carol")[-4] == "alice and bob are resuming their 3-point match."


def _endgame(driver: CoreDriver, length: int) -> dict[str, Any]:
    """A saved match, 0-0: alice (on roll) has one checker left on her 1-point, bob has
    borne off none (a gammon)."""
    match = Match(MatchOptions(length=length))
    match.opening_roll(3, 1)
    table: Table[Session] = Table(
        match, ("alice", "bob"), clock=driver.clock, dice=ScriptedDice(), roll_counts=Counter(),
        first_o_seat=0, started_at=driver.clock.now(), opening_done=True)
    data = table.saved_state()
    game = data["match"]["game"]
    game["sides"] = [side_to_hex((14, 1) + (0,) * 24), side_to_hex((0,) * 6 + (15,) + (0,) * 19)]
    game["phase"], game["turn"], game["dice"] = "AWAITING_ROLL", 0, None
    return data


def test_no_board_comes_between_a_games_last_move_and_its_result() -> None:
    """Issue 20 §5: FIBS sends no board after the move that wins a game; the result line
    follows the move (docs/compatibility.md, "No board after a game's last move"). A
    board there already carried the new score, and Gibbon added the win line's points
    to it once more ("Score: 4" after a 2-point win)."""
    driver = _three(ScriptedDice([6, 5]))
    assert all(session.account.toggles.autoboard for session in driver.sessions.values())
    driver.store.save_match("alice", "bob", _endgame(driver, length=3), driver.clock.now())
    driver.send("carol", "watch alice")
    driver.send("alice", "invite bob")
    driver.send("bob", "join alice")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    assert driver.send("alice", "roll")[-2:] == ["You roll 6 and 5.", "Please move 1 pieces."]
    driver.take("bob")
    driver.take("carol")

    alice = driver.send("alice", "move 1-off")
    assert alice[:3] == ["You win the game and get 2 points. Congratulations!",
                         "score in 3 point match: alice-2 bob-0",
                         "Type 'join' if you want to play the next game, type 'leave' if you don't."], alice
    assert driver.take("bob")[:3] == ["alice moves 1-off .",
                                      "alice wins the game and gets 2 points. Sorry.",
                                      "score in 3 point match: bob-0 alice-2"]
    assert driver.take("carol")[:3] == ["alice moves 1-off .", "alice wins the game and gets 2 points.",
                                        "score in 3 point match: alice-2 bob-0"]
    # Asked for, the board shows the game's end and the new score.
    assert driver.send("bob", "board")[-1].startswith("board:You:alice:3:0:2:")
