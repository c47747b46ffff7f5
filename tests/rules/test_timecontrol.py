"""The pure clock model (fibsd.rules.timecontrol): delay arithmetic, overtime, expiry."""

from __future__ import annotations

import pytest

from fibsd.rules.timecontrol import Expiry, MatchClock, TimeControl

T0 = 1_700_000_000.0


def test_25_seconds_taken_with_a_12_second_delay_costs_13_seconds() -> None:
    clock = MatchClock(TimeControl(delay=12, reserve=600))
    clock.start(0, T0)
    assert clock.stop(T0 + 25) == 13
    assert clock.reserves == [587, 600]


def test_acting_within_the_delay_costs_nothing() -> None:
    clock = MatchClock(TimeControl(delay=12, reserve=600))
    clock.start(1, T0)
    assert clock.remaining(1, T0 + 11.5) == 600
    assert clock.delay_left(1, T0 + 4) == 8
    clock.start(0, T0 + 11.9)  # a handover stops the running clock first
    assert clock.reserves == [600, 600]
    assert clock.running == 0


def test_the_deadline_is_the_delay_plus_the_reserve_left() -> None:
    clock = MatchClock(TimeControl(delay=12, reserve=100))
    clock.start(0, T0)
    clock.stop(T0 + 42)  # 30 s of reserve used
    clock.start(0, T0 + 50)
    assert clock.deadline() == T0 + 50 + 12 + 70
    assert clock.expire(T0 + 131.9) is None
    assert clock.expire(T0 + 132) is Expiry.LOST
    assert clock.lost == 0 and clock.running is None and clock.deadline() is None


def test_one_overtime_then_a_loss() -> None:
    clock = MatchClock(TimeControl(delay=1, reserve=1, overtime=60))
    clock.start(1, T0)
    assert clock.expire(T0 + 2) is Expiry.OVERTIME
    assert clock.deadline() == T0 + 62
    assert clock.remaining(1, T0 + 2) == 60
    assert clock.expire(T0 + 61) is None
    assert clock.expire(T0 + 62) is Expiry.LOST
    assert clock.lost == 1


def test_overtime_pays_for_a_late_action_the_server_had_not_noticed() -> None:
    clock = MatchClock(TimeControl(delay=0, reserve=10, overtime=60))
    clock.start(0, T0)
    clock.stop(T0 + 15)  # 5 s past the reserve: overtime used, 55 s left
    assert clock.overtime_used == [True, False]
    assert clock.reserves[0] == 55
    clock.start(0, T0 + 20)
    assert clock.expire(T0 + 75) is Expiry.LOST  # no second overtime


def test_a_per_game_reserve_is_full_again_each_game() -> None:
    control = TimeControl.delay_clock(12, 300, None)
    assert control.per_game and control.reserve == 300
    clock = MatchClock(control)
    clock.start(0, T0)
    clock.stop(T0 + 112)
    assert clock.reserves == [200, 300]
    clock.new_game(1)  # the same game (e.g. after a resume): nothing changes
    assert clock.reserves == [200, 300]
    clock.new_game(2)
    assert clock.reserves == [300, 300]


def test_a_match_reserve_is_per_point_and_kept_between_games() -> None:
    control = TimeControl.delay_clock(12, 120, 9)
    assert (control.delay, control.reserve, control.per_game) == (12, 1080, False)
    clock = MatchClock(control)
    clock.start(0, T0)
    clock.stop(T0 + 112)
    clock.new_game(2)
    assert clock.reserves == [980, 1080]


def test_correspondence_is_a_limit_per_move_with_nothing_carried_over() -> None:
    clock = MatchClock(TimeControl.days(2))
    clock.start(0, T0)
    assert clock.deadline() == T0 + 2 * 86400
    assert clock.remaining(0, T0 + 86400) == 86400
    clock.start(1, T0 + 86400 * 1.9)  # moved with 0.1 day left
    assert clock.deadline() == T0 + 86400 * 3.9
    assert clock.remaining(0, T0 + 86400 * 2) == 2 * 86400
    assert clock.expire(T0 + 86400 * 3.9) is Expiry.LOST
    assert clock.lost == 1


def test_a_tiny_correspondence_limit() -> None:
    control = TimeControl.days(0.0001)
    assert control.per_move == pytest.approx(8.64)


def test_nothing_runs_when_stopped_and_a_lost_clock_stays_stopped() -> None:
    clock = MatchClock(TimeControl(delay=1, reserve=1))
    assert clock.expire(T0 + 1000) is None
    clock.start(0, T0)
    clock.stop(T0 + 1)
    assert clock.deadline() is None
    clock.start(0, T0 + 2)
    assert clock.expire(T0 + 4) is Expiry.LOST
    clock.start(1, T0 + 5)
    assert clock.running is None


def test_saved_and_restored_with_the_reserves_kept() -> None:
    clock = MatchClock(TimeControl(delay=12, reserve=600, overtime=60))
    clock.start(0, T0)
    clock.stop(T0 + 100)
    clock.start(1, T0 + 100)
    copy = MatchClock.from_dict(clock.to_dict())
    assert copy == clock


def test_a_resumed_stint_starts_again_without_charging_the_downtime() -> None:
    clock = MatchClock(TimeControl(delay=12, reserve=600))
    clock.start(0, T0)
    # kill -9 at T0 + 200; the match comes back a day later
    copy = MatchClock.from_dict(clock.to_dict())
    copy.resumed(T0 + 86400)
    assert copy.remaining(0, T0 + 86400 + 12) == 600
    assert copy.deadline() == T0 + 86400 + 612


def test_a_correspondence_deadline_is_not_moved_by_a_resume() -> None:
    clock = MatchClock(TimeControl.days(1))
    clock.start(0, T0)
    clock.resumed(T0 + 1000)
    assert clock.deadline() == T0 + 86400


def test_negative_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        TimeControl(delay=-1)
    with pytest.raises(ValueError):
        TimeControl(per_move=float("nan"))
