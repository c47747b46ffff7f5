"""The trio shell: listeners, one reader loop per connection, one flusher for all output.

The shell (`fibsd.shell`) and `fibsd.__main__` are the only part of the server that
imports trio (the client tools in `fibsd.tools` use trio too, as clients; the
`[importlinter]` contracts in setup.cfg keep trio out of everything below the shell).
Everything it does with a command is: frame the bytes into lines, hand a line to the
synchronous application core, commit the returned writes to the store in a worker
thread, then deliver the returned lines. The parts are modules of their own, each
testable alone: `fibsd.shell.committer.GroupCommitter` (the group commit),
`fibsd.shell.delivery.Deliverer` (queuing lines, prompts and closes, with coalescing),
`fibsd.shell.ordering.DeliveryOrder` (invariant 7), `fibsd.shell.connection` (framing,
outboxes, the flusher) and `fibsd.shell.listeners` (opening the ports). `Server` keeps
the listeners, the command loop, the one ticker, the jobs and the analysis workers'
results (into the core through `fibsd.app.results`), and shutdown.

Concurrency invariants:

1. Output goes into a bounded outbox per connection; one flusher task hands every
   connection's outbox to the kernel once per scheduler pass, with non-blocking sends
   (only a connection whose socket buffer is full gets a task that waits for it; a TLS
   connection has a writer task of its own).
2. Registry and session calls never await: each command is handled atomically.
3. Queuing output never waits: a recipient whose outbox is full is disconnected, the
   sender never waits on a slow peer.
4. Every per-connection failure stays inside that connection's task: an unexpected
   exception is logged with its traceback and closes that one connection.
5. Blocking or CPU-heavy work (password hashing, store writes) goes through
   `trio.to_thread`. Store writes are group-committed by one committer task: the writes
   of all connections that arrived meanwhile share one transaction and one fsync, in
   arrival order (a durable commit costs milliseconds; one per action would cap the
   whole server at a few hundred actions per second).
6. Writes are committed before the lines that acknowledge them are delivered.
7. What one connection receives is in the order the events happened: an outcome's lines
   wait behind lines made earlier for the same user that still wait for their commit,
   even when it has nothing to commit itself (`fibsd.shell.ordering`; issue 20 §1).
"""

from __future__ import annotations

import logging
import math
import signal
import ssl
from collections.abc import Sequence

import trio

from fibsd.shell.announcements import Announcements
from fibsd.shell.admission import AddressTurns, BurstListener, Turn
from fibsd.shell.analysis_workers import AnalysisPool, find_gnubg
from fibsd.shell.house_bots import HouseBots
from fibsd.domain.match_analysis import AnalysisDone
from fibsd.app import dispatch, presence, presentation, results, timers
from fibsd.app.outcome import Job, Outcome, Recipient
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.infra.wallclock import Clock, SystemClock
from fibsd.shell.committer import GroupCommitter
from fibsd.infra.config import Config
from fibsd.shell.connection import Connection, ConnectionClosed, Flusher
from fibsd.shell.delivery import Deliverer, recipients
from fibsd.domain.dice import DiceSource
from fibsd.infra.limits import ConnectionCounter, LoginGuard, NetworkAllowList, WindowCounter
from fibsd.shell.listeners import (
    GAME_PORT,
    TLS_PORT,
    WEB_PORT,
    WEB_TLS_PORT,
    open_plain,
    open_tls,
    peer_host,
)
from fibsd.shell.hashing import HashQueue
from fibsd.shell.login import Arrival, LoginServices, login_dialogue
from fibsd.domain.matfile import mat_lines, mat_text
from fibsd.shell.ordering import DeliveryOrder, Ticket
from fibsd.infra.passwords import PasswordHasher
from fibsd.store import Store
from fibsd.shell.tls import server_context
from fibsd.shell.web import WebListener
from protocol.errors import LineTooLong
from protocol.framing import encode_line
from protocol.messages import TextLine
from protocol.wording import Text

log = logging.getLogger("fibsd.shell.server")


class Server:
    """One fibsd server: its registry, its store and its open connections."""

    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        clock: Clock | None = None,
        hasher: PasswordHasher | None = None,
        dice: DiceSource | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.clock = clock or SystemClock()
        self.hasher = hasher or config.password_hasher()
        self.registry = Registry(
            config=config, store=store, clock=self.clock, hasher=self.hasher, dice=dice
        )
        #: Queues outcomes on the connections of their recipients (`fibsd.shell.delivery`).
        self._delivery = Deliverer()
        self._connections = self._delivery.connections
        #: Writes every plain connection's queued output once per scheduler pass.
        self._flusher = Flusher()
        # Group commit: writes wait for the committer task, which makes each batch
        # durable with one transaction (one fsync) in a worker thread, in arrival order.
        self._committer = GroupCommitter(store)
        self._commit = self._committer.commit
        #: Invariant 7: every outcome's lines in the order the outcomes were made, per user.
        self._order: DeliveryOrder[Recipient, tuple[Outcome, Session | None]] = DeliveryOrder(
            self._delivery.deliver_part
        )
        #: Logins and logouts announced to everyone in batches (issue 31).
        self.announcements = Announcements(self.registry, self._deliver_in_order,
                                           interval_seconds=config.announce_interval_seconds)
        self._nursery: trio.Nursery | None = None
        self._stop_requested = trio.Event()
        self.listeners: list[trio.SocketListener] = []
        # Issue 8: the optional TLS listeners (empty unless `tls_enabled`). The context is
        # built here so that a bad certificate or key stops start-up with a ConfigError
        # before anything listens.
        self.tls_listeners: list[trio.SSLListener[trio.SocketStream]] = []
        self._tls_context = (
            server_context(config.tls_cert_file, config.tls_key_file)
            if config.tls_enabled else None
        )
        self.allow_list = NetworkAllowList(config.allowed_networks)
        self.connections_per_address = ConnectionCounter(config.max_connections_per_address)
        # Issue 32: a flood from one address must not delay another's login prompt.
        self.turns = AddressTurns()
        self.login_guard = LoginGuard(
            free_failures=config.login_failures_before_delay,
            block_after=config.login_failures_before_block,
            block_seconds=config.login_block_seconds,
        )
        self.registrations = WindowCounter(
            limit=config.new_accounts_per_address_per_hour, window_seconds=3600.0
        )
        #: Issue 31: password hashes a few at a time, in arrival order, none for a client gone.
        self.hashes = HashQueue(config.password_hashes_at_once)
        self._login_services = LoginServices(
            config=config, store=store, hasher=self.hasher, hashes=self.hashes, clock=self.clock,
            motd_lines=self.registry.motd_lines, commit=self._commit, guard=self.login_guard,
            registrations=self.registrations,
        )
        self.shutting_down = False
        #: Whether the core's ticker runs (`_ensure_ticker`).
        self._ticker_running = False
        # Issue 16: the optional web listener (HTTP + WebSocket, and its TLS twin when
        # TLS is on); WebSocket connections come back through `_handle_stream`.
        self.web_listeners: list[trio.SocketListener] = []
        self.web_tls_listeners: list[trio.SSLListener[trio.SocketStream]] = []
        self._web = WebListener(
            serve_stream=self._handle_stream,
            peer_of=peer_host,
            allows=self.allow_list.allows,
            allowed_origins=config.web_allowed_origins,
            board=config.web_board,
            request_timeout_seconds=config.login_timeout_seconds,
            house_bots=[(bot.name, bot.settings.described, bot.copies) for bot in config.house_bots],
        ) if config.web_enabled else None
        # Issue 23: GNU Backgammon worker processes analyse finished matches
        # (fibsd/shell/analysis_workers.py); without gnubg the server runs and says so when asked.
        self.analysis_pool: AnalysisPool | None = None
        gnubg = find_gnubg(config.analysis_gnubg)
        if config.analysis_workers == 0:
            self.registry.analysis.unavailable = "it is switched off (analysis_workers = 0)"
        elif gnubg is None:
            self.registry.analysis.unavailable = (
                f"GNU Backgammon is not installed ({config.analysis_gnubg} not found)")
            log.warning("analysis is unavailable: %s not found (install the Debian package "
                        "gnubg, or set analysis_gnubg)", config.analysis_gnubg)
        else:
            self.registry.analysis.unavailable = None
            self.analysis_pool = AnalysisPool(
                gnubg=gnubg, workers=config.analysis_workers,
                checker_plies=config.analysis_checker_plies,
                cube_plies=config.analysis_cube_plies,
                time_limit_seconds=config.analysis_time_limit_seconds,
                fetch=self._match_for_analysis, deliver=self._analysis_arrived,
                puzzle_threshold=config.puzzle_threshold,
            )

        self.house_bots = HouseBots(config, store, self.hasher, self.clock.now)  # issue 36, after the listeners

    # ----------------------------------------------------------------- serving

    async def serve(
        self, *, listeners: Sequence[trio.abc.Listener[trio.abc.Stream]] | None = None,
        task_status: trio.TaskStatus[list[trio.SocketListener]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Listen on the configured address until `request_stop` (or cancellation).

        `listeners` replaces the plain TCP listeners (tests serve in-memory streams this
        way, under trio's mock clock); every connection then takes the same path."""
        if listeners is None:
            self.listeners = await open_plain(GAME_PORT, self.config.host, self.config.port, "")
            listeners = [BurstListener(listener) for listener in self.listeners]
        async with trio.open_nursery() as outer:
            await outer.start(self._committer.run)
            await outer.start(self._flusher.run)
            await outer.start(self.announcements.run)
            if self.analysis_pool is not None:
                await outer.start(self.analysis_pool.run)
            self._resume_analysis_jobs()
            try:
                async with trio.open_nursery() as nursery:
                    self._nursery = nursery
                    await nursery.start(trio.serve_listeners, self._handle_stream, listeners)
                    self._ensure_ticker()  # (saved tables are loaded now)
                    # The clocks that run while nobody is there (a background read).
                    await self._apply(results.clocks_at_start(self.registry), issuer=None)
                    if self._tls_context is not None:  # TLS beside the plain listener
                        await self._serve_tls(nursery, self._tls_context)
                    if self._web is not None:
                        await self._serve_web(nursery, self._web)
                    if self.listeners:  # (house bots log in on the plain port; stopped with it)
                        await nursery.start(self.house_bots.run, self.listeners[0].socket.getsockname()[1])
                    task_status.started(self.listeners)
                    try:
                        await self._stop_requested.wait()
                    finally:
                        # The connections are still alive here, so everyone hears the news
                        # and the queued lines are flushed before they close.
                        with trio.CancelScope(shield=True):
                            await self._shut_down()
                        nursery.cancel_scope.cancel()
            finally:
                outer.cancel_scope.cancel()  # every connection has committed its last writes

    async def _serve_tls(self, nursery: trio.Nursery, context: ssl.SSLContext) -> None:
        """Open the TLS listeners and serve them like the plain ones; the handshake
        happens lazily on the connection's first read or write, inside its own task."""
        self.tls_listeners = await open_tls(TLS_PORT, self.config.host, self.config.tls_port, context,
                                            " for TLS")
        await nursery.start(trio.serve_listeners, self._handle_tls_stream, self.tls_listeners)

    async def _serve_web(self, nursery: trio.Nursery, web: WebListener) -> None:
        """Open the web listener (and its TLS twin when TLS is on)."""
        self.web_listeners = await open_plain(WEB_PORT, self.config.host, self.config.web_port,
                                              " for HTTP/WebSocket")
        await nursery.start(trio.serve_listeners, web.handle, self.web_listeners)
        if self._tls_context is not None:
            self.web_tls_listeners = await open_tls(
                WEB_TLS_PORT, self.config.host, self.config.web_tls_port, self._tls_context,
                " for HTTPS/WebSocket")
            await nursery.start(trio.serve_listeners, web.handle, self.web_tls_listeners)

    async def _handle_tls_stream(self, stream: trio.SSLStream[trio.SocketStream]) -> None:
        """Complete the handshake (within the login timeout, as it is the first step of
        logging in), then serve the connection like a plain one. Done up front because a
        handshake that fails inside the connection's writer would leave its reader
        waiting for input that never comes."""
        done = False
        with trio.move_on_after(self.config.login_timeout_seconds):
            try:
                await stream.do_handshake()
                done = True
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        if not done:
            log.info("TLS handshake with %s failed", peer_host(stream))
            await trio.aclose_forcefully(stream)
            return
        await self._handle_stream(stream)

    def request_stop(self) -> None:
        """Shut down gracefully: tell everyone, save matches, close, stop listening."""
        self._stop_requested.set()

    async def _shut_down(self) -> None:
        """Tell everyone, save what must be saved, close every connection."""
        await self._apply(presence.shut_down(self.registry), issuer=None)
        with trio.move_on_after(2.0):
            async with trio.open_nursery() as flushers:
                for connection in list(self._connections.values()):
                    flushers.start_soon(connection.aclose_gracefully, 1.0)
        log.info("shut down")

    async def _handle_stream(self, stream: trio.abc.Stream) -> None:
        peer = peer_host(stream)
        # The work up to the login prompt takes turns per address (fibsd.shell.admission).
        turn = await self.turns.enter(peer)
        try:
            refusal = self._refusal(peer)
            if refusal is not None:
                log.info("refused connection from %s: %s", peer, refusal.name)
                with trio.move_on_after(1.0):
                    try:
                        await stream.send_all(encode_line(refusal.value))
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
                await trio.aclose_forcefully(stream)
                return
            try:
                await self._serve_connection(stream, peer, turn)
            finally:
                self.connections_per_address.close(peer)
        finally:
            turn.leave()

    def _refusal(self, peer: str) -> Text | None:
        """Why a new connection from `peer` is refused, or None (counted as open if not).
        The checks in memory come before the store's (a flood is refused cheaply)."""
        if not self.allow_list.allows(peer):
            return Text.ADDRESS_NOT_ALLOWED
        if not self.connections_per_address.try_open(peer):
            return Text.TOO_MANY_CONNECTIONS
        if self.store.sanction_until("ban-address", peer, self.clock.now()) is not None:
            self.connections_per_address.close(peer)
            return Text.BANNED
        return None

    async def _serve_connection(self, stream: trio.abc.Stream, peer: str, turn: Turn) -> None:
        connection = Connection(stream, self.config, host=peer, flusher=self._flusher,
                                on_first_read=turn.leave)
        log.info("connection from %s", peer)
        try:
            if connection.needs_writer_task:  # TLS
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(connection.run_writer)
                    try:
                        await self._converse(connection)
                    finally:
                        connection.finish()
            else:
                await self._converse(connection)
        except Exception:  # invariant 4: our own bug closes this connection only
            log.exception("unexpected error on connection from %s", peer)
        finally:
            with trio.CancelScope(shield=True):
                # The last lines (a goodbye, a refusal) still reach a peer that reads.
                await connection.aclose_gracefully(self.CLOSING_FLUSH_SECONDS)
            log.info("connection from %s closed", peer)

    #: How long a closing connection's queued output may take to be sent.
    CLOSING_FLUSH_SECONDS = 5.0

    async def _converse(self, connection: Connection) -> None:
        try:
            arrival = await login_dialogue(connection, self._login_services)
        except ConnectionClosed:
            return
        except LineTooLong:
            # Same notice as after login (architecture.md: protocol abuse gets a notice).
            connection.write_lines(["", Text.LINE_TOO_LONG.value])
            return
        if arrival is None:
            return
        session = Session(
            account=arrival.account,
            clip=arrival.clip,
            clip_version=arrival.clip_version,
            client_name=arrival.client_name,
            host=connection.host,
            login_at=self.clock.now(),
            prompts=arrival.prompts,
        )
        self._connections[session] = connection
        how = Departure.DROPPED
        try:
            await self._arrive(session, connection, arrival)
            how = await self._command_loop(session, connection)
        finally:
            with trio.CancelScope(shield=True):
                await self._apply(presence.log_out(self.registry, session, how), issuer=None)
                self._connections.pop(session, None)

    async def _arrive(self, session: Session, connection: Connection, arrival: Arrival) -> None:
        """Log `session` in and deliver its greeting. (A method of its own, so that the
        login's outcome, with its who list of every user online, is not kept alive for
        as long as the session lasts.)"""
        self.announcements.deliver_departures()  # a newcomer hears of no departure before its arrival
        outcome = presence.log_in(
            self.registry, session, previous_login_at=arrival.previous_login_at,
            previous_host=arrival.previous_host, just_registered=arrival.just_registered,
            pending_messages=arrival.pending_messages,
        )
        # Others may talk to the newcomer while its login is committed; their lines wait
        # until its own greeting is queued.
        connection.hold()
        try:
            await self._apply(outcome, issuer=session)
        finally:
            connection.release()

    async def _command_loop(self, session: Session, connection: Connection) -> Departure:
        """Read and handle commands until the user leaves; say how they left."""
        # One idle-timeout scope for many commands, its deadline moved at each read and
        # lifted while a command is handled, rather than a scope per command. A scope
        # whose deadline passed stays cancelled: if that happened just as a line came in,
        # the line is handled outside it and a new scope follows.
        idle_seconds = self.config.idle_timeout_seconds
        while True:
            with trio.CancelScope() as idle:
                while True:
                    idle.deadline = trio.current_time() + idle_seconds
                    try:
                        line = await connection.read_line()
                    except LineTooLong:
                        connection.write_line(presentation.line_too_long_notice())
                        return Departure.DROPPED
                    except ConnectionClosed:
                        return Departure.DROPPED
                    idle.deadline = math.inf
                    if idle.cancel_called:
                        break
                    departure = await self._handle_line(session, connection, line)
                    if departure is not None:
                        return departure
            if idle.cancelled_caught:  # the deadline passed while waiting for a line
                await self._apply(dispatch.timed_out(session), issuer=session)
                return Departure.TIMED_OUT
            departure = await self._handle_line(session, connection, line)
            if departure is not None:
                return departure

    async def _handle_line(self, session: Session, connection: Connection,
                           line: str | None) -> Departure | None:
        """Handle one line read (None: end of input); how the user left, if he did."""
        if line is None:
            return Departure.DROPPED
        await self._apply(
            dispatch.handle(self.registry, session, line, monotonic=trio.current_time()),
            issuer=session,
        )
        if session.departure is not None:
            return session.departure
        if not connection.is_open:
            return Departure.DROPPED
        return None

    # ------------------------------------------------------- outcome handling

    async def _apply(self, outcome: Outcome, *, issuer: Session | None) -> None:
        # Invariant 7: the lines wait behind those queued earlier for the same users,
        # whether or not this outcome has anything to commit.
        ticket: Ticket[Recipient, tuple[Outcome, Session | None]] | None
        self.announcements.before(outcome, issuer)
        if outcome.writes:
            ticket = self._order.reserve((outcome, issuer), recipients(outcome, issuer))
            try:
                await self._commit(outcome.writes)
            except BaseException:
                self._order.withdraw(ticket)
                raise
            self.announcements.after_commit(outcome)
            self._order.committed(ticket)
        else:
            self.announcements.after_commit(outcome)
            ticket = self._order.submit((outcome, issuer), recipients(outcome, issuer))
        self.announcements.after()
        if ticket is not None and not ticket.delivered:  # (no checkpoint when it went at once)
            delivered = trio.Event()
            ticket.on_delivered = delivered.set
            await delivered.wait()
        await self._commit(outcome.writes_after_delivery)
        self._submit_analyses(outcome)  # (stored by the writes above)
        for job in outcome.jobs:
            if job.holds_prompt:  # the issuer's next command waits for it
                result = await trio.to_thread.run_sync(job.work)
                await self._apply(job.then(result), issuer=issuer)
            elif self._nursery is not None:
                self._nursery.start_soon(self._run_background, job)
        self._ensure_ticker()
        if outcome.shutdown_in_seconds is not None and not self.shutting_down and self._nursery:
            self.shutting_down = True
            self._nursery.start_soon(self._count_down, outcome.shutdown_in_seconds)

    # ------------------------------------------------------- engine analysis

    def _resume_analysis_jobs(self) -> None:
        """The jobs stored before a restart go back in the queue, in their order: the core
        queues them again (`results.analyses_stored`) and they go to the workers."""
        self._submit_analyses(results.analyses_stored(self.registry, self.store.analysis_jobs()))

    def _submit_analyses(self, outcome: Outcome) -> None:
        """Hand the matches an outcome queued to the analysis workers (its writes, which
        store the jobs, are committed)."""
        if self.analysis_pool is not None:
            for record_id in outcome.analyses:
                self.analysis_pool.submit(record_id)

    def _match_for_analysis(self, record_id: int) -> str | None:
        record = self.store.match_record(record_id)
        if record is None:
            return None
        return mat_text(mat_lines(record, self.config.club_name))

    async def _analysis_arrived(self, done: AnalysisDone) -> None:
        await self._apply(results.analysis_done(self.registry, done), issuer=None)

    async def _run_background(self, job: Job[object]) -> None:
        """A background job: its work in a worker thread (abandoned at shutdown), then its
        follow-up applied like any outcome, from nobody in particular."""
        try:
            result = await trio.to_thread.run_sync(job.work, abandon_on_cancel=True)
            await self._apply(job.then(result), issuer=None)
        except Exception:  # one failed job must not stop the server
            log.exception("background job %s failed", job.name)

    def _ensure_ticker(self) -> None:
        """Run the core's ticker while anything is timed (and only then: a server with
        nothing timed has no periodic task)."""
        if not self._ticker_running and self._nursery is not None \
                and timers.next_tick_in(self.registry) is not None:
            self._ticker_running = True
            self._nursery.start_soon(self._run_ticker)

    async def _run_ticker(self) -> None:
        """The core has no timers: this one task calls the core's `tick` as often as the
        core asks (`fibsd.app.timers`), for every timed feature at once."""
        try:
            while (delay := timers.next_tick_in(self.registry)) is not None:
                await trio.sleep(delay)
                try:
                    outcome = timers.tick(self.registry, self.clock.now())
                    if outcome.deliveries or outcome.writes or outcome.jobs:
                        await self._apply(outcome, issuer=None)
                except Exception:  # one bad table must not stop the server (or the others)
                    log.exception("tick failed")
        finally:
            self._ticker_running = False

    def _deliver_in_order(self, outcome: Outcome) -> None:
        """Deliver lines of no command (notices, announcements) behind whatever is
        queued for their recipients."""
        self._order.submit((outcome, None), recipients(outcome, None))

    #: When the countdown of an administrator's shutdown is announced again.
    COUNTDOWN_MARKS = (600, 300, 120, 60, 30, 10, 5)

    async def _count_down(self, seconds: int) -> None:
        """Announce the shutdown to everyone, count down, then stop serving (§5.4)."""
        log.warning("shutdown in %s seconds", seconds)
        remaining = seconds
        while remaining > 0:
            self._announce(TextLine.of(Text.SHUTDOWN_NOTICE, seconds=remaining))
            later = [mark for mark in self.COUNTDOWN_MARKS if mark < remaining]
            next_mark = later[0] if later else 0
            await trio.sleep(remaining - next_mark)
            remaining = next_mark
        self.request_stop()

    def _announce(self, message: TextLine) -> None:
        out = Outcome()
        for session in self.registry.sessions():
            out.to(session, message)
        self._deliver_in_order(out)

    def connection_count(self) -> int:
        return len(self._connections)


async def run_until_signalled(server: Server) -> None:
    """Serve until SIGINT or SIGTERM (or an administrator's shutdown), then shut down
    gracefully."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def stop_on_signal() -> None:
                async for signum in signals:
                    log.info("received %s, shutting down", signal.Signals(signum).name)
                    server.request_stop()
                    return

            nursery.start_soon(stop_on_signal)
            await server.serve()  # returns once stopped (signal or administrator)
            nursery.cancel_scope.cancel()
