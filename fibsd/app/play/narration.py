"""What a match's events say, to each of the people at the table.

The rules return past-tense events (`fibsd.rules.events`) and never word them; this module
turns each one into FIBS's lines for the three audiences of a table: the player who acted,
his opponent and the watchers of either player (§6). It is pure: a `Said` is data, and
`fibsd.app.play.table.Table` delivers it (`Table.say`) in the order its match returned the
events, between the boards and the prompts of its flow.

What the events do not carry is not narrated here: the flow's own words (the forced move
the server made, the prompts, the score after a game, the start of a game), and the end
of a match (the lobby words it with the ratings).
"""

from __future__ import annotations

from typing import Literal

import attrs

from fibsd.app.play.notation import moves_text
from fibsd.rules import (
    Beavered,
    CheckersMoved,
    CubeAutoDoubled,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    Event,
    GameWon,
    OpeningRolled,
    Raccooned,
    ResignationOffered,
    ResignationRejected,
    TurnPassed,
    WinKind,
)
from protocol.messages import TextLine
from protocol.wording import Text, count_phrase


@attrs.frozen
class Said:
    """One event in three wordings: to the player in `seat` (the actor), his opponent,
    and the watchers of either player; None: that audience hears nothing of it."""

    seat: int
    own: TextLine | None
    opponent: TextLine | None
    watchers: TextLine | None


#: Which boards follow an event (`Table._boards`): after a roll for those with
#: `moreboards`, after a move for those with `autoboard`.
BoardsAfter = Literal["roll", "move"]


def boards_after(event: Event) -> BoardsAfter | None:
    if isinstance(event, DiceRolled):
        return "roll"
    if isinstance(event, (CheckersMoved, TurnPassed)):
        return "move"
    return None


def points(value: int) -> str:
    return count_phrase(value, "point")


def said(event: Event, names: tuple[str, str], *, o_seat: int) -> Said | None:
    """What `event` says to each audience of a table whose players are `names` and whose
    player in `o_seat` plays O in this game; None if it says nothing."""
    match event:
        case OpeningRolled(die0=die0, die1=die1):
            return Said(
                0,
                TextLine.of(Text.YOU_ROLLED_OPENING, die=die0, opponent=names[1], opponent_die=die1),
                TextLine.of(Text.YOU_ROLLED_OPENING, die=die1, opponent=names[0], opponent_die=die0),
                TextLine.of(Text.ROLLED_OPENING, name=names[0], die=die0, opponent=names[1], opponent_die=die1),
            )
        case CubeAutoDoubled(cube=cube):
            line = TextLine.of(Text.CUBE_IS_NOW, cube=cube)
            return Said(0, line, line, line)
        case DiceRolled(player=seat, dice=(die1, die2)):
            rolls = TextLine.of(Text.ROLLS, name=names[seat], die1=die1, die2=die2)
            return Said(seat, TextLine.of(Text.YOU_ROLL, die1=die1, die2=die2), rolls, rolls)
        case TurnPassed(player=seat):
            cannot = TextLine.of(Text.CANT_MOVE, name=names[seat])
            return Said(seat, TextLine.of(Text.YOU_CANT_MOVE), cannot, cannot)
        case CheckersMoved(player=seat, moves=moves):
            # (The actor typed the move, or was told the one the server made for him.)
            line = TextLine.of(Text.MOVES, name=names[seat], moves=moves_text(moves, is_o=seat == o_seat))
            return Said(seat, None, line, line)
        case CubeOffered(player=seat):
            return Said(seat, TextLine.of(Text.YOU_DOUBLE, name=names[1 - seat]),
                        TextLine.of(Text.DOUBLES_ACCEPT_OR_REJECT, name=names[seat]),
                        TextLine.of(Text.DOUBLES, name=names[seat]))
        case CubeTaken(player=seat, cube=cube):
            name = names[seat]
            return Said(seat, TextLine.of(Text.YOU_ACCEPT_DOUBLE, cube=cube),
                        TextLine.of(Text.ACCEPTS_DOUBLE_CUBE, name=name, cube=cube),
                        TextLine.of(Text.ACCEPTS_DOUBLE, name=name))
        case Beavered(player=seat, cube=cube):
            name = names[seat]
            return Said(seat, TextLine.of(Text.YOU_BEAVER, cube=cube),
                        TextLine.of(Text.BEAVERS_CUBE, name=name, cube=cube),
                        TextLine.of(Text.BEAVERS, name=name))
        case Raccooned(player=seat, cube=cube):
            name = names[seat]
            return Said(seat, TextLine.of(Text.YOU_RACCOON, cube=cube),
                        TextLine.of(Text.RACCOONS_CUBE, name=name, cube=cube),
                        TextLine.of(Text.RACCOONS, name=name))
        case ResignationOffered(player=seat, points=value):
            other, name, worth = names[1 - seat], names[seat], points(value)
            return Said(seat, TextLine.of(Text.YOU_WANT_TO_RESIGN, name=other, points=worth),
                        TextLine.of(Text.WANTS_TO_RESIGN_YOU_WIN, name=name, points=worth),
                        TextLine.of(Text.WANTS_TO_RESIGN, name=name, winner=other, points=worth))
        case ResignationRejected(player=seat):
            name = names[seat]
            return Said(seat, TextLine.of(Text.YOU_REJECT), TextLine.of(Text.REJECTS, name=name),
                        TextLine.of(Text.REJECTS, name=name))
        case GameWon(winner=winner, points=value, how=how):
            return _game_won(winner, points(value), how, names)
        case _:
            return None


def _game_won(winner: int, worth: str, how: WinKind, names: tuple[str, str]) -> Said:
    match how:
        case WinKind.BORNE_OFF:
            name = names[winner]
            return Said(winner, TextLine.of(Text.YOU_WIN_GAME, points=worth),
                        TextLine.of(Text.WINS_GAME_SORRY, name=name, points=worth),
                        TextLine.of(Text.WINS_GAME, name=name, points=worth))
        case WinKind.DOUBLE_PASSED:  # said by the one who gave up
            passer, name = 1 - winner, names[winner]
            return Said(passer, TextLine.of(Text.YOU_GIVE_UP, name=name, points=worth),
                        TextLine.of(Text.GIVES_UP_YOU_WIN, name=names[passer], points=worth),
                        TextLine.of(Text.GIVES_UP, name=names[passer], winner=name, points=worth))
        case WinKind.RESIGNED:  # said by the one who accepted
            name = names[winner]
            return Said(winner, TextLine.of(Text.YOU_ACCEPT_AND_WIN, points=worth),
                        TextLine.of(Text.ACCEPTS_AND_WINS, name=name, points=worth),
                        TextLine.of(Text.ACCEPTS_AND_WINS, name=name, points=worth))
