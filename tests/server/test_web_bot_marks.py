"""Bots marked on the page (issue 33 §8, issue 35 §1), in headless Chromium against a real
server: a bot's account (the `setbot` mark) logs in over TCP as a bot program does; the
page marks it in the lobby's list and among a tournament's seeds, its human players not.
A FIBS client that did not `toggle extensions` gets no new line (FIBS's who-info has no
bot field); once it turns them on it is told which users online are bots."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import attrs
import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from fibsd.domain.accounts import Account
from fibsd.domain.dice import ScriptedDice
from fibsd.infra.passwords import PasswordHasher
from fibsd.store.sqlite import SQLiteStore as Store
from tests.server.test_web_browser import WAIT_SECONDS, Page, ThreadedServer, browser, register, shot

__all__ = ["browser"]  # (the fixture, shared with the other browser tests)

pytestmark = pytest.mark.slow


class ClipClient:
    """A FIBS client over TCP on 127.0.0.1 (a bot program, or a GUI client)."""

    def __init__(self, server: ThreadedServer, name: str, password: str) -> None:
        assert server.server is not None
        port = server.server.listeners[0].socket.getsockname()[1]
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS)
        self.seen = ""
        self.send(f"login botclient 1008 {name} {password}")
        self.until(f"1 {name} ")

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\r\n")

    def until(self, text: str) -> str:
        """Reads until `text` has arrived (bounded by the socket's timeout); all read so far."""
        deadline = time.monotonic() + WAIT_SECONDS  # (a bound on a stuck server, not a wait)
        while text not in self.seen:
            assert time.monotonic() < deadline, f"never saw {text!r}: {self.seen[-500:]!r}"
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                raise AssertionError(f"never saw {text!r}: {self.seen[-500:]!r}") from None
            assert chunk, f"closed before {text!r}: {self.seen[-500:]!r}"
            self.seen += chunk.decode("utf-8", "replace")
        return self.seen

    def close(self) -> None:
        self.sock.close()


def test_bots_are_marked_in_the_lobby_and_the_tournament_view(browser: WebDriver, tmp_path: Path) -> None:
    server = ThreadedServer(tmp_path, ScriptedDice([3, 1], coin=0))
    store = Store.open(server.config.db_path)  # a bot's account, as `setbot robo on` leaves it
    digest = PasswordHasher.for_tests("pbkdf2_sha256").hash("robopass")
    store.create_account(attrs.evolve(Account.new("robo", digest, time.time()), bot=True))
    store.create_account(Account.new("carl", PasswordHasher.for_tests("pbkdf2_sha256").hash("carlpass"), time.time()))
    store.close()
    with server:
        alice = Page(browser, server.url, new_tab=False)
        register(alice, "alice")
        gui = ClipClient(server, "carl", "carlpass")  # a FIBS client: no `toggle extensions`
        robo = ClipClient(server, "robo", "robopass")
        gui.until("\r\n5 robo ")  # robo's who-info, and nothing about a bot
        gui.send("toggle extensions")  # now it asks: the bots online
        assert gui.until("bot: robo on\r\n").count("bot: ") == 1, gui.seen
        alice.wait(lambda: alice.visible('#who tr[data-user="robo"] .bot-mark'), "robo marked as a bot")
        assert not alice.visible('#who tr[data-user="alice"] .bot-mark')
        shot(alice, "lobby-bot-mark")
        robo.send("tournament create botcup knockout 1 bots")
        alice.wait_log("botcup")
        robo.send("tournament join botcup")
        alice.click("#show-tournaments")
        alice.click('#tournaments tr[data-name="botcup"] button[data-action="t-join"]')
        alice.wait(lambda: "Tournament botcup: alice enters (2 entered)." in alice.text("#extra"), "both entered")
        alice.click('#tournaments tr[data-name="botcup"] button[data-action="t-show"]')
        alice.wait(lambda: alice.visible('#t-seeds [data-seed="robo"] .bot-mark'), "robo marked among the seeds")
        assert alice.visible('#t-seeds [data-seed="alice"]')
        assert not alice.visible('#t-seeds [data-seed="alice"] .bot-mark')
        shot(alice, "tournament-bot-mark")
        robo.close()
        gui.close()
