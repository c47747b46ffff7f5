"""Crash safety (issue 7): SIGKILL the server process in the middle of a match, restart it.

The server runs as a real `python -m fibsd serve` subprocess on its own database and a free
port on 127.0.0.1, with the real (secure) dice: the players are driven like bots, reading
their `board:` lines and answering with legal plays computed by `fibsd.rules.legal_plays`.
A finished 1-point match first moves the ratings away from 1500 so that "ratings intact"
means something; then a 5-point match is played for a few actions and the process is
killed with SIGKILL right after the last completed action. After the kill the database
must pass `PRAGMA integrity_check` (on SQLite; both tests run on each backend of the
store, PostgreSQL too); after a restart on the same file both players log in,
`invite` (no length) + `join` resume the match at exactly the last board each one saw,
ratings and experience are unchanged, the message that was stored for an offline user is
delivered, and a message already shown before the crash is not shown again.

Stored messages exist only for users who are offline: a `message` to an online user is
delivered at once. So carol (the third user) leaves a message for alice before alice's
first login (shown once, then deleted), and during the match alice leaves one for carol,
who has logged out by then and only comes back after the restart.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import attrs
import pytest
import trio

from fibsd.rules import legal_plays
from fibsd.tools.bots.moves import play_line, position_of
from protocol.board import BoardLine, Colour
from tests.conftest import StoreBackend
from tests.server.client import TestClient
from tests.server.helpers import clip_login, register
from tests.server.players import Player

REPO = Path(__file__).resolve().parents[2]
#: Only a bound against a server that never listens: `start` waits for it to listen (or
#: exit), and a busy machine (a 2-core CI box at load 18) takes many seconds to start
#: the interpreter and import fibsd.
STARTUP_SECONDS = 120.0
#: Actions (rolls and plays) of the 5-point match before the kill.
ACTIONS_BEFORE_CRASH = 7
SENTINEL_COMMAND = "set boardstyle 3"
SENTINEL_ANSWER = "Value of 'boardstyle' set to 3."


#: What the server logs once its telnet/CLIP listener is open (fibsd.shell.listeners).
LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")


class ServerProcess:
    """`python -m fibsd serve` on 127.0.0.1 with a test configuration; stopped by its PID.
    Its store is the SQLite file `db_path`, or the PostgreSQL database `store_url`."""

    def __init__(self, directory: Path, store_url: str | None = None) -> None:
        self.directory = directory
        self.db_path = directory / "fibsd.db"
        self.store_url = store_url
        self.config_path = directory / "fibsd.toml"
        self.config_path.write_text(
            "[server]\n"
            f'motd_file = "{directory / "no-motd.txt"}"\n'
            'log_level = "INFO"\n'
            "[limits]\n"
            "login_timeout_seconds = 30\n"
            "[passwords]\n"
            'password_hash_scheme = "pbkdf2_sha256"\n'
            "pbkdf2_rounds = 1000\n",
            encoding="utf-8",
        )
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.clients: list[TestClient] = []
        self.runs = 0

    @property
    def log_path(self) -> Path:
        return self.directory / f"server-{self.runs}.log"

    def _launch(self) -> subprocess.Popen[bytes]:
        self.runs += 1
        # Port 0: the kernel's choice, read back from the log (`start`). A port probed free
        # beforehand could be taken meanwhile by another test (the suite runs in two
        # processes).
        self.port = 0
        with open(self.log_path, "wb") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "fibsd", "serve", "--config", str(self.config_path),
                 "--host", "127.0.0.1", "--port", str(self.port),
                 *(["--store", self.store_url] if self.store_url else ["--db", str(self.db_path)])],
                cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            )

    async def start(self) -> None:
        """Start the server and wait (bounded) until it logs that it listens, on which port."""
        self.process = self._launch()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server exited with {self.process.returncode}:\n{self.log_text()}")
            listening = LISTENING.search(self.log_text())
            if listening is None:
                await trio.sleep(0.05)  # (the log is a file: look again)
                continue
            self.port = int(listening.group(1))
            return
        raise AssertionError(f"server did not listen within {STARTUP_SECONDS} s:\n{self.log_text()}")

    async def connect(self) -> TestClient:
        client = TestClient(await trio.open_tcp_stream("127.0.0.1", self.port))
        self.clients.append(client)
        return client

    async def close_clients(self) -> None:
        for client in self.clients:
            await client.close()
        self.clients.clear()

    def kill(self) -> int:
        """SIGKILL by PID and reap the process; its return code."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        return self.process.wait(timeout=10)

    def terminate(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


@pytest.fixture
async def server_process(tmp_path: Path, backend: StoreBackend) -> AsyncIterator[ServerProcess]:
    """A server process on each backend of the store in turn (tests/conftest.py)."""
    server = ServerProcess(tmp_path, backend.location if backend.is_postgresql else None)
    try:
        yield server
    finally:
        await server.close_clients()
        server.terminate()


def stored_facts(server: ServerProcess) -> tuple[int, dict[str, int], list[tuple[str, str]]]:
    """Straight from the database after a kill: how many saved matches, each account's
    experience, the stored messages; an SQLite file must pass its integrity checks."""
    if server.store_url is not None:
        import psycopg

        with psycopg.connect(server.store_url) as pg:
            saved_row = pg.execute("SELECT COUNT(*) FROM saved_matches").fetchone()
            assert saved_row is not None
            accounts = {row[0]: row[1] for row in pg.execute("SELECT name, experience FROM accounts")}
            stored = [tuple(row) for row in pg.execute("SELECT sender, text FROM messages ORDER BY id")]
        return int(saved_row[0]), accounts, stored  # type: ignore[return-value]
    with closing(sqlite3.connect(server.db_path)) as db:
        assert [row[0] for row in db.execute("PRAGMA integrity_check")] == ["ok"]
        assert [row[0] for row in db.execute("PRAGMA foreign_key_check")] == []
        saved = db.execute("SELECT COUNT(*) FROM saved_matches").fetchone()[0]
        accounts = {row[0]: row[1] for row in db.execute("SELECT name, experience FROM accounts")}
        stored = db.execute("SELECT sender, text FROM messages").fetchall()
    return saved, accounts, stored


async def settled_board(player: Player) -> BoardLine:
    """The player's board once everything sent so far was handled (a sentinel command
    follows `board`, so that a board sent earlier by autoboard is never mistaken for it)."""
    await player.send("board")
    await player.send(SENTINEL_COMMAND)
    lines = await player.expect(SENTINEL_ANSWER)
    boards = [line for line in lines if line.startswith("board:")]
    assert boards, lines
    return BoardLine.decode(boards[-1])


async def act_once(alice: Player, bob: Player) -> str:
    """One completed action by whoever is to act: a roll or a legal play. Returns it."""
    boards = {alice.name: await settled_board(alice), bob.name: await settled_board(bob)}
    for player, other in ((alice, bob), (bob, alice)):
        board = boards[player.name]
        if board.turn is None or board.turn != board.colour:
            continue
        if board.player_dice == (0, 0):
            await player.send("roll")
            await player.expect(lambda line: line.startswith("You roll "))  # type: ignore[arg-type]
            return f"{player.name}: roll"
        plays = legal_plays(position_of(board), board.player_dice)
        assert plays and plays[0].moves, f"asked to move without a legal play: {board.encode()}"
        line = play_line(plays[0], board.colour)
        await player.send(line)
        announced = f"{player.name} moves "
        await other.expect(lambda text, prefix=announced: text.startswith(prefix))  # type: ignore[arg-type]
        return f"{player.name}: {line}"
    raise AssertionError(f"nobody is to act: {boards}")


async def rating_line(asker: Player, name: str) -> str:
    await asker.send(f"whois {name}")
    lines = await asker.expect(lambda line: line.strip().startswith("Rating:"))  # type: ignore[arg-type]
    return lines[-1].strip()


async def test_sigkill_mid_match_then_restart_resumes_at_the_last_completed_action(
    server_process: ServerProcess,
) -> None:
    server = server_process
    await server.start()
    for name in ("alice", "bob", "carol"):
        await register(server, name)

    # carol leaves alice (offline) a message, then logs out.
    carol_client, _ = await clip_login(server, "carol")
    await carol_client.send("message alice before the match")
    await carol_client.read_until("11 alice")  # CLIP 11: the message was saved
    await carol_client.send("bye")
    await carol_client.read_all_until_closed()

    alice = await Player.join_server(server, "alice", register_first=False)
    assert any(line.startswith("9 carol ") and line.endswith(" before the match")
               for line in alice.client.lines), alice.client.lines
    bob = await Player.join_server(server, "bob", register_first=False)

    # A 1-point match that bob wins by resignation: the ratings leave 1500.
    await alice.send("invite bob 1")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("Starting a new game with bob.")
    await alice.send("resign n")
    await bob.expect(lambda line: line.startswith("alice wants to resign."))  # type: ignore[arg-type]
    await bob.send("accept")
    await alice.expect(lambda line: line.startswith("bob wins the 1 point match"))  # type: ignore[arg-type]
    ratings_before = {name: await rating_line(alice, name) for name in ("alice", "bob", "carol")}
    assert ratings_before["alice"] != ratings_before["carol"], ratings_before

    # alice leaves carol (offline) a message: it is stored when the server dies.
    await alice.send("message carol during the match")
    await alice.expect("11 carol")

    # A 5-point match, played by both like bots with the server's own dice.
    await alice.send("invite bob 5")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("Starting a new game with bob.")
    history = [await act_once(alice, bob) for _ in range(ACTIONS_BEFORE_CRASH)]
    last_alice, last_bob = await settled_board(alice), await settled_board(bob)
    assert (last_alice.player_score, last_alice.opponent_score) == (0, 0)

    returncode = server.kill()
    assert returncode == -signal.SIGKILL
    await server.close_clients()

    saved, accounts, stored = stored_facts(server)
    assert saved == 1, "the interrupted match must be saved"
    assert accounts == {"alice": 1, "bob": 1, "carol": 0}, accounts
    assert stored == [("alice", "during the match")], stored

    await server.start()
    alice, bob = await resume(server)
    assert not any(" before the match" in line for line in alice.client.lines), \
        "a message shown before the crash was shown again"
    resumed_alice, resumed_bob = await settled_board(alice), await settled_board(bob)
    assert resumed_alice == last_alice, (history, resumed_alice.encode(), last_alice.encode())
    assert resumed_bob == last_bob, (history, resumed_bob.encode(), last_bob.encode())
    # The resumed match goes on.
    await act_once(alice, bob)

    ratings_after = {name: await rating_line(bob, name) for name in ("alice", "bob", "carol")}
    assert ratings_after == ratings_before

    carol_client, carol_lines = await clip_login(server, "carol")
    assert any(line.startswith("9 alice ") and line.endswith(" during the match")
               for line in carol_lines), carol_lines

    assert "Traceback" not in server.log_text(), server.log_text()


async def resume(server: ServerProcess) -> tuple[Player, Player]:
    """After a restart: both log in, bob invites alice to resume, alice joins."""
    alice = await Player.join_server(server, "alice", register_first=False, ready=False)
    bob = await Player.join_server(server, "bob", register_first=False, ready=False)
    await bob.send("invite alice")
    await bob.expect("** You invited alice to resume a saved match.")
    await alice.expect("bob wants to resume a saved match with you.")
    await alice.send("join bob")
    await alice.expect("You are now playing with bob. Your running match was loaded.")
    await bob.expect("alice has joined you. Your running match was loaded.")
    return alice, bob


def _without_the_roll(board: BoardLine, turn: Colour | None) -> BoardLine:
    return attrs.evolve(board, player_dice=(0, 0), opponent_dice=(0, 0), can_move=0, turn=turn)


async def test_sigkill_with_a_roll_in_flight_keeps_the_state_before_or_after_it(
    server_process: ServerProcess,
) -> None:
    """No torn state: a roll the server may or may not have committed when it died is
    either wholly there after the restart or not at all; the checkers are exactly where
    the last completed play left them, and the database is sound."""
    server = server_process
    await server.start()
    alice = await Player.join_server(server, "alice")
    bob = await Player.join_server(server, "bob")
    await alice.send("invite bob 5")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("Starting a new game with bob.")
    await act_once(alice, bob)  # the opening play
    for _ in range(6):  # on to a turn that starts with a roll
        boards = {alice.name: await settled_board(alice), bob.name: await settled_board(bob)}
        roller = next((p for p in (alice, bob) if boards[p.name].turn == boards[p.name].colour
                       and boards[p.name].player_dice == (0, 0)), None)
        if roller is not None:
            break
        await act_once(alice, bob)
    else:
        raise AssertionError("nobody had to roll")
    await roller.send("roll")
    await trio.sleep(0.002)  # the roll is read, handled and committed about now
    assert server.kill() == -signal.SIGKILL
    await server.close_clients()
    stored_facts(server)  # the database is sound

    await server.start()
    alice, bob = await resume(server)
    resumed = {alice.name: await settled_board(alice), bob.name: await settled_board(bob)}
    rolled = [resumed[name] != boards[name] for name in (alice.name, bob.name)]
    assert rolled[0] == rolled[1], (resumed, boards)
    for name in (alice.name, bob.name):
        before, after = boards[name], resumed[name]
        assert _without_the_roll(after, before.turn) == _without_the_roll(before, before.turn), \
            (before.encode(), after.encode())
    await act_once(alice, bob)  # and the match goes on
    assert "Traceback" not in server.log_text(), server.log_text()
