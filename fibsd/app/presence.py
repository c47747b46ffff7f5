"""Arrivals and departures: what a login, a logout, a takeover or a shutdown does.

Presence is the one place where "a user arrived" becomes a greeting, a who list, stored
messages delivered and a dropped match taken up again, and where "a user left" becomes
"their match is saved or waits for them, their watchers are told". It builds on the
registry (who is online, the fan-out) and the lobby (interrupting and reseating
matches); the shell calls it, the registry never does. What an arrival or a departure
finished is handed on to `fibsd.app.aftermath`, like a command's.
"""

from __future__ import annotations

from collections.abc import Sequence

from fibsd.app import aftermath, chouettes, tournaments, watchers
from fibsd.app.lobby.bot_marks import announce_bot_arrival
from fibsd.app.lobby.correspondence import load_correspondence, release_drop
from fibsd.app.lobby.interruptions import Interruption, interrupt, reseat
from fibsd.app.lobby.seating import stop_watching
from fibsd.app.outcome import ClipBytes, Outcome, Write
from fibsd.app.play.table import Table
from fibsd.app.presentation import WHO_INFO_END, local_time, own_info, who_line
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.store.api import StoredMessage
from protocol.listings import short_date
from protocol.messages import (
    LogoutNotice,
    Message,
    MotdBegin,
    MotdEnd,
    TextLine,
    UnknownLine,
    Welcome,
)
from protocol.wording import Text

_INTERRUPTIONS = {
    Departure.LOGGED_OUT: Interruption.LOGGED_OUT,
    Departure.WAVED: Interruption.LOGGED_OUT,
    Departure.DROPPED: Interruption.DROPPED,
    Departure.TIMED_OUT: Interruption.TIMED_OUT,
    Departure.REPLACED: Interruption.REPLACED,
    Departure.SHUT_DOWN: Interruption.SHUT_DOWN,
}

# ------------------------------------------------------------------ arrivals


def log_in(
    registry: Registry,
    session: Session,
    *,
    previous_login_at: float | None,
    previous_host: str | None,
    just_registered: bool = False,
    pending_messages: Sequence[StoredMessage] = (),
) -> Outcome:
    """`session` has authenticated: greet it and tell everybody else.

    `pending_messages` are the messages left for the user while offline, which the shell
    read with the account (the core reads no store on a login)."""
    out = Outcome()
    now = registry.clock.now()
    older = registry.get(session.name)
    taken_over = None
    if older is not None:
        # One session per account: the newer login takes over the older one in place
        # (a half-dead connection must not cost the match). The newcomer is not online
        # yet while the older one leaves: it hears nothing before its own greeting.
        older.departure = Departure.REPLACED
        out.to(older, TextLine.of(Text.CLOSED_OLD_CONNECTION, name=session.name))
        out.close(older, "replaced by a new login")
        registry.remove(older, None)
        taken_over = older.table
        _take_over(older, session)
        if session.waiting_for:
            registry.waiters[session] = None
        leave_everything(registry, older, Departure.REPLACED, out)
    registry.add(session, now)
    session.muted_until = registry.reader.sanction_until("mute", session.name, now)
    name, host = session.name, session.host
    out.write(lambda store: store.record_login(name, now, host))
    _greet(registry, session, out, now, previous_login_at, previous_host, just_registered)
    _deliver_stored_messages(session, pending_messages, out)
    own_line = who_line(session, now)
    everyone = registry.who_list_with(session, own_line, now)
    if session.clip:
        out.to(session, ClipBytes(everyone + WHO_INFO_END))
    registry.announce_arrival(session, own_line + WHO_INFO_END, news=older is None, out=out)
    announce_bot_arrival(registry, session, out)
    _finally_here(registry, session, out)
    _back_to_the_board(registry, session, taken_over, out)
    load_correspondence(registry, session, out)  # (and the reminders, docs/clocks.md)
    chouettes.arrive(registry, session, out)
    tournaments.arrive(registry, session, out)
    return aftermath.hand_on(registry, out)  # (a match resumed at once may have ended)


def _back_to_the_board(registry: Registry, session: Session, taken_over: Table[Session] | None,
                       out: Outcome) -> None:
    """A user who took over a session, or dropped and came back, sits down again."""
    if taken_over is not None:
        reseat(registry, taken_over, session, out, takeover=True)
        return
    waiting = registry.suspended.get(session.key)
    if waiting is not None and any(seat is not None for seat in waiting.seats):
        reseat(registry, waiting, session, out, takeover=False)
    elif waiting is not None:  # (brought back at start, nobody at the table)
        release_drop(registry, waiting, session, out)


def _greet(
    registry: Registry, session: Session, out: Outcome, now: float,
    previous_login_at: float | None, previous_host: str | None, just_registered: bool,
) -> None:
    if session.clip:
        out.to(
            session,
            Welcome(session.name, int(previous_login_at or now), previous_host or session.host),
            own_info(session),
            MotdBegin(),
            *(UnknownLine(line) for line in registry.motd_lines),
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
    out.lines(session, *registry.motd_lines)


def _deliver_stored_messages(session: Session, stored: Sequence[StoredMessage], out: Outcome) -> None:
    """Messages left while offline: shown once, then deleted (CLIP 9, §3.6)."""
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


def _finally_here(registry: Registry, session: Session, out: Outcome) -> None:
    """Tell those who `waitfor` this user, and the user who waited for them (only the
    users who wait for someone are looked at: a login must not cost a pass over everyone)."""
    key = session.key
    for other in list(registry.waiters):  # (in the order they started waiting)
        if other is not session and key in other.waiting_for:
            del other.waiting_for[key]
            out.to(other, TextLine.of(Text.WAITFOR_FINALLY, name=session.name))
            out.to(session, TextLine.of(Text.WAITING_FOR_YOU, name=other.name))
        if not other.waiting_for:
            registry.waiters.pop(other, None)


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


# ---------------------------------------------------------------- departures


def log_out(registry: Registry, session: Session, how: Departure) -> Outcome:
    """`session` has left; idempotent (a replaced session is already gone).

    The notice to users with `notify` on (CLIP 8) is in the outcome's `departures`, for
    `Registry.take_departures`: many users leaving at once (a network failure) then reach
    everyone as one piece instead of one delivery per departure and recipient."""
    out = Outcome()
    now = registry.clock.now()
    if not registry.remove(session, now):
        return out
    leave_everything(registry, session, how, out)
    out.write(_record_logout(session.name, now))
    notice = _logout_notice(session.name, how)
    if notice is not None:
        out.departures.append(notice)
    return aftermath.hand_on(registry, out)


def shut_down(registry: Registry) -> Outcome:
    """The server stops: tell everyone and record their logout."""
    out = Outcome()
    now = registry.clock.now()
    everyone = list(registry.online())
    for session in everyone:
        out.to(session, TextLine.of(Text.SHUTDOWN_NOTICE, seconds=0))
        leave_everything(registry, session, Departure.SHUT_DOWN, out)
        session.departure = Departure.SHUT_DOWN
        out.write(_record_logout(session.name, now))
        out.close(session, "server shutting down")
    registry.clear()
    return aftermath.hand_on(registry, out)


def leave_everything(registry: Registry, session: Session, how: Departure, out: Outcome) -> None:
    """A departing user's match is saved, watchers released, watching stopped (§6.11)."""
    if session.table is not None and how in (Departure.DROPPED, Departure.TIMED_OUT):
        watchers.remember(registry, session)  # (put back when he sits down again)
    interrupt(registry, session, _INTERRUPTIONS[how], out)
    if how is not Departure.REPLACED:  # (a takeover sits the new session down at once)
        chouettes.depart(registry, session, out)
    gone = {
        Departure.DROPPED: Text.WATCHED_DROPS_CONNECTION,
        Departure.TIMED_OUT: Text.WATCHED_TIMED_OUT,
    }.get(how, Text.WATCHED_LOGS_OUT)
    for watcher in list(session.watched_by):
        watcher.watching = None
        if how is not Departure.REPLACED:
            out.to(watcher, TextLine.of(gone, name=session.name))
            registry.announce_status(watcher, out)
    session.watched_by.clear()
    stop_watching(session, out)
    session.invitation = None


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
