"""Who is online, and what everybody is told when a user's status changes.

The registry owns the set of logged-in sessions (one per account, in login order), name
lookup with FIBS's name completion, the status fan-out (CLIP 5/6 who-info to every CLIP
user, the login notice, the who list kept between logins of the same second), the logout
notices waiting to go out together, the matches waiting for a dropped player
(`suspended`), and the recent logins for `last`. It also carries the server's services
the handlers above it use (configuration, store, clock, password hasher, where each
match's dice come from, the roll counter, the MOTD), passed to them as one value.

What an arrival or a departure does to matches is `fibsd.app.presence`'s business; the
registry never imports the lobby. It never awaits and never touches a socket.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from fibsd.app.outcome import Arrival, ClipBytes, Job, Lines, Outcome, StatusChanged
from fibsd.app.play.chouette import ChouetteTable
from fibsd.app.play.match_clock import Deadlines
from fibsd.app.play.table import RollCounts, Table
from fibsd.app.presentation import WHO_INFO_END, who_line
from fibsd.app.session import Session
from fibsd.domain.accounts import Account, name_key
from fibsd.domain.dice import DiceSource, MatchDice
from fibsd.domain.match_analysis import AnalysisQueue
from fibsd.infra.config import Config
from fibsd.infra.motd import load_motd
from fibsd.infra.passwords import PasswordHasher
from fibsd.infra.wallclock import Clock
from fibsd.domain.schedule import Schedule
from fibsd.rules.tournament import Tournament
from fibsd.store.api import Reader, Store

T = TypeVar("T")
from protocol.framing import encode_line
from protocol.messages import LoginNotice, LogoutNotice
from protocol.wording import Text


class Registry:
    """The logged-in users of one server."""

    #: How many logins/logouts `last` remembers.
    RECENT_LOGINS = 20

    def __init__(
        self, *, config: Config, store: Store, clock: Clock, hasher: PasswordHasher,
        dice: DiceSource | None = None,
    ) -> None:
        self.config = config
        #: Where each match's dice come from (tests pass one scripted source for all).
        self.match_dice = MatchDice(dice)
        #: Every roll of the server since it started, as ordered pairs (`dicetest`).
        self.roll_counts: RollCounts = collections.Counter()
        #: The store's hot facts, the only reads the core makes on the event loop
        #: (`fibsd.store.api.Reader`; docs/architecture.md, "Reading the store").
        self.reader: Reader = store
        #: Only for `read`: every other read of the store is a job's.
        self._store = store
        #: The accounts of users who left since the server started (a match claimed
        #: against one of them rates it without reading the store).
        self._gone_accounts: dict[str, Account] = {}
        self.clock = clock
        #: When this server started: a correspondence stint that began before it spans
        #: the downtime, and starts again from here (docs/clocks.md).
        self.started_at = clock.now()
        self.hasher = hasher
        motd = load_motd(config.motd_file)
        if config.club_name not in "\n".join(motd):
            # The club's name is shown in the MOTD too (indented: no line may start 3/4).
            motd = (f"  {config.club_name}", *motd)
        self.motd_lines: tuple[str, ...] = motd
        self._online: dict[str, Session] = {}
        #: Everyone's encoded CLIP 5 lines as of `_who_list_second` (`_who_list_with`).
        self._who_list: bytes | None = None
        self._who_list_second = -1
        #: Logout notices not yet sent (`take_departures`).
        self._departures: list[LogoutNotice] = []
        #: The users online who `waitfor` someone: a login looks only at them.
        self.waiters: dict[Session, None] = {}
        #: Logins not yet announced (`take_arrivals`).
        self._arrivals: list[Arrival] = []
        #: The latest who-info line not yet announced, by user (`take_statuses`).
        self._statuses: dict[str, StatusChanged] = {}
        #: Matches waiting for a dropped player to come back, by the dropper's name key.
        self.suspended: dict[str, Table[Session]] = {}
        #: Who watched a player who dropped out of a match, by his name key, to put
        #: back when he sits down again (`fibsd.app.watchers`).
        self.former_watchers: dict[str, tuple[str, ...]] = {}
        #: The open chouettes by number (`fibsd.app.chouettes` loads the saved ones
        #: on first use, so a restart resumes them).
        self.chouettes: dict[int, ChouetteTable[Session]] = {}
        self.chouettes_loaded = False
        #: Each tournament name's key to the tournament it names: the live one, else the
        #: most recent one over (`fibsd.app.tournaments` loads the saved ones on first
        #: use, so a restart resumes them with all their results).
        self.tournaments: dict[str, Tournament] = {}
        #: Every tournament, over ones included, by its id (a name may be reused).
        self.tournament_records: dict[int, Tournament] = {}
        self.tournaments_loaded = False
        #: The recurring tournaments' schedules by their name's key (`fibsd.app.recurring`
        #: loads the saved ones on first use).
        self.schedules: dict[str, Schedule] = {}
        self.schedules_loaded = False
        #: When running match clocks run out, nearest first (`fibsd.app.play.match_clock`:
        #: the tick looks at its top).
        self.deadlines: Deadlines[Table[Session]] = Deadlines()
        #: Running correspondence matches by the pair's name keys (sorted), seated or not
        #: (`fibsd.app.lobby.correspondence`: they stay in progress across logouts, K7).
        self.correspondence: dict[tuple[str, str], Table[Session]] = {}
        self.peak_online = 0
        #: Matches waiting for engine analysis (the shell fills it from the store at
        #: start-up and says whether gnubg is there; fibsd.app.verbs.analysis).
        self.analysis = AnalysisQueue(capacity=config.analysis_queue_size)
        self._recent: collections.deque[tuple[float, str, Text]] = collections.deque(
            maxlen=self.RECENT_LOGINS
        )

    def recent_logins(self) -> list[tuple[float, str, Text]]:
        """(time, name, how `last` words it) of the latest logins and logouts, oldest first."""
        return list(self._recent)

    # ----------------------------------------------------------------- lookup

    def sessions(self) -> Iterator[Session]:
        """Everyone online, in login order."""
        return iter(list(self._online.values()))

    def online(self) -> Iterable[Session]:
        """Everyone online, in login order, without a copy: do not log anyone in or out
        while iterating (fan-out loops over thousands of users use this)."""
        return self._online.values()

    def online_count(self) -> int:
        return len(self._online)

    def get(self, name: str) -> Session | None:
        """The session of exactly `name` (any case), without completion."""
        return self._online.get(name_key(name))

    def find(self, typed: str) -> Session | None:
        """FIBS name completion: exact name, then a unique prefix (case-sensitive first)."""
        exact = self.get(typed)
        if exact is not None:
            return exact
        if not typed:
            return None
        for case_sensitive in (True, False):
            if case_sensitive:
                matches = [s for s in self._online.values() if s.name.startswith(typed)]
            else:
                lowered = typed.lower()
                matches = [s for s in self._online.values() if s.name.lower().startswith(lowered)]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                return None
        return None

    # ------------------------------------------------------- who is here

    def add(self, session: Session, now: float) -> None:
        """`session` is online now (an older session of its account was removed first)."""
        assert session.key not in self._online, "one session per account"
        self._online[session.key] = session
        self._gone_accounts.pop(session.key, None)
        self.peak_online = max(self.peak_online, len(self._online))
        self._recent.append((now, session.name, Text.LAST_LOGIN_ENTRY))

    def remove(self, session: Session, now: float | None) -> bool:
        """`session` is gone (`now` None: not a logout for `last`, e.g. a shutdown's);
        False if it was not the online session of its account."""
        key = session.key
        if self._online.get(key) is not session:
            return False
        del self._online[key]
        self.waiters.pop(session, None)
        self._gone_accounts[key] = session.account
        self._who_list = None
        if now is not None:
            self._recent.append((now, session.name, Text.LAST_LOGOUT_ENTRY))
        return True

    def known_account(self, name: str) -> Account | None:
        """The account of `name` as this server last saw it: an online user's, or that of
        a user who left since it started (None otherwise: then read it in a job)."""
        online = self.get(name)
        if online is not None:
            return online.account
        return self._gone_accounts.get(name_key(name))

    def remember_account(self, account: Account) -> None:
        """An offline user's account as the core last changed it (a rating read through
        the store and changed: `fibsd.app.lobby.rating`), known from now on like a gone
        user's, so the next change builds on it rather than on an older read."""
        if self.get(account.name) is None:
            self._gone_accounts[name_key(account.name)] = account

    def update_gone_account(self, account: Account) -> None:
        """A user who left changed (their rating, after a match claimed against them)."""
        key = name_key(account.name)
        if key in self._gone_accounts:
            self._gone_accounts[key] = account

    def read(self, query: Callable[[Store], T], then: Callable[[T], Outcome], *,
             name: str) -> Job[T]:
        """A cold read of the store as a job that holds the issuer's prompt: `query` runs
        in a worker thread with the store, `then` continues in the core with its answer
        (and must check again what may have changed meanwhile)."""
        store = self._store
        return Job.holding_prompt(lambda: query(store), then, name=name)

    def who_list_with(self, newcomer: Session, line: bytes, now: float) -> bytes:
        """Every online user's CLIP 5 line, `newcomer` (just added, last) included.

        Kept between logins within the same second: a login storm would otherwise build
        every user's line again for every newcomer. Idle times in it are at most a second
        old; any status change or departure drops it (`announce_status`, `remove`)."""
        second = int(now)
        if self._who_list is not None and self._who_list_second == second:
            self._who_list += line
        else:
            self._who_list = b"".join(who_line(other, now) for other in self._online.values())
            self._who_list_second = second
        return self._who_list

    def announce_arrival(self, session: Session, status: bytes, *, news: bool, out: Outcome) -> None:
        """Everyone else is to learn of `session`: its who-info (CLIP) and, for users with
        `notify` on, the login notice (not when a login replaced the same user's: they
        never left). It waits in `out.arrivals` for the shell, which announces the logins
        committed meanwhile together (`take_arrivals`)."""
        out.arrivals.append(Arrival(session, status, news))

    def add_arrivals(self, arrivals: list[Arrival]) -> None:
        """Logins whose writes are committed, to announce with `take_arrivals`."""
        self._arrivals.extend(arrivals)

    @property
    def arrivals_pending(self) -> bool:
        return bool(self._arrivals)

    def take_arrivals(self) -> Outcome:
        """The logins since the last call, in order, announced to everyone online: one
        piece for each kind of user (CLIP or telnet, `notify` on or off), built once. A
        user who is one of these arrivals hears only of those after his own (his who
        list had the earlier ones), and one who has left meanwhile hears of none."""
        out = Outcome()
        if not self._arrivals:
            return out
        arrivals, self._arrivals = self._arrivals, []
        parts = _ArrivalParts(arrivals)
        newcomers = {id(arrival.session): n for n, arrival in enumerate(arrivals)}
        clip_notified: list[Session] = []
        clip_other: list[Session] = []
        telnet_notified: list[Session] = []
        for other in self._online.values():
            position = newcomers.get(id(other))
            notify = other.account.toggles.notify
            if position is not None:  # one of this batch: only the later ones
                if position + 1 < len(arrivals):
                    if other.clip:
                        out.to(other, ClipBytes(parts.clip(notify, position + 1)))
                    elif notify:
                        out.to(other, Lines(tuple(parts.telnet_after(position + 1))))
            elif other.clip:
                (clip_notified if notify else clip_other).append(other)
            elif notify:
                telnet_notified.append(other)
        out.to_each(clip_notified, ClipBytes(parts.clip(True, 0)))
        out.to_each(clip_other, ClipBytes(parts.clip(False, 0)))
        out.to_each(telnet_notified, Lines(tuple(parts.telnet_after(0))))
        return out

    def clear(self) -> None:
        """Everyone leaves at once (a shutdown)."""
        self._online.clear()
        self.waiters.clear()
        self._who_list = None
        self._arrivals.clear()
        self._statuses.clear()

    # ------------------------------------------------------------ departures

    def add_departures(self, notices: list[LogoutNotice]) -> None:
        """Logout notices whose departures are committed, to send with `take_departures`."""
        self._departures.extend(notices)

    @property
    def departures_pending(self) -> bool:
        return bool(self._departures)

    def take_departures(self) -> Outcome:
        """The logout notices of everyone who left since the last call, in order, as one
        piece for each user online with `notify` on. The shell delivers this before any
        other outcome and before anyone logs in, so nothing said after a departure
        reaches anyone before its notice, and nobody hears of a departure from before
        their own arrival."""
        out = Outcome()
        if not self._departures:
            return out
        notices, self._departures = self._departures, []
        clip: list[Session] = []
        telnet: list[Session] = []
        for other in self._online.values():
            if other.account.toggles.notify:
                (clip if other.clip else telnet).append(other)
        out.to_each(clip, ClipBytes(b"".join(encode_line(n.clip_line()) for n in notices)))
        out.to_each(telnet, Lines(tuple(line for n in notices for line in n.telnet_lines())))
        return out

    # ---------------------------------------------------------------- status

    def announce_status(
        self, session: Session, out: Outcome, *, now: float | None = None,
    ) -> None:
        """`session`'s who-info (5 then 6) to every CLIP user (§3.4): to the user at once,
        in the order of what it answers, and to everyone else with the next batch of
        status changes (`out.statuses`, `take_statuses`), where only the latest counts."""
        self._who_list = None  # its line in the cached who list may have changed
        line = who_line(session, self.clock.now() if now is None else now)
        if session.clip and self._online.get(session.key) is session:
            out.to(session, ClipBytes(line + WHO_INFO_END, status_of=session.key))
        out.statuses.append(StatusChanged(session, line))

    def add_statuses(self, changes: list[StatusChanged]) -> None:
        """Status changes to announce with `take_statuses` (a later one of the same user
        replaces an earlier one: the last state wins)."""
        for change in changes:
            self._statuses.pop(change.session.key, None)  # (keep the order of the changes)
            self._statuses[change.session.key] = change

    @property
    def statuses_pending(self) -> bool:
        return bool(self._statuses)

    def take_statuses(self) -> Outcome:
        """The latest who-info of every user whose status changed since the last call and
        who is still online, to every CLIP user as one piece. The users themselves had
        their own line at once (`announce_status`) and get the piece without it, unless
        the batch is so large that a piece per user would cost as much as the fan-out it
        replaces: then a repeat of the same state is the lesser harm."""
        out = Outcome()
        if not self._statuses:
            return out
        changes, self._statuses = self._statuses, {}
        online = self._online
        current = [change for key, change in changes.items() if online.get(key) is change.session]
        if not current:
            return out
        lines = [change.line for change in current]
        piece = ClipBytes(b"".join(lines) + WHO_INFO_END)
        own = {} if len(current) > _OWN_PIECES_UP_TO else {
            id(change.session): index for index, change in enumerate(current)}
        others: list[Session] = []
        for other in online.values():
            if not other.clip:
                continue
            index = own.get(id(other))
            if index is None:
                others.append(other)
            elif len(lines) > 1:
                rest = lines[:index] + lines[index + 1:]
                out.to(other, ClipBytes(b"".join(rest) + WHO_INFO_END))
        out.to_each(others, piece)
        return out


#: Up to this many status changes in a batch, each user gets the batch without its own.
_OWN_PIECES_UP_TO = 64


class _ArrivalParts:
    """A batch of arrivals encoded once per kind of recipient, each login apart (so that a
    newcomer of the batch gets the ones after his own without encoding them again)."""

    def __init__(self, arrivals: list[Arrival]) -> None:
        notices = [LoginNotice.logs_in(arrival.session.name) if arrival.news else None
                   for arrival in arrivals]
        self.statuses = [arrival.status for arrival in arrivals]
        #: CLIP with `notify`: `7 NAME NAME logs in.` (when news) and the who-info.
        self.notified = [
            (b"" if notice is None else encode_line(notice.clip_line())) + arrival.status
            for notice, arrival in zip(notices, arrivals)]
        #: Telnet with `notify`: `NAME logs in.`, or None when not news.
        self.telnet = [None if notice is None else notice.text for notice in notices]

    def clip(self, notify: bool, start: int) -> bytes:
        return b"".join((self.notified if notify else self.statuses)[start:])

    def telnet_after(self, start: int) -> list[str]:
        return [line for line in self.telnet[start:] if line is not None]
