"""Settings: toggle, set, address, password. Every change is persisted before it is confirmed.

Wording from the FIBS reference §5.3 (`protocol.listings` builds the listings and answers).
"""

from __future__ import annotations

import attrs

from fibsd.domain.accounts import (
    Variables,
    email_is_valid,
    password_problem,
    timezone_is_valid,
)
from fibsd.app.lobby.bot_marks import tell_bots_online
from fibsd.app.outcome import Job, Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol import commands as c
from protocol.listings import (
    set_listing,
    set_value_is,
    set_value_set_to,
    timezone_unknown_lines,
    toggle_answer,
    toggle_listing,
)
from protocol.messages import TextLine
from protocol.vocabulary import EXTENSIONS_TOGGLE, SortWho
from protocol.wording import Text

#: Toggles whose change other users see in the who list (CLIP 5).
_STATUS_TOGGLES = frozenset({"ready"})
#: Offered when an unknown time zone is given (the full IANA list would be thousands).
_SUGGESTED_ZONES = (
    "UTC", "Europe/London", "Europe/Berlin", "Europe/Moscow", "America/New_York",
    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
    "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney",
)


def toggle(registry: Registry, session: Session, command: c.Toggle, out: Outcome) -> None:
    toggles = session.account.toggles
    if not command.names:
        # A CLIP client that did not opt in sees FIBS's 17 rows only.
        shown = session.extensions or not session.clip
        out.lines(session, *toggle_listing(toggles.as_dict(), session.extensions if shown else None))
        return
    status_changed = False
    for name in command.names:
        if name == EXTENSIONS_TOGGLE:  # per session, not an account setting
            session.extensions = not session.extensions
            out.lines(session, toggle_answer(name, session.extensions))
            tell_bots_online(registry, session, out)
            continue
        toggles = toggles.toggled(name)
        out.lines(session, toggle_answer(name, toggles.get(name)))
        status_changed |= name in _STATUS_TOGGLES
    if toggles != session.account.toggles:
        session.save_toggles(toggles, out)
    if status_changed:
        registry.announce_status(session, out)


def set_variable(session: Session, command: c.Set, out: Outcome) -> None:
    variables = session.account.variables
    values = variables.as_dict()
    if command.variable is None:
        out.lines(session, *set_listing(values))
        return
    if command.value is None:
        out.lines(session, set_value_is(command.variable, values[command.variable]))
        return
    value = command.value
    match command.variable:
        case "timezone":
            assert isinstance(value, str)
            if not timezone_is_valid(value):
                out.lines(session, *timezone_unknown_lines(value, _SUGGESTED_ZONES))
                return
            new = attrs.evolve(variables, timezone=value)
        case "sortwho":
            assert isinstance(value, str)
            new = attrs.evolve(variables, sortwho=SortWho(value))
        case "redoubles":
            new = attrs.evolve(variables, redoubles="unlimited" if value == "unlimited" else int(value))
        case "boardstyle":
            new = attrs.evolve(variables, boardstyle=int(value))
        case "linelength":
            new = attrs.evolve(variables, linelength=int(value))
        case "pagelength":
            new = attrs.evolve(variables, pagelength=int(value))
        case _:
            out.to(session, TextLine.of(Text.SET_UNKNOWN))
            return
    session.account = attrs.evolve(session.account, variables=new)
    name = session.name
    saved: Variables = new
    out.write(lambda store: store.update_variables(name, saved))
    out.lines(session, set_value_set_to(command.variable, new.as_dict()[command.variable]))


def address(registry: Registry, session: Session, command: c.Address, out: Outcome) -> None:
    email = command.email
    if not email_is_valid(email):
        out.to(session, TextLine.of(Text.NOT_AN_EMAIL, email=email))
        return
    session.account = attrs.evolve(session.account, email=email)
    name = session.name
    out.write(lambda store: store.set_email(name, email))
    out.to(session, TextLine.of(Text.EMAIL_SET, email=email))
    registry.announce_status(session, out)


def password(registry: Registry, session: Session, command: c.Password, out: Outcome) -> None:
    """`password OLD:NEW:NEW`; hashing runs off the event loop (it is slow on purpose)."""
    if command.new != command.repeat:
        out.to(session, TextLine.of(Text.NEW_PASSWORD_TWICE))
        return
    problem = password_problem(command.new)
    if problem is not None:
        out.to(session, TextLine.of(Text.PASSWORD_TOO_SHORT if len(command.new) < 4 else Text.PASSWORD_NOT_PRINTABLE))
        return
    hasher = registry.hasher
    stored_hash = session.account.password_hash
    old, new = command.old, command.new

    def work() -> str | None:
        if not hasher.verify(old, stored_hash):
            return None
        return hasher.hash(new)

    def then(result: str | None) -> Outcome:
        follow = Outcome()
        if result is None:
            follow.to(session, TextLine.of(Text.OLD_PASSWORD_WRONG))
            return follow
        session.account = attrs.evolve(session.account, password_hash=result)
        name = session.name
        follow.write(lambda store: store.set_password_hash(name, result))
        follow.to(session, TextLine.of(Text.PASSWORD_CHANGED))
        return follow

    out.run(Job.holding_prompt(work, then, name="password"))
