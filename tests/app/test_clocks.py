"""Match clocks through the core (docs/clocks.md): transcripts with a manual clock.

Every test moves time by hand (`driver.clock.advance`) and runs the core's clock tick
(`fibsd.app.timers.tick`, which runs `match_clock.due`) as the shell's ticker would: days of correspondence take
milliseconds.
"""

from __future__ import annotations

import pytest

from fibsd.app import timers
from fibsd.app.play.table import Table
from fibsd.app.session import Departure, Session
from fibsd.domain.dice import ScriptedDice
from tests.app.driver import CoreDriver

DAY = 86400.0


def _tick(driver: CoreDriver) -> None:
    driver.tick()  # the shell's ticker: the core's one tick, at the driver's time


def _driver(*dice: int, **settings: object) -> CoreDriver:
    """alice (CLIP, no extensions), bob (telnet) and carol (telnet, watching alice)."""
    driver = CoreDriver(ScriptedDice(dice, coin=0), **settings)
    driver.create("alice", "bob", "carol", ready=True)
    driver.log_in("alice")
    driver.log_in("bob", clip=False)
    driver.log_in("carol", clip=False)
    for name in ("alice", "bob", "carol"):
        driver.send(name, "set boardstyle 3")
    driver.send("carol", "watch alice")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    return driver


def _start(driver: CoreDriver, invitation: str) -> Table[Session]:
    """alice invites bob with `invitation`; bob joins; alice opens (3-1 with the dice)."""
    driver.send("alice", invitation)
    driver.send("bob", "join alice")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    table = driver.sessions["alice"].table
    assert table is not None and table.timer is not None
    return table


def test_25_seconds_taken_with_a_12_second_delay_cost_13_seconds() -> None:
    driver = _driver(3, 1)
    table = _start(driver, "invite bob 3 clock 12 100")
    assert table.timer is not None
    assert table.timer.reserves == [300, 300] and table.timer.running == 0
    driver.clock.advance(25)
    driver.send("alice", "move 8-5 6-5")
    assert table.timer.reserves == [287, 300]
    assert table.timer.running == 1  # bob is to roll (or double): his clock runs


def test_each_action_runs_the_clock_of_who_is_to_act() -> None:
    driver = _driver(3, 1, 6, 5, 4, 2)
    table = _start(driver, "invite bob 3 clock 12 100")
    timer = table.timer
    assert timer is not None
    driver.send("alice", "move 8-5 6-5")
    # bob decides to roll (5 s) and moves (10 s more): one stint, one delay, 3 s charged.
    driver.clock.advance(5)
    driver.send("bob", "roll")
    assert timer.running == 1
    driver.clock.advance(10)
    driver.send("bob", "move 1-7 7-12")
    assert timer.reserves == [300, 297] and timer.running == 0
    # alice's clock runs while she decides to double (20 s: 8 charged) ...
    driver.clock.advance(20)
    driver.send("alice", "double")
    assert timer.reserves == [292, 297] and timer.running == 1
    # ... bob's while he answers (14 s: 2 charged) ...
    driver.clock.advance(14)
    driver.send("bob", "accept")
    assert timer.reserves == [292, 295]
    # ... and alice's again, with a new delay, for the roll that follows and her move.
    assert timer.running == 0 and timer.since == driver.clock.now()
    assert timer.remaining(0, driver.clock.now() + 12) == 292


def test_a_loss_on_time_ends_the_match_in_lines_each_client_understands() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 1 clock 1 1")
    driver.clock.advance(1.9)
    _tick(driver)
    assert driver.take("alice") == []  # 1 s delay + 1 s reserve: not yet
    driver.clock.advance(0.1)
    _tick(driver)
    # alice's CLIP client did not opt in: FIBS's own end-of-match line, then the 5/6s.
    alice = driver.take("alice")
    assert alice[0] == "bob wins the 1 point match 1-0 ."
    assert not any("time" in line for line in alice)
    assert driver.take("bob") == ["** alice ran out of time and loses the match.",
                                  "You win the 1 point match 1-0 ."]
    assert driver.take("carol") == ["** alice ran out of time and loses the match.",
                                    "bob wins the 1 point match 1-0 ."]
    # Rated as a loss, recorded, and the saved match is gone.
    alice_account, bob_account = driver.store.get_account("alice"), driver.store.get_account("bob")
    assert alice_account is not None and bob_account is not None
    assert alice_account.rating < 1500 < bob_account.rating
    records = driver.store.match_records_of("alice")
    assert len(records) == 1 and records[0].winner == 1 and records[0].score == (0, 1)
    assert driver.store.saved_match("alice", "bob") is None
    assert driver.sessions["alice"].table is None and driver.sessions["bob"].table is None


def test_a_command_after_the_deadline_finds_the_match_lost_even_before_the_tick() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 1 clock 1 1")
    driver.clock.advance(5)
    driver.send("alice", "move 8-5 6-5")
    assert driver.take("bob")[-1] == "You win the 1 point match 1-0 ."
    assert driver.sessions["alice"].table is None


def test_one_overtime_then_the_loss() -> None:
    driver = _driver(3, 1)
    table = _start(driver, "invite bob 1 clock 1 1 overtime 5")
    driver.clock.advance(2)
    _tick(driver)
    assert driver.take("bob") == ["** alice's reserve is used up: 0:05 of overtime."]
    assert driver.take("alice") == []  # an extension line: alice did not opt in
    assert table.timer is not None and table.timer.overtime_used == [True, False]
    driver.clock.advance(4.9)
    _tick(driver)
    assert driver.take("bob") == []
    driver.clock.advance(0.1)
    _tick(driver)
    assert driver.take("bob") == ["** alice ran out of time and loses the match.",
                                  "You win the 1 point match 1-0 ."]


def test_the_operator_default_overtime_applies_to_every_clocked_match() -> None:
    driver = _driver(3, 1, clocks__clock_default_overtime_seconds=60)
    table = _start(driver, "invite bob 1 clock 1 1")
    assert table.timer is not None and table.timer.control.overtime == 60


def test_a_dropped_players_clock_runs_through_the_grace_period() -> None:
    driver = _driver(3, 1, limits__reconnect_grace_seconds=300)
    _start(driver, "invite bob 1 clock 1 10")
    driver.log_out("alice", Departure.DROPPED)  # alice is to move, and drops
    assert any(line.startswith("** alice has 300 seconds to come back.") for line in driver.take("bob"))
    driver.clock.advance(11)
    _tick(driver)
    assert driver.take("bob") == ["** alice ran out of time and loses the match.",
                                  "You win the 1 point match 1-0 ."]
    # The clock ended first (K8): a loss on time, not a drop, and nothing left waiting.
    assert driver.store.drop_count("alice") == 0
    assert driver.registry.suspended == {}
    assert driver.store.match_records_of("alice")[0].winner == 1


def test_the_dropper_who_comes_back_in_time_finds_his_clock_still_running() -> None:
    driver = _driver(3, 1, limits__reconnect_grace_seconds=300)
    table = _start(driver, "invite bob 1 clock 12 100")
    driver.log_out("alice", Departure.DROPPED)
    driver.clock.advance(40)
    driver.log_in("alice")
    assert driver.sessions["alice"].table is table
    assert table.timer is not None and table.timer.remaining(0, driver.clock.now()) == 72


def test_the_player_left_waiting_for_a_dropper_loses_no_time() -> None:
    driver = _driver(3, 1, limits__reconnect_grace_seconds=300)
    table = _start(driver, "invite bob 3 clock 12 100")
    driver.clock.advance(5)
    driver.send("alice", "move 8-5 6-5")  # bob is to roll (or double)
    timer = table.timer
    assert timer is not None and timer.running == 1
    driver.log_out("alice", Departure.DROPPED)  # bob may not act while alice is away
    driver.clock.advance(200)
    _tick(driver)
    assert driver.sessions["bob"].table is table and timer.running is None
    driver.log_in("alice")
    assert timer.running == 1 and timer.since == driver.clock.now() and timer.reserves == [300, 300]


def test_a_saved_match_keeps_both_reserves_and_resumes_with_them() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 3 clock 12 100")
    driver.clock.advance(25)
    driver.send("alice", "move 8-5 6-5")  # alice: 13 s charged
    driver.clock.advance(30)
    driver.send("bob", "leave")  # bob's stint stops at once: 18 s charged
    saved = driver.store.saved_match("alice", "bob")
    assert saved is not None
    assert saved["clock"]["reserves"] == [287, 282] and saved["clock"]["running"] is None
    driver.clock.advance(DAY)  # the day it stays saved costs nobody anything
    driver.send("alice", "invite bob")
    driver.send("bob", "join alice")
    table = driver.sessions["alice"].table
    assert table is not None and table.timer is not None
    assert table.timer.reserves == [287, 282]
    assert table.timer.running == 1 and table.timer.since == driver.clock.now()


def test_a_crash_costs_the_player_to_act_nothing_he_did_not_use() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 3 clock 12 100")
    driver.clock.advance(25)
    driver.send("alice", "move 8-5 6-5")
    # bob thinks 50 s, then the server is killed (kill -9: nothing runs at the end).
    driver.clock.advance(50)
    restarted = CoreDriver(ScriptedDice([6, 5], coin=0), store=driver.store, clock=driver.clock)
    driver.clock.advance(3600)  # an hour down
    restarted.log_in("alice")
    restarted.log_in("bob")
    restarted.send("alice", "invite bob")
    restarted.send("bob", "join alice")
    table = restarted.sessions["alice"].table
    assert table is not None and table.timer is not None
    # bob's stint starts again with the reserve he had when it began: neither the hour
    # down nor the 50 s the server cannot prove he used are charged.
    assert table.timer.reserves == [287, 300] and table.timer.running == 1
    assert table.timer.deadline() == driver.clock.now() + 12 + 300


def test_an_unlimited_match_resets_the_reserve_each_game() -> None:
    driver = _driver(3, 1, 4, 2)
    table = _start(driver, "invite bob unlimited clock 5 60")
    timer = table.timer
    assert timer is not None and timer.control.per_game and timer.reserves == [60, 60]
    driver.clock.advance(25)
    driver.send("alice", "move 8-5 6-5")
    assert timer.reserves == [40, 60]
    driver.send("alice", "resign n")  # (bob is to roll; alice offers to resign)
    driver.send("bob", "accept")
    assert table.between_games and timer.running is None
    driver.send("alice", "join")
    driver.send("bob", "join")
    assert timer.reserves == [60, 60] and timer.game == 2


def test_correspondence_deadlines_over_days() -> None:
    driver = _driver(3, 1, 6, 5)
    table = _start(driver, "invite bob 3 days 2")
    timer = table.timer
    assert timer is not None and timer.control.per_move == 2 * DAY
    driver.clock.advance(1.9 * DAY)
    _tick(driver)
    driver.send("alice", "move 8-5 6-5")  # with 0.1 day to spare
    driver.clock.advance(1.5 * DAY)
    _tick(driver)
    driver.send("bob", "roll")
    driver.clock.advance(0.5 * DAY - 1)
    _tick(driver)
    assert driver.sessions["bob"].table is table  # one second left
    driver.clock.advance(1)
    _tick(driver)
    assert "You win the 3 point match 3-0 ." in driver.take("alice")
    assert "** You ran out of time and lose the match." in driver.take("bob")
    assert driver.store.match_records_of("bob")[0].winner == 0


def test_a_tiny_correspondence_limit_is_kept_to_the_second() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 1 days 0.0001")  # 8.64 s per move
    driver.clock.advance(8.6)
    _tick(driver)
    assert driver.sessions["alice"].table is not None
    driver.clock.advance(0.05)
    _tick(driver)
    assert driver.sessions["alice"].table is None
    assert driver.take("bob")[-1] == "You win the 1 point match 1-0 ."


def test_the_clock_command_for_a_player_and_a_watcher() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 3 clock 12 100")
    driver.clock.advance(20)
    expected = ["Clock: delay 12 s, reserve 5:00.", "  alice: 4:52 left, to act", "  bob: 5:00 left"]
    assert driver.send("bob", "clock") == expected
    assert driver.send("carol", "clock") == expected
    driver.clock.advance(-15)  # (5 s into alice's stint)
    assert driver.send("bob", "clock")[1] == "  alice: 5:00 left, to act (7 s of delay first)"
    # A CLIP client gets the line it can parse (docs/clocks.md).
    driver.send("alice", "toggle extensions")
    assert driver.send("alice", "clock") == ["clock: alice 300 bob 300 12 7 alice delay"]
    assert driver.send("carol", "unwatch") and driver.send("carol", "clock") == [
        "** No clock: you're not playing or watching a match with one."]


def test_clip_clients_with_extensions_get_the_clock_line_at_each_turn_change() -> None:
    driver = _driver(3, 1, 6, 5)
    _start(driver, "invite bob 3 clock 12 100")
    driver.send("alice", "toggle extensions")
    driver.clock.advance(25)
    alice = driver.send("alice", "move 8-5 6-5")
    assert alice[-1] == "clock: alice 287 bob 300 12 12 bob delay"
    assert not any(line.startswith("clock:") for line in driver.take("bob"))  # telnet
    driver.send("alice", "toggle extensions")
    driver.send("bob", "roll")
    driver.send("bob", "move 1-7 7-12")
    assert not any(line.startswith("clock:") for line in driver.take("alice"))


def test_the_ascii_board_shows_both_clocks() -> None:
    driver = _driver(3, 1)
    _start(driver, "invite bob 3 clock 12 100")
    driver.send("bob", "set boardstyle 1")
    driver.clock.advance(20)
    board = driver.send("bob", "board")
    assert board[0].endswith("O: alice - score: 0  clock: 4:52 running")
    assert any(line.endswith("X: bob - score: 0  clock: 5:00") for line in board)


@pytest.mark.parametrize(
    ("invitation", "refusal"),
    [
        ("invite bob 3 clock 61 100", "** The longest delay allowed here is 60 seconds."),
        ("invite bob unlimited clock 12 30000", "** The longest reserve allowed here is 6:00:00."),
        ("invite bob 3 days 31", "** The longest time per move allowed here is 30 days."),
    ],
)
def test_the_operators_limits(invitation: str, refusal: str) -> None:
    driver = _driver()
    assert driver.send("alice", invitation)[-1] == refusal
    assert driver.sessions["alice"].invitation is None


def test_rated_matches_may_be_required_to_have_a_clock() -> None:
    driver = _driver(clocks__clock_required_for_rated=True)
    assert driver.send("alice", "invite bob 3") == [
        "** Rated matches here need a clock: add 'clock' (or 'days N') to your invitation."]
    assert driver.send("alice", "invite bob unlimited") == ["** You invited bob to an unlimited match."]


# --- correspondence (K7) ------------------------------------------------------------------


def _telnet_trio(*dice: int) -> CoreDriver:
    driver = CoreDriver(ScriptedDice(dice, coin=0))
    driver.create("alice", "bob", "carol", ready=True)
    for name in ("alice", "bob", "carol"):
        driver.log_in(name, clip=False)
        driver.send(name, "set boardstyle 3")
    for name in ("alice", "bob", "carol"):
        driver.take(name)
    return driver


def test_a_correspondence_match_goes_on_across_logouts_with_reminders_at_login() -> None:
    driver = _telnet_trio(3, 1, 6, 5)
    driver.send("alice", "invite bob 3 days 1")
    driver.send("bob", "join alice")
    driver.log_out("alice", Departure.LOGGED_OUT)  # alice is to move
    assert driver.take("bob")[0] == (
        "** alice left the correspondence match. It goes on: the clock runs for whoever is to move.")
    assert driver.store.drop_count("alice") == 0
    driver.clock.advance(0.5 * DAY)
    driver.log_in("alice", clip=False)
    driver.run_jobs()  # (the saved matches are read in the background)
    assert driver.take("alice")[-1] == (
        "** Your move against bob (correspondence): 12:00:00 left. Type 'correspondence bob' to play.")
    assert driver.send("alice", "correspondence") == [
        "Your correspondence matches (opponent, score, to move, time left):",
        "  bob 0-0 of 3 alice 12:00:00"]
    entered = driver.send("alice", "correspondence bob")
    assert entered[0] == "You are now playing with bob. Your running match was loaded."
    assert entered[-1] == "Please move 2 pieces."
    driver.send("alice", "move 8-5 6-5")
    assert "alice moves 8-5 6-5 ." in driver.take("bob")
    driver.send("alice", "leave")
    driver.send("bob", "roll")
    driver.send("bob", "move 1-7 7-12")  # alice's clock runs while nobody waits for her
    driver.log_out("bob", Departure.DROPPED)
    driver.log_out("alice", Departure.LOGGED_OUT)
    driver.clock.advance(DAY - 1)
    _tick(driver)
    assert driver.store.match_records_of("alice") == []
    driver.clock.advance(1)
    _tick(driver)  # nobody online: alice loses on time all the same
    record = driver.store.match_records_of("alice")[0]
    assert record.winner == 1 and record.score == (0, 3)
    assert driver.store.saved_match("alice", "bob") is None and driver.registry.correspondence == {}


def test_many_correspondence_matches_at_once_and_one_table_at_a_time() -> None:
    driver = _telnet_trio(3, 1, 3, 1)
    driver.send("alice", "invite bob 1 days 2")
    driver.send("bob", "join alice")
    driver.send("alice", "leave")
    driver.send("alice", "invite carol 5 days 1")
    driver.send("carol", "join alice")
    driver.send("alice", "leave")
    listing = driver.send("alice", "correspondence")
    assert listing[1:] == ["  bob 0-0 of 1 alice 2d00:00:00", "  carol 0-0 of 5 alice 1d00:00:00"]
    driver.send("alice", "correspondence carol")
    assert driver.send("alice", "correspondence bob") == ["** You are already playing."]
    driver.send("alice", "leave")
    assert driver.send("alice", "invite bob 3") == [
        "** You have a correspondence match with bob: play it with 'correspondence bob'."]


def test_a_restart_gives_the_stint_again_and_login_ends_what_ran_out_meanwhile() -> None:
    driver = _telnet_trio(3, 1)
    driver.send("alice", "invite bob 1 days 1")
    driver.send("bob", "join alice")
    driver.clock.advance(0.9 * DAY)
    # kill -9, and the server is down for two days: alice could not move meanwhile.
    driver.clock.advance(2 * DAY)
    restarted = CoreDriver(ScriptedDice(), store=driver.store, clock=driver.clock)
    driver.clock.advance(0.5 * DAY)
    restarted.log_in("bob", clip=False)
    restarted.run_jobs()
    table = restarted.registry.correspondence[("alice", "bob")]
    assert table.timer is not None
    assert table.timer.deadline() == restarted.registry.started_at + DAY
    # Then nobody logs in while the day runs out: the next login ends the match.
    driver.clock.advance(0.5 * DAY)
    again = CoreDriver(ScriptedDice(), store=driver.store, clock=driver.clock)
    driver.clock.advance(DAY)
    again.log_in("bob", clip=False)  # this server has run a whole day: alice lost
    again.run_jobs()
    assert driver.store.match_records_of("bob")[0].winner == 1
    assert driver.store.saved_match("alice", "bob") is None


def test_the_ticker_is_wanted_only_while_a_clock_runs_and_not_before_its_deadline() -> None:
    driver = _driver(3, 1)
    assert timers.next_tick_in(driver.registry) is None
    _start(driver, "invite bob 1 clock 0 0.5")
    assert timers.next_tick_in(driver.registry) == 0.5
    driver.clock.advance(0.6)
    _tick(driver)
    assert driver.sessions["alice"].table is None
    assert timers.next_tick_in(driver.registry) is None


def test_a_fibs_client_plays_correspondence_with_fibs_lines_only_and_join_sits_down() -> None:
    """alice's client (CLIP, no extensions: Gibbon) shows any unknown `** ` line as an error
    dialog: leaving, the opponent leaving and sitting down, and the reminder at login reach
    it as FIBS's own lines, and FIBS's `join NAME` takes it back to the match."""
    driver = CoreDriver(ScriptedDice((3, 1, 6, 5), coin=0))
    driver.create("alice", "bob", ready=True)
    driver.log_in("alice")  # CLIP, extensions off
    driver.log_in("bob", clip=False)
    for name in ("alice", "bob"):
        driver.send(name, "set boardstyle 3")
    driver.send("alice", "invite bob 3 days 1")
    driver.send("bob", "join alice")
    driver.take("alice")
    assert driver.send("alice", "leave")[0] == "** You terminated the game. The game was saved."
    driver.send("alice", "correspondence bob")
    assert driver.send("bob", "leave")[0] == (
        "** You left the correspondence match with alice. It goes on: type 'correspondence alice' to come back.")
    assert driver.take("alice")[0] == "** Player bob has left the game. The game was saved."
    driver.send("bob", "correspondence alice")
    told = driver.take("alice")
    assert told[0] == "bob has joined you. Your running match was loaded."
    assert any(line.startswith("board:") for line in told[1:])
    driver.send("alice", "leave")
    driver.log_out("alice", Departure.LOGGED_OUT)
    driver.log_in("alice")
    driver.run_jobs()
    told = driver.take("alice")
    assert told[-1] == "bob wants to resume a saved match with you."
    assert not [line for line in told if line.startswith("** ")]
    joined = driver.send("alice", "join bob")
    assert joined[0] == "You are now playing with bob. Your running match was loaded."
    assert driver.sessions["alice"].table is driver.registry.correspondence[("alice", "bob")]
    assert "** alice sits down at your correspondence match." in driver.take("bob")
