"""Cube play, seats, consultation, refusals and saving a chouette mid-game."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from fibsd.rules.chouette import (
    Answer,
    BadSetting,
    BoxLimits,
    Chouette,
    ChouetteReason,
    Consult,
    Cubes,
    CubesAutoDoubled,
    Holder,
    LoneTaker,
    Settings,
    TablePhase,
    parse_settings,
)
from fibsd.rules.errors import ActionReason, RuleError
from fibsd.rules.events import GameResult

from .helpers import (
    BOX_SINGLE,
    TEAM_GAMMONED,
    TEAM_SINGLE,
    board,
    ordered,
    team_shuffle,
)

R = ChouetteReason


def finish(table: Chouette, who: str) -> None:
    table.roll(who, (2, 1))
    table.move(who, [(1, 0), (1, 0)])


def refused(table: Chouette, action: Callable[[], object], reason: object) -> None:
    """The action raises with `reason` and leaves the table exactly as it was."""
    before = table.to_dict()
    with pytest.raises(RuleError) as info:
        action()
    assert info.value.reason is reason
    assert table.to_dict() == before


# --- settings ---------------------------------------------------------------------


def test_defaults_follow_the_specification() -> None:
    s = Settings()
    assert (s.cubes, s.consult, s.jacoby, s.beavers, s.autodoubles) == (
        Cubes.MULTI,
        Consult.CUBE,
        True,
        1,
        0,
    )
    assert (s.fiveplus, s.extras, s.box_limits, s.partner_from, s.seats_max) == (
        True,
        False,
        BoxLimits.NONE,
        8,
        10,
    )
    assert Settings(cubes=Cubes.SINGLE).beavers == 0


def test_parse_settings() -> None:
    s = parse_settings(["single", "extras=on", "autodoubles=1", "consult=free"])
    assert s.cubes is Cubes.SINGLE and s.extras and s.autodoubles == 1
    assert s.consult is Consult.FREE and s.beavers == 0
    assert Settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert ("cubes", "single") in s.describe()
    for words in (
        ["colour=red"],
        ["jacoby=maybe"],
        ["beavers=3"],
        ["seats_max=11"],
        ["single", "beavers=1"],
        ["jacoby=on", "jacoby=off"],
        ["extras"],
    ):
        with pytest.raises(BadSetting):
            parse_settings(words)


def test_the_doubling_window_setting_is_gone_but_old_tables_load() -> None:
    # It did nothing (members double until the captain rolls), so it is refused now;
    # a table saved while it existed still loads, the key ignored.
    with pytest.raises(BadSetting, match="no such setting"):
        parse_settings(["double_window_seconds=5"])
    assert "double_window_seconds" not in Settings().to_dict()
    old = {**Settings().to_dict(), "double_window_seconds": 10}
    assert Settings.from_dict(old) == Settings()


# --- seats and order --------------------------------------------------------------


def test_initial_order_rerolls_ties_among_the_tied_only() -> None:
    t = Chouette(Settings(), ["a", "b", "c", "d"])
    refused(t, lambda: t.start_game(), R.WRONG_PHASE)
    t.begin_order()
    refused(t, lambda: t.order_roll({"a": 5, "b": 5}), R.BAD_DICE)
    events = t.order_roll({"a": 3, "b": 5, "c": 5, "d": 1})
    assert t.order_to_roll == ("b", "c")
    assert events[0].tied == ("b", "c")  # type: ignore[union-attr]
    t.join("e")  # joins while the order is rolled: placed after it
    t.order_roll({"b": 2, "c": 6})
    assert t.queue == ("c", "b", "a", "d", "e")
    assert t.phase is TablePhase.BETWEEN_GAMES
    assert (t.box, t.captain) == ("c", "b")


def test_start_needs_three_and_the_table_has_a_limit() -> None:
    t = Chouette(Settings(seats_max=3), ["a", "b"])
    refused(t, t.begin_order, R.TOO_FEW_PLAYERS)
    t.join("c")
    refused(t, lambda: t.join("d"), R.TABLE_FULL)
    refused(t, lambda: t.join("c"), R.ALREADY_SEATED)


def test_leaving_between_games_and_during_a_game() -> None:
    t = ordered(["a", "b", "c", "d", "e"])
    t.leave("a")  # the box leaves between games: the captain is the next box (C68)
    assert (t.box, t.captain) == ("b", "c")
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.leave("d")  # holds a live contract: deferred (C67)
    assert t.leaving == ("d",)
    t.double("b")
    t.drop("c")
    t.drop("d")
    t.take("e")
    t.leave("c")  # dropped: out at once (C66)
    assert "c" not in t.queue
    finish(t, "b")
    assert t.queue == ("b", "e")
    assert t.totals() == {"b": 6, "c": -1, "d": -1, "e": -4}  # e is gammoned


def test_leave_now_abandons_at_the_worst_result() -> None:
    t = ordered(["a", "b", "c"], Settings(jacoby=False))
    t.start_game(board=board({1: 4}, {13: 14, 20: 1}, turn=1))
    t.leave("c", now=True)  # backgammon still possible: pays 3
    assert t.totals() == {"a": 3, "c": -3}
    assert t.queue == ("a", "b") and t.game is not None
    t.leave("b", now=True)  # the last member: the game ends, the box keeps the box
    assert t.game is None and t.queue == ("a",)
    assert t.totals() == {"a": 6, "b": -3, "c": -3}


def test_sitting_out_skips_roles_then_moves_to_the_end() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.sit_out("b")
    t.start_game()
    assert (t.box, t.captain) == ("a", "c")
    assert t.queue == ("a", "c", "d", "b") and "b" not in t.participants


# --- doubling ---------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=0))
    refused(t, lambda: t.roll("c", (3, 1)), R.NOT_BOX_OR_CAPTAIN)  # crew rolls
    refused(t, lambda: t.roll("b", (3, 1)), ActionReason.NOT_YOUR_TURN)
    refused(t, lambda: t.take("a", ["b"]), R.NOT_DOUBLED)
    refused(t, lambda: t.double("c"), R.CANNOT_DOUBLE)  # not the team's turn
    t.double("a", ["b", "c"])
    refused(t, lambda: t.take("a", ["d"]), R.NOT_DOUBLED)  # accepts for the undoubled
    refused(t, lambda: t.take("d"), R.NOT_DOUBLED)
    refused(t, lambda: t.roll("a", (3, 1)), R.ANSWERS_PENDING)
    t.take("b")
    refused(t, lambda: t.drop("b"), R.ALREADY_ANSWERED)
    refused(t, lambda: t.resign("b", GameResult.SINGLE), R.ANSWERS_PENDING)
    t.beaver("c")
    refused(t, lambda: t.raccoon("a"), R.NO_BEAVERS)  # beavers=1: no raccoons
    finish(t, "a")
    refused(t, lambda: t.double("b", ["zed"]), R.CANNOT_DOUBLE)
    refused(t, lambda: t.double("a"), R.CANNOT_DOUBLE)


def test_six_players_box_doubles_everyone_two_drop_one_beavers() -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    t = ordered(names, Settings(jacoby=False, beavers=2))
    t.start_game(board=board({1: 2}, TEAM_SINGLE, turn=0))
    t.double("a")
    t.take("b")
    t.drop("c")
    t.drop("d")
    t.beaver("e")
    t.take("f")
    assert {c.member: (c.value, c.owner) for c in t.contracts if c.live} == {
        "b": (2, Holder.TEAM),
        "e": (4, Holder.TEAM),
        "f": (2, Holder.TEAM),
    }
    t.raccoon("a", ["e"])
    assert t.main_of("e").value == 8  # type: ignore[union-attr]
    finish(t, "a")
    assert dict(t.ledger.games[-1].deltas) == {
        "a": 14,
        "b": -2,
        "c": -1,
        "d": -1,
        "e": -8,
        "f": -2,
    }
    assert t.queue == ("a", "c", "d", "e", "f", "b")


def test_fiveplus_beaver_variant_and_off() -> None:
    names = ["a", "b", "c", "d", "e"]
    t = ordered(names, Settings(lone_taker=LoneTaker.BEAVER, jacoby=False))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.double("a")
    for n in ("b", "c", "d"):
        t.drop(n)
    t.take("e")
    assert t.main_of("e").value == 4 and t.captain == "e"  # type: ignore[union-attr]
    t = ordered(names, Settings(fiveplus=False))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.double("a")
    for n in ("b", "c", "d"):
        t.drop(n)
    t.take("e")
    assert t.main_of("e").value == 2


def test_box_limits() -> None:
    names = ["a", "b", "c", "d"]
    t = ordered(names, Settings(box_limits=BoxLimits.CAPTAIN))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=1))
    t.double("b")
    t.double("c")
    t.take("a", ["c"])
    refused(t, lambda: t.drop("a", ["b"]), R.BOX_LIMIT)
    t = ordered(names, Settings(box_limits=BoxLimits.HALF))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=1))
    for n in ("b", "c", "d"):
        t.double(n)
    t.take("a", ["b"])
    refused(t, lambda: t.drop("a"), R.BOX_LIMIT)  # one of three is not half
    t.take("a", ["c"])
    t.drop("a", ["d"])
    t = ordered(names, Settings(box_limits=BoxLimits.SAME_VALUE))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    events = t.double("a", ["b"])  # every cube of that value joins in
    assert len(events) == 3


def test_single_cube_team_doubles_as_a_unit() -> None:
    t = ordered(["a", "b", "c", "d"], Settings(cubes=Cubes.SINGLE, jacoby=False))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=1))
    refused(t, lambda: t.double("c"), R.CANNOT_DOUBLE)  # only the captain
    t.double("b")
    refused(t, lambda: t.take("a", ["b"]), R.SINGLE_CUBE)
    refused(t, lambda: t.beaver("a"), R.NO_BEAVERS)
    t.take("a")
    assert {c.value for c in t.contracts} == {2}
    team_shuffle(t)
    t.double("a")
    t.take("b")
    t.drop("c")
    t.take("d")
    finish(t, "a")
    assert dict(t.ledger.games[-1].deltas) == {"a": 18, "b": -8, "c": -2, "d": -8}


def test_team_drop_of_single_cube_ends_the_game() -> None:
    t = ordered(["a", "b", "c"], Settings(cubes=Cubes.SINGLE))
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=1))
    t.double("b")
    t.drop("a")
    assert t.game is None and t.queue == ("b", "c", "a")


def test_automatic_doubles_on_opening_ties() -> None:
    t = ordered(["a", "b", "c"], Settings(autodoubles=1))
    t.start_game()
    assert CubesAutoDoubled(2) in t.opening_roll(4, 4)
    assert CubesAutoDoubled(4) not in t.opening_roll(3, 3)
    t.opening_roll(3, 1)
    assert all(c.value == 2 and c.owner is None and not c.turned for c in t.contracts)
    assert not t.in_game("b")


def test_resignations_per_contract_with_jacoby() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=1))
    t.double("c")
    t.take("a")
    t.resign("a", GameResult.GAMMON, ["b", "c"])
    refused(t, lambda: t.roll("b", (2, 1)), R.RESIGNATION_PENDING)
    t.accept_resignation("c")
    t.reject_resignation("b")
    # c's cube was turned: a gammon at 2; b's never was, but b rejected
    assert t.totals() == {"c": 4, "a": -4}
    t.resign("d", GameResult.BACKGAMMON)
    t.accept_resignation("a")  # Jacoby: a cube never turned counts single
    assert t.totals()["d"] == -1


# --- consultation -----------------------------------------------------------------


def test_consultation_cube_mode() -> None:
    t = ordered(["a", "b", "c", "d", "e"])
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=0))
    assert t.may_team_talk("b")  # the captain always
    assert not t.may_team_talk("c")  # no cube in the game yet
    assert not t.may_team_talk("a") and t.may_boxside_talk("a")
    assert not t.may_talk_privately("a", "c")
    t.double("a", ["c", "d"])
    assert not t.may_team_talk("b")  # muted on cube decisions
    t.take("c")
    t.drop("d")
    assert t.may_team_talk("c") and not t.may_team_talk("d")
    assert "d" not in t.team_audience()
    assert not t.may_team_talk("b", doubling_window_open=True)


def test_consultation_free_and_none() -> None:
    t = ordered(["a", "b", "c"], Settings(consult=Consult.FREE))
    t.start_game()
    assert t.may_team_talk("c") and t.may_talk_privately("a", "c")
    t = ordered(["a", "b", "c"], Settings(consult=Consult.NONE))
    t.start_game()
    assert not t.may_team_talk("b")


# --- saving -----------------------------------------------------------------------


def test_round_trip_mid_game_resumes_exactly() -> None:
    t = ordered(["a", "b", "c", "d"], Settings(extras=True))
    t.start_game()
    t.opening_roll(5, 2)
    t.move("a", [(13, 8), (24, 22)])
    t.double("b")
    t.double("d")
    t.take("a", ["b"])
    t.join("e")
    saved = json.loads(json.dumps(t.to_dict()))
    copy = Chouette.from_dict(saved)
    assert copy == t
    for table in (t, copy):
        table.drop("a", ["d"])
        table.roll("b", (6, 6))
    assert copy == t
    with pytest.raises(ValueError):
        Chouette.from_dict({**saved, "version": 99})


def test_table_closes_between_games_only() -> None:
    t = ordered(["a", "b", "c"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    refused(t, t.close, R.GAME_IN_PROGRESS)
    finish(t, "a")
    events = t.close()
    assert events[0].totals == (("a", 2), ("b", -1), ("c", -1))  # type: ignore[union-attr]
    refused(t, lambda: t.join("z"), R.CLOSED)


def test_standings() -> None:
    t = ordered(["a", "b", "c"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    finish(t, "a")
    t.start_game(board=board(BOX_SINGLE, {1: 2}, turn=1))
    finish(t, "c")
    rows = {s.name: s for s in t.ledger.standings()}
    assert rows["a"].total == 0 and rows["a"].box_games == 2 and rows["a"].box_wins == 1
    assert rows["c"].best == 1 and rows["b"].worst == -1
    assert Answer.TAKE.value == "take"


def test_the_last_tied_player_leaving_decides_the_order() -> None:
    t = Chouette(Settings(), ["a", "b", "c", "d"])
    t.begin_order()
    t.order_roll({"a": 6, "b": 4, "c": 4, "d": 2})
    t.leave("c")
    assert t.phase is TablePhase.BETWEEN_GAMES and t.queue == ("a", "b", "d")


def test_malformed_saves_are_refused() -> None:
    t = ordered(["a", "b", "c"])
    t.start_game()
    saved = t.to_dict()
    for broken in (
        {k: v for k, v in saved.items() if k != "queue"},
        {**saved, "captain": "zed"},  # a captain with no live contract
        {**saved, "settings": {**saved["settings"], "beavers": 7}},
        {**saved, "contracts": [{**saved["contracts"][0], "value": 3}]},
    ):
        with pytest.raises(ValueError):
            Chouette.from_dict(broken)
    assert Chouette.from_dict(saved) == t


def test_the_partners_leave_waits_for_the_games_end() -> None:
    s = Settings(partner_from=4)
    t = ordered(["a", "b", "c", "d"], s)
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.request_partner("a")
    t.partner_answer("b", True)
    assert (t.partner, t.captain) == ("b", "c")
    t.leave("b", now=True)  # his share of this game is still open
    assert t.leaving == ("b",) and t.partner == "b"
    finish(t, "a")
    d = dict(t.ledger.games[-1].deltas)
    assert d == {"a": 1, "b": 1, "c": -1, "d": -1}  # Jacoby: singles; +2 net split
    assert t.queue == ("a", "d", "c") and t.partner is None
