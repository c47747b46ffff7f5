"""Chouette commands: `chouette …`, the game verbs at a chouette, `team` and `boxside`.

Checks who may do what (at a table or not, the owner's rights, the box or the captain
on turn) and hands the rest to the player's `ChouetteTable` (the engine decides every
rule and its refusals are worded there) or to `fibsd.app.chouettes` (seats, start,
close). Every command of a table's user first lets the table's clock catch up
(`chouettes.tick_table`), so deadlines hold even between the shell's ticks.
"""

from __future__ import annotations

from fibsd.app import chouettes
from fibsd.app.verbs import clocks
from fibsd.app.outcome import Outcome
from fibsd.app.play.chouette import ChouetteTable, SavedChouette, signed
from fibsd.app.play.notation import bearoff_text
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.app.verbs.social import refuse_if_muted
from fibsd.rules import GamePhase, GameResult, greedy_bearoff
from fibsd.rules.chouette import Answer, Chouette, TablePhase
from protocol import commands as c
from protocol.errors import CommandError
from protocol.messages import TextLine
from protocol.wording import Text

_RESULTS = {
    c.ResignKind.NORMAL: GameResult.SINGLE,
    c.ResignKind.GAMMON: GameResult.GAMMON,
    c.ResignKind.BACKGAMMON: GameResult.BACKGAMMON,
}

Table = ChouetteTable[Session]


def _create(registry: Registry, session: Session, words: tuple[str, ...], out: Outcome) -> None:
    """`chouette create [multi|single] [key=value ...] [clock ...]`: the clock words are
    `invite`'s (club-play.md K6, K9), the reserve per game; no correspondence."""
    try:
        asked, rest = c.parse_clock_words([word.lower() for word in words])
    except CommandError:
        out.to(session, TextLine.of(Text.CHOUETTE_CLOCK_USAGE))
        return
    control = None
    if asked is not None:
        if asked.days is not None:
            out.to(session, TextLine.of(Text.CHOUETTE_CLOCK_USAGE))
            return
        agreed, control = clocks.clock_terms(registry, session, asked, None, out)
        if not agreed:
            return
    chouettes.create(registry, session, tuple(rest) if asked is not None else words, out, clock=control)


def chouette(registry: Registry, session: Session, command: c.Chouette, out: Outcome) -> None:
    action = command.action
    A = c.ChouetteAction
    if action is A.LIST:
        _list(registry, session, out)
        return
    if action is A.HISTORY:
        _history(registry, session, out)
        return
    if action in (A.SCORE, A.EXPORT) and command.words:
        _any_table(registry, session, action, int(command.words[0]), out)
        return
    if action is A.CREATE or action is A.JOIN:
        if session.chouette is not None:
            out.to(session, TextLine.of(Text.CHOUETTE_ALREADY_AT_ONE))
        elif session.table is not None:
            out.to(session, TextLine.of(Text.CHOUETTE_NOT_WHILE_PLAYING))
        elif action is A.CREATE:
            _create(registry, session, command.words, out)
        else:
            chouettes.join(registry, session, command.words[0], out)
        return
    table = session.chouette
    if table is None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_AT_ONE))
        return
    chouettes.tick_table(registry, table, out)
    if session.chouette is not table:
        return  # the clock took him off the table
    match action:
        case A.LEAVE:
            chouettes.leave(registry, session, command.words == ("now",), out)
        case A.START:
            chouettes.start(registry, session, out)
        case A.SHOW:
            _show(table, session, out)
        case A.SCORE:
            _score(table.engine, table.id, session, out)
        case A.KICK:
            chouettes.kick(registry, session, command.words[0], out)
        case A.CLOSE:
            chouettes.close(registry, session, out)
        case A.EXPORT:
            _export(table.engine, table.id, session, out)
        case A.PARTNER | A.EXTRA | A.NOEXTRA | A.BREAK | A.DELEGATE:
            _table_choice(table, session, command, out)
            chouettes.settle(registry, table, out)
        case _:
            raise AssertionError(f"unhandled chouette action {action}")


def _table_choice(table: Table, session: Session, command: c.Chouette, out: Outcome) -> None:
    """`chouette partner [yes|no]`, `extra`, `noextra`, `break`, `delegate NAME|off`."""
    engine = table.engine
    me = table.seated_name(session.name) or session.name
    match command.action:
        case c.ChouetteAction.PARTNER:
            if command.words:
                yes = command.words == ("yes",)
                table.act(session, lambda: engine.partner_answer(me, yes), out)
            else:
                table.act(session, lambda: engine.request_partner(me), out)
        case c.ChouetteAction.EXTRA:
            table.act(session, lambda: engine.extra(me), out)
        case c.ChouetteAction.NOEXTRA:
            table.act(session, lambda: engine.decline_extra(me), out)
        case c.ChouetteAction.DELEGATE:
            typed = command.words[0]
            to = None if typed.lower() == "off" else table.seated_name(typed)
            if to is None and typed.lower() != "off":
                out.to(session, TextLine.of(Text.CHOUETTE_NOT_SEATED))
                return
            if engine.game is not None and me == engine.captain:
                out.to(session, TextLine.of(Text.CHOUETTE_CAPTAIN_NO_DELEGATE))
                return
            table.act(session, lambda: engine.delegate(me, to), out)
        case _:
            on = me not in engine.sitting_out
            table.act(session, lambda: engine.sit_out(me, on), out)


# ------------------------------------------------------------------ listings


def _list(registry: Registry, session: Session, out: Outcome) -> None:
    known = chouettes.tables(registry)
    if not known:
        out.to(session, TextLine.of(Text.CHOUETTE_NONE))
        return
    out.to(session, TextLine.of(Text.CHOUETTE_LIST_HEADER))
    for table in known.values():
        engine = table.engine
        stage = "playing" if engine.phase is TablePhase.PLAYING else engine.phase.name.lower()
        cubes = engine.settings.cubes.value
        out.to(session, TextLine.of(Text.CHOUETTE_LIST_ENTRY, n=table.id, name=table.owner,
                                    count=len(engine.seated), text=f"{stage} {cubes}"))


def _show(table: Table, session: Session, out: Outcome) -> None:
    out.to(session, *table.show_lines())


def _score(engine: Chouette, number: int, session: Session, out: Outcome) -> None:
    """C78: each player's total, games, games as box and won, best and worst game, and
    whether he is seated, sitting out or gone (an open table's)."""
    ledger = engine.ledger
    out.to(session, TextLine.of(Text.CHOUETTE_SCORE_HEADER, n=number, count=len(ledger.games)))
    is_open = engine.phase is not TablePhase.CLOSED
    for standing in ledger.standings(engine.seated):
        text = (f"{signed(standing.total)} in {standing.games} games"
                f" ({standing.box_games} as box, {standing.box_wins} won;"
                f" best {signed(standing.best)}, worst {signed(standing.worst)})")
        if is_open:
            if standing.name in engine.sitting_out:
                text += ", sitting out"
            elif standing.name in engine.seated:
                text += ", seated"
            else:
                text += ", gone"
        out.to(session, TextLine.of(Text.CHOUETTE_SCORE_ROW, name=standing.name, text=text))


def _export(engine: Chouette, number: int, session: Session, out: Outcome) -> None:
    """The per-game record of the table, as text (one line per game)."""
    games = engine.ledger.games
    if not games:
        out.to(session, TextLine.of(Text.CHOUETTE_NO_RECORD))
        return
    settings = ", ".join(f"{key}={value}" for key, value in engine.settings.describe())
    out.to(session, TextLine.of(Text.CHOUETTE_EXPORT_HEADER, n=number, text=settings))
    for record in games:
        deltas = ", ".join(f"{name} {signed(delta)}" for name, delta in record.deltas)
        result = "box won" if record.box_won else "box lost"
        out.to(session, TextLine.of(Text.CHOUETTE_EXPORT_GAME, n=record.game, name=record.box,
                                    player=record.captain, text=f"{result}: {deltas}"))


# ------------------------------------------------------------------ any table he sat at

#: How many of his tables `chouette history` lists (the most recent).
HISTORY_LIMIT = 30


def _sat_at(engine: Chouette, name: str) -> bool:
    """Whether `name` is seated at the table or ever played a game there (C78's "every
    player ever seated": the ledger's players)."""
    key = name.lower()
    return any(s.name.lower() == key for s in engine.ledger.standings(engine.seated))


def _engine(registry: Registry, number: int, state: dict[str, object] | None) -> tuple[Chouette, str] | None:
    """Table `number`'s engine and owner: the running table's if it is open (loaded),
    else read from its saved `state` (None: no such table, or unreadable)."""
    live = chouettes.tables(registry).get(number)
    if live is not None:
        return live.engine, live.owner
    if state is None:
        return None
    try:
        saved = SavedChouette.from_dict(state)
        return Chouette.from_dict(saved.engine), saved.owner
    except ValueError:
        return None


def _any_table(registry: Registry, session: Session, action: c.ChouetteAction, number: int,
               out: Outcome) -> None:
    """`chouette score N` / `chouette export N`: any table the asker sat at, open or
    closed (a closed table's ledger stays in the store). Others' tables are refused
    with the same words as missing ones: the ledgers are the players'."""
    if chouettes.tables(registry).get(number) is not None:
        out.extend(_any_table_answer(registry, session, action, number, None))
        return
    # A closed table is only in the store: a cold read, answered when read.
    out.run(registry.read(
        lambda store: store.chouette(number),
        lambda state: _any_table_answer(registry, session, action, number, state),
        name="chouette score/export: a saved table",
    ))


def _any_table_answer(registry: Registry, session: Session, action: c.ChouetteAction,
                      number: int, state: dict[str, object] | None) -> Outcome:
    out = Outcome()
    found = _engine(registry, number, state)
    if found is None or not _sat_at(found[0], session.name):
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_YOURS, n=number))
        return out
    if action is c.ChouetteAction.SCORE:
        _score(found[0], number, session, out)
    else:
        _export(found[0], number, session, out)
    return out


def _history(registry: Registry, session: Session, out: Outcome) -> None:
    """`chouette history`: the tables the asker sat at (the latest `HISTORY_LIMIT`), with
    the games played, his total and the table's stage."""
    name = session.name
    out.run(registry.read(  # every table's saved state: a cold read
        lambda store: store.chouettes_naming(name),
        lambda tables: _history_answer(registry, session, tables),
        name="chouette history",
    ))


def _history_answer(registry: Registry, session: Session,
                    tables: list[tuple[int, bool, dict[str, object]]]) -> Outcome:
    out = Outcome()
    entries = []
    for number, closed, state in tables:
        found = _engine(registry, number, state)
        if found is None or not _sat_at(found[0], session.name):
            continue
        engine, owner = found
        key = session.name.lower()
        total = sum(delta for name, delta in engine.totals().items() if name.lower() == key)
        seated = any(name.lower() == key for name in engine.seated)
        if closed or engine.phase is TablePhase.CLOSED:
            stage = "closed"
        else:
            stage = "playing" if engine.phase is TablePhase.PLAYING else engine.phase.name.lower()
            if seated:
                stage += ", you are seated"
        entries.append(TextLine.of(Text.CHOUETTE_HISTORY_ENTRY, n=number, name=owner,
                                   count=len(engine.ledger.games), text=f"{signed(total)}, {stage}"))
    if not entries:
        out.to(session, TextLine.of(Text.CHOUETTE_NO_HISTORY))
        return out
    out.to(session, TextLine.of(Text.CHOUETTE_HISTORY_HEADER))
    for entry in entries[-HISTORY_LIMIT:]:
        out.to(session, entry)
    return out


# ------------------------------------------------------------------ the game verbs


def _names(table: Table, session: Session, typed: tuple[str, ...], out: Outcome) -> list[str] | None:
    """The named players as the table spells them; None (and a refusal) if one is not
    at the table."""
    names = []
    for word in typed:
        name = table.seated_name(word)
        if name is None:
            out.to(session, TextLine.of(Text.CHOUETTE_NOT_SEATED))
            return None
        names.append(name)
    return names


def board(session: Session, out: Outcome) -> None:
    table = session.chouette
    assert table is not None
    if table.board_line(session.name) is None:
        out.to(session, TextLine.of(Text.NOT_PLAYING))
        return
    table.board_for(session, out)


def game_command(registry: Registry, session: Session, command: c.Command, out: Outcome) -> None:
    """roll, move, off, double, accept, reject, beaver, raccoon, resign at a chouette."""
    table = session.chouette
    assert table is not None
    chouettes.tick_table(registry, table, out)
    if session.chouette is not table:
        return
    engine = table.engine
    me = table.seated_name(session.name) or session.name
    if engine.game is None:
        out.to(session, TextLine.of(Text.NOT_PLAYING))
        return
    match command:
        case c.Roll():
            _roll(table, session, me, out)
        case c.Move():
            if table.seat_of(me) is None:
                out.to(session, TextLine.of(Text.CHOUETTE_NOT_BOX_OR_CAPTAIN))
            elif engine.game.phase is not GamePhase.AWAITING_MOVE or engine.game.turn != table.seat_of(me):
                out.to(session, TextLine.of(Text.NOT_YOUR_TURN_TO_MOVE))
            else:
                table.move(session, command.moves, out)
        case c.Off():
            _off(table, session, me, out)
        case c.Double() | c.Redouble() if _settled(table, me):
            out.to(session, TextLine.of(Text.CHOUETTE_DROPPED_OUT))
        case c.Double() | c.Redouble():
            names = command.names if isinstance(command, c.Double) else ()
            targets = _names(table, session, names, out)
            if targets is not None:
                table.act(session, lambda: engine.double(me, targets or None), out)
        case c.Accept(names) | c.Reject(names) | c.Beaver(names):
            targets = _names(table, session, names, out)
            if targets is None:
                return
            resigned_to_me = any(answerer == me for _, _, answerer, _ in engine.pending_resignations())
            if resigned_to_me and not isinstance(command, c.Beaver):
                accept = isinstance(command, c.Accept)
                table.act(session, lambda: engine.answer_resignation(me, accept, targets or None), out)
            else:
                answer = {c.Accept: Answer.TAKE, c.Reject: Answer.DROP, c.Beaver: Answer.BEAVER}[type(command)]
                table.act(session, lambda: engine.answer(me, answer, targets or None), out)
        case c.Raccoon(names):
            targets = _names(table, session, names, out)
            if targets is not None:
                table.act(session, lambda: engine.raccoon(me, targets or None), out)
        case c.Otter():
            out.to(session, TextLine.of(Text.CHOUETTE_NO_BEAVERS))
        case c.Resign(kind, names):
            targets = _names(table, session, names, out)
            if targets is not None:
                result = _RESULTS[kind]
                table.act(session, lambda: engine.resign(me, result, targets or None), out)
        case _:
            raise AssertionError(f"not a game verb: {command!r}")
    chouettes.settle(registry, table, out)


def _settled(table: Table, me: str) -> bool:
    """A team member whose own cube is settled (he dropped, resigned or was dropped):
    he has nothing left to double in this game."""
    contract = table.engine.main_of(me)
    return contract is not None and not contract.live


def _roll(table: Table, session: Session, me: str, out: Outcome) -> None:
    engine = table.engine
    game = engine.game
    assert game is not None
    seat = table.seat_of(me)
    if table.open_game(me, out):
        return
    if seat is None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_BOX_OR_CAPTAIN))
    elif table.may_roll(me):
        table.roll(me, out)
    elif game.phase is GamePhase.AWAITING_MOVE and game.turn == seat:
        out.to(session, TextLine.of(Text.ALREADY_ROLLED))
    elif game.turn != seat or game.phase is not GamePhase.AWAITING_ROLL:
        out.to(session, TextLine.of(Text.NOT_YOUR_TURN_TO_ROLL))
    elif engine.pending_resignations():
        out.to(session, TextLine.of(Text.CHOUETTE_RESIGNATION_PENDING))
    elif engine.extras_givers:
        out.to(session, TextLine.of(Text.CHOUETTE_EXTRAS_OPEN))
    elif engine.pending_offers():
        out.to(session, TextLine.of(Text.CHOUETTE_ANSWERS_PENDING))
    else:
        out.to(session, TextLine.of(Text.CHOUETTE_PARTNER_PENDING))


def _off(table: Table, session: Session, me: str, out: Outcome) -> None:
    game = table.engine.game
    seat = table.seat_of(me)
    if game is None or seat is None or game.turn != seat or game.phase is not GamePhase.AWAITING_MOVE \
            or game.dice is None:
        out.to(session, TextLine.of(Text.NOT_YOUR_TURN))
        return
    play = greedy_bearoff(game.position_for(seat), game.dice)
    if play is None:
        out.to(session, TextLine.of(Text.CANT_BEAR_OFF_ALL))
        return
    out.to(session, TextLine.of(Text.BEAR_OFF, bearoff=bearoff_text(play.moves, is_o=seat == 0)))
    table.act(session, lambda: table.engine.play(me, play), out)


# ------------------------------------------------------------------ consultation


def team(registry: Registry, session: Session, command: c.Team, out: Outcome) -> None:
    """`team TEXT`: to the live team members, as the consultation mode allows (C39-C43)."""
    _side_talk(registry, session, command.text, out, box_side=False)


def boxside(registry: Registry, session: Session, command: c.Boxside, out: Outcome) -> None:
    """`boxside TEXT`: the box and his partner (C39)."""
    _side_talk(registry, session, command.text, out, box_side=True)


def _side_talk(registry: Registry, session: Session, text: str, out: Outcome, *,
               box_side: bool) -> None:
    if refuse_if_muted(registry, session, out):
        return
    table = session.chouette
    if table is None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_AT_ONE))
        return
    engine = table.engine
    me = table.seated_name(session.name) or session.name
    if box_side:
        allowed, refused, says = engine.may_boxside_talk(me), Text.CHOUETTE_BOXSIDE_REFUSED, Text.CHOUETTE_BOXSIDE_SAYS
        audience = [engine.box, engine.partner]
    else:
        allowed, refused, says = engine.may_team_talk(me), Text.CHOUETTE_TALK_REFUSED, Text.CHOUETTE_TEAM_SAYS
        audience = list(engine.team_audience())
    if not allowed:
        out.to(session, TextLine.of(refused))
        return
    line = TextLine.of(says, name=me, text=text)
    out.to_each([o for name in audience if (o := table.occupant(name)) is not None], line)
