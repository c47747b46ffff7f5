"""A synchronous stand-in for the trio shell: drives the application core in milliseconds.

`CoreDriver` owns an in-memory store, a manual clock and a dice source, logs users in and
out, feeds them command lines and applies each `Outcome` as the server does: the writes
are committed first (in one batch, as the group commit does; a write that fails fails the
test), then every delivery is rendered for its recipient and appended to that user's
inbox. Tests read what each user was told with `take(name)`: "client line in, server
lines out", the transcript style of python-chess's `MockTransport`.

Time and background work are driven by hand too: `tick()` runs the core's one tick
(`fibsd.app.timers`) at the manual clock's time, and `run_jobs()` runs the background jobs
that outcomes left (at once after each outcome, unless `hold_jobs` is set: then they wait
for `run_jobs()`, so a transcript sees what happens before and after one finishes). Every
`MatchFinished` that an applied outcome carried is kept in `finished`.
"""

from __future__ import annotations

from typing import Any

import attrs

from fibsd.domain.accounts import Account
from fibsd.app import dispatch, presence, presentation, timers
from fibsd.app.outcome import Job, MatchFinished, Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.infra.wallclock import ManualClock
from fibsd.infra.config import Config
from fibsd.domain.dice import DiceSource
from fibsd.infra.passwords import PasswordHasher
from fibsd.store.sqlite import SQLiteStore as Store

PASSWORD = "secret"


class CoreDriver:
    """The core with everything the shell would do done synchronously."""

    def __init__(self, dice: DiceSource | None = None, *, store: Store | None = None,
                 clock: ManualClock | None = None, **settings: object) -> None:
        self.store = store if store is not None else Store.open(":memory:")
        self.clock = clock if clock is not None else ManualClock()
        self.hasher = PasswordHasher.for_tests("pbkdf2_sha256")
        values: dict[str, dict[str, object]] = {"server": {"motd_file": "/nonexistent/fibsd-motd.txt"}}
        for key, value in settings.items():
            table, _, setting = key.partition("__")
            values.setdefault(table, {})[setting] = value
        self.config = Config.from_mapping(values)
        self.registry = Registry(config=self.config, store=self.store, clock=self.clock,
                                 hasher=self.hasher, dice=dice)
        self.sessions: dict[str, Session] = {}
        self.inbox: dict[str, list[str]] = {}
        #: Deliveries rendered so far, and the lines of the last one.
        self.deliveries = 0
        self.last_lines: list[str] = []
        #: Background jobs wait for `run_jobs()` instead of running after their outcome.
        self.hold_jobs = False
        #: Background jobs not run yet (only while `hold_jobs`).
        self.pending_jobs: list[Job[Any]] = []
        #: Every match finished by an outcome applied so far, in order.
        self.finished: list[MatchFinished] = []
        #: Arrivals and status changes wait for `flush` (the shell's paced batches).
        self.paced = False

    # --- accounts and logins ------------------------------------------------------------

    def create(self, *names: str, **toggles: bool) -> None:
        """Accounts with FIBS's defaults plus `toggles` (e.g. ready=True)."""
        hashed = self.hasher.hash(PASSWORD)
        for name in names:
            account = Account.new(name, hashed, self.clock.now())
            values = account.toggles
            for toggle, value in toggles.items():
                values = values.with_value(toggle, value)
            self.store.create_account(attrs.evolve(account, toggles=values))

    def log_in(self, name: str, *, clip: bool = True) -> Session:
        account = self.store.get_account(name)
        assert account is not None, f"no account {name}"
        session = Session(
            account=account, clip=clip, clip_version=1008,
            client_name="driver" if clip else None, host="127.0.0.1",
            login_at=self.clock.now(), prompts=not clip,
        )
        self.sessions[name] = session
        self.inbox[name] = []
        # As the shell's login does: the pending messages are read with the account.
        outcome = presence.log_in(self.registry, session, previous_login_at=account.last_login_at,
                                  previous_host=account.last_login_host,
                                  pending_messages=self.store.pending_messages(name))
        self.check_login(session, outcome)
        self.apply(outcome)
        return session

    def check_login(self, session: Session, outcome: Outcome) -> None:
        """A hook for tests that inspect a login's outcome before it is applied."""

    def log_out(self, name: str, how: Departure = Departure.DROPPED) -> None:
        self.apply(presence.log_out(self.registry, self.sessions[name], how))

    # --- commands -----------------------------------------------------------------------

    def send(self, name: str, line: str) -> list[str]:
        """`name` types `line`; returns what `name` was told in answer (its inbox is
        emptied of it), everyone else's lines wait in their inboxes."""
        self.take(name)
        self.feed(self.sessions[name], line)
        return self.take(name)

    def feed(self, session: Session, line: str) -> None:
        """The shell's part for one line: handle it, apply the outcome, and log the user
        out if the command made them leave."""
        self.apply(dispatch.handle(self.registry, session, line, monotonic=self.clock.now()))
        if session.departure is not None:
            self.apply(presence.log_out(self.registry, session, session.departure))

    def take(self, name: str) -> list[str]:
        """Everything `name` was told since the last take."""
        lines, self.inbox[name] = self.inbox[name], []
        return lines

    # --- time and background work ---------------------------------------------------------

    def tick(self, advance: float = 0.0) -> None:
        """The shell's ticker: move the clock on by `advance` seconds, then run the
        core's tick at that time and apply what it produced."""
        self.clock.advance(advance)
        self.apply(timers.tick(self.registry, self.clock.now()))

    def run_jobs(self) -> int:
        """Run the background jobs waiting (and those their follow-ups leave), in order,
        each one's follow-up applied as the shell applies it; how many ran."""
        ran = 0
        while self.pending_jobs:
            job = self.pending_jobs.pop(0)
            self.apply(job.then(job.work()))
            ran += 1
        return ran

    def apply(self, outcome: Outcome) -> None:
        """As the shell (`Server._apply`): commit (one batch; any failed write fails), the
        pending logout announcements in the shell's order, the deliveries, the writes
        after delivery, the jobs that hold the prompt, the closes; then what the shell's
        next scheduler pass sends (the logout notices gathered meanwhile), and the
        background jobs (unless `hold_jobs`)."""
        # Logins announced at once, status changes after the outcome's lines, as the shell
        # does with announce_interval_seconds = 0; with `paced`, they wait for `flush`
        # (the arrivals: or for an outcome that reaches anyone but its issuer), as the
        # shell's batches do.
        self.registry.add_arrivals(outcome.arrivals)
        self.registry.add_statuses(outcome.statuses)
        outcome.arrivals, outcome.statuses = [], []
        if not self.paced or outcome.closes \
                or len({recipient.name for recipient, _ in outcome.pairs()}) > 1:
            self._deliver(self.registry.take_arrivals())
        errors = self.store.run_batch(outcome.writes)
        failed = [error for error in errors if error is not None]
        assert not failed, f"a write failed: {failed!r}"
        if outcome.departures:  # announced together, after this outcome's lines
            self.registry.add_departures(outcome.departures)
        else:  # what is said after a departure reaches everyone after its notice
            self._announce()
        self._deliver(outcome)
        if not self.paced:
            self._deliver(self.registry.take_statuses())
        for write in outcome.writes_after_delivery:
            write(self.store)
        self.finished.extend(outcome.finished)
        background = [job for job in outcome.jobs if not job.holds_prompt]
        for job in outcome.jobs:
            if job.holds_prompt:
                self.apply(job.then(job.work()))
        for recipient, _reason in outcome.closes:
            assert isinstance(recipient, Session)
            self.apply(presence.log_out(self.registry, recipient, Departure.DROPPED))
        self._announce()  # the next scheduler pass
        self.pending_jobs.extend(background)
        if not self.hold_jobs:
            self.run_jobs()

    def _announce(self) -> None:
        if self.registry.departures_pending:
            self.flush()  # (who came and went is heard of in that order)
            self._deliver(self.registry.take_departures())

    def flush(self) -> None:
        """The shell's batch: the arrivals waiting, then the status changes."""
        self._deliver(self.registry.take_arrivals())
        self._deliver(self.registry.take_statuses())

    def _deliver(self, outcome: Outcome) -> None:
        for recipient, message in outcome.pairs():
            lines = presentation.render(recipient, message)
            for text in lines:  # the codec frames lines: none may contain a line end
                assert isinstance(text, str)
                assert "\r" not in text and "\n" not in text, (message, text)
            self.deliveries += 1
            self.last_lines = lines
            if self.sessions.get(recipient.name) is recipient:
                self.inbox[recipient.name].extend(lines)
