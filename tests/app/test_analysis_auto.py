"""What is analysed without being asked (`analysis_auto`, docs/analysis.md): through the
core, with the shell's part (workers running) stood in for by marking analysis available.
Queued matches are stored jobs and `Outcome.analyses` entries for the workers."""

from __future__ import annotations

from fibsd.app.outcome import Outcome
from tests.app.driver import CoreDriver


def _driver(auto: str) -> tuple[CoreDriver, list[int]]:
    driver = CoreDriver(analysis__analysis_auto=auto)
    driver.registry.analysis.unavailable = None  # as the shell says when gnubg is there
    handed: list[int] = []
    apply = driver.apply

    def watching(outcome: Outcome) -> None:
        handed.extend(outcome.analyses)
        apply(outcome)

    driver.apply = watching  # type: ignore[method-assign]
    driver.create("pa", "pb", "pc", "pd", ready=True)
    for name in ("pa", "pb", "pc", "pd"):
        driver.log_in(name)
    return driver, handed


def _play_one_point_match(driver: CoreDriver, inviter: str, invitee: str) -> None:
    driver.send(inviter, f"invite {invitee} 1")
    driver.send(invitee, f"join {inviter}")
    assert driver.sessions[inviter].table is not None
    driver.send(inviter, "resign n")
    answer = driver.send(invitee, "accept")
    assert any("win the 1 point match" in line for line in answer), answer


def _tournament_match(driver: CoreDriver) -> None:
    driver.send("pa", "tournament create club knockout 1")
    for name in ("pa", "pb"):
        driver.send(name, "tournament join club")
    driver.send("pa", "tournament start club")
    table = driver.sessions["pa"].table
    assert table is not None, "the tournament's match did not start"
    driver.send("pa", "resign n")
    answer = driver.send("pb", "accept")
    assert any("win the 1 point match" in line for line in answer), answer


def _queued_players(driver: CoreDriver) -> list[tuple[str, str]]:
    players = []
    for record_id, _requesters in driver.store.analysis_jobs():
        record = driver.store.match_record(record_id)
        assert record is not None
        players.append(record.players)
    return players


def test_every_rated_match_is_queued_with_rated() -> None:
    driver, handed = _driver("rated")
    _play_one_point_match(driver, "pc", "pd")
    assert _queued_players(driver) == [("pc", "pd")]
    [record_id] = handed
    assert list(driver.registry.analysis.pending) == [record_id]
    assert driver.registry.analysis.pending[record_id] == []  # nobody asked: nobody told


def test_only_tournament_matches_are_queued_with_tournament() -> None:
    driver, handed = _driver("tournament")
    _play_one_point_match(driver, "pc", "pd")
    assert _queued_players(driver) == [] and handed == []
    _tournament_match(driver)
    assert _queued_players(driver) == [("pa", "pb")]
    assert len(handed) == 1


def test_nothing_is_queued_with_none() -> None:
    driver, handed = _driver("none")
    _play_one_point_match(driver, "pc", "pd")
    _tournament_match(driver)
    assert _queued_players(driver) == [] and handed == []
