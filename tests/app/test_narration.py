"""The match table's narration from rules events, its one "after events" point, and its
save as a typed value the store interprets."""

from __future__ import annotations

from fibsd.app.play import narration
from fibsd.domain.dice import ScriptedDice
from fibsd.rules import (
    CubeOffered,
    DiceRolled,
    GameResult,
    GameWon,
    ScoreChanged,
    WinKind,
)
from fibsd.store.api import MatchChange, MatchCopy, save_running_match
from fibsd.store.sqlite import SQLiteStore as Store
from protocol.messages import TextLine
from protocol.wording import Text
from tests.app.driver import CoreDriver

NAMES = ("alice", "bob")


def test_each_audience_hears_an_event_in_its_own_words() -> None:
    said = narration.said(CubeOffered(1, 2), NAMES, o_seat=0)
    assert said == narration.Said(
        1, TextLine.of(Text.YOU_DOUBLE, name="alice"),
        TextLine.of(Text.DOUBLES_ACCEPT_OR_REJECT, name="bob"), TextLine.of(Text.DOUBLES, name="bob"))


def test_a_passed_double_is_said_by_the_one_who_gave_up() -> None:
    said = narration.said(GameWon(0, GameResult.SINGLE, 2, 2, WinKind.DOUBLE_PASSED), NAMES, o_seat=0)
    assert said is not None and said.seat == 1
    assert said.own == TextLine.of(Text.YOU_GIVE_UP, name="alice", points="2 points")


def test_events_the_flow_words_itself_say_nothing() -> None:
    assert narration.said(ScoreChanged(0, 1, (1, 0)), NAMES, o_seat=0) is None
    assert narration.boards_after(DiceRolled(0, (3, 1))) == "roll"
    assert narration.boards_after(CubeOffered(0, 2)) is None


def test_to_act_follows_every_action_and_the_flow_after_it() -> None:
    """`Table._to_act_now`, the one point after events: whoever the match waits for."""
    driver = CoreDriver(ScriptedDice([3, 1, 6, 5], coin=0))
    driver.create("alice", "bob", ready=True)
    for name in ("alice", "bob"):
        driver.log_in(name)
    driver.send("alice", "invite bob 3")
    driver.send("bob", "join alice")
    table = driver.sessions["alice"].table
    assert table is not None
    assert table.to_act == 0  # alice won the opening roll and is to move
    driver.send("alice", "move 8-5 6-5")
    assert table.to_act == 1  # bob, to roll or double
    driver.send("bob", "roll")
    assert table.to_act == 1  # bob, to move his 6-5
    driver.send("bob", "move 1-7 7-12")
    assert table.to_act == 0
    driver.send("alice", "double")
    assert table.to_act == 1  # bob must answer


def test_a_tables_save_is_a_value_the_store_interprets() -> None:
    store = Store.open(":memory:")
    state = {"format": 1, "match": {"game": {"phase": "OPENING", "history": []}}}
    save_running_match(store, MatchCopy(NAMES, state, 1.0))
    change = MatchChange(NAMES, None, {"score": [0, 0]}, {"phase": "AWAITING_MOVE"},
                         [{"type": "x"}], 2.0)
    assert change.patch() == [("update", ("match",), {"score": [0, 0]}),
                              ("update", ("match", "game"), {"phase": "AWAITING_MOVE"}),
                              ("extend", ("match", "game", "history"), [{"type": "x"}])]
    save_running_match(store, change)
    assert store.saved_match("alice", "bob") == {
        "format": 1, "match": {"score": [0, 0], "game": {"phase": "AWAITING_MOVE", "history": [{"type": "x"}]}}}
