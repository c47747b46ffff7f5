"""Playing a match: the game verbs, in-game chat and `claim`.

roll, move, off, double, accept, reject, the (re)double variants and resign are checked
here for FIBS's refusal sentences (§5.2) and played by the player's `Table`; a clock that
ran out first is applied before (`fibsd.app.lobby.conclusion.catch_up_clock`), and the
lobby concludes a match an action won. `say`, `kibitz` and `whisper` talk at the table
(§5.1); `claim` wins a match whose dropper did not come back in time.
"""

from __future__ import annotations

from fibsd.app.lobby import interruptions
from fibsd.app.lobby.conclusion import catch_up_clock, conclude
from fibsd.app.outcome import Outcome
from fibsd.app.play.notation import bearoff_text
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.app.verbs.social import refuse_if_muted
from fibsd.rules import (
    ActionReason,
    GamePhase,
    GameResult,
    IllegalAction,
    greedy_bearoff,
)
from protocol import commands as c
from protocol.messages import (
    Kibitzes,
    Says,
    TextLine,
    Whispers,
    YouKibitz,
    YouSay,
    YouWhisper,
)
from protocol.wording import Text, count_phrase

_RESULTS = {
    c.ResignKind.NORMAL: GameResult.SINGLE,
    c.ResignKind.GAMMON: GameResult.GAMMON,
    c.ResignKind.BACKGAMMON: GameResult.BACKGAMMON,
}


def game_command(registry: Registry, session: Session, command: c.Command, out: Outcome) -> None:
    """roll, move, off, double, accept, reject, (re)double variants, resign: checked here
    for FIBS's refusal sentences, played by the table, concluded by the lobby if the
    action won the match."""
    table = session.table
    if table is None:
        _not_playing(session, command, out)
        return
    seat = table.seat_of(session)
    assert seat is not None
    other_name = table.names[1 - seat]
    if table.between_games or table.match.over:
        out.to(session, TextLine.of(Text.NOT_PLAYING))
        return
    if catch_up_clock(registry, table, out):
        return  # the clock ran out before this command came: the match is over
    if table.dropped is not None:
        out.to(session, TextLine.of(Text.OPPONENT_DISCONNECTED, name=other_name))
        return
    try:
        _act(session, table, seat, command, out)
    except IllegalAction as refused:
        out.to(session, _refusal(refused.reason, command, other_name))
    conclude(registry, table, out)


def _turn_refusal(table: Table[Session], seat: int, command: c.Command) -> TextLine | None:
    """Whose turn it is, and whether this command fits the game's phase, decided once:
    FIBS's sentence refusing `command` from `seat`, or None if it may go ahead. (The rules
    check again only as the engine's own guard; see `_refusal`.)"""
    game = table.match.game
    other_name = table.names[1 - seat]
    mine = game.turn == seat
    phase = game.phase
    offer = game.resignation
    if offer is not None and not isinstance(command, (c.Accept, c.Reject)):
        # A resignation waits for its answer before anything else happens.
        if offer[0] == seat:
            return TextLine.of(Text.RESIGN_NOT_ANSWERED, name=other_name)
        return TextLine.of(Text.WANTED_TO_RESIGN, name=other_name)
    match command:
        case c.Roll():
            if phase is GamePhase.AWAITING_MOVE and mine:
                return TextLine.of(Text.ALREADY_ROLLED)
            if not mine or phase is not GamePhase.AWAITING_ROLL:
                return TextLine.of(Text.NOT_YOUR_TURN_TO_ROLL)
        case c.Move():
            if not mine or phase is GamePhase.DOUBLE_OFFERED:
                return TextLine.of(Text.NOT_YOUR_TURN_TO_MOVE)
            if phase is GamePhase.AWAITING_ROLL:
                return TextLine.of(Text.ROLL_BEFORE_MOVING)
        case c.Off():
            if not mine or phase is not GamePhase.AWAITING_MOVE or game.dice is None:
                return TextLine.of(Text.NOT_YOUR_TURN)
        case c.Double():
            if table.match.crawford_game:
                return TextLine.of(Text.CRAWFORD_NO_DOUBLE)
            if phase is GamePhase.DOUBLE_OFFERED:
                if mine:
                    return TextLine.of(Text.DOUBLE_NOT_ANSWERED, name=other_name)
                return TextLine.of(Text.NOT_YOUR_TURN_TO_DOUBLE)
            if not mine:
                return TextLine.of(Text.WAIT_UNTIL_MOVED, name=other_name)
            if phase is GamePhase.AWAITING_MOVE:
                return TextLine.of(Text.DOUBLE_BEFORE_ROLLING)
        case c.Accept() | c.Reject():
            answers_double = phase is GamePhase.DOUBLE_OFFERED and not mine
            answers_resignation = (phase is GamePhase.RESIGNATION_OFFERED and offer is not None
                                   and offer[0] != seat)
            if not (answers_double or answers_resignation):
                return TextLine.of(Text.DIDNT_DOUBLE_OR_RESIGN, name=other_name)
        case c.Redouble() | c.Beaver() | c.Raccoon() | c.Otter():
            if table.match.length is not None:
                return TextLine.of(Text.REDOUBLES_ONLY_UNLIMITED)
            beaver = phase is GamePhase.DOUBLE_OFFERED and not mine
            raccoon = phase is GamePhase.AWAITING_ROLL and mine
            if not (beaver or raccoon):
                return TextLine.of(Text.REDOUBLE_NOT_ALLOWED)
        case c.Resign():
            pass  # any time in a game; the rules refuse a second offer (`_refusal`)
        case _:
            raise AssertionError(f"not a game verb: {command!r}")
    return None


def _act(session: Session, table: Table[Session], seat: int, command: c.Command, out: Outcome) -> None:
    """Carry out a game command that `_turn_refusal` let through."""
    refused = _turn_refusal(table, seat, command)
    if refused is not None:
        out.to(session, refused)
        return
    game = table.match.game
    match command:
        case c.Roll():
            table.roll(seat, out)
        case c.Move():
            table.move(seat, command.moves, out)
        case c.Off():
            assert game.dice is not None
            play = greedy_bearoff(game.position_for(seat), game.dice)
            if play is None:
                out.to(session, TextLine.of(Text.CANT_BEAR_OFF_ALL))
                return
            out.to(session, TextLine.of(Text.BEAR_OFF, bearoff=bearoff_text(play.moves, is_o=table.is_o(seat))))
            table.play(seat, play, out)
        case c.Double():
            table.double(seat, out)
        case c.Accept() | c.Reject():
            accepting = isinstance(command, c.Accept)
            if game.phase is GamePhase.DOUBLE_OFFERED:
                (table.accept_double if accepting else table.reject_double)(seat, out)
            else:
                (table.accept_resignation if accepting else table.reject_resignation)(seat, out)
        case c.Redouble() | c.Beaver() | c.Raccoon() | c.Otter():
            if game.phase is GamePhase.DOUBLE_OFFERED:
                table.beaver(seat, out)
            else:
                table.raccoon(seat, out)
        case c.Resign():
            table.resign(seat, _RESULTS[command.kind], out)
        case _:
            raise AssertionError(f"not a game verb: {command!r}")


def _refusal(reason: ActionReason, command: c.Command, other_name: str) -> TextLine:
    match reason:
        case ActionReason.CRAWFORD_GAME:
            return TextLine.of(Text.CRAWFORD_NO_DOUBLE)
        case ActionReason.CUBE_NOT_YOURS | ActionReason.HOLLAND_RULE | ActionReason.REDOUBLE_LIMIT:
            return TextLine.of(Text.NOT_YOUR_TURN_TO_DOUBLE)
        case ActionReason.NO_BEAVERS:
            return TextLine.of(Text.REDOUBLE_NOT_ALLOWED)
        case ActionReason.NOT_YOUR_TURN:
            return TextLine.of(Text.NOT_YOUR_TURN)
        case _:
            if isinstance(command, c.Resign):
                return TextLine.of(Text.DOUBLE_NOT_ANSWERED, name=other_name)
            return TextLine.of(Text.NOT_YOUR_TURN)


def _not_playing(session: Session, command: c.Command, out: Outcome) -> None:
    match command:
        case c.Reject():
            out.to(session, TextLine.of(Text.NOT_PLAYING_CANT_GIVE_UP))
        case _:
            out.to(session, TextLine.of(Text.NOT_PLAYING))


def say(registry: Registry, session: Session, command: c.Say, out: Outcome) -> None:
    """`say`: to the opponent only; gag does not apply (§5.1)."""
    if refuse_if_muted(registry, session, out):
        return
    table = session.table
    seat = None if table is None else table.seat_of(session)
    if table is None or seat is None:
        out.to(session, TextLine.of(Text.SAY_OUTSIDE_GAME))
        return
    opponent = table.seats[1 - seat]
    if opponent is not None:
        out.to(opponent, Says(session.name, command.text))
    out.to(session, YouSay(table.names[1 - seat], command.text))


def kibitz(registry: Registry, session: Session, command: c.Kibitz | c.Whisper, out: Outcome) -> None:
    """`kibitz` reaches players and watchers; `whisper` only the watchers (§5.1)."""
    if refuse_if_muted(registry, session, out):
        return
    table = session.table or (session.watching.table if session.watching is not None else None)
    chouette = session.chouette or (session.watching.chouette if session.watching is not None else None)
    whisper = isinstance(command, c.Whisper)
    audience: list[Session]
    if table is not None:
        audience = list(table.watchers())
        if not whisper:
            audience += [p for p in table.seats if p is not None]
    elif chouette is not None:
        # C43: while a chouette game runs, kibitz reaches its watchers only, so they
        # cannot advise the players; between games the table hears it too.
        audience = list(chouette.watchers())
        if not whisper and chouette.engine.game is None:
            audience += chouette.everyone()
    else:
        out.to(session, TextLine.of(Text.NOT_WATCHING_OR_PLAYING))
        return
    heard = 0
    message = Whispers(session.name, command.text) if whisper else Kibitzes(session.name, command.text)
    for listener in dict.fromkeys(audience):
        if listener is session or session.key in listener.gagged:
            continue
        out.to(listener, message)
        heard += 1
    out.to(session, YouWhisper(command.text) if whisper else YouKibitz(command.text))
    if heard == 0:
        out.to(session, TextLine.of(Text.NOBODY_HEARD_YOU))
    else:
        out.to(session, TextLine.of(Text.USERS_HEARD_YOU, users=count_phrase(heard, "user")))


def claim(registry: Registry, session: Session, out: Outcome) -> None:
    interruptions.claim(registry, session, out)
