"""Whole matches (two to four) played through the page as a person plays them (issue 33): random dice,
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
from tests.server.test_web_browser import FOCUSED, WAIT_SECONDS, Page, ThreadedServer, browser, one_tab_after_each_test, register
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


# Installed in each player's page too: what the page asks of its player now ('' if
# nothing, 'over' at the match's end) and whether its header says Crawford, told to the
# other players' pages (a BroadcastChannel) at every change, so that one page knows what
# every page asks, and a wait for the next action (NEXT_ACTION) is one round trip.
TELL_WANTS = r"""
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
const person = { name: arguments[0], others: {}, wake: null, lines: 0,
  mine: () => [wants(), document.getElementById('match-info').textContent.includes('Crawford')] };
window.person = person;
const channel = new BroadcastChannel('fibsd-test-wants');
let told = '';
const tell = (always) => {
  const mine = person.mine(), now = JSON.stringify(mine);
  if (always || now !== told) channel.postMessage({ name: person.name, state: mine });
  told = now;
  if (person.wake) person.wake();
};
channel.onmessage = ({ data }) => {
  if (data === 'who') { tell(true); return; }
  person.others[data.name] = data.state;
  if (person.wake) person.wake();
};
new MutationObserver(() => tell(false))
  .observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
const check = fibsd.afterLine;
fibsd.afterLine = (line) => { check(line); person.lines++; tell(false); };
channel.postMessage('who');
tell(true);
"""

# Resolves with {name: [action, crawford]} of every player once one of them has something
# to do (an action other than '' and 'over') or all of them say 'over' (this page's own
# state read now, the others' as they last told it), or after the milliseconds given.
NEXT_ACTION = r"""
const [names, ms, done] = arguments;
const person = window.person;
const all = () => ({ ...person.others, [person.name]: person.mine() });
const ready = () => {
  const states = names.map((name) => all()[name]);
  return states.some((s) => s && s[0] !== '' && s[0] !== 'over') || states.every((s) => s && s[0] === 'over');
};
if (ready()) { done(all()); return; }
const timer = setTimeout(() => { person.wake = null; done(all()); }, ms);
person.wake = () => { if (ready()) { person.wake = null; clearTimeout(timer); done(all()); } };
"""


#: What the matches must have had.
EVENING = ("double", "pass", "take", "resignation", "reload", "dance", "Crawford game")

def install(page: Page, name: str) -> None:
    page.js(CHECK_EVERY_LINE)
    page.js(TELL_WANTS, name)


def violations(page: Page) -> list[object]:
    return list(page.js("return window.violations || []"))


def next_action(page: Page, names: list[str]) -> dict[str, tuple[str, bool]]:
    """What every player's page asks ({name: (action, crawford)}), asked of `page` (the
    tab in front) in one call that returns once someone has something to do or the match
    is over everywhere (or after WAIT_SECONDS, for the caller to fail)."""
    states = page.focus().execute_async_script(NEXT_ACTION, names, WAIT_SECONDS * 1000)
    return {name: (str(state[0]), bool(state[1])) for name, state in states.items()}


def wants_and_crawford(page: Page) -> tuple[str, bool]:
    """What the page asks of its player now ('' if nothing), and whether its header says
    this is the Crawford game."""
    action, crawford = page.js("return window.person.mine()")
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
            install(page, names[page])
        # Two 3-point matches, and up to two more until the evening has had everything
        # (the random play does not always reach a Crawford game in two).
        for match in range(1, 5):
            length = 3
            inviter, invitee = (alice, bob) if match % 2 else (bob, alice)
            other = "bob" if inviter is alice else "alice"
            inviter.fill("#invite-length", str(length))
            inviter.wait(lambda: inviter.visible(f'#who tr[data-user="{other}"] button[data-action="invite"]'), "ready")
            inviter.click(f'#who tr[data-user="{other}"] button[data-action="invite"]')
            invitee.click(f'#invitations [data-from="{names[inviter]}"] button[data-action="join"]')
            for _ in range(3000):
                # One call to the tab in front tells what every page asks; the page
                # to act is asked once more in its own tab (the other's word may be a
                # moment old), the tab in front first.
                front = next(p for p in players if FOCUSED.get(id(browser)) == p.handle)
                told = next_action(front, list(names.values()))
                if all(told.get(name, ("", False))[0] == "over" for name in names.values()):
                    break
                waiting = [p for p in sorted(players, key=lambda p: p is not front)
                           if told.get(names[p], ("", False))[0] not in ("", "over")]
                if not waiting:
                    raise AssertionError(f"nobody has anything to do: {told}")
                page = waiting[0]
                action, crawford = told[names[page]] if page is front else wants_and_crawford(page)
                if action in ("", "over"):
                    continue
                reloaded = None
                lines = page.js("return window.person.lines")
                if crawford:
                    seen["Crawford game"] += 1
                if action == "roll":
                    if not seen["resignation"] and match >= 2 and page.visible("#resign"):
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
                            install(page, names[page])
                            seen["reload"] += 1
                            reloaded = page
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
                # The server's answer reached the page before the next step (a person does
                # not click Roll again while his resignation is on its way).
                if page is not reloaded:
                    page.wait(lambda: page.js("return window.person.lines") > lines, f"the answer to {action!r}")
            else:
                raise AssertionError("the match did not end")
            for page in players:
                seen["dance"] += page.log_text().count("can't move")
                found += violations(page)
            for page in players:
                page.click("#to-lobby")
            if match >= 2 and all(seen[event] for event in EVENING):
                break
        assert not found, found[:10]
        # The matches had what a person's evening has.
        assert all(seen[event] for event in EVENING), seen
        no_console_errors(browser)
