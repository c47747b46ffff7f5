"""Whole matches played through the page as a person plays them (issue 33): random dice,
doubles, takes and passes, dances, the Crawford game, a resignation and a reload, every
action a click. After every line the server sends, each player's page is checked: it
offers exactly one sensible next action (Roll/Double, a checker to move or a move to
confirm, an answer to a double or a resignation, the next game, the way back to the
lobby) or a waiting line naming the player it waits for, never both and never neither;
and when it is settled (no move half made, no move being shown step by step) the board it
draws is the server's last board, checker for checker. This is the test that finds a
stalled turn, an undone winning move and stale views (defects 1, 3 and 4).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from fibsd.domain.dice import ScriptedDice
from tests.server.test_web_browser import FOCUSED, Page, ThreadedServer, browser, one_tab_after_each_test, register
from tests.server.test_web_match_view import move_by_clicks, no_console_errors

pytestmark = pytest.mark.slow
__all__ = ["browser", "one_tab_after_each_test"]

# Installed in each player's page: runs after every line the server sends.
CHECK_EVERY_LINE = r"""
window.violations = window.violations || [];
let last = null;
const check = (line) => {
  if (line.startsWith('board:')) last = line;
  const b = fibsd.board;
  if (!b || b.player !== 'You' || document.getElementById('match-view').hidden) return;
  const shown = (id) => !document.getElementById(id).hidden;
  const offers = [];
  if (shown('roll')) offers.push('roll');
  if (shown('accept') && shown('reject')) offers.push('answer');
  if (shown('confirm-move')) offers.push('confirm');
  if (fibsd.dice.length && !fibsd.readyToSend) offers.push('move');
  if (shown('join-next')) offers.push('next game');
  if (shown('rematch') || shown('to-lobby')) offers.push('match over');
  const info = document.getElementById('turn-info').textContent;
  const waits = offers.length === 0 && info.includes(b.opponent);
  if (!(offers.length === 1 || waits)) {
    window.violations.push({line, offers, info, board: b.line});
  }
  // Settled: the drawn board is the server's last board.
  if (last && fibsd.board.line === last && fibsd.shown === fibsd.board && !fibsd.moves.length && !fibsd.result) {
    const f = last.split(':');
    const drawn = [...document.querySelectorAll('#board [data-point]')]
      .filter((e) => /^\d+$/.test(e.dataset.point)).map((e) => [Number(e.dataset.point), Number(e.dataset.count)]);
    for (const [p, count] of drawn) {
      if (Number(f[6 + p]) !== count) { window.violations.push({line, drawn: `point ${p}: ${count}`, board: last}); break; }
    }
  }
};
fibsd.afterLine = check;
"""


def install(page: Page) -> None:
    page.js(CHECK_EVERY_LINE)


def violations(page: Page) -> list[object]:
    return list(page.js("return window.violations || []"))


WANTS = """
    const shown = (id) => !document.getElementById(id).hidden;
    const wants = () => {
      if (document.getElementById('match-view').hidden) return '';
      if (shown('roll')) return 'roll';
      if (shown('accept')) return 'answer';
      if (fibsd.dice.length && !fibsd.readyToSend) return 'move';
      if (shown('confirm-move')) return 'confirm';
      if (shown('join-next')) return 'next';
      if (shown('to-lobby')) return 'over';
      return '';
    };
    return [wants(), document.getElementById('match-info').textContent.includes('Crawford')];"""


def wants(page: Page) -> str:
    """What the page asks of its player now ('' if nothing)."""
    return str(page.js(WANTS)[0])


def wants_and_crawford(page: Page) -> tuple[str, bool]:
    """What the page asks, and whether its header says this is the Crawford game (one
    round trip to the browser: a whole match asks this thousands of times)."""
    action, crawford = page.js(WANTS)
    return str(action), bool(crawford)


def test_whole_matches_played_like_a_person(browser: WebDriver, tmp_path: Path) -> None:
    rng = random.Random(2026)
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(4000)], coin=0)
    seen: Counter[str] = Counter()
    found: list[object] = []
    with ThreadedServer(tmp_path, dice) as server:
        alice = Page(browser, server.url, new_tab=False)
        register(alice, "alice")
        bob = Page(browser, server.url)
        register(bob, "bob")
        players = [alice, bob]
        names = {alice: "alice", bob: "bob"}
        for page in players:
            install(page)
        for match, length in enumerate((3, 3), start=1):
            inviter, invitee = (alice, bob) if match % 2 else (bob, alice)
            other = "bob" if inviter is alice else "alice"
            inviter.fill("#invite-length", str(length))
            inviter.wait(lambda: inviter.visible(f'#who tr[data-user="{other}"] button[data-action="invite"]'), "ready")
            inviter.click(f'#who tr[data-user="{other}"] button[data-action="invite"]')
            invitee.click(f'#invitations [data-from="{names[inviter]}"] button[data-action="join"]')
            for _ in range(3000):
                # The tab in front first: the other is asked (a switch of tabs) only
                # when this one has nothing to do.
                asked: dict[Page, tuple[str, bool]] = {}
                for p in sorted(players, key=lambda p: FOCUSED.get(id(browser)) != p.handle):
                    asked[p] = wants_and_crawford(p)
                    if asked[p][0] not in ("", "over"):
                        break
                if len(asked) == 2 and all(action == "over" for action, _ in asked.values()):
                    break
                page = next((p for p in asked if asked[p][0] not in ("", "over")), None)
                if page is None:
                    alice.wait(lambda: any(wants(p) not in ("", "over") for p in players)
                               or all(wants(p) == "over" for p in players), "someone to play")
                    continue
                action, crawford = asked[page]
                if crawford:
                    seen["Crawford game"] += 1
                if action == "roll":
                    if not seen["resignation"] and match == 2 and page.visible("#resign"):
                        Select(page.find("#resign-kind")).select_by_value("n")
                        page.click("#resign")
                        page.click("#resign-yes")
                        seen["resignation"] += 1
                    elif page.visible("#double") and rng.random() < 0.3:
                        page.click("#double")
                        seen["double"] += 1
                    else:
                        page.click("#roll")
                        if not seen["reload"] and match == 1:  # a reload, once, mid-match
                            found += violations(page)
                            page.focus().refresh()
                            page.logged_in(names[page])
                            page.wait(lambda: page.visible("#match-view"), "back in the match")
                            install(page)
                            seen["reload"] += 1
                elif action == "answer":
                    if page.text("#accept") == "Accept" or rng.random() < 0.6:
                        page.click("#accept")
                        seen["take" if page.text("#accept") == "Take" else "accept"] += 1
                    else:
                        page.click("#reject")
                        seen["pass"] += 1
                elif action == "move":
                    move_by_clicks(page, rng)
                elif action == "confirm":
                    page.click("#confirm-move")
                elif action == "next":
                    page.click("#join-next")
            else:
                raise AssertionError("the match did not end")
            for page in players:
                seen["dance"] += page.log_text().count("can't move")
                found += violations(page)
            for page in players:
                page.click("#to-lobby")
        assert not found, found[:10]
        # The matches had what a person's evening has.
        assert seen["double"] and seen["pass"] and seen["take"] and seen["resignation"] and seen["reload"], seen
        assert seen["dance"] and seen["Crawford game"], seen
        no_console_errors(browser)
