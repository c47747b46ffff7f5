"""Tournaments a club can leave running (issue 35 §1, docs/tournaments.md): the limits on
live tournaments and entrants, records kept under an id when a name is reused (across a
restart, on both backends), the pairing tag naming the right one, and the paged listings.

Transcripts through `tests.app.driver.CoreDriver`, as in test_tournament_transcripts.py.
"""

from __future__ import annotations

import datetime
from typing import cast

from fibsd.app import tournaments
from fibsd.app.outcome import TournamentTag
from fibsd.rules.tournament import Phase
from fibsd.store.sqlite import SQLiteStore as Store
from tests.app.driver import CoreDriver
from tests.app.test_tournament_transcripts import NAMES, _driver, _lose, _playing
from tests.conftest import StoreBackend

DAY = datetime.datetime.fromtimestamp(1_700_000_000.0, datetime.UTC).date().isoformat()  # ManualClock's


def _knockout_of_two(driver: CoreDriver, name: str, creator: str = "pa", loser: str = "pb") -> list[str]:
    """`creator` opens knockout `name`, pa and pb play it, `loser` resigns; what the
    winner was told when he accepted."""
    driver.send(creator, f"tournament create {name} knockout 1")
    driver.send("pa", f"tournament join {name}")
    driver.send("pb", f"tournament join {name}")
    driver.send(creator, f"tournament start {name}")
    winner = _playing(driver, loser)
    assert winner is not None
    driver.send(loser, "resign n")
    return driver.send(winner, "accept")


def test_live_tournaments_per_creator_and_per_server_are_limited_with_a_clear_line() -> None:
    driver = _driver(admin__admins=["boss"], tournaments__tournament_live_per_creator=2,
                     tournaments__tournament_live_max=4)
    for name in ("pa", "pb", "boss"):
        driver.log_in(name)
    driver.send("pa", "tournament create a1 knockout 1")
    driver.send("pa", "tournament create a2 knockout 1")
    assert driver.send("pa", "tournament create a3 knockout 1") == [
        "** You have 2 tournaments open or running, the most a member may have: wait until one is over."]
    # Administrators are exempt from the creator's limit, not from the server's.
    driver.send("boss", "tournament create b1 knockout 1")
    driver.send("boss", "tournament create b2 knockout 1")
    assert driver.send("pb", "tournament create p1 knockout 1") == [
        "** There are 4 tournaments open or running, the most this server runs at a time: wait until one is over."]
    assert driver.send("boss", "tournament create b3 knockout 1") == [
        "** There are 4 tournaments open or running, the most this server runs at a time: wait until one is over."]
    # One over (cancelled): room again, for pa too.
    driver.send("pa", "tournament cancel a1")
    assert driver.send("pa", "tournament create a3 knockout 1")[0].startswith("Tournament a3 opened by pa.")
    assert [t.name for t in driver.registry.tournament_records.values() if t.live] == ["a2", "b1", "b2", "a3"]


def test_entrants_are_bounded_by_the_setting_in_max_and_in_join() -> None:
    driver = _driver(tournaments__tournament_max_entrants=3)
    for name in NAMES[:4]:
        driver.log_in(name)
    assert driver.send("pa", "tournament create big knockout 1 max 4") == [
        "** Tournament option 'max' takes a number from 2 to 3."]
    driver.send("pa", "tournament create cup knockout 1")  # no max: the setting bounds it
    for name in NAMES[:3]:
        driver.send(name, "tournament join cup")
    assert driver.send("pd", "tournament join cup") == ["** Tournament cup is full."]
    assert len(driver.registry.tournaments["cup"].entrants) == 3


def test_a_finished_record_is_kept_when_its_name_is_reused_across_a_restart(backend: StoreBackend) -> None:
    # Both backends (tests/conftest.py): the core on a store, stopped, and a new core on
    # the same database, which loads what the store holds.
    with backend.open() as opened:
        _play_and_reuse_the_name(cast(Store, opened))
    with backend.open() as reopened:
        _check_the_records(cast(Store, reopened))


def _play_and_reuse_the_name(store: Store) -> None:
    driver = _driver(store=store, admin__admins=["boss"])
    for name in ("pa", "pb", "boss"):
        driver.log_in(name)
    assert "Tournament club is over: pa wins." in _knockout_of_two(driver, "club", creator="boss")
    # The name is free again once the tournament is over; the new one is a new record.
    assert driver.send("pb", "tournament create club swiss 3")[0].startswith("Tournament club opened by pb.")


def _check_the_records(store: Store) -> None:
    again = CoreDriver(store=store, admin__admins=["boss"])
    again.log_in("pc")
    assert [(t.id, t.name, t.phase) for t in again.registry.tournament_records.values()] == [
        (1, "club", Phase.FINISHED), (2, "club", Phase.OPEN)]
    shown = again.send("pc", "tournament show club")  # the live one
    assert shown[0] == "Tournament club: swiss, 3-point matches, rated, created by pb."
    assert f"  Tournament #2, created {DAY}." in shown
    old = again.send("pc", "tournament show #1")
    assert old[0] == "Tournament club: knockout, 1-point matches, rated, created by boss."
    assert "  Winner: pa" in old and "    pa beats pb 1-0" in old
    assert again.send("pc", f"tournament show club {DAY}")[0].endswith("created by pb.")  # the latest that day
    assert again.send("pc", "tournament show #9") == ["** There is no tournament #9."]
    assert again.send("pc", "tournament show club 2001-01-01") == [
        "** No tournament called club was created on 2001-01-01."]
    assert again.send("pc", "tournament show club 2001-13-01") == [
        "** Usage: tournament show <name> [<yyyy-mm-dd>] | tournament show #<number>"]
    # Once the new one is cancelled, the name shows the most recent one over.
    assert again.send("pc", "tournament list")[1:] == ["  club: swiss, open, 3-point matches, 0 entered, by pb"]
    again.log_in("pb")
    again.send("pb", "tournament cancel club")
    assert "  Cancelled." in again.send("pc", "tournament show club")


def test_a_tag_of_an_old_tournament_never_names_a_new_one_of_the_same_name() -> None:
    driver = _driver()
    for name in ("pa", "pb", "pc"):
        driver.log_in(name)
    driver.send("pa", "tournament create ko knockout 1")
    driver.send("pa", "tournament join ko")
    driver.send("pb", "tournament join ko")
    driver.send("pa", "tournament start ko")
    table = driver.sessions["pa"].table
    assert table is not None and table.tournament == TournamentTag("ko", 1, 0, 1)
    driver.send("pa", "leave")  # saved, with the tag of tournament #1
    saved = driver.store.saved_match("pa", "pb")
    assert saved is not None and TournamentTag.from_dict(saved["tournament"]).id == 1
    driver.send("pa", "tournament cancel ko")
    # A new ko, the same two players: round 1, pairing 0 again, the same name.
    driver.send("pc", "tournament create ko knockout 1")
    driver.send("pa", "tournament join ko")
    driver.send("pb", "tournament join ko")
    driver.send("pc", "tournament start ko")
    new = driver.registry.tournaments["ko"]
    assert new.id == 2 and new.phase is Phase.RUNNING
    # The old match's tag names the cancelled tournament, never the new one's pairing.
    assert tournaments.pairing_tagged(driver.registry, TournamentTag("ko", 1, 0, 1)) is None
    assert tournaments.pairing_tagged(driver.registry, TournamentTag("ko", 1, 0, 2)) == (new, new.current[0])
    # The new pairing's match carries the new id, and its result goes to the new one.
    table = driver.sessions["pa"].table
    assert table is not None and table.tournament == TournamentTag("ko", 1, 0, 2)
    _lose(driver, "pb")
    assert new.winner == "pa" and new.phase is Phase.FINISHED
    assert driver.registry.tournament_records[1].phase is Phase.CANCELLED


def test_the_list_shows_the_live_ones_and_pages_through_the_rest() -> None:
    driver = _driver()
    for name in ("pa", "pb", "pc"):
        driver.log_in(name)
    for number in range(1, 23):  # 22 over, one at a time
        driver.send("pa", f"tournament create t{number} knockout 1")
        driver.send("pa", f"tournament cancel t{number}")
    driver.clock.advance(60)
    driver.send("pa", "tournament create live1 knockout 1")
    driver.clock.advance(60)
    driver.send("pb", "tournament create live2 swiss 1")
    assert driver.send("pc", "tournament list") == [
        "Tournaments:",
        "  live2: swiss, open, 1-point matches, 0 entered, by pb",
        "  live1: knockout, open, 1-point matches, 0 entered, by pa",
    ]
    first = driver.send("pc", "tournament list finished")
    assert first[0] == "Tournaments (finished), newest first:"
    assert first[1] == f"  #22 t22, {DAY}: knockout, cancelled, 1-point matches, 0 entered, by pa"
    assert len(first) == 1 + 20 + 1
    assert first[-1] == "  Page 1 of 2. Type 'tournament list finished 2' for the next."
    second = driver.send("pc", "tournament list finished 2")
    assert second[1:] == [f"  #2 t2, {DAY}: knockout, cancelled, 1-point matches, 0 entered, by pa",
                          f"  #1 t1, {DAY}: knockout, cancelled, 1-point matches, 0 entered, by pa",
                          "  Page 2 of 2."]
    everything = driver.send("pc", "tournament list all")
    assert everything[1].startswith("  #24 live2, ") and everything[2].startswith("  #23 live1, ")
    assert driver.send("pc", "tournament list all 3") == ["** There is no page 3: 'tournament list all' has 2 pages."]
    assert driver.send("pc", "tournament list some") == ["** Usage: tournament list [all|finished [<page>]]"]


def test_an_empty_listing_says_so() -> None:
    driver = _driver()
    driver.log_in("pa")
    assert driver.send("pa", "tournament list finished") == ["** There are no finished tournaments."]
    driver.send("pa", "tournament create x knockout 1")
    assert driver.send("pa", "tournament list finished") == ["** There are no finished tournaments."]


def test_show_tells_its_creator_and_administrators_what_they_may_do() -> None:
    driver = _driver(admin__admins=["boss"])
    for name in ("pa", "pb", "boss"):
        driver.log_in(name)
    driver.send("pa", "tournament create cup knockout 1")
    may_start = "  You may start it ('tournament start cup') or cancel it ('tournament cancel cup')."
    assert may_start in driver.send("pa", "tournament show cup")
    assert may_start in driver.send("boss", "tournament show cup")
    assert not any(line.startswith("  You may") for line in driver.send("pb", "tournament show cup"))
    driver.send("pa", "tournament join cup")
    driver.send("pb", "tournament join cup")
    driver.send("pa", "tournament start cup")
    assert "  You may cancel it ('tournament cancel cup')." in driver.send("boss", "tournament show cup")
