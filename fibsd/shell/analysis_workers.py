"""The analysis workers: GNU Backgammon processes that analyse finished matches.

The shell's side of engine analysis (docs/analysis.md). Owns running gnubg on one match
(`run_gnubg`: a separate process, `gnubg -t -q -p SCRIPT`, with a time limit, killed by
its PID when it runs over or the server stops) and the pool (`AnalysisPool`): a fixed
number of worker tasks taking record ids from one channel, one gnubg process each at a
time. A job that crashes, hangs or writes nonsense ends as a failure for that job only;
the worker goes on with the next one. gnubg is GPL: it is only ever run, never imported.

What a job produced goes back to the core as data (`fibsd.domain.match_analysis.AnalysisDone`) through
the `deliver` callback; the core words it and writes it to the store. The queue itself
(which matches wait, how many may) is the core's `AnalysisQueue`, persisted in the store,
so jobs survive a restart: the server submits the stored ones again at start-up.
"""

from __future__ import annotations

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

__all__ = ["AnalysisPool", "GnubgFailed", "GnubgRun", "find_gnubg", "run_gnubg"]

log = logging.getLogger("fibsd.shell.analysis_workers")

#: Lowest CPU priority for the workers: the server's own commands come first.
WORKER_NICENESS = 19


class GnubgFailed(Exception):
    """gnubg did not produce an analysis: the reason, in words for the requester."""


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
    niceness: int = WORKER_NICENESS,
) -> GnubgRun:
    """Analyse one match (.mat text) in a gnubg process; GnubgFailed if it crashes, runs
    over `time_limit_seconds` (it is then killed) or writes no result."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fibsd-analysis-") as folder:
        work = Path(folder)
        (work / "analyse.py").write_text(GNUBG_SCRIPT, encoding="utf-8")
        (work / "match.mat").write_text(mat_text, encoding="utf-8")
        env = dict(os.environ)
        env.update({
            "FIBSD_MAT": str(work / "match.mat"),
            "FIBSD_OUT": str(work / "result.json"),
            "FIBSD_SGF": str(work / "match.sgf"),
            "FIBSD_CHECKER_PLIES": str(checker_plies),
            "FIBSD_CUBE_PLIES": str(cube_plies),
        })
        # A local temporary file, opened once per job: no need to leave the event loop.
        with open(work / "stderr.txt", "wb") as errors:  # noqa: ASYNC230
            try:
                process = await trio.lowlevel.open_process(
                    [gnubg, "-t", "-q", "-p", str(work / "analyse.py")],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                    env=env, cwd=folder,
                )
            except OSError as error:
                raise GnubgFailed(f"gnubg could not be started ({error.strerror or error})") from None
            try:
                with _suppress_oserror():
                    if niceness:
                        os.setpriority(os.PRIO_PROCESS, process.pid, niceness)
                if on_started is not None:
                    on_started(process.pid)
                with trio.move_on_after(time_limit_seconds) as limit:
                    await process.wait()
            finally:
                if process.returncode is None:
                    process.kill()
                    with trio.CancelScope(shield=True):
                        await process.wait()
        if limit.cancelled_caught:
            raise GnubgFailed(f"gnubg took longer than {time_limit_seconds:g} seconds")
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
            raise GnubgFailed(f"gnubg {how}")
        try:
            output = json.loads((work / "result.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = (work / "stderr.txt").read_text(encoding="utf-8", errors="replace").strip()
            last = tail.splitlines()[-1] if tail else "no message"
            raise GnubgFailed(f"gnubg wrote no result ({last[:200]})") from None
        if not isinstance(output, dict):
            raise GnubgFailed("gnubg wrote no result (not a JSON object)")
        try:
            sgf = (work / "match.sgf").read_text(encoding="utf-8", errors="replace")
        except OSError:
            sgf = ""
    return GnubgRun(output, sgf, time.monotonic() - started)


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
        now: Callable[[], float] = time.time,
    ) -> None:
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
        except Exception as error:  # an unreadable record fails this job only
            log.exception("analysis of match %d: cannot read the match", record_id)
            return AnalysisDone(record_id, failure=f"the match cannot be read ({error})")
        if mat is None:
            return AnalysisDone(record_id, failure="the match is gone")

        def started(pid: int) -> None:
            self.running[record_id] = pid
            self._changed()

        try:
            run = await run_gnubg(
                self.gnubg, mat, checker_plies=self.checker_plies, cube_plies=self.cube_plies,
                time_limit_seconds=self.time_limit_seconds, on_started=started,
            )
            analysis = read_gnubg_output(
                run.output, record_id=record_id, checker_plies=self.checker_plies,
                cube_plies=self.cube_plies, analysed_at=self._now(), seconds=run.seconds,
            )
        except GnubgFailed as failure:
            log.warning("analysis of match %d failed: %s", record_id, failure)
            return AnalysisDone(record_id, failure=str(failure))
        except AnalysisError as error:
            log.warning("analysis of match %d: unreadable output: %s", record_id, error)
            return AnalysisDone(record_id, failure="gnubg's output could not be read")
        except Exception:  # anything else: this job fails, the worker lives on
            log.exception("analysis of match %d failed", record_id)
            return AnalysisDone(record_id, failure="an internal error")
        log.info("analysed match %d in %.1f s", record_id, run.seconds)
        return AnalysisDone(record_id, analysis=analysis, sgf=run.sgf)
