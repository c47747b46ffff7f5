"""The match lifecycle at the Outcome level: invite, join, resume, the end of a match.

Transcripts through `tests.app.driver.CoreDriver`: scripted dice, a manual clock, client
lines in, each user's lines out, every write committed as the shell commits it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fibsd.app.play.table import Table
from fibsd.app.session import Session
from fibsd.domain.dice import ScriptedDice
from fibsd.rules import Match, MatchOptions
from fibsd.rules.position import side_to_hex
from tests.app.driver import CoreDriver


def _endgame_saved_match(driver: CoreDriver) -> dict[str, Any]:
    """A saved 1-point match: alice (on roll) has one checker left on her 1-point."""
    match = Match(MatchOptions(length=1))
    match.opening_roll(3, 1)
    table: Table[Session] = Table(
        match, ("alice", "bob"), clock=driver.clock, dice=ScriptedDice(), roll_counts=Counter(),
        first_o_seat=0, started_at=driver.clock.now(), opening_done=True)
    data = table.saved_state()
    game = data["match"]["game"]
    game["sides"] = [side_to_hex((14, 1) + (0,) * 24), side_to_hex((0,) * 6 + (15,) + (0,) * 19)]
    game["phase"], game["turn"], game["dice"] = "AWAITING_ROLL", 0, None
    return data


def test_a_resumed_match_that_ends_on_its_automatic_roll_is_concluded() -> None:
    """Review §1.6: resuming a saved match whose automatic roll (greedy on) finishes it
    saved the match again after it was deleted; the write failed, the joining user's
    connection closed, and nobody got the win, match and rating lines."""
    dice = ScriptedDice([6, 6])
    driver = CoreDriver(dice)
    driver.create("alice", ready=True, greedy=True, double=False)
    driver.create("bob", ready=True)
    driver.store.save_match("alice", "bob", _endgame_saved_match(driver), driver.clock.now())
    driver.log_in("alice")
    driver.log_in("bob")
    driver.send("alice", "invite bob")
    bob = driver.send("bob", "join alice")  # every write of the resume must commit
    alice = driver.take("alice")
    assert "You roll 6 and 6." in alice
    # bob has borne off nothing: a gammon, counted in full (docs/compatibility.md).
    assert "You win the game and get 2 points. Congratulations!" in alice
    assert "You win the 1 point match 2-0 ." in alice
    assert "alice wins the 1 point match 2-0 ." in bob
    assert driver.store.saved_match("alice", "bob") is None
    records = driver.store.match_records_of("alice")
    assert len(records) == 1 and records[0].score == (2, 0) and records[0].winner == 0
    assert driver.sessions["alice"].table is None and driver.sessions["bob"].table is None
    assert dice.remaining == 0
