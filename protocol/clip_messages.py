"""The CLIP numbered messages 1-20 and their telnet equivalents (FIBS reference §3).

Each message is a typed value that renders its CLIP line and its telnet sentences and
parses back from its CLIP line; `ClipMessage` is their union. `protocol.messages` holds
every other server message and the entry points (`render_lines`, `parse_server_line`),
and re-exports these. No sessions, sockets or line terminators here either.
"""

from __future__ import annotations

from typing import ClassVar, Final, TypeAlias

import attrs

from protocol.vocabulary import Redoubles
from protocol.wording import (
    Text,
    render,
)

CLIP_VERSION: Final = 1008  # what every client sends
CLIP_ALERT_VERSION: Final = 1009  # the first CLIP version that understands message 20
NONE_MARK: Final = "-"  # who-info's mark for an empty field
UNLIMITED: Final = "unlimited"


def _check_word(_instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    # A field of a space-separated CLIP line: clients count tokens (§3.2, §3.4).
    if not value or any(char.isspace() for char in value):
        raise ValueError(f"{attribute.name} must be one non-empty word, got {value!r}")


def _check_optional_word(
    instance: object, attribute: attrs.Attribute[str | None], value: str | None
) -> None:
    if value is not None:
        _check_word(instance, attribute, value)  # type: ignore[arg-type]
        if value == NONE_MARK:
            raise ValueError(f"{attribute.name}: use None, not {NONE_MARK!r}")


def check_one_line(_instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if "\r" in value or "\n" in value:
        raise ValueError(f"{attribute.name} must be a single line, got {value!r}")


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _or_none_mark(value: str | None) -> str:
    return NONE_MARK if value is None else value


def _from_none_mark(value: str) -> str | None:
    return None if value == NONE_MARK else value


# --- CLIP messages 1-20 ---


@attrs.frozen
class Welcome:
    """CLIP 1, the first line after a successful CLIP login."""

    number: ClassVar[int] = 1
    name: str = attrs.field(validator=_check_word)
    last_login: int  # Unix seconds
    last_host: str = attrs.field(validator=_check_word)

    def clip_line(self) -> str:
        return f"1 {self.name} {self.last_login} {self.last_host}"

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> Welcome:
        _, name, last_login, last_host = line.split(" ")
        return cls(name, int(last_login), last_host)


@attrs.frozen
class OwnInfo:
    """CLIP 2: the recipient's own toggles and ratings, 22 tokens in this exact order."""

    number: ClassVar[int] = 2
    name: str = attrs.field(validator=_check_word)
    allowpip: bool
    autoboard: bool
    autodouble: bool
    automove: bool
    away: bool
    bell: bool
    crawford: bool
    double: bool
    experience: int
    greedy: bool
    moreboards: bool
    moves: bool
    notify: bool
    rating: float  # printed with exactly two decimals
    ratings: bool
    ready: bool
    redoubles: Redoubles  # 0 for "none"
    report: bool
    silent: bool
    timezone: str = attrs.field(validator=_check_word)

    def clip_line(self) -> str:
        flags = _flag
        tokens = [
            "2", self.name, flags(self.allowpip), flags(self.autoboard), flags(self.autodouble),
            flags(self.automove), flags(self.away), flags(self.bell), flags(self.crawford),
            flags(self.double), str(self.experience), flags(self.greedy),
            flags(self.moreboards), flags(self.moves), flags(self.notify), f"{self.rating:.2f}",
            flags(self.ratings), flags(self.ready), str(self.redoubles), flags(self.report),
            flags(self.silent), self.timezone,
        ]
        return " ".join(tokens)

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> OwnInfo:
        tokens = line.split(" ")
        if len(tokens) != 22:
            raise ValueError(f"own info has 22 tokens, got {len(tokens)}")

        def flag(index: int) -> bool:
            if tokens[index] not in ("0", "1"):
                raise ValueError(f"token {index} must be 0 or 1, got {tokens[index]!r}")
            return tokens[index] == "1"

        redoubles = tokens[18]
        return cls(
            name=tokens[1], allowpip=flag(2), autoboard=flag(3), autodouble=flag(4),
            automove=flag(5), away=flag(6), bell=flag(7), crawford=flag(8), double=flag(9),
            experience=int(tokens[10]), greedy=flag(11), moreboards=flag(12), moves=flag(13),
            notify=flag(14), rating=_parse_rating(tokens[15]), ratings=flag(16), ready=flag(17),
            redoubles=UNLIMITED if redoubles == UNLIMITED else int(redoubles),
            report=flag(19), silent=flag(20), timezone=tokens[21],
        )


def _parse_rating(token: str) -> float:
    whole, _, decimals = token.partition(".")
    if len(decimals) != 2 or not decimals.isdigit() or not whole.lstrip("-").isdigit():
        raise ValueError(f"a rating has exactly two decimals, got {token!r}")
    return float(token)


@attrs.frozen
class MotdBegin:
    """CLIP 3: the message of the day follows (telnet users get the text without markers)."""

    number: ClassVar[int] = 3

    def clip_line(self) -> str:
        return "3"

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> MotdBegin:
        if line != "3":
            raise ValueError("CLIP 3 is the single character 3")
        return cls()


@attrs.frozen
class MotdEnd:
    """CLIP 4: end of the message of the day; clients leave their login state on it."""

    number: ClassVar[int] = 4

    def clip_line(self) -> str:
        return "4"

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> MotdEnd:
        if line != "4":
            raise ValueError("CLIP 4 is the single character 4")
        return cls()


@attrs.frozen
class WhoInfo:
    """CLIP 5: one user's status, 13 tokens, `-` for an empty field (§3.4)."""

    number: ClassVar[int] = 5
    name: str = attrs.field(validator=_check_word)
    opponent: str | None = attrs.field(validator=_check_optional_word)
    watching: str | None = attrs.field(validator=_check_optional_word)
    ready: bool
    away: bool
    rating: float
    experience: int
    idle_seconds: int
    login_time: int  # Unix seconds
    hostname: str = attrs.field(validator=_check_word)
    client: str | None = attrs.field(validator=_check_optional_word)
    email: str | None = attrs.field(validator=_check_optional_word)

    def __attrs_post_init__(self) -> None:
        # FCM's three who regexes require one of opponent/watching to be "-".
        if self.opponent is not None and self.watching is not None:
            raise ValueError("a user is never both playing and watching")

    def clip_line(self) -> str:
        tokens = [
            "5", self.name, _or_none_mark(self.opponent), _or_none_mark(self.watching),
            _flag(self.ready), _flag(self.away), f"{self.rating:.2f}", str(self.experience),
            str(self.idle_seconds), str(self.login_time), self.hostname,
            _or_none_mark(self.client), _or_none_mark(self.email),
        ]
        return " ".join(tokens)

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> WhoInfo:
        tokens = line.split(" ")
        if len(tokens) != 13:
            raise ValueError(f"who info has 13 tokens, got {len(tokens)}")
        if tokens[4] not in ("0", "1") or tokens[5] not in ("0", "1"):
            raise ValueError("ready and away are 0 or 1")
        return cls(
            name=tokens[1], opponent=_from_none_mark(tokens[2]),
            watching=_from_none_mark(tokens[3]), ready=tokens[4] == "1", away=tokens[5] == "1",
            rating=_parse_rating(tokens[6]), experience=int(tokens[7]),
            idle_seconds=int(tokens[8]), login_time=int(tokens[9]), hostname=tokens[10],
            client=_from_none_mark(tokens[11]), email=_from_none_mark(tokens[12]),
        )


@attrs.frozen
class WhoInfoEnd:
    """CLIP 6: end of a batch of who-info lines (send it after every batch, §3.4)."""

    number: ClassVar[int] = 6

    def clip_line(self) -> str:
        return "6"

    def telnet_lines(self) -> list[str]:
        return []

    @classmethod
    def from_clip(cls, line: str) -> WhoInfoEnd:
        if line != "6":
            raise ValueError("CLIP 6 is the single character 6")
        return cls()


@attrs.frozen
class _NameAndText:
    """Shape of `N NAME TEXT` lines; subclasses say N and the telnet sentence."""

    number: ClassVar[int]
    telnet_text: ClassVar[Text | None]
    name: str = attrs.field(validator=_check_word)
    text: str = attrs.field(validator=check_one_line)

    def clip_line(self) -> str:
        return f"{self.number} {self.name} {self.text}"

    def telnet_lines(self) -> list[str]:
        if self.telnet_text is None:
            return [self.text]
        return [render(self.telnet_text, name=self.name, text=self.text)]

    @classmethod
    def from_clip(cls, line: str) -> _NameAndText:
        _, name, text = line.split(" ", 2)
        return cls(name, text)


@attrs.frozen
class LoginNotice(_NameAndText):
    """CLIP 7 `7 NAME NAME logs in.`; `text` is what telnet users see (notify on)."""

    number: ClassVar[int] = 7
    telnet_text: ClassVar[Text | None] = None

    @classmethod
    def logs_in(cls, name: str) -> LoginNotice:
        return cls(name, render(Text.LOGS_IN, name=name))


@attrs.frozen
class LogoutNotice(_NameAndText):
    """CLIP 8 `8 NAME NAME logs out.` (or drops connection / waves goodbye again)."""

    number: ClassVar[int] = 8
    telnet_text: ClassVar[Text | None] = None

    @classmethod
    def logs_out(cls, name: str) -> LogoutNotice:
        return cls(name, render(Text.LOGS_OUT, name=name))

    @classmethod
    def drops_connection(cls, name: str) -> LogoutNotice:
        return cls(name, render(Text.DROPS_CONNECTION, name=name))

    @classmethod
    def waves_goodbye_again(cls, name: str) -> LogoutNotice:
        return cls(name, render(Text.WAVES_GOODBYE_AGAIN, name=name))


@attrs.frozen
class Message:
    """CLIP 9: a message left with `message`, `9 FROM TIME TEXT`."""

    number: ClassVar[int] = 9
    sender: str = attrs.field(validator=_check_word)
    sent_at: int  # Unix seconds when it was left
    text: str = attrs.field(validator=check_one_line)

    def clip_line(self) -> str:
        return f"9 {self.sender} {self.sent_at} {self.text}"

    def telnet_lines(self) -> list[str]:
        return [render(Text.MESSAGE_FROM, name=self.sender, text=self.text)]

    @classmethod
    def from_clip(cls, line: str) -> Message:
        _, sender, sent_at, text = line.split(" ", 3)
        return cls(sender, int(sent_at), text)


@attrs.frozen
class MessageDelivered:
    """CLIP 10: your `message` reached an online user (`10 NAME`, nothing after the name)."""

    number: ClassVar[int] = 10
    name: str = attrs.field(validator=_check_word)

    def clip_line(self) -> str:
        return f"10 {self.name}"

    def telnet_lines(self) -> list[str]:
        return [render(Text.MESSAGE_DELIVERED, name=self.name)]

    @classmethod
    def from_clip(cls, line: str) -> MessageDelivered:
        _, name = line.split(" ")
        return cls(name)


@attrs.frozen
class MessageSaved:
    """CLIP 11: your `message` was stored for an offline user."""

    number: ClassVar[int] = 11
    name: str = attrs.field(validator=_check_word)

    def clip_line(self) -> str:
        return f"11 {self.name}"

    def telnet_lines(self) -> list[str]:
        return [render(Text.MESSAGE_SAVED, name=self.name)]

    @classmethod
    def from_clip(cls, line: str) -> MessageSaved:
        _, name = line.split(" ")
        return cls(name)


@attrs.frozen
class Says(_NameAndText):
    """CLIP 12: NAME told or said something to you."""

    number: ClassVar[int] = 12
    telnet_text: ClassVar[Text | None] = Text.SAYS


@attrs.frozen
class Shouts(_NameAndText):
    """CLIP 13: NAME shouted."""

    number: ClassVar[int] = 13
    telnet_text: ClassVar[Text | None] = Text.SHOUTS


@attrs.frozen
class Whispers(_NameAndText):
    """CLIP 14: NAME whispered to the watchers of a game you watch."""

    number: ClassVar[int] = 14
    telnet_text: ClassVar[Text | None] = Text.WHISPERS


@attrs.frozen
class Kibitzes(_NameAndText):
    """CLIP 15: NAME kibitzed in a game you play or watch."""

    number: ClassVar[int] = 15
    telnet_text: ClassVar[Text | None] = Text.KIBITZES


@attrs.frozen
class YouSay(_NameAndText):
    """CLIP 16: echo of your tell/say; `name` is the addressee (also for `say`, §3.7)."""

    number: ClassVar[int] = 16
    telnet_text: ClassVar[Text | None] = Text.YOU_TELL


@attrs.frozen
class _TextOnly:
    number: ClassVar[int]
    telnet_text: ClassVar[Text]
    text: str = attrs.field(validator=check_one_line)

    def clip_line(self) -> str:
        return f"{self.number} {self.text}"

    def telnet_lines(self) -> list[str]:
        return [render(self.telnet_text, text=self.text)]

    @classmethod
    def from_clip(cls, line: str) -> _TextOnly:
        _, text = line.split(" ", 1)
        return cls(text)


@attrs.frozen
class YouShout(_TextOnly):
    """CLIP 17: echo of your shout."""

    number: ClassVar[int] = 17
    telnet_text: ClassVar[Text] = Text.YOU_SHOUT


@attrs.frozen
class YouWhisper(_TextOnly):
    """CLIP 18: echo of your whisper."""

    number: ClassVar[int] = 18
    telnet_text: ClassVar[Text] = Text.YOU_WHISPER


@attrs.frozen
class YouKibitz(_TextOnly):
    """CLIP 19: echo of your kibitz."""

    number: ClassVar[int] = 19
    telnet_text: ClassVar[Text] = Text.YOU_KIBITZ


@attrs.frozen
class Alert(_NameAndText):
    """CLIP 20 (CLIP 1009): an attention message; older clients and telnet users get it as
    an ordinary tell (CLIP 12 / `NAME says: ...`)."""

    number: ClassVar[int] = 20
    telnet_text: ClassVar[Text | None] = Text.SAYS


ClipMessage: TypeAlias = (
    Welcome | OwnInfo | MotdBegin | MotdEnd | WhoInfo | WhoInfoEnd | LoginNotice | LogoutNotice
    | Message | MessageDelivered | MessageSaved | Says | Shouts | Whispers | Kibitzes | YouSay
    | YouShout | YouWhisper | YouKibitz | Alert
)
