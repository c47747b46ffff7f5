"""The web page's "Play the computer" (issue 36) in headless Chromium against a real
server running two house bots (real GNU Backgammon): the choice lists the free house bots
with their strengths, and one click invites the chosen one with the lobby's match options;
the match starts in the page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from fibsd.infra.house_bots import HouseBot
from fibsd.infra.wallclock import SystemClock
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG
from tests.server import conftest
from tests.server.helpers import house_bots_online, playing
from tests.server.test_web_browser import Page, ThreadedServer, browser, one_tab_after_each_test, register, shot

__all__ = ["browser", "one_tab_after_each_test"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow

BOTS = (HouseBot("hb_web_beginner", strength="beginner"), HouseBot("hb_web_expert", strength="expert"))


def test_play_the_computer_from_the_lobby(browser: WebDriver, tmp_path: Path) -> None:
    if not os.access(DEFAULT_GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is missing at {DEFAULT_GNUBG}: ./scripts/test installs it")
    threaded = ThreadedServer(tmp_path, None)  # type: ignore[arg-type]  # secure dice
    threaded.config = conftest.test_config(tmp_path, **{
        "web.web_enabled": True, "web.web_port": 0,
        "bots.house_bots": [{"name": bot.name, "strength": bot.strength} for bot in BOTS]})
    threaded.clock = SystemClock()  # type: ignore[assignment]  # the bots pace themselves by it
    with threaded as server:
        # The bots start at the lowest CPU priority: on a busy machine that takes far
        # longer than a page's wait. The server says when they are in (a bounded wait on
        # the condition, in the server's thread), then the page has them at once.
        trio.from_thread.run(house_bots_online, server.server, [bot.name for bot in BOTS],
                             trio_token=server.token)
        page = Page(browser, server.url)
        register(page, "webby")
        choice = lambda: Select(page.find("#computer-bot"))
        page.wait(lambda: page.visible("#computer") and len(choice().options) == len(BOTS),
                  "Play the computer with both house bots")
        assert [option.text for option in choice().options] == [
            f"{bot.settings.described} ({bot.name})" for bot in BOTS]
        choice().select_by_value("hb_web_beginner")
        page.fill("#invite-length", "1")
        shot(page, "play-the-computer")
        page.click("#computer-play")
        # (The bot answers the invitation at its low priority too.)
        trio.from_thread.run(playing, server.server, "webby", "hb_web_beginner", trio_token=server.token)
        page.wait_log("Player hb_web_beginner has joined you for a 1 point match.")
        page.wait(lambda: page.visible("#match-view"), "the match against the computer")
        page.wait(lambda: "hb_web_beginner" in page.text("#match-view"), "the bot's name at the board")
        assert not page.visible("#computer")  # (playing: no second invitation from here)
        shot(page, "match-against-the-computer")
