"""Which copy of a house bot is free: the line a player hears when the copy he invited plays.

A house bot with `matches = N` plays as N accounts, its copies (`fibsd.infra.house_bots`);
each plays one match at a time, as every FIBS account. A player who invites a busy copy,
or whose invitation to a copy is still waiting when that copy sits down with someone else,
is told in one line which copy of that strength is free, or that all of them play
(docs/bots.md). The lines are fibsd's own (wording.EXTENSION_LINES): a FIBS client that
did not ask for them hears only FIBS's usual answer.
"""

from __future__ import annotations

from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.infra.house_bots import HouseBot, house_bot_named
from protocol.messages import TextLine
from protocol.wording import Text

__all__ = ["busy_line", "house_bot_of", "tell_waiting_inviters"]


def house_bot_of(registry: Registry, session: Session) -> HouseBot | None:
    """The house bot `session` is a copy of (its account carries the bot mark), or None."""
    if not session.account.bot:
        return None
    return house_bot_named(registry.config.house_bots, session.name)


def _free_copy(registry: Registry, bot: HouseBot, busy: Session) -> Session | None:
    """A copy of `bot` other than `busy` that is online, ready and not playing; one that
    nobody has invited yet is preferred."""
    free = [copy for name in bot.copies
            if (copy := registry.get(name)) is not None and copy is not busy
            and copy.account.bot and copy.account.toggles.ready
            and copy.table is None and copy.chouette is None]
    invited = {session.invitation.invitee_key for session in registry.online()
               if session.invitation is not None}
    return next((copy for copy in free if copy.key not in invited), free[0] if free else None)


def busy_line(registry: Registry, bot: HouseBot, busy: Session) -> TextLine:
    """What a player who wants the busy copy `busy` of `bot` is told (one line)."""
    if bot.matches == 1:
        return TextLine.of(Text.HOUSE_BOT_BUSY, name=busy.name)
    free = _free_copy(registry, bot, busy)
    if free is None:
        return TextLine.of(Text.HOUSE_BOT_ALL_BUSY, name=busy.name, count=bot.matches)
    return TextLine.of(Text.HOUSE_BOT_COPY_FREE, name=busy.name, free=free.name)


def tell_waiting_inviters(registry: Registry, seated: Session, out: Outcome) -> None:
    """`seated` sat down to a match: if it is a house bot's copy, whoever else still waits
    for it to join their invitation is told which copy is free (the bot never will join)."""
    bot = house_bot_of(registry, seated)
    if bot is None:
        return
    waiting = [session for session in registry.online()
               if session.invitation is not None and session.invitation.invitee_key == seated.key
               and session.table is None]
    if waiting:
        out.to_each(waiting, busy_line(registry, bot, seated))
