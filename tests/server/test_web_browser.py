"""The web client in a real browser (issue 16): Debian's headless Chromium, driven by
selenium through chromium-driver, against a real server on 127.0.0.1 (port 0) running in
a thread with scripted dice. Users register and log in through the page; two of them play
a whole 3-point match by clicking (roll, moves, double, take, resignations, the next
game, the Crawford game); a third watches and her page follows the board.

Set FIBSD_WEB_SCREENSHOT=docs/web-match.png to save the match view while it is played.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self

import pytest
import trio
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from fibsd.clock import ManualClock
from fibsd.dice import ScriptedDice
from fibsd.passwords import PasswordHasher
from fibsd.server import Server
from fibsd.store.sqlite import SQLiteStore as Store
from tests.server import conftest

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT_SECONDS = 15


class ThreadedServer:
    """A fibsd server in a thread of its own (selenium blocks, so the test cannot share
    trio's thread), stopped gracefully at the end."""

    def __init__(self, tmp_path: Path, dice: ScriptedDice) -> None:
        self.config = conftest.test_config(tmp_path, **{"web.web_enabled": True, "web.web_port": 0})
        self.dice = dice
        self.server: Server | None = None
        self.token: trio.lowlevel.TrioToken | None = None
        self.started = threading.Event()
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            store = Store.open(self.config.db_path)
            try:
                self.server = Server(self.config, store, clock=ManualClock(),
                                     hasher=PasswordHasher.for_tests("pbkdf2_sha256"), dice=self.dice)
                self.token = trio.lowlevel.current_trio_token()
                async with trio.open_nursery() as nursery:
                    await nursery.start(self.server.serve)
                    self.started.set()
            finally:
                store.close()

        try:
            trio.run(main)
        except BaseException as failure:  # noqa: BLE001  # reported by the test, not lost
            self.failure = failure
            self.started.set()

    def __enter__(self) -> Self:
        self.thread.start()
        assert self.started.wait(30) and self.failure is None, self.failure
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None and self.token is not None
        trio.from_thread.run_sync(self.server.request_stop, trio_token=self.token)
        self.thread.join(30)
        assert not self.thread.is_alive()
        assert self.failure is None, self.failure

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.web_listeners[0].socket.getsockname()[1]
        return f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1200,900",
        # Several users share one browser, one tab each: keep the hidden tabs running.
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(argument)
    os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium look for drivers online
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """One user's tab."""

    def __init__(self, driver: WebDriver, url: str, *, new_tab: bool = True) -> None:
        self.driver = driver
        if new_tab:
            driver.switch_to.new_window("tab")
        self.handle = driver.current_window_handle
        driver.get(url)

    def focus(self) -> WebDriver:
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)
        return self.driver

    def find(self, css: str) -> Any:
        return self.focus().find_element(By.CSS_SELECTOR, css)

    def wait(self, condition: Callable[[], Any], what: str) -> Any:
        self.focus()

        def check(_driver: WebDriver) -> Any:
            try:
                return condition()
            except StaleElementReferenceException:  # the view was redrawn meanwhile
                return False

        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.05).until(check)
        except TimeoutException:
            raise AssertionError(f"never saw {what}; log: {self.text('#log')[-1500:]}") from None

    def text(self, css: str) -> str:
        return str(self.find(css).get_attribute("textContent"))

    def visible(self, css: str) -> bool:
        elements = self.focus().find_elements(By.CSS_SELECTOR, css)
        return bool(elements) and elements[0].is_displayed()

    def click(self, css: str) -> None:
        self.wait(lambda: self.visible(css), css)
        self.find(css).click()

    def wait_log(self, text: str) -> None:
        self.wait(lambda: text in self.text("#log"), repr(text))

    def fill(self, css: str, value: str) -> None:
        element = self.find(css)
        element.clear()
        element.send_keys(value)

    def enter(self, name: str, password: str) -> None:
        self.fill("#login-name", name)
        self.fill("#login-password", password)

    def logged_in(self, name: str) -> None:
        self.wait(lambda: self.visible("#lobby-view") and f"logged in as {name}" in self.text("#status"),
                  f"{name} logged in")

    def count(self, q: int) -> int:
        """Checkers on the viewer's point q (their own numbering), + for O, - for X."""
        return int(self.find(f'#board [data-q="{q}"]').get_attribute("data-count"))

    def point(self, q: int) -> None:
        self.find(f'#board [data-q="{q}"]').click()

    def counts(self) -> list[str]:
        return [self.find(f'#board [data-point="{p}"]').get_attribute("data-count") for p in range(1, 25)]

    def dice(self) -> str:
        found = self.focus().find_elements(By.CSS_SELECTOR, "#board #my-dice")
        return str(found[0].get_attribute("data-dice")) if found else ""


def register(page: Page, name: str) -> None:
    page.enter(name, "secret1")
    page.click("#register-button")
    page.logged_in(name)
    page.wait_log(f"Welcome, {name}: you are registered.")
    page.click("#ready")
    page.wait(lambda: page.find("#ready").is_selected(), "ready checked")


def test_register_log_out_and_log_in_with_a_wrong_then_the_right_password(
        browser: WebDriver, tmp_path: Path) -> None:
    with ThreadedServer(tmp_path, ScriptedDice()) as server:
        page = Page(browser, server.url, new_tab=False)
        assert browser.title == "fibsd"
        register(page, "dora")
        page.wait(lambda: page.visible('#who tr[data-user="dora"]'), "dora in the who list")
        page.click("#logout")
        page.wait(lambda: page.visible("#login-view"), "the login form")
        page.enter("Dora", "another1")  # names are case-insensitive: taken
        page.click("#register-button")
        page.wait(lambda: "Please use another name." in page.text("#login-error"), "the name refused")
        page.enter("dora", "wrong-password")
        page.click("#login-button")
        page.wait(lambda: "Wrong name or password." in page.text("#login-error"), "the refusal")
        page.enter("dora", "secret1")
        page.click("#login-button")
        page.logged_in("dora")
        page.wait_log("Logged in as dora.")
        # A phone-sized screen: one column, nothing wider than the screen.
        browser.set_window_size(390, 844)
        try:
            page.wait(lambda: browser.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling")
            assert page.find("#lobby-view").rect["x"] == page.find("#chat-view").rect["x"]
        finally:
            browser.set_window_size(1200, 900)


def test_a_whole_match_played_and_watched_in_the_browser(browser: WebDriver, tmp_path: Path) -> None:
    # The opening roll 3-1 (alice moves first), bob's roll 6-5, alice's roll after the
    # double 2-1, then the opening roll of the Crawford game 4-2.
    dice = ScriptedDice([3, 1, 6, 5, 2, 1, 4, 2], coin=0)
    with ThreadedServer(tmp_path, dice) as server:
        alice = Page(browser, server.url, new_tab=False)
        register(alice, "alice")
        bob = Page(browser, server.url)
        register(bob, "bob")
        carol = Page(browser, server.url)
        register(carol, "carol")

        # alice invites bob to a 3-point match from the lobby; bob joins.
        alice.wait(lambda: alice.visible('#who tr[data-user="bob"] button[data-action="invite"]'), "bob ready")
        Select(alice.find("#invite-length")).select_by_visible_text("3")
        alice.click('#who tr[data-user="bob"] button[data-action="invite"]')
        bob.click('#invitations [data-from="alice"] button[data-action="join"]')
        alice.wait(lambda: alice.visible("#match-view") and alice.dice() == "3,1", "the opening roll")
        assert "3-point match" in alice.text("#match-info")
        assert alice.text("#score").startswith("You 0")

        # carol watches alice.
        carol.click('#who tr[data-user="alice"] button[data-action="watch"]')
        carol.wait(lambda: carol.visible("#match-view"), "carol's board")
        carol.wait(lambda: "Watching alice." in carol.text("#turn-info"), "carol watching")

        # alice plays 8/5 6/5 by clicking: a checker, then its highlighted target.
        assert alice.count(8) * alice.count(6) > 0  # her own checkers, whatever her colour
        alice.point(8)
        alice.wait(lambda: "target" in alice.find("#board polygon.target").get_attribute("class"), "targets")
        alice.point(5)
        alice.point(6)
        alice.point(5)
        bob.wait_log("alice moves")
        bob.wait(lambda: abs(bob.count(20)) == 2, "alice's made point on bob's board")  # her 5 is his 20

        # bob rolls 6-5 and runs a back checker 24/13: 24/18 by clicking, 18/13 by dragging.
        bob.click("#roll")
        bob.wait(lambda: bob.dice() == "6,5", "bob's roll")
        bob.point(24)
        bob.point(18)
        bob.wait(lambda: abs(bob.count(18)) == 1 and "5 to play" in bob.text("#turn-info"), "24/18 made")
        # (By offsets: picking a checker up redraws the board, so elements go stale.)
        source, target = bob.find('#board [data-q="18"]'), bob.find('#board [data-q="13"]')
        dx = target.rect["x"] - source.rect["x"]
        dy = target.rect["y"] - source.rect["y"]
        ActionChains(bob.focus()).move_to_element(source).click_and_hold() \
            .move_by_offset(dx / 2, dy / 2).move_by_offset(dx - dx / 2, dy - dy / 2).release().perform()
        alice.wait_log("bob moves")
        carol.wait(lambda: carol.counts() == bob.counts(), "carol's board following")
        alice.wait(lambda: alice.counts() == bob.counts(), "alice's board after bob's move")

        # alice doubles, bob takes; alice is rolled for, then resigns a single game.
        alice.click("#double")
        bob.wait_log("alice doubles.")
        bob.click("#accept")
        alice.wait_log("bob accepts the double. The cube shows 2.")
        alice.wait(lambda: alice.text("#cube-value") == "2" and alice.dice() == "2,1", "cube 2")
        # A checker picked up shows where it may go with one die: 13/11, not 13/12 (bob's).
        alice.point(13)
        alice.wait(lambda: len(alice.focus().find_elements(By.CSS_SELECTOR, "#board polygon.target")) == 1,
                   "one target")
        if os.environ.get("FIBSD_WEB_SCREENSHOT"):
            alice.focus().save_screenshot(os.environ["FIBSD_WEB_SCREENSHOT"])
        # On a phone the board fits the screen's width, and the buttons stay below it.
        browser.set_window_size(390, 844)
        try:
            alice.wait(lambda: browser.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling")
            board, resign = alice.find("#board").rect, alice.find("#resign").rect
            assert board["width"] <= 390 and resign["y"] > board["y"] + board["height"]
            if os.environ.get("FIBSD_WEB_PHONE_SCREENSHOT"):
                browser.save_screenshot(os.environ["FIBSD_WEB_PHONE_SCREENSHOT"])
        finally:
            browser.set_window_size(1200, 900)
        Select(alice.find("#resign-kind")).select_by_value("n")
        alice.click("#resign")
        bob.wait_log("alice wants to resign. You will win 2 points.")
        bob.click("#accept")
        bob.wait_log("You accept and win 2 points.")

        # The next game is the Crawford game; alice resigns it and bob wins 3-0.
        alice.click("#join-next")
        bob.click("#join-next")
        alice.wait(lambda: alice.dice() == "4,2", "the opening roll of game 2")
        assert "Crawford game" in alice.text("#match-info")
        assert alice.text("#score").startswith("You 0") and alice.text("#score").endswith("2 bob")
        alice.click("#resign")
        bob.click("#accept")
        bob.wait_log("You win the 3 point match 3-0 .")
        alice.wait_log("bob wins the 3 point match 3-0 .")
        carol.wait_log("bob wins the 3 point match 3-0 .")


def test_lobby_decline_chat_leave_and_resume(browser: WebDriver, tmp_path: Path) -> None:
    with ThreadedServer(tmp_path, ScriptedDice([3, 1], coin=0)) as server:
        alice = Page(browser, server.url, new_tab=False)
        register(alice, "alice")
        bob = Page(browser, server.url)
        register(bob, "bob")
        invite = '#who tr[data-user="bob"] button[data-action="invite"]'

        # bob declines a first invitation: alice is told.
        alice.click(invite)
        bob.wait(lambda: "alice wants to play a 3 point match with you." in bob.text("#invitations"),
                 "the invitation")
        bob.click('#invitations [data-from="alice"] button[data-action="decline"]')
        alice.wait_log("bob says: Sorry, I decline your invitation.")
        assert not bob.visible('#invitations [data-from="alice"]')

        # An unlimited match, joined; a word with the opponent and a kibitz.
        Select(alice.find("#invite-length")).select_by_value("unlimited")
        alice.click(invite)
        bob.click('#invitations [data-from="alice"] button[data-action="join"]')
        alice.wait(lambda: alice.visible("#match-view") and "unlimited match" in alice.text("#match-info"),
                   "an unlimited match")
        alice.fill("#chat-text", "good luck")
        alice.click('#chat-form button[type="submit"]')
        bob.wait_log("alice says: good luck")
        Select(bob.find("#chat-kind")).select_by_value("kibitz")
        bob.fill("#chat-text", "thanks")
        bob.click('#chat-form button[type="submit"]')
        alice.wait_log("bob kibitzes: thanks")

        # alice leaves: the match is saved and offered for resuming, then resumed.
        alice.click("#leave")
        bob.wait_log("** Player alice has left the game. The game was saved.")
        alice.click('#saved button[data-action="resume"]')
        bob.wait(lambda: "alice wants to resume a saved match with you." in bob.text("#invitations"),
                 "the invitation to resume")
        bob.click('#invitations [data-from="alice"] button[data-action="join"]')
        alice.wait_log("bob has joined you. Your running match was loaded.")
        alice.wait(lambda: alice.dice() == "3,1" and "unlimited match" in alice.text("#match-info"),
                   "the resumed board")
