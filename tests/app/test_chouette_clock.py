"""A chouette with a clock (club-play.md K6, docs/clocks.md): transcripts, injected time.

The box's clock against the team's, per game; the crew's own cube decisions run on the
team's time; running out loses the game for that side as a single game at each cube's
value, settled per member, the table rotates, and the ledger stays zero-sum.
"""

from __future__ import annotations

from fibsd.app.session import Departure
from fibsd.rules.chouette import Cause
from tests.app.driver import CoreDriver
from tests.app.test_chouette_transcripts import Chouette
from tests.chouette.helpers import BOX_SINGLE, TEAM_GAMMONED

NAMES = ["alice", "bob", "carol", "dave"]


def _clocked(settings: str = "clock 2 10") -> Chouette:
    """alice the box (to roll or double), bob the captain, carol and dave the crew."""
    return Chouette(NAMES, settings, box={1: 4}, team=TEAM_GAMMONED, turn=0)


def _ledger_is_zero_sum(c: Chouette) -> None:
    totals = c.table.engine.totals()
    assert sum(totals.values()) == 0, totals


def test_create_with_a_clock_shows_its_terms_per_game() -> None:
    driver = CoreDriver()
    driver.create("alice")
    driver.log_in("alice", clip=False)
    created = driver.send("alice", "chouette create jacoby=off clock fast overtime 30")
    assert created[0] == ("Chouette: alice opens chouette 1 (cubes=multi, consult=cube, jacoby=off, beavers=1,"
                          " autodoubles=0, fiveplus=on, lone_taker=drop, extras=off, box_limits=none,"
                          " partner=optional, partner_from=8, partner_pick=offer, rotation=captain, join=end,"
                          " seats_max=10, answer_seconds=60, box_absent_seconds=300, clock=delay 8 s,"
                          " reserve 0:20 per game, one overtime of 0:30). Others type 'chouette join alice'.")
    table = driver.sessions["alice"].chouette
    assert table is not None and table.timer is not None
    assert table.timer.control.per_game and table.timer.control.overtime == 30
    saved = driver.store.chouette(1)
    assert saved is not None and saved["timer"]["control"]["reserve"] == 20  # kept with the table


def test_the_crews_cube_decisions_run_on_the_teams_clock_and_the_box_answers_on_his() -> None:
    c = _clocked()
    timer = c.table.timer
    assert timer is not None and timer.running == 0  # the box is to roll or double
    c.send("alice", "double")  # to all: the team answers on its time
    assert timer.running == 1
    c.driver.clock.advance(5)
    c.send("carol", "accept")  # a crew member's answer: 3 s past the delay, team time
    c.send("dave", "accept")
    c.send("bob", "accept", [2, 1])
    assert timer.reserves == [10, 7]
    assert timer.running == 0  # the box rolled at once, and moves on his time
    assert c.send("carol", "clock") == [
        "Chouette clock: delay 2 s, reserve 0:10 per game.",
        "  the box (alice): 0:10 left, to act (2 s of delay first)",
        "  the team (bob): 0:07 left"]


def test_a_box_out_of_time_loses_a_single_game_at_each_cube_settled_per_member() -> None:
    c = _clocked("jacoby=off clock 2 10")
    c.send("alice", "double")
    c.send("bob", "accept")
    c.send("carol", "reject")
    c.send("dave", "accept", [2, 1])  # revealed: bob and dave hold 2-cubes, carol paid 1
    c.take_all()
    c.driver.clock.advance(12.5)  # the box's delay and reserve: he never moves
    c.dice.extend([3, 1])  # game 2's opening roll
    c.driver.tick()
    heard = c.take("carol")
    assert "Chouette: the box (alice) ran out of time and loses the game: each cube settles as a single game." in heard
    assert c.over_line() == "Chouette: game 1 over. alice -3, bob +2, carol -1, dave +2. Next: bob, carol, dave, alice."
    rows = [row for row in c.table.engine.ledger.game_rows(1) if row.cause is Cause.TIME]
    assert sorted((row.winner, row.loser, row.amount) for row in rows) == [
        ("bob", "alice", 2), ("dave", "alice", 2)]
    _ledger_is_zero_sum(c)
    timer = c.table.timer
    assert timer is not None and timer.reserves == [10, 10] and timer.lost is None  # game 2: full


def test_a_team_out_of_time_loses_each_members_cube_and_the_captain_goes_to_the_end() -> None:
    c = Chouette(NAMES, "clock 1 5", box=BOX_SINGLE, team={1: 2}, turn=1)
    timer = c.table.timer
    assert timer is not None and timer.running == 1  # the team is to roll (or double)
    c.dice.extend([3, 1])
    c.driver.tick(6.5)
    assert c.over_line() == "Chouette: game 1 over. alice +3, bob -1, carol -1, dave -1. Next: alice, carol, dave, bob."
    _ledger_is_zero_sum(c)


def test_overtime_first_then_the_loss() -> None:
    c = _clocked("clock 1 5 overtime 3")
    c.driver.tick(6.5)
    assert "Chouette: the box (alice) used up the reserve: 0:03 of overtime." in c.take("bob")
    c.dice.extend([3, 1])
    c.driver.tick(3)
    assert c.over_line().startswith("Chouette: game 1 over. alice -3,")
    _ledger_is_zero_sum(c)


def test_the_clock_is_saved_with_the_table_and_runs_on_after_a_restart() -> None:
    c = _clocked("clock 2 10")
    c.driver.clock.advance(5)
    c.send("alice", "double")  # alice used 3 s of her reserve
    driver = CoreDriver(c.dice, store=c.driver.store, clock=c.driver.clock)  # kill -9
    for name in NAMES:
        driver.log_in(name, clip=False)
    table = driver.sessions["alice"].chouette
    assert table is not None and table.timer is not None
    assert table.timer.reserves == [7, 10] and table.timer.running == 1
    shown = driver.send("carol", "chouette show")
    assert shown[1:4] == ["Chouette clock: delay 2 s, reserve 0:10 per game.",
                          "  the box (alice): 0:07 left",
                          "  the team (bob): 0:10 left, to act (2 s of delay first)"]
    board = driver.send("carol", "board")
    assert "Chouette clock: box 0:07, team 0:10 running." in board


def test_the_clock_line_reaches_the_clip_clients_at_the_table() -> None:
    c = _clocked()
    c.driver.send("bob", "toggle extensions")
    c.send("alice", "double")
    lines = c.driver.take("bob")
    assert any(line.startswith("clock: alice 10 bob 10 2 2 bob delay") for line in lines)
    c.driver.log_out("bob", Departure.LOGGED_OUT)


def test_a_chouette_clock_that_is_not_one_is_refused() -> None:
    c = Chouette(NAMES[:1], start=False)
    c.send("alice", "chouette close")
    usage = ("** usage: chouette create [multi|single] [key=value ...] clock [<delay> <reserve per game>"
             " | fast | normal | casual | bullet] [overtime <seconds>]")
    assert c.send("alice", "chouette create clock 12") == [usage]
    assert c.send("alice", "chouette create days 1") == [usage]
