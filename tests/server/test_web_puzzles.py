"""The web page's puzzle view in a real browser (issue 37, docs/puzzles.md): a match
played and analysed from the page, then a player asks for a puzzle, moves the checkers
on the board as in a match, confirms, and reads the grade gnubg's candidates give.

Set FIBSD_WEB_SCREENSHOTS=docs to save a screenshot of each screen into docs/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from fibsd.domain.dice import ScriptedDice
from fibsd.domain.puzzles import apply_gnubg_play
from fibsd.rules import BAR, OFF, legal_plays
from tests.server.test_web_browser import ThreadedServer, browser, one_tab_after_each_test, shot
from tests.server.test_web_match_view import no_console_errors, play, start_match

pytestmark = pytest.mark.slow
__all__ = ["browser", "one_tab_after_each_test"]


def where(point: int) -> str:
    if point == BAR:
        return '#board [data-point="bar"]'
    if point == OFF:
        return '#board [data-point="off"]'
    return f'#board [data-q="{point}"]'


def test_a_puzzle_is_solved_by_moving_checkers_on_the_page(browser: WebDriver, tmp_path: Path) -> None:
    with ThreadedServer(tmp_path, ScriptedDice([3, 1, 6, 5, 4, 2], coin=0)) as server:
        alice, bob = start_match(server, browser, length=1)
        alice.wait(lambda: alice.dice() == "3,1", "the opening roll")
        play(alice, (24, 21), (24, 23))
        bob.wait(lambda: bob.dice() == "6,5", "bob's roll")
        play(bob, (8, 2), (6, 1))  # an error gnubg marks: a puzzle
        alice.click("#resign")
        alice.click("#resign-yes")
        bob.click("#accept")
        bob.wait(lambda: bob.text("#result-text") == "You win the 1-point match 1–0.", "the match's end")
        bob.click("#to-lobby")
        bob.click("#show-history")
        bob.click('#history tr[data-match="1"] button[data-action="analyse"]')
        bob.wait_log("Match 1 is queued for analysis")
        WebDriverWait(bob.focus(), 180, poll_frequency=0.2).until(  # gnubg, niced, on a busy machine
            lambda _d: "The analysis of match 1 is ready" in bob.log_text())

        bob.click("#show-puzzle")
        bob.wait(lambda: bob.visible("#puzzle-about") and bob.js("return fibsd.dice.length") == 2,
                 "the puzzle's board")
        about = bob.text("#puzzle-about")
        assert about.startswith("bob's checker play in match 1, game 1"), about  # his own first
        number = int(bob.text("#puzzle-panel h3").split()[1])
        [puzzle] = [p for n, p in server.server.store.match_puzzles(1) if n == number]
        assert bob.visible("#match-view") and not bob.visible("#resign-box")
        shot(bob, "puzzle")
        # The best play, checker by checker on the board, then Confirm.
        assert puzzle.dice is not None
        position = puzzle.position_for_decider()
        best = apply_gnubg_play(position, puzzle.best.play)
        [chosen] = [p for p in legal_plays(position, puzzle.dice) if p.result == best]
        for move in chosen.moves:
            bob.find(where(move.from_point)).click()
            bob.find(where(move.to_point)).click()
        bob.click("#confirm-move")
        bob.wait(lambda: bob.visible("#puzzle-grade"), "the grade")
        assert "the best answer" in bob.text("#puzzle-grade")
        assert not bob.visible("#match-view")
        shot(bob, "puzzle-graded")
        bob.click('#puzzle-panel button[data-action="puzzle-rating"]')
        bob.wait_log("Puzzle rating of bob: ")
        no_console_errors(browser)
