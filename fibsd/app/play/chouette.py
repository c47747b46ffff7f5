"""A running chouette: the engine's table, the users at it, narration, boards, saving.

A `ChouetteTable` owns one `fibsd.rules.chouette.Chouette` (the rules, pure), the table's
number and owner, who of its players is here (occupants, as `fibsd.app.play.table`'s
`Occupant` protocol) and who dropped and since when, the deadline of the engine's timed
decisions (sealed answers, extras), and the dice. It turns the engine's events into
lines for everyone at the table (`Chouette:` status lines, and FIBS's own sentences for
the rolls and moves the box and the captain make, so a FIBS client follows the board),
sends the boards (the box and the captain as players of an unlimited match, everyone
else the captain's board with his own cube), and saves the whole state after every
completed action. It never calls the lobby's rung: `fibsd.app.chouettes` makes, finds
and closes tables and calls `tick` for the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from fibsd.app.outcome import Delivery, Outcome
from fibsd.app.play.notation import moves_text, own_point, play_error
from fibsd.app.play.table import Occupant, RollCounts
from fibsd.clock import Clock
from fibsd.dice import DiceSource, SeededDice
from fibsd.rules import (
    CheckersMoved,
    DiceRolled,
    Game,
    GamePhase,
    GameResult,
    IllegalPlay,
    OpeningRolled,
    RuleError,
    TurnPassed,
)
from fibsd.rules.chouette import (
    Answer,
    AnswerSealed,
    AnyEvent,
    CaptainChanged,
    Chouette,
    ChouetteError,
    ChouetteGameOver,
    ChouetteGameStarted,
    ChouetteReason,
    CubesAutoDoubled,
    DoubleAnswered,
    Doubled,
    ExtraGiven,
    ExtrasOpen,
    Holder,
    LeaveDeferred,
    MoneyMoved,
    OrderDecided,
    OrderRolled,
    PartnerChosen,
    PartnerDeclined,
    PartnerMode,
    PartnerOffered,
    PlayerJoined,
    PlayerLeft,
    ProxySet,
    Raccooned,
    ResignationAnswered,
    ResignationOffered,
    SittingOut,
    TableClosed,
    TablePhase,
)
from protocol.board import YOU, BoardLine, Checkers, Colour, build_board_line
from protocol.commands import MovePoint
from protocol.messages import BoardMessage, TextLine
from protocol.wording import Text

SAVED_FORMAT = 1
#: FIBS's match length for unlimited matches in the board line.
UNLIMITED_LENGTH = 9999

O = TypeVar("O", bound=Occupant)

#: How each refusal of the engine is worded (`** ` lines).
REFUSALS: dict[ChouetteReason, Text] = {
    ChouetteReason.NOT_SEATED: Text.CHOUETTE_NOT_SEATED,
    ChouetteReason.ALREADY_SEATED: Text.CHOUETTE_ALREADY_SEATED,
    ChouetteReason.TABLE_FULL: Text.CHOUETTE_TABLE_FULL,
    ChouetteReason.TOO_FEW_PLAYERS: Text.CHOUETTE_TOO_FEW,
    ChouetteReason.WRONG_PHASE: Text.CHOUETTE_WRONG_PHASE,
    ChouetteReason.BAD_DICE: Text.CHOUETTE_WRONG_PHASE,
    ChouetteReason.NOT_BOX_OR_CAPTAIN: Text.CHOUETTE_NOT_BOX_OR_CAPTAIN,
    ChouetteReason.NOT_BOX: Text.CHOUETTE_NOT_BOX,
    ChouetteReason.NOT_LIVE: Text.CHOUETTE_NOT_LIVE,
    ChouetteReason.CANNOT_DOUBLE: Text.CHOUETTE_CANNOT_DOUBLE,
    ChouetteReason.NOT_DOUBLED: Text.CHOUETTE_NOT_DOUBLED,
    ChouetteReason.ALREADY_ANSWERED: Text.CHOUETTE_ALREADY_ANSWERED,
    ChouetteReason.ANSWERS_PENDING: Text.CHOUETTE_ANSWERS_PENDING,
    ChouetteReason.RESIGNATION_PENDING: Text.CHOUETTE_RESIGNATION_PENDING,
    ChouetteReason.NO_RESIGNATION: Text.CHOUETTE_NO_RESIGNATION,
    ChouetteReason.PARTNER_PENDING: Text.CHOUETTE_PARTNER_PENDING,
    ChouetteReason.EXTRAS_OPEN: Text.CHOUETTE_EXTRAS_OPEN,
    ChouetteReason.NO_EXTRAS: Text.CHOUETTE_NO_EXTRAS,
    ChouetteReason.NO_BEAVERS: Text.CHOUETTE_NO_BEAVERS,
    ChouetteReason.BOX_LIMIT: Text.CHOUETTE_BOX_LIMIT,
    ChouetteReason.SINGLE_CUBE: Text.CHOUETTE_SINGLE_CUBE,
    ChouetteReason.NO_PARTNER: Text.CHOUETTE_NO_PARTNER,
    ChouetteReason.NO_REPLACEMENT: Text.CHOUETTE_NO_REPLACEMENT,
    ChouetteReason.BAD_DELEGATE: Text.CHOUETTE_BAD_DELEGATE,
    ChouetteReason.GAME_IN_PROGRESS: Text.CHOUETTE_GAME_IN_PROGRESS,
    ChouetteReason.CLOSED: Text.CHOUETTE_CLOSED,
}

_RESULT_WORDS = {GameResult.SINGLE: "normal", GameResult.GAMMON: "gammon",
                 GameResult.BACKGAMMON: "backgammon"}


def refusal(error: ChouetteError) -> TextLine:
    return TextLine.of(REFUSALS[error.reason])


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def _checkers(side: tuple[int, ...]) -> Checkers:
    # rules: index 0 = borne off, 1..24 own points, 25 = bar
    return Checkers(points=side[1:25], bar=side[25], off=side[0])


def _key(name: str) -> str:
    return name.lower()


class ChouetteTable(Generic[O]):
    """One chouette table and who of its players is at it now."""

    def __init__(
        self, engine: Chouette, *, table_id: int, owner: str, clock: Clock, dice: DiceSource,
        roll_counts: RollCounts,
    ) -> None:
        self.engine = engine
        self.id = table_id
        self.owner = owner
        self.clock = clock
        self.dice = dice
        self.roll_counts = roll_counts
        #: The seated players who are logged in, by name key.
        self.present: dict[str, O] = {}
        #: Seated players who dropped (or are not back since a restart), by name key:
        #: since when. `tick` applies the disconnect rules when their time runs out.
        self.away: dict[str, float] = {}
        #: When the engine's pending timed decision (sealed answers, extras, a partner
        #: offer) is decided for those who did not answer.
        self.deadline: float | None = None
        #: Where each game's board comes from: None for the usual opening (tests set
        #: positions here, as they script the dice).
        self.board_factory: Callable[[], Game] | None = None
        #: The box and the captain as the last narration left them: the last move of a
        #: game is told after the game ended and the roles rotated.
        self.last_movers: tuple[str | None, str | None] = (None, None)
        self._remember_movers()

    # ------------------------------------------------------------------ people

    def seated_name(self, typed: str) -> str | None:
        """The seated player's name as the table spells it (any case), or None."""
        for name in self.engine.seated:
            if _key(name) == _key(typed):
                return name
        return None

    def everyone(self) -> list[O]:
        return list(self.present.values())

    def occupant(self, name: str | None) -> O | None:
        return None if name is None else self.present.get(_key(name))

    def watchers(self) -> list[O]:
        """Who watches a player at the table (and is not at it): they get the boards and
        FIBS's own roll and move lines, never the `Chouette:` lines (not opted in)."""
        found: list[O] = []
        for occupant in self.present.values():
            for watcher in occupant.watched_by:
                if watcher not in found and self.seated_name(watcher.name) is None:
                    found.append(watcher)
        return found

    def tell_all(self, out: Outcome, line: Delivery) -> None:
        out.to_each(self.everyone(), line)

    def _say(self, out: Outcome, actor: str | None, own: TextLine | None, others: TextLine | None) -> None:
        for occupant in self.everyone():
            line = own if actor is not None and _key(occupant.name) == _key(actor) else others
            if line is not None:
                out.to(occupant, line)
        if others is not None:
            out.to_each(self.watchers(), others)

    # ------------------------------------------------------------------ narration

    def narrate(self, events: Iterable[AnyEvent], out: Outcome) -> None:
        """Every event in words, to everyone at the table."""
        self._narrate(list(events), out)
        self._remember_movers()

    def _narrate(self, events: list[AnyEvent], out: Outcome) -> None:
        engine = self.engine
        index = 0
        last_answer: tuple[str, str, Answer, int] | None = None
        while index < len(events):
            event = events[index]
            index += 1
            match event:
                case Doubled():
                    # One line per doubler: consecutive doubles of one player go together.
                    answerers = [event.answerer]
                    while index < len(events):
                        following = events[index]
                        if not (isinstance(following, Doubled) and following.doubler == event.doubler):
                            break
                        answerers.append(following.answerer)
                        index += 1
                    # (single cube: the captain's one double reaches the box once per
                    # member's contract; the box is named once)
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_DOUBLES, name=event.doubler,
                                                   names=", ".join(dict.fromkeys(answerers))))
                case PlayerJoined():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_JOINS, name=event.name,
                                                   count=len(engine.seated)))
                case PlayerLeft():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_LEAVES, name=event.name))
                case LeaveDeferred():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_LEAVES_AFTER_GAME, name=event.name))
                case SittingOut():
                    text = Text.CHOUETTE_SITS_OUT if event.on else Text.CHOUETTE_SITS_IN
                    self.tell_all(out, TextLine.of(text, name=event.name))
                case OrderRolled():
                    rolled = ", ".join(f"{name} {die}" for name, die in event.dice)
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER_ROLL, text=rolled))
                    if event.tied:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER_TIED,
                                                       names=", ".join(event.tied)))
                case OrderDecided():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER, names=", ".join(event.queue)))
                case ChouetteGameStarted():
                    crew = ", ".join(event.crew) or "-"
                    if event.partner is None:
                        line = TextLine.of(Text.CHOUETTE_GAME_STARTS, n=event.game_number, name=event.box,
                                           player=event.captain, names=crew)
                    else:
                        line = TextLine.of(Text.CHOUETTE_GAME_STARTS_PARTNER, n=event.game_number,
                                           name=event.box, opponent=event.partner,
                                           player=event.captain, names=crew)
                    self.tell_all(out, line)
                case CubesAutoDoubled():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_CUBES_TURNED, cube=event.value))
                case AnswerSealed():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWERED_SEALED, name=event.name))
                case DoubleAnswered():
                    if event.forced:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FORCED, name=event.answerer))
                    if event.proxied and event.follows is not None:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FOLLOWS_DELEGATE,
                                                       name=event.answerer, opponent=event.follows))
                    elif event.proxied:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FOLLOWS, name=event.answerer))
                    if last_answer == (event.answerer, event.doubler, event.answer, event.value):
                        continue  # single cube: the box's one answer, once per contract
                    last_answer = (event.answerer, event.doubler, event.answer, event.value)
                    fields = dict(name=event.answerer, opponent=event.doubler)
                    match event.answer:
                        case Answer.TAKE:
                            line = TextLine.of(Text.CHOUETTE_TAKES, cube=event.value, **fields)
                        case Answer.DROP:
                            line = TextLine.of(Text.CHOUETTE_DROPS, n=event.value, **fields)
                        case Answer.BEAVER:
                            line = TextLine.of(Text.CHOUETTE_BEAVERS, cube=event.value, **fields)
                    self.tell_all(out, line)
                case Raccooned():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_RACCOONS, name=event.by, cube=event.value))
                case PartnerOffered():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_OFFERED, name=event.name))
                case PartnerDeclined():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_DECLINED, name=event.name))
                case PartnerChosen():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_CHOSEN, name=event.name,
                                                   player=event.captain))
                case CaptainChanged():
                    if event.new is None:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_TEAM_OUT))
                    else:
                        self.tell_all(out, TextLine.of(Text.CHOUETTE_CAPTAIN_NOW, name=event.new))
                case ExtrasOpen():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_EXTRAS, names=", ".join(event.givers),
                                                   name=event.taker, cube=event.value, n=event.fee))
                case ExtraGiven():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_EXTRA_GIVEN, name=event.giver,
                                                   opponent=event.taker, cube=event.value, n=event.fee))
                case ResignationOffered():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_RESIGNS, name=event.resigner,
                                                   opponent=event.answerer,
                                                   text=_RESULT_WORDS[event.result], n=event.amount))
                case ResignationAnswered():
                    text = Text.CHOUETTE_RESIGN_ACCEPTED if event.accepted else Text.CHOUETTE_RESIGN_REJECTED
                    self.tell_all(out, TextLine.of(text, name=event.answerer))
                case ProxySet(to=str(delegate)) if event.on:
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_DELEGATES, name=event.name,
                                                   opponent=delegate))
                case ProxySet():
                    text = Text.CHOUETTE_FOLLOWS_CAPTAIN if event.on else Text.CHOUETTE_IN_CONTROL
                    self.tell_all(out, TextLine.of(text, name=event.name))
                case MoneyMoved():
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_PAYS, name=event.payer,
                                                   opponent=event.payee, n=event.amount))
                case ChouetteGameOver():
                    deltas = ", ".join(f"{name} {signed(delta)}" for name, delta in event.deltas)
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_GAME_OVER, n=event.game_number,
                                                   text=deltas, names=", ".join(event.queue) or "-"))
                case TableClosed():
                    totals = ", ".join(f"{name} {signed(total)}" for name, total in event.totals) or "-"
                    self.tell_all(out, TextLine.of(Text.CHOUETTE_CLOSED_TOTALS, text=totals))
                case OpeningRolled():
                    box, captain = engine.box or "?", engine.captain or "?"
                    for occupant in self.everyone():
                        if _key(occupant.name) == _key(box):
                            line = TextLine.of(Text.YOU_ROLLED_OPENING, die=event.die0, opponent=captain,
                                               opponent_die=event.die1)
                        elif _key(occupant.name) == _key(captain):
                            line = TextLine.of(Text.YOU_ROLLED_OPENING, die=event.die1, opponent=box,
                                               opponent_die=event.die0)
                        else:
                            line = TextLine.of(Text.ROLLED_OPENING, name=box, die=event.die0,
                                               opponent=captain, opponent_die=event.die1)
                        out.to(occupant, line)
                    out.to_each(self.watchers(), TextLine.of(
                        Text.ROLLED_OPENING, name=box, die=event.die0, opponent=captain,
                        opponent_die=event.die1))
                case DiceRolled():
                    mover = self._mover(event.player)
                    die1, die2 = event.dice
                    self._say(out, mover, TextLine.of(Text.YOU_ROLL, die1=die1, die2=die2),
                              TextLine.of(Text.ROLLS, name=mover, die1=die1, die2=die2))
                case TurnPassed():
                    mover = self._mover(event.player)
                    self._say(out, mover, TextLine.of(Text.YOU_CANT_MOVE),
                              TextLine.of(Text.CANT_MOVE, name=mover))
                case CheckersMoved():
                    mover = self._mover(event.player)
                    line = TextLine.of(Text.MOVES, name=mover,
                                       moves=moves_text(event.moves, is_o=event.player == 0))
                    self._say(out, mover, None, line)
                case _:
                    pass  # settlements show in the game's result; the board shows the rest

    def opponent_of(self, name: str) -> str | None:
        """Whom `name` plays in the running game, for the who-info `opponent` field
        (CLIP 5, so clients show him as "playing NAME"): the captain for the box and his
        partner, the box for every team member in the game; None between games, and for
        players sitting out or waiting for the next game."""
        engine = self.engine
        if engine.phase is not TablePhase.PLAYING or engine.game is None:
            return None
        seated = self.seated_name(name)
        if seated is None or seated not in engine.participants:
            return None
        if seated in (engine.box, engine.partner):
            return engine.captain
        return engine.box

    def _mover(self, player: int) -> str:
        if self.engine.game is None:  # (the game that just ended: its players)
            return self.last_movers[player] or "?"
        return (self.engine.box if player == 0 else self.engine.captain) or "?"

    def _remember_movers(self) -> None:
        if self.engine.game is not None:
            self.last_movers = (self.engine.box, self.engine.captain)

    # ------------------------------------------------------------------ boards

    def seat_of(self, name: str) -> int | None:
        """0 for the box, 1 for the (acting) captain, None for everyone else."""
        if self.engine.box is not None and _key(name) == _key(self.engine.box):
            return 0
        if self.engine.captain is not None and _key(name) == _key(self.engine.captain):
            return 1
        return None

    def board_line(self, viewer: str) -> BoardLine | None:
        """The board `viewer` sees: his own as box or captain, else the captain's with
        his own cube (C81). None when no game is on."""
        engine = self.engine
        game = engine.game if engine.game is not None else engine.last_game
        if game is None or engine.box is None:
            return None
        captain = engine.captain or (engine.team()[0] if engine.team() else "?")
        seat = self.seat_of(viewer)
        view = 0 if seat == 0 else 1
        other = 1 - view
        names = (engine.box, captain)
        colour = Colour.O if view == 0 else Colour.X
        own = engine.main_of(self.seated_name(viewer) or "") if seat != 0 else None
        contract = own if own is not None else engine.main_of(captain)
        cube, owner, doubled = 1, None, False
        if contract is not None:
            cube, owner = contract.value, contract.owner
            doubled = any(cid == contract.cid for cid, _, _ in engine.pending_offers())
        turn: Colour | None = None
        player_dice = opponent_dice = (0, 0)
        can_move = 0
        playing = engine.game is not None and game.phase not in (GamePhase.GAME_OVER, GamePhase.OPENING)
        if playing and game.turn is not None:
            turn = colour if game.turn == view else colour.opponent
            if game.phase is GamePhase.AWAITING_MOVE and game.dice is not None:
                if game.turn == view:
                    player_dice = game.dice
                else:
                    opponent_dice = game.dice
                can_move = game.moves_required()
        mine, theirs = (Holder.BOX, Holder.TEAM) if view == 0 else (Holder.TEAM, Holder.BOX)
        return build_board_line(
            player=YOU if seat is not None else names[view],
            opponent=names[other],
            colour=colour,
            player_checkers=_checkers(game.side(view)),
            opponent_checkers=_checkers(game.side(other)),
            match_length=UNLIMITED_LENGTH,
            turn=turn,
            player_dice=player_dice,
            opponent_dice=opponent_dice,
            cube=cube,
            player_may_double=not doubled and owner in (None, mine),
            opponent_may_double=not doubled and owner in (None, theirs),
            was_doubled=doubled,
            can_move=can_move,
        )

    def header(self, viewer: str) -> TextLine | None:
        """The one-line summary a telnet board gets above it (C81)."""
        engine = self.engine
        if engine.box is None or (engine.game is None and engine.last_game is None):
            return None
        captain = engine.captain or "-"
        fields: dict[str, object] = dict(n=self.id, count=engine.game_number, name=engine.box,
                                         player=captain)
        if self.seat_of(viewer) == 0:
            return TextLine.of(Text.CHOUETTE_YOU_ARE_BOX, n=self.id, count=engine.game_number,
                               player=captain)
        contract = engine.main_of(self.seated_name(viewer) or "")
        if contract is None or not contract.live:
            return TextLine.of(Text.CHOUETTE_NOT_IN_GAME, **fields)
        return TextLine.of(Text.CHOUETTE_YOUR_CUBE, cube=contract.value, **fields)

    def board_for(self, viewer: O, out: Outcome) -> None:
        line = self.board_line(viewer.name)
        if line is None:
            return
        if not viewer.clip:
            header = self.header(viewer.name)
            if header is not None:
                out.to(viewer, header)
        playing = self.seat_of(viewer.name) is not None
        out.to(viewer, BoardMessage(line, style=viewer.account.variables.boardstyle,
                                    player_name=viewer.name if playing else None))

    def boards(self, out: Outcome, *, after: str) -> None:
        """Boards after a roll (to those with `moreboards`), a move (`autoboard`), or
        always (a game's start)."""
        for occupant in [*self.everyone(), *self.watchers()]:
            toggles = occupant.account.toggles
            wants = toggles.moreboards if after == "roll" else toggles.autoboard
            if after == "always" or wants:
                self.board_for(occupant, out)

    # ------------------------------------------------------------------ saving

    def saved_state(self) -> dict[str, Any]:
        return {
            "format": SAVED_FORMAT,
            "id": self.id,
            "owner": self.owner,
            "engine": self.engine.to_dict(),
            "dice": self.dice.to_dict() if isinstance(self.dice, SeededDice) else None,
        }

    @classmethod
    def from_saved(cls, data: dict[str, Any], *, clock: Clock, dice: DiceSource,
                   roll_counts: RollCounts) -> ChouetteTable[O]:
        """ValueError if `data` is not a saved chouette."""
        try:
            if data.get("format") != SAVED_FORMAT:
                raise ValueError("unknown saved chouette format")
            engine = Chouette.from_dict(data["engine"])
            return cls(engine, table_id=int(data["id"]), owner=str(data["owner"]), clock=clock,
                       dice=dice, roll_counts=roll_counts)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a saved chouette: {error!r}") from error

    def persist(self, out: Outcome) -> None:
        """Commit the state (a whole copy: a chouette's state is small) before anything
        about it is delivered."""
        table_id, owner, now = self.id, self.owner, self.clock.now()
        state = self.saved_state()
        closed = self.engine.phase is TablePhase.CLOSED
        out.write(lambda store: store.save_chouette(table_id, owner, state, now, closed=closed))

    # ------------------------------------------------------------------ flow

    def _die(self) -> int:
        return self.dice.die()

    def act(self, actor: O | None, action: Callable[[], list[AnyEvent]], out: Outcome) -> bool:
        """Run one engine action: a refusal goes to `actor` and changes nothing; accepted
        events are told, saved, and the table goes on (next prompt, automatic roll, next
        game)."""
        try:
            events = action()
        except ChouetteError as error:
            if actor is not None:
                out.to(actor, refusal(error))
            return False
        except RuleError:  # the board's own refusal (e.g. an action out of its phase)
            if actor is not None:
                out.to(actor, TextLine.of(Text.CHOUETTE_WRONG_PHASE))
            return False
        self.narrate(events, out)
        self._after(events, out)
        return True

    def _after(self, events: list[AnyEvent], out: Outcome) -> None:
        engine = self.engine
        if any(isinstance(e, (Doubled, ExtrasOpen, PartnerOffered)) for e in events):
            self._set_deadline()
        if engine.partner_draw_candidates:
            # Nobody accepted: the server draws one at random (C61), with the table's dice.
            candidates = engine.partner_draw_candidates
            drawn = candidates[self._draw(len(candidates))]
            events = events + engine.draw_partner(drawn)
            self.narrate(events[-1:], out)
        if not engine.pending_offers() and not engine.extras_givers and engine.partner_offered_to is None:
            self.deadline = None
        if any(isinstance(e, ChouetteGameOver) for e in events):
            # (no final board: the roles have rotated already; the next game's follows)
            self.persist(out)
            self.next_game(out)
            return
        game = engine.game
        if game is not None and game.phase is GamePhase.OPENING and any(
                isinstance(e, PartnerChosen) for e in events):
            self._opening(out, decided=True)
            return
        self.persist(out)
        if any(isinstance(e, (DoubleAnswered, ResignationAnswered, ExtraGiven)) for e in events) \
                or any(isinstance(e, CaptainChanged) for e in events):
            self.boards(out, after="move")
        self.begin_turn(out)

    def _draw(self, count: int) -> int:
        """A fair index below `count` (at most 36) from two dice, by rejection."""
        while True:
            value = (self._die() - 1) * 6 + self._die() - 1
            if value < 36 - 36 % count:
                return value % count

    def _set_deadline(self) -> None:
        self.deadline = self.clock.now() + self.engine.settings.answer_seconds

    def start(self, out: Outcome) -> None:
        """`chouette start`: the order from one die each (ties re-roll), then game 1."""
        events = self.engine.begin_order()
        while self.engine.order_to_roll:
            events += self.engine.order_roll({name: self._die() for name in self.engine.order_to_roll})
        self.narrate(events, out)
        self.next_game(out)

    def next_game(self, out: Outcome) -> None:
        """Start the next game if enough players are active; else wait for players."""
        if self.engine.phase is not TablePhase.BETWEEN_GAMES:
            return
        try:
            board = None if self.board_factory is None else self.board_factory()
            events = self.engine.start_game(board)
        except ChouetteError:
            self.tell_all(out, TextLine.of(Text.CHOUETTE_WAITING))
            self.persist(out)
            return
        self.narrate(events, out)
        for occupant in self.everyone():
            occupant.reset_toggles_for_new_game(out)
        self._after_partner_events(events, out)
        self._opening(out)

    def _after_partner_events(self, events: list[AnyEvent], out: Outcome) -> None:
        if any(isinstance(e, PartnerOffered) for e in events):
            self._set_deadline()

    def partner_possible(self) -> bool:
        """The box may still ask for a partner before the opening roll (C60)."""
        engine = self.engine
        game = engine.game
        return (engine.settings.partner is PartnerMode.OPTIONAL and engine.partner is None
                and game is not None and game.phase is GamePhase.OPENING
                and len(engine.participants) >= engine.settings.partner_from
                and engine.partner_offered_to is None and not engine.partner_draw_candidates)

    def _opening(self, out: Outcome, *, decided: bool = False) -> None:
        """The opening roll (ties re-roll), unless the box may still take a partner:
        then he decides first (`chouette partner`, or `roll` to play alone)."""
        engine = self.engine
        game = engine.game
        if game is None:
            return
        if not decided and self.partner_possible():
            self.persist(out)
            self.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_POSSIBLE, name=engine.box or "?"))
            return
        if game.phase is GamePhase.AWAITING_ROLL:  # a set-up board: no opening roll
            self.persist(out)
            self.boards(out, after="always")
            self.begin_turn(out)
            return
        while game.phase is GamePhase.OPENING:
            if engine.partner_offered_to is not None or engine.partner_draw_candidates:
                self.persist(out)
                return  # the partner is chosen first
            box_die, captain_die = self._die(), self._die()
            events = engine.opening_roll(box_die, captain_die)
            self.roll_counts[(box_die, captain_die)] += 1
            self.narrate(events, out)
        self.persist(out)
        first = game.turn
        assert first is not None
        mover = self._mover(first)
        self._say(out, mover, TextLine.of(Text.YOUR_TURN_TO_MOVE),
                  TextLine.of(Text.MAKES_FIRST_MOVE, name=mover))
        self.boards(out, after="always")

    def _board_busy(self) -> bool:
        engine = self.engine
        return bool(engine.pending_offers() or engine.pending_resignations() or engine.extras_givers
                    or engine.partner_offered_to is not None or engine.partner_draw_candidates)

    def begin_turn(self, out: Outcome) -> None:
        """At the start of a turn: prompt the side on turn to roll or double, or roll
        for it when nobody on that side may double (as FIBS does)."""
        engine = self.engine
        game = engine.game
        if game is None or game.phase is not GamePhase.AWAITING_ROLL or self._board_busy():
            return
        if game.turn == 0:
            actor = engine.box
            may_double = bool(actor and engine.eligible_doubles(actor))
        else:
            actor = engine.captain
            may_double = any(engine.eligible_doubles(m) for m in engine.team())
        if actor is None:
            return
        if may_double:
            occupant = self.occupant(actor)
            if occupant is not None:
                out.to(occupant, TextLine.of(Text.YOUR_TURN_ROLL_OR_DOUBLE))
            return
        self.roll(actor, out)

    def open_game(self, name: str, out: Outcome) -> bool:
        """The box's `roll` before the opening: he plays without a partner."""
        engine = self.engine
        if engine.box is None or _key(name) != _key(engine.box) or not self.partner_possible():
            return False
        self._opening(out, decided=True)
        return True

    def may_roll(self, name: str) -> bool:
        engine = self.engine
        game = engine.game
        if game is None or game.phase is not GamePhase.AWAITING_ROLL or self._board_busy():
            return False
        return _key(name) == _key(self._mover(game.turn if game.turn is not None else 0))

    def roll(self, name: str, out: Outcome) -> None:
        """Roll for the box or the captain on turn (by command or automatically)."""
        dice = (self._die(), self._die())
        events = self.engine.roll(name, dice)
        self.roll_counts[dice] += 1
        self.narrate(events, out)
        self.boards(out, after="roll")
        game = self.engine.game
        if any(isinstance(event, TurnPassed) for event in events):
            self.boards(out, after="move")
            self.persist(out)
            self.begin_turn(out)
            return
        self.persist(out)
        occupant = self.occupant(name)
        if occupant is not None and game is not None:
            out.to(occupant, TextLine.of(Text.PLEASE_MOVE, n=game.moves_required()))

    def move(self, actor: O, moves: tuple[tuple[MovePoint, MovePoint], ...], out: Outcome) -> None:
        """A play typed by the box or the captain (absolute FIBS numbers)."""
        seat = self.seat_of(actor.name)
        is_o = seat == 0
        own = [(own_point(a, is_o=is_o), own_point(b, is_o=is_o)) for a, b in moves]
        try:
            events = self.engine.move(actor.name if seat is None else self._mover(seat), own)
        except IllegalPlay as error:
            out.to(actor, play_error(error, is_o=is_o))
            return
        except ChouetteError as error:
            out.to(actor, refusal(error))
            return
        except RuleError:
            out.to(actor, TextLine.of(Text.NOT_YOUR_TURN_TO_MOVE))
            return
        self.narrate(events, out)
        self.boards(out, after="move")
        self._after(events, out)

    # ------------------------------------------------------------------ presence

    def depart(self, occupant: O, grace: float, out: Outcome) -> None:
        """A player at the table dropped or logged out: the others wait for him."""
        key = _key(occupant.name)
        if self.present.get(key) is not occupant:
            return
        del self.present[key]
        self.away[key] = self.clock.now()
        self.tell_all(out, TextLine.of(Text.CHOUETTE_AWAY, name=occupant.name, seconds=int(grace)))

    def arrive(self, occupant: O, out: Outcome) -> None:
        """A seated player is (back) at the table: he decides for himself again."""
        key = _key(occupant.name)
        self.present[key] = occupant
        came_back = self.away.pop(key, None) is not None
        name = self.seated_name(occupant.name)
        if name is None:
            return
        if came_back:
            self._say(out, name, None, TextLine.of(Text.CHOUETTE_BACK, name=name))
        engine = self.engine
        if name in engine.proxied and engine.game is not None:
            self.act(None, lambda: engine.set_proxy(name, False), out)
        elif name in engine.sitting_out:
            self.act(None, lambda: engine.sit_out(name, False), out)
        if engine.game is not None:
            self.board_for(occupant, out)

    def tick(self, now: float, grace: float, out: Outcome) -> None:
        """The clock: decide what the absent and the silent did not (C29, C47, C70-C73)."""
        engine = self.engine
        if engine.phase is TablePhase.CLOSED:
            return
        for key, since in list(self.away.items()):
            name = self.seated_name(key)
            if name is None:
                del self.away[key]
                continue
            waited = now - since
            if engine.phase is TablePhase.PLAYING:
                if name == engine.box:
                    if waited >= engine.settings.box_absent_seconds:
                        self.act(None, lambda: engine.leave(name, now=True), out)
                elif waited >= grace:
                    if name == engine.captain:
                        if not self.act(None, engine.captain_absent, out):
                            self.act(None, lambda: engine.leave(name, now=True), out)
                    elif engine.is_live(name) and name not in engine.proxied:
                        self.act(None, lambda: engine.set_proxy(name), out)
            elif waited >= grace and name not in engine.leaving:
                del self.away[key]
                self.act(None, lambda: engine.leave(name), out)
        # After the absences: an absent captain's replacement answers for him (C72)
        # when his grace period ends with the answer time.
        if self.deadline is not None and now >= self.deadline:
            self.deadline = None
            if engine.extras_givers:
                self.act(None, engine.close_extras, out)
            elif any(_key(doubler) == _key(engine.box or "") for _, doubler, _ in engine.pending_offers()):
                self.act(None, engine.answer_timeout, out)
            offered = engine.partner_offered_to
            if offered is not None:
                self.act(None, lambda: engine.partner_answer(offered, False), out)
