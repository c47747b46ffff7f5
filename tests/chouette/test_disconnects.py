"""Disconnects and silence (§1.16, C29, C70-C73), extras played out (C47, C55) and the
mandatory partner (C60)."""

from __future__ import annotations

import pytest

from fibsd.rules.chouette import (
    Answer,
    Cause,
    Chouette,
    ChouetteError,
    ChouetteReason,
    DoubleAnswered,
    PartnerMode,
    Settings,
)
from fibsd.rules.events import GameResult

from .helpers import TEAM_GAMMONED, TEAM_SINGLE, board, ordered


def answers(events: list[object]) -> dict[str, tuple[Answer, bool]]:
    return {
        e.answerer: (e.answer, e.proxied)
        for e in events
        if isinstance(e, DoubleAnswered)
    }


def test_silent_members_get_the_captains_answer_when_time_runs_out() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.double("a")
    t.take("b")
    assert t.waiting_for() == ("c", "d")
    got = answers(t.answer_timeout())
    assert got == {
        "b": (Answer.TAKE, False),
        "c": (Answer.TAKE, True),
        "d": (Answer.TAKE, True),
    }


def test_silent_members_drop_when_the_captain_was_silent_too() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.double("a")
    t.take("c")
    got = answers(t.answer_timeout())
    assert got["b"] == (Answer.DROP, True) and got["d"] == (Answer.DROP, True)
    assert got["c"] == (Answer.TAKE, False) and t.captain == "c"


def test_a_proxied_member_never_blocks_and_follows_the_captain() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.set_proxy("d")
    assert not t.eligible_doubles("d")
    t.double("a")
    t.drop("b")
    events = t.take("c")  # the last member present: revealed at once
    assert answers(events)["d"] == (Answer.DROP, True)  # copies the captain (b)
    t.roll("a", (2, 1))
    t.move("a", [(1, 0), (1, 0)])
    assert t.sitting_out == {"d"}  # still away at the game's end (C71)


def test_a_delegating_member_copies_his_delegate_not_the_captain() -> None:
    t = ordered(["a", "b", "c", "d", "e"], Settings(fiveplus=False))
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    events = t.delegate("d", "c")
    assert t.proxied == {"d"} and not t.eligible_doubles("d")
    assert any(getattr(e, "to", None) == "c" for e in events)
    t.double("a")
    t.drop("b")  # the captain drops...
    t.take("c")
    got = answers(t.take("e"))  # the last member present: revealed at once
    assert got["d"] == (Answer.TAKE, True)  # ... but d follows c, his delegate
    assert Chouette.from_dict(t.to_dict()) == t  # the delegation is saved
    t.roll("a", (2, 1))
    t.move("a", [(1, 0), (1, 0)])
    assert t.sitting_out == {"d"} and not t.proxied  # stepped away: sits out next


def test_a_delegate_who_did_not_answer_leaves_the_captains_answer() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.delegate("d", "c")
    t.set_proxy("c")  # the delegate dropped his connection too
    t.double("a")
    got = answers(t.take("b"))
    assert got["d"] == (Answer.TAKE, True) and got["c"] == (Answer.TAKE, True)


def test_delegate_refusals_change_nothing_and_off_takes_control_back() -> None:
    t = ordered(["a", "b", "c", "d"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    saved = t.to_dict()
    for name, to, reason in (
        ("d", "d", ChouetteReason.BAD_DELEGATE),
        ("d", "a", ChouetteReason.BAD_DELEGATE),  # the box is no team member
        ("b", "c", ChouetteReason.NOT_LIVE),  # the captain cannot step away
        ("a", "c", ChouetteReason.NOT_LIVE),
    ):
        with pytest.raises(ChouetteError) as info:
            t.delegate(name, to)
        assert info.value.reason is reason
        assert t.to_dict() == saved
    t.delegate("d", "c")
    with pytest.raises(ChouetteError) as info:
        t.delegate("c", "d")  # a proxy copies no proxy
    assert info.value.reason is ChouetteReason.BAD_DELEGATE
    t.delegate("d", None)
    assert not t.proxied
    assert t.to_dict() == saved


def test_captain_absent_needs_someone_to_take_over() -> None:
    t = ordered(["a", "b", "c"])
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    t.set_proxy("c")
    before = t.to_dict()
    with pytest.raises(ChouetteError) as info:
        t.captain_absent()
    assert info.value.reason is ChouetteReason.NO_REPLACEMENT
    assert t.to_dict() == before


def test_a_crew_member_who_abandons_pays_his_worst_result() -> None:
    t = ordered(["a", "b", "c"], Settings(jacoby=False))
    t.start_game(board=board({1: 2}, TEAM_SINGLE, turn=0))
    t.double("a", ["c"])
    t.take("c")
    t.leave("c", now=True)  # five of his checkers are off: a single game at 2
    assert t.totals() == {"a": 2, "c": -2}
    assert t.queue == ("a", "b")


def test_extras_are_played_out_and_closed_with_the_takers_main_contract() -> None:
    s = Settings(extras=True, fiveplus=False, jacoby=False)
    t = ordered(["a", "b", "c", "d"], s)
    t.start_game(board=board({8: 4}, TEAM_GAMMONED, turn=0))
    t.double("a")
    t.drop("b")
    t.drop("c")
    t.take("d")
    t.extra("b")
    t.decline_extra("c")
    extra = next(c for c in t.contracts if c.box_side == "b")
    assert (extra.value, extra.member, extra.turned) == (2, "d", True)
    t.roll("a", (2, 1))
    t.move("a", [(8, 6), (8, 7)])
    t.double("d", ["b"])  # the taker redoubles the extra on its own
    t.take("b")
    assert next(c for c in t.contracts if c.cid == extra.cid).value == 4
    t.roll("d", (2, 1))
    t.move("d", [(13, 11), (13, 12)])
    t.double("b")  # the giver owns the extra's cube now: his to redouble
    t.drop("d")  # d drops: pays b 4; still live against the box
    assert t.game is not None
    t.resign("d", GameResult.SINGLE)
    t.accept_resignation("a")  # d's main settles: the game is over
    rows = [(r.cause, r.winner, r.loser, r.amount) for r in t.ledger.rows]
    assert (Cause.DROP, "b", "d", 4) in rows
    assert t.totals() == {"a": 4, "b": -1 - 1 + 4, "c": -1, "d": 1 - 4 - 2}


def test_extra_still_live_at_the_early_end_follows_the_takers_main() -> None:
    s = Settings(extras=True, fiveplus=False, jacoby=False)
    t = ordered(["a", "b", "c", "d"], s)
    t.start_game(board=board({8: 4}, TEAM_GAMMONED, turn=0))
    t.double("a")
    t.drop("b")
    t.drop("c")
    t.take("d")
    t.extra("b")
    t.extra("c")
    t.resign("a", GameResult.SINGLE)
    t.accept_resignation("d")  # the box resigns: d wins his main, and the extras
    rows = [(r.cause, r.winner, r.loser, r.amount) for r in t.ledger.rows]
    assert rows.count((Cause.EXTRA_CLOSE, "d", "b", 2)) == 1
    assert rows.count((Cause.EXTRA_CLOSE, "d", "c", 2)) == 1
    assert t.queue[0] == "d"


def test_mandatory_partner_is_offered_at_the_start() -> None:
    s = Settings(partner=PartnerMode.MANDATORY, partner_from=4)
    t = ordered(["a", "b", "c", "d"], s)
    t.start_game()
    assert t.partner_offered_to == "b"
    with pytest.raises(ChouetteError):
        t.opening_roll(3, 1)
    t.partner_answer("b", False)
    t.partner_answer("d", False)
    t.partner_answer("c", False)
    assert t.partner_draw_candidates == ("c", "d")
    t.draw_partner("d")
    assert (t.box, t.partner, t.captain) == ("a", "d", "b")
    assert [c.member for c in t.contracts] == ["b", "c"]
