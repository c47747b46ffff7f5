"""Typed server messages, rendered per recipient and parsed back (FIBS reference §3, §3.8).

This module owns `TextLine` (any sentence of `protocol.wording`), `BoardMessage` (a board
in the recipient's board style), `UnknownLine`, the union of every server message, and
the two entry points: `render_lines`, which the server calls per recipient, and
`parse_server_line`, the client role's reverse of it. The CLIP numbered messages 1-20
are `protocol.clip_messages`, re-exported here. It must not know about sessions, sockets
or line terminators (the framing layer adds CRLF).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, TypeAlias, TypeGuard

import attrs

from protocol import ascii_board
from protocol.board import BoardLine, BoardLineError
from protocol.clip_messages import (
    CLIP_ALERT_VERSION,
    CLIP_VERSION,
    NONE_MARK,
    UNLIMITED,
    Alert,
    ClipMessage,
    Kibitzes,
    LoginNotice,
    LogoutNotice,
    Message,
    MessageDelivered,
    MessageSaved,
    MotdBegin,
    MotdEnd,
    OwnInfo,
    Says,
    Shouts,
    Welcome,
    Whispers,
    WhoInfo,
    WhoInfoEnd,
    YouKibitz,
    YouSay,
    YouShout,
    YouWhisper,
    check_one_line,
)
from protocol.wording import (
    EXTENSION_LINES,
    Text,
    format_fields,
    match_text,
    render,
    template_field_names,
    template_fields,
)

__all__ = [
    "CLIP_ALERT_VERSION",
    "CLIP_MESSAGE_TYPES",
    "CLIP_VERSION",
    "NONE_MARK",
    "SERVER_MESSAGE_TYPES",
    "UNLIMITED",
    "BoardMessage",
    "ClipMessage",
    "ServerEvent",
    "ServerMessage",
    "TextLine",
    "UnknownLine",
    "Alert",
    "Kibitzes",
    "LoginNotice",
    "LogoutNotice",
    "Message",
    "MessageDelivered",
    "MessageSaved",
    "MotdBegin",
    "MotdEnd",
    "OwnInfo",
    "Says",
    "Shouts",
    "Welcome",
    "Whispers",
    "WhoInfo",
    "WhoInfoEnd",
    "YouKibitz",
    "YouSay",
    "YouShout",
    "YouWhisper",
    "is_server_message",
    "parse_server_line",
    "render_lines",
]


# --- everything else the server says ---


@attrs.frozen
class TextLine:
    """One sentence of the wording table with its fields, e.g.
    `TextLine.of(Text.ROLLS, name="bob", die1=3, die2=5)`.

    Fields are kept as they appear in the line (strings, numbers formatted per the
    template), so a parsed line and the one it was rendered from compare equal.
    """

    text: Text
    fields: dict[str, str] = attrs.field(factory=dict, hash=False)

    def __attrs_post_init__(self) -> None:
        if not self.fields.keys() <= template_field_names(self.text):
            unknown = set(self.fields) - set(template_fields(self.text))
            raise ValueError(f"{self.text.name} has no field(s) {sorted(unknown)}")
        object.__setattr__(self, "fields", format_fields(self.text, **self.fields))

    @classmethod
    def of(cls, text: Text, /, **fields: object) -> TextLine:
        return cls(text, fields)  # type: ignore[arg-type]

    @property
    def line(self) -> str:
        return render(self.text, **self.fields)


@attrs.frozen
class BoardMessage:
    """A board for one recipient: the `board:` line for boardstyle 3 (every client sets it),
    the ASCII board for styles 1 and 2. `player_name` names the recipient in the ASCII
    borders when `board.player` is `You`; `cube_owner`, when set, names the owner of the
    cube in the ASCII footer (a chouette crew member's own cube, C81)."""

    board: BoardLine
    style: int = attrs.field(default=3, validator=attrs.validators.in_((1, 2, 3)))
    player_name: str | None = None
    cube_owner: str | None = None
    #: fibsd's match clocks on an ASCII board: the player's and the opponent's time.
    clocks: tuple[str, str] | None = None

    def lines(self) -> list[str]:
        if self.style == 3:
            return [self.board.encode()]
        return ascii_board.render_ascii_board(
            self.board, style=self.style, player_name=self.player_name,
            cube_owner=self.cube_owner, clocks=self.clocks,
        )


@attrs.frozen
class UnknownLine:
    """A line with no structure known to the codec (MOTD text, help pages, ...); rendered
    verbatim."""

    line: str = attrs.field(validator=check_one_line)


ServerMessage: TypeAlias = ClipMessage | TextLine | BoardMessage | UnknownLine
ServerEvent: TypeAlias = ServerMessage  # what parse_server_line gives: the same types

CLIP_MESSAGE_TYPES: Final = (
    Welcome, OwnInfo, MotdBegin, MotdEnd, WhoInfo, WhoInfoEnd, LoginNotice, LogoutNotice,
    Message, MessageDelivered, MessageSaved, Says, Shouts, Whispers, Kibitzes, YouSay,
    YouShout, YouWhisper, YouKibitz, Alert,
)
SERVER_MESSAGE_TYPES: Final = (*CLIP_MESSAGE_TYPES, TextLine, BoardMessage, UnknownLine)


def is_server_message(value: object) -> TypeGuard[ServerMessage]:
    """Whether `value` is something `render_lines` can render (for loosely typed queues)."""
    return isinstance(value, SERVER_MESSAGE_TYPES)


def render_lines(
    message: ServerMessage, *, clip: bool, clip_version: int = CLIP_VERSION,
    extensions: bool = True,
) -> list[str]:
    """The lines (without CRLF) `message` becomes for one recipient.

    `clip` is the recipient's session mode (CLIP login vs telnet); `clip_version` the
    version it logged in with (CLIP 20 needs 1009); `extensions` whether it takes fibsd's
    own lines (`EXTENSION_LINES`: without it, each becomes its FIBS fallback or nothing).
    Empty when the recipient gets nothing (e.g. who-info for a telnet user).
    """
    match message:
        case TextLine():
            if not extensions and message.text in EXTENSION_LINES:
                fallback = EXTENSION_LINES[message.text]
                if fallback is None:
                    return []
                # The FIBS sentence takes those of the line's fields it names.
                names = template_field_names(fallback)
                return [render(fallback, **{k: v for k, v in message.fields.items() if k in names})]
            return [message.line]
        case BoardMessage():
            return message.lines()
        case UnknownLine():
            return [message.line]
        case Alert() if clip and clip_version < CLIP_ALERT_VERSION:
            return [Says(message.name, message.text).clip_line()]
        case _:
            return [message.clip_line()] if clip else message.telnet_lines()


_CLIP_PARSERS: Final[Mapping[str, Callable[[str], ClipMessage]]] = {
    str(cls.number): cls.from_clip  # type: ignore[misc]
    for cls in CLIP_MESSAGE_TYPES
}


def parse_server_line(line: str) -> ServerEvent:
    """The typed event a server line (without its CRLF) stands for.

    CLIP numbered lines become their message class, `board:` lines a `BoardMessage`, any
    sentence of the wording table a `TextLine`, anything else an `UnknownLine`. A typed
    event always renders back to exactly `line` (for a CLIP recipient); a line that is
    almost but not exactly a message (`1 bob +5 host`) is an `UnknownLine`. Raises
    ValueError only if `line` contains CR or LF, i.e. is not one line.
    """
    if "\r" in line or "\n" in line:
        raise ValueError(f"parse_server_line takes one line without terminator: {line!r}")
    if line.startswith("board:"):
        try:
            board = BoardLine.decode(line)
        except BoardLineError:
            pass  # not a board after all; maybe a sentence ("board: ..." from a user "board")
        else:
            if board.encode() == line:
                return BoardMessage(board)
    number = line.split(" ", 1)[0]
    parse_clip = _CLIP_PARSERS.get(number)
    if parse_clip is not None:
        try:
            message = parse_clip(line)
        except ValueError:
            pass  # e.g. a `3` that is not alone: fall through to the wording table
        else:
            if message.clip_line() == line:
                return message
    found = match_text(line)
    if found is not None:
        text, fields = found
        return TextLine(text, fields)
    return UnknownLine(line)
