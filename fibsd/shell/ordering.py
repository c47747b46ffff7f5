"""The order of deliveries: what one connection receives is in the order events happened.

Part of the shell (issue 20 §1). The shell commits an outcome's writes before it delivers
the outcome's lines, while an outcome with nothing to commit could be delivered at once.
Left to itself, the answer to `board` would then overtake `alice moves ...`, still
waiting for its commit, on its way to the same user. This module holds every outcome's
lines behind the lines queued earlier for the same recipient:

- An outcome with writes is *reserved* before its commit starts: all its recipients are
  blocked from then on, and it is delivered once committed and once everything before it
  is delivered.
- An outcome without writes is *submitted*: its part for a recipient that nothing waits
  for is delivered at once (the usual case, and the only one while no commit is under
  way); its part for a blocked recipient waits behind what blocks him.
- Waiting outcomes go out in the order they were made (one queue, a sequence number each).

A recipient is blocked while the latest outcome with a part waiting for him (`_last`, his
sequence number there) is not delivered yet. The queue's head moves forward through
committed outcomes only, so a part never overtakes an outcome made before it that still
commits. Group commits finish in the order they were asked for, so the queue waits
behind no commit longer than the commits' own order makes it wait anyway.

Pure Python and synchronous, without trio: the shell says when a commit is done and is
called back to deliver (`deliver(payload, wanted)`, `wanted` selecting the recipients
whose part goes now, None for all of them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

__all__ = ["DeliveryOrder", "Ticket"]

R = TypeVar("R", bound=Hashable)
P = TypeVar("P")

#: `deliver(payload, wanted)`: deliver the payload's lines to the recipients `wanted`
#: accepts (all of them if None).
Deliver = Callable[[P, Callable[[R], bool] | None], None]


class Ticket(Generic[R, P]):
    """One outcome waiting in the queue: its payload, and whose part of it waits."""

    __slots__ = ("committed", "number", "on_delivered", "payload", "waiting", "withdrawn")

    def __init__(self, number: int, payload: P, waiting: set[R] | None, *,
                 committed: bool) -> None:
        self.number = number
        self.payload = payload
        #: The recipients whose part still waits; None: all of them (nothing delivered yet).
        self.waiting = waiting
        #: Its writes are durable (or it had none): it may go once it is at the head.
        self.committed = committed
        #: Its commit failed (or was given up): nothing of it is delivered.
        self.withdrawn = False
        #: Called once it is delivered (set it while it is not).
        self.on_delivered: Callable[[], None] | None = None

    @property
    def delivered(self) -> bool:
        return self.waiting is not None and not self.waiting


class DeliveryOrder(Generic[R, P]):
    """Deliveries in the order they were made, per recipient (see the module docstring)."""

    #: `_last` is pruned of recipients no longer blocked when it has grown this much.
    PRUNE_AT = 4096

    def __init__(self, deliver: Deliver[P, R]) -> None:
        self._deliver = deliver
        self._queue: deque[Ticket[R, P]] = deque()
        self._made = 0  # the number of the latest ticket made
        self._done = 0  # every ticket up to this number is delivered (or withdrawn)
        #: recipient -> the number of the latest ticket with a part waiting for him.
        self._last: dict[R, int] = {}
        self._prune_at = self.PRUNE_AT

    @property
    def idle(self) -> bool:
        """Nothing waits: every outcome is delivered as soon as it is submitted."""
        return not self._queue

    def reserve(self, payload: P, recipients: Iterable[R]) -> Ticket[R, P]:
        """An outcome whose writes are about to be committed: hold all of it (and
        whatever comes later for its recipients) until `committed`."""
        self._made += 1
        ticket: Ticket[R, P] = Ticket(self._made, payload, None, committed=False)
        self._last.update(dict.fromkeys(recipients, self._made))
        self._queue.append(ticket)
        return ticket

    def submit(self, payload: P, recipients: Iterable[R]) -> Ticket[R, P] | None:
        """An outcome with nothing (more) to commit: deliver it to everyone not blocked,
        now; the ticket of the rest, or None when all of it went."""
        if not self._queue:
            self._deliver(payload, None)
            return None
        done, last = self._done, self._last
        waiting = {recipient for recipient in recipients if last.get(recipient, 0) > done}
        if not waiting:
            self._deliver(payload, None)
            return None
        self._deliver(payload, lambda recipient: recipient not in waiting)
        self._made += 1
        ticket: Ticket[R, P] = Ticket(self._made, payload, waiting, committed=True)
        last.update(dict.fromkeys(waiting, self._made))
        self._queue.append(ticket)
        return ticket

    def committed(self, ticket: Ticket[R, P]) -> None:
        """`ticket`'s writes are durable: deliver what may go now."""
        ticket.committed = True
        self._advance()

    def withdraw(self, ticket: Ticket[R, P]) -> None:
        """`ticket`'s commit failed or was abandoned: it delivers nothing, and stops
        blocking what came after it."""
        ticket.withdrawn = True
        ticket.committed = True
        self._advance()

    def _advance(self) -> None:
        queue = self._queue
        while queue and queue[0].committed:
            ticket = queue.popleft()
            self._done = ticket.number
            if not ticket.withdrawn:
                waiting = ticket.waiting
                # What it delivers may submit more (departure notices): they queue behind.
                self._deliver(ticket.payload, None if waiting is None else waiting.__contains__)
            ticket.waiting = set()
            if ticket.on_delivered is not None:
                ticket.on_delivered()
        if not queue:
            self._last.clear()
        elif len(self._last) > self._prune_at:
            done = self._done
            self._last = {recipient: number for recipient, number in self._last.items()
                          if number > done}
            self._prune_at = max(self.PRUNE_AT, 2 * len(self._last))
