"""The match view in a real browser, defect by defect (issue 33): each test plays through
the page's UI only (clicks on the board and on buttons; nothing typed unless a player
would type it), against a real server with scripted dice, and pins one defect that a club
evening found. The harness (the threaded server, one tab per user) is test_web_browser's.

Set FIBSD_WEB_SCREENSHOTS=docs to save a screenshot of each screen into docs/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from fibsd.domain.dice import ScriptedDice
from tests.server.test_web_browser import Page, ThreadedServer, browser, register, shot

pytestmark = pytest.mark.slow
__all__ = ["browser"]  # the module-scoped browser fixture, one Chromium for this module


def play(page: Page, *moves: tuple[int, int]) -> None:
    """Moves checkers by clicking (the viewer's own point numbers), then confirms."""
    for source, target in moves:
        page.point(source)
        page.point(target)
    page.click("#confirm-move")


def start_match(server: ThreadedServer, browser: WebDriver, length: int = 3) -> tuple[Page, Page]:
    alice = Page(browser, server.url, new_tab=False)
    register(alice, "alice")
    bob = Page(browser, server.url)
    register(bob, "bob")
    alice.wait(lambda: alice.visible('#who tr[data-user="bob"] button[data-action="invite"]'), "bob ready")
    alice.fill("#invite-length", str(length))
    alice.click('#who tr[data-user="bob"] button[data-action="invite"]')
    bob.click('#invitations [data-from="alice"] button[data-action="join"]')
    return alice, bob


def no_console_errors(browser: WebDriver) -> None:
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_after_a_dance_the_other_player_may_roll_or_double(browser: WebDriver, tmp_path: Path) -> None:
    # Issue 33 #1: bob dances on alice's 5- and 6-point; alice's page must offer Roll and
    # Double at once (it said "bob to roll or double." with no button, until a reload).
    dice = ScriptedDice([3, 1, 6, 2, 6, 1, 6, 5, 4, 2], coin=0)
    with ThreadedServer(tmp_path, dice) as server:
        alice, bob = start_match(server, browser)
        alice.wait(lambda: alice.dice() == "3,1", "the opening roll")
        play(alice, (8, 5), (6, 5))
        bob.click("#roll")
        bob.wait(lambda: bob.dice() == "6,2", "bob's roll")
        play(bob, (24, 18), (13, 11))  # a blot on alice's bar point
        alice.click("#roll")
        alice.wait(lambda: alice.dice() == "6,1", "alice's roll")
        play(alice, (13, 7), (8, 7))  # hits it, and makes the point
        bob.wait(lambda: bob.find('#board [data-point="bar"]').get_attribute("data-count") == "1", "bob on the bar")
        bob.click("#roll")
        alice.wait_log("bob can't move")
        alice.wait(lambda: alice.visible("#roll") and alice.visible("#double"), "Roll and Double after the dance")
        assert alice.text("#turn-info") == "Your turn: roll or double."
        assert not bob.visible("#roll") and not bob.visible("#double")
        alice.click("#roll")
        alice.wait(lambda: alice.dice() == "4,2", "alice's next roll")
        no_console_errors(browser)
