"""A chouette's events in words: `Chouette:` status lines and FIBS's own sentences.

`narrate(stage, events, out)` turns the engine's past-tense events into lines for
everyone at the table (the `Chouette:` lines, C82) and, for the rolls and moves of the
box and the captain, FIBS's own sentences to the table and its watchers, so a FIBS
client follows the board. The events name players and never word anything; the
wording is all in `protocol.wording`. The table (`ChouetteTable`) is seen through the
small `Stage` protocol, so this module does not import it.
"""

from __future__ import annotations

from typing import Protocol

from fibsd.app.outcome import Outcome
from fibsd.app.play.chouette_view import ANSWERS, ANSWERS_WITH_BEAVER, RESULT_WORDS, Seating, key
from fibsd.app.play.notation import moves_text
from fibsd.rules import CheckersMoved, DiceRolled, OpeningRolled, TurnPassed
from fibsd.rules.chouette import (
    Answer,
    AnswerSealed,
    AnyEvent,
    CaptainChanged,
    Cause,
    Chouette,
    ChouetteError,
    ChouetteGameOver,
    ChouetteGameStarted,
    ChouetteReason,
    ContractSettled,
    Cubes,
    CubesAutoDoubled,
    DoubleAnswered,
    Doubled,
    ExtraGiven,
    ExtrasOpen,
    LeaveDeferred,
    MoneyMoved,
    OrderDecided,
    OrderRolled,
    PartnerChosen,
    PartnerDeclined,
    PartnerOffered,
    PlayerJoined,
    PlayerLeft,
    ProxySet,
    Raccooned,
    ResignationAnswered,
    ResignationOffered,
    SittingOut,
    TableClosed,
)
from protocol.messages import TextLine
from protocol.wording import Text

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


def refusal(error: ChouetteError) -> TextLine:
    return TextLine.of(REFUSALS[error.reason])


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def totals_text(pairs: object) -> str:
    """`alice +3, bob -3` (or `-` for nobody)."""
    assert isinstance(pairs, (list, tuple))
    return ", ".join(f"{name} {signed(amount)}" for name, amount in pairs) or "-"


class Stage(Protocol):
    """What narration needs of a running chouette (`ChouetteTable` is one)."""

    @property
    def engine(self) -> Chouette: ...
    @property
    def seating(self) -> Seating | None: ...
    def answer_seconds_left(self) -> int: ...
    def tell_all(self, out: Outcome, line: TextLine) -> None: ...
    def tell_one(self, out: Outcome, name: str, line: TextLine) -> None: ...
    def say(self, out: Outcome, actor: str | None, own: TextLine | None,
            others: TextLine | None) -> None: ...
    def say_each(self, out: Outcome, lines: dict[str, TextLine], others: TextLine) -> None: ...


def mover(stage: Stage, player: int) -> str:
    """The box (player 0) or the captain (1) of the game being narrated: a game's last
    move is told after the engine rotated the roles."""
    seating = stage.seating
    return "?" if seating is None else seating.player(player)


def _result_text(events: list[AnyEvent], index: int, seating: Seating | None) -> str:
    """How the game that ends at `events[index]` ended (C77): the last settlement."""
    box = seating.box if seating is not None else "?"
    for event in reversed(events[:index]):
        if isinstance(event, ContractSettled):
            match event.cause:
                case Cause.RESULT:
                    winner = box if event.winner == box else "the team"
                    result = event.result.name.lower() if event.result is not None else "single"
                    kind = {"single": "a single game", "gammon": "a gammon",
                            "backgammon": "a backgammon"}[result]
                    return f"{winner} won {kind} on the board"
                case Cause.DROP:
                    return "the last cube was dropped"
                case Cause.RESIGN:
                    return "the last cube was resigned"
                case Cause.ABANDON:
                    return f"{event.loser} abandoned the game"
                case Cause.TIME:
                    side = "the box" if event.loser == box else "the team"
                    return f"{side} ran out of time"
    return "the last cube was settled"


def narrate(stage: Stage, events: list[AnyEvent], out: Outcome) -> None:
    """Every event in words, to everyone at the table (and its watchers: FIBS's own
    sentences for the rolls and moves)."""
    engine = stage.engine
    seating = stage.seating
    index = 0
    last_answer: tuple[str, str, Answer, int] | None = None
    single = engine.settings.cubes is Cubes.SINGLE
    box_left = any(isinstance(e, PlayerLeft) and seating is not None and e.name == seating.box
                   for e in events)
    while index < len(events):
        event = events[index]
        index += 1
        match event:
            case Doubled():
                # One line per doubler: consecutive doubles of one player go together.
                answerers = [event.answerer]
                values = {event.answerer: event.value}
                while index < len(events):
                    following = events[index]
                    if not (isinstance(following, Doubled) and following.doubler == event.doubler):
                        break
                    answerers.append(following.answerer)
                    values[following.answerer] = following.value
                    index += 1
                # (single cube: the captain's one double reaches the box once per
                # member's contract; the box is named once)
                names = list(dict.fromkeys(answerers))
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_DOUBLES, name=event.doubler,
                                                names=", ".join(names)))
                _answer_prompts(stage, event.doubler, names, values, out)
            case PlayerJoined():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_JOINS, name=event.name,
                                                count=len(engine.seated)))
            case PlayerLeft():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_LEAVES, name=event.name))
                if box_left and seating is not None and event.name == seating.box:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_BOX_ABANDONS, name=event.name))
            case LeaveDeferred():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_LEAVES_AFTER_GAME, name=event.name))
            case SittingOut():
                text = Text.CHOUETTE_SITS_OUT if event.on else Text.CHOUETTE_SITS_IN
                stage.tell_all(out, TextLine.of(text, name=event.name))
            case OrderRolled():
                rolled = ", ".join(f"{name} {die}" for name, die in event.dice)
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER_ROLL, text=rolled))
                if event.tied:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER_TIED,
                                                    names=", ".join(event.tied)))
            case OrderDecided():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_ORDER, names=", ".join(event.queue)))
            case ChouetteGameStarted():
                crew = ", ".join(event.crew) or "-"
                if event.partner is None:
                    line = TextLine.of(Text.CHOUETTE_GAME_STARTS, n=event.game_number, name=event.box,
                                       player=event.captain, names=crew)
                else:
                    line = TextLine.of(Text.CHOUETTE_GAME_STARTS_PARTNER, n=event.game_number,
                                       name=event.box, opponent=event.partner,
                                       player=event.captain, names=crew)
                stage.tell_all(out, line)
            case CubesAutoDoubled():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_CUBES_TURNED, cube=event.value))
            case AnswerSealed():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWERED_SEALED, name=event.name))
            case DoubleAnswered():
                if single and seating is not None and event.answerer == seating.box:
                    # Single cube: the box answers the team's one double once.
                    index = _box_answers_team(stage, event, events, index, out)
                    continue
                if event.forced:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FORCED, name=event.answerer))
                if event.proxied and event.follows is not None:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FOLLOWS_DELEGATE,
                                                    name=event.answerer, opponent=event.follows))
                elif event.proxied and event.defaulted:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_DEFAULT, name=event.answerer))
                elif event.proxied:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_ANSWER_FOLLOWS, name=event.answerer))
                if last_answer == (event.answerer, event.doubler, event.answer, event.value):
                    continue
                last_answer = (event.answerer, event.doubler, event.answer, event.value)
                stage.tell_all(out, _answer_line(event))
            case Raccooned():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_RACCOONS, name=event.by, cube=event.value))
            case PartnerOffered():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_OFFERED, name=event.name))
            case PartnerDeclined():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_DECLINED, name=event.name))
            case PartnerChosen():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_PARTNER_CHOSEN, name=event.name,
                                                player=event.captain))
            case CaptainChanged():
                if event.new is not None:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_CAPTAIN_NOW, name=event.new))
                elif not box_left:  # (the box's abandonment is told with his leaving)
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_TEAM_OUT))
            case ExtrasOpen():
                if len(event.givers) == 1:
                    line = TextLine.of(Text.CHOUETTE_EXTRA_ONE, name=event.givers[0],
                                       opponent=event.taker, cube=event.value, n=event.fee)
                else:
                    line = TextLine.of(Text.CHOUETTE_EXTRAS, names=", ".join(event.givers),
                                       name=event.taker, cube=event.value, n=event.fee)
                stage.tell_all(out, line)
            case ExtraGiven():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_EXTRA_GIVEN, name=event.giver,
                                                opponent=event.taker, cube=event.value, n=event.fee))
            case ResignationOffered():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_RESIGNS, name=event.resigner,
                                                opponent=event.answerer,
                                                text=RESULT_WORDS[event.result], n=event.amount))
            case ResignationAnswered():
                text = Text.CHOUETTE_RESIGN_ACCEPTED if event.accepted else Text.CHOUETTE_RESIGN_REJECTED
                stage.tell_all(out, TextLine.of(text, name=event.answerer))
            case ProxySet(to=str(delegate)) if event.on:
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_DELEGATES, name=event.name,
                                                opponent=delegate))
            case ProxySet():
                text = Text.CHOUETTE_FOLLOWS_CAPTAIN if event.on else Text.CHOUETTE_IN_CONTROL
                stage.tell_all(out, TextLine.of(text, name=event.name))
            case MoneyMoved():
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_PAYS, name=event.payer,
                                                opponent=event.payee, n=event.amount))
            case ChouetteGameOver():
                deltas = ", ".join(f"{name} {signed(delta)}" for name, delta in event.deltas)
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_GAME_OVER, n=event.game_number,
                                                text=deltas, names=", ".join(event.queue) or "-"))
                # C77: how it ended, and the running totals.
                ranked = sorted(engine.totals().items(), key=lambda kv: (-kv[1], kv[0]))
                stage.tell_all(out, TextLine.of(Text.CHOUETTE_GAME_RESULT, n=event.game_number,
                                                text=_result_text(events, index - 1, seating),
                                                names=totals_text(ranked)))
            case TableClosed():
                if event.totals:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_CLOSED_TOTALS,
                                                    text=totals_text(event.totals)))
                else:
                    stage.tell_all(out, TextLine.of(Text.CHOUETTE_CLOSED_EMPTY))
            case OpeningRolled():
                box, captain = mover(stage, 0), mover(stage, 1)
                stage.say_each(out, {
                    box: TextLine.of(Text.YOU_ROLLED_OPENING, die=event.die0, opponent=captain,
                                     opponent_die=event.die1),
                    captain: TextLine.of(Text.YOU_ROLLED_OPENING, die=event.die1, opponent=box,
                                         opponent_die=event.die0),
                }, TextLine.of(Text.ROLLED_OPENING, name=box, die=event.die0, opponent=captain,
                               opponent_die=event.die1))
            case DiceRolled():
                name = mover(stage, event.player)
                die1, die2 = event.dice
                stage.say(out, name, TextLine.of(Text.YOU_ROLL, die1=die1, die2=die2),
                          TextLine.of(Text.ROLLS, name=name, die1=die1, die2=die2))
            case TurnPassed():
                name = mover(stage, event.player)
                stage.say(out, name, TextLine.of(Text.YOU_CANT_MOVE),
                          TextLine.of(Text.CANT_MOVE, name=name))
            case CheckersMoved():
                name = mover(stage, event.player)
                line = TextLine.of(Text.MOVES, name=name,
                                   moves=moves_text(event.moves, is_o=event.player == 0))
                stage.say(out, name, None, line)
            case _:
                pass  # settlements show in the game's result; the board shows the rest


def _answer_line(event: DoubleAnswered) -> TextLine:
    fields = dict(name=event.answerer, opponent=event.doubler)
    match event.answer:
        case Answer.TAKE:
            return TextLine.of(Text.CHOUETTE_TAKES, cube=event.value, **fields)
        case Answer.DROP:
            return TextLine.of(Text.CHOUETTE_DROPS, n=event.value, **fields)
        case Answer.BEAVER:
            return TextLine.of(Text.CHOUETTE_BEAVERS, cube=event.value, **fields)


def _box_answers_team(stage: Stage, event: DoubleAnswered, events: list[AnyEvent], index: int,
                      out: Outcome) -> int:
    """Single cube: the box's answer to the team's double, once for all its contracts;
    the index after the last of them."""
    members = [event.doubler]
    while index < len(events):
        following = events[index]
        if isinstance(following, ContractSettled):  # (a drop settles each contract)
            index += 1
            continue
        if not (isinstance(following, DoubleAnswered) and following.answerer == event.answerer):
            break
        members.append(following.doubler)
        index += 1
    if event.answer is Answer.DROP:
        stage.tell_all(out, TextLine.of(Text.CHOUETTE_BOX_DROPS_TEAM, name=event.answerer,
                                        n=event.value, names=", ".join(dict.fromkeys(members))))
    else:
        stage.tell_all(out, TextLine.of(Text.CHOUETTE_BOX_TAKES_TEAM, name=event.answerer,
                                        cube=event.value))
    return index


def _answer_prompts(stage: Stage, doubler: str, answerers: list[str], values: dict[str, int],
                    out: Outcome) -> None:
    """Tell each doubled player how to answer, and by when (sealed answers are decided
    for the silent after the answer time, C29)."""
    engine = stage.engine
    seating = stage.seating
    box = seating.box if seating is not None else engine.box
    beaver = engine.settings.beavers >= 1 and engine.settings.cubes is Cubes.MULTI
    for name in answerers:
        if box is not None and key(name) == key(box):
            line = TextLine.of(Text.CHOUETTE_BOX_ANSWER_PROMPT, name=doubler, cube=values[name])
        else:
            line = TextLine.of(Text.CHOUETTE_ANSWER_PROMPT, name=doubler, cube=values[name],
                               text=ANSWERS_WITH_BEAVER if beaver else ANSWERS,
                               seconds=stage.answer_seconds_left())
        stage.tell_one(out, name, line)
