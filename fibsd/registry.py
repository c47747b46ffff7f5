"""Who is online: logins, logouts and the status fan-out, synchronously.

The registry owns the set of logged-in sessions (one per account, in login order), name
lookup with FIBS's name completion, the MOTD, and what everybody else is told when a user
arrives, leaves or changes status (CLIP 5/6 who-info, CLIP 7/8 notices, `waitfor` alerts).
It never awaits and never touches a socket: every method returns an `Outcome`.
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from fibsd.accounts import name_key
from fibsd.clock import Clock
from fibsd.config import Config, load_motd
from fibsd.dice import DiceSource
from fibsd.fairdice import SeededDice
from fibsd.outcome import ClipBytes, Lines, Outcome, Write
from fibsd.passwords import PasswordHasher
from fibsd.presentation import WHO_INFO_END, local_time, own_info, who_line
from fibsd.store import Store
from protocol.framing import encode_line
from protocol.listings import short_date
from protocol.messages import (
    LoginNotice,
    LogoutNotice,
    Message,
    MotdBegin,
    MotdEnd,
    TextLine,
    UnknownLine,
    Welcome,
)
from protocol.wording import Text

if TYPE_CHECKING:
    from fibsd.play.table import Table
    from fibsd.session import Session


class Departure(enum.Enum):
    """How a user left; decides what the others are told."""

    LOGGED_OUT = enum.auto()  # bye, quit, ...
    WAVED = enum.auto()  # wave twice
    DROPPED = enum.auto()  # the connection broke or was cut (line too long, slow reader)
    TIMED_OUT = enum.auto()  # idle timeout
    REPLACED = enum.auto()  # the same account logged in again elsewhere
    SHUT_DOWN = enum.auto()  # the server is stopping


class Registry:
    """The logged-in users of one server."""

    #: How many logins/logouts `last` remembers.
    RECENT_LOGINS = 20

    def __init__(
        self, *, config: Config, store: Store, clock: Clock, hasher: PasswordHasher,
        dice: DiceSource | None = None,
    ) -> None:
        self.config = config
        #: Tests pass one scripted source for every match; otherwise each match gets its
        #: own seeded, committed source (fibsd.fairdice).
        self._shared_dice = dice
        #: Every roll of the server since it started, as ordered pairs (`dicetest`).
        self.roll_counts: collections.Counter[tuple[int, int]] = collections.Counter()
        self.store = store
        self.clock = clock
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
        #: Matches waiting for a dropped player to come back, by the dropper's name key.
        self.suspended: dict[str, Table] = {}
        self.peak_online = 0
        self._recent: collections.deque[tuple[float, str, Text]] = collections.deque(
            maxlen=self.RECENT_LOGINS
        )

    def new_match_dice(self) -> DiceSource:
        """The dice of a new match."""
        return self._shared_dice if self._shared_dice is not None else SeededDice.new()

    def restored_match_dice(self, saved: dict[str, object] | None) -> DiceSource:
        """The dice of a resumed match: its own stream, continued where it stopped."""
        if self._shared_dice is not None:
            return self._shared_dice
        if saved is not None:
            try:
                return SeededDice.from_dict(saved)
            except (ValueError, KeyError, TypeError):
                pass
        return SeededDice.new()  # a match saved before seeded dice: fresh, still fair

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

    # ------------------------------------------------------------ arrivals

    def log_in(
        self,
        session: Session,
        *,
        previous_login_at: float | None,
        previous_host: str | None,
        just_registered: bool = False,
    ) -> Outcome:
        """`session` has authenticated: greet it and tell everybody else."""
        out = Outcome()
        now = self.clock.now()
        key = name_key(session.name)
        older = self._online.get(key)
        taken_over = None
        if older is not None:
            # One session per account: the newer login takes over the older one in place
            # (a half-dead connection must not cost the match).
            older.departure = Departure.REPLACED
            out.to(older, TextLine.of(Text.CLOSED_OLD_CONNECTION, name=session.name))
            out.close(older, "replaced by a new login")
            del self._online[key]
            taken_over = older.table
            _take_over(older, session)
            self._leave_everything(older, Departure.REPLACED, out)
        self._online[key] = session
        session.muted_until = self.store.sanction_until("mute", session.name, now)
        self.peak_online = max(self.peak_online, len(self._online))
        self._recent.append((now, session.name, Text.LAST_LOGIN_ENTRY))
        name, host = session.name, session.host
        out.write(lambda store: store.record_login(name, now, host))
        self._greet(session, out, now, previous_login_at, previous_host, just_registered)
        self._deliver_stored_messages(session, out)
        if older is not None:
            self._who_list = None  # the order of the online users changed
        own_line = who_line(session, now)
        everyone = self._who_list_with(session, own_line, now)
        if session.clip:
            out.to(session, ClipBytes(everyone + WHO_INFO_END))
        self._announce_arrival(session, own_line + WHO_INFO_END, news=older is None, out=out)
        self._finally_here(session, out)
        self._back_to_the_board(session, taken_over, out)
        return out

    def _who_list_with(self, newcomer: Session, line: bytes, now: float) -> bytes:
        """Every online user's CLIP 5 line, `newcomer` (just added, last) included.

        Kept between logins within the same second: a login storm would otherwise build
        every user's line again for every newcomer. Idle times in it are at most a second
        old; any status change or departure drops it (`announce_status`, `log_out`)."""
        second = int(now)
        if self._who_list is not None and self._who_list_second == second:
            self._who_list += line
        else:
            self._who_list = b"".join(who_line(other, now) for other in self._online.values())
            self._who_list_second = second
        return self._who_list

    def _announce_arrival(self, session: Session, status: bytes, *, news: bool, out: Outcome) -> None:
        """Everyone else learns of `session`: its who-info (CLIP) and, for users with
        `notify` on, the login notice (not when a login replaced the same user's: they
        never left). Each recipient gets one piece, built once per kind of recipient."""
        notice = LoginNotice.logs_in(session.name)
        clip_notice = ClipBytes(encode_line(notice.clip_line()) + status)
        clip_status = ClipBytes(status, status_of=session.key)
        notified_clip: list[Session] = []
        other_clip: list[Session] = []
        notified_telnet: list[Session] = []
        for other in self._online.values():
            if other is session:
                continue
            notify = news and other.account.toggles.notify
            if other.clip:
                (notified_clip if notify else other_clip).append(other)
            elif notify:
                notified_telnet.append(other)
        out.to_each(notified_clip, clip_notice)
        out.to_each(other_clip, clip_status)
        out.to_each(notified_telnet, notice)

    def _back_to_the_board(self, session: Session, taken_over: Table | None, out: Outcome) -> None:
        """A user who took over a session, or dropped and came back, sits down again."""
        from fibsd.play.lobby import reseat

        if taken_over is not None:
            reseat(self, taken_over, session, out, takeover=True)
            return
        waiting = self.suspended.get(session.key)
        if waiting is not None and any(seat is not None for seat in waiting.seats):
            reseat(self, waiting, session, out, takeover=False)

    def _greet(
        self, session: Session, out: Outcome, now: float, previous_login_at: float | None,
        previous_host: str | None, just_registered: bool,
    ) -> None:
        if session.clip:
            out.to(
                session,
                Welcome(session.name, int(previous_login_at or now), previous_host or session.host),
                own_info(session),
                MotdBegin(),
                *(UnknownLine(line) for line in self.motd_lines),
                MotdEnd(),
                UnknownLine(""),
            )
            return
        if just_registered:
            return
        out.to(session, TextLine.of(Text.USER_AUTHENTICATED, name=session.name))
        if previous_login_at is not None:
            zone = session.account.variables.timezone
            out.to(session, TextLine.of(
                Text.LAST_LOGIN,
                date=short_date(local_time(previous_login_at, zone), zone),
                host=previous_host or "-",
            ))
        out.lines(session, *self.motd_lines)

    def _deliver_stored_messages(self, session: Session, out: Outcome) -> None:
        """Messages left while offline: shown once, then deleted (CLIP 9, §3.6)."""
        stored = self.store.pending_messages(session.name)
        if not stored:
            return
        if not session.clip:
            out.to(session, TextLine.of(Text.MESSAGES_FOR_YOU))
        for message in stored:
            out.to(session, Message(message.sender, int(message.sent_at), message.text))
        ids = [message.id for message in stored]
        # Deleted once they are queued for the user, never before (a crash in between
        # shows them again rather than losing them).
        out.write_after_delivery(lambda store: store.delete_messages(ids))

    def _finally_here(self, session: Session, out: Outcome) -> None:
        """Tell those who `waitfor` this user, and the user who waited for them."""
        key = name_key(session.name)
        for other in self._online.values():
            if other is not session and key in other.waiting_for:
                del other.waiting_for[key]
                out.to(other, TextLine.of(Text.WAITFOR_FINALLY, name=session.name))
                out.to(session, TextLine.of(Text.WAITING_FOR_YOU, name=other.name))

    # ------------------------------------------------------------ departures

    def log_out(self, session: Session, how: Departure) -> Outcome:
        """`session` has left; idempotent (a replaced session is already gone).

        The notice to users with `notify` on (CLIP 8) is in the outcome's `departures`,
        for `take_departures`: many users leaving at once (a network failure) then reach
        everyone as one piece instead of one delivery per departure and recipient."""
        out = Outcome()
        key = name_key(session.name)
        if self._online.get(key) is not session:
            return out
        del self._online[key]
        self._who_list = None
        self._leave_everything(session, how, out)
        now = self.clock.now()
        self._recent.append((now, session.name, Text.LAST_LOGOUT_ENTRY))
        out.write(_record_logout(session.name, now))
        notice = _logout_notice(session.name, how)
        if notice is not None:
            out.departures.append(notice)
        return out

    def add_departures(self, notices: list[object]) -> None:
        """Logout notices whose departures are committed, to send with `take_departures`."""
        for notice in notices:
            assert isinstance(notice, LogoutNotice)
            self._departures.append(notice)

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

    def shut_down(self) -> Outcome:
        """The server stops: tell everyone and record their logout."""
        out = Outcome()
        now = self.clock.now()
        for session in list(self._online.values()):
            out.to(session, TextLine.of(Text.SHUTDOWN_NOTICE, seconds=0))
            self._leave_everything(session, Departure.SHUT_DOWN, out)
            session.departure = Departure.SHUT_DOWN
            out.write(_record_logout(session.name, now))
            out.close(session, "server shutting down")
        self._online.clear()
        self._who_list = None
        return out

    def _leave_everything(self, session: Session, how: Departure, out: Outcome) -> None:
        """A departing user's match is saved, watchers released, watching stopped (§6.11)."""
        from fibsd.play.lobby import Interruption, interrupt, stop_watching

        interruption = {
            Departure.LOGGED_OUT: Interruption.LOGGED_OUT,
            Departure.WAVED: Interruption.LOGGED_OUT,
            Departure.DROPPED: Interruption.DROPPED,
            Departure.TIMED_OUT: Interruption.TIMED_OUT,
            Departure.REPLACED: Interruption.REPLACED,
            Departure.SHUT_DOWN: Interruption.SHUT_DOWN,
        }[how]
        interrupt(self, session, interruption, out)
        gone = {
            Departure.DROPPED: Text.WATCHED_DROPS_CONNECTION,
            Departure.TIMED_OUT: Text.WATCHED_TIMED_OUT,
        }.get(how, Text.WATCHED_LOGS_OUT)
        for watcher in list(session.watched_by):
            watcher.watching = None
            if how is not Departure.REPLACED:
                out.to(watcher, TextLine.of(gone, name=session.name))
                self.announce_status(watcher, out)
        session.watched_by.clear()
        stop_watching(session, out)
        session.invitation = None

    # ---------------------------------------------------------------- status

    def announce_status(
        self, session: Session, out: Outcome, *, now: float | None = None,
        skip: Session | None = None,
    ) -> None:
        """Send `session`'s who-info (5 then 6) to every CLIP user (§3.4)."""
        self._who_list = None  # its line in the cached who list may have changed
        line = who_line(session, self.clock.now() if now is None else now)
        out.to_each(
            (other for other in self._online.values() if other.clip and other is not skip),
            ClipBytes(line + WHO_INFO_END, status_of=session.key),
        )


def _take_over(older: Session, newer: Session) -> None:
    """Move what FIBS keeps per session (until logout) to the session that replaces it."""
    newer.gagged.update(older.gagged)
    newer.blinded.update(older.blinded)
    newer.waiting_for.update(older.waiting_for)
    newer.received_messages.extend(older.received_messages)
    newer.away_message = older.away_message
    for watcher in older.watched_by:
        watcher.watching = newer
        newer.watched_by.add(watcher)
    older.watched_by.clear()
    table = older.table
    if table is not None:
        seat = table.seat_of(older)
        if seat is not None:
            table.seats[seat] = None  # reseat() puts the newer session there
        older.table = None


def _record_logout(name: str, at: float) -> Write:
    return lambda store: store.record_logout(name, at)


def _logout_notice(name: str, how: Departure) -> LogoutNotice | None:
    match how:
        case Departure.LOGGED_OUT:
            return LogoutNotice.logs_out(name)
        case Departure.WAVED:
            return LogoutNotice.waves_goodbye_again(name)
        case Departure.DROPPED | Departure.TIMED_OUT:
            return LogoutNotice.drops_connection(name)
        case Departure.REPLACED | Departure.SHUT_DOWN:
            return None
