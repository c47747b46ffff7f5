"""The three load scenarios: `matches`, `hold` and `storm`, each returning a `Report`.

Owns how a scenario drives the server: account names, bounded-concurrency logins, the
session tasks, the timing, and which figures are reported. The server process itself is
`serverproc`'s; the match play is `bot`'s.

Accounts are pre-created in the database before the server starts (see
`serverproc.precreate_accounts`), so every scenario measures logging in, not registering.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from fibsd.tools.loadgen.bot import BotOptions, MatchBot, MatchStats
from fibsd.tools.loadgen.report import Report
from fibsd.tools.loadgen.serverproc import (
    PASSWORD,
    ServerProcess,
    load_average,
    machine_cpu_seconds,
    own_cpu_seconds,
)
from fibsd.tools.loadgen.wire import Closed, Drainer, LineClient

LOGIN_PROMPT = b"login: "
CLIENT_NAME = "fibsd_loadgen"
CLIP_VERSION = 1008
PROGRESS_SECONDS = 60


def account_name(index: int) -> str:
    """A valid account name (letters only) for session `index`: lga, lgb, ..., lgba, ..."""
    letters = ""
    index += 1
    while index:
        index, digit = divmod(index - 1, 26)
        letters = chr(ord("a") + digit) + letters
    return "lg" + letters


@attrs.define
class Common:
    """Options shared by every scenario."""

    seed: int = 1
    login_concurrency: int = 200
    login_timeout_seconds: float = 600.0
    settle_seconds: float = 3.0
    #: Bound on the whole ramp-up; logins still pending then are given up and counted.
    ramp_timeout_seconds: float = 1800.0
    #: If set, the current phase (`login`, `play`, `measure`) is written there, so that a
    #: profiler can be pointed at the server during the phase of interest.
    phase_file: Path | None = None
    #: Seconds between samples of the server's RSS (and, in `matches`, of the rate).
    sample_seconds: float = 10.0

    def phase(self, name: str) -> None:
        if self.phase_file is not None:
            self.phase_file.write_text(f"{name}\n", encoding="ascii")


async def clip_login(port: int, name: str) -> tuple[LineClient, float]:
    """Connect, log in with CLIP, read up to the `6` ending the who list; (client, seconds)."""
    started = time.perf_counter()
    client = await LineClient.connect(port)
    try:
        await client.read_until_prompt(LOGIN_PROMPT)
        await client.send(f"login {CLIENT_NAME} {CLIP_VERSION} {name} {PASSWORD}")
        await client.read_until_line(b"6")
    except BaseException:
        await client.aclose()
        raise
    return client, time.perf_counter() - started


@attrs.define
class CpuWindow:
    """Server and client CPU seconds over a stretch of wall-clock time."""

    server: ServerProcess
    wall: float = attrs.field(factory=time.perf_counter)
    server_cpu: float = 0.0
    client_cpu: float = attrs.field(factory=own_cpu_seconds)
    machine_cpu: float = attrs.field(factory=machine_cpu_seconds)
    load_average: str = attrs.field(factory=load_average)

    def __attrs_post_init__(self) -> None:
        self.server_cpu = self.server.cpu_seconds()

    def report(self, report: Report, what: str, *, units: int | None = None,
               unit: str = "command") -> None:
        """CPU in % of one core: the server, this client, and everything else on the machine
        (other people's processes compete with both on a shared machine); with `units`
        (commands answered, logins done) also the CPU microseconds per unit of the server
        (user + system, all its threads) and of this client, and the load averages at the
        start and end of the window."""
        wall = time.perf_counter() - self.wall
        server = self.server.cpu_seconds() - self.server_cpu
        client = own_cpu_seconds() - self.client_cpu
        machine = machine_cpu_seconds() - self.machine_cpu
        report.add_cpu(f"server_{what}", server, wall)
        report.add_cpu(f"client_{what}", client, wall)
        report.add_cpu(f"other_processes_{what}", max(0.0, machine - server - client), wall)
        if units is not None:
            # Named by the unit alone: each scenario counts a unit in one window only.
            report.add(f"server_cpu_us_per_{unit}", 1e6 * server / units if units else 0.0)
            report.add(f"client_cpu_us_per_{unit}", 1e6 * client / units if units else 0.0)
        report.add(f"load_average_{what}", f"{self.load_average} -> {load_average()}")


@attrs.define
class RssSampler:
    """The server's RSS (and commands answered, server CPU) sampled every `interval` s.

    Run `sample_forever` in a nursery; `report` adds min/max RSS and one line per sample:
    `sample_at_{t}s: rss_kib=R commands_per_second=C server_cpu_us_per_command=U`, the
    last two over the interval since the previous sample (for a soak: minute 5 against
    minute 30)."""

    server: ServerProcess
    interval: float
    count_commands: Callable[[], int] = lambda: 0
    samples: list[tuple[float, int, int, float]] = attrs.field(factory=list)
    started: float = attrs.field(factory=time.perf_counter)

    def take(self) -> None:
        """One sample now (`sample_forever` takes the first at once, so never empty)."""
        self.samples.append((time.perf_counter() - self.started, self.server.rss_kib(),
                             self.count_commands(), self.server.cpu_seconds()))

    async def sample_forever(self) -> None:
        self.take()
        while True:
            await trio.sleep(self.interval)
            self.take()

    def report(self, report: Report, *, per_command: bool) -> None:
        if time.perf_counter() - self.started - self.samples[-1][0] > self.interval / 2:
            self.take()
        values = [rss for _t, rss, _c, _cpu in self.samples if rss > 0]
        report.add("server_rss_min_kib", min(values, default=0))
        report.add("server_rss_max_kib", max(values, default=0))
        previous = self.samples[0]
        for sample in self.samples[1:]:
            at, rss, commands, cpu = sample
            text = f"rss_kib={rss}"
            if per_command:
                wall = at - previous[0]
                done = commands - previous[2]
                rate = done / wall if wall > 0 else 0.0
                per = 1e6 * (cpu - previous[3]) / done if done else 0.0
                text += f" commands_per_second={rate:.1f} server_cpu_us_per_command={per:.0f}"
            report.add(f"sample_at_{at:.{0 if self.interval >= 1 else 1}f}s", text)
            previous = sample


@attrs.define
class Held:
    """Sessions logged in and kept reading."""

    clients: dict[str, LineClient] = attrs.field(factory=dict)
    login_seconds: list[float] = attrs.field(factory=list)
    #: Reads the sessions nobody else reads (and counts those the server dropped).
    drainer: Drainer = attrs.field(factory=Drainer)
    failed_logins: int = 0
    #: Logins cut off by the ramp-up bound.
    not_logged_in: int = 0
    #: (seconds since the ramp-up began, sessions logged in by then), every PROGRESS_SECONDS.
    progress: list[tuple[int, int]] = attrs.field(factory=list)
    failures: list[str] = attrs.field(factory=list)

    @property
    def dropped(self) -> int:
        """Drained sessions the server closed."""
        return self.drainer.dropped


async def log_in_all(nursery: trio.Nursery, port: int, names: list[str], common: Common,
                     *, drain: Callable[[str], bool]) -> Held:
    """Log everyone in with at most `login_concurrency` logins in flight.

    Sessions for which `drain(name)` is true are read and discarded until the end by the
    `Held.drainer` (stopped by `stop_server`); the others are returned for the caller
    to read.
    """
    held = Held()
    limiter = trio.CapacityLimiter(common.login_concurrency)

    async def one(name: str) -> None:
        async with limiter:
            try:
                with trio.fail_after(common.login_timeout_seconds):
                    client, seconds = await clip_login(port, name)
            except (OSError, Closed, trio.TooSlowError) as error:
                held.failed_logins += 1
                if len(held.failures) < 10:
                    held.failures.append(f"{name}: {error!r}")
                return
        held.clients[name] = client
        held.login_seconds.append(seconds)
        if drain(name):
            held.drainer.add(client)

    common.phase("login")

    async def sample() -> None:
        for minute in range(1, 10_000):
            await trio.sleep(PROGRESS_SECONDS)
            held.progress.append((minute * PROGRESS_SECONDS, len(held.clients)))

    with trio.move_on_after(common.ramp_timeout_seconds):
        async with trio.open_nursery() as logins:
            logins.start_soon(sample)
            async with trio.open_nursery() as each:
                for name in names:
                    each.start_soon(one, name)
            logins.cancel_scope.cancel()
    held.not_logged_in = len(names) - len(held.clients) - held.failed_logins
    return held


async def stop_server(server: ServerProcess, report: Report, held: Held | None = None) -> None:
    """Check the server's health, then stop it (SIGTERM by PID, bounded) while every
    session is still connected, as an operator stops a busy server: closing the clients
    first would measure a mass disconnection instead (each departure is announced to
    everyone still online), not the shutdown."""
    report.add("server_pid", server.pid)
    report.add("server_alive_at_end", server.alive())
    report.add("server_log_errors", server.log_count("ERROR") + server.log_count("Traceback"))
    report.add("server_log_warnings", server.log_count("WARNING"))
    started = time.perf_counter()
    status = await trio.to_thread.run_sync(server.stop)
    report.add("server_stop_seconds", time.perf_counter() - started)
    report.add("server_exit_status", status)
    if held is not None:
        held.drainer.stop()


def _login_figures(report: Report, held: Held, requested: int) -> None:
    report.add("sessions_requested", requested)
    report.add("sessions_logged_in", len(held.clients))
    report.add("sessions_not_logged_in_in_time", held.not_logged_in)
    report.add("sessions_held", len(held.clients) - held.dropped)
    for seconds, count in held.progress:
        report.add(f"logged_in_after_{seconds}s", count)


def _memory(report: Report, server: ServerProcess, before_kib: int, sessions: int) -> None:
    """RSS now, before the sessions, and the difference per session."""
    after_kib = server.rss_kib()
    report.add("server_rss_before_kib", before_kib)
    report.add("server_rss_kib", after_kib)
    report.add("server_rss_per_session_kib",
               (after_kib - before_kib) / sessions if sessions else 0.0)


async def run_hold(server: ServerProcess, sessions: int, hold_seconds: float, common: Common) -> Report:
    """S CLIP sessions logged in and held idle; ramp-up time; then the server's RSS."""
    report = Report()
    report.add("scenario", "hold")
    names = [account_name(i) for i in range(sessions)]
    before = server.rss_kib()
    rss = RssSampler(server, common.sample_seconds)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(rss.sample_forever)
        started = time.perf_counter()
        cpu = CpuWindow(server)
        held = await log_in_all(nursery, server.port, names, common, drain=lambda _name: True)
        ramp = time.perf_counter() - started
        cpu.report(report, "ramp_up", units=len(held.clients), unit="login")
        await trio.sleep(common.settle_seconds + hold_seconds)
        still = len(held.clients) - held.dropped
        _login_figures(report, held, sessions)
        report.add("ramp_up_seconds", ramp)
        report.add("logins_per_second", len(held.clients) / ramp if ramp else 0.0)
        report.add_latencies("login_latency", held.login_seconds)
        _memory(report, server, before, still)
        rss.report(report, per_command=False)
        report.add("errors", held.failed_logins + held.dropped + held.not_logged_in)
        for failure in held.failures:
            report.add("error_sample", failure)
        await stop_server(server, report, held)
        nursery.cancel_scope.cancel()
    return report


async def run_storm(server: ServerProcess, sessions: int, common: Common) -> Report:
    """S users connect and log in all at once; time until every one has seen its `6`."""
    report = Report()
    report.add("scenario", "storm")
    report.add("accounts", "pre-created (CLIP login, no registration)")
    names = [account_name(i) for i in range(sessions)]
    before = server.rss_kib()
    storm = attrs.evolve(common, login_concurrency=max(sessions, 1))
    rss = RssSampler(server, common.sample_seconds)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(rss.sample_forever)
        started = time.perf_counter()
        cpu = CpuWindow(server)
        held = await log_in_all(nursery, server.port, names, storm, drain=lambda _name: True)
        elapsed = time.perf_counter() - started
        cpu.report(report, "storm", units=len(held.clients), unit="login")
        await trio.sleep(common.settle_seconds)
        _login_figures(report, held, sessions)
        report.add("storm_seconds", elapsed)
        report.add("logged_in_within_60s", sum(1 for s in held.login_seconds if s <= 60.0))
        report.add_latencies("login_latency", held.login_seconds)
        _memory(report, server, before, len(held.clients) - held.dropped)
        rss.report(report, per_command=False)
        report.add("errors", held.failed_logins + held.dropped + held.not_logged_in)
        for failure in held.failures:
            report.add("error_sample", failure)
        await stop_server(server, report, held)
        nursery.cancel_scope.cancel()
    return report


async def run_matches(server: ServerProcess, sessions: int, matches: int, seconds: float,
                      common: Common, options: BotOptions, *, warmup_seconds: float = 0.0,
                      min_matches: int = 0) -> Report:
    """S sessions, M bot-vs-bot matches at full speed for T seconds.

    The bots start playing `warmup_seconds` before the measured T seconds begin, so that
    the burst of M match starts (each announced to every session) can be left out. With
    `min_matches` they play on after T seconds until that many matches have finished
    (within the ramp timeout): how much T seconds hold depends on the machine's load.
    """
    if sessions < 2 * matches:
        raise ValueError(f"{matches} matches need at least {2 * matches} sessions, not {sessions}")
    report = Report()
    report.add("scenario", "matches")
    names = [account_name(i) for i in range(sessions)]
    players = set(names[: 2 * matches])
    before = server.rss_kib()
    stats = MatchStats(measuring=False)
    rng = random.Random(common.seed)
    errors_at_login = 0
    rss = RssSampler(server, common.sample_seconds, lambda: stats.answered)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(rss.sample_forever)
        started = time.perf_counter()
        login_cpu = CpuWindow(server)
        held = await log_in_all(nursery, server.port, names, common,
                                drain=lambda name: name not in players)
        report.add("login_seconds", time.perf_counter() - started)
        login_cpu.report(report, "login", units=len(held.clients), unit="login")
        setup_cpu = CpuWindow(server)
        errors_at_login = held.failed_logins + held.not_logged_in
        clients = held.clients
        bots: list[MatchBot] = []
        for pair in range(matches):
            first, second = names[2 * pair], names[2 * pair + 1]
            if first not in clients or second not in clients:
                continue
            bots.append(MatchBot(first, second, inviter=True, client=clients[first],
                                 stats=stats, rng=random.Random(rng.random()), options=options))
            bots.append(MatchBot(second, first, inviter=False, client=clients[second],
                                 stats=stats, rng=random.Random(rng.random()), options=options))
        # Bounded like the logins: at scale every `toggle ready` is announced to everyone.
        common.phase("setup")
        ready: list[MatchBot] = []

        async def set_up(bot: MatchBot) -> None:
            await _guarded(bot.setup, stats, bot.name)
            ready.append(bot)

        with trio.move_on_after(common.ramp_timeout_seconds):
            async with trio.open_nursery() as setups:
                for bot in bots:
                    setups.start_soon(set_up, bot)
        if len(ready) < len(bots):
            stats.error(f"{len(bots) - len(ready)} bots not set up within {common.ramp_timeout_seconds} s")
        report.add("setup_seconds", time.perf_counter() - setup_cpu.wall)
        setup_cpu.report(report, "setup")
        common.phase("warmup" if warmup_seconds > 0 else "play")
        commands_before = plays_before = answered_before = 0
        play_started = time.perf_counter()
        cpu = CpuWindow(server)

        async def measure() -> None:
            nonlocal commands_before, plays_before, answered_before, play_started, cpu
            await trio.sleep(warmup_seconds)
            common.phase("play")
            commands_before, plays_before = stats.commands, stats.plays
            answered_before = stats.answered
            play_started = time.perf_counter()
            cpu = CpuWindow(server)
            stats.measuring = True

        async with trio.open_nursery() as play:
            play.start_soon(measure)
            for bot in bots:
                play.start_soon(_guarded, bot.play, stats, bot.name)
            await trio.sleep(warmup_seconds + seconds)
            with trio.move_on_after(common.ramp_timeout_seconds):
                while stats.matches < min_matches:
                    await trio.sleep(0.05)
            play.cancel_scope.cancel()
        played = time.perf_counter() - play_started
        stats.measuring = False
        answered = stats.answered - answered_before
        cpu.report(report, "play", units=answered)
        _login_figures(report, held, sessions)
        report.add("sessions_held_after_play", len(held.clients) - held.dropped - stats.disconnects)
        report.add("matches_requested", matches)
        report.add("matches_running", len(bots) // 2)
        report.add("warmup_seconds", warmup_seconds)
        report.add("seconds", played)
        report.add("plays", stats.plays - plays_before)
        report.add("moves_per_second", (stats.plays - plays_before) / played if played else 0.0)
        report.add("commands", stats.commands - commands_before)
        report.add("commands_per_second", (stats.commands - commands_before) / played if played else 0.0)
        report.add("commands_answered", answered)
        report.add("think_ms", options.think_ms)
        report.add("games_finished", stats.games)
        report.add("matches_finished", stats.matches)
        report.add("doubles", stats.doubles)
        report.add("takes", stats.takes)
        report.add("passes", stats.passes)
        report.add_latencies("latency", stats.latencies)
        if stats.slowest[1]:  # which command waited longest, and what answered it
            report.add("latency_max_command", f"{stats.slowest[1]!r} -> {stats.slowest[2][:60]!r}")
        _memory(report, server, before, len(held.clients) - held.dropped)
        rss.report(report, per_command=True)
        report.add("errors", stats.errors + errors_at_login + held.dropped)
        for sample in stats.error_samples + held.failures:
            report.add("error_sample", sample)
        await stop_server(server, report, held)
        nursery.cancel_scope.cancel()
    return report


async def _guarded(run: Callable[[], Awaitable[None]], stats: MatchStats, name: str) -> None:
    try:
        await run()
    except Closed:
        stats.disconnects += 1
        stats.error(f"{name}: disconnected")
    except RuntimeError as error:
        stats.error(f"{name}: {error}")
