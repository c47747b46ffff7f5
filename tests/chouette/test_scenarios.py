"""The specification's settlement scenarios (§1.19, T1-T8) with scripted dice and
set-up boards: every delta, the ledger's sum and the next queue."""

from __future__ import annotations

import pytest

from fibsd.rules.chouette import (
    CaptainChanged,
    Cause,
    Chouette,
    ChouetteError,
    ChouetteGameOver,
    ChouetteReason,
    ExtrasOpen,
    PartnerMode,
    PartnerPick,
    Settings,
    split_with_partner,
)
from fibsd.rules.events import GameResult

from .helpers import (
    BOX_SINGLE,
    TEAM_BACKGAMMONED,
    TEAM_GAMMONED,
    board,
    box_shuffle,
    deltas,
    ordered,
    team_shuffle,
)

NO_JACOBY = Settings(jacoby=False)


def finish(table: Chouette, who: str) -> None:
    """`who` (box or captain, with two checkers left on his 1-point) bears off."""
    table.roll(who, (2, 1))
    table.move(who, [(1, 0), (1, 0)])


def test_t1_multi_box_doubles_all_then_a_redouble_is_dropped() -> None:
    t = ordered(["alice", "bob", "carol", "dave"], NO_JACOBY)
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=0))
    t.double("alice")
    t.take("bob")
    t.drop("carol")
    assert t.live_members() == ("bob", "carol", "dave")  # sealed until all answered
    t.take("dave")
    assert t.live_members() == ("bob", "dave")
    finish(t, "alice")  # two of four off
    t.double("dave")
    assert t.main_of("dave") is not None and t.main_of("dave").value == 2  # type: ignore[union-attr]
    t.drop("alice", ["dave"])
    team_shuffle(t)
    events = finish_and_events(t, "alice")
    over = [e for e in events if isinstance(e, ChouetteGameOver)]
    assert over and over[0].box_won
    assert deltas(t) == {"alice": 3, "bob": -4, "carol": -1, "dave": 2}
    assert t.queue == ("alice", "carol", "dave", "bob")
    assert sum(t.totals().values()) == 0


def finish_and_events(table: Chouette, who: str) -> list[object]:
    table.roll(who, (2, 1))
    return list(table.move(who, [(1, 0), (1, 0)]))


def test_t2_single_five_players_lone_taker_must_drop() -> None:
    t = ordered(
        ["B", "C", "T2", "T3", "T4"],
        Settings.from_dict({**NO_JACOBY.to_dict(), "cubes": "single", "beavers": 0}),
    )
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=0))
    t.double("B")
    for name in ("C", "T2", "T3"):
        t.drop(name)
    events = t.take("T4")
    forced = [e for e in events if getattr(e, "forced", False)]
    assert len(forced) == 1 and forced[0].answerer == "T4"  # type: ignore[attr-defined]
    assert t.game is None  # every contract settled: the game is over
    assert deltas(t) == {"B": 4, "C": -1, "T2": -1, "T3": -1, "T4": -1}
    assert t.queue == ("B", "T2", "T3", "T4", "C")


def test_t3_single_cube_extras() -> None:
    s = Settings.from_dict(
        {**NO_JACOBY.to_dict(), "cubes": "single", "beavers": 0, "extras": True}
    )
    t = ordered(["B", "C", "T2", "T3"], s)
    t.start_game(board=board(BOX_SINGLE, {1: 2}, turn=0))
    t.double("B")
    t.drop("C")
    t.drop("T2")
    events = t.take("T3")
    assert t.captain == "T3"
    assert t.queue == ("B", "T2", "T3", "C")
    opened = [e for e in events if isinstance(e, ExtrasOpen)]
    assert opened == [ExtrasOpen("T3", ("C", "T2"), 1, 2)]
    with pytest.raises(ChouetteError) as refused:
        t.roll("B", (2, 1))  # the droppers may still give extras
    assert refused.value.reason is ChouetteReason.EXTRAS_OPEN
    t.extra("C")
    t.extra("T2")
    box_shuffle(t)
    t.double("T3")
    t.take("B")
    assert {c.member: c.value for c in t.contracts if c.live} == {"T3": 2}
    assert sorted(c.value for c in t.contracts if c.live) == [2, 2, 4]
    finish(t, "T3")
    assert deltas(t) == {"B": -2, "C": -4, "T2": -4, "T3": 10}
    assert t.queue == ("T3", "T2", "C", "B")
    fees = [r for r in t.ledger.rows if r.cause is Cause.EXTRA_FEE]
    assert [(r.loser, r.winner, r.amount) for r in fees] == [
        ("C", "T3", 1),
        ("T2", "T3", 1),
    ]


@pytest.mark.parametrize(("jacoby", "t2", "box"), [(False, -3, 8), (True, -1, 6)])
def test_t4_box_drops_the_captains_cube(jacoby: bool, t2: int, box: int) -> None:
    t = ordered(["B", "C", "T2", "T3"], Settings(jacoby=jacoby))
    t.start_game(board=board({1: 2}, TEAM_BACKGAMMONED, turn=1))
    t.double("C")
    t.double("T3")
    events = t.drop("B", ["C"])
    assert CaptainChanged("C", "T2", False) in events
    t.take("B", ["T3"])
    assert t.captain == "T2"
    team_shuffle(t)  # T2 rolls and moves for the team
    finish(t, "B")
    assert t.ledger.games[-1].box_won is False  # C beat the box when it dropped
    assert deltas(t) == {"B": box, "C": 1, "T2": t2, "T3": -6}
    assert t.queue == ("C", "T2", "T3", "B")
    results = {r.loser: r.result for r in t.ledger.rows if r.cause is Cause.RESULT}
    assert results == {"T2": GameResult.BACKGAMMON, "T3": GameResult.BACKGAMMON}


def test_t5_box_doubles_two_the_taker_becomes_captain_and_wins() -> None:
    t = ordered(["B", "C", "T2", "T3", "T4"], NO_JACOBY)
    t.start_game(board=board(BOX_SINGLE, {1: 2}, turn=0))
    t.double("B", ["C", "T2"])
    t.drop("C")
    t.take("T2")
    assert t.captain == "T2" and t.queue == ("B", "T2", "T3", "T4", "C")
    box_shuffle(t)
    finish(t, "T2")
    assert deltas(t) == {"B": -3, "C": -1, "T2": 2, "T3": 1, "T4": 1}
    assert t.queue == ("T2", "T3", "T4", "C", "B")


def test_t6_partner_split_formula() -> None:
    assert split_with_partner(-7) == (-4, -3)
    assert split_with_partner(5) == (3, 2)
    assert split_with_partner(1) == (1, 0)
    assert split_with_partner(0) == (0, 0)


def test_t6_partner_from_eight_players_shares_a_loss_of_seven() -> None:
    s = Settings(
        jacoby=False, partner=PartnerMode.OPTIONAL, partner_pick=PartnerPick.NEXT
    )
    names = ["B", "C", "T2", "T3", "T4", "T5", "T6", "T7"]
    t = ordered(names, s)
    t.start_game(board=board(BOX_SINGLE, {1: 2}, turn=1))
    t.request_partner("B")
    assert t.partner == "T2" and t.captain == "C"
    assert t.queue == ("B", "T2", "C", "T3", "T4", "T5", "T6", "T7")
    assert t.main_of("T2") is None  # the partner has no cube
    for name in ("C", "T3", "T4", "T5", "T6", "T7"):
        t.double(name)
    t.drop("B", ["C", "T3", "T4", "T5", "T6"])
    t.take("B", ["T7"])
    assert t.captain == "T7"
    finish(t, "T7")
    d = deltas(t)
    assert d["B"] == -4 and d["T2"] == -3 and d["T7"] == 2
    assert sum(d.values()) == 0
    # C63: the captain who beat the box is box, the old partner captain, B last
    assert t.queue == ("C", "T2", "T3", "T4", "T5", "T6", "T7", "B")
    assert t.partner is None and t.captain == "T2"


def test_t6_partner_by_offer_keeps_the_box_run_when_the_box_wins() -> None:
    s = Settings(jacoby=False)
    names = ["B", "C", "T2", "T3", "T4", "T5", "T6", "T7"]
    t = ordered(names, s)
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=1))
    t.request_partner("B")
    assert t.partner_offered_to == "C"
    t.partner_answer("C", False)
    assert t.partner_offered_to == "T7"  # then from the end of the queue backwards
    t.partner_answer("T7", False)
    t.partner_answer("T6", True)
    assert t.queue == ("B", "T6", "C", "T2", "T3", "T4", "T5", "T7")
    t.resign("C", GameResult.GAMMON)
    t.accept_resignation("B")
    assert t.captain == "T2" and t.queue[-1] == "C"
    t.resign("B", GameResult.SINGLE, ["T2"])
    t.accept_resignation("T2")  # T2 (captain for rotation now) beats the box
    team_shuffle(t)
    finish(t, "B")
    d = deltas(t)
    # B side: +2 (C) -1 (T2) +2 x 4 (T3, T4, T5, T7 gammoned) = +9: box 5, partner 4
    assert d["B"] == 5 and d["T6"] == 4 and sum(d.values()) == 0
    assert t.queue[0] == "T2" and t.partner is None


def test_t7_absent_captain_copies_the_new_captains_take() -> None:
    t = ordered(["B", "C", "T2", "T3"], NO_JACOBY)
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.double("B")
    t.take("T2")
    t.drop("T3")
    events = t.captain_absent()
    assert t.captain == "T2"
    answers = {
        e.answerer: (e.answer.value, e.proxied) for e in events if hasattr(e, "proxied")
    }  # type: ignore[attr-defined]
    assert answers == {
        "C": ("take", True),
        "T2": ("take", False),
        "T3": ("drop", False),
    }
    assert t.queue == ("B", "T2", "T3", "C")  # C counts as a dropped captain
    finish(t, "B")
    assert deltas(t) == {"B": 9, "C": -4, "T2": -4, "T3": -1}
    assert t.queue == ("B", "T3", "C", "T2")


def test_t8_box_abandons_at_the_worst_result() -> None:
    t = ordered(["B", "C", "T2"], NO_JACOBY)
    t.start_game(board=board({25: 1, 13: 14}, {1: 6}, turn=1))
    t.double("C")
    t.take("B")
    t.leave("B", now=True)
    rows = [(r.winner, r.amount, r.cause) for r in t.ledger.rows]
    assert rows == [("C", 6, Cause.ABANDON), ("T2", 3, Cause.ABANDON)]
    assert t.game is None and t.queue == ("C", "T2")
