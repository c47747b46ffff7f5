"""Recurring tournaments on the page (issue 35 §4), in headless Chromium against a real
server, through the page only: the tournaments view lists the recurring events (name,
rule in words, next occurrence on the server's clock); a user the server lets make
schedules gets a "repeat" choice in the form, and anyone else does not; an occurrence
opened by the server (its manual clock moved on) reaches the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from fibsd.domain.dice import ScriptedDice
from tests.server.test_web_browser import Page, browser, one_tab_after_each_test, register, shot, ThreadedServer

__all__ = ["browser", "one_tab_after_each_test"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow

# The manual clock starts on Tuesday 2023-11-14 at 22:13:20 UTC; Thursday 19:00 UTC, an
# hour before the first occurrence, is this much later.
TO_THURSDAY_19 = 44 * 3600 + 46 * 60 + 40


def _open_tournaments(page: Page) -> None:
    page.click("#show-tournaments")
    page.wait(lambda: page.visible("#t-create") and page.visible("#t-schedules"), "the tournaments view")


def test_recurring_events_are_listed_and_an_administrator_makes_one_from_the_form(
    browser: WebDriver, tmp_path: Path,
) -> None:
    with ThreadedServer(tmp_path, ScriptedDice([3, 1], coin=0), **{"admin.admins": ["carol"]}) as server:
        carol = Page(browser, server.url, new_tab=False)
        register(carol, "carol")
        _open_tournaments(carol)
        carol.wait(lambda: carol.visible("#t-repeat"), "the repeat choice")
        assert "No recurring events." in carol.text("#t-schedules")
        carol.fill("#t-name", "thu")
        Select(carol.find("#t-format")).select_by_value("swiss")
        carol.fill("#t-length", "1")
        Select(carol.find("#t-repeat")).select_by_value("weekly")
        Select(carol.find("#t-repeat-day")).select_by_value("thu")
        carol.fill("#t-repeat-time", "20:00")
        carol.fill("#t-min", "2")
        carol.click('button[data-action="t-create"]')
        carol.wait_log("Tournament schedule thu: every Thursday at 20:00 UTC. The next starts Thu 2023-11-16 20:00 UTC.")
        row = '#t-schedules [data-schedule="thu"]'
        carol.wait(lambda: carol.visible(row), "the schedule listed")
        assert "every Thursday at 20:00 UTC" in carol.text(row)
        assert "next: Thu 2023-11-16 20:00 UTC" in carol.text(row)
        assert "swiss, 1-point matches, at least 2 players, by carol" in carol.text(row)
        shot(carol, "tournament-schedules")

        # bob, a member, sees the recurring events and no repeat choice (admins schedule here).
        bob = Page(browser, server.url)
        register(bob, "bob")
        _open_tournaments(bob)
        bob.wait(lambda: bob.visible(row), "the schedule listed for bob")
        assert not bob.visible("#t-repeat")
        # An hour before Thursday's start the server opens the occurrence; bob enters it.
        server.clock.advance(TO_THURSDAY_19)
        bob.wait_log("Tournament thu-2023-11-16 opened by carol (every Thursday at 20:00 UTC): it starts"
                     " Thu 2023-11-16 20:00 UTC if at least 2 players have entered. Join it from the Tournaments list.")
        bob.wait(lambda: bob.visible('#tournaments tr[data-name="thu-2023-11-16"] button[data-action="t-join"]'),
                 "the occurrence listed")
        assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
