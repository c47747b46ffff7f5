"""Creating, starting and cancelling a tournament from the page (issue 35 §4), in headless
Chromium against a real server, through the page only: the form carries every option of
`tournament create`; Start and Cancel are offered to the creator and to an administrator,
never to anyone else."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from fibsd.domain.dice import ScriptedDice
from tests.server.test_web_browser import Page, ThreadedServer, browser, one_tab_after_each_test, register, shot

__all__ = ["browser", "one_tab_after_each_test"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow


def _open_tournaments(page: Page) -> None:
    page.click("#show-tournaments")
    page.wait(lambda: page.visible("#t-create"), "the tournaments view")


def _show(page: Page, name: str) -> str:
    """`name`'s view, once drawn; its text."""
    _open_tournaments(page)
    page.wait(lambda: page.visible(f'#tournaments tr[data-name="{name}"]'), f"{name} listed")
    page.click(f'#tournaments tr[data-name="{name}"] button[data-action="t-show"]')
    page.wait(lambda: f"Tournament {name}" in page.text("#extra h3") and "Tournament #" in page.text("#extra"),
              f"{name} shown")
    return page.text("#extra")


def test_a_tournament_is_created_started_and_cancelled_from_the_page(browser: WebDriver, tmp_path: Path) -> None:
    with ThreadedServer(tmp_path, ScriptedDice([3, 1, 4, 2], coin=0), **{"admin.admins": ["carol"], "tournaments.tournament_live_per_creator": 3}) as server:
        alice = Page(browser, server.url, new_tab=False)
        register(alice, "alice")
        # A swiss with every option a swiss takes.
        _open_tournaments(alice)
        alice.fill("#t-name", "club")
        Select(alice.find("#t-format")).select_by_value("swiss")
        alice.fill("#t-length", "1")
        alice.fill("#t-rounds", "2")
        alice.click("#t-clock")
        alice.fill("#t-delay", "10")
        alice.fill("#t-reserve", "60")
        alice.fill("#t-noshow", "90")
        alice.fill("#t-max", "8")
        alice.click("#t-bots")
        shot(alice, "tournament-create")
        alice.click('button[data-action="t-create"]')
        alice.wait_log("Tournament club opened by alice.")
        shown = _show(alice, "club")
        assert "club: swiss, 1-point matches, rated, created by alice." in shown
        assert "Options: 2 rounds, bots may enter." in shown
        assert "No-show time 90 seconds; clock: 10 seconds delay, 60 seconds reserve per point." in shown
        assert alice.visible('#t-direct button[data-action="t-start"]')
        # A knockout with a consolation bracket (a swiss's rounds are not sent for it).
        _open_tournaments(alice)
        alice.fill("#t-name", "ko")
        Select(alice.find("#t-format")).select_by_value("knockout")
        alice.fill("#t-length", "3")
        alice.click("#t-consolation")
        alice.click('button[data-action="t-create"]')
        alice.wait_log("Tournament ko opened by alice.")
        assert "Options: consolation bracket." in _show(alice, "ko")
        # A correspondence league: rounds of 7 days, a day per move.
        _open_tournaments(alice)
        alice.fill("#t-name", "corr")
        Select(alice.find("#t-format")).select_by_value("roundrobin")
        alice.fill("#t-length", "1")
        alice.fill("#t-deadline", "7")
        alice.fill("#t-days", "1")
        alice.click('button[data-action="t-create"]')
        alice.wait_log("Tournament corr opened by alice.")
        assert "Rounds of 7 days; correspondence matches, 1 day per move." in _show(alice, "corr")

        # bob may enter, not direct: no Start or Cancel for him, in the list or the view.
        bob = Page(browser, server.url)
        register(bob, "bob")
        _open_tournaments(bob)
        bob.wait(lambda: bob.visible('#tournaments tr[data-name="club"] button[data-action="t-join"]'), "club listed")
        assert not bob.visible('#tournaments button[data-action="t-start"]')
        assert not bob.visible('#tournaments button[data-action="t-cancel"]')
        bob.click('#tournaments tr[data-name="club"] button[data-action="t-join"]')
        bob.wait(lambda: "Tournament club: bob enters (1 entered)." in bob.text("#extra"), "bob entered")
        _show(bob, "club")
        assert not bob.visible("#t-direct")

        # alice enters and starts club from the list.
        _open_tournaments(alice)
        alice.click('#tournaments tr[data-name="club"] button[data-action="t-join"]')
        alice.wait_log("Tournament club: alice enters (2 entered).")
        alice.click('#tournaments tr[data-name="club"] button[data-action="t-start"]')
        alice.wait_log("Tournament club starts with 2 players.")
        bob.wait(lambda: "your 1-point match with alice" in bob.text("#next-pairing"), "bob's pairing")

        # carol, an administrator, may cancel alice's ko from its view.
        carol = Page(browser, server.url)
        register(carol, "carol")
        _show(carol, "ko")
        carol.wait(lambda: carol.visible('#t-direct button[data-action="t-cancel"]'), "carol's Cancel")
        shot(carol, "tournament-direct")
        carol.click('#t-direct button[data-action="t-cancel"]')
        carol.wait_log("Tournament ko is cancelled by carol.")
        alice.wait_log("Tournament ko is cancelled by carol.")
        # The list, read again, has club (running) and no ko; alice may still cancel club.
        _open_tournaments(alice)
        alice.wait(lambda: not alice.visible('#tournaments tr[data-name="ko"]')
                   and alice.visible('#tournaments tr[data-name="club"] button[data-action="t-cancel"]'),
                   "ko gone, club cancellable")
        assert not alice.visible('#tournaments tr[data-name="club"] button[data-action="t-start"]')
        assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
