"""Clocks that keep time while everyone is away (docs/clocks.md, issue 34 §1-§3).

Injected time (the driver's manual clock) and a restart as the shell does one: a new core
on the same store, `results.clocks_at_start` applied as `Server.serve` applies it. The
saved matches whose clocks run while nobody is there come back, the one tick ends what
runs out, the match is rated through the store, and the players away are told by a FIBS
message.
"""

from __future__ import annotations

from fibsd.app import results
from fibsd.app.session import Departure
from fibsd.domain.dice import ScriptedDice
from fibsd.domain.ratings import rating_change
from tests.app.driver import CoreDriver

DAY = 86400.0


def _pair(*dice: int, **settings: object) -> CoreDriver:
    driver = CoreDriver(ScriptedDice(dice, coin=0), **settings)
    driver.create("alice", "bob", "carol", ready=True)
    for name in ("alice", "bob"):
        driver.log_in(name, clip=False)
        driver.send(name, "set boardstyle 3")
        driver.take(name)
    return driver


def _restart(driver: CoreDriver, **settings: object) -> CoreDriver:
    """kill -9 and a new server on the same store, at the same (manual) time."""
    restarted = CoreDriver(ScriptedDice(), store=driver.store, clock=driver.clock, **settings)
    restarted.apply(results.clocks_at_start(restarted.registry))
    return restarted


def test_a_restart_with_both_players_away_ends_the_match_on_the_tick_rates_it_and_tells_the_loser() -> None:
    driver = _pair(3, 1)
    driver.send("alice", "invite bob 3 days 1")
    driver.send("bob", "join alice")  # alice opens with 3-1: she is to move
    driver.log_out("alice", Departure.LOGGED_OUT)
    driver.log_out("bob", Departure.LOGGED_OUT)
    before = driver.store.get_account("alice"), driver.store.get_account("bob")
    assert before[0] is not None and before[1] is not None
    driver.clock.advance(0.5 * DAY)
    restarted = _restart(driver)
    assert ("alice", "bob") in restarted.registry.correspondence  # loaded with nobody online
    restarted.tick(DAY - 1)
    assert driver.store.match_records_of("alice") == []
    restarted.tick(1)  # a whole day since the restart: alice's time ran out
    record = driver.store.match_records_of("alice")[0]
    assert record.winner == 1 and record.score == (0, 3)
    assert driver.store.saved_match("alice", "bob") is None
    alice, bob = driver.store.get_account("alice"), driver.store.get_account("bob")
    assert alice is not None and bob is not None
    assert alice.rating < before[0].rating and bob.rating > before[1].rating
    assert (alice.experience, bob.experience) == (before[0].experience + 3, before[1].experience + 3)
    # The loser logs in (telnet) and finds FIBS's message; the winner too, from a FIBS client.
    told = restarted.log_in("alice", clip=False) and restarted.take("alice")
    assert "There are messages for you:" in told
    assert any(line.startswith("Message from bob: bob won the 3 point correspondence match against"
                               " alice 3-0: alice ran out of time.") for line in told)
    restarted.log_in("bob")  # CLIP, no extensions: a CLIP 9 line, no unknown `** ` line
    told = restarted.take("bob")
    assert any(line.startswith("9 alice ") and line.endswith(
        " bob won the 3 point correspondence match against alice 3-0: alice ran out of time.")
        for line in told)
    assert not [line for line in told if line.startswith("** ")]
    assert driver.store.pending_messages("alice") == []  # shown once


def test_a_player_online_elsewhere_hears_at_once_and_the_one_at_the_table_gets_his_rating() -> None:
    driver = _pair(3, 1)
    driver.send("alice", "invite bob 1 days 1")
    driver.send("bob", "join alice")
    driver.send("alice", "leave")  # alice is to move, online but not at the table
    driver.take("bob")
    driver.clock.advance(DAY)
    driver.tick()
    assert driver.take("bob")[-1] == "You win the 1 point match 1-0 ."
    told = driver.take("alice")  # (her `report` line, then the message)
    assert told[-1] == ("Message from bob: bob won the 1 point correspondence match against alice 1-0:"
                        " alice ran out of time.")
    assert driver.send("alice", "message") == told[-1:]  # kept like any message received
    assert driver.store.pending_messages("alice") == []


def test_a_loss_on_time_with_the_loser_offline_since_before_a_restart_is_rated() -> None:
    driver = _pair(3, 1)
    driver.send("alice", "invite bob 1 days 1")
    driver.send("bob", "join alice")
    driver.log_out("alice", Departure.LOGGED_OUT)
    driver.log_out("bob", Departure.LOGGED_OUT)
    restarted = _restart(driver)
    restarted.hold_jobs = True
    restarted.log_in("bob", clip=False)
    restarted.run_jobs()
    restarted.send("bob", "toggle ratings")
    restarted.send("bob", "correspondence alice")
    restarted.take("bob")
    restarted.tick(DAY)  # alice (offline, unknown to this server) runs out
    assert restarted.take("bob")[-2:] == ["** alice ran out of time and loses the match.",
                                          "You win the 1 point match 1-0 ."]
    assert restarted.run_jobs() >= 1  # her account is read through the store, then rated
    told = restarted.take("bob")
    assert told[0] == "rating calculation:" and "change for bob: 4*K*sqrt(N)*P=10.000000" in told
    alice, bob = driver.store.get_account("alice"), driver.store.get_account("bob")
    assert alice is not None and bob is not None
    assert alice.rating < 1500 < bob.rating
    assert restarted.sessions["bob"].account.rating == bob.rating
    assert driver.store.pending_messages("alice")[0].text.endswith(": alice ran out of time.")


def test_two_losses_of_an_absent_player_rated_one_after_the_other_both_count() -> None:
    driver = _pair(3, 1, 3, 1)
    driver.log_in("carol", clip=False)
    driver.send("alice", "invite bob 1 days 1")
    driver.send("bob", "join alice")
    driver.send("alice", "leave")
    driver.send("alice", "invite carol 1 days 1")
    driver.send("carol", "join alice")
    for name in ("alice", "bob", "carol"):
        driver.log_out(name, Departure.LOGGED_OUT)
    restarted = _restart(driver)
    restarted.hold_jobs = True
    restarted.tick(DAY)  # both of alice's matches run out in one tick: two reads of her
    assert restarted.run_jobs() == 2
    first = rating_change(winner_rating=1500, winner_experience=0, loser_rating=1500,
                          loser_experience=0, match_length=1)
    second = rating_change(winner_rating=1500, winner_experience=0,
                           loser_rating=first.loser_rating, loser_experience=1, match_length=1)
    alice = driver.store.get_account("alice")
    assert alice is not None  # the second loss built on the first (no update lost)
    assert (alice.rating, alice.experience) == (second.loser_rating, 2)


def test_a_droppers_clock_runs_through_a_restart_and_ends_the_match_on_the_tick() -> None:
    driver = _pair(3, 1, limits__reconnect_grace_seconds=300)
    driver.send("alice", "invite bob 1 clock 1 60")
    driver.send("bob", "join alice")
    driver.log_out("alice", Departure.DROPPED)  # alice is to move: her clock runs (K8)
    saved = driver.store.saved_match("alice", "bob")
    assert saved is not None and saved["dropped"][0] == 0
    restarted = _restart(driver, limits__reconnect_grace_seconds=300)  # kill -9
    assert "alice" in restarted.registry.suspended
    restarted.tick(60)
    assert driver.store.match_records_of("alice") == []
    restarted.tick(1.5)  # the delay and the reserve, counted from the restart
    record = driver.store.match_records_of("alice")[0]
    assert record.winner == 1 and restarted.registry.suspended == {}
    alice = driver.store.get_account("alice")
    assert alice is not None and alice.rating < 1500
    assert driver.store.pending_messages("bob")[0].text == (
        "bob won the 1 point match against alice 1-0: alice ran out of time.")


def test_a_dropper_back_after_a_restart_finds_an_ordinary_saved_match() -> None:
    driver = _pair(3, 1, limits__reconnect_grace_seconds=300)
    driver.send("alice", "invite bob 1 clock 1 60")
    driver.send("bob", "join alice")
    driver.log_out("alice", Departure.DROPPED)
    restarted = _restart(driver, limits__reconnect_grace_seconds=300)
    restarted.tick(30)
    restarted.log_in("alice", clip=False)
    assert restarted.registry.suspended == {}
    saved = driver.store.saved_match("alice", "bob")
    assert saved is not None and saved["clock"]["running"] is None and saved["dropped"] is None
    restarted.tick(3600)  # a saved match's clock waits
    assert driver.store.match_records_of("alice") == []
    restarted.log_in("bob", clip=False)
    restarted.send("bob", "invite alice")
    restarted.send("alice", "join bob")
    table = restarted.sessions["alice"].table
    assert table is not None and table.timer is not None and table.timer.running == 0
