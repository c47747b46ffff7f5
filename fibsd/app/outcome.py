"""What handling one command produced, as data: lines for recipients, writes, closes.

The bottom rung of the application core (`fibsd.app`), which never touches sockets, threads
or the disk: every handler returns an `Outcome`; the trio shell first commits the outcome's writes to the store (in a
worker thread), and only then delivers the lines, so that nothing acknowledged to a user
can be lost by a crash. Lines are rendered per recipient (CLIP or telnet wording) when they
are delivered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

import attrs

from protocol.messages import LogoutNotice

if TYPE_CHECKING:
    from fibsd.store.api import Store


class Recipient(Protocol):
    """Anyone lines can be delivered to: a logged-in session."""

    @property
    def clip(self) -> bool: ...


@attrs.frozen
class Lines:
    """Lines that read the same for CLIP and telnet users (listings, help texts)."""

    lines: tuple[str, ...]


@attrs.frozen
class ClipBytes:
    """CLIP-only lines already encoded (CRLF-terminated); telnet users get nothing.

    Who-info is the bulk of what a server sends (a login receives one `5` line per user
    online; every status change goes to every CLIP user), so each session keeps its `5`
    line encoded and fan-out joins bytes instead of building messages."""

    data: bytes
    #: The key of the user whose current status `data` states, and nothing else (a `5`
    #: line, with its `6`): a newer one replaces it while it waits in an outbox.
    status_of: str | None = None

    def lines(self) -> list[str]:
        return self.data.decode("utf-8").split("\r\n")[:-1]


Write = Callable[["Store"], None]


@attrs.frozen
class OffLoop:
    """Blocking work (password hashing) to run in a worker thread; `then` continues with
    its result back on the event loop and returns what to deliver."""

    work: Callable[[], object]
    then: Callable[[object], Outcome]


@attrs.define
class Outcome:
    """Deliveries, durable writes and disconnections, in the order they were produced."""

    #: (recipients, message): one entry per message, however many it goes to, so that a
    #: broadcast to thousands of users is one entry rendered once per kind of client.
    deliveries: list[tuple[tuple[Recipient, ...], object]] = attrs.field(factory=list)
    writes: list[Write] = attrs.field(factory=list)
    #: Writes that must wait until the deliveries are queued (deleting shown messages).
    writes_after_delivery: list[Write] = attrs.field(factory=list)
    #: Sessions to disconnect after delivery, with the reason for the log.
    closes: list[tuple[Recipient, str]] = attrs.field(factory=list)
    #: At most one job to run off the event loop after this outcome was applied.
    off_loop: OffLoop | None = None
    #: An administrator asked for a shutdown after this many seconds (with a countdown).
    shutdown_in_seconds: int | None = None
    #: Logout notices (CLIP 8) for everyone with `notify` on. Once this outcome's writes
    #: are committed they join the other departures (`Registry.add_departures`) and go
    #: out together (`Registry.take_departures`): thousands leaving at once reach each
    #: user as one piece.
    departures: list[LogoutNotice] = attrs.field(factory=list)

    def to(self, recipient: Recipient, *messages: object) -> None:
        """Deliver `messages` to `recipient`, in order."""
        recipients = (recipient,)
        for message in messages:
            self.deliveries.append((recipients, message))

    def to_each(self, recipients: Iterable[Recipient], message: object) -> None:
        """Deliver one `message` to every one of `recipients` (a broadcast)."""
        group = tuple(recipients)
        if group:
            self.deliveries.append((group, message))

    def lines(self, recipient: Recipient, *lines: str) -> None:
        """Deliver literal lines (already worded for both kinds of client)."""
        self.deliveries.append(((recipient,), Lines(tuple(lines))))

    def pairs(self) -> Iterator[tuple[Recipient, object]]:
        """Every (recipient, message) delivery, in order (broadcasts expanded)."""
        for recipients, message in self.deliveries:
            for recipient in recipients:
                yield recipient, message

    def write(self, write: Write) -> None:
        """Commit `write` to the store before any of the deliveries are sent."""
        self.writes.append(write)

    def write_after_delivery(self, write: Write) -> None:
        """Commit `write` only after the deliveries were handed to the connections."""
        self.writes_after_delivery.append(write)

    def close(self, recipient: Recipient, reason: str) -> None:
        self.closes.append((recipient, reason))

    def extend(self, other: Outcome) -> None:
        self.deliveries.extend(other.deliveries)
        self.writes.extend(other.writes)
        self.writes_after_delivery.extend(other.writes_after_delivery)
        self.closes.extend(other.closes)
        self.departures.extend(other.departures)
        if other.shutdown_in_seconds is not None:
            self.shutdown_in_seconds = other.shutdown_in_seconds
