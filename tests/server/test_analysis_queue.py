"""The analysis queue under trouble: bounded, a worker killed, a worker hung past its time
limit, a restart with jobs queued, no gnubg at all (docs/analysis.md).

The worker command is a fake gnubg (a script this test writes) that, per match, hangs,
kills itself, writes nonsense or hands over to the real gnubg (exec, so the job runs the
real analysis in the same process). Nothing here sleeps: tests wait on the pool's
`changed` event or on the lines users get.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from fibsd.rules import MatchOptions
from fibsd.shell.analysis_workers import AnalysisPool
from fibsd.store.sqlite import SQLiteStore
from tests.app.random_matches import play_match
from tests.server import conftest
from tests.server.helpers import clip_login, register, telnet_login

GNUBG = "/usr/games/gnubg"
#: How long a real gnubg may take: its workers run at the lowest CPU priority, so on a
#: machine busy with other work (eight test suites on two cores) it waits its turn.
LONG = 600


@pytest.fixture(autouse=True)
def _gnubg_is_installed() -> None:
    # A missing gnubg fails (./scripts/test installs it), never skips: a skip would hide
    # every analysis test behind one missing package.
    if not Path(GNUBG).exists():
        pytest.fail(f"GNU Backgammon is missing at {GNUBG}: apt-get install -y gnubg")


FAKE_GNUBG = '''#!{python}
import os, pathlib, re, signal, sys
control = pathlib.Path({control!r})
mat = pathlib.Path(os.environ["FIBSD_MAT"]).read_text()
number = re.search(r'Match ID "(\\d+)"', mat).group(1)
mode_file = control / ("mode-" + number)
mode = mode_file.read_text().strip() if mode_file.exists() else "real"
if mode == "hang":
    while True:
        signal.pause()
if mode == "crash":
    os.kill(os.getpid(), signal.SIGKILL)
if mode == "garbage":
    print("Traceback: gnubg's own words about /internal/path", file=sys.stderr)
    pathlib.Path(os.environ["FIBSD_OUT"]).write_text("[1, 2")
    sys.exit(0)
os.execv({gnubg!r}, [{gnubg!r}] + sys.argv[1:])
'''


def fake_gnubg(tmp_path: Path, modes: dict[int, str]) -> tuple[str, Path]:
    """Write the fake gnubg and its per-match modes; (its path, its control folder)."""
    control = tmp_path / "control"
    control.mkdir(exist_ok=True)
    for number, mode in modes.items():
        (control / f"mode-{number}").write_text(mode)
    script = tmp_path / "fake-gnubg"
    script.write_text(FAKE_GNUBG.format(python=sys.executable, control=str(control), gnubg=GNUBG))
    script.chmod(0o755)
    return str(script), control


def seed_matches(tmp_path: Path, count: int) -> list[int]:
    """`count` finished 1-point matches of alice and bob in the test's database."""
    config = conftest.test_config(tmp_path)
    ids = []
    with SQLiteStore.open(config.db_path) as store:
        for seed in range(count):
            match = play_match(random.Random(seed), MatchOptions(length=1), double_chance=0.0)
            ids.append(store.record_match(
                players=("alice", "bob"), match_data=match.to_dict(), length=1,
                score=match.score, winner=match.winner, started_at=1000.0 + seed,
                finished_at=1060.0 + seed))
    return ids


async def wait_for(pool: AnalysisPool, condition: Callable[[], bool], seconds: float = LONG) -> None:
    with trio.fail_after(seconds):
        while not condition():
            await pool.changed.wait()


def ending(text: str) -> Callable[[str], bool]:
    return lambda line: line.removeprefix("> ") == text


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def start(start_server: Any, gnubg: str, **settings: object) -> Any:
    values = {"analysis.analysis_gnubg": gnubg, "analysis.analysis_workers": 1}
    values.update({f"analysis.{key}": value for key, value in settings.items()})
    running = await start_server(**values)
    return running


async def test_the_queue_is_bounded_and_says_so(start_server: Any, tmp_path: Path) -> None:
    ids = seed_matches(tmp_path, 3)
    gnubg, _control = fake_gnubg(tmp_path, {number: "hang" for number in ids})
    running = await start(start_server, gnubg, analysis_queue_size=2)
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    pool = running.server.analysis_pool
    await alice.send(f"analyse {ids[0]}")
    await alice.read_until(ending(f"Match {ids[0]} is queued for analysis (1st in the queue); "
                                  "you will be told when it is ready."))
    await wait_for(pool, lambda: ids[0] in pool.running)
    await alice.send(f"analyse {ids[1]}")
    await alice.read_until(ending(f"Match {ids[1]} is queued for analysis (2nd in the queue); "
                                  "you will be told when it is ready."))
    await alice.send(f"analyse {ids[2]}")
    await alice.read_until(ending("** The analysis queue is full (2 matches waiting). "
                                  "Please try again later."))
    await alice.send(f"analysis {ids[1]}")
    await alice.read_until(ending(f"** Match {ids[1]} is still waiting for analysis "
                                  "(2nd in the queue)."))
    await alice.send(f"analyse {ids[1]}")
    await alice.read_until(ending(f"Match {ids[1]} is already queued for analysis (2nd in the "
                                  "queue); you will be told when it is ready."))
    hung = pool.running[ids[0]]
    await running.stop()
    assert not alive(hung)  # the server's stop killed its worker process


async def test_a_killed_worker_fails_its_job_only(start_server: Any, tmp_path: Path) -> None:
    ids = seed_matches(tmp_path, 4)
    gnubg, _control = fake_gnubg(tmp_path, {ids[0]: "hang", ids[1]: "crash", ids[2]: "garbage"})
    running = await start(start_server, gnubg)
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    pool = running.server.analysis_pool
    for number in ids:
        await alice.send(f"analyse {number}")
        await alice.read_until(lambda line, number=number: f"Match {number} is queued" in line)
    await wait_for(pool, lambda: ids[0] in pool.running)
    os.kill(pool.running[ids[0]], signal.SIGKILL)  # an operator (or the OOM killer)
    # The user gets a plain sentence; gnubg's own words (its stderr) go to the log only.
    await alice.read_until(ending(f"** The analysis of match {ids[0]} failed: "
                                  "the analysis engine stopped unexpectedly."), timeout=LONG)
    await alice.read_until(ending(f"** The analysis of match {ids[1]} failed: "
                                  "the analysis engine stopped unexpectedly."), timeout=LONG)  # by itself
    await alice.read_until(ending(f"** The analysis of match {ids[2]} failed: "
                                  "the analysis engine gave no result."), timeout=LONG)
    await alice.read_until(ending(f"** The analysis of match {ids[3]} is ready: "
                                  f"type 'analysis {ids[3]}'."), timeout=LONG)
    await alice.send(f"analysis {ids[3]}")
    await alice.read_until(lambda line: line.startswith("Player alice: PR "), timeout=30)
    # A failed job leaves the queue (and the store): it may be asked for again.
    assert running.server.store.analysis_jobs() == []
    await alice.send(f"analyse {ids[0]}")
    await alice.read_until(lambda line: f"Match {ids[0]} is queued" in line)


async def test_a_hung_worker_is_killed_at_its_time_limit(start_server: Any, tmp_path: Path) -> None:
    ids = seed_matches(tmp_path, 2)
    gnubg, _control = fake_gnubg(tmp_path, {ids[0]: "hang", ids[1]: "hang"})
    running = await start(start_server, gnubg, analysis_time_limit_seconds=1.0)
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    pool = running.server.analysis_pool
    for number in ids[:2]:
        await alice.send(f"analyse {number}")
        await alice.read_until(lambda line, number=number: f"Match {number} is queued" in line)
    await wait_for(pool, lambda: ids[0] in pool.running)
    hung = pool.running[ids[0]]
    await alice.read_until(ending(f"** The analysis of match {ids[0]} failed: "
                                  "it took longer than the 1 second allowed."), timeout=30)
    assert not alive(hung)
    # The worker goes on with the next job (which hangs too).
    await alice.read_until(ending(f"** The analysis of match {ids[1]} failed: "
                                  "it took longer than the 1 second allowed."), timeout=30)
    assert running.server.store.analysis_jobs() == []
    # The server answered all along.
    await alice.send("time")
    await alice.read_until(lambda line: "UTC" in line or "time" in line.lower())


async def test_queued_jobs_survive_a_restart(start_server: Any, tmp_path: Path) -> None:
    ids = seed_matches(tmp_path, 3)
    gnubg, control = fake_gnubg(tmp_path, {number: "hang" for number in ids})
    running = await start(start_server, gnubg)
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    for number in ids:
        await alice.send(f"analyse {number}")
        await alice.read_until(lambda line, number=number: f"Match {number} is queued" in line)
    pool = running.server.analysis_pool
    await wait_for(pool, lambda: ids[0] in pool.running)
    hung = pool.running[ids[0]]
    await running.stop()  # as a kill would: the job in progress is not finished
    assert not alive(hung)

    for number in ids:  # gnubg works again after the restart
        (control / f"mode-{number}").unlink()
    running = await start(start_server, gnubg)
    pool = running.server.analysis_pool
    assert list(running.server.registry.analysis.pending) == ids
    await wait_for(pool, lambda: pool.done_count == 3, seconds=LONG)
    alice, _ = await telnet_login(running, "alice")
    for number in ids:
        await alice.send(f"analysis {number}")
        await alice.read_until(lambda line: line.startswith("Player alice: PR "), timeout=30)
    assert running.server.store.analysis_jobs() == []


async def test_without_gnubg_the_server_runs_and_says_analysis_is_unavailable(
    start_server: Any, tmp_path: Path,
) -> None:
    ids = seed_matches(tmp_path, 1)
    running = await start(start_server, str(tmp_path / "no-such-gnubg"))
    assert running.server.analysis_pool is None
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    unavailable = ("** Analysis is unavailable on this server: GNU Backgammon is not "
                   f"installed ({tmp_path / 'no-such-gnubg'} not found).")
    await alice.send(f"analyse {ids[0]}")
    await alice.read_until(ending(unavailable))
    await alice.send(f"analysis {ids[0]}")
    await alice.read_until(ending(unavailable))
    await alice.send("show pr alice")
    await alice.read_until(ending("** alice has no analysed matches."))


async def test_a_clip_client_is_told_only_with_toggle_extensions(
    start_server: Any, tmp_path: Path,
) -> None:
    ids = seed_matches(tmp_path, 2)
    running = await start(start_server, GNUBG)
    pool = running.server.analysis_pool
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    await alice.send(f"analyse {ids[0]}")
    await alice.read_until(lambda line: f"Match {ids[0]} is queued" in line)
    await wait_for(pool, lambda: pool.done_count == 1)
    # A GUI client stops on unknown `** ` lines: without extensions nothing came unasked.
    await alice.send(f"analysis {ids[0]}")
    assert (await alice.read_line()).startswith(f"Analysis of match {ids[0]} (alice - bob")
    await alice.read_until(lambda line: line.startswith("Player bob: PR "))
    await alice.send("toggle extensions")
    await alice.read_until(lambda line: "fibsd's own notices" in line)
    await alice.send(f"analyse {ids[1]}")
    await alice.read_until(lambda line: f"Match {ids[1]} is queued" in line)
    await alice.read_until(f"** The analysis of match {ids[1]} is ready: "
                           f"type 'analysis {ids[1]}'.", timeout=LONG)


async def test_gnubg_gets_a_clean_environment_and_the_log_gets_the_detail(
    start_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server's secrets (a PGPASSWORD) never reach gnubg; a failure's detail (gnubg's
    stderr) goes to the log, and the user gets a plain sentence."""
    monkeypatch.setenv("PGPASSWORD", "s3cret-of-the-server")
    monkeypatch.setenv("FIBSD_SOMETHING_ELSE", "x")
    ids = seed_matches(tmp_path, 2)
    gnubg, _control = fake_gnubg(tmp_path, {ids[0]: "garbage", ids[1]: "hang"})
    running = await start(start_server, gnubg)
    await register(running, "alice")
    alice, _ = await telnet_login(running, "alice")
    pool = running.server.analysis_pool
    for number in ids:
        await alice.send(f"analyse {number}")
        await alice.read_until(lambda line, number=number: f"Match {number} is queued" in line)
    told = await alice.read_until(ending(f"** The analysis of match {ids[0]} failed: "
                                         "the analysis engine gave no result."), timeout=LONG)
    assert not any("internal/path" in line for line in told)
    assert "gnubg's own words about /internal/path" in caplog.text
    await wait_for(pool, lambda: ids[1] in pool.running)
    # (the environment the worker process was started with: the pool knows its PID once
    # it has started, which is after the exec)
    started_with = Path(f"/proc/{pool.running[ids[1]]}/environ").read_bytes().split(b"\0")
    environment = {entry.split(b"=", 1)[0].decode() for entry in started_with if entry}
    assert "PGPASSWORD" not in environment and "FIBSD_SOMETHING_ELSE" not in environment
    assert {"FIBSD_MAT", "FIBSD_OUT", "HOME", "PATH"} <= environment
