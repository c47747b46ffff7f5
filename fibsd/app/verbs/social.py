"""Talking and presence: tell, shout, message, waitfor, gag, blind, away, back, bye, wave.

Wording and rules from the FIBS reference §5.1, §5.2 (away/back) and §2.4 (logging out).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fibsd.domain.accounts import Account, name_key
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from protocol import commands as c
from protocol.listings import away_lines, waitfor_lines
from protocol.messages import (
    Message,
    MessageDelivered,
    MessageSaved,
    Says,
    Shouts,
    TextLine,
    YouSay,
    YouShout,
)
from protocol.wording import Text, goodbye_lines

if TYPE_CHECKING:
    from fibsd.store.api import Store


def refuse_if_muted(registry: Registry, session: Session, out: Outcome) -> bool:
    """An operator muted this user: nothing they say reaches anyone."""
    if session.is_muted(registry.clock.now()):
        out.to(session, TextLine.of(Text.MUTED))
        return True
    return False


def tell(registry: Registry, session: Session, command: c.Tell, out: Outcome) -> None:
    if refuse_if_muted(registry, session, out):
        return
    target = registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED, name=command.name))
        return
    if target is session:
        out.to(session, TextLine.of(Text.SAY_TO_YOURSELF, text=command.text))
        return
    if target.key in session.gagged:
        out.to(session, TextLine.of(Text.CANT_TALK_IF_WONT_LISTEN))
        return
    if session.key in target.gagged:
        out.to(session, TextLine.of(Text.WONT_LISTEN, name=target.name))
        return
    table = session.chouette
    if table is not None and target.chouette is table and not table.engine.may_talk_privately(
            table.seated_name(session.name) or session.name, table.seated_name(target.name) or target.name):
        # C43: two players of a running chouette game talk only as the table allows.
        out.to(session, TextLine.of(Text.CHOUETTE_PRIVATE_REFUSED))
        return
    out.to(target, Says(session.name, command.text))
    out.to(session, YouSay(target.name, command.text))
    if target.away_message is not None:
        out.to(session, TextLine.of(Text.IS_AWAY, name=target.name, text=target.away_message))


def shout(registry: Registry, session: Session, command: c.Shout, out: Outcome) -> None:
    if session.account.toggles.silent:
        out.to(session, TextLine.of(Text.SILENT_SHOUT))
        return
    if refuse_if_muted(registry, session, out):
        return
    now = registry.clock.now()
    interval = registry.config.shout_interval_seconds
    if session.last_shout_at is not None and now - session.last_shout_at < interval:
        wait = max(1, int(interval - (now - session.last_shout_at) + 0.999))
        out.to(session, TextLine.of(Text.SHOUT_TOO_SOON, seconds=wait))
        return
    session.last_shout_at = now
    heard = Shouts(session.name, command.text)
    for other in registry.sessions():
        if other is session or other.account.toggles.silent or session.key in other.gagged:
            continue
        out.to(other, heard)
    out.to(session, YouShout(command.text))


def message(registry: Registry, session: Session, command: c.Message, out: Outcome) -> None:
    """Leave a message: delivered now if the user is online, else stored (CLIP 9/10/11)."""
    if refuse_if_muted(registry, session, out):
        return
    now = int(registry.clock.now())
    if _deliver_now(registry, session, command, now, out):
        return
    name = command.name
    out.run(registry.read(  # an offline user's account: a cold read
        lambda store: store.get_account(name),
        lambda account: _message_offline(registry, session, command, now, account),
        name="message: the recipient",
    ))


def _deliver_now(registry: Registry, session: Session, command: c.Message, now: int,
                 out: Outcome) -> bool:
    """Deliver the message if its recipient is online; whether it was."""
    online = registry.get(command.name)
    if online is None:
        return False
    note = Message(session.name, now, command.text)
    online.received_messages.append(note)
    out.to(online, note)
    out.to(session, MessageDelivered(online.name))
    return True


def _message_offline(registry: Registry, session: Session, command: c.Message, now: int,
                     account: Account | None) -> Outcome:
    out = Outcome()
    if _deliver_now(registry, session, command, now, out):  # came online meanwhile
        return out
    if account is None:
        out.to(session, TextLine.of(Text.DONT_KNOW_USER, name=command.name))
        return out
    recipient, sender, text = account.name, session.name, command.text

    def store_message(store: Store) -> None:
        store.add_message(recipient, sender, now, text)

    out.write(store_message)
    out.to(session, MessageSaved(recipient))
    return out


def show_messages(session: Session, out: Outcome) -> None:
    """`message` without arguments: the messages received since login."""
    if not session.received_messages:
        out.to(session, TextLine.of(Text.NO_NEW_MESSAGES))
        return
    out.to(session, *session.received_messages)


def waitfor(registry: Registry, session: Session, command: c.Waitfor, out: Outcome) -> None:
    if not command.names:
        out.lines(session, *waitfor_lines(list(session.waiting_for.values())))
        return
    names, own_key = command.names, session.key
    if all(name_key(typed) == own_key or registry.get(typed) is not None for typed in names):
        out.extend(_waitfor_answer(registry, session, names, {}))
        return

    def query(store: Store) -> dict[str, Account | None]:
        return {typed: store.get_account(typed) for typed in names if name_key(typed) != own_key}

    out.run(registry.read(  # offline users' accounts: a cold read
        query, lambda accounts: _waitfor_answer(registry, session, names, accounts),
        name="waitfor",
    ))


def _waitfor_answer(registry: Registry, session: Session, names: tuple[str, ...],
                    accounts: dict[str, Account | None]) -> Outcome:
    """`waitfor NAME...` with the accounts read of those who were offline."""
    out = Outcome()
    for typed in names:
        if name_key(typed) == session.key:
            out.to(session, TextLine.of(Text.WAITFOR_SELF))
        elif registry.get(typed) is not None:
            out.to(session, TextLine.of(Text.WAITFOR_ALREADY_LOGGED_IN, name=typed))
        else:
            account = accounts.get(typed)
            if account is None:
                out.to(session, TextLine.of(Text.NO_USER_CALLED, name=typed))
            else:
                session.waiting_for[name_key(account.name)] = account.name
                registry.waiters[session] = None
                out.to(session, TextLine.of(Text.WAITFOR_ADDED, name=account.name))
    return out


def gag(registry: Registry, session: Session, command: c.Gag, out: Outcome) -> None:
    _toggle_list(
        registry, session, command.name, session.gagged, out,
        none=Text.GAGGED_NONE, listing=Text.GAGGED_LIST, added=Text.YOU_GAG,
        removed=Text.YOU_UNGAG, self_text=Text.GAG_SELF,
    )


def blind(registry: Registry, session: Session, command: c.Blind, out: Outcome) -> None:
    _toggle_list(
        registry, session, command.name, session.blinded, out,
        none=Text.BLINDED_NONE, listing=Text.BLINDED_LIST, added=Text.YOU_BLIND,
        removed=Text.YOU_UNBLIND, self_text=Text.BLIND_SELF,
    )


def _toggle_list(
    registry: Registry, session: Session, typed: str | None, names: dict[str, str], out: Outcome, *,
    none: Text, listing: Text, added: Text, removed: Text, self_text: Text,
) -> None:
    """gag and blind: list, or add/remove an online user (session-only lists)."""
    if typed is None:
        if names:
            out.to(session, TextLine.of(listing, names=",".join(names.values())))
        else:
            out.to(session, TextLine.of(none))
        return
    target = registry.find(typed)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_QUOTED, name=typed))
        return
    if target is session:
        out.to(session, TextLine.of(self_text))
        return
    if target.key in names:
        del names[target.key]
        out.to(session, TextLine.of(removed, name=target.name))
    else:
        names[target.key] = target.name
        out.to(session, TextLine.of(added, name=target.name))


def away(registry: Registry, session: Session, command: c.Away, out: Outcome) -> None:
    if command.text is None:
        entries = [(s.name, s.away_message) for s in registry.sessions() if s.away_message is not None]
        out.lines(session, *away_lines(entries, own_name=session.name))
        return
    was_away = session.away_message is not None
    session.away_message = command.text
    out.to(session, TextLine.of(Text.AWAY))
    if not was_away:
        registry.announce_status(session, out)


def back(registry: Registry, session: Session, out: Outcome) -> None:
    if session.away_message is None:
        out.to(session, TextLine.of(Text.NOT_AWAY))
        return
    session.away_message = None
    out.to(session, TextLine.of(Text.WELCOME_BACK))
    registry.announce_status(session, out)


def bye(registry: Registry, session: Session, out: Outcome) -> None:
    contact = f"the operators of {registry.config.club_name}"
    out.lines(session, *goodbye_lines(contact=contact))
    session.departure = Departure.LOGGED_OUT
    out.close(session, "logged out")


def wave(registry: Registry, session: Session, out: Outcome) -> None:
    session.waves += 1
    if session.waves == 1:
        out.to(session, TextLine.of(Text.WAVE_GOODBYE))
        waved = TextLine.of(Text.WAVES_GOODBYE, name=session.name)
        for other in registry.sessions():
            if other is not session:
                out.to(other, waved)
        return
    # The second wave logs out; the others learn it from the logout notice.
    out.to(session, TextLine.of(Text.WAVE_GOODBYE_AGAIN))
    out.lines(session, *goodbye_lines(contact=f"the operators of {registry.config.club_name}"))
    session.departure = Departure.WAVED
    out.close(session, "waved goodbye")
