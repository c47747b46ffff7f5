"""The analysis workers: GNU Backgammon processes that analyse finished matches.

The shell's side of engine analysis (docs/analysis.md). Owns running gnubg on one match
(`run_gnubg`: a separate process, `gnubg -t -q -p SCRIPT`, with a time limit, killed by
its PID when it runs over or the server stops, and by the kernel when the server dies
without stopping (kill -9: the parent-death signal), with a clean environment of its own) and the pool (`AnalysisPool`): a fixed
number of worker tasks taking record ids from one channel, one gnubg process each at a
time. A job that crashes, hangs or writes nonsense ends as a failure for that job only;
the worker goes on with the next one. gnubg is GPL: it is only ever run, never imported.

What a job produced goes back to the core as data (`fibsd.domain.match_analysis.AnalysisDone`) through
the `deliver` callback; the core words it and writes it to the store. The queue itself
(which matches wait, how many may) is the core's `AnalysisQueue`, persisted in the store,
so jobs survive a restart: the server submits the stored ones again at start-up.
"""

from __future__ import annotations

import ctypes
import json
import logging
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from fibsd.domain.match_analysis import GNUBG_SCRIPT, AnalysisDone, AnalysisError, read_gnubg_output
from fibsd.domain.puzzles import DEFAULT_THRESHOLD, PuzzleError, read_puzzles

__all__ = ["AnalysisPool", "GnubgFailed", "GnubgRun", "die_with_the_server", "exited", "find_gnubg",
           "run_gnubg"]

log = logging.getLogger("fibsd.shell.analysis_workers")

#: Lowest CPU priority for the workers: the server's own commands come first.
WORKER_NICENESS = 19


class GnubgFailed(Exception):
    """gnubg did not produce an analysis: a plain sentence for the requester (`str()`),
    and the detail for the operator's log (`detail`)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.detail = detail or reason


#: The only variables gnubg sees from the server's environment (never a PGPASSWORD or
#: any other secret the server was started with): what a program needs to run.
_PASSED_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "TZ")
_PR_SET_PDEATHSIG = 1


def gnubg_environment(work: Path, settings: dict[str, str]) -> dict[str, str]:
    """gnubg's environment: a few harmless variables of the server's, a home and a
    temporary folder of its own (the job's folder), and the job's `settings`."""
    env = {name: os.environ[name] for name in _PASSED_ENVIRONMENT if name in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/games")
    env.update({"HOME": str(work), "TMPDIR": str(work)})
    env.update(settings)
    return env


def _find_prctl() -> Callable[..., int] | None:
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None  # (not Linux: the server's own stop still kills gnubg by its PID)
    return prctl


#: Looked up once, here: the child only calls it (no loading between fork and exec).
_PRCTL = _find_prctl()


def die_with_the_server(server: int) -> Callable[[], None]:
    """Run in the child before gnubg starts: the kernel kills it when the server's thread
    that started it dies (Linux's parent-death signal), so a kill -9 of the server leaves
    no worker behind; if the server is already gone, do not start at all."""
    def arrange() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != server:
            os._exit(1)
    return arrange


def find_gnubg(command: str) -> str | None:
    """The gnubg executable the setting names (a path, or a name on PATH), or None."""
    found = shutil.which(command)
    return found


@attrs.frozen
class GnubgRun:
    """What one gnubg run gave: its JSON, the saved .sgf, and how long it took."""

    output: dict[str, object]
    sgf: str
    seconds: float


async def run_gnubg(
    gnubg: str, mat_text: str, *, checker_plies: int, cube_plies: int,
    time_limit_seconds: float, on_started: Callable[[int], None] | None = None,
    niceness: int = WORKER_NICENESS, puzzle_threshold: float = DEFAULT_THRESHOLD,
) -> GnubgRun:
    """Analyse one match (.mat text) in a gnubg process; GnubgFailed if it crashes, runs
    over `time_limit_seconds` (it is then killed) or writes no result."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fibsd-analysis-") as folder:
        work = Path(folder)
        (work / "analyse.py").write_text(GNUBG_SCRIPT, encoding="utf-8")
        (work / "match.mat").write_text(mat_text, encoding="utf-8")
        env = gnubg_environment(work, {
            "FIBSD_MAT": str(work / "match.mat"),
            "FIBSD_OUT": str(work / "result.json"),
            "FIBSD_SGF": str(work / "match.sgf"),
            "FIBSD_CHECKER_PLIES": str(checker_plies),
            "FIBSD_CUBE_PLIES": str(cube_plies),
            "FIBSD_PUZZLE_THRESHOLD": repr(puzzle_threshold),
        })
        # A local temporary file, opened once per job: no need to leave the event loop.
        with open(work / "stderr.txt", "wb") as errors:  # noqa: ASYNC230
            try:
                # Started from the event loop's own thread (a fork and an exec: well
                # under a millisecond), not from a worker thread as trio's open_process
                # does: the parent-death signal follows the thread that started the
                # child, and the event loop's thread lives as long as the server.
                # preexec_fn: only a prctl call resolved beforehand and getppid (no lock,
                # no import between fork and exec).
                process = subprocess.Popen(  # noqa: ASYNC220
                    [gnubg, "-t", "-q", "-p", str(work / "analyse.py")],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                    env=env, cwd=folder, preexec_fn=die_with_the_server(os.getpid()),  # noqa: PLW1509
                )
            except (OSError, subprocess.SubprocessError) as error:
                raise GnubgFailed("the analysis engine could not be started",
                                  f"gnubg could not be started ({error})") from None
            try:
                with _suppress_oserror():
                    if niceness:
                        os.setpriority(os.PRIO_PROCESS, process.pid, niceness)
                if on_started is not None:
                    on_started(process.pid)
                with trio.move_on_after(time_limit_seconds) as limit:
                    await exited(process)
            finally:
                if process.poll() is None:
                    process.kill()
                    with trio.CancelScope(shield=True):
                        await exited(process)
        if limit.cancelled_caught:
            allowed = f"{time_limit_seconds:g} second" + ("" if time_limit_seconds == 1 else "s")
            raise GnubgFailed(f"it took longer than the {allowed} allowed",
                              f"gnubg ran over its {allowed} and was killed")
        code = process.returncode
        assert code is not None  # waited for above
        if code != 0:
            if code < 0:
                try:
                    how = f"was killed by {signal.Signals(-code).name}"
                except ValueError:
                    how = f"was killed by signal {-code}"
            else:
                how = f"exited with status {code}"
            raise GnubgFailed("the analysis engine stopped unexpectedly",
                              f"gnubg {how}; {_stderr_tail(work)}")
        try:
            output = json.loads((work / "result.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise GnubgFailed("the analysis engine gave no result",
                              f"gnubg wrote no result; {_stderr_tail(work)}") from None
        if not isinstance(output, dict):
            raise GnubgFailed("the analysis engine gave no result",
                              "gnubg wrote no result (not a JSON object)")
        try:
            sgf = (work / "match.sgf").read_text(encoding="utf-8", errors="replace")
        except OSError:
            sgf = ""
    return GnubgRun(output, sgf, time.monotonic() - started)


async def exited(process: subprocess.Popen[bytes]) -> None:
    """Wait, without blocking the event loop, until `process` has exited, and reap it."""
    pidfd = os.pidfd_open(process.pid)  # readable once the process has exited
    try:
        await trio.lowlevel.wait_readable(pidfd)
    finally:
        os.close(pidfd)
    process.wait()  # (it has exited: this only reaps it)


def _stderr_tail(work: Path) -> str:
    """The end of what gnubg wrote to its stderr (for the log only)."""
    try:
        tail = (work / "stderr.txt").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        tail = ""
    return f"stderr: {tail[-500:]}" if tail else "nothing on stderr"


class _suppress_oserror:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, OSError)


class AnalysisPool:
    """`workers` tasks running gnubg on the record ids `submit`ted, in order.

    `fetch(record_id)` gives the match's .mat text (None: the record is gone);
    `deliver(done)` hands each result or failure back to the server, which applies the
    core's answer to it. `running` maps the record ids being analysed to their gnubg PIDs
    (for the operator and the tests)."""

    def __init__(
        self, *, gnubg: str, workers: int, checker_plies: int, cube_plies: int,
        time_limit_seconds: float, fetch: Callable[[int], str | None],
        deliver: Callable[[AnalysisDone], Awaitable[None]],
        now: Callable[[], float] = time.time, puzzle_threshold: float = DEFAULT_THRESHOLD,
    ) -> None:
        self.puzzle_threshold = puzzle_threshold
        self.gnubg = gnubg
        self.workers = workers
        self.checker_plies = checker_plies
        self.cube_plies = cube_plies
        self.time_limit_seconds = time_limit_seconds
        self._fetch = fetch
        self._deliver = deliver
        self._now = now
        self._send, self._receive = trio.open_memory_channel[int](math.inf)
        self.running: dict[int, int] = {}
        #: Changes whenever a job starts or ends (tests wait on it instead of sleeping).
        self.changed = trio.Event()
        self.done_count = 0

    def submit(self, record_id: int) -> None:
        """Queue one match (the core already checked the queue's bound and stored it)."""
        self._send.send_nowait(record_id)

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the workers until cancelled (the server's shutdown)."""
        async with trio.open_nursery() as nursery:
            for _ in range(self.workers):
                nursery.start_soon(self._work)
            task_status.started()

    def _changed(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    async def _work(self) -> None:
        async for record_id in self._receive:
            done = await self._analyse(record_id)
            self.running.pop(record_id, None)
            try:
                await self._deliver(done)
            except Exception:  # the server's problem, logged there too: keep working
                log.exception("analysis of match %d: delivering the result failed", record_id)
            self.done_count += 1  # (after the delivery: its lines are queued by now)
            self._changed()

    async def _analyse(self, record_id: int) -> AnalysisDone:
        try:  # a cold read of the store: in a worker thread
            mat = await trio.to_thread.run_sync(self._fetch, record_id)
        except Exception:  # an unreadable record fails this job only
            log.exception("analysis of match %d: cannot read the match", record_id)
            return AnalysisDone(record_id, failure="the match cannot be read")
        if mat is None:
            return AnalysisDone(record_id, failure="the match is gone")

        def started(pid: int) -> None:
            self.running[record_id] = pid
            self._changed()

        try:
            run = await run_gnubg(
                self.gnubg, mat, checker_plies=self.checker_plies, cube_plies=self.cube_plies,
                time_limit_seconds=self.time_limit_seconds, on_started=started,
                puzzle_threshold=self.puzzle_threshold,
            )
            analysis = read_gnubg_output(
                run.output, record_id=record_id, checker_plies=self.checker_plies,
                cube_plies=self.cube_plies, analysed_at=self._now(), seconds=run.seconds,
            )
            raw_puzzles = run.output.get("puzzles", [])
            if not isinstance(raw_puzzles, list):
                raise PuzzleError("the puzzles are not a list")
            puzzles = read_puzzles(
                raw_puzzles, record_id=record_id, threshold=self.puzzle_threshold,
                names=(analysis.players[0].name, analysis.players[1].name))
        except GnubgFailed as failure:
            log.warning("analysis of match %d failed: %s", record_id, failure.detail)
            return AnalysisDone(record_id, failure=str(failure))
        except (AnalysisError, PuzzleError) as error:
            log.warning("analysis of match %d: unreadable output: %s", record_id, error)
            return AnalysisDone(record_id, failure="gnubg's output could not be read")
        except Exception:  # anything else: this job fails, the worker lives on
            log.exception("analysis of match %d failed", record_id)
            return AnalysisDone(record_id, failure="an internal error")
        log.info("analysed match %d in %.1f s", record_id, run.seconds)
        return AnalysisDone(record_id, analysis=analysis, sgf=run.sgf, puzzles=puzzles)
