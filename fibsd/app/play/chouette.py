"""A running chouette: the engine's table, the users at it, narration, boards, saving.

A `ChouetteTable` owns one `fibsd.rules.chouette.Chouette` (the rules, pure), the table's
number and owner, who of its players is here (occupants, as `fibsd.app.play.table`'s
`Occupant` protocol) and who dropped and since when, the deadline of the engine's timed
decisions (sealed answers, extras), and the dice. It turns the engine's events into
lines for everyone at the table (`Chouette:` status lines, and FIBS's own sentences for
the rolls and moves the box and the captain make, so a FIBS client follows the board),
sends the boards (the box and the captain as players of an unlimited match, everyone
else the captain's board with his own cube), and saves the whole state after every
completed action. Who is away and what the table's clock decides for the absent and the
silent is `chouette_presence`. It never calls the lobby's rung: `fibsd.app.chouettes`
makes, finds and closes tables and runs their clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import attrs

from fibsd.app.outcome import Outcome
from fibsd.app.play import chouette_clock, chouette_view
from fibsd.app.play.chouette_narration import narrate, refusal, signed
from fibsd.app.play.chouette_view import Seating
from fibsd.app.play.notation import own_point, play_error
from fibsd.app.play.table import Occupant, RollCounts
from fibsd.infra.wallclock import Clock
from fibsd.domain.dice import DiceSource, SeededDice
from fibsd.rules import Game, GamePhase, IllegalPlay, RuleError, TurnPassed
from fibsd.rules.timecontrol import MatchClock
from fibsd.rules.chouette import (
    AnyEvent,
    CaptainChanged,
    Chouette,
    ChouetteError,
    ChouetteGameOver,
    DoubleAnswered,
    Doubled,
    ExtraGiven,
    ExtrasOpen,
    PartnerChosen,
    PartnerMode,
    PartnerOffered,
    ResignationAnswered,
    SittingOut,
    TablePhase,
)
from fibsd.store.api import ChouetteSave
from protocol.board import BoardLine
from protocol.commands import MovePoint
from protocol.messages import BoardMessage, TextLine
from protocol.wording import Text

__all__ = ["ChouetteTable", "SavedChouette", "refusal", "signed"]

SAVED_FORMAT = 1

O = TypeVar("O", bound=Occupant)


@attrs.frozen
class SavedChouette:
    """A chouette table as saved (format 1): its number and owner, the engine's state
    (`Chouette.to_dict`), the dice's state (seeded dice), a `chouette close` waiting for
    the game's end, and the deadline of the timed decision pending (absolute seconds of
    the server's clock), and the table's clock (`chouette_clock`), if it has one."""

    id: int
    owner: str
    engine: dict[str, Any]
    dice: dict[str, Any] | None = None
    closing: bool = False
    deadline: float | None = None
    timer: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"format": SAVED_FORMAT, "id": self.id, "owner": self.owner, "engine": self.engine,
                "dice": self.dice, "closing": self.closing, "deadline": self.deadline,
                "timer": self.timer}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SavedChouette:
        """ValueError if `data` is not a saved chouette."""
        try:
            if data.get("format") != SAVED_FORMAT:
                raise ValueError("unknown saved chouette format")
            engine, dice, deadline = data["engine"], data.get("dice"), data.get("deadline")
            timer = data.get("timer")  # (absent from tables saved before chouettes had clocks)
            if not isinstance(engine, dict) or not all(x is None or isinstance(x, dict) for x in (dice, timer)):
                raise ValueError("not a saved chouette")
            # (`closing` and `deadline` are absent from tables saved before they existed)
            return cls(id=int(data["id"]), owner=str(data["owner"]), engine=engine, dice=dice,
                       closing=bool(data.get("closing", False)),
                       deadline=None if deadline is None else float(deadline), timer=timer)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a saved chouette: {error!r}") from error


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
        #: since when. `chouette_presence.tick` applies the disconnect rules when their
        #: time runs out.
        self.away: dict[str, float] = {}
        #: When the engine's pending timed decision (sealed answers, extras, a partner
        #: offer) is decided for those who did not answer.
        self.deadline: float | None = None
        #: Where each game's board comes from: None for the usual opening (tests set
        #: positions here, as they script the dice).
        self.board_factory: Callable[[], Game] | None = None
        #: The running game's seats and cubes as the last narration left them: the last
        #: move and board of a game are told after the engine ended it and rotated the
        #: roles, with that game's own seats (`seating`).
        self.last_seating: Seating | None = None
        #: The owner's `chouette close` during a game: the table closes when it ends.
        self.closing = False
        #: The box's and the team's clock (seats 0 and 1), and its stint (`chouette_clock`).
        self.timer: MatchClock | None = None
        self.clock_stint: tuple[int, ...] | None = None
        self._remember_seating()

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

    def tell_all(self, out: Outcome, line: TextLine) -> None:
        out.to_each(self.everyone(), line)

    def tell_one(self, out: Outcome, name: str, line: TextLine) -> None:
        occupant = self.occupant(name)
        if occupant is not None:
            out.to(occupant, line)

    def say(self, out: Outcome, actor: str | None, own: TextLine | None, others: TextLine | None) -> None:
        """`own` to `actor`, `others` to everyone else at the table and the watchers."""
        for occupant in self.everyone():
            line = own if actor is not None and _key(occupant.name) == _key(actor) else others
            if line is not None:
                out.to(occupant, line)
        if others is not None:
            out.to_each(self.watchers(), others)

    def say_each(self, out: Outcome, lines: dict[str, TextLine], others: TextLine) -> None:
        """Each named player his own line, everyone else and the watchers `others`."""
        own = {_key(name): line for name, line in lines.items()}
        for occupant in self.everyone():
            out.to(occupant, own.get(_key(occupant.name), others))
        out.to_each(self.watchers(), others)

    # ------------------------------------------------------------------ narration

    @property
    def seating(self) -> Seating | None:
        """The seats and cubes of the running game, or of the game that just ended (its
        last board and last move are told with its own roles)."""
        return Seating.of(self.engine) or self.last_seating

    def narrate(self, events: Iterable[AnyEvent], out: Outcome) -> None:
        """Every event in words, to everyone at the table."""
        narrate(self, list(events), out)
        self._remember_seating()

    def _remember_seating(self) -> None:
        seating = Seating.of(self.engine)
        if seating is not None:
            self.last_seating = seating

    def answer_seconds_left(self) -> int:
        """Seconds until the pending timed decision is made for the silent."""
        if self.deadline is None:
            return self.engine.settings.answer_seconds
        return max(0, int(self.deadline - self.clock.now() + 0.999))

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
        seating = self.seating
        return "?" if seating is None else seating.player(player)

    # ------------------------------------------------------------------ boards

    def seat_of(self, name: str) -> int | None:
        """0 for the box, 1 for the (acting) captain of the running game, None for
        everyone else (and between games)."""
        seating = Seating.of(self.engine)
        return None if seating is None else seating.seat_of(name)

    def board_line(self, viewer: str) -> BoardLine | None:
        """The board `viewer` sees: his own as box or captain, else the captain's with
        his own cube (C81); after a game, its last board with its own seats. None when
        no game is on."""
        engine = self.engine
        game = engine.game if engine.game is not None else engine.last_game
        seating = self.seating
        if game is None or seating is None:
            return None
        return chouette_view.board_line(engine, seating, game, viewer)

    def header(self, viewer: str) -> TextLine | None:
        """The one-line summary a telnet board gets above it (C81)."""
        seating = self.seating
        if seating is None:
            return None
        return chouette_view.header(self.id, seating, viewer, self.seated_name)

    def board_for(self, viewer: O, out: Outcome) -> None:
        line = self.board_line(viewer.name)
        seating = self.seating
        if line is None or seating is None:
            return
        if not viewer.clip:
            header = self.header(viewer.name)
            if header is not None:
                out.to(viewer, header)
            if self.timer is not None:
                out.to(viewer, chouette_clock.header_line(self, self.clock.now()))
        playing = seating.seat_of(viewer.name) is not None
        out.to(viewer, BoardMessage(line, style=viewer.account.variables.boardstyle,
                                    player_name=viewer.name if playing else None,
                                    cube_owner=chouette_view.cube_owner(seating, viewer.name)))

    def boards(self, out: Outcome, *, after: str) -> None:
        """Boards after a roll (to those with `moreboards`), a move (`autoboard`), or
        always (a game's start)."""
        for occupant in [*self.everyone(), *self.watchers()]:
            toggles = occupant.account.toggles
            wants = toggles.moreboards if after == "roll" else toggles.autoboard
            if after == "always" or wants:
                self.board_for(occupant, out)

    # ------------------------------------------------------------------ status

    def show_lines(self) -> list[TextLine]:
        """`chouette show`."""
        lines = chouette_view.show_lines(self.engine, self.id, self.owner, set(self.away))
        if self.timer is not None:
            lines[1:1] = chouette_clock.rows(self, self.clock.now())
        return lines

    def owed_lines(self, name: str) -> list[TextLine]:
        """What `name` owes the table now, with the time left (C75)."""
        seconds = self.answer_seconds_left() if self.deadline is not None else None
        return chouette_view.owed_lines(self.engine, name, seconds, may_roll=self.may_roll(name))

    # ------------------------------------------------------------------ saving

    def saved(self) -> SavedChouette:
        """The whole table as a typed value (`from_saved` restores it)."""
        return SavedChouette(
            id=self.id, owner=self.owner, engine=self.engine.to_dict(),
            dice=self.dice.to_dict() if isinstance(self.dice, SeededDice) else None,
            closing=self.closing, deadline=self.deadline,
            timer=None if self.timer is None else self.timer.to_dict(),
        )

    def saved_state(self) -> dict[str, Any]:
        return self.saved().to_dict()

    @classmethod
    def from_saved(cls, data: dict[str, Any], *, clock: Clock, dice: DiceSource,
                   roll_counts: RollCounts) -> ChouetteTable[O]:
        """ValueError if `data` is not a saved chouette."""
        saved = SavedChouette.from_dict(data)
        engine = Chouette.from_dict(saved.engine)
        table: ChouetteTable[O] = cls(engine, table_id=saved.id, owner=saved.owner, clock=clock,
                                      dice=dice, roll_counts=roll_counts)
        table.closing = saved.closing
        table.deadline = saved.deadline
        table.timer = chouette_clock.restored(saved.timer, clock.now())
        if table.timer is not None and table.timer.running is not None:
            table.clock_stint = chouette_clock.stint_key(engine)  # (its stint goes on)
        if table.deadline is None and (engine.pending_offers() or engine.extras_givers
                                       or engine.partner_offered_to is not None):
            table._set_deadline()
        return table

    def persist(self, out: Outcome) -> None:
        """Commit the state (a whole copy: a chouette's state is small) before anything
        about it is delivered: a typed save the store interprets. The one point where
        the table's clock starts and stops (`chouette_clock.sync`)."""
        chouette_clock.sync(self, self.clock.now(), out)
        out.write(ChouetteSave(self.id, self.owner, self.saved_state(), self.clock.now(),
                               closed=self.engine.phase is TablePhase.CLOSED))

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
        if engine.phase is TablePhase.BETWEEN_GAMES and engine.game is None and any(
                isinstance(e, SittingOut) and not e.on for e in events):
            self.next_game(out)  # it may have been waiting for players
            return
        if any(isinstance(e, ChouetteGameOver) for e in events):
            if self.closing:  # the owner's `chouette close` during the game
                self.close(out)
                return
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

    def close(self, out: Outcome, actor: O | None = None) -> None:
        """The owner's `chouette close`: between games at once, with the final standing
        (C78) and the dice seed revealed; during a game when it ends (C80)."""
        if self.engine.phase is TablePhase.PLAYING:
            if self.closing:
                if actor is not None:
                    out.to(actor, TextLine.of(Text.CHOUETTE_ALREADY_CLOSING))
                return
            self.closing = True
            self.tell_all(out, TextLine.of(Text.CHOUETTE_CLOSES_AFTER_GAME))
            self.persist(out)
            return
        if self.act(actor, self.engine.close, out) and isinstance(self.dice, SeededDice):
            self.tell_all(out, TextLine.of(Text.CHOUETTE_DICE_REVEALED, seed=self.dice.seed_hex))

    def next_game(self, out: Outcome) -> None:
        """Start the next game if enough players are active; else wait for players."""
        if self.engine.phase is not TablePhase.BETWEEN_GAMES or self.closing:
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
        self.say(out, mover, TextLine.of(Text.YOUR_TURN_TO_MOVE),
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
