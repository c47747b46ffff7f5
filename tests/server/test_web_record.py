"""A player's card in the web page (issue 37 §2) in headless Chromium against a real
server: a name in the lobby's list shows the record `show record` counts, from the
matches stored before (by length and rating, unfinished, the PR with the left-out ones)."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from fibsd.domain.dice import ScriptedDice
from fibsd.domain.match_analysis import MatchAnalysis, PlayerAnalysis
from fibsd.domain.player_record import MatchEnding
from fibsd.store.sqlite import SQLiteStore
from tests.server.test_web_browser import Page, ThreadedServer, browser, one_tab_after_each_test, register, shot

__all__ = ["browser", "one_tab_after_each_test"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow


def _store_history(db_path: Path) -> None:
    """webby's matches against bob: a 3-point match won, one lost on time, an unrated
    5-point match won; the first two analysed (PR 4.0 and 6.0), and a claimed match
    (left out of the PR)."""
    with SQLiteStore.open(str(db_path)) as store:
        for length, winner, how, rated, pr in ((3, 0, "borne_off", True, 4.0),
                                               (3, 1, "time", True, 6.0),
                                               (5, 0, "borne_off", False, None),
                                               (3, 0, "claimed", True, 50.0)):
            record_id = store.record_match(
                players=("webby", "bob"), match_data={"finished_games": []}, length=length,
                score=(0, 0), winner=winner, started_at=1.0, finished_at=2.0,
                ending=MatchEnding(how=how, rated=rated, moves=60, final_moves=20))
            if pr is not None:
                players = tuple(PlayerAnalysis(
                    name=name, decisions=100, checker_lost=value / 5, cube_lost=0.0,
                    checker_errors=0, checker_blunders=0, cube_errors=0, cube_blunders=0,
                    luck=0.0) for name, value in (("webby", pr), ("bob", 9.0)))
                store.save_analysis(MatchAnalysis(
                    record_id=record_id, checker_plies=2, cube_plies=2, players=players,
                    errors=(), analysed_at=3.0, seconds=1.0), "(;)")


def test_a_name_in_the_lobby_shows_the_players_card(browser: WebDriver, tmp_path: Path) -> None:
    _store_history(tmp_path / "fibsd.db")
    with ThreadedServer(tmp_path, ScriptedDice(coin=0)) as server:
        page = Page(browser, server.url)
        register(page, "webby")
        page.click('#who tr[data-user="webby"] button[data-action="record"]')
        page.wait(lambda: page.visible('#player-card[data-user="webby"]')
                  and "Left out" in page.text("#player-card"), "webby's card")
        assert page.text("#player-card h3") == "webby"
        assert page.text("#player-card .record-rating") == "Rating 1500.00, experience 0"
        assert page.text("#player-card .record-total") == "4 matches played: 3 won, 1 lost."
        rows = page.js("return [...document.querySelectorAll('#record-lengths tbody tr')]"
                       ".map((r) => [...r.cells].map((c) => c.textContent).join(' '))")
        assert rows == ["3 points rated 3 2 1", "5 points unrated 1 1 0"]
        assert page.text("#player-card .record-unfinished") == (
            "Unfinished: 0 saved, 0 abandoned, 1 lost on time, 0 dropped and claimed;"
            " 0 drops in all.")
        prs = page.js("return [...document.querySelectorAll('#player-card .record-pr li')]"
                      ".map((li) => li.textContent)")
        assert prs == ["PR of the last 10 analysed: 5.0 (master) over 2",
                       "PR of the last 50 analysed: 5.0 (master) over 2"]
        assert page.text("#player-card .record-left-out").startswith("Left out of the PR: 1 analysed")
        # The answer is the card's: none of its lines went to the log.
        assert "Record of webby" not in page.log_text()
        shot(page, "record")
