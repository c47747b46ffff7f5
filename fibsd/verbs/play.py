"""Game commands and in-game chat, for a user who is not in a match.

FIBS's answers when there is no match to act on (§5.1, §5.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fibsd.outcome import Outcome
from protocol import commands as c
from protocol.messages import TextLine
from protocol.wording import Text

if TYPE_CHECKING:
    from fibsd.session import Session


def chat_in_game(session: Session, command: c.Say | c.Kibitz | c.Whisper, out: Outcome) -> None:
    if isinstance(command, c.Say):
        out.to(session, TextLine.of(Text.SAY_OUTSIDE_GAME))
    else:
        out.to(session, TextLine.of(Text.NOT_WATCHING_OR_PLAYING))


def game_command(session: Session, command: c.Command, out: Outcome) -> None:
    match command:
        case c.Reject():
            out.to(session, TextLine.of(Text.NOT_PLAYING_CANT_GIVE_UP))
        case c.Pip():
            out.to(session, TextLine.of(Text.NOT_PLAYING_OR_WATCHING))
        case c.Leave():
            out.to(session, TextLine.of(Text.NO_ONE_TO_LEAVE))
        case _:
            out.to(session, TextLine.of(Text.NOT_PLAYING))
