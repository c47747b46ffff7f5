"""Match commands: invite, join, watch, look, board, pip, the game verbs, in-game chat.

Checks who may do what (FIBS's error sentences of §5.2, §5.5) and hands legal actions to
the player's `Table` or to `fibsd.app.lobby`.
"""

from __future__ import annotations

from typing import Any

from fibsd.app import lobby, tournaments
from fibsd.app.lobby import (
    MAX_LENGTH_FOR_NEWCOMERS,
    RANKED_EXPERIENCE,
    Interruption,
    conclude,
    interrupt,
    restore_table,
    resume_match,
    start_match,
    stop_watching,
)
from fibsd.app.outcome import Outcome
from fibsd.app.play import boards, timing
from fibsd.app.play.notation import bearoff_text
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Invitation, Session
from fibsd.app.verbs import clocks
from fibsd.app.verbs.social import refuse_if_muted
from fibsd.domain.matfile import MatchRecord, mat_lines, record_summary
from fibsd.rules import (
    ActionReason,
    GamePhase,
    GameResult,
    IllegalAction,
    greedy_bearoff,
)
from protocol import commands as c
from protocol.messages import (
    BoardMessage,
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


# ------------------------------------------------------------------ invitations


def invite(registry: Registry, session: Session, command: c.Invite, out: Outcome) -> None:
    if session.table is not None:
        out.to(session, TextLine.of(Text.YOU_ARE_ALREADY_PLAYING))
        return
    if session.chouette is not None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_WHILE_IN_CHOUETTE))
        return
    target = registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED, name=command.name))
        return
    if target is session:
        out.to(session, TextLine.of(Text.INVITE_SELF))
        return
    if lobby.pair_key(session.name, target.name) in registry.correspondence:
        out.to(session, TextLine.of(Text.CORRESPONDENCE_USE_IT, name=target.name, opponent=target.name))
        return
    if not session.account.toggles.ready:
        # Inviting always turns your own ready flag on (§5.2), silently but for the 5/6.
        session.set_toggle("ready", True, out)
        registry.announce_status(session, out)
    if target.table is not None or target.chouette is not None:
        out.to(session, TextLine.of(Text.ALREADY_PLAYING_WITH_SOMEONE, name=target.name))
        return
    if not target.account.toggles.ready:
        out.to(session, TextLine.of(Text.REFUSING_GAMES, name=target.name))
        return
    saved = registry.reader.saved_match_info(session.name, target.name)
    resume = command.length is None and not command.unlimited
    if resume and saved is None:
        out.to(session, TextLine.of(Text.NO_SAVED_MATCH_GIVE_LENGTH, name=target.name))
        return
    if (
        command.length is not None
        and command.length > MAX_LENGTH_FOR_NEWCOMERS
        and session.account.experience <= RANKED_EXPERIENCE
    ):
        out.to(session, TextLine.of(Text.NOT_EXPERIENCED_ENOUGH))
        return
    allowed, clock = clocks.invitation_clock(registry, session, command, out)
    if not allowed:
        return
    options = set(command.options)
    session.invitation = Invitation(
        invitee_key=target.key, length=command.length, unlimited=command.unlimited,
        holland="holland" in options, jacoby="jacoby" in options,
        nocrawford="nocrawford" in options, beavers="beavers" in options, clock=clock,
    )
    if resume:
        out.to(session, TextLine.of(Text.YOU_INVITED_RESUME, name=target.name))
        out.to(target, TextLine.of(Text.WANTS_TO_RESUME, name=session.name))
    elif command.unlimited:
        out.to(session, TextLine.of(Text.YOU_INVITED_UNLIMITED, name=target.name))
        out.to(target, TextLine.of(Text.WANTS_TO_PLAY_UNLIMITED, name=session.name))
    else:
        out.to(session, TextLine.of(Text.YOU_INVITED_MATCH, name=target.name, length=command.length))
        out.to(target, TextLine.of(Text.WANTS_TO_PLAY_MATCH, name=session.name, length=command.length))
    out.to(target, TextLine.of(Text.TYPE_JOIN_TO_ACCEPT, name=session.name))
    rules = _invitation_rules(command.options, unlimited=command.unlimited)
    if rules and not resume:
        out.to(target, TextLine.of(Text.INVITATION_RULES, text=rules))
    if clock is not None and not resume:
        # A plain line after FIBS's two (a client shows it as text; docs/clocks.md).
        terms = TextLine.of(Text.MATCH_CLOCK, text=timing.terms(clock))
        out.to(session, terms)
        out.to(target, terms)
    if not resume and saved is not None:
        length = saved.length
        if length is None:
            out.to(target, TextLine.of(Text.SAVED_UNLIMITED_WARNING))
        else:
            out.to(target, TextLine.of(Text.SAVED_MATCH_WARNING, length=length))
    if target.away_message is not None:
        out.lines(session, "")
        out.to(session, TextLine.of(Text.IS_AWAY, name=target.name, text=target.away_message))


def _invitation_rules(options: tuple[str, ...], *, unlimited: bool) -> str:
    """The option words that apply, in words (fibsd's extension line for the invitee)."""
    words = {"holland": "Holland rule", "nocrawford": "no Crawford rule"} if not unlimited \
        else {"jacoby": "Jacoby rule", "beavers": "beavers"}
    return ", ".join(words[o] for o in options if o in words)


def uninvite(registry: Registry, session: Session, out: Outcome) -> None:
    """`uninvite`: the outstanding invitation is withdrawn; the invitee is told."""
    invitation = session.invitation
    if invitation is None:
        out.to(session, TextLine.of(Text.NOTHING_TO_UNINVITE))
        return
    session.invitation = None
    target = registry.get(invitation.invitee_key)
    name = target.name if target is not None else invitation.invitee_key
    out.to(session, TextLine.of(Text.YOU_UNINVITE, name=name))
    if target is not None:
        out.to(target, TextLine.of(Text.UNINVITES_YOU, name=session.name))


def join(registry: Registry, session: Session, command: c.Join, out: Outcome) -> None:
    table = session.table
    if command.name is None:
        if table is not None and table.between_games:
            seat = table.seat_of(session)
            assert seat is not None
            table.join_next_game(seat, out)
            conclude(registry, table, out)
        elif table is None:
            out.to(session, TextLine.of(Text.JOIN_WHO))
        return  # a repeated `join` right after the game started is harmless
    if table is not None:
        if table.between_games and command.name.lower() == (session.opponent_name or "").lower():
            seat = table.seat_of(session)
            assert seat is not None
            table.join_next_game(seat, out)
            conclude(registry, table, out)
        elif not table.between_games and command.name.lower() == (session.opponent_name or "").lower():
            pass  # CocoaFIBS sends `Join` twice: ignore the second
        else:
            out.to(session, TextLine.of(Text.TWO_GAMES_AT_ONCE))
        return
    if any(t.names[1 - t.seat_of_name(session.name)].lower() == command.name.lower()
           for t in lobby.correspondence_tables(registry, session.name)):
        # FIBS's way back to a saved match (a FIBS client is reminded of a correspondence
        # match by a resume invitation: wording.EXTENSION_LINES).
        lobby.enter_correspondence(registry, session, command.name, out)
        return
    if tournaments.come_back(registry, session, command.name, out):
        return
    found = _invitation_to_join(registry, session, command.name, out)
    if found is None:
        return
    inviter, invitation = found
    if not invitation.resume and registry.reader.saved_match_info(inviter.name, session.name) is None:
        out.extend(start_match(registry, inviter, session, invitation))
        return
    # The saved match (to resume, or to reveal the dice of when a new match replaces
    # it) is a cold read: a job, and the join goes on when it is read.
    first, second = inviter.name, session.name
    out.run(registry.read(
        lambda store: store.saved_match(first, second),
        lambda saved: _join_with_saved(registry, session, first, invitation, saved),
        name="join: the saved match",
    ))


def _invitation_to_join(registry: Registry, session: Session, name: str,
                        out: Outcome) -> tuple[Session, Invitation] | None:
    """The inviter called `name` and their invitation of `session`, if `session` may join
    it now; else None, with the reason said."""
    if session.chouette is not None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_WHILE_IN_CHOUETTE))
        return None
    inviter = registry.find(name)
    if inviter is None:
        out.to(session, TextLine.of(Text.CANT_FIND_PLAYER, name=name))
        return None
    invitation = inviter.invitation
    if inviter is session or invitation is None or invitation.invitee_key != session.key:
        out.to(session, TextLine.of(Text.DIDNT_INVITE_YOU, name=inviter.name))
        return None
    if inviter.table is not None:
        out.to(session, TextLine.of(Text.JOIN_ALREADY_PLAYING, name=inviter.name))
        return None
    if not inviter.account.toggles.ready:
        out.to(session, TextLine.of(Text.REFUSING_GAMES, name=inviter.name))
        return None
    return inviter, invitation


def _join_with_saved(registry: Registry, session: Session, name: str, invitation: Invitation,
                     saved: dict[str, Any] | None) -> Outcome:
    """`join`, once the saved match is read: everything is checked again (the users may
    have moved on while it was read)."""
    out = Outcome()
    if registry.get(session.name) is not session or session.table is not None:
        return out  # gone, or already playing: the join is moot
    found = _invitation_to_join(registry, session, name, out)
    if found is None:
        return out
    inviter, current = found
    if current is not invitation:  # invited again meanwhile: that invitation's join
        return out
    if invitation.resume:
        if saved is None:
            out.to(session, TextLine.of(Text.NO_SAVED_MATCH_WITH_PLAYER, name=inviter.name))
            return out
        out.extend(resume_match(registry, inviter, session, saved))
    else:
        out.extend(start_match(registry, inviter, session, invitation, replaced=saved))
    return out


def leave(registry: Registry, session: Session, command: c.Leave | c.Panic, out: Outcome) -> None:
    table = session.table
    if table is None:
        out.to(session, TextLine.of(Text.NO_ONE_TO_LEAVE))
        return
    opponent = table.names[1 - table.seat_of_name(session.name)]
    interrupt(registry, session, Interruption.LEFT, out)
    if session.table is None:  # (a tournament's match waits for him: `join` brings him back)
        tournaments.hold(registry, session.name, opponent, out)
    if isinstance(command, c.Panic):
        out.to(session, TextLine.of(Text.PANIC_SAVED))


# --------------------------------------------------------------------- watching


def watch(registry: Registry, session: Session, command: c.Watch, out: Outcome) -> None:
    if session.table is not None:
        out.to(session, TextLine.of(Text.CANT_WATCH_WHILE_PLAYING))
        return
    target = registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_APOSTROPHE, name=command.name))
        return
    if target is session:
        out.to(session, TextLine.of(Text.USE_A_MIRROR))
        return
    if _blinded(session, target):
        out.to(session, TextLine.of(Text.DOESNT_WANT_YOU_TO_WATCH, name=target.name))
        return
    if session.watching is not None:
        out.to(session, TextLine.of(Text.YOU_STOP_WATCHING_OLD, name=session.watching.name))
        stop_watching(session, out)
    session.watching = target
    target.watched_by.add(session)
    out.to(session, TextLine.of(Text.NOW_WATCHING, name=target.name))
    out.to(target, TextLine.of(Text.IS_WATCHING_YOU, name=session.name))
    table = target.table
    chouette = target.chouette
    if table is None and chouette is not None and chouette.board_line(target.name) is not None:
        chouette.board_for(session, out)  # a chouette: the captain's board
    elif table is None:
        out.to(session, TextLine.of(Text.NOT_DOING_ANYTHING, name=target.name))
    else:
        seat = table.seat_of(target)
        assert seat is not None
        other = table.seats[1 - seat]
        if other is not None:
            out.to(other, TextLine.of(Text.STARTS_WATCHING, watcher=session.name, name=target.name))
        out.to(session, boards.board_for(table, session, seat))
    registry.announce_status(session, out)


def _blinded(session: Session, target: Session) -> bool:
    """`target` or their opponent blinded `session`."""
    if session.key in target.blinded:
        return True
    table = target.table
    if table is not None:
        return any(p is not None and session.key in p.blinded for p in table.seats)
    return False


def unwatch(registry: Registry, session: Session, out: Outcome) -> None:
    if session.watching is None:
        out.to(session, TextLine.of(Text.NOT_WATCHING))
        return
    out.to(session, TextLine.of(Text.YOU_STOP_WATCHING, name=session.watching.name))
    stop_watching(session, out)
    registry.announce_status(session, out)


def look(registry: Registry, session: Session, command: c.Look, out: Outcome) -> None:
    target = registry.find(command.name)
    if target is session:
        out.to(session, TextLine.of(Text.YOU_LOOK_GREAT))
        return
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED_APOSTROPHE, name=command.name))
        return
    table = target.table
    if table is None:
        out.to(session, TextLine.of(Text.IS_NOT_PLAYING, name=target.name))
        return
    if _blinded(session, target):
        out.to(session, TextLine.of(Text.DOESNT_WANT_YOU_TO_LOOK, name=target.name))
        return
    seat = table.seat_of(target)
    assert seat is not None
    out.to(session, boards.board_for(table, session, seat))


def board(session: Session, out: Outcome) -> None:
    table = session.table
    if table is not None:
        seat = table.seat_of(session)
        assert seat is not None
        out.to(session, boards.board_for(table, session, seat))
        return
    watched = session.watching
    if watched is not None:
        if watched.table is None and watched.chouette is not None \
                and watched.chouette.board_line(watched.name) is not None:
            watched.chouette.board_for(session, out)
            return
        if watched.table is None:
            out.to(session, TextLine.of(Text.IS_NOT_PLAYING, name=watched.name))
            return
        seat = watched.table.seat_of(watched)
        assert seat is not None
        out.to(session, boards.board_for(watched.table, session, seat))
        return
    out.to(session, TextLine.of(Text.NOT_PLAYING))


def pip(session: Session, out: Outcome) -> None:
    table = session.table or (session.watching.table if session.watching is not None else None)
    if table is None:
        out.to(session, TextLine.of(Text.NOT_PLAYING_OR_WATCHING))
        return
    seat = table.seat_of(session)
    if seat is not None:
        opponent = table.seats[1 - seat]
        if not session.account.toggles.allowpip:
            out.to(session, TextLine.of(Text.PIP_TOGGLE_FIRST))
            return
        if opponent is not None and not opponent.account.toggles.allowpip:
            out.to(session, TextLine.of(Text.PIP_NOT_ALLOWED, name=opponent.name))
            return
    elif not all(p is None or p.account.toggles.allowpip for p in table.seats):
        out.to(session, TextLine.of(Text.PLAYERS_DONT_ALLOW_PIP))
        return
    out.to(session, table.pip_line(session))


def old(registry: Registry, session: Session, command: c.Oldboard | c.Oldmoves, out: Outcome) -> None:
    """`oldboard NAME` / `oldmoves NAME`: the saved (or just finished) match with NAME."""
    if isinstance(command, c.Oldboard) and session.table is not None:
        out.to(session, TextLine.of(Text.NOT_WHILE_PLAYING))
        return
    if not (session.table is not None and (session.opponent_name or "").lower() == command.name.lower()) \
            and registry.reader.saved_match_info(session.name, command.name) is not None:
        # The saved match: a cold read, and the answer when it is read.
        name, other = session.name, command.name
        out.run(registry.read(
            lambda store: store.saved_match(name, other),
            lambda data: _old_answer(registry, session, command, data),
            name="oldboard/oldmoves: the saved match",
        ))
        return
    out.extend(_old_answer(registry, session, command, None))


def _old_answer(registry: Registry, session: Session, command: c.Oldboard | c.Oldmoves,
                data: dict[str, Any] | None) -> Outcome:
    """`oldboard`/`oldmoves` with the saved match `data` read (None: none)."""
    out = Outcome()
    table: Table[Session] | None = None
    if session.table is not None and (session.opponent_name or "").lower() == command.name.lower():
        table = session.table
    elif data is not None:
        try:
            table = restore_table(registry, data)
        except ValueError:
            table = None
    elif session.last_table is not None and command.name.lower() in (
        n.lower() for n in session.last_table.names
    ):
        table = session.last_table
    if table is None:
        missing = Text.NO_SAVED_MATCH_WITH_PLAYER if isinstance(command, c.Oldboard) else Text.NO_SAVED_GAME_WITH
        out.to(session, TextLine.of(missing, name=command.name))
        return out
    if isinstance(command, c.Oldmoves):
        out.lines(session, *table.moves_lines(table.last_game()))
        return out
    seat = table.seat_of_name(session.name)
    line = boards.board_line(table, seat, as_player=True)
    out.to(session, BoardMessage(line, style=session.account.variables.boardstyle, player_name=session.name))
    return out


# ------------------------------------------------------------------- game verbs


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
    if lobby.check_clock(registry, table, out):
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


# ----------------------------------------------------------------- in-game chat


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


# -------------------------------------------------------------------- match records


def export(registry: Registry, session: Session, command: c.Export, out: Outcome) -> None:
    """fibsd's `export`: your finished matches, or one of them as a Jellyfish .mat file."""
    # Match records are cold reads: jobs, answered when read.
    if command.record_id is None:
        name = session.name

        def listing(records: list[MatchRecord]) -> Outcome:
            answer = Outcome()
            if not records:
                answer.to(session, TextLine.of(Text.EXPORT_NONE))
                return answer
            answer.to(session, TextLine.of(Text.EXPORT_HEADER))
            answer.lines(session, *(record_summary(record) for record in records))
            return answer

        out.run(registry.read(lambda store: store.match_records_of(name), listing,
                              name="export: the records"))
        return
    record_id = command.record_id

    def exported(record: MatchRecord | None) -> Outcome:
        answer = Outcome()
        if record is None or session.key not in (name.lower() for name in record.players):
            answer.to(session, TextLine.of(Text.EXPORT_UNKNOWN, number=record_id))
            return answer
        answer.lines(session, *mat_lines(record, registry.config.club_name))
        return answer

    out.run(registry.read(lambda store: store.match_record(record_id), exported,
                          name="export: a record"))


def claim(registry: Registry, session: Session, out: Outcome) -> None:
    lobby.claim(registry, session, out)
