"""What handling one command produced, as data: lines for recipients, writes, closes,
the matches it finished and the jobs it leaves to run elsewhere.

The bottom rung of the application core (`fibsd.app`), which never touches sockets, threads
or the disk: every handler returns an `Outcome`; the trio shell first commits the outcome's writes to the store (in a
worker thread), and only then delivers the lines, so that nothing acknowledged to a user
can be lost by a crash. Lines are rendered per recipient (CLIP or telnet wording) when they
are delivered.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

import attrs

from protocol.messages import LogoutNotice, ServerMessage

if TYPE_CHECKING:
    from fibsd.store.api import Store


class Recipient(Protocol):
    """Anyone lines can be delivered to: a logged-in session (`fibsd.app.session.Session`).

    What the shell reads of a recipient to deliver to it: how to word its lines, whether
    it gets prompts, and whether it is leaving (then it gets no new prompt)."""

    @property
    def name(self) -> str: ...
    @property
    def clip(self) -> bool: ...
    @property
    def clip_version(self) -> int: ...
    @property
    def extensions(self) -> bool: ...
    @property
    def prompts(self) -> bool: ...
    @property
    def departure(self) -> object | None: ...
    def __hash__(self) -> int: ...


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


#: What can be delivered: a message of the codec (worded per recipient when it is
#: delivered), literal lines, or CLIP lines already encoded.
Delivery: TypeAlias = ServerMessage | Lines | ClipBytes

Write = Callable[["Store"], None]


T = TypeVar("T")


@attrs.frozen
class Job(Generic[T]):
    """Work that must not run on the event loop, and what to do with its result.

    `work` runs in a worker thread (the shell) or inline (the test driver); `then` runs
    back in the core with its result and returns what that produced, applied like any
    outcome. A job that `holds_prompt` (password hashing) keeps the issuer waiting: its
    command loop reads nothing more and its prompt comes after `then`'s lines. A
    background job (`holds_prompt=False`: engine analysis, a slow read) runs beside
    everything else; the issuer gets the prompt at once, and `then`'s lines arrive later
    like anyone else's (from nobody: `then`'s outcome has no issuer)."""

    work: Callable[[], T]
    then: Callable[[T], Outcome]
    holds_prompt: bool
    #: What the job is, for the log when it fails.
    name: str = "job"

    @classmethod
    def holding_prompt(cls, work: Callable[[], T], then: Callable[[T], Outcome],
                       *, name: str = "job") -> Job[T]:
        return cls(work, then, holds_prompt=True, name=name)

    @classmethod
    def background(cls, work: Callable[[], T], then: Callable[[T], Outcome],
                   *, name: str = "job") -> Job[T]:
        return cls(work, then, holds_prompt=False, name=name)

    def followed_by(self, after: Callable[[Outcome], Outcome]) -> Job[T]:
        """This job with `after` applied to what its `then` returns."""
        then = self.then
        return attrs.evolve(self, then=lambda result: after(then(result)))


class Ending(enum.Enum):
    """How a match ended."""

    #: The last game was played out (borne off).
    BORNE_OFF = enum.auto()
    #: The last game ended with a refused double.
    DOUBLE_PASSED = enum.auto()
    #: The last game ended with an accepted resignation.
    RESIGNED = enum.auto()
    #: A player's time ran out (match clocks).
    TIME = enum.auto()
    #: The opponent dropped and did not come back in time; the match was claimed.
    CLAIMED = enum.auto()


@attrs.define
class RecordSlot:
    """The id of a finished match's record, known once its write is committed."""

    id: int | None = None


@attrs.frozen
class TournamentTag:
    """The tag a match started by a tournament carries (docs/tournaments.md): which
    tournament, which round and which pairing of that round. The table keeps it (and
    saves it with the match), and `MatchFinished` hands it back: the tournament finds the
    pairing by it, never by the players' names and the match length."""

    #: The tournament's name (as it was when the match started; names are reused).
    tournament: str
    #: The round, from 1.
    round: int
    #: The pairing's place in that round, from 0.
    pairing: int
    #: The tournament's id (its key in the registry's tournaments): a saved match of a
    #: finished tournament never credits a new one of the same name. 0: a tag saved
    #: before tournaments had ids (it names the live tournament of that name).
    id: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "round": self.round, "pairing": self.pairing, "id": self.id}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentTag:
        """ValueError if `data` is not a saved tag."""
        try:
            return cls(str(data["tournament"]), int(data["round"]), int(data["pairing"]), int(data.get("id", 0)))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a tournament tag: {error!r}") from error


@attrs.frozen
class MatchFinished:
    """One match that ended, as data for whoever acts on a match's end (tournaments,
    the analysis queue): `fibsd.app.lobby.conclusion.finish_match` appends one to the
    outcome, and the top rungs hand it on through `fibsd.app.aftermath`."""

    #: The players' names, seat 0 (the inviter) first.
    players: tuple[str, str]
    #: The winner's seat (0 or 1).
    winner: int
    #: The final score, seat 0 first.
    score: tuple[int, int]
    #: The match length (None: an unlimited match).
    length: int | None
    started_at: float
    finished_at: float
    #: Whether the players' ratings changed (a match to a length between two accounts).
    rated: bool
    ending: Ending
    #: The tournament pairing this match was played for (None: not a tournament's).
    tournament: TournamentTag | None = None
    #: The match record's id: None until the record's write is committed (jobs, which
    #: run after the commit, see it).
    record: RecordSlot = attrs.field(factory=RecordSlot, eq=False)

    @property
    def winner_name(self) -> str:
        return self.players[self.winner]

    @property
    def loser_name(self) -> str:
        return self.players[1 - self.winner]

    @property
    def record_id(self) -> int | None:
        return self.record.id


@attrs.frozen
class Arrival:
    """A login to announce: who (a session), its who-info (CLIP `5` and `6`), and whether
    it is news (a login that replaced the same user's session is not: they never left)."""

    session: Any
    status: bytes
    news: bool


@attrs.frozen
class StatusChanged:
    """A user's new who-info (its CLIP `5` line, encoded), to announce to everyone."""

    session: Any
    line: bytes


@attrs.define
class Outcome:
    """Deliveries, durable writes and disconnections, in the order they were produced."""

    #: (recipients, message): one entry per message, however many it goes to, so that a
    #: broadcast to thousands of users is one entry rendered once per kind of client.
    deliveries: list[tuple[tuple[Recipient, ...], Delivery]] = attrs.field(factory=list)
    writes: list[Write] = attrs.field(factory=list)
    #: Writes that must wait until the deliveries are queued (deleting shown messages).
    writes_after_delivery: list[Write] = attrs.field(factory=list)
    #: Sessions to disconnect after delivery, with the reason for the log.
    closes: list[tuple[Recipient, str]] = attrs.field(factory=list)
    #: Jobs to run off the event loop once this outcome's writes are committed and its
    #: lines delivered (`Job`): the ones that hold the issuer's prompt in order, before
    #: the issuer's next command; background ones beside everything else.
    jobs: list[Job[Any]] = attrs.field(factory=list)
    #: The matches this outcome finished, for `fibsd.app.aftermath` to hand on.
    finished: list[MatchFinished] = attrs.field(factory=list)
    #: An administrator asked for a shutdown after this many seconds (with a countdown).
    shutdown_in_seconds: int | None = None
    #: Logout notices (CLIP 8) for everyone with `notify` on. Once this outcome's writes
    #: are committed they join the other departures (`Registry.add_departures`) and go
    #: out together (`Registry.take_departures`): thousands leaving at once reach each
    #: user as one piece.
    departures: list[LogoutNotice] = attrs.field(factory=list)
    #: Users who logged in, to announce to everyone else (`Registry.add_arrivals`): once
    #: this outcome's writes are committed they wait for the next batch of arrivals, so
    #: that a login storm reaches each user in a few pieces a second, not one per login.
    arrivals: list[Arrival] = attrs.field(factory=list)
    #: Users whose who-info changed, to announce to every CLIP user with the next batch
    #: (`Registry.add_statuses`): only each user's latest line goes out.
    statuses: list[StatusChanged] = attrs.field(factory=list)
    #: Finished matches (record ids) to hand to the analysis workers once this outcome's
    #: writes (which store the jobs) are committed (docs/analysis.md).
    analyses: list[int] = attrs.field(factory=list)

    def to(self, recipient: Recipient, *messages: Delivery) -> None:
        """Deliver `messages` to `recipient`, in order."""
        recipients = (recipient,)
        for message in messages:
            self.deliveries.append((recipients, message))

    def to_each(self, recipients: Iterable[Recipient], message: Delivery) -> None:
        """Deliver one `message` to every one of `recipients` (a broadcast)."""
        group = tuple(recipients)
        if group:
            self.deliveries.append((group, message))

    def lines(self, recipient: Recipient, *lines: str) -> None:
        """Deliver literal lines (already worded for both kinds of client)."""
        self.deliveries.append(((recipient,), Lines(tuple(lines))))

    def pairs(self) -> Iterator[tuple[Recipient, Delivery]]:
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

    def run(self, job: Job[Any]) -> None:
        """Run `job` off the event loop after this outcome (see `jobs`)."""
        self.jobs.append(job)

    @property
    def holds_prompt(self) -> bool:
        """Whether the issuer's prompt waits for a job's follow-up."""
        return any(job.holds_prompt for job in self.jobs)

    def extend(self, other: Outcome) -> None:
        self.deliveries.extend(other.deliveries)
        self.writes.extend(other.writes)
        self.writes_after_delivery.extend(other.writes_after_delivery)
        self.closes.extend(other.closes)
        self.departures.extend(other.departures)
        self.arrivals.extend(other.arrivals)
        self.statuses.extend(other.statuses)
        self.analyses.extend(other.analyses)
        self.jobs.extend(other.jobs)
        self.finished.extend(other.finished)
        if other.shutdown_in_seconds is not None:
            self.shutdown_in_seconds = other.shutdown_in_seconds
