"""From the server's domain values to the codec's message values, and to each user's lines.

Owns the conversions the application core needs to speak FIBS: a session's own-info and
who-info lines, who-list entries, dates in a user's time zone, and `render`: what one
delivered message becomes for one recipient (CLIP or telnet wording, fibsd's extension
lines only for those who take them). It holds no wording of its own (that is
`protocol.wording`) and no state.

Presentation is spread over a few modules on purpose: `protocol.wording` and
`protocol.listings` turn messages into text (the codec); this module and
`fibsd.app.play.{boards,notation,history}` turn the server's domain values into messages.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo

from fibsd.app.outcome import ClipBytes, Delivery, Lines, Recipient
from fibsd.app.session import Session
from protocol.framing import encode_line
from protocol.listings import WhoEntry, time_lines
from protocol.messages import (
    OwnInfo,
    WhoInfo,
    WhoInfoEnd,
    render_lines,
)
from protocol.wording import Text

_UTC = datetime.UTC


@functools.lru_cache(maxsize=256)
def _zone(name: str) -> datetime.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return _UTC


def local_time(epoch_seconds: float, zone_name: str) -> datetime.datetime:
    """An aware datetime for `epoch_seconds` in the IANA zone `zone_name` (UTC if unknown)."""
    return datetime.datetime.fromtimestamp(epoch_seconds, _zone(zone_name))


def date_line(epoch_seconds: float, zone_name: str) -> str:
    """FIBS's date line, as in the banner and the `time` command."""
    return time_lines(local_time(epoch_seconds, zone_name), zone_name)[0]


def own_info(session: Session) -> OwnInfo:
    """CLIP 2 for `session`'s own account."""
    account = session.account
    toggles = account.toggles
    return OwnInfo(
        name=account.name,
        allowpip=toggles.allowpip,
        autoboard=toggles.autoboard,
        autodouble=toggles.autodouble,
        automove=toggles.automove,
        away=session.away_message is not None,
        bell=toggles.bell,
        crawford=toggles.crawford,
        double=toggles.double,
        experience=account.experience,
        greedy=toggles.greedy,
        moreboards=toggles.moreboards,
        moves=toggles.moves,
        notify=toggles.notify,
        rating=account.rating,
        ratings=toggles.ratings,
        ready=toggles.ready,
        redoubles=account.variables.redoubles,
        report=toggles.report,
        silent=toggles.silent,
        timezone=account.variables.timezone,
    )


def who_info(session: Session, now: float) -> WhoInfo:
    """CLIP 5 describing `session` to everyone."""
    account = session.account
    return WhoInfo(
        name=account.name,
        opponent=session.opponent_name,
        watching=None if session.opponent_name is not None else session.watching_name,
        ready=account.toggles.ready,
        away=session.away_message is not None,
        rating=account.rating,
        experience=account.experience,
        idle_seconds=session.idle_seconds(now),
        login_time=int(session.login_at),
        hostname=_word(session.host),
        client=_word(session.client_name) if session.client_name else None,
        email=_word(account.email) if account.email else None,
    )


def who_line(session: Session, now: float) -> bytes:
    """`session`'s CLIP 5 line, encoded.

    A login receives one of these per user online and every status change goes to every
    CLIP user, so the session keeps its line in two encoded halves around the idle time
    (which changes every second), rebuilt only when the account (ratings, toggles, email:
    it is replaced on every change), the table, the opponent (a chouette's changes from
    game to game at the same table), the watched user or the away message do.
    """
    shown = (session.account, session.table, session.opponent_name, session.watching,
             session.away_message)
    cached = session.who_line_cache
    if cached is None or cached[0] != shown:
        tokens = who_info(session, now).clip_line().split(" ")
        before = " ".join(tokens[:_IDLE_TOKEN]).encode() + b" "
        after = b" " + " ".join(tokens[_IDLE_TOKEN + 1:]).encode() + b"\r\n"
        cached = session.who_line_cache = (shown, before, after)
    return b"%b%d%b" % (cached[1], session.idle_seconds(now), cached[2])


#: Where the idle seconds are among the tokens of a CLIP 5 line.
_IDLE_TOKEN = 8

#: CLIP 6, encoded: it ends every batch of who-info lines.
WHO_INFO_END = encode_line(WhoInfoEnd().clip_line())


def who_entry(session: Session, now: float, zone_name: str) -> WhoEntry:
    """A row of the telnet `who` listing, with times in the asker's zone."""
    account = session.account
    return WhoEntry(
        name=account.name,
        rating=account.rating,
        experience=account.experience,
        login=local_time(session.login_at, zone_name),
        idle_seconds=session.idle_seconds(now),
        host=session.host,
        opponent=session.opponent_name,
        watching=session.watching_name,
        ready=account.toggles.ready,
        away=session.away_message is not None,
        client=session.client_name,
        email=account.email,
    )


def _word(text: str) -> str:
    """A who-info field must be one non-empty token (clients count 13 tokens)."""
    cleaned = "".join(char if char.isprintable() and not char.isspace() else "_" for char in text)
    # "-" means "empty" in who-info, so a user's own "-" must not read as one.
    return cleaned if cleaned not in ("", "-") else "_"


# ----------------------------------------------------------------- delivery


def render(recipient: Recipient, message: Delivery) -> list[str]:
    """The lines `message` becomes for `recipient` (CLIP or telnet wording)."""
    if isinstance(message, Lines):
        return list(message.lines)
    if isinstance(message, ClipBytes):
        return message.lines() if recipient.clip else []
    return render_lines(message, clip=recipient.clip,
                        clip_version=recipient.clip_version, extensions=recipient.extensions)


def prompt(recipient: Recipient) -> str:
    """What a telnet user is shown after each burst of output."""
    return Text.COMMAND_PROMPT.value


def line_too_long_notice() -> str:
    return Text.LINE_TOO_LONG.value
