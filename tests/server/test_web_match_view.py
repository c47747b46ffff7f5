"""The match view in a real browser, defect by defect (issue 33): each test plays through
the page's UI only (clicks on the board and on buttons; nothing typed unless a player
would type it), against a real server with scripted dice, and pins one defect that a club
evening found. The harness (the threaded server, one tab per user) is test_web_browser's.

Set FIBSD_WEB_SCREENSHOTS=docs to save a screenshot of each screen into docs/.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from fibsd.domain.dice import ScriptedDice
from tests.server.test_web_browser import Page, ThreadedServer, browser, register, shot
from tests.server.web_player import choose_play

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


def move_by_clicks(page: Page, rng: random.Random) -> None:
    """The page's player makes one of the legal plays for his dice, click by click, and
    confirms it (Undo and another play if the page would not take a click)."""
    for _attempt in range(6):
        board = page.js("return fibsd.board")
        done = True
        for number, (source, target) in enumerate(choose_play(board, rng), start=1):
            page.find(source).click()
            page.find(target).click()
            if page.js("return fibsd.moves.length") != number:
                done = False
                break
        if done:
            page.click("#confirm-move")
            return
        page.click("#undo")
    raise AssertionError(f"the page took none of six legal plays: {board['line']}")


def take_turn(page: Page, rng: random.Random) -> bool:
    """Whatever the page offers this player now: roll, or move. False when nothing."""
    if page.visible("#roll"):
        page.click("#roll")
        return True
    if page.js("return fibsd.dice.length > 0 && !fibsd.readyToSend"):
        move_by_clicks(page, rng)
        return True
    return False


def play_until(pages: list[Page], done: Any, rng: random.Random, turns: int = 400) -> None:
    """Both players take their turns until `done()`; each wait is on the page's state."""
    for _ in range(turns):
        if done():
            return
        for page in pages:
            page.wait(lambda: done() or any(
                p.visible("#roll") or p.js("return fibsd.dice.length > 0 && !fibsd.readyToSend") for p in pages),
                "someone to play")
            take_turn(page, rng)
    raise AssertionError("the game did not end")


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


def test_the_winning_move_stays_on_screen_with_the_new_score(browser: WebDriver, tmp_path: Path) -> None:
    # Issue 33 #3: the page drew the position before the winning move beside "You win",
    # kept the old score in the header, and did not say it was a gammon or a backgammon.
    # alice rolls big doubles, bob 2-1: alice bears off long before bob is home.
    turns = [6, 6, 2, 1, 5, 5, 1, 2, 4, 4, 2, 1] * 40
    with ThreadedServer(tmp_path, ScriptedDice([6, 1, 2, 1, *turns], coin=0)) as server:
        alice, bob = start_match(server, browser, length=5)
        alice.wait(lambda: alice.dice() == "6,1", "the opening roll")
        rng = random.Random(33)
        play_until([alice, bob], lambda: alice.visible("#result") and bob.visible("#result"), rng)
        won = re.search(r"You win the game and get (\d+) points?\.", alice.log_text())
        assert won, alice.log_text()[-800:]
        points = int(won.group(1))  # the cube stayed at 1
        kind = {1: "", 2: " (a gammon)", 3: " (a backgammon)"}[points]
        for page, who, mine, theirs in ((alice, "You win", points, 0), (bob, "alice wins", 0, points)):
            page.wait(lambda: page.text("#result-text") == f"{who} the game and {points} point{'s' if points > 1 else ''}{kind}.",
                      "the result with its kind")
            page.wait(lambda: page.text("#score") == f"{'You' if page is alice else 'You'} {mine} – {theirs} {'bob' if page is alice else 'alice'}",
                      "the new score in the header")
        # The final position: all of alice's checkers off, on both boards.
        alice.wait(lambda: alice.find('#board [data-point="off"]').get_attribute("data-count") == "15", "alice's 15 off")
        assert alice.text("#pips").startswith("pips: You 0 ")
        assert bob.text("#pips").endswith("alice 0")
        shot(alice, "game-over")
        no_console_errors(browser)
