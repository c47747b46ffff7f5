"""One chouette table: its state and transition table, with the actions as methods.

Owns `Chouette`. The state, its queries and the table-level transition table are
`ChouetteState` (state.py); each family of actions is a module of functions over that
state: `seats` (seats, the initial order, a game's start), `partner`, `checkers` (the
board), `answers` (doubles, answers, extras), `resignation`, `absence` (disconnects),
`settlement` (payments, captains, rotation, the game's end) and `persistence`. Every
action validates first and mutates after: a refused action raises a `RuleError` (a
`ChouetteError`, or the board's own `IllegalPlay`/`IllegalAction`) and changes nothing;
an accepted one returns past-tense events. Dice and random draws come in as arguments,
timers are the server's (it calls `answer_timeout`, `close_extras`, `captain_absent`,
`leave(now=True)` when they run out). Rule numbers refer to docs/chouette-rules.md;
docs/chouette.md says how each is implemented.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..events import GameResult
from ..game import Game
from ..movegen import Play
from . import absence, answers, checkers, partner, persistence, resignation, seats
from .contracts import Contract, Holder
from .events import Answer, AnyEvent
from .settings import Settings
from .state import (
    FORMAT_VERSION,
    TRANSITIONS,
    ChouetteState,
    TableAction,
    TablePhase,
    active_in_order,
)

__all__ = [
    "FORMAT_VERSION",
    "TRANSITIONS",
    "Chouette",
    "TableAction",
    "TablePhase",
    "active_in_order",
]


class Chouette(ChouetteState):
    """A table: `Chouette(settings, players)`, then `begin_order`/`order_roll`, then
    `start_game` and the play actions; `to_dict`/`from_dict` save and restore it all."""

    def __init__(
        self, settings: Settings | None = None, players: Sequence[str] = ()
    ) -> None:
        super().__init__(settings)
        for name in players:
            self.join(name)

    # --- seats, order, a game's start (C18, C21, C22, C65-C69) ----------------

    def join(self, name: str) -> list[AnyEvent]:
        """C65: newcomers go to the end of the queue (or, with join=behind_loser while
        a game runs, behind its loser when it ends); they play from the next game."""
        return seats.join(self, name)

    def leave(
        self, name: str, now: bool = False, keep_seat: bool = False
    ) -> list[AnyEvent]:
        """C66-C68: out at once when he holds no live contract; else deferred to the
        game's end (C67), or with `now` abandoned at the worst result (C70). The
        partner's leave is always deferred: his share of the game is still open.
        `keep_seat` (a team member the server gives up on, C71): his contracts are
        abandoned as with `now`, but he keeps his seat, sitting out."""
        return seats.leave(self, name, now, keep_seat)

    def sit_out(self, name: str, on: bool = True) -> list[AnyEvent]:
        """C69: keep your place but be skipped; moved to the end when your turn to be
        box or captain comes (at the next `start_game`)."""
        return seats.sit_out(self, name, on)

    def close(self) -> list[AnyEvent]:
        """The owner closes the table (between games): the final standing (C78)."""
        return seats.close(self)

    def begin_order(self) -> list[AnyEvent]:
        """`chouette start`: everyone seated rolls one die (`order_roll`)."""
        return seats.begin_order(self)

    def order_roll(self, dice: Mapping[str, int]) -> list[AnyEvent]:
        """One die for each player in `order_to_roll`. Ties re-roll among themselves,
        keeping their place relative to the others; once all differ the queue is
        highest first: box, captain, then the rest."""
        return seats.order_roll(self, dice)

    def start_game(self, board: Game | None = None) -> list[AnyEvent]:
        """Roles from the queue, one centred contract per team member, the board at the
        opening; the partner is kept for his box's run, or chosen now if mandatory.
        `board` (tests, problems) starts from a set-up board instead, e.g.
        `Game.from_position(...)` with player 0 the box; its own cube is not used."""
        return seats.start_game(self, board)

    # --- the box's partner (C60-C62) ------------------------------------------

    def request_partner(self, name: str) -> list[AnyEvent]:
        """`chouette partner yes` by the box before the opening roll (C60)."""
        return partner.request_partner(self, name)

    def partner_answer(self, name: str, yes: bool) -> list[AnyEvent]:
        """The player offered the partnership accepts or declines (C61); silence is
        the server's `partner_answer(name, False)` after answer_seconds."""
        return partner.partner_answer(self, name, yes)

    def draw_partner(self, name: str) -> list[AnyEvent]:
        """The server's random draw among `partner_draw_candidates` (C61)."""
        return partner.draw_partner(self, name)

    # --- checker play (C22-C25) -----------------------------------------------

    def opening_roll(self, box_die: int, captain_die: int) -> list[AnyEvent]:
        """C22: box and captain roll one die each; a tie re-rolls and turns every
        centred cube while `autodoubles` allows (C50)."""
        return checkers.opening_roll(self, box_die, captain_die)

    def roll(self, name: str, dice: Sequence[int]) -> list[AnyEvent]:
        """The box or the (acting) captain rolls on his turn, once every double and
        resignation is answered. Rolling ends his side's chance to raccoon."""
        return checkers.roll(self, name, dice)

    def move(self, name: str, moves: Sequence[tuple[int, int]]) -> list[AnyEvent]:
        """Checker play by the box or the (acting) captain, in his own perspective."""
        return checkers.move(self, name, moves)

    def play(self, name: str, play: Play) -> list[AnyEvent]:
        """Like `move`, with a `Play` from `legal_plays` (the server's automove)."""
        return checkers.play(self, name, play)

    # --- doubling, answers, extras (C26-C38, C44-C48) -------------------------

    def eligible_doubles(self, name: str) -> tuple[Contract, ...]:
        """The contracts `name` may double right now (before his side rolls)."""
        return answers.eligible_doubles(self, name)

    def double(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        """C26/C28/C34/C35: the box doubles all eligible contracts or those of
        `targets`; a member doubles his own (his main, or with targets the extras of
        those givers); single-cube: the captain doubles for the whole team and the box
        doubles everyone."""
        return answers.double(self, name, targets)

    def answer(
        self, name: str, answer: Answer, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """`accept`/`reject`/`beaver` (with `targets`: only the doubles of those
        players). A member's answer to the box's double is sealed until all are in
        (C29); the box's answers to team doubles apply at once (C27)."""
        return answers.answer(self, name, answer, targets)

    def take(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.TAKE, targets)

    def drop(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.DROP, targets)

    def beaver(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.BEAVER, targets)

    def raccoon(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """C48: the doubler answers a beaver by redoubling again before he rolls; the
        beaverer keeps the cube."""
        return answers.raccoon(self, name, targets)

    def answer_timeout(self) -> list[AnyEvent]:
        """answer_seconds ran out on the box's double: silent members get the
        captain's answer, or drop (C29)."""
        return answers.answer_timeout(self)

    def extra(self, giver: str) -> list[AnyEvent]:
        """A dropper gives the lone taker an extra 2-cube: he pays the fee and the
        taker must accept (C47)."""
        return answers.extra(self, giver)

    def decline_extra(self, giver: str) -> list[AnyEvent]:
        return answers.decline_extra(self, giver)

    def close_extras(self) -> list[AnyEvent]:
        """answer_seconds ran out: droppers who said nothing give no extra."""
        return answers.close_extras(self)

    # --- resignations (C52) ---------------------------------------------------

    def resign(
        self, name: str, result: GameResult, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """A live member resigns his main contract to the box; the box resigns to
        `targets` or to every live member. Each answerer accepts or rejects."""
        return resignation.resign(self, name, result, targets)

    def answer_resignation(
        self, name: str, accept: bool, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        return resignation.answer_resignation(self, name, accept, targets)

    def accept_resignation(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        return self.answer_resignation(name, True, targets)

    def reject_resignation(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        return self.answer_resignation(name, False, targets)

    def time_out(self, side: Holder) -> list[AnyEvent]:
        """The server's clock: `side` ran out of time and loses the game as a single
        game at each cube's value (club-play.md K6); the table rotates."""
        return resignation.time_out(self, side)

    # --- disconnects (C70-C75) ------------------------------------------------

    def worst_result(self, name: str) -> GameResult:
        """C70: the worst result still possible for `name`'s side of the board, read
        off its checkers now (gammon while nothing is borne off, backgammon with a
        checker on the bar or in the winner's home board)."""
        return absence.worst_result(self, name)

    def set_proxy(self, name: str, on: bool = True) -> list[AnyEvent]:
        """C71: an absent member follows the captain (never doubles, copies the
        captain's answer, else drops), or is back in control."""
        return absence.set_proxy(self, name, on)

    def delegate(self, name: str, to: str | None) -> list[AnyEvent]:
        """C71 `chouette delegate NAME|off`: crew member `name`, stepping away, is
        proxied (he never doubles) and his cube copies `to`'s answer to the same box
        double (else the captain's, else a drop); `to=None` takes control back. `to`
        must be another live team member who is not proxied himself."""
        return absence.delegate(self, name, to)

    def captain_absent(self) -> list[AnyEvent]:
        """C72: the captain stayed away past the grace period. The best-placed live
        member who is present becomes captain; for rotation the absent captain counts
        as a captain who dropped; his contracts follow the new captain (C71)."""
        return absence.captain_absent(self)

    # --- invariants and saving (C79) ------------------------------------------

    def check(self) -> None:
        """Raise AssertionError if an invariant is broken (tests, restored saves)."""
        return persistence.check(self)

    def to_dict(self) -> dict[str, Any]:
        """The whole table, JSON-able and versioned (`from_dict` restores it)."""
        return persistence.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chouette:
        """Restore a table saved by `to_dict`; ValueError on malformed data or an
        unknown format version."""
        return persistence.from_dict(cls, data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chouette):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable
