"""Which users online are bots, told to the CLIP clients that asked for fibsd's own lines.

FIBS's who-info (CLIP 5) has no field for a bot, and a FIBS client must not get one; a
client that turned `toggle extensions` on (the web page) gets a `bot: NAME on` line for
each bot online when it turns them on, for a bot when it logs in, and `on`/`off` when an
administrator's `setbot` changes the mark of a user online. Telnet users have `whois`.
"""

from __future__ import annotations

from collections.abc import Iterable

from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol.messages import TextLine
from protocol.wording import Text


def _listeners(registry: Registry, but: Session | None = None) -> Iterable[Session]:
    return [s for s in registry.sessions() if s.clip and s.extensions and s is not but]


def tell_bots_online(registry: Registry, session: Session, out: Outcome) -> None:
    """`session` has just turned fibsd's own lines on: the bots online now."""
    if not (session.clip and session.extensions):
        return
    for other in registry.sessions():
        if other.account.bot:
            out.to(session, TextLine.of(Text.BOT_MARK_ON, name=other.name))


def announce_bot_arrival(registry: Registry, session: Session, out: Outcome) -> None:
    """A user has logged in: if a bot, to those who asked."""
    if session.account.bot:
        out.to_each(_listeners(registry, session), TextLine.of(Text.BOT_MARK_ON, name=session.name))


def announce_bot_mark(registry: Registry, name: str, bot: bool, out: Outcome) -> None:
    """`setbot` changed the mark of `name`, who is online."""
    out.to_each(_listeners(registry), TextLine.of(Text.BOT_MARK_ON if bot else Text.BOT_MARK_OFF, name=name))
