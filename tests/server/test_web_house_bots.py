"""The web page's "Play the computer" (issue 36) in headless Chromium against a real
server running two house bots (real GNU Backgammon), one of them with two copies
(`matches = 2`): the choice lists each strength once with its free copies, and one click
invites a free copy of the chosen one with the lobby's match options (the second copy
when a FIBS client plays the first); the match starts in the page."""

from __future__ import annotations

import os
import time
from pathlib import Path

import attrs
import pytest
import trio
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from fibsd.domain.accounts import Account
from fibsd.infra.house_bots import HouseBot
from fibsd.infra.passwords import PasswordHasher
from fibsd.infra.wallclock import SystemClock
from fibsd.store.sqlite import SQLiteStore as Store
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG
from protocol.wording import Text
from tests.server import conftest
from tests.server import test_web_bot_marks as bot_marks
from tests.server.helpers import house_bots_online, playing
from tests.server.test_web_browser import (
    Page,
    ThreadedServer,
    browser,
    one_tab_after_each_test,
    register,
    shot,
)

__all__ = ["browser", "one_tab_after_each_test"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow

BOTS = (HouseBot("hb_web_beginner", strength="beginner", matches=2), HouseBot("hb_web_expert", strength="expert"))


def test_play_the_computer_from_the_lobby(browser: WebDriver, tmp_path: Path) -> None:
    if not os.access(DEFAULT_GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is missing at {DEFAULT_GNUBG}: ./scripts/test installs it")
    threaded = ThreadedServer(tmp_path, None)  # type: ignore[arg-type]  # secure dice
    threaded.config = conftest.test_config(tmp_path, **{
        "web.web_enabled": True, "web.web_port": 0,
        "bots.house_bots": [attrs.asdict(bot) for bot in BOTS]})
    threaded.clock = SystemClock()  # type: ignore[assignment]  # the bots pace themselves by it
    store = Store.open(threaded.config.db_path)  # a FIBS client's account, to take the first copy
    digest = PasswordHasher.for_tests("pbkdf2_sha256").hash("cocoapass")
    store.create_account(attrs.evolve(Account.new("cocoa", digest, time.time())))
    store.close()
    beginner, expert = BOTS
    with threaded as server:
        # The bots start at the lowest CPU priority: on a busy machine that takes far
        # longer than a page's wait. The server says when they are in (a bounded wait on
        # the condition, in the server's thread), then the page has them at once.
        trio.from_thread.run(house_bots_online, server.server,
                             [copy for bot in BOTS for copy in bot.copies], trio_token=server.token)
        page = Page(browser, server.url)
        register(page, "webby")
        choice = lambda: Select(page.find("#computer-bot"))
        texts = lambda: [option.text for option in choice().options]
        # Each strength once, the beginner's two copies counted.
        both_free = [f"{beginner.settings.described}: 2 of 2 free",
                     f"{expert.settings.described} (hb_web_expert)"]
        page.wait(lambda: page.visible("#computer") and texts() == both_free,
                  "Play the computer with both house bots, both beginner copies free")
        # A FIBS client plays the beginner's first copy: the page offers the second.
        cocoa = bot_marks.ClipClient(server, "cocoa", "cocoapass")
        try:
            cocoa.send("invite hb_web_beginner 1")
            # (The bot answers an invitation at its low priority too.)
            trio.from_thread.run(playing, server.server, "cocoa", "hb_web_beginner", trio_token=server.token)
            cocoa.until(Text.JOINED_YOU_MATCH.value.format(name="hb_web_beginner", length=1))
            page.wait(lambda: texts()[:1] == [f"{beginner.settings.described}: 1 of 2 free"],
                      "one beginner copy free")
            choice().select_by_value("hb_web_beginner")
            page.fill("#invite-length", "1")
            shot(page, "play-the-computer")
            page.click("#computer-play")
            trio.from_thread.run(playing, server.server, "webby", "hb_web_beginner_b", trio_token=server.token)
            page.wait_log("Player hb_web_beginner_b has joined you for a 1 point match.")
            page.wait(lambda: page.visible("#match-view"), "the match against the computer")
            page.wait(lambda: "hb_web_beginner_b" in page.text("#match-view"), "the bot's name at the board")
            assert not page.visible("#computer")  # (playing: no second invitation from here)
            shot(page, "match-against-the-computer")
        finally:
            cocoa.close()
