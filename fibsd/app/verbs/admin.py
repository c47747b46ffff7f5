"""The operators' commands: broadcast, kick, ban/unban, mute/unmute, shutdown, adduser,
invitecode. Only accounts named in the configuration's `admins` may use them; every use is
logged (who, what, whom).
"""

from __future__ import annotations

import ipaddress
import logging

from fibsd.domain.accounts import Account, new_invitation_codes, password_problem
from fibsd.app.outcome import Job, Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.store.api import NameTaken, Store
from protocol import commands as c
from protocol.messages import TextLine
from protocol.vocabulary import name_problem
from protocol.wording import Text

log = logging.getLogger("fibsd.admin")

BAN_ACCOUNT = "ban-account"
BAN_ADDRESS = "ban-address"
MUTE = "mute"

AdminCommand = (
    c.Broadcast | c.Kick | c.Ban | c.Unban | c.Mute | c.Unmute | c.Shutdown | c.Adduser
    | c.Invitecode
)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def handle(registry: Registry, session: Session, command: AdminCommand, out: Outcome) -> None:
    if not registry.config.is_admin(session.name):
        out.to(session, TextLine.of(Text.PERMISSION_DENIED))
        return
    log.warning("admin %s: %s", session.name, _loggable(command))
    now = registry.clock.now()
    admin = session.name
    match command:
        case c.Broadcast(text):
            line = TextLine.of(Text.BROADCAST, name=admin, text=text)
            for other in registry.sessions():
                out.to(other, line)  # silent users too: this is the operator speaking
        case c.Kick(name):
            victim = registry.find(name)
            if victim is None:
                out.to(session, TextLine.of(Text.NO_ONE_CALLED, name=name))
                return
            _disconnect(victim, out)
            out.to(session, TextLine.of(Text.KICK_DONE, name=victim.name))
        case c.Ban(target, minutes, reason):
            kind = BAN_ADDRESS if _is_address(target) else BAN_ACCOUNT
            until = None if minutes is None else now + 60 * minutes
            out.write(lambda store: store.impose(kind, target, until=until, reason=reason,
                                                 by=admin, at=now))
            if minutes is None:
                out.to(session, TextLine.of(Text.BAN_DONE_FOREVER, target=target))
            else:
                out.to(session, TextLine.of(Text.BAN_DONE, target=target, minutes=minutes))
            for other in registry.sessions():
                hit = other.host == target if kind == BAN_ADDRESS else other.key == target.lower()
                if hit and other is not session:
                    _disconnect(other, out, Text.BANNED)
        case c.Unban(target):
            kind = BAN_ADDRESS if _is_address(target) else BAN_ACCOUNT
            _lift(registry, session, kind, target, Text.UNBAN_DONE, out, field="target")
        case c.Mute(name, minutes):
            target_session = registry.find(name)
            spelled = target_session.name if target_session is not None else name
            until = None if minutes is None else now + 60 * minutes
            out.write(lambda store: store.impose(MUTE, spelled, until=until, reason="",
                                                 by=admin, at=now))
            if target_session is not None:
                target_session.muted_until = float("inf") if until is None else until
            if minutes is None:
                out.to(session, TextLine.of(Text.MUTE_DONE_FOREVER, name=spelled))
            else:
                out.to(session, TextLine.of(Text.MUTE_DONE, name=spelled, minutes=minutes))
        case c.Unmute(name):
            target_session = registry.find(name)
            if target_session is not None:
                target_session.muted_until = None
            _lift(registry, session, MUTE, name, Text.UNMUTE_DONE, out, field="name")
        case c.Shutdown(seconds):
            out.shutdown_in_seconds = 0 if seconds is None else seconds
        case c.Adduser(name, password):
            _adduser(registry, session, name, password, out)
        case c.Invitecode(count):
            codes = new_invitation_codes(count)
            out.write(lambda store: store.add_invitation_codes(codes, by=admin, at=now))
            out.to(session, TextLine.of(Text.INVITECODE_HEADER))
            out.lines(session, *(f"  {code}" for code in codes))


def _loggable(command: AdminCommand) -> str:
    """The command for the log, without any password."""
    if isinstance(command, c.Adduser):
        return f"adduser {command.name}"
    return c.format_command(command)


def _disconnect(target: Session, out: Outcome, text: Text = Text.KICKED) -> None:
    out.to(target, TextLine.of(text))
    target.departure = Departure.DROPPED
    out.close(target, "disconnected by an administrator")


def _lift(registry: Registry, session: Session, kind: str, target: str, done: Text, out: Outcome, *, field: str) -> None:
    # Lifting needs the answer (was there a sanction?), so it reads before it writes.
    if registry.reader.sanction_until(kind, target, registry.clock.now()) is None:
        out.to(session, TextLine.of(Text.NOT_SANCTIONED, target=target))
        return
    out.write(lambda store: _lift_write(store, kind, target))
    out.to(session, TextLine.of(done, **{field: target}))


def _create(store: Store, account: Account) -> None:
    try:
        store.create_account(account)
    except NameTaken:  # registered by someone else a moment ago
        log.warning("adduser %s: the name was taken meanwhile", account.name)


def _lift_write(store: Store, kind: str, target: str) -> None:
    store.lift(kind, target)


def _adduser(registry: Registry, session: Session, name: str, password: str, out: Outcome) -> None:
    if name_problem(name) is not None:
        out.to(session, TextLine.of(Text.NAME_INVALID_CHARACTERS))
        return
    if password_problem(password) is not None:
        out.to(session, TextLine.of(Text.PASSWORD_TOO_SHORT))
        return
    hasher, created_at = registry.hasher, registry.clock.now()

    def work() -> str:
        return hasher.hash(password)

    def then(result: str) -> Outcome:
        follow = Outcome()
        account = Account.new(name, result, created_at)
        follow.write(lambda store: _create(store, account))
        follow.to(session, TextLine.of(Text.ADDUSER_DONE, name=name))
        return follow

    def known(exists: bool) -> Outcome:
        # Whether the name is taken is a cold read: a job, then the hash (another).
        follow = Outcome()
        if exists:
            follow.to(session, TextLine.of(Text.NAME_ALREADY_USED, name=name))
        else:
            follow.run(Job.holding_prompt(work, then, name="adduser"))
        return follow

    out.run(registry.read(lambda store: store.account_exists(name), known, name="adduser: the name"))
