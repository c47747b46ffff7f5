"""One game of backgammon as a state machine: opening roll to win.

Owns `Game`, `GamePhase`, `Action` and the transition table. Every action validates
first and mutates after, so a refused action (a `RuleError`) leaves the game exactly as
it was; an accepted one returns the past-tense events, which are also appended to the
game's history. Dice always come in as arguments. Knows nothing of match scores, the
Crawford rule's bookkeeping (the match passes `CubeRules`), or the protocol.

Players are 0 and 1. Each player's checkers are kept in that player's own perspective
(26 ints, see `position`), so `position_for(player)` is that player's `Position`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs

from .cube import Cube, CubeRules, double_refusal
from .errors import ActionReason, IllegalAction
from .events import (
    Beavered,
    CheckersMoved,
    CubeAutoDoubled,
    CubeOffered,
    CubePassed,
    CubeTaken,
    DiceRolled,
    Event,
    GameResult,
    GameStarted,
    GameWon,
    OpeningRolled,
    Raccooned,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    TurnPassed,
    WinKind,
    event_from_dict,
    event_to_dict,
)
from .movegen import Play, moves_required
from .position import (
    CHECKERS,
    OFF,
    OPENING_SIDE,
    Position,
    Side,
    side_from_hex,
    side_to_hex,
)
from .scoring import game_points, game_result
from .validate import validate_play


class GamePhase(enum.Enum):
    OPENING = enum.auto()  # both players roll one die each
    AWAITING_ROLL = enum.auto()  # the player on turn may double or roll
    AWAITING_MOVE = enum.auto()  # dice rolled, the player on turn must play them
    DOUBLE_OFFERED = enum.auto()  # the opponent of the player on turn must answer
    RESIGNATION_OFFERED = enum.auto()  # the resigner's opponent must answer
    GAME_OVER = enum.auto()


class Action(enum.Enum):
    OPENING_ROLL = enum.auto()
    ROLL = enum.auto()
    MOVE = enum.auto()
    DOUBLE = enum.auto()
    TAKE = enum.auto()
    PASS = enum.auto()
    BEAVER = enum.auto()
    RACCOON = enum.auto()
    RESIGN = enum.auto()
    ACCEPT_RESIGNATION = enum.auto()
    REJECT_RESIGNATION = enum.auto()


P = GamePhase
# The one table of transitions: (phase, action) -> the phases the action may lead to.
# An action absent for a phase is refused with WRONG_PHASE; the methods assert that the
# phase they arrive at is listed here.
TRANSITIONS: dict[tuple[GamePhase, Action], frozenset[GamePhase]] = {
    (P.OPENING, Action.OPENING_ROLL): frozenset({P.OPENING, P.AWAITING_MOVE}),
    (P.AWAITING_ROLL, Action.ROLL): frozenset({P.AWAITING_MOVE, P.AWAITING_ROLL}),
    (P.AWAITING_ROLL, Action.DOUBLE): frozenset({P.DOUBLE_OFFERED}),
    (P.AWAITING_ROLL, Action.RACCOON): frozenset({P.AWAITING_ROLL}),
    (P.AWAITING_ROLL, Action.RESIGN): frozenset({P.RESIGNATION_OFFERED}),
    (P.AWAITING_MOVE, Action.MOVE): frozenset({P.AWAITING_ROLL, P.GAME_OVER}),
    (P.AWAITING_MOVE, Action.RESIGN): frozenset({P.RESIGNATION_OFFERED}),
    (P.DOUBLE_OFFERED, Action.TAKE): frozenset({P.AWAITING_ROLL}),
    (P.DOUBLE_OFFERED, Action.PASS): frozenset({P.GAME_OVER}),
    (P.DOUBLE_OFFERED, Action.BEAVER): frozenset({P.AWAITING_ROLL}),
    (P.RESIGNATION_OFFERED, Action.ACCEPT_RESIGNATION): frozenset({P.GAME_OVER}),
    (P.RESIGNATION_OFFERED, Action.REJECT_RESIGNATION): frozenset(
        {P.AWAITING_ROLL, P.AWAITING_MOVE}
    ),
}
del P


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise ValueError(f"players are 0 and 1, not {player!r}")


def _check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise IllegalAction(
            ActionReason.BAD_DICE, f"dice must be two of 1..6: {dice!r}"
        )
    return dice[0], dice[1]


class Game:
    """A game in progress or finished. Create with `Game(rules)` (opening position)."""

    def __init__(
        self, rules: CubeRules | None = None, started: GameStarted | None = None
    ) -> None:
        """A new game at the opening position; a match passes the `GameStarted` event
        that begins the game's history."""
        self.rules: CubeRules = rules if rules is not None else CubeRules()
        self._sides: list[Side] = [OPENING_SIDE, OPENING_SIDE]
        self._moves_required_cache: tuple[tuple[object, ...], int] | None = None
        self._phase = GamePhase.OPENING
        self._turn: int | None = None
        self._dice: tuple[int, int] | None = None
        self._cube = Cube()
        self._turns_started = [0, 0]
        self._raccoon_open = False  # the doubler may raccoon until he rolls
        self._resigner: int | None = None
        self._resign_value: GameResult | None = None
        self._phase_before_resign: GamePhase | None = None
        self._won: GameWon | None = None
        self._history: list[Event] = [] if started is None else [started]
        # The history's serialised form, kept alongside: the server saves a match after
        # every action, and re-serialising the whole history each time dominated that cost.
        self._history_dicts: list[dict[str, Any]] = [event_to_dict(e) for e in self._history]

    @classmethod
    def from_position(
        cls,
        position: Position,
        turn: int,
        rules: CubeRules | None = None,
        cube: Cube | None = None,
    ) -> Game:
        """A game set up in `position` with `turn` (whose side is `position.me`) about to
        roll: for tests, problems and bots; no history before this point."""
        _check_player(turn)
        position.check()
        game = cls(rules)
        game._sides[turn] = position.me
        game._sides[1 - turn] = position.opp
        game._turn = turn
        game._phase = GamePhase.AWAITING_ROLL
        if cube is not None:
            game._cube = cube
        return game

    # --- queries ---------------------------------------------------------------------

    @property
    def phase(self) -> GamePhase:
        return self._phase

    @property
    def turn(self) -> int | None:
        """The player on roll (None before the opening roll is decided)."""
        return self._turn

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice of the player on turn while he must move (the opening roll puts both
        opening dice on the first mover: his die first)."""
        return self._dice

    @property
    def cube(self) -> int:
        return self._cube.value

    @property
    def cube_owner(self) -> int | None:
        """The player who owns the cube, None when centred."""
        return self._cube.owner

    @property
    def cube_state(self) -> Cube:
        return self._cube

    @property
    def double_pending(self) -> bool:
        """FIBS's was-doubled: a double waits for the answer."""
        return self._phase is GamePhase.DOUBLE_OFFERED

    @property
    def resignation(self) -> tuple[int, GameResult] | None:
        """(resigner, offered result) while a resignation waits for the answer."""
        if self._resigner is None or self._resign_value is None:
            return None
        return self._resigner, self._resign_value

    @property
    def result(self) -> GameWon | None:
        """How the game ended, once it has."""
        return self._won

    @property
    def history(self) -> tuple[Event, ...]:
        """Every accepted action's events, in order (for `oldmoves` and exports)."""
        return tuple(self._history)

    @property
    def turns_started(self) -> tuple[int, int]:
        return self._turns_started[0], self._turns_started[1]

    def side(self, player: int) -> Side:
        """A player's checkers in his own perspective."""
        return self._sides[player]

    def position_for(self, player: int) -> Position:
        """The board as `player` sees it, as if he were on roll."""
        return Position(self._sides[player], self._sides[1 - player])

    def actor(self) -> int | None:
        """The player whose answer or action the game waits for."""
        if self._phase in (GamePhase.DOUBLE_OFFERED,):
            assert self._turn is not None
            return 1 - self._turn
        if self._phase is GamePhase.RESIGNATION_OFFERED:
            assert self._resigner is not None
            return 1 - self._resigner
        if self._phase in (GamePhase.AWAITING_ROLL, GamePhase.AWAITING_MOVE):
            return self._turn
        return None

    def may_double(self, player: int) -> bool:
        """Whether `player` may double right now."""
        return self.double_refusal(player) is None

    def double_refusal(self, player: int) -> ActionReason | None:
        """Why `player` may not double now, or None if he may."""
        if self._phase is not GamePhase.AWAITING_ROLL:
            return ActionReason.WRONG_PHASE
        if player != self._turn:
            return ActionReason.NOT_YOUR_TURN
        return double_refusal(
            self._cube, self.rules, player, self._turns_started[player]
        )

    def may_double_ever(self, player: int) -> bool:
        """FIBS board's may-double flag: the cube is available to `player` (centred or
        his) in this game, whatever the phase."""
        if not self.rules.enabled:
            return False
        return self._cube.owner is None or self._cube.owner == player

    def moves_required(self) -> int:
        """How many moves the player on turn must make (0 outside AWAITING_MOVE)."""
        if self._phase is not GamePhase.AWAITING_MOVE or self._dice is None:
            return 0
        assert self._turn is not None
        # Asked for every board sent (each player's, each watcher's) and for the prompt:
        # remembered for as long as the turn, the dice and both sides are the same.
        key = (self._turn, self._dice, self._sides[0], self._sides[1])
        cached = self._moves_required_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        count = moves_required(self.position_for(self._turn), self._dice)
        self._moves_required_cache = (key, count)
        return count

    # --- the machinery ---------------------------------------------------------------

    def _require(self, action: Action, player: int, actor: int | None) -> None:
        """Validate phase and player (no mutation)."""
        _check_player(player)
        if (self._phase, action) not in TRANSITIONS:
            raise IllegalAction(
                ActionReason.WRONG_PHASE,
                f"{action.name} not possible in {self._phase.name}",
            )
        if actor is not None and player != actor:
            raise IllegalAction(
                ActionReason.NOT_YOUR_TURN, f"{action.name}: not player {player}"
            )

    def _enter(
        self, action: Action, from_phase: GamePhase, to_phase: GamePhase
    ) -> None:
        assert to_phase in TRANSITIONS[(from_phase, action)], (
            from_phase,
            action,
            to_phase,
        )
        self._phase = to_phase

    def _record(self, events: list[Event]) -> list[Event]:
        self._history.extend(events)
        self._history_dicts.extend(event_to_dict(e) for e in events)
        return events

    def _win(
        self, winner: int, result: GameResult, points: int, how: WinKind
    ) -> GameWon:
        won = GameWon(
            winner=winner, result=result, cube=self._cube.value, points=points, how=how
        )
        self._won = won
        self._dice = None
        return won

    # --- actions ---------------------------------------------------------------------

    def opening_roll(self, die0: int, die1: int) -> list[Event]:
        """Each player's opening die (die0 is player 0's). Equal dice: roll again (and in
        money play the cube may double automatically); else the higher die moves first
        with both numbers."""
        if (self._phase, Action.OPENING_ROLL) not in TRANSITIONS:
            raise IllegalAction(ActionReason.WRONG_PHASE, "the opening roll is over")
        _check_dice((die0, die1))
        events: list[Event] = [OpeningRolled(die0, die1)]
        if die0 == die1:
            if self._cube.auto_doubles < self.rules.auto_doubles_max:
                self._cube = self._cube.auto_doubled()
                events.append(CubeAutoDoubled(self._cube.value))
            self._enter(Action.OPENING_ROLL, GamePhase.OPENING, GamePhase.OPENING)
            return self._record(events)
        first = 0 if die0 > die1 else 1
        self._turn = first
        self._dice = (die0, die1) if first == 0 else (die1, die0)
        self._turns_started[first] += 1
        self._enter(Action.OPENING_ROLL, GamePhase.OPENING, GamePhase.AWAITING_MOVE)
        return self._record(events)

    def roll(self, player: int, dice: Sequence[int]) -> list[Event]:
        """The player on turn rolls `dice`. With no legal play the turn passes at once."""
        self._require(Action.ROLL, player, self._turn)
        rolled = _check_dice(dice)
        events: list[Event] = [DiceRolled(player, rolled)]
        self._turns_started[player] += 1
        self._raccoon_open = False
        if moves_required(self.position_for(player), rolled) == 0:
            events.append(TurnPassed(player, rolled))
            self._turn = 1 - player
            self._dice = None
            self._enter(Action.ROLL, GamePhase.AWAITING_ROLL, GamePhase.AWAITING_ROLL)
        else:
            self._dice = rolled
            self._enter(Action.ROLL, GamePhase.AWAITING_ROLL, GamePhase.AWAITING_MOVE)
        return self._record(events)

    def move(self, player: int, moves: Sequence[tuple[int, int]]) -> list[Event]:
        """Play the rolled dice: (from, to) steps in `player`'s own perspective, one per
        die (see `validate_play`). Raises `IllegalPlay` (a `RuleError`) if illegal."""
        self._require(Action.MOVE, player, self._turn)
        assert self._dice is not None
        play = validate_play(self.position_for(player), self._dice, moves)
        return self._apply_play(player, play)

    def play(self, player: int, play: Play) -> list[Event]:
        """Play a `Play` from `legal_plays`/`forced_play` (e.g. the server's automove);
        validated like typed moves."""
        return self.move(player, [(m.from_point, m.to_point) for m in play.moves])

    def _apply_play(self, player: int, play: Play) -> list[Event]:
        assert self._dice is not None
        events: list[Event] = [CheckersMoved(player, self._dice, play.moves)]
        self._sides[player] = play.result.me
        self._sides[1 - player] = play.result.opp
        if play.result.me[OFF] == CHECKERS:
            result = game_result(play.result.opp)
            points = game_points(
                result,
                self._cube.value,
                cube_turned=not self._cube.centred,
                jacoby=self.rules.jacoby,
            )
            events.append(self._win(player, result, points, WinKind.BORNE_OFF))
            self._enter(Action.MOVE, GamePhase.AWAITING_MOVE, GamePhase.GAME_OVER)
        else:
            self._turn = 1 - player
            self._dice = None
            self._enter(Action.MOVE, GamePhase.AWAITING_MOVE, GamePhase.AWAITING_ROLL)
        return self._record(events)

    def double(self, player: int) -> list[Event]:
        """The player on turn offers the cube before rolling."""
        self._require(Action.DOUBLE, player, self._turn)
        refusal = self.double_refusal(player)
        if refusal is not None:
            raise IllegalAction(refusal, f"player {player} may not double now")
        self._raccoon_open = False
        self._enter(Action.DOUBLE, GamePhase.AWAITING_ROLL, GamePhase.DOUBLE_OFFERED)
        return self._record([CubeOffered(player, self._cube.value * 2)])

    def _doubled_player(self) -> int | None:
        return None if self._turn is None else 1 - self._turn

    def take(self, player: int) -> list[Event]:
        """The doubled player takes: the cube doubles and becomes his."""
        self._require(Action.TAKE, player, self._doubled_player())
        self._cube = self._cube.taken(player)
        self._enter(Action.TAKE, GamePhase.DOUBLE_OFFERED, GamePhase.AWAITING_ROLL)
        return self._record([CubeTaken(player, self._cube.value)])

    def pass_double(self, player: int) -> list[Event]:
        """The doubled player passes and loses the current (undoubled) value."""
        self._require(Action.PASS, player, self._doubled_player())
        assert self._turn is not None
        value = self._cube.value
        events: list[Event] = [
            CubePassed(player, value),
            self._win(self._turn, GameResult.SINGLE, value, WinKind.DOUBLE_PASSED),
        ]
        self._enter(Action.PASS, GamePhase.DOUBLE_OFFERED, GamePhase.GAME_OVER)
        return self._record(events)

    def beaver(self, player: int) -> list[Event]:
        """The doubled player takes and redoubles at once, keeping the cube (money play
        with beavers allowed). The doubler then rolls, or raccoons first."""
        self._require(Action.BEAVER, player, self._doubled_player())
        if not self.rules.beavers:
            raise IllegalAction(ActionReason.NO_BEAVERS, "beavers are not allowed")
        self._cube = self._cube.beavered(player)
        self._raccoon_open = True
        self._enter(Action.BEAVER, GamePhase.DOUBLE_OFFERED, GamePhase.AWAITING_ROLL)
        return self._record([Beavered(player, self._cube.value)])

    def raccoon(self, player: int) -> list[Event]:
        """The beavered doubler redoubles again before rolling; the cube stays with the
        beaverer."""
        self._require(Action.RACCOON, player, self._turn)
        if not (self.rules.beavers and self._raccoon_open):
            raise IllegalAction(ActionReason.NO_BEAVERS, "no beaver to raccoon")
        self._cube = self._cube.raccooned()
        self._raccoon_open = False
        self._enter(Action.RACCOON, GamePhase.AWAITING_ROLL, GamePhase.AWAITING_ROLL)
        return self._record([Raccooned(player, self._cube.value)])

    def resignation_points(self, result: GameResult) -> int:
        return game_points(
            result,
            self._cube.value,
            cube_turned=not self._cube.centred,
            jacoby=self.rules.jacoby,
        )

    def resign(self, player: int, result: GameResult) -> list[Event]:
        """Either player offers to resign a single, gammon or backgammon (any time while
        the game is being played, except while a double waits for an answer)."""
        self._require(Action.RESIGN, player, None)
        if not isinstance(result, GameResult):
            raise IllegalAction(
                ActionReason.BAD_RESIGNATION, f"not a result: {result!r}"
            )
        self._phase_before_resign = self._phase
        self._resigner = player
        self._resign_value = result
        self._enter(Action.RESIGN, self._phase, GamePhase.RESIGNATION_OFFERED)
        return self._record(
            [ResignationOffered(player, result, self.resignation_points(result))]
        )

    def accept_resignation(self, player: int) -> list[Event]:
        """The resigner's opponent accepts and wins the offered value x cube."""
        resigner = self._resigner
        self._require(
            Action.ACCEPT_RESIGNATION,
            player,
            None if resigner is None else 1 - resigner,
        )
        assert resigner is not None and self._resign_value is not None
        value = self._resign_value
        events: list[Event] = [
            ResignationAccepted(player),
            self._win(player, value, self.resignation_points(value), WinKind.RESIGNED),
        ]
        self._resigner = self._resign_value = self._phase_before_resign = None
        self._enter(
            Action.ACCEPT_RESIGNATION,
            GamePhase.RESIGNATION_OFFERED,
            GamePhase.GAME_OVER,
        )
        return self._record(events)

    def reject_resignation(self, player: int) -> list[Event]:
        """The resigner's opponent rejects; play resumes where it was."""
        resigner = self._resigner
        self._require(
            Action.REJECT_RESIGNATION,
            player,
            None if resigner is None else 1 - resigner,
        )
        back = self._phase_before_resign
        assert back is not None
        self._resigner = self._resign_value = self._phase_before_resign = None
        self._enter(Action.REJECT_RESIGNATION, GamePhase.RESIGNATION_OFFERED, back)
        return self._record([ResignationRejected(player)])

    # --- serialisation -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The complete state, JSON-able (see `from_dict`)."""
        return {**self.state_dict(), "history": list(self._history_dicts)}

    @property
    def history_length(self) -> int:
        return len(self._history_dicts)

    def history_dicts_since(self, start: int) -> list[dict[str, Any]]:
        """The serialised history from event `start` on (`to_dict`'s `history` grows
        only at its end: a saver can send just what was added)."""
        return self._history_dicts[start:]

    def state_dict(self) -> dict[str, Any]:
        """`to_dict` without the history: small, whatever the length of the game."""
        return {
            "rules": attrs.asdict(self.rules),
            "sides": [side_to_hex(s) for s in self._sides],
            "phase": self._phase.name,
            "turn": self._turn,
            "dice": None if self._dice is None else list(self._dice),
            "cube": attrs.asdict(self._cube),
            "turns_started": list(self._turns_started),
            "raccoon_open": self._raccoon_open,
            "resigner": self._resigner,
            "resign_value": None
            if self._resign_value is None
            else self._resign_value.name,
            "phase_before_resign": None
            if self._phase_before_resign is None
            else self._phase_before_resign.name,
            "won": None if self._won is None else event_to_dict(self._won),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Restore a game saved by `to_dict`; raises ValueError on malformed data."""
        try:
            game = cls(CubeRules(**data["rules"]))
            game._sides = [side_from_hex(s) for s in data["sides"]]
            if len(game._sides) != 2:
                raise ValueError("two sides expected")
            Position(game._sides[0], game._sides[1]).check()
            game._phase = GamePhase[data["phase"]]
            game._turn = data["turn"]
            game._dice = (
                None if data["dice"] is None else _check_dice(tuple(data["dice"]))
            )
            game._cube = Cube(**data["cube"])
            game._turns_started = [int(n) for n in data["turns_started"]]
            game._raccoon_open = bool(data["raccoon_open"])
            game._resigner = data["resigner"]
            rv = data["resign_value"]
            game._resign_value = None if rv is None else GameResult[rv]
            pb = data["phase_before_resign"]
            game._phase_before_resign = None if pb is None else GamePhase[pb]
            won = data["won"]
            if won is not None:
                won_event = event_from_dict(won)
                if not isinstance(won_event, GameWon):
                    raise ValueError("won must be a GameWon event")
                game._won = won_event
            game._history = [event_from_dict(e) for e in data["history"]]
            game._history_dicts = [event_to_dict(e) for e in game._history]
        except (KeyError, TypeError, IllegalAction) as exc:
            raise ValueError(f"not a saved game: {exc!r}") from exc
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable
