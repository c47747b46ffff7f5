"""Arrivals and departures announced to everyone, in batches: paced, lossless, in order.

Part of the trio shell. Every login is announced to everyone online (CLIP `7` and the
new user's `5` who-info) and every logout to those with `notify` on (`8`). One delivery
per login and recipient makes a login cost as much as there are users online, and a
storm of N logins cost N squared: 10,000 members reconnecting after a restart took minutes.
So the core leaves the announcements in the outcome (`Outcome.arrivals`,
`Outcome.departures`) and this module sends those of many logins or logouts together,
one piece per recipient built once per kind of recipient (`Registry.take_arrivals`,
`Registry.take_departures`):

- Departures go out once per scheduler pass, as soon as the committed outcome that
  made them is through (thousands dropping at once reach each user as one piece).
- Arrivals and status changes go out at most every `announce_interval_seconds` (longer
  in proportion beyond 2,000 users online): a login storm reaches each user in a few
  pieces a second, whatever the number of logins.

Nothing is lost and each recipient's order is kept: the arrivals waiting are announced
before anything else that could follow them, i.e. before any outcome that reaches anyone
but its own issuer (the newcomer's first command, a status change, a shout), before any
departure (a user who arrives and leaves is heard of in that order), and at the latest
when the interval is over. An outcome that only answers its issuer (a plain login's
greeting and who list, `who`) leaves them waiting: it tells nobody else anything.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.shell.delivery import recipients


class Announcements:
    """The batching of arrivals and departures for one server (see the module)."""

    def __init__(self, registry: Registry, deliver_in_order: Callable[[Outcome], None], *,
                 interval_seconds: float) -> None:
        self._registry = registry
        self._deliver_in_order = deliver_in_order
        self.interval_seconds = interval_seconds
        self._departures_arrived = trio.Event()
        self._batch_waiting = trio.Event()
        #: Batches of arrivals sent, for tests and figures.
        self.arrival_batches = 0

    def before(self, outcome: Outcome, issuer: Session | None) -> None:
        """Called with every outcome before it is committed or delivered: its arrivals and
        status changes join those waiting, and the arrivals go now if the outcome tells
        anyone else anything."""
        registry = self._registry
        if outcome.arrivals or outcome.statuses:
            registry.add_arrivals(outcome.arrivals)
            registry.add_statuses(outcome.statuses)
            outcome.arrivals, outcome.statuses = [], []
            if self.interval_seconds <= 0:
                self.deliver_arrivals()  # (the status changes follow the outcome: `after`)
                return
            self._batch_waiting.set()
        if registry.arrivals_pending and _reaches_others(outcome, issuer):
            self.deliver_arrivals()

    def after(self) -> None:
        """Called once an outcome's lines are on their way: without pacing, the status
        changes it made follow them at once."""
        if self.interval_seconds <= 0:
            self.deliver_batch()

    def after_commit(self, outcome: Outcome) -> None:
        """The departures of a committed `outcome` join the others of this pass; an
        outcome without any first sends the departures waiting (what is said after a
        departure reaches everyone after its notice)."""
        if outcome.departures:
            self._registry.add_departures(outcome.departures)
            self._departures_arrived.set()
        else:
            self.deliver_departures()

    def deliver_departures(self) -> None:
        if self._registry.departures_pending:
            self.deliver_batch()  # (a user who came and went: heard of in that order)
            self._deliver_in_order(self._registry.take_departures())

    def deliver_batch(self) -> None:
        """The arrivals waiting, then the status changes (a newcomer's later status after
        its arrival)."""
        self.deliver_arrivals()
        if self._registry.statuses_pending:
            self._deliver_in_order(self._registry.take_statuses())

    def deliver_arrivals(self) -> None:
        if self._registry.arrivals_pending:
            self.arrival_batches += 1
            self._deliver_in_order(self._registry.take_arrivals())

    def pace_seconds(self) -> float:
        """How long a batch waits: `interval_seconds`, longer on a crowded server."""
        crowd = self._registry.online_count() / USERS_PER_INTERVAL
        return self.interval_seconds * max(1.0, crowd)

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Send the departures of each scheduler pass together, and the arrivals at most
        every `interval_seconds`, until cancelled."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._run_departures)
            nursery.start_soon(self._run_batches)
            task_status.started()

    async def _run_departures(self) -> None:
        while True:
            await self._departures_arrived.wait()
            self._departures_arrived = trio.Event()
            self.deliver_departures()

    async def _run_batches(self) -> None:
        while True:
            await self._batch_waiting.wait()
            await trio.sleep(self.pace_seconds())
            self._batch_waiting = trio.Event()
            self.deliver_batch()


#: Up to this many users online, batches go out every `announce_interval_seconds`; beyond
#: it the interval grows in proportion (10,000 online: five times as long), so that what
#: the batches cost stays a bounded share of the server's time however many are online.
USERS_PER_INTERVAL = 2000


def _reaches_others(outcome: Outcome, issuer: Session | None) -> bool:
    """Whether `outcome` delivers anything to (or closes) anyone but `issuer`."""
    return any(recipient is not issuer for recipient in recipients(outcome, issuer))
