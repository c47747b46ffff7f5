"""kill -9 where it hurts (issue 32 §5): the server in the middle of a batch of writes,
the database's postmaster, the server with an analysis worker running, the server in the
middle of a tournament. Nothing the server acknowledged is lost, nothing is left running,
nothing finished is done again.

The server is a real `python -m fibsd serve` process (`ServerProcess` of test_crash.py),
killed by its PID with SIGKILL; PostgreSQL is a real throw-away cluster whose postmaster
is killed the same way. Waits are on conditions (a line, a file, a process gone), each
bounded so that a broken run stops.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
import trio

from fibsd.domain.accounts import Account
from fibsd.rules import MatchOptions
from fibsd.store import StoreError
from fibsd.store.sqlite import SQLiteStore
from fibsd.tools import pgcluster
from tests.app.random_matches import play_match
from tests.robustness.test_crash import ServerProcess, server_process, stored_facts
from tests.server.helpers import clip_login, register, telnet_login
from tests.server.players import Player

__all__ = ["server_process"]  # (the fixture, from test_crash.py)

GNUBG = "/usr/games/gnubg"
#: A bound on waits for something that happens within seconds on an idle machine (the
#: machine may be busy with other test suites: generous).
BOUND = 300.0


async def until(condition: Callable[[], bool], what: str, seconds: float = BOUND) -> None:
    """Poll a condition outside this process (a file, a process, a database row)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        await trio.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not reaped by its new parent yet) is gone too
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# --------------------------------------------------------------- in the middle of a batch


async def test_sigkill_in_the_middle_of_a_batch_loses_no_acknowledged_write(
    server_process: ServerProcess,
) -> None:
    """Four users store messages for an offline one as fast as the server acknowledges
    them (CLIP 11); the server is killed while more are in flight: every acknowledged
    message is in the database after the kill, on each backend."""
    server = server_process
    await server.start()
    for name in ("carol", "wa", "wb", "wc", "wd"):
        await register(server, name)
    acknowledged: list[str] = []
    enough = trio.Event()

    async def write(name: str) -> None:
        client, _ = await clip_login(server, name)
        for number in range(10_000):
            text = f"{name}-{number}"
            try:
                await client.send(f"message carol {text}")
                await client.read_until("11 carol", timeout=BOUND)
            except (trio.BrokenResourceError, trio.ClosedResourceError, EOFError, AssertionError):
                return  # the server died under this one
            acknowledged.append(text)
            if len(acknowledged) >= 60:
                enough.set()

    async with trio.open_nursery() as nursery:
        for name in ("wa", "wb", "wc", "wd"):
            nursery.start_soon(write, name)
        with trio.fail_after(BOUND):
            await enough.wait()
        assert server.kill() == -signal.SIGKILL  # (the others' messages are in flight)
    await server.close_clients()
    _saved, _accounts, stored = stored_facts(server)
    stored_texts = {text for _sender, text in stored}
    assert set(acknowledged) <= stored_texts
    assert len(acknowledged) >= 60


# --------------------------------------------------------------- the postmaster


@pytest.fixture
def own_cluster() -> Iterator[pgcluster.Cluster]:
    cluster = pgcluster.Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def test_sigkill_of_the_postmaster_loses_no_acknowledged_write(own_cluster: pgcluster.Cluster) -> None:
    """A committer thread writes batch after batch; the postmaster is killed with SIGKILL
    in the middle and started again (crash recovery): the store waits for it, and every
    batch it acknowledged before, during and after is in the database."""
    from fibsd.store.postgresql import PostgreSQLStore

    url = own_cluster.create_database("club")
    acknowledged: list[str] = []
    failures: list[BaseException] = []
    stop = threading.Event()
    with PostgreSQLStore(url) as store:
        store.create_account(Account.new("Alice", "h", 1.0))

        def commit() -> None:
            number = 0
            while not stop.is_set():
                texts = [f"m{number}-{part}" for part in range(3)]
                number += 1
                try:
                    errors = store.run_batch(
                        [lambda s, t=text: s.add_message("alice", "bob", 2.0, t) for text in texts])
                except StoreError as error:
                    failures.append(error)
                    return
                if errors == [None, None, None]:
                    acknowledged.extend(texts)

        committer = threading.Thread(target=commit)
        committer.start()
        try:
            deadline = time.monotonic() + BOUND
            while len(acknowledged) < 30 and time.monotonic() < deadline and committer.is_alive():
                time.sleep(0.01)  # (a thread's condition: the committer's progress)
            before = len(acknowledged)
            own_cluster.halt(signal.SIGKILL)  # the postmaster dies; its backends follow
            relaunch(own_cluster)
            deadline = time.monotonic() + BOUND
            while len(acknowledged) < before + 30 and time.monotonic() < deadline and committer.is_alive():
                time.sleep(0.01)
        finally:
            stop.set()
            committer.join(timeout=BOUND)
        assert failures == []
        assert len(acknowledged) >= before + 30 and before >= 30
        stored = {message.text for message in store.pending_messages("alice")}
    assert set(acknowledged) <= stored


def relaunch(cluster: pgcluster.Cluster) -> None:
    """Start the killed cluster again: its orphaned backends notice the postmaster's death
    and exit within moments; until then the new postmaster refuses to start."""
    deadline = time.monotonic() + BOUND
    while True:
        try:
            cluster.launch()
            return
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


# --------------------------------------------------------------- an analysis worker

FAKE_GNUBG = '''#!{python}
import os, pathlib, re, signal, sys
control = pathlib.Path({control!r})
mat = pathlib.Path(os.environ["FIBSD_MAT"]).read_text()
number = re.search(r'Match ID "(\\d+)"', mat).group(1)
with open(control / ("runs-" + number), "a") as runs:
    runs.write(str(os.getpid()) + "\\n")
mode_file = control / ("mode-" + number)
mode = mode_file.read_text().strip() if mode_file.exists() else "real"
if mode == "hang":
    while True:
        signal.pause()
os.execv({gnubg!r}, [{gnubg!r}] + sys.argv[1:])
'''


def runs(control: Path, number: int) -> list[int]:
    path = control / f"runs-{number}"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def analysed(db_path: Path, number: int) -> bool:
    with closing(sqlite3.connect(db_path)) as db:
        return db.execute("SELECT 1 FROM analyses WHERE record_id = ?", (number,)).fetchone() is not None


async def test_sigkill_leaves_no_analysis_worker_and_does_no_finished_job_again(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    control = tmp_path / "control"
    control.mkdir()
    fake = tmp_path / "fake-gnubg"
    fake.write_text(FAKE_GNUBG.format(python=sys.executable, control=str(control), gnubg=GNUBG))
    fake.chmod(0o755)
    with open(server.config_path, "a", encoding="utf-8") as config:
        config.write(f'[analysis]\nanalysis_gnubg = "{fake}"\nanalysis_workers = 1\n'
                     "analysis_checker_plies = 0\nanalysis_cube_plies = 0\n")
    ids = []
    with SQLiteStore.open(server.db_path) as store:
        for seed in range(2):
            match = play_match(random.Random(seed), MatchOptions(length=1), double_chance=0.0)
            ids.append(store.record_match(
                players=("alice", "bob"), match_data=match.to_dict(), length=1, score=match.score,
                winner=match.winner, started_at=1000.0 + seed, finished_at=1060.0 + seed))
    finished, hanging = ids
    (control / f"mode-{hanging}").write_text("hang")
    try:
        await server.start()
        await register(server, "alice")
        alice, _ = await telnet_login(server, "alice")
        for number in ids:
            await alice.send(f"analyse {number}")
            await alice.read_until(lambda line, number=number: f"Match {number} is queued" in line)
        await alice.read_until(lambda line: f"The analysis of match {finished} is ready" in line,
                               timeout=BOUND)
        await until(lambda: len(runs(control, hanging)) == 1, "the second job's worker started")
        worker = runs(control, hanging)[0]
        assert alive(worker)
        assert server.kill() == -signal.SIGKILL
        await server.close_clients()
        await until(lambda: not alive(worker), "the worker died with the server")

        # Restarted: the unfinished job runs again (gnubg works now), the finished one not.
        (control / f"mode-{hanging}").unlink()
        await server.start()
        await until(lambda: analysed(server.db_path, hanging), "the unfinished job was done")
        assert len(runs(control, finished)) == 1
        assert len(runs(control, hanging)) == 2
    finally:
        await server.close_clients()
        server.terminate()
        for number in ids:
            for pid in runs(control, number):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)  # (only after a failure: ours, by PID)


# --------------------------------------------------------------- a tournament


async def _finish_by_resignation(loser: Player, winner: Player) -> None:
    await loser.send("resign n")
    await winner.expect(lambda line: line.startswith(f"{loser.name} wants to resign."))  # type: ignore[arg-type]
    await winner.send("accept")
    await loser.expect(lambda line: line.startswith(f"{winner.name} wins the 1 point match"))  # type: ignore[arg-type]


def _pairings(lines: list[str], tournament: str, round_number: int) -> list[tuple[str, str]]:
    prefix = f"Tournament {tournament}: round {round_number} pairings: "
    found = [line.removeprefix(prefix) for line in lines if line.startswith(prefix)]
    assert found, lines
    return [tuple(pair.split("-")) for pair in found[-1].split(", ")]  # type: ignore[misc]


async def test_a_tournament_survives_a_sigkill_and_goes_on(server_process: ServerProcess) -> None:
    """Round 1 of a Swiss: one result is in, the other match is being played; kill -9.
    After the restart the result stands, the other match resumes where it was, and its
    end pairs round 2."""
    server = server_process
    await server.start()
    names = ["pa", "pb", "pc", "pd"]
    players = {name: await Player.join_server(server, name) for name in names}
    await players["pa"].send("tournament create cup swiss 1 rounds 2 noshow 600")
    await players["pa"].expect(lambda line: line.startswith("Tournament cup opened by pa."))  # type: ignore[arg-type]
    for name in names:
        await players[name].send("tournament join cup")
        await players[name].expect(lambda line, name=name: line.startswith(f"Tournament cup: {name} enters"))  # type: ignore[arg-type]
    await players["pa"].send("tournament start cup")
    started = await players["pa"].expect(lambda line: line.startswith("Tournament cup: round 1 pairings: "))  # type: ignore[arg-type]
    (first_a, first_b), (second_a, second_b) = _pairings(started, "cup", 1)
    for name in names:
        await players[name].expect(lambda line: line.startswith("Starting a new game with "), timeout=30)  # type: ignore[arg-type]
    await _finish_by_resignation(players[first_b], players[first_a])
    await players[first_a].expect(f"Tournament cup: {first_a} beats {first_b} 1-0.")

    assert server.kill() == -signal.SIGKILL
    await server.close_clients()
    await server.start()
    players = {name: await Player.join_server(server, name, register_first=False, ready=False)
               for name in names}  # (ready was saved with the account)
    # The saved match of the second pairing is taken up again by the server itself.
    await players[second_a].expect(lambda line: line.endswith("Your running match was loaded."), timeout=30)  # type: ignore[arg-type]
    await players[first_a].send("tournament show cup")
    shown = await players[first_a].expect("  Round 1 of 2 is being played.")
    await players[first_a].expect(f"    {first_a} beats {first_b} 1-0")
    assert shown
    await _finish_by_resignation(players[second_b], players[second_a])
    told = await players[first_a].expect(lambda line: line.startswith("Tournament cup: round 2 pairings: "))  # type: ignore[arg-type]
    assert len(_pairings(told, "cup", 2)) == 2

