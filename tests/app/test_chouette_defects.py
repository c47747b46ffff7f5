"""Issue 20 §4: the chouette defects found on a chouette night, each pinned as a transcript
through the core (`tests.app.driver.CoreDriver`, scripted dice, set-up boards), with the
helpers of `tests/app/test_chouette_transcripts.py`."""

from __future__ import annotations

from collections.abc import Sequence

from fibsd.app import chouettes
from fibsd.app.session import Departure
from fibsd.domain.dice import ScriptedDice
from protocol.board import BoardLine
from tests.app.driver import CoreDriver
from tests.app.test_chouette_transcripts import (
    BOX_OFF,
    BOX_SHUFFLE,
    TEAM_OFF,
    Chouette,
    box_wins,
    no_who,
    order_dice,
    team_wins,
)
from tests.chouette.helpers import BOX_SINGLE, TEAM_GAMMONED, board

THREE = ["bx", "cp", "ta"]


def boards(lines: list[str]) -> list[BoardLine]:
    return [BoardLine.decode(line) for line in lines if line.startswith("board:")]


class TelnetChouette(Chouette):
    """As `Chouette`, with the players in `telnet` logged in without CLIP (they get the
    board headers, and boardstyle 1: the ASCII board)."""

    def __init__(self, names: Sequence[str], settings: str, telnet: set[str],
                 box: dict[int, int], team: dict[int, int], turn: int) -> None:
        self.dice = ScriptedDice()
        self.driver = CoreDriver(self.dice)
        self.names = list(names)
        self.heard = {name: [] for name in names}
        self.driver.create(*names)
        for name in names:
            self.driver.log_in(name, clip=name not in telnet)
            self.driver.send(name, f"set boardstyle {1 if name in telnet else 3}")
        self.driver.send(names[0], f"chouette create {settings}".strip())
        for name in names[1:]:
            self.driver.send(name, f"chouette join {names[0]}")
        table = self.driver.sessions[names[0]].chouette
        assert table is not None
        self.table = table
        table.board_factory = lambda: board(box, team, turn)
        self.dice.extend(order_dice(len(names)))
        self.send(names[0], "chouette start")
        self.take_all()


# ------------------------------------------------------------------ the board after a game


def test_the_last_board_of_a_game_is_drawn_with_that_games_seats_and_number() -> None:
    c = TelnetChouette(THREE, "", {"ta"}, box=BOX_SINGLE, team={1: 2}, turn=1)
    c.send("cp", "roll", [2, 1])
    c.driver.take("bx")
    c.driver.take("ta")
    c.dice.extend([3, 1])  # game 2's opening roll
    c.driver.send("cp", TEAM_OFF)
    told = c.driver.take("bx")
    over = told.index("Chouette: game 1 over. bx -2, cp +1, ta +1. Next: cp, ta, bx.")
    started = told.index("Chouette: game 2. Box: cp. Captain: ta. Crew: bx.")
    # The final board (between the two) is game 1's: bx was its box (You), cp its
    # captain, and the team has borne off all 15 checkers; not bx as game 2's crew.
    final = boards(told[over:started])
    assert len(final) == 1
    assert (final[0].player, final[0].opponent) == ("You", "cp")
    assert final[0].opponent_off == 15
    # The telnet crew member's header names game 1, its box and captain, not game 2's.
    heard = c.driver.take("ta")
    ascii_start = heard.index("Chouette 1, game 1: box bx, captain cp; your cube 1.")
    assert ascii_start < heard.index("Chouette: game 2. Box: cp. Captain: ta. Crew: bx.")
    assert not any(line.startswith("Chouette 1, game 1: box cp") for line in heard)


# ------------------------------------------------------------------ close during a game


def test_close_during_a_game_takes_effect_when_it_ends() -> None:
    c = team_wins(names=THREE)
    assert c.send("bx", "chouette close") == ["Chouette: the table closes when this game ends."]
    assert c.take("ta") == ["Chouette: the table closes when this game ends."]
    assert c.send("bx", "chouette close") == ["** The table closes when this game ends already."]
    assert c.send("ta", "chouette close") == ["** Only the chouette's owner (bx) may do that."]
    c.send("cp", "roll", [2, 1])
    told = c.send("cp", TEAM_OFF)
    assert "Chouette: game 1 over. bx -2, cp +1, ta +1. Next: cp, ta, bx." in told
    assert told[-1] == "Chouette: the chouette is closed. cp +1, ta +1, bx -2."
    assert not [line for line in told if line.startswith("Chouette: game 2")]
    assert c.send("bx", "chouette list") == [
        "** There are no chouettes. Type 'chouette create' to open one."]


def test_a_closing_table_survives_a_restart_and_closes_at_the_games_end() -> None:
    c = team_wins(names=THREE)
    c.send("bx", "chouette close")
    driver = CoreDriver(c.dice, store=c.driver.store, clock=c.driver.clock)
    for name in THREE:
        driver.log_in(name)
        driver.send(name, "set boardstyle 3")
    c.dice.extend([2, 1])
    driver.send("cp", "roll")
    told = no_who(driver.send("cp", TEAM_OFF))
    assert told[-1] == "Chouette: the chouette is closed. cp +1, ta +1, bx -2."


# ------------------------------------------------------------------ kibitz and whisper


def test_kibitz_and_whisper_at_a_chouette_reach_its_watchers_only_during_a_game() -> None:
    c = Chouette(THREE, "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.driver.create("wes", "wyn")
    for name in ("wes", "wyn"):
        c.driver.log_in(name)
        c.driver.send(name, "watch cp")
    c.take_all()
    assert c.driver.send("wes", "kibitz hello") == ["19 hello", "** 1 user heard you."]
    assert c.driver.take("wyn") == ["15 wes hello"]
    assert not any("hello" in line for line in c.driver.take("bx"))
    assert not any("hello" in line for line in c.driver.take("cp"))
    assert c.driver.send("wes", "whisper psst")[0] == "18 psst"
    assert c.driver.take("wyn") == ["14 wes psst"]
    # A player's kibitz is not refused either; during the game only the watchers hear it.
    c.driver.send("ta", "kibitz hold")
    assert any("hold" in line for line in c.driver.take("wes"))
    assert not any("hold" in line for line in c.driver.take("bx"))


# ------------------------------------------------------------------ the telnet board


def test_a_crew_members_ascii_board_names_the_owner_of_his_own_cube_and_the_beavers() -> None:
    c = TelnetChouette(THREE, "", {"ta"}, box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("bx", "double")
    c.send("cp", "accept")
    c.send("ta", "beaver", [2, 1])  # the last answer: the box rolls
    c.send("bx", "move 13-11 13-12")
    drawn = c.driver.send("ta", "board")
    assert drawn[0] == "Chouette 1, game 1: box bx, captain cp; your cube 4."
    footer = [line for line in drawn if "Cube:" in line][-1]
    assert "Cube: 4 (owned by ta)" in footer  # his own cube, not the captain's
    # beavers=1: one instant redouble, not FIBS's "No redoubles"
    assert any(line.endswith("1 redoubles") for line in drawn)
    assert not any("No redoubles" in line for line in drawn)


# ------------------------------------------------------------------ what is owed (C75)


def test_a_player_back_after_a_restart_is_told_what_he_owes_and_by_when() -> None:
    c = Chouette(THREE, "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("bx", "double")
    c.send("cp", "accept")
    c.driver.clock.advance(20)
    driver = CoreDriver(c.dice, store=c.driver.store, clock=c.driver.clock)
    for name in THREE:
        driver.log_in(name)
    told = no_who(driver.take("ta"))
    assert "Queue: bx (box), cp (captain), ta" in told
    assert told[-1] == ("Chouette: you must answer bx's double to 2: 'accept', 'reject' or 'beaver',"
                        " within 40 seconds.")
    # The captain answered already: he owes nothing but his sealed answer stays sealed.
    assert not any("you must answer" in line for line in driver.take("cp"))
    # The answer time survived the restart: 40 seconds on, ta's silence follows cp.
    driver.clock.advance(40)
    c.dice.extend([2, 1])
    driver.apply(chouettes.tick(driver.registry))
    told = driver.take("bx")
    assert "Chouette: ta follows the captain's answer." in told
    assert "Chouette: ta takes bx's double: the cube is 2." in told


# ------------------------------------------------------------------ the box's double


def test_the_box_double_says_how_and_by_when_and_silence_is_told_as_what_it_became() -> None:
    c = box_wins(names=["bx", "cp", "ta", "tb"])
    c.send("bx", "double ta tb")
    prompt = ("Chouette: bx doubles you to 2: type 'accept', 'reject' or 'beaver' within 60 seconds;"
              " silence follows the captain's answer, else drops.")
    assert c.take("ta") == ["Chouette: bx doubles ta, tb.", prompt]
    assert c.take("cp") == ["Chouette: bx doubles ta, tb."]
    c.send("ta", "accept")
    c.take("cp")
    c.driver.clock.advance(60)
    c.dice.extend([2, 1])
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("cp")
    # tb said nothing and the captain was not doubled: his silence is a drop, told so.
    assert told[:3] == [
        "Chouette: ta takes bx's double: the cube is 2.",
        "Chouette: tb did not answer in time, and nobody's answer can be followed: it counts as a drop.",
        "Chouette: tb drops bx's double and pays 1.",
    ]


def test_a_team_double_tells_the_box_how_to_answer() -> None:
    c = team_wins(names=THREE)
    c.send("ta", "double")
    assert c.take("bx") == [
        "Chouette: ta doubles bx.",
        "Chouette: ta doubles you to 2: type 'accept' or 'reject' (all pending doubles; add names"
        " to answer only theirs, e.g. 'accept ta').",
    ]


# ------------------------------------------------------------------ refusals


def test_refusals_say_what_is_wrong() -> None:
    c = box_wins(names=["bx", "cp", "ta", "tb"])
    assert c.send("cp", "chouette delegate ta") == [
        "** The captain rolls and moves for the team and cannot delegate; if you drop, the next"
        " member takes over."]
    assert c.send("ta", "chouette start") == [
        "** This chouette has started already: the next game starts by itself."]
    c.send("bx", "double")
    for name in ("cp", "ta"):
        c.send(name, "accept")
    c.send("tb", "reject", [2, 1])
    c.send("bx", BOX_SHUFFLE)
    assert c.send("tb", "double") == [
        "** You have no cube in this game any more: you dropped or settled it."]


# ------------------------------------------------------------------ narration


def test_single_cube_the_box_answers_the_teams_double_once() -> None:
    c = Chouette(["bx", "cp", "ta", "tb"], "single", box=BOX_SINGLE, team={1: 2}, turn=1)
    assert c.send("cp", "double") == ["Chouette: cp doubles bx."]
    told = c.send("bx", "accept", [2, 1])
    assert told[0] == "Chouette: bx takes the team's double: the cube is 2."
    assert not [line for line in told[1:] if " double" in line]  # once, not per member
    c = Chouette(["bx", "cp", "ta", "tb"], "single", box=BOX_SINGLE, team={1: 2}, turn=1)
    c.send("cp", "double")
    told = c.send("bx", "reject", [2, 1, 2, 1])
    assert told[0] == "Chouette: bx drops the team's double and pays 1 to each of cp, ta, tb."
    assert told[1] == "Chouette: nobody on the team is in the game any more."
    assert told[2].startswith("Chouette: game 1 over. bx -3, cp +1, ta +1, tb +1.")
    assert told[3] == "Chouette: game 1: the last cube was dropped. Totals: cp +1, ta +1, tb +1, bx -3."


def test_one_dropper_may_give_an_extra_in_the_singular() -> None:
    c = Chouette(THREE, "single jacoby=off extras=on", box=BOX_SINGLE, team={1: 2})
    c.send("bx", "double")
    c.send("cp", "reject")
    told = c.send("ta", "accept")
    assert ("Chouette: cp may give ta an extra cube at 2 for 1"
            " (decided by the server after the answer time).") in told


def test_an_absent_box_is_given_his_own_time_and_his_abandonment_is_told_as_such() -> None:
    c = Chouette(THREE, "jacoby=off box_absent_seconds=120", box={25: 1, 13: 14}, team={1: 6},
                 turn=1)
    c.driver.log_out("bx", Departure.DROPPED)
    assert ("Chouette: bx (the box) dropped; 120 seconds to come back, or he abandons the game."
            in c.take("cp"))
    c.driver.clock.advance(120)
    c.driver.apply(chouettes.tick(c.driver.registry))
    told = c.take("cp")
    assert told[:2] == ["Chouette: bx leaves.",
                        "Chouette: bx abandoned the game: every cube he held settles at the worst"
                        " result still possible for him."]
    assert "Chouette: nobody on the team is in the game any more." not in told
    assert "Chouette: game 1: bx abandoned the game. Totals: cp +3, ta +3, bx -6." in told


def test_the_dice_lines_of_a_chouette_say_chouette() -> None:
    driver = CoreDriver()
    driver.create("alice")
    driver.log_in("alice", clip=False)
    created = driver.send("alice", "chouette create")
    assert created[1].startswith("** The dice of this chouette are committed: fibsd-dice-v1 ")
    closed = driver.send("alice", "chouette close")
    assert closed[0] == "Chouette: the chouette is closed; no game was played."
    assert closed[1].startswith("** The dice seed of this chouette was ")


# ------------------------------------------------------------------ C77, C78


def test_the_game_over_lines_give_the_result_and_the_running_totals() -> None:
    c = team_wins()
    c.send("cp", "roll", [2, 1])
    told = c.send("cp", TEAM_OFF, [3, 1])
    over = told.index("Chouette: game 1 over. bx -4, cp +1, ta +1, tb +1, tc +1. Next: cp, ta, tb, tc, bx.")
    assert told[over + 1] == ("Chouette: game 1: the team won a single game on the board."
                              " Totals: cp +1, ta +1, tb +1, tc +1, bx -4.")
    c.send("cp", "move 8-5 6-5")
    c = box_wins(names=THREE)
    c.send("bx", "roll", [2, 1])
    told = c.send("bx", BOX_OFF)
    assert "Chouette: game 1: bx won a gammon on the board. Totals: bx +2, cp -1, ta -1." in told


def test_score_shows_best_and_worst_games_and_who_is_seated_sitting_out_or_gone() -> None:
    c = team_wins(names=["bx", "cp", "ta", "tb"])
    assert c.send("tb", "chouette leave") == ["Chouette: tb leaves when this game ends."]
    assert c.send("ta", "chouette break") == ["Chouette: ta sits out."]
    c.send("cp", "roll", [2, 1])
    c.send("cp", TEAM_OFF)
    assert c.send("bx", "chouette score") == [
        "Chouette 1 score after 1 games (unrated):",
        "  cp +1 in 1 games (0 as box, 0 won; best +1, worst 0), seated",
        "  ta +1 in 1 games (0 as box, 0 won; best +1, worst 0), sitting out",
        "  tb +1 in 1 games (0 as box, 0 won; best +1, worst 0), gone",
        "  bx -3 in 1 games (1 as box, 0 won; best 0, worst -3), seated",
    ]


# ------------------------------------------------------------------ everyone away


def test_a_player_away_past_the_grace_period_sits_out_and_keeps_his_seat() -> None:
    c = Chouette(THREE, start=False)
    c.driver.log_out("ta", Departure.DROPPED)
    c.take_all()
    c.driver.clock.advance(300)
    c.driver.apply(chouettes.tick(c.driver.registry))
    assert c.take("bx") == ["Chouette: ta sits out."]
    assert c.send("bx", "chouette show")[1] == "Queue: bx (box), cp (captain), ta (sitting out, away)"
    c.driver.log_in("ta")
    assert "Chouette: ta plays again." in c.take("bx")


def test_a_clubs_table_survives_a_night_with_nobody_at_it() -> None:
    c = Chouette(THREE, "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("bx", "double")
    # A restart nobody notices: nobody logs back in all night.
    driver = CoreDriver(c.dice, store=c.driver.store, clock=c.driver.clock)
    for _ in range(10):
        driver.clock.advance(3600)
        driver.apply(chouettes.tick(driver.registry))
    table = chouettes.tables(driver.registry)[1]
    assert table.engine.seated == ("bx", "cp", "ta") and table.engine.game is not None
    # In the morning the answers wait for their full time, and the absent their grace.
    driver.log_in("cp")
    assert no_who(driver.take("cp"))[-1] == (
        "Chouette: you must answer bx's double to 2: 'accept', 'reject' or 'beaver', within 60 seconds.")
    driver.log_in("ta")
    driver.send("cp", "accept")
    c.dice.extend([2, 1])
    assert "Chouette: ta takes bx's double: the cube is 2." in driver.send("ta", "accept")
    assert table.engine.seated == ("bx", "cp", "ta")


def test_help_chouette_teaches_a_telnet_user_to_play() -> None:
    driver = CoreDriver(ScriptedDice())
    driver.create("tom")
    driver.log_in("tom", clip=False)
    helped = " ".join(driver.send("tom", "help chouette"))
    for needed in ("'chouette start'", "the box stays", "'accept', 'reject' or 'beaver'",
                   "60 seconds", "team <text>", "chouette delegate", "answer_seconds=60",
                   "close during a game: when it ends"):
        assert needed in helped, needed
    assert "docs/" not in helped  # nothing a telnet user cannot read
