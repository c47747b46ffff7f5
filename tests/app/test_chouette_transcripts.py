"""Chouettes at the Outcome level, as transcripts: client lines in, each user's lines out.

Every rotation case of the specification's §1.13 (R1-R10 and `rotation=acting`) and its
settlement scenarios of §1.19 (T1-T5, T7, T8), played through `tests.app.driver.
CoreDriver` with scripted dice on set-up boards (the positions of `tests/chouette/
helpers.py`, set through `ChouetteTable.board_factory` as the dice are scripted). What
each case checks is what a player sees: the `Chouette: game N over. … Next: …` line (the
deltas and the next queue), the answers, the refusals. The engine's own tests
(`tests/chouette/`) check the same cases on the rules alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from fibsd.app import chouettes
from fibsd.app.session import Departure
from fibsd.domain.dice import ScriptedDice
from tests.app.driver import CoreDriver
from tests.chouette.helpers import (
    BOX_SINGLE,
    TEAM_BACKGAMMONED,
    TEAM_GAMMONED,
    board,
)

Q = ["bx", "cp", "ta", "tb", "tc"]
#: A checker-playing side bears its last two checkers off its 1-point with 2-1:
BOX_OFF = "move 1-off 1-off"  # the box plays O: his 1-point is point 1
TEAM_OFF = "move 24-off 24-off"  # the team plays X: its 1-point is point 24
#: The helpers' shuffles: two checkers from the own 13-point to 11 and 12, with 2-1.
BOX_SHUFFLE = "move 13-11 13-12"
TEAM_SHUFFLE = "move 12-14 12-13"


def is_who_info(line: str) -> bool:
    """CLIP 5/6 (who-info): every CLIP user gets them when a player's opponent changes;
    `test_who_info_*` checks them, the transcripts leave them out."""
    return line.startswith("5 ") or line == "6"


def no_who(lines: list[str]) -> list[str]:
    return [line for line in lines if not is_who_info(line)]


def order_dice(count: int) -> list[int]:
    """Dice for the initial order that put `count` players in the order they sat down:
    6, 5, 4, … and, past six players, the ones who tied on 1 roll again (C21)."""
    dice: list[int] = []
    while True:
        rolled = [max(1, 6 - index) for index in range(count)]
        dice += rolled
        count = rolled.count(1)
        if count <= 1:
            return dice


class Chouette:
    """A chouette of `names` (the first creates it) in this order, on a set-up board."""

    def __init__(self, names: Sequence[str] = Q, settings: str = "",
                 box: dict[int, int] | None = None, team: dict[int, int] | None = None,
                 turn: int = 0, *, start: bool = True, **config: object) -> None:
        self.dice = ScriptedDice()
        self.driver = CoreDriver(self.dice, **config)
        self.names = list(names)
        #: Everything each user was told (board lines left out), for `over_line`.
        self.heard: dict[str, list[str]] = {name: [] for name in names}
        self.driver.create(*names)
        for name in names:
            self.driver.log_in(name)
            self.driver.send(name, "set boardstyle 3")
        owner = names[0]
        self.driver.send(owner, f"chouette create {settings}".strip())
        for name in names[1:]:
            self.driver.send(name, f"chouette join {owner}")
        table = self.driver.sessions[owner].chouette
        assert table is not None
        self.table = table
        if box is not None and team is not None:
            table.board_factory = lambda: board(box, team, turn)
        if start:
            self.dice.extend(order_dice(len(names)))
            self.send(owner, "chouette start")
        self.take_all()

    def send(self, name: str, line: str, dice: Sequence[int] = ()) -> list[str]:
        """`name` types `line` (with these dice scripted first); what `name` is told,
        without the board lines."""
        self.dice.extend(dice)
        self.take(name)
        self.driver.feed(self.driver.sessions[name], line)
        return self.take(name)

    def take(self, name: str) -> list[str]:
        lines = [line for line in self.driver.take(name)
                 if not line.startswith("board:") and not is_who_info(line)]
        self.heard.setdefault(name, []).extend(lines)
        return lines

    def take_all(self) -> None:
        for name in self.driver.sessions:
            self.take(name)

    def over_line(self) -> str:
        """The last game's result line, as the owner heard it."""
        owner = self.names[0]
        self.take(owner)
        lines = [line for line in self.heard[owner] if " over. " in line]
        assert lines, self.heard[owner]
        return lines[-1]


def box_wins(settings: str = "", names: Sequence[str] = Q) -> Chouette:
    return Chouette(names, settings, box={1: 2}, team=TEAM_GAMMONED, turn=0)


def team_wins(settings: str = "", names: Sequence[str] = Q) -> Chouette:
    return Chouette(names, settings, box=BOX_SINGLE, team={1: 2}, turn=1)


# ------------------------------------------------------------------ the whole flow


def test_create_join_start_and_the_first_moves_as_each_player_sees_them() -> None:
    dice = ScriptedDice([6, 5, 3, 3, 1, 6, 5])
    driver = CoreDriver(dice)
    driver.create("alice", "bob", "carol")
    for name in ("alice", "bob", "carol"):
        driver.log_in(name)
        driver.send(name, "set boardstyle 3")
    created = driver.send("alice", "chouette create")
    assert created[0].startswith("Chouette: alice opens chouette 1 (cubes=multi, consult=cube, jacoby=on,")
    assert created[0].endswith("Others type 'chouette join alice'.")
    assert driver.send("bob", "chouette join alice") == ["Chouette: bob joins (2 seated)."]
    assert driver.send("carol", "chouette join alice") == ["Chouette: carol joins (3 seated)."]
    assert driver.take("alice") == ["Chouette: bob joins (2 seated).", "Chouette: carol joins (3 seated)."]
    assert driver.take("bob") == ["Chouette: carol joins (3 seated)."]
    started = [
        "Chouette: for the order: alice 6, bob 5, carol 3.",
        "Chouette: the order is alice, bob, carol.",
        "Chouette: game 1. Box: alice. Captain: bob. Crew: carol.",
    ]
    assert no_who(driver.send("alice", "chouette start")) == started + [
        "You rolled 3, bob rolled 1",
        "It's your turn to move.",
        # (the last field: one instant redouble, the beaver this table allows)
        "board:You:bob:9999:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:1",
    ]
    assert no_who(driver.take("bob")) == started + [
        "You rolled 1, alice rolled 3",
        "alice makes the first move.",
        # (turn 1: O, the box, moves; the dice 3-1 on the opponent's side)
        "board:You:alice:9999:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:3:1:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:1",
    ]
    # carol (crew) sees the captain's board, as a watcher of bob, with her own cube.
    assert no_who(driver.take("carol")) == started + [
        "alice rolled 3, bob rolled 1",
        "alice makes the first move.",
        "board:bob:alice:9999:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:3:1:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:1",
    ]
    assert driver.send("carol", "roll") == ["** Only the box and the captain roll and move."]
    driver.send("alice", "move 8-5 6-5")
    assert [line for line in driver.take("bob") if not line.startswith("board:")] == [
        "alice moves 8-5 6-5 .", "It's your turn. Please roll or double"]
    assert driver.send("carol", "double") == ["Chouette: carol doubles alice."]
    assert driver.send("bob", "roll") == ["** Wait: doubles are still unanswered."]
    assert driver.send("alice", "accept bob") == [
        "** Nobody doubled you there, or you doubled nobody of those."]
    assert driver.send("alice", "accept")[0] == "Chouette: alice takes carol's double: the cube is 2."
    # Carol's board shows her cube: 2, and alice (who took it) may redouble; bob's shows
    # his own cube, still centred.
    carol_board = [line for line in driver.take("carol") if line.startswith("board:")][-1]
    bob_board = [line for line in driver.take("bob") if line.startswith("board:")][-1]
    assert carol_board.split(":")[37:40] == ["2", "0", "1"]  # cube, may double: carol, alice
    assert bob_board.split(":")[37:40] == ["1", "1", "1"]
    assert driver.send("bob", "roll")[:1] == ["You roll 6 and 5."]
    show = driver.send("alice", "chouette show")
    assert show[1:] == [
        "Queue: alice (box), bob (captain), carol",
        "Game 1: box alice, captain bob, turn: bob (awaiting_move)",
        "  bob against alice: cube 1, centred, in play",
        "  carol against alice: cube 2, alice's, in play",
        "Waiting for: bob",
    ]


def test_refusals_outside_and_inside_a_chouette() -> None:
    driver = CoreDriver(ScriptedDice())
    driver.create("dan", "eve")
    driver.log_in("dan")
    driver.log_in("eve")
    assert driver.send("dan", "chouette show") == ["** You are not at a chouette."]
    assert driver.send("dan", "chouette list") == [
        "** There are no chouettes. Type 'chouette create' to open one."]
    assert driver.send("dan", "chouette join eve") == ["** eve is not at a chouette."]
    assert driver.send("dan", "chouette create cubes=triple")[0].startswith("** Chouette setting ")
    driver.send("dan", "chouette create")
    assert driver.send("dan", "chouette create") == [
        "** You are already at a chouette. Type 'chouette leave' first."]
    assert driver.send("dan", "chouette start") == [
        "** A chouette needs at least 3 players to start (2 to go on)."]
    assert driver.send("eve", "chouette join dan") == ["Chouette: eve joins (2 seated)."]
    assert driver.send("eve", "chouette close") == ["** Only the chouette's owner (dan) may do that."]
    assert driver.send("eve", "invite dan 1") == [
        "** You are at a chouette: play there, or type 'chouette leave'."]
    assert driver.send("eve", "roll") == ["** You're not playing."]
    driver.create("fay")
    driver.log_in("fay")
    driver.send("fay", "toggle ready")
    assert driver.send("fay", "invite eve 1") == ["** eve is already playing with someone else."]
    driver.send("dan", "toggle ready")
    driver.send("fay", "invite dan 1")
    assert driver.send("dan", "join fay") == [
        "** You are at a chouette: play there, or type 'chouette leave'."]
    assert driver.send("eve", "chouette leave") == ["Chouette: eve leaves."]
    assert driver.send("dan", "chouette list") == [
        "Chouettes (number, owner, seated, stage, settings):", "  1 dan 1 gathering multi"]
    assert driver.send("dan", "chouette close") == ["Chouette: the chouette is closed; no game was played."]
    assert driver.send("dan", "chouette show") == ["** You are not at a chouette."]


# ------------------------------------------------------------------ rotation (§1.13)


def test_r1_box_beats_captain_on_the_board() -> None:
    c = box_wins()
    assert c.send("bx", "roll", [2, 1]) == ["You roll 2 and 1.", "Please move 2 pieces."]
    c.send("bx", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx +4, cp -1, ta -1, tb -1, tc -1. Next: bx, ta, tb, tc, cp."


def test_r2_captain_beats_box() -> None:
    c = team_wins()
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx -4, cp +1, ta +1, tb +1, tc +1. Next: cp, ta, tb, tc, bx."


def test_r3_split_results_are_ignored() -> None:
    c = Chouette(Q, box={1: 4}, team=TEAM_GAMMONED, turn=0)
    assert c.send("bx", "double tb") == ["Chouette: bx doubles tb."]
    assert c.send("tb", "accept") == ["Chouette: tb has answered (answers are shown together).",
                                      "Chouette: tb takes bx's double: the cube is 2."]
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_OFF)
    assert c.send("tb", "double") == ["Chouette: tb doubles bx."]
    assert c.send("bx", "reject") == ["Chouette: bx drops tb's double and pays 2."]
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_SHUFFLE)
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx +1, cp -1, ta -1, tb +2, tc -1. Next: bx, ta, tb, tc, cp."


def test_r4_box_drops_captains_double_and_beats_the_acting_captain() -> None:
    c = Chouette(Q, box={1: 2}, team=TEAM_GAMMONED, turn=1)
    c.send("cp", "double")
    assert c.send("bx", "reject") == ["Chouette: bx drops cp's double and pays 1.",
                                      "Chouette: ta is captain now."]
    assert c.send("cp", "roll") == ["** Only the box and the captain roll and move."]
    c.send("ta", "roll", [2, 1])
    c.send("ta", TEAM_SHUFFLE)
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_OFF)
    assert c.over_line().endswith("Next: cp, ta, tb, tc, bx.")


def _r5(settings: str, team_board: dict[int, int]) -> Chouette:
    box_board = {1: 2} if team_board is TEAM_GAMMONED else BOX_SINGLE
    c = Chouette(Q, settings, box=box_board, team=team_board, turn=0)
    assert c.send("bx", "double") == ["Chouette: bx doubles cp, ta, tb, tc."]
    assert c.send("cp", "reject") == ["Chouette: cp has answered (answers are shown together)."]
    c.send("ta", "accept")
    c.send("tb", "accept")
    # The last answer reveals them all; the box, with nothing left to double, rolls.
    assert c.send("tc", "reject", [2, 1]) == [
        "Chouette: tc has answered (answers are shown together).",
        "Chouette: cp drops bx's double and pays 1.",
        "Chouette: ta takes bx's double: the cube is 2.",
        "Chouette: tb takes bx's double: the cube is 2.",
        "Chouette: tc drops bx's double and pays 1.",
        "Chouette: ta is captain now.",
        "bx rolls 2 and 1.",
    ]
    return c


def test_r5_dropped_captain_goes_to_the_end_and_the_box_beats_t2() -> None:
    c = _r5("", TEAM_GAMMONED)
    c.send("bx", BOX_OFF)
    assert c.over_line() == (
        # Jacoby: ta's and tb's cubes were turned, so their gammons count.
        "Chouette: game 1 over. bx +10, cp -1, ta -4, tb -4, tc -1. Next: bx, tb, tc, cp, ta.")


def test_r6_as_r5_but_t2_beats_the_box() -> None:
    c = _r5("", {1: 2})
    c.send("bx", BOX_SHUFFLE)
    c.send("ta", "roll", [2, 1])
    c.send("ta", TEAM_OFF)
    assert c.over_line().endswith("Next: ta, tb, tc, cp, bx.")


def test_r5_r6_with_rotation_acting() -> None:
    c = _r5("rotation=acting", TEAM_GAMMONED)
    c.send("bx", BOX_OFF)
    assert c.over_line().endswith("Next: bx, ta, tb, tc, cp.")
    c = _r5("rotation=acting", {1: 2})
    c.send("bx", BOX_SHUFFLE)
    c.send("ta", "roll", [2, 1])
    c.send("ta", TEAM_OFF)
    assert c.over_line().endswith("Next: bx, ta, tb, tc, cp.")


def test_r7_all_drop_the_box_double() -> None:
    c = box_wins()
    c.send("bx", "double")
    for name in ("cp", "ta", "tb", "tc"):
        c.send(name, "reject")
    assert c.over_line() == "Chouette: game 1 over. bx +4, cp -1, ta -1, tb -1, tc -1. Next: bx, ta, tb, tc, cp."


def test_r8_box_drops_every_team_double() -> None:
    c = team_wins()
    for name in ("cp", "ta", "tb", "tc"):
        assert c.send(name, "double") == [f"Chouette: {name} doubles bx."]
    assert c.send("bx", "reject")[:4] == [f"Chouette: bx drops {name}'s double and pays 1."
                                          for name in ("cp", "ta", "tb", "tc")]
    assert c.over_line() == "Chouette: game 1 over. bx -4, cp +1, ta +1, tb +1, tc +1. Next: cp, ta, tb, tc, bx."


def test_r9_five_players_lone_taker_forced_to_drop() -> None:
    c = box_wins()
    c.send("bx", "double")
    for name in ("cp", "ta", "tb"):
        c.send(name, "reject")
    revealed = c.send("tc", "accept")
    assert "Chouette: the five-or-more rule changes tc's answer." in revealed
    assert "Chouette: tc drops bx's double and pays 1." in revealed
    assert c.over_line() == "Chouette: game 1 over. bx +4, cp -1, ta -1, tb -1, tc -1. Next: bx, ta, tb, tc, cp."


def test_r10_newcomer_joins_mid_game_at_the_end() -> None:
    c = team_wins()
    c.driver.create("nw")
    c.driver.log_in("nw")
    assert c.send("nw", "chouette join bx") == ["Chouette: nw joins (6 seated)."]
    assert c.send("nw", "roll") == ["** Only the box and the captain roll and move."]
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_OFF)
    assert c.over_line().endswith("Next: cp, ta, tb, tc, nw, bx.")


def test_r10_behind_the_loser() -> None:
    c = team_wins("join=behind_loser")
    c.driver.create("nw")
    c.driver.log_in("nw")
    c.send("nw", "chouette join bx")
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_OFF)
    assert c.over_line().endswith("Next: cp, ta, tb, tc, bx, nw.")


# ------------------------------------------------------------------ settlement (§1.19)


def test_t1_multi_box_doubles_all_then_a_redouble_is_dropped() -> None:
    c = Chouette(["alice", "bob", "carol", "dave"], "jacoby=off", box={1: 4}, team=TEAM_GAMMONED)
    c.send("alice", "double")
    c.send("bob", "accept")
    c.send("carol", "reject")
    # The last answer reveals them; the box has no cube left to double: he rolls.
    assert c.send("dave", "accept", [2, 1])[-1] == "alice rolls 2 and 1."
    c.send("alice", BOX_OFF)
    assert c.send("dave", "double") == ["Chouette: dave doubles alice."]
    assert c.send("alice", "reject dave") == ["Chouette: alice drops dave's double and pays 2."]
    c.send("bob", "roll", [2, 1])
    c.send("bob", TEAM_SHUFFLE, [2, 1])  # and the box rolls at once again
    c.send("alice", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. alice +3, bob -4, carol -1, dave +2. Next: alice, carol, dave, bob."


def test_t2_single_five_players_lone_taker_must_drop() -> None:
    c = Chouette(Q, "single jacoby=off", box={1: 4}, team=TEAM_GAMMONED)
    c.send("bx", "double")
    for name in ("cp", "ta", "tb"):
        c.send(name, "reject")
    assert "Chouette: the five-or-more rule changes tc's answer." in c.send("tc", "accept")
    assert c.over_line() == "Chouette: game 1 over. bx +4, cp -1, ta -1, tb -1, tc -1. Next: bx, ta, tb, tc, cp."


def test_t3_single_cube_extras_are_offered_and_the_clock_closes_them() -> None:
    names = ["bx", "cp", "ta", "tb"]
    c = Chouette(names, "single jacoby=off extras=on", box=BOX_SINGLE, team={1: 2})
    c.send("bx", "double")
    c.send("cp", "reject")
    c.send("ta", "reject")
    revealed = c.send("tb", "accept")
    assert "Chouette: tb is captain now." in revealed
    assert ("Chouette: cp, ta may each give tb an extra cube at 2 for 1"
            " (decided by the server after the answer time).") in revealed
    assert c.send("bx", "roll") == ["** Wait: the droppers may still give extra cubes."]
    # Nobody gives one (fibsd has no `extra` command yet): the answer time closes them.
    c.driver.clock.advance(60)
    c.dice.extend([2, 1])
    c.driver.apply(chouettes.tick(c.driver.registry))
    assert c.take("bx")[-2:] == ["You roll 2 and 1.", "Please move 2 pieces."]
    c.send("bx", BOX_SHUFFLE)
    c.send("tb", "roll", [2, 1])
    c.send("tb", TEAM_OFF)
    # (the engine's T3 with the extras given: tests/chouette/test_scenarios.py)
    assert c.over_line() == "Chouette: game 1 over. bx 0, cp -1, ta -1, tb +2. Next: tb, ta, cp, bx."


def test_t4_box_drops_the_captains_cube_and_takes_another() -> None:
    c = Chouette(["bx", "cp", "ta", "tb"], "", box={1: 2}, team=TEAM_BACKGAMMONED, turn=1)
    c.send("cp", "double")
    c.send("tb", "double")
    assert c.send("bx", "reject cp") == ["Chouette: bx drops cp's double and pays 1.",
                                         "Chouette: ta is captain now."]
    assert c.send("bx", "accept tb") == ["Chouette: bx takes tb's double: the cube is 2."]
    c.send("ta", "roll", [2, 1])
    c.send("ta", TEAM_SHUFFLE)
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx +6, cp +1, ta -1, tb -6. Next: cp, ta, tb, bx."


def test_t5_box_doubles_two_the_taker_becomes_captain_and_wins() -> None:
    c = Chouette(Q, "jacoby=off", box=BOX_SINGLE, team={1: 2})
    assert c.send("bx", "double cp ta") == ["Chouette: bx doubles cp, ta."]
    c.send("cp", "reject")
    c.send("ta", "accept")
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_SHUFFLE)
    c.send("ta", "roll", [2, 1])
    c.send("ta", TEAM_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx -3, cp -1, ta +2, tb +1, tc +1. Next: ta, tb, tc, cp, bx."


def test_t7_the_captain_drops_his_connection_and_follows_the_new_captain() -> None:
    # (answers wait up to 600 s here, longer than the 300 s of grace)
    c = Chouette(["bx", "cp", "ta", "tb"], "jacoby=off answer_seconds=600", box={1: 2},
                 team=TEAM_GAMMONED)
    c.send("bx", "double")
    c.send("ta", "accept")
    c.send("tb", "reject")
    c.take_all()
    c.driver.log_out("cp", Departure.DROPPED)
    assert "Chouette: cp dropped; 300 seconds to come back." in c.take("bx")
    c.driver.clock.advance(300)
    c.dice.extend([2, 1])  # the box rolls at once once the answers are in
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("bx")
    assert "Chouette: cp follows the captain's answer." in told
    assert "Chouette: cp takes bx's double: the cube is 2." in told
    c.send("bx", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx +9, cp -4, ta -4, tb -1. Next: bx, tb, cp, ta."


def test_t8_an_absent_box_settles_at_the_worst_result_still_possible() -> None:
    c = Chouette(["bx", "cp", "ta"], "jacoby=off", box={25: 1, 13: 14}, team={1: 6}, turn=1)
    c.send("cp", "double")
    c.send("bx", "accept")
    c.take_all()
    c.driver.log_out("bx", Departure.DROPPED)
    c.driver.clock.advance(299)
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("cp")
    assert "Chouette: bx (the box) dropped; 300 seconds to come back, or he abandons the game." in told
    assert "Chouette: bx leaves." not in told
    c.driver.clock.advance(1)  # box_absent_seconds (300) are over
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("cp")
    assert "Chouette: bx leaves." in told
    assert "Chouette: game 1 over. bx -9, cp +6, ta +3. Next: cp, ta." in told
    # Two players left: a table goes on with two (C18), so game 2 starts at once.
    assert "Chouette: game 2. Box: cp. Captain: ta. Crew: -." in told


def test_t6_the_box_takes_a_partner_from_eight_players_and_shares_a_loss() -> None:
    names = ["bx", "cp", "ta", "tb", "tc", "td", "te", "tf"]
    c = Chouette(names, "jacoby=off partner_pick=next", box=BOX_SINGLE, team={1: 2}, turn=1)
    assert c.send("cp", "chouette partner") == ["** Only the box may do that."]
    assert c.send("bx", "chouette partner") == ["Chouette: ta is the box's partner; cp is captain."]
    for name in ("cp", "tb", "tc", "td", "te", "tf"):
        c.send(name, "double")
    assert c.send("ta", "reject") == ["** Nobody doubled you there, or you doubled nobody of those."]
    c.send("bx", "reject cp tb tc td te")
    # tf, the only one left, is captain since the drops; nobody may double: he rolls.
    assert c.send("bx", "accept tf", [2, 1])[-2:] == [
        "Chouette: bx takes tf's double: the cube is 2.", "tf rolls 2 and 1."]
    c.send("tf", TEAM_OFF)
    # The box side lost 7: the box pays 4, his partner 3 (C53); the captain who beat the
    # box is box, the old partner captain, the box last (C63).
    assert c.over_line() == ("Chouette: game 1 over. bx -4, cp +1, ta -3, tb +1, tc +1, td +1, te +1,"
                             " tf +2. Next: cp, ta, tb, tc, td, te, tf, bx.")


def test_six_players_the_box_doubles_everyone_two_drop_their_connection_one_beavers() -> None:
    names = ["bx", "cp", "ta", "tb", "tc", "td"]
    c = Chouette(names, "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    assert c.send("bx", "double") == ["Chouette: bx doubles cp, ta, tb, tc, td."]
    c.send("cp", "accept")
    c.send("ta", "beaver")
    c.send("td", "reject")
    c.driver.log_out("tb", Departure.DROPPED)
    c.driver.log_out("tc", Departure.DROPPED)
    c.take_all()
    # The answer time (60 s) runs out first: the silent two follow the captain's take.
    c.driver.clock.advance(60)
    c.dice.extend([2, 1])
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("cp")
    assert told[:7] == [
        "Chouette: cp takes bx's double: the cube is 2.",
        "Chouette: ta beavers bx's double: the cube is 4.",
        "Chouette: tb follows the captain's answer.",
        "Chouette: tb takes bx's double: the cube is 2.",
        "Chouette: tc follows the captain's answer.",
        "Chouette: tc takes bx's double: the cube is 2.",
        "Chouette: td drops bx's double and pays 1.",
    ]
    assert told[-1] == "bx rolls 2 and 1."
    # The grace period runs out too: the two follow the captain from now on (C71).
    c.driver.clock.advance(240)
    c.driver.apply(chouettes.tick(c.driver.registry))
    assert c.take("cp") == ["Chouette: tb is away and follows the captain.",
                            "Chouette: tc is away and follows the captain."]
    c.send("bx", BOX_OFF)
    # Jacoby: every turned cube pays the gammon; ta's beavered cube is 4.
    assert c.over_line() == ("Chouette: game 1 over. bx +21, cp -4, ta -8, tb -4, tc -4, td -1."
                             " Next: bx, ta, tb, tc, td, cp.")
    heard = c.heard["bx"]
    assert "Chouette: tb sits out." in heard and "Chouette: tc sits out." in heard
    assert "Chouette: game 2. Box: bx. Captain: ta. Crew: td, cp." in heard
    # tb comes back: he plays again from the next game on.
    c.driver.log_in("tb")
    assert "Chouette: tb plays again." in c.take("tb")
    assert sum(c.table.engine.totals().values()) == 0


def test_the_table_resumes_after_a_restart_on_the_same_database() -> None:
    c = Chouette(["alice", "bob", "carol"], "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("alice", "double")
    c.send("bob", "accept")
    # The server stops without a word (kill -9): a new core on the same store.
    driver = CoreDriver(c.dice, store=c.driver.store, clock=c.driver.clock)
    for name in ("alice", "bob", "carol"):
        driver.log_in(name)
        driver.send(name, "set boardstyle 3")
    assert driver.send("carol", "chouette show")[1:] == [
        "Queue: alice (box), bob (captain), carol",
        "Game 1: box alice, captain bob, turn: alice (awaiting_roll)",
        "  bob against alice: cube 1, centred, doubled, waiting for the answer",
        "  carol against alice: cube 1, centred, doubled, waiting for the answer",
        "Waiting for: carol",
    ]
    c.dice.extend([2, 1])
    assert driver.send("carol", "accept")[-1] == "alice rolls 2 and 1."
    c.dice.extend([3, 1])  # game 2 opens with the usual opening roll
    driver.send("alice", BOX_OFF)
    over = [line for line in driver.take("bob") if " over. " in line]
    assert over == ["Chouette: game 1 over. alice +8, bob -4, carol -4. Next: alice, carol, bob."]
    assert driver.send("alice", "chouette score") == [
        "Chouette 1 score after 1 games (unrated):",
        "  alice +8 in 1 games (1 as box, 1 won; best +8, worst 0), seated",
        "  bob -4 in 1 games (0 as box, 0 won; best 0, worst -4), seated",
        "  carol -4 in 1 games (0 as box, 0 won; best 0, worst -4), seated",
    ]
    assert driver.send("bob", "chouette export")[1:] == [
        "Game 1: box alice, captain bob, box won: alice +8, bob -4, carol -4"]


def test_a_watcher_gets_the_captains_board_and_fibs_lines_but_no_chouette_lines() -> None:
    c = Chouette(["alice", "bob", "carol"], "", start=False)
    c.driver.create("wes")
    c.driver.log_in("wes")
    c.driver.send("wes", "set boardstyle 3")
    watched = c.driver.send("wes", "watch bob")
    assert watched[:2] == ["You're now watching bob.", "bob is not doing anything interesting."]
    c.dice.extend([6, 5, 4, 3, 1])
    c.send("alice", "chouette start")
    seen = c.driver.take("wes")
    assert seen[0] == "alice rolled 3, bob rolled 1"
    assert seen[1] == "alice makes the first move."
    assert seen[2].startswith("board:bob:alice:9999:")
    assert not [line for line in seen if line.startswith("Chouette:")]
    c.send("alice", "move 8-5 6-5")
    assert c.driver.take("wes")[0] == "alice moves 8-5 6-5 ."
    assert c.driver.send("wes", "board")[0].startswith("board:bob:alice:9999:")


def test_help_chouette_and_the_consultation_rules_on_talk() -> None:
    c = Chouette(["alice", "bob", "carol"], "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    helped = c.send("carol", "help chouette")
    assert helped[0] == "NAME" and len(helped) == 12
    assert "unrated" in helped[2].lower() or "Unrated" in helped[1]
    # consult=cube: the captain talks to the team; a crew member only once in the game.
    assert c.send("bob", "team hold") == ["Chouette: bob to the team: hold"]
    assert c.take("carol") == ["Chouette: bob to the team: hold"]
    assert c.take("alice") == []
    assert c.send("carol", "team no") == [
        "** The table's consultation rule does not let you talk to the team now."]
    assert c.send("carol", "tell bob psst") == [
        "** Not during the game: your chouette's consultation rule allows only 'team' talk."]
    assert c.send("carol", "boxside hi") == ["** Only the box and his partner talk on the box side."]
    assert c.send("alice", "boxside hi") == ["Chouette: alice to the box side: hi"]


def test_telnet_boards_get_a_header_line_with_the_viewers_own_cube() -> None:
    driver = CoreDriver(ScriptedDice([6, 5, 4, 3, 1]))
    driver.create("alice", "bob", "carol")
    for name in ("alice", "bob", "carol"):
        driver.log_in(name, clip=False)
    driver.send("alice", "chouette create")
    driver.send("bob", "chouette join alice")
    driver.send("carol", "chouette join alice")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    assert "Chouette 1, game 1: you are the box; captain bob." in driver.send("alice", "chouette start")
    assert "Chouette 1, game 1: box alice, captain bob; your cube 1." in driver.take("carol")
    driver.send("alice", "move 8-5 6-5")
    driver.send("carol", "double")
    driver.send("alice", "accept")
    assert "Chouette 1, game 1: box alice, captain bob; your cube 2." in driver.take("carol")


def test_t6_partner_by_offer_resignations_and_the_box_run_kept_when_the_box_wins() -> None:
    names = ["bx", "cp", "ta", "tb", "tc", "td", "te", "tf"]
    c = Chouette(names, "jacoby=off", box={1: 2}, team=TEAM_GAMMONED, turn=1)
    assert c.send("bx", "chouette partner") == [
        "Chouette: cp is offered to be the box's partner: 'chouette partner yes' or 'no'."]
    assert c.send("ta", "chouette partner yes") == ["** No partner is possible now."]
    assert c.send("cp", "chouette partner no") == [
        "Chouette: cp declines to be the box's partner.",
        "Chouette: tf is offered to be the box's partner: 'chouette partner yes' or 'no'."]
    # tf says nothing: the answer time declines for him; then te accepts.
    c.take_all()
    c.driver.clock.advance(60)
    c.driver.apply(chouettes.tick(c.driver.registry))
    assert c.take("te") == [
        "Chouette: tf declines to be the box's partner.",
        "Chouette: te is offered to be the box's partner: 'chouette partner yes' or 'no'."]
    assert c.send("te", "chouette partner yes")[0] == "Chouette: te is the box's partner; cp is captain."
    assert c.send("cp", "resign g") == [
        "Chouette: cp offers bx a gammon: 2 to pay. Type 'accept' or 'reject'."]
    assert c.send("bx", "accept")[:2] == ["Chouette: bx accepts the resignation.",
                                          "Chouette: ta is captain now."]
    assert c.send("bx", "resign n ta")[0] == "Chouette: bx offers ta a normal: 1 to pay. Type 'accept' or 'reject'."
    assert c.send("ta", "accept") == ["Chouette: ta accepts the resignation.", "Chouette: tb is captain now."]
    c.send("tb", "roll", [2, 1])
    c.send("tb", TEAM_SHUFFLE)
    c.send("bx", "roll", [2, 1])
    c.send("bx", BOX_OFF)
    # The box side won +2 (cp) -1 (ta) +2 x 4 (gammons) = 9: box 5, partner 4 (C53).
    # ta (captain for the rotation when cp resigned) beat the box: he is box, the old
    # partner captain (C63), cp (beaten) and the box at the end.
    assert c.over_line() == ("Chouette: game 1 over. bx +5, cp -2, ta +1, tb -2, tc -2, td -2, te +4,"
                             " tf -2. Next: ta, te, tb, tc, td, tf, cp, bx.")


def test_an_owner_who_leaves_hands_the_table_on_and_an_empty_table_closes() -> None:
    c = Chouette(["alice", "bob", "carol"], start=False)
    assert c.send("alice", "chouette leave") == ["Chouette: alice leaves."]
    assert c.take("bob") == ["Chouette: alice leaves.", "Chouette: bob owns the table now."]
    assert c.send("carol", "chouette close") == ["** Only the chouette's owner (bob) may do that."]
    c.send("carol", "chouette leave")
    c.send("bob", "chouette leave")
    assert c.send("bob", "chouette list") == [
        "** There are no chouettes. Type 'chouette create' to open one."]


def test_a_new_login_takes_over_the_seat_without_a_word_to_the_table() -> None:
    c = Chouette(["alice", "bob", "carol"], "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    older = c.driver.sessions["bob"]
    c.driver.log_in("bob")  # the same account again, while the old connection hangs
    assert older.chouette is None
    assert c.driver.sessions["bob"].chouette is c.table
    assert not [line for line in c.take("alice") if line.startswith("Chouette:")]
    assert c.send("bob", "chouette show")[1] == "Queue: alice (box), bob (captain), carol"


# ------------------------------------------------------------------ who-info (CLIP 5)


def opponents(lines: list[str]) -> dict[str, str]:
    """Each CLIP 5 line's name and opponent field (the last line per name wins); every
    batch must end with a 6 and nobody may show as playing and watching at once."""
    found: dict[str, str] = {}
    for index, line in enumerate(lines):
        if line.startswith("5 "):
            fields = line.split(" ")
            assert len(fields) == 13, line
            assert "-" in (fields[2], fields[3]), line
            found[fields[1]] = fields[2]
            assert "6" in lines[index + 1:], lines
    return found


def test_who_info_shows_chouette_players_as_playing_and_follows_the_roles() -> None:
    c = team_wins(names=["bx", "cp", "ta"])
    c.driver.create("zed")
    c.driver.log_in("zed")
    c.driver.take("zed")
    # Game 1: bx is the box (playing the captain), cp and ta the team (playing the box).
    table = {"bx": "cp", "cp": "bx", "ta": "bx", "zed": "-"}
    assert opponents(c.driver.send("zed", "rawwho")) == table
    assert opponents(c.driver.send("zed", "who")) == table
    assert opponents(c.driver.send("zed", "who playing")) == {"bx": "cp", "cp": "bx", "ta": "bx"}
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_OFF)
    assert c.over_line().endswith("Next: cp, ta, bx.")
    # Game 2: cp is the box, ta the captain, bx the crew: every CLIP user is told of the
    # two whose opponent changed (bx still plays cp), and rawwho agrees.
    assert opponents(c.driver.take("zed")) == {"cp": "ta", "ta": "cp"}
    assert opponents(c.driver.send("zed", "rawwho")) == {"bx": "cp", "cp": "ta", "ta": "cp", "zed": "-"}
    # Leaving shows him free at once; the others play on.
    c.send("bx", "chouette leave now")
    assert opponents(c.driver.take("zed")) == {"bx": "-"}
    assert opponents(c.driver.send("zed", "rawwho")) == {"bx": "-", "cp": "ta", "ta": "cp", "zed": "-"}


def test_who_info_before_the_start_and_after_a_return() -> None:
    c = Chouette(["al", "bo", "cy"], start=False)
    assert opponents(c.driver.send("al", "rawwho")) == {"al": "-", "bo": "-", "cy": "-"}
    c.dice.extend(order_dice(3) + [6, 5])  # the order, then game 1's opening roll
    c.driver.send("al", "chouette start")
    assert opponents(c.driver.take("cy")) == {"al": "bo", "bo": "al", "cy": "al"}
    # A crew member who logs out and back in shows as playing again on his return.
    c.driver.log_out("cy")
    c.driver.log_in("cy")
    assert opponents(c.driver.take("al"))["cy"] == "al"
    assert opponents(c.driver.send("bo", "rawwho"))["cy"] == "al"


# ------------------------------------------------------------------ any table's ledger


def test_score_export_and_history_reach_every_table_the_asker_sat_at_even_closed() -> None:
    c = team_wins(names=["bx", "cp", "ta"])
    c.driver.create("zed")
    c.driver.log_in("zed")
    header = "Your chouettes ('chouette score NUMBER' and 'chouette export NUMBER' show one):"
    assert c.send("ta", "chouette history") == [header, "  1: owner bx, 0 games, you 0, playing, you are seated"]
    # The number of his own table reads the same as no number.
    assert c.send("ta", "chouette score 1") == c.send("ta", "chouette score")
    c.send("cp", "roll", [2, 1])
    c.take("bx")
    c.send("cp", TEAM_OFF)
    # The last move of a game is told with its mover's name, though the roles rotated.
    assert c.take("bx")[0] == "cp moves 24-off 24-off ."
    c.send("bx", "chouette leave")
    c.send("ta", "chouette leave")
    c.send("ta", "roll", [2, 1])
    c.take("cp")
    c.send("ta", TEAM_OFF)
    assert c.take("cp")[0] == "ta moves 24-off 24-off ."
    assert c.send("cp", "chouette close") == ["Chouette: the chouette is closed. ta +2, bx -1, cp -1."]
    assert chouettes.tables(c.driver.registry) == {}  # only the store has it now
    # bx is at no table any more: without a number there is nothing to show...
    assert c.send("bx", "chouette score") == ["** You are not at a chouette."]
    # ... with one, the closed table's ledger and record, from the store.
    assert c.send("bx", "chouette history") == [header, "  1: owner cp, 2 games, you -1, closed"]
    assert c.send("ta", "chouette history") == [header, "  1: owner cp, 2 games, you +2, closed"]
    assert c.send("bx", "chouette score 1") == [
        "Chouette 1 score after 2 games (unrated):",
        "  ta +2 in 2 games (0 as box, 0 won; best +1, worst 0)",
        "  bx -1 in 2 games (1 as box, 0 won; best +1, worst -2)",
        "  cp -1 in 2 games (1 as box, 0 won; best +1, worst -2)",
    ]
    assert c.send("cp", "chouette export 1")[1:] == [
        "Game 1: box bx, captain cp, box lost: bx -2, cp +1, ta +1",
        "Game 2: box cp, captain ta, box lost: cp -2, ta +1, bx +1",
    ]
    # Someone who never sat there gets nothing, worded as for a table that never was.
    assert c.driver.send("zed", "chouette score 1") == ["** You did not sit at a chouette 1."]
    assert c.driver.send("zed", "chouette export 1") == ["** You did not sit at a chouette 1."]
    assert c.driver.send("bx", "chouette export 7") == ["** You did not sit at a chouette 7."]
    assert c.driver.send("zed", "chouette history") == ["** You have not sat at a chouette yet."]
    assert c.driver.send("zed", "chouette score x") == [
        "** Usage: chouette score|export [number] (the numbers are in 'chouette history')."]
    # A second table (open) is listed after the closed one; its record is empty yet.
    c.driver.send("bx", "chouette create")
    assert c.send("bx", "chouette history") == [
        header, "  1: owner cp, 2 games, you -1, closed", "  2: owner bx, 0 games, you 0, gathering, you are seated"]
    assert c.send("bx", "chouette export 2") == ["** No chouette game has been played at that table yet."]


# ------------------------------------------------------------------ chouette delegate (C71)


def test_delegate_lets_a_team_member_answer_for_a_crew_member_who_steps_away() -> None:
    c = box_wins(names=["bx", "cp", "ta", "tb"])
    assert c.send("tb", "chouette delegate zz") == ["** That player is not at this chouette."]
    refused = ["** Delegate to another team member who still has a cube in this game and is here."]
    assert c.send("tb", "chouette delegate bx") == refused
    assert c.send("cp", "chouette delegate ta") == [
        "** The captain rolls and moves for the team and cannot delegate; if you drop, the next member takes over."]
    stepped = ["Chouette: tb steps away; ta answers for his cube."]
    assert c.send("tb", "chouette delegate TA") == stepped
    c.take_all()
    assert c.send("tb", "double") == ["** You can't double now."]
    c.send("bx", "double")
    c.send("cp", "reject")  # the captain drops, ta (the delegate) takes: tb copies ta
    told = c.send("ta", "accept", [2, 1])
    assert "Chouette: tb follows ta's answer." in told
    assert "Chouette: tb takes bx's double: the cube is 2." in told
    c.send("bx", BOX_OFF)
    assert c.over_line() == "Chouette: game 1 over. bx +9, cp -1, ta -4, tb -4. Next: bx, tb, cp, ta."
    # He stepped away: he sits out from the next game; 'chouette break' brings him back.
    assert "Queue: bx (box), cp (captain), ta, tb (sitting out)" in c.send("tb", "chouette show")
    assert c.send("tb", "chouette delegate ta") == ["** You have no cube in this game any more."]
    assert c.send("tb", "chouette break") == ["Chouette: tb plays again."]


def test_delegate_off_takes_control_back() -> None:
    c = box_wins(names=["bx", "cp", "ta", "tb"])
    c.send("tb", "chouette delegate ta")
    assert c.send("tb", "chouette delegate off") == ["Chouette: tb decides for himself again."]
    c.send("bx", "double")
    for name in ("cp", "ta"):
        c.send(name, "reject")
    # Not proxied any more: the answers wait for him.
    assert "Waiting for: tb" in c.send("bx", "chouette show")
