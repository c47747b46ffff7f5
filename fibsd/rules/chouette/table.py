"""One chouette table as a state machine: seats, order, games, cubes, rotation, ledger.

Owns `Chouette` and `TablePhase`. The board is the two-player `Game` (player 0 = the
box, player 1 = the team, moved by the acting captain, C23-C25); the chouette adds the
roles, the contracts (one per member, C3) and what happens to them. Every action
validates first and mutates after: a refused action raises a `RuleError` (a
`ChouetteError`, or the board's own `IllegalPlay`/`IllegalAction`) and changes
nothing; an accepted one returns past-tense events. Dice and random draws come in as
arguments, timers are the server's (it calls `answer_timeout`, `close_extras`,
`captain_absent`, `leave(now=True)` when they run out). Rule numbers refer to
docs/chouette-rules.md; docs/chouette.md says how each is implemented.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import attrs

from ..cube import CubeRules
from ..events import DiceRolled, GameResult, GameStarted, OpeningRolled
from ..game import Game, GamePhase
from ..movegen import Play
from ..scoring import game_points, game_result
from .contracts import Contract, Holder, Kind
from .errors import ChouetteError, ChouetteReason
from .events import (
    Answer,
    AnswerSealed,
    AnyEvent,
    CaptainChanged,
    Cause,
    ChouetteGameOver,
    ChouetteGameStarted,
    ContractSettled,
    CubesAutoDoubled,
    DoubleAnswered,
    Doubled,
    ExtraDeclined,
    ExtraGiven,
    ExtrasOpen,
    LeaveDeferred,
    MoneyMoved,
    OrderDecided,
    OrderRolled,
    PartnerChosen,
    PartnerDeclined,
    PartnerDrawNeeded,
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
from .ledger import GameRecord, Ledger, LedgerRow, deltas_of, split_with_partner
from .settings import (
    START_MIN,
    BoxLimits,
    Consult,
    Cubes,
    JoinMode,
    LoneTaker,
    PartnerMode,
    PartnerPick,
    Rotation,
    Settings,
)

FORMAT_VERSION = 1
R = ChouetteReason


class TablePhase(enum.Enum):
    GATHERING = "gathering"  # seats taken, order not rolled yet
    ORDERING = "ordering"  # the initial order rolls (C21)
    BETWEEN_GAMES = "between_games"
    PLAYING = "playing"
    CLOSED = "closed"


class TableAction(enum.Enum):
    """Actions grouped by the table phases they need (the board's own phases are the
    two-player `Game`'s, see `fibsd.rules.game.TRANSITIONS`)."""

    BEGIN_ORDER = enum.auto()
    ORDER_ROLL = enum.auto()  # also a tied player leaving, which may decide the order
    START_GAME = enum.auto()
    PLAY = enum.auto()  # every action in a game; the last settlement ends the game
    CLOSE = enum.auto()


T = TablePhase
# The one table of table-level transitions: (phase, action) -> the phases it may lead
# to. An action absent for a phase is refused with WRONG_PHASE; `_enter` asserts the
# phase it arrives at is listed.
TRANSITIONS: dict[tuple[TablePhase, TableAction], frozenset[TablePhase]] = {
    (T.GATHERING, TableAction.BEGIN_ORDER): frozenset({T.ORDERING}),
    (T.ORDERING, TableAction.ORDER_ROLL): frozenset({T.ORDERING, T.BETWEEN_GAMES}),
    (T.BETWEEN_GAMES, TableAction.START_GAME): frozenset({T.PLAYING}),
    (T.PLAYING, TableAction.PLAY): frozenset({T.PLAYING, T.BETWEEN_GAMES}),
    (T.GATHERING, TableAction.CLOSE): frozenset({T.CLOSED}),
    (T.ORDERING, TableAction.CLOSE): frozenset({T.CLOSED}),
    (T.BETWEEN_GAMES, TableAction.CLOSE): frozenset({T.CLOSED}),
}
del T


def _refuse(reason: ChouetteReason, message: str = "") -> NoReturn:
    raise ChouetteError(reason, message)


class Chouette:
    """A table: `Chouette(settings, players)`, then `begin_order`/`order_roll`, then
    `start_game` and the play actions; `to_dict`/`from_dict` save and restore it all."""

    def __init__(
        self, settings: Settings | None = None, players: Sequence[str] = ()
    ) -> None:
        self.settings = settings if settings is not None else Settings()
        self.ledger = Ledger()
        self._phase = TablePhase.GATHERING
        self._queue: list[str] = []
        self._sitting_out: set[str] = set()
        self._order_groups: list[list[str]] = []
        self._order_joiners: list[str] = []  # joined while the order was rolled
        self._joiners: list[str] = []  # join=behind_loser: placed when the game ends
        self._leaving: list[str] = []  # deferred leaves (C67)
        self._partner: str | None = None
        self._game_number = 0
        self._next_cid = 1
        self._last_game: Game | None = None
        self._reset_game()
        for name in players:
            self.join(name)

    def _reset_game(self) -> None:
        self._game: Game | None = None
        self._participants: tuple[str, ...] = ()
        self._contracts: list[Contract] = []
        self._box: str | None = None
        self._captain: str | None = None  # the acting captain (C5)
        self._first_captain: str | None = None
        self._rot_captain: str | None = None  # who counts as captain for rotation (C56)
        self._decided: Holder | None = None  # who won box vs that captain
        self._moved_to_end: list[str] = []  # moved at once this game (C36)
        self._captain_fate: bool | None = None  # the captain's contract: won (True)
        self._offers: dict[int, Holder] = {}  # cid -> the doubling side
        self._box_round: list[int] = []  # the box's double awaiting sealed answers
        self._box_round_all = False  # ... went to every live member
        self._box_round_initial = False  # ... was turned from the centre
        self._sealed: dict[int, Answer] = {}
        self._timed_out: set[int] = set()
        self._team_round: list[int] = []  # team doubles the box has not all answered
        self._team_round_initial = False  # ... all turned from the centre
        self._box_answers: dict[int, Answer] = {}  # the box's answers in that round
        self._resigns: dict[int, tuple[Holder, GameResult]] = {}
        self._extras_taker: str | None = None
        self._extras_givers: list[str] = []
        self._extras_fee = 0
        self._extras_value = 0
        self._proxied: set[str] = set()
        #: C71 `chouette delegate`: a proxied member -> the team member he follows
        #: instead of the captain (only for members in `_proxied`).
        self._delegates: dict[str, str] = {}
        self._auto = 0
        self._partner_candidates: list[str] = []
        self._partner_draw: tuple[str, ...] = ()

    def _require(self, action: TableAction, message: str) -> None:
        if (self._phase, action) not in TRANSITIONS:
            if self._phase is TablePhase.CLOSED:
                _refuse(R.CLOSED)
            if action is TableAction.CLOSE:
                _refuse(R.GAME_IN_PROGRESS)
            _refuse(R.WRONG_PHASE, message)

    def _enter(self, action: TableAction, to_phase: TablePhase) -> None:
        assert to_phase in TRANSITIONS[(self._phase, action)], (self._phase, action)
        self._phase = to_phase

    # --- queries ---------------------------------------------------------------------

    @property
    def phase(self) -> TablePhase:
        return self._phase

    @property
    def queue(self) -> tuple[str, ...]:
        """The seated players in order: box, (partner), captain, crew (C2)."""
        return tuple(self._queue)

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at the table, including those still waiting for their place."""
        return (*self._queue, *self._order_joiners, *self._joiners)

    @property
    def sitting_out(self) -> frozenset[str]:
        return frozenset(self._sitting_out)

    @property
    def leaving(self) -> tuple[str, ...]:
        return tuple(self._leaving)

    @property
    def game(self) -> Game | None:
        """The board of the running game (player 0 the box, 1 the team)."""
        return self._game

    @property
    def last_game(self) -> Game | None:
        """The board of the last finished game (for a `.mat` export, C79)."""
        return self._last_game

    @property
    def game_number(self) -> int:
        return self._game_number

    @property
    def box(self) -> str | None:
        return self._box if self._game is not None else self._role(0)

    @property
    def partner(self) -> str | None:
        return self._partner

    @property
    def captain(self) -> str | None:
        """The (acting) captain: he rolls and moves for the team."""
        if self._game is not None:
            return self._captain
        return self._role(2 if self._partner is not None else 1)

    @property
    def rotation_captain(self) -> str | None:
        """The captain who counts for the rotation of the running game (C56)."""
        return self._rot_captain

    @property
    def participants(self) -> tuple[str, ...]:
        return self._participants

    @property
    def contracts(self) -> tuple[Contract, ...]:
        return tuple(self._contracts)

    @property
    def proxied(self) -> frozenset[str]:
        return frozenset(self._proxied)

    @property
    def order_to_roll(self) -> tuple[str, ...]:
        """Who must roll a die for the initial order now (C21)."""
        return tuple(n for g in self._order_groups if len(g) > 1 for n in g)

    @property
    def partner_offered_to(self) -> str | None:
        return self._partner_candidates[0] if self._partner_candidates else None

    @property
    def partner_draw_candidates(self) -> tuple[str, ...]:
        return self._partner_draw

    @property
    def extras_givers(self) -> tuple[str, ...]:
        return tuple(self._extras_givers)

    @property
    def extras_taker(self) -> str | None:
        return self._extras_taker

    @property
    def auto_doubles(self) -> int:
        return self._auto

    def _role(self, index: int) -> str | None:
        active = [n for n in self._queue if n not in self._sitting_out]
        return active[index] if len(active) > index else None

    def team(self) -> tuple[str, ...]:
        """The team of the running game in queue order: captain's side, no partner."""
        return tuple(
            n
            for n in self._queue
            if n in self._participants and n not in (self._box, self._partner)
        )

    def contract(self, cid: int) -> Contract:
        for c in self._contracts:
            if c.cid == cid:
                return c
        raise KeyError(cid)

    def main_of(self, member: str) -> Contract | None:
        """A member's main contract in the running game (live or settled)."""
        for c in self._contracts:
            if c.kind is Kind.MAIN and c.member == member:
                return c
        return None

    def is_live(self, member: str) -> bool:
        """C5: a team member with a live main contract."""
        c = self.main_of(member)
        return c is not None and c.live

    def live_members(self) -> tuple[str, ...]:
        return tuple(m for m in self.team() if self.is_live(m))

    def in_game(self, member: str) -> bool:
        """C4: his contract's cube has been turned and accepted (single-cube: the
        team's cube, which every member's contract shares)."""
        if self.settings.cubes is Cubes.SINGLE:
            return any(c.turned for c in self._contracts if c.kind is Kind.MAIN)
        c = self.main_of(member)
        return c is not None and c.turned

    def pending_offers(self) -> tuple[tuple[int, str, str], ...]:
        """(cid, doubler, who must answer) for every double not yet answered (a sealed
        answer already given still shows until all are revealed)."""
        out = []
        for cid, side in self._offers.items():
            c = self.contract(cid)
            out.append((cid, c.player_of(side), c.player_of(side.other)))
        return tuple(out)

    def pending_resignations(self) -> tuple[tuple[int, str, str, GameResult], ...]:
        """(cid, resigner, who must answer, result)."""
        out = []
        for cid, (side, result) in self._resigns.items():
            c = self.contract(cid)
            out.append((cid, c.player_of(side), c.player_of(side.other), result))
        return tuple(out)

    def waiting_for(self) -> tuple[str, ...]:
        """Everyone whose answer or action the table waits for now, in queue order."""
        names: set[str] = set()
        if self._phase is TablePhase.ORDERING:
            names.update(self.order_to_roll)
        if self._game is None:
            return tuple(n for n in self._queue if n in names)
        for cid, _, answerer in self.pending_offers():
            if cid not in self._sealed:
                names.add(answerer)
        names.update(a for _, _, a, _ in self.pending_resignations())
        names.update(self._extras_givers)
        if self._partner_candidates:
            names.add(self._partner_candidates[0])
        if not names:
            if self._game.phase is GamePhase.OPENING:
                names.update(n for n in (self._box, self._captain) if n is not None)
            elif self._game.turn is not None:
                name = self._box if self._game.turn == 0 else self._captain
                if name is not None:
                    names.add(name)
        return tuple(n for n in self._queue if n in names)

    def totals(self) -> dict[str, int]:
        return self.ledger.totals()

    # --- consultation (C39-C43) ---------------------------------------------------------

    def may_team_talk(self, name: str, doubling_window_open: bool = False) -> bool:
        """Whether `name` may send on the team channel now. The server knows whether
        the team's doubling window (C26) is open and says so."""
        if self._game is None:
            return name in self._queue and self._phase is not TablePhase.CLOSED
        mode = self.settings.consult
        if mode is Consult.NONE or name not in self.live_members():
            return False
        if any(c.box_side == name for c in self._contracts if c.live):
            return False  # an extras giver's interest is with the box (C47)
        if mode is Consult.FREE:
            return True
        if self._offers or doubling_window_open:
            return False  # no talk on cube decisions (C41)
        return name == self._captain or self.in_game(name)

    def team_audience(self) -> tuple[str, ...]:
        """Who receives team talk: live team members only (C39)."""
        if self._game is None:
            return tuple(self._queue)
        return self.live_members()

    def may_boxside_talk(self, name: str) -> bool:
        return name is not None and name in (self.box, self._partner)

    def may_talk_privately(self, a: str, b: str) -> bool:
        """C43: `tell`/`say` between two participants of a running game is refused
        unless consultation is free."""
        if self._game is None or self.settings.consult is Consult.FREE:
            return True
        return not (a in self._participants and b in self._participants)

    # --- seats --------------------------------------------------------------------------

    def join(self, name: str) -> list[AnyEvent]:
        """C65: newcomers go to the end of the queue (or, with join=behind_loser while
        a game runs, behind its loser when it ends); they play from the next game."""
        if self._phase is TablePhase.CLOSED:
            _refuse(R.CLOSED)
        if name in self.seated:
            _refuse(R.ALREADY_SEATED, name)
        if len(self.seated) >= self.settings.seats_max:
            _refuse(R.TABLE_FULL)
        if self._phase is TablePhase.ORDERING:
            self._order_joiners.append(name)
            return [PlayerJoined(name, -1)]
        if self._game is not None and self.settings.join is JoinMode.BEHIND_LOSER:
            self._joiners.append(name)
            return [PlayerJoined(name, -1)]
        self._queue.append(name)
        return [PlayerJoined(name, len(self._queue) - 1)]

    def leave(
        self, name: str, now: bool = False, keep_seat: bool = False
    ) -> list[AnyEvent]:
        """C66-C68: out at once when he holds no live contract; else deferred to the
        game's end (C67), or with `now` abandoned at the worst result (C70). The
        partner's leave is always deferred: his share of the game is still open.
        `keep_seat` (a team member the server gives up on, C71): his contracts are
        abandoned as with `now`, but he keeps his seat, sitting out."""
        if name not in self.seated:
            _refuse(R.NOT_SEATED, name)
        events: list[AnyEvent] = []
        if name in self._order_joiners or name in self._joiners:
            self._order_joiners = [n for n in self._order_joiners if n != name]
            self._joiners = [n for n in self._joiners if n != name]
            return [PlayerLeft(name)]
        if self._game is not None and name in self._participants:
            holds = name in (self._box, self._partner) or any(
                c.live and name in (c.member, c.box_side) for c in self._contracts
            )
            if holds and now and name != self._partner:
                if name == self._box:  # C73: he is gone; the game ends with him
                    events.append(PlayerLeft(name))
                self._abandon(name, events)
                if name != self._box and name in self._queue:
                    if keep_seat:
                        self._sitting_out.add(name)
                        events.append(SittingOut(name, True))
                    else:
                        self._remove(name)
                        events.append(PlayerLeft(name))
                return events
            if holds:
                if name in self._leaving:
                    _refuse(R.WRONG_PHASE, f"{name} already leaves after this game")
                self._leaving.append(name)
                return [LeaveDeferred(name)]
        self._remove(name)
        events.append(PlayerLeft(name))
        self._order_done(events)  # he may have been the last one tied
        return events

    def _remove(self, name: str) -> None:
        was_box = self._game is None and self._queue[:1] == [name]
        if self._phase is TablePhase.ORDERING:
            self._order_groups = [
                [n for n in g if n != name] for g in self._order_groups
            ]
            self._order_groups = [g for g in self._order_groups if g]
        if name in self._queue:
            self._queue.remove(name)
        self._sitting_out.discard(name)
        self._proxied.discard(name)
        self._delegates.pop(name, None)
        self._delegates = {m: d for m, d in self._delegates.items() if d != name}
        self._leaving = [n for n in self._leaving if n != name]
        if name == self._partner or was_box:
            self._partner = None  # C60: a partnership lasts for its box's run

    def sit_out(self, name: str, on: bool = True) -> list[AnyEvent]:
        """C69: keep your place but be skipped; moved to the end when your turn to be
        box or captain comes (at the next `start_game`)."""
        if name not in self._queue:
            _refuse(R.NOT_SEATED, name)
        if on:
            self._sitting_out.add(name)
        else:
            self._sitting_out.discard(name)
        return [SittingOut(name, on)]

    def close(self) -> list[AnyEvent]:
        """The owner closes the table (between games): the final standing (C78)."""
        self._require(TableAction.CLOSE, "close between games")
        self._enter(TableAction.CLOSE, TablePhase.CLOSED)
        totals = self.ledger.totals()
        ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
        return [TableClosed(tuple(ranked))]

    # --- the initial order (C21) ------------------------------------------------------

    def begin_order(self) -> list[AnyEvent]:
        """`chouette start`: everyone seated rolls one die (`order_roll`)."""
        self._require(TableAction.BEGIN_ORDER, "the order is already decided")
        if len(self._queue) < START_MIN:
            _refuse(R.TOO_FEW_PLAYERS, f"{START_MIN} players needed")
        self._order_groups = [list(self._queue)]
        self._enter(TableAction.BEGIN_ORDER, TablePhase.ORDERING)
        return []

    def order_roll(self, dice: Mapping[str, int]) -> list[AnyEvent]:
        """One die for each player in `order_to_roll`. Ties re-roll among themselves,
        keeping their place relative to the others; once all differ the queue is
        highest first: box, captain, then the rest."""
        self._require(TableAction.ORDER_ROLL, "no order to roll")
        expected = set(self.order_to_roll)
        if set(dice) != expected or not all(
            isinstance(d, int) and 1 <= d <= 6 for d in dice.values()
        ):
            _refuse(R.BAD_DICE, f"one die 1..6 each for {sorted(expected)}")
        groups: list[list[str]] = []
        for group in self._order_groups:
            if len(group) == 1:
                groups.append(group)
                continue
            for value in sorted({dice[n] for n in group}, reverse=True):
                groups.append([n for n in group if dice[n] == value])
        self._order_groups = groups
        rolled = tuple((n, dice[n]) for n in self._queue if n in dice)
        events: list[AnyEvent] = [OrderRolled(rolled, self.order_to_roll)]
        self._order_done(events)
        return events

    def _order_done(self, events: list[AnyEvent]) -> None:
        """Once no tie is left, the groups' order is the queue (joiners after it)."""
        if self._phase is not TablePhase.ORDERING or self.order_to_roll:
            return
        self._queue = [g[0] for g in self._order_groups] + self._order_joiners
        self._order_joiners = []
        self._order_groups = []
        self._enter(TableAction.ORDER_ROLL, TablePhase.BETWEEN_GAMES)
        events.append(OrderDecided(tuple(self._queue)))

    # --- a game's start (C22, C59, C60-C63, C69) ----------------------------------------

    def start_game(self, board: Game | None = None) -> list[AnyEvent]:
        """Roles from the queue, one centred contract per team member, the board at the
        opening; the partner is kept for his box's run, or chosen now if mandatory.
        `board` (tests, problems) starts from a set-up board instead, e.g.
        `Game.from_position(...)` with player 0 the box; its own cube is not used."""
        self._require(TableAction.START_GAME, "not between games")
        active = [n for n in self._queue if n not in self._sitting_out]
        if len(active) < 2:
            _refuse(R.TOO_FEW_PLAYERS, "a box and a captain are needed")
        if len(active) < 3 or self._partner in self._sitting_out:
            self._partner = None  # a box, a partner and a captain are needed
        # C69: a sitting-out player whose turn as box, partner or captain comes goes to
        # the end; the active players keep their order, so this ends within len(queue)
        slots = 2 if self._partner is not None else 1
        for _ in range(len(self._queue)):
            head = self._queue[: slots + 1]
            out = next((n for n in head if n in self._sitting_out), None)
            if out is None:
                break
            self._move_to_end(out, record=False)
        assert not set(self._queue[: slots + 1]) & self._sitting_out
        if self._partner is not None and self._queue.index(self._partner) != 1:
            self._partner = None
        self._reset_game()
        self._game_number += 1
        self._participants = tuple(active_in_order(self._queue, self._sitting_out))
        self._box = self._queue[0]
        team = self.team()
        self._captain = self._first_captain = self._rot_captain = team[0]
        self._contracts = [self._new_contract(Kind.MAIN, self._box, m) for m in team]
        self._game = (
            board
            if board is not None
            else Game(
                CubeRules(enabled=True), GameStarted(self._game_number, False, False)
            )
        )
        self._enter(TableAction.START_GAME, TablePhase.PLAYING)
        events: list[AnyEvent] = [self._started_event()]
        if (
            self._partner is None
            and self.settings.partner is PartnerMode.MANDATORY
            and len(self._participants) >= self.settings.partner_from
        ):
            self._begin_partner(events)
        return events

    def _started_event(self) -> ChouetteGameStarted:
        assert self._box is not None and self._captain is not None
        return ChouetteGameStarted(
            self._game_number,
            self._box,
            self._partner,
            self._captain,
            tuple(m for m in self.team() if m != self._captain),
        )

    def _new_contract(
        self, kind: Kind, box_side: str, member: str, **kw: Any
    ) -> Contract:
        c = Contract(self._next_cid, kind, box_side, member, **kw)
        self._next_cid += 1
        return c

    # --- the box's partner (C60-C62) ----------------------------------------------------

    def _opening_untouched(self) -> bool:
        """Nothing has happened in this game yet: no die rolled, no cube turned."""
        game = self._game
        return (
            game is not None
            and not any(
                isinstance(e, (OpeningRolled, DiceRolled)) for e in game.history
            )
            and self._auto == 0
            and not self._offers
            and not any(c.turned for c in self._contracts)
        )

    def request_partner(self, name: str) -> list[AnyEvent]:
        """`chouette partner yes` by the box before the opening roll (C60)."""
        self._playing()
        if name != self._box:
            _refuse(R.NOT_BOX)
        if (
            self.settings.partner is PartnerMode.OFF
            or self._partner is not None
            or self._partner_candidates
            or self._partner_draw
            or len(self._participants) < self.settings.partner_from
            or not self._opening_untouched()
        ):
            _refuse(R.NO_PARTNER)
        events: list[AnyEvent] = []
        self._begin_partner(events)
        return events

    def _begin_partner(self, events: list[AnyEvent]) -> None:
        team = list(self.team())
        if self.settings.partner_pick is PartnerPick.NEXT:
            self._set_partner(team[1], events)
            return
        self._partner_candidates = [team[0], *reversed(team[1:])]
        events.append(PartnerOffered(self._partner_candidates[0]))

    def partner_answer(self, name: str, yes: bool) -> list[AnyEvent]:
        """The player offered the partnership accepts or declines (C61); silence is
        the server's `partner_answer(name, False)` after answer_seconds."""
        self._playing()
        if self.partner_offered_to != name:
            _refuse(R.NO_PARTNER, f"nothing offered to {name}")
        events: list[AnyEvent] = []
        if yes:
            self._set_partner(name, events)
            return events
        self._partner_candidates.pop(0)
        events.append(PartnerDeclined(name))
        if self._partner_candidates:
            events.append(PartnerOffered(self._partner_candidates[0]))
        else:
            self._partner_draw = tuple(self.team()[1:])
            events.append(PartnerDrawNeeded(self._partner_draw))
        return events

    def draw_partner(self, name: str) -> list[AnyEvent]:
        """The server's random draw among `partner_draw_candidates` (C61)."""
        self._playing()
        if name not in self._partner_draw:
            _refuse(R.NO_PARTNER, f"{name} cannot be drawn")
        events: list[AnyEvent] = []
        self._set_partner(name, events)
        return events

    def _set_partner(self, name: str, events: list[AnyEvent]) -> None:
        self._partner_candidates = []
        self._partner_draw = ()
        self._queue.remove(name)
        self._queue.insert(1, name)
        self._partner = name
        self._contracts = [c for c in self._contracts if c.member != name]
        team = self.team()
        self._captain = self._first_captain = self._rot_captain = team[0]
        events.append(PartnerChosen(name, team[0]))

    def _partner_pending(self) -> None:
        if self._partner_candidates or self._partner_draw:
            _refuse(R.PARTNER_PENDING)

    # --- checker play (C22-C25) ---------------------------------------------------------

    def _playing(self) -> Game:
        self._require(TableAction.PLAY, "no game is being played")
        assert self._game is not None
        return self._game

    def _side_of_player(self, name: str) -> Holder:
        if name == self._box:
            return Holder.BOX
        if name == self._captain:
            return Holder.TEAM
        _refuse(R.NOT_BOX_OR_CAPTAIN, f"{name} neither box nor captain")

    def _board_free(self) -> None:
        self._partner_pending()
        if self._resigns:
            _refuse(R.RESIGNATION_PENDING)
        if self._offers:
            _refuse(R.ANSWERS_PENDING)
        if self._extras_givers:
            _refuse(R.EXTRAS_OPEN)

    def opening_roll(self, box_die: int, captain_die: int) -> list[AnyEvent]:
        """C22: box and captain roll one die each; a tie re-rolls and turns every
        centred cube while `autodoubles` allows (C50)."""
        game = self._playing()
        self._partner_pending()
        events: list[AnyEvent] = list(game.opening_roll(box_die, captain_die))
        if box_die == captain_die and self._auto < self.settings.autodoubles:
            self._auto += 1
            for c in list(self._contracts):
                if c.live and c.owner is None:
                    self._put(attrs.evolve(c, value=c.value * 2))
            events.append(CubesAutoDoubled(self._contracts[0].value))
        return events

    def roll(self, name: str, dice: Sequence[int]) -> list[AnyEvent]:
        """The box or the (acting) captain rolls on his turn, once every double and
        resignation is answered. Rolling ends his side's chance to raccoon."""
        game = self._playing()
        side = self._side_of_player(name)
        self._board_free()
        events: list[AnyEvent] = list(game.roll(side.player, dice))
        for c in list(self._contracts):
            if c.raccoon is side:
                self._put(attrs.evolve(c, raccoon=None))
        return events

    def move(self, name: str, moves: Sequence[tuple[int, int]]) -> list[AnyEvent]:
        """Checker play by the box or the (acting) captain, in his own perspective."""
        game = self._playing()
        side = self._side_of_player(name)
        self._board_free()
        events: list[AnyEvent] = list(game.move(side.player, moves))
        if game.phase is GamePhase.GAME_OVER:
            self._board_over(events)
        return events

    def play(self, name: str, play: Play) -> list[AnyEvent]:
        """Like `move`, with a `Play` from `legal_plays` (the server's automove)."""
        return self.move(name, [(m.from_point, m.to_point) for m in play.moves])

    # --- doubling (C26-C38, C44, C46-C48) -----------------------------------------------

    def eligible_doubles(self, name: str) -> tuple[Contract, ...]:
        """The contracts `name` may double right now (before his side rolls)."""
        game = self._game
        if (
            game is None
            or game.phase is not GamePhase.AWAITING_ROLL
            or self._resigns
            or self._partner_candidates
            or self._partner_draw
            or name in self._proxied
        ):
            return ()
        side = Holder.BOX if game.turn == 0 else Holder.TEAM
        if side is Holder.BOX and (self._offers or self._extras_givers):
            return ()  # the box's round must be over first
        if side is Holder.TEAM and self.settings.cubes is Cubes.SINGLE:
            if name != self._captain or self._offers:
                return ()
            mains = [c for c in self._contracts if c.kind is Kind.MAIN and c.live]
            return tuple(mains) if all(c.may_double(side) for c in mains) else ()
        return tuple(
            c
            for c in self._contracts
            if c.player_of(side) == name
            and c.may_double(side)
            and c.cid not in self._offers
            and c.cid not in self._resigns
        )

    def double(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        """C26/C28/C34/C35: the box doubles all eligible contracts or those of
        `targets`; a member doubles his own (his main, or with targets the extras of
        those givers); single-cube: the captain doubles for the whole team and the box
        doubles everyone."""
        game = self._playing()
        eligible = self.eligible_doubles(name)
        if not eligible:
            if game.phase is not GamePhase.AWAITING_ROLL:
                _refuse(R.WRONG_PHASE, "doubles come before the roll")
            _refuse(R.CANNOT_DOUBLE, f"{name} has no cube to turn now")
        side = Holder.BOX if game.turn == 0 else Holder.TEAM
        single = self.settings.cubes is Cubes.SINGLE
        if targets is not None and single:
            _refuse(R.SINGLE_CUBE, "single-cube doubles go to the whole team")
        chosen: list[Contract]
        if targets is None:
            if side is Holder.TEAM and not single:
                mains = [c for c in eligible if c.kind is Kind.MAIN]
                chosen = mains or list(eligible)
            else:
                chosen = list(eligible)
        else:
            chosen = []
            for target in dict.fromkeys(targets):
                found = [c for c in eligible if c.player_of(side.other) == target]
                if side is Holder.TEAM and target == self._box:
                    found = [c for c in eligible if c.kind is Kind.MAIN]
                if not found:
                    _refuse(R.CANNOT_DOUBLE, f"{name} may not double {target} now")
                chosen.extend(found)
            if (
                side is Holder.BOX
                and name == self._box
                and self.settings.box_limits is BoxLimits.SAME_VALUE
            ):
                values = {c.value for c in chosen}
                chosen.extend(
                    c for c in eligible if c.value in values and c not in chosen
                )
        events: list[AnyEvent] = []
        live_mains = {c.cid for c in self._contracts if c.kind is Kind.MAIN and c.live}
        for c in chosen:
            self._offers[c.cid] = side
            events.append(Doubled(c.cid, name, c.player_of(side.other), c.value * 2))
        if side is Holder.BOX and name == self._box:
            self._box_round = [c.cid for c in chosen]
            self._box_round_all = {c.cid for c in chosen} == live_mains
            self._box_round_initial = all(c.owner is None for c in chosen)
            self._maybe_reveal(events)
            self._after_settlements(events)
        elif side is Holder.TEAM:
            mains = [c for c in chosen if c.kind is Kind.MAIN]
            if not self._team_round:
                self._team_round_initial = True
            self._team_round_initial &= all(c.owner is None for c in mains)
            self._team_round.extend(c.cid for c in mains)
        return events

    def _pending_for(self, name: str) -> list[int]:
        return [
            cid
            for cid, side in self._offers.items()
            if self.contract(cid).player_of(side.other) == name
        ]

    def answer(
        self, name: str, answer: Answer, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """`accept`/`reject`/`beaver` (with `targets`: only the doubles of those
        players). A member's answer to the box's double is sealed until all are in
        (C29); the box's answers to team doubles apply at once (C27)."""
        self._playing()
        self._partner_pending()
        pending = self._pending_for(name)
        if not pending:
            _refuse(R.NOT_DOUBLED, f"nobody doubled {name}")
        if targets is not None:
            chosen: list[int] = []
            for target in dict.fromkeys(targets):
                found = [
                    cid
                    for cid in pending
                    if self.contract(cid).player_of(self._offers[cid]) == target
                ]
                if not found:
                    _refuse(R.NOT_DOUBLED, f"{target} did not double {name}")
                chosen.extend(found)
            pending = chosen
        if answer is Answer.BEAVER and (
            self.settings.beavers < 1 or self.settings.cubes is Cubes.SINGLE
        ):
            _refuse(R.NO_BEAVERS)
        sealed = [cid for cid in pending if cid in self._box_round]
        if any(cid in self._sealed for cid in sealed):
            _refuse(R.ALREADY_ANSWERED)
        immediate = [cid for cid in pending if cid not in self._box_round]
        if name == self._box and immediate:
            if self.settings.cubes is Cubes.SINGLE and len(immediate) != len(
                self._pending_for(name)
            ):
                _refuse(R.SINGLE_CUBE, "the box answers the team's cube once")
            self._check_box_limits(immediate, answer)
        events: list[AnyEvent] = []
        for cid in immediate:
            self._apply_answer(cid, answer, events)
        if name == self._box:
            for cid in immediate:
                self._box_answers[cid] = answer
            if not any(cid in self._offers for cid in self._team_round):
                self._team_round = []
                self._team_round_initial = False
                self._box_answers = {}
        for cid in sealed:
            self._sealed[cid] = answer
        if sealed:
            events.append(AnswerSealed(name))
            self._maybe_reveal(events)
        self._after_settlements(events)
        return events

    def take(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.TAKE, targets)

    def drop(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.DROP, targets)

    def beaver(self, name: str, targets: Sequence[str] | None = None) -> list[AnyEvent]:
        return self.answer(name, Answer.BEAVER, targets)

    def _check_box_limits(self, cids: list[int], answer: Answer) -> None:
        """C14, checked before any answer applies; partial answers are refused as soon
        as no completion of the round could satisfy the limit."""
        limit = self.settings.box_limits
        if limit is BoxLimits.NONE:
            return
        answers = dict(self._box_answers)
        answers.update((cid, answer) for cid in cids)
        round_ = list(self._team_round)
        takes = [c for c in round_ if c in answers and answers[c] is not Answer.DROP]
        drops = [c for c in round_ if answers.get(c) is Answer.DROP]
        open_ = [c for c in round_ if c not in answers]
        if limit is BoxLimits.CAPTAIN:
            captain = self.main_of(self._captain) if self._captain else None
            if captain is not None and captain.cid in drops and takes:
                _refuse(R.BOX_LIMIT, "take the captain's cube if you take any")
        elif limit is BoxLimits.HALF:
            live = [c.cid for c in self._contracts if c.kind is Kind.MAIN and c.live]
            full = self._team_round_initial and all(cid in round_ for cid in live)
            need = len(round_) if len(round_) <= 2 else -(-len(round_) // 2)
            if full and takes and len(takes) + len(open_) < need:
                _refuse(R.BOX_LIMIT, f"take at least {need} of {len(round_)} or none")
        elif limit is BoxLimits.SAME_VALUE:
            by_value: dict[int, set[bool]] = {}
            for cid in round_:
                if cid in answers:
                    value = self.contract(cid).value
                    if cid in self._box_answers and answers[cid] is not Answer.DROP:
                        value = value // (4 if answers[cid] is Answer.BEAVER else 2)
                    by_value.setdefault(value, set()).add(answers[cid] is Answer.DROP)
            if any(len(kinds) > 1 for kinds in by_value.values()):
                _refuse(R.BOX_LIMIT, "same value, same action")

    def _apply_answer(
        self,
        cid: int,
        answer: Answer,
        events: list[AnyEvent],
        forced: bool = False,
        proxied: bool = False,
        follows: str | None = None,
        defaulted: bool = False,
    ) -> None:
        c = self.contract(cid)
        doubler_side = self._offers.pop(cid)
        answerer_side = doubler_side.other
        doubler = c.player_of(doubler_side)
        answerer = c.player_of(answerer_side)
        if answer is Answer.DROP:
            events.append(
                DoubleAnswered(cid, answerer, doubler, answer, c.value, forced, proxied, follows,
                               defaulted)
            )
            if c.kind is Kind.MAIN and c.member == self._captain:
                self._captain_fate = doubler_side is Holder.TEAM
            self._settle(c, doubler_side, c.value, Cause.DROP, None, events)
            return
        if answer is Answer.TAKE:
            c = attrs.evolve(c, value=c.value * 2, owner=answerer_side, turned=True)
        else:
            c = attrs.evolve(
                c,
                value=c.value * 4,
                owner=answerer_side,
                turned=True,
                raccoon=doubler_side if self.settings.beavers >= 2 else None,
            )
        self._put(c)
        events.append(
            DoubleAnswered(cid, answerer, doubler, answer, c.value, forced, proxied, follows,
                           defaulted)
        )

    def raccoon(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """C48: the doubler answers a beaver by redoubling again before he rolls; the
        beaverer keeps the cube."""
        game = self._playing()
        if self.settings.beavers < 2:
            _refuse(R.NO_BEAVERS)
        chosen = [
            c
            for c in self._contracts
            if c.live
            and c.raccoon is not None
            and c.player_of(c.raccoon) == name
            and (targets is None or c.player_of(c.raccoon.other) in targets)
        ]
        if not chosen or game.phase is not GamePhase.AWAITING_ROLL:
            _refuse(R.NO_BEAVERS, "no beaver to raccoon")
        events: list[AnyEvent] = []
        for c in chosen:
            c = attrs.evolve(c, value=c.value * 2, raccoon=None, turned=True)
            self._put(c)
            events.append(Raccooned(c.cid, name, c.value))
        return events

    def _proxy_source(self, member: str | None) -> tuple[Answer, str | None, bool]:
        """C29/C71: a proxied `member`'s answer: his delegate's to the same double if
        he named one and the delegate answered it himself, else the captain's, else a
        drop; the delegate when it was his (None: the captain's, or a drop); and whether
        it is the drop by default (nobody's answer to copy)."""
        delegate = self._delegates.get(member) if member else None
        for leader in (delegate, self._captain):
            if leader is None or leader in self._proxied:
                continue
            cube = self.main_of(leader)
            if cube is not None and cube.cid in self._sealed and cube.cid not in self._timed_out:
                return self._sealed[cube.cid], leader if leader == delegate else None, False
        return Answer.DROP, None, True

    def _copied(
        self, cids: Iterable[int]
    ) -> tuple[dict[int, Answer], dict[int, str], set[int]]:
        """The proxied answers for `cids`; for those copied from a delegate, his name;
        and those that are drops by default (nobody's answer to copy)."""
        answers: dict[int, Answer] = {}
        follows: dict[int, str] = {}
        defaulted: set[int] = set()
        for cid in cids:
            answer, leader, default = self._proxy_source(self.contract(cid).member)
            answers[cid] = answer
            if leader is not None:
                follows[cid] = leader
            if default:
                defaulted.add(cid)
        return answers, follows, defaulted

    def _maybe_reveal(self, events: list[AnyEvent]) -> None:
        """Reveal the box's round once every member who is not proxied has answered."""
        if not self._box_round:
            return
        waiting = [
            cid
            for cid in self._box_round
            if cid not in self._sealed
            and self.contract(cid).member not in self._proxied
        ]
        if waiting:
            return
        for cid in self._box_round:
            if cid not in self._sealed:
                self._timed_out.add(cid)
        answers, follows, defaulted = self._copied(self._box_round)
        for cid in self._box_round:
            self._sealed.setdefault(cid, answers[cid])
        self._reveal(events, follows, defaulted)

    def answer_timeout(self) -> list[AnyEvent]:
        """answer_seconds ran out on the box's double: silent members get the
        captain's answer, or drop (C29)."""
        self._playing()
        if not self._box_round:
            _refuse(R.WRONG_PHASE, "no answers are awaited")
        events: list[AnyEvent] = []
        silent = [cid for cid in self._box_round if cid not in self._sealed]
        answers, follows, defaulted = self._copied(silent)
        for cid in silent:
            self._timed_out.add(cid)
            self._sealed[cid] = answers[cid]
        self._reveal(events, follows, defaulted)
        self._after_settlements(events)
        return events

    def _reveal(
        self,
        events: list[AnyEvent],
        follows: dict[int, str] | None = None,
        defaulted: set[int] | None = None,
    ) -> None:
        order = {n: i for i, n in enumerate(self._queue)}
        round_ = sorted(
            self._box_round, key=lambda cid: order.get(self.contract(cid).member, 99)
        )
        answers = {cid: self._sealed[cid] for cid in round_}
        before = {cid: self.contract(cid).value for cid in round_}
        takers = [cid for cid in round_ if answers[cid] is not Answer.DROP]
        forced: int | None = None
        s = self.settings
        if (
            s.fiveplus
            and s.lone_taker is not LoneTaker.FREE
            and len(self._participants) >= 5
            and len(round_) >= 2
            and self._box_round_all
            and len(takers) == 1
        ):
            forced = takers[0]
            single = s.cubes is Cubes.SINGLE
            answers[forced] = (
                Answer.BEAVER
                if s.lone_taker is LoneTaker.BEAVER and not single
                else Answer.DROP
            )
        for cid in round_:
            self._apply_answer(
                cid,
                answers[cid],
                events,
                forced=cid == forced,
                proxied=cid in self._timed_out,
                follows=(follows or {}).get(cid) if cid in self._timed_out else None,
                defaulted=cid in (defaulted or set()) and cid in self._timed_out,
            )
        takers = [cid for cid in round_ if answers[cid] is not Answer.DROP]
        initial = self._box_round_initial
        everyone = self._box_round_all
        self._box_round = []
        self._sealed = {}
        self._timed_out = set()
        if (
            s.extras
            and initial
            and everyone
            and len(round_) >= 2
            and len(takers) == 1
            and forced is None
        ):
            taker = self.contract(takers[0]).member
            self._extras_taker = taker
            self._extras_givers = [
                self.contract(cid).member for cid in round_ if cid not in takers
            ]
            self._extras_fee = before[takers[0]]
            self._extras_value = before[takers[0]] * 2
            events.append(
                ExtrasOpen(
                    taker,
                    tuple(self._extras_givers),
                    self._extras_fee,
                    self._extras_value,
                )
            )

    # --- extras (C46-C47) ---------------------------------------------------------------

    def extra(self, giver: str) -> list[AnyEvent]:
        """A dropper gives the lone taker an extra 2-cube: he pays the fee and the
        taker must accept (C47)."""
        self._playing()
        if giver not in self._extras_givers or self._extras_taker is None:
            _refuse(R.NO_EXTRAS, f"{giver} may not give an extra now")
        taker = self._extras_taker
        events: list[AnyEvent] = []
        self._pay(giver, taker, self._extras_fee, Cause.EXTRA_FEE, events)
        c = self._new_contract(
            Kind.EXTRA,
            giver,
            taker,
            value=self._extras_value,
            owner=Holder.TEAM,
            turned=True,
        )
        self._contracts.append(c)
        events.append(ExtraGiven(c.cid, giver, taker, self._extras_fee, c.value))
        self._extras_givers.remove(giver)
        if not self._extras_givers:
            self._extras_taker = None
        return events

    def decline_extra(self, giver: str) -> list[AnyEvent]:
        self._playing()
        if giver not in self._extras_givers:
            _refuse(R.NO_EXTRAS, f"{giver} may not give an extra now")
        self._extras_givers.remove(giver)
        if not self._extras_givers:
            self._extras_taker = None
        return [ExtraDeclined(giver)]

    def close_extras(self) -> list[AnyEvent]:
        """answer_seconds ran out: droppers who said nothing give no extra."""
        self._playing()
        if not self._extras_givers:
            _refuse(R.NO_EXTRAS, "no extras are open")
        events: list[AnyEvent] = [ExtraDeclined(g) for g in self._extras_givers]
        self._extras_givers = []
        self._extras_taker = None
        return events

    # --- resignations (C52) -------------------------------------------------------------

    def _k(self, c: Contract, result: GameResult) -> int:
        return game_points(result, 1, cube_turned=c.turned, jacoby=self.settings.jacoby)

    def resign(
        self, name: str, result: GameResult, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        """A live member resigns his main contract to the box; the box resigns to
        `targets` or to every live member. Each answerer accepts or rejects."""
        game = self._playing()
        self._partner_pending()
        if not isinstance(result, GameResult):
            _refuse(R.WRONG_PHASE, f"not a result: {result!r}")
        if self._offers:
            _refuse(R.ANSWERS_PENDING)
        if game.phase not in (GamePhase.AWAITING_ROLL, GamePhase.AWAITING_MOVE):
            _refuse(R.WRONG_PHASE, "resign during play")
        chosen: list[Contract]
        if name == self._box:
            side = Holder.BOX
            live = [c for c in self._contracts if c.kind is Kind.MAIN and c.live]
            if targets is None:
                chosen = live
            else:
                chosen = []
                for t in dict.fromkeys(targets):
                    found = [c for c in live if c.member == t]
                    if not found:
                        _refuse(R.NOT_LIVE, f"{t} holds no live contract")
                    chosen.extend(found)
        else:
            side = Holder.TEAM
            c = self.main_of(name)
            if c is None or not c.live or targets:
                _refuse(R.NOT_LIVE, f"{name} holds no live contract")
            chosen = [c]
        if not chosen:
            _refuse(R.NOT_LIVE, "no live contract to resign")
        if any(c.cid in self._resigns for c in chosen):
            _refuse(R.RESIGNATION_PENDING)
        events: list[AnyEvent] = []
        for c in chosen:
            self._resigns[c.cid] = (side, result)
            events.append(
                ResignationOffered(
                    c.cid,
                    name,
                    c.player_of(side.other),
                    result,
                    c.value * self._k(c, result),
                )
            )
        return events

    def answer_resignation(
        self, name: str, accept: bool, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        self._playing()
        pending = [
            cid
            for cid, (side, _) in self._resigns.items()
            if self.contract(cid).player_of(side.other) == name
            and (
                targets is None
                or self.contract(cid).player_of(self._resigns[cid][0]) in targets
            )
        ]
        if not pending:
            _refuse(R.NO_RESIGNATION, f"nobody resigned to {name}")
        events: list[AnyEvent] = []
        for cid in pending:
            side, result = self._resigns.pop(cid)
            events.append(ResignationAnswered(cid, name, accept))
            if not accept:
                continue
            c = self.contract(cid)
            if c.member == self._captain:
                self._captain_fate = side is Holder.BOX
            self._settle(
                c,
                side.other,
                c.value * self._k(c, result),
                Cause.RESIGN,
                result,
                events,
            )
        self._after_settlements(events)
        return events

    def accept_resignation(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        return self.answer_resignation(name, True, targets)

    def reject_resignation(
        self, name: str, targets: Sequence[str] | None = None
    ) -> list[AnyEvent]:
        return self.answer_resignation(name, False, targets)

    # --- disconnects (C70-C75) ----------------------------------------------------------

    def worst_result(self, name: str) -> GameResult:
        """C70: the worst result still possible for `name`'s side of the board, read
        off its checkers now (gammon while nothing is borne off, backgammon with a
        checker on the bar or in the winner's home board)."""
        game = self._playing()
        side = Holder.BOX if name == self._box else Holder.TEAM
        return game_result(game.side(side.player))

    def set_proxy(self, name: str, on: bool = True) -> list[AnyEvent]:
        """C71: an absent member follows the captain (never doubles, copies the
        captain's answer, else drops), or is back in control."""
        self._playing()
        if name not in self.team() or (name == self._captain and on):
            _refuse(R.NOT_LIVE, f"{name} is no crew member")
        return self._set_proxy(name, on, None)

    def delegate(self, name: str, to: str | None) -> list[AnyEvent]:
        """C71 `chouette delegate NAME|off`: crew member `name`, stepping away, is
        proxied (he never doubles) and his cube copies `to`'s answer to the same box
        double (else the captain's, else a drop); `to=None` takes control back. `to`
        must be another live team member who is not proxied himself."""
        self._playing()
        if name not in self.team() or name == self._captain:
            _refuse(R.NOT_LIVE, f"{name} is no crew member")
        if to is None:
            return self._set_proxy(name, False, None)
        if to == name or to not in self.live_members() or to in self._proxied:
            _refuse(R.BAD_DELEGATE, f"{to} cannot answer for {name}")
        return self._set_proxy(name, True, to)

    def _set_proxy(self, name: str, on: bool, to: str | None) -> list[AnyEvent]:
        if on:
            self._proxied.add(name)
            if to is not None:
                self._delegates[name] = to
        else:
            self._proxied.discard(name)
            self._delegates.pop(name, None)
        events: list[AnyEvent] = [ProxySet(name, on, self._delegates.get(name))]
        if on:
            self._maybe_reveal(events)
            self._after_settlements(events)
        return events

    def captain_absent(self) -> list[AnyEvent]:
        """C72: the captain stayed away past the grace period. The best-placed live
        member who is present becomes captain; for rotation the absent captain counts
        as a captain who dropped; his contracts follow the new captain (C71)."""
        self._playing()
        old = self._captain
        others = [m for m in self.live_members() if m != old and m not in self._proxied]
        if old is None or not others:
            _refuse(R.NO_REPLACEMENT, "nobody present can take over")
        events: list[AnyEvent] = [ProxySet(old, True)]
        self._proxied.add(old)
        to_end = self._captain_beaten(old)
        self._captain = others[0]
        if self._decided is None:
            self._rot_captain = others[0]
        events.append(CaptainChanged(old, others[0], to_end))
        self._maybe_reveal(events)
        self._after_settlements(events)
        return events

    def _abandon(self, name: str, events: list[AnyEvent]) -> None:
        """C70/C73: every live contract of `name` settles as his loss at the worst
        result still possible (Jacoby: single for a cube never turned)."""
        game = self._game
        assert game is not None
        if name == self._box:
            if self._decided is None:
                self._decided = Holder.TEAM  # C73: the captain is the next box
            self._captain_fate = True
        elif name == self._captain:
            self._captain_fate = False
        for c in list(self._contracts):
            side = c.side_of(name)
            if not c.live or side is None:
                continue
            k = self._k(c, game_result(game.side(side.player)))
            self._forget(c.cid)
            self._settle(c, side.other, c.value * k, Cause.ABANDON, None, events)
        if name in self._extras_givers:
            self._extras_givers.remove(name)
            if not self._extras_givers:
                self._extras_taker = None
        if name == self._box and name not in self._leaving:
            self._leaving.append(name)
        self._maybe_reveal(events)
        self._after_settlements(events)

    def _forget(self, cid: int) -> None:
        self._offers.pop(cid, None)
        self._sealed.pop(cid, None)
        self._resigns.pop(cid, None)
        self._box_round = [x for x in self._box_round if x != cid]
        self._team_round = [x for x in self._team_round if x != cid]

    # --- settlement, captains, rotation (C51-C59, C63) ----------------------------------

    def _put(self, contract: Contract) -> None:
        for i, c in enumerate(self._contracts):
            if c.cid == contract.cid:
                self._contracts[i] = contract
                return
        raise KeyError(contract.cid)

    def _pay(
        self,
        payer: str,
        payee: str,
        amount: int,
        cause: Cause,
        events: list[AnyEvent],
    ) -> None:
        if amount <= 0:
            return
        self.ledger.add(LedgerRow(self._game_number, cause, payee, payer, amount))
        events.append(MoneyMoved(payer, payee, amount, cause))

    def _settle(
        self,
        c: Contract,
        winner_side: Holder,
        amount: int,
        cause: Cause,
        result: GameResult | None,
        events: list[AnyEvent],
    ) -> None:
        winner = c.player_of(winner_side)
        loser = c.player_of(winner_side.other)
        self._put(attrs.evolve(c, live=False, winner=winner, raccoon=None))
        self.ledger.add(
            LedgerRow(
                self._game_number, cause, winner, loser, amount, c.value, result, c.cid
            )
        )
        events.append(
            ContractSettled(c.cid, winner, loser, c.value, cause, result, amount)
        )

    def _move_to_end(self, name: str, record: bool = True) -> None:
        self._queue.remove(name)
        self._queue.append(name)
        if record:
            self._moved_to_end.append(name)

    def _captain_beaten(self, captain: str) -> bool:
        """C36/C56: the box beat the captain who counts; he goes to the end of the
        queue at once. Returns whether he moved."""
        if self._decided is not None or captain != self._rot_captain:
            return False
        self._move_to_end(captain)
        if self.settings.rotation is Rotation.ACTING:
            self._decided = Holder.BOX
        return True

    def _best_live(self) -> str | None:
        live = self.live_members()
        present = [m for m in live if m not in self._proxied]
        if present:
            return present[0]
        return live[0] if live else None

    def _after_settlements(self, events: list[AnyEvent]) -> None:
        """A new acting captain when the captain is out (C31), the game's end when no
        main contract is live (C32, C55)."""
        if self._game is None:
            return
        old = self._captain
        if old is not None and not self.is_live(old):
            won = bool(self._captain_fate)
            self._captain_fate = None
            to_end = False
            if won:
                if self._decided is None and old == self._rot_captain:
                    self._decided = Holder.TEAM
            else:
                to_end = self._captain_beaten(old)
            new = self._best_live()
            self._captain = new
            if self._decided is None:
                if new is None:
                    self._decided = Holder.BOX
                else:
                    self._rot_captain = new
            events.append(CaptainChanged(old, new, to_end))
        if not any(c.live for c in self._contracts if c.kind is Kind.MAIN):
            self._end_game(events)

    def _board_over(self, events: list[AnyEvent]) -> None:
        """C55: a side bore off: every live contract settles at the result (C51)."""
        game = self._game
        assert game is not None and game.result is not None
        won = game.result
        winner_side = Holder.BOX if won.winner == 0 else Holder.TEAM
        self._offers.clear()
        self._resigns.clear()
        for c in list(self._contracts):
            if c.live:
                amount = c.value * self._k(c, won.result)
                self._settle(c, winner_side, amount, Cause.RESULT, won.result, events)
        if self._decided is None:
            self._decided = winner_side
        self._end_game(events)

    def _end_game(self, events: list[AnyEvent]) -> None:
        """Close the extras (C55), rotate (C56-C59, C63), split with the partner
        (C53), apply deferred leaves and joins, and record the game."""
        for c in list(self._contracts):
            if c.live:  # an extra whose taker's main contract settled earlier
                main = self.main_of(c.member)
                won = main is not None and main.winner == c.member
                side = Holder.TEAM if won else Holder.BOX
                self._settle(c, side, c.value, Cause.EXTRA_CLOSE, None, events)
        box = self._box
        rot = self._rot_captain
        partner = self._partner
        assert box is not None and rot is not None
        box_won = self._decided is not Holder.TEAM
        if self._partner is not None:
            rows = self.ledger.game_rows(self._game_number)
            net = sum(
                r.amount if r.winner == box else -r.amount
                for r in rows
                if box in (r.winner, r.loser)
            )
            _, share = split_with_partner(net)
            if share > 0:
                self._pay(box, self._partner, share, Cause.PARTNER_SPLIT, events)
            elif share < 0:
                self._pay(self._partner, box, -share, Cause.PARTNER_SPLIT, events)
        if box_won:
            if rot in self._queue and rot not in self._moved_to_end:
                self._move_to_end(rot)
        else:
            if rot in self._queue:  # (he may have left after winning: C68)
                self._queue.remove(rot)
                self._queue.insert(0, rot)
            self._move_to_end(box)
            self._partner = None  # C63: the old partner is the next captain
        for name in sorted(self._proxied - set(self._leaving) - self._sitting_out):
            if name in self._queue:  # C71: still away at the game's end
                self._sitting_out.add(name)
                events.append(SittingOut(name, True))
        # A proxy (and a delegation) lasts for the game: the absent now sit out instead.
        self._proxied.clear()
        self._delegates.clear()
        for name in self._leaving:
            if name in self._queue:
                self._queue.remove(name)
            self._sitting_out.discard(name)
            if name == self._partner:
                self._partner = None
        self._leaving = []
        self._queue.extend(self._joiners)
        self._joiners = []
        if self._partner is not None and self._queue[:1] != [box]:
            self._partner = None
        deltas = deltas_of(self.ledger.game_rows(self._game_number))
        names = [
            *self._participants,
            *(n for n in deltas if n not in self._participants),
        ]
        record = tuple((n, deltas.get(n, 0)) for n in names)
        assert self._first_captain is not None
        self.ledger.games.append(
            GameRecord(
                self._game_number,
                box,
                partner,
                self._first_captain,
                box_won,
                record,
            )
        )
        self._last_game = self._game
        self._reset_game()
        self._enter(TableAction.PLAY, TablePhase.BETWEEN_GAMES)
        events.append(
            ChouetteGameOver(self._game_number, box_won, record, tuple(self._queue))
        )

    # --- invariants and serialisation ---------------------------------------------------

    def check(self) -> None:
        """Raise AssertionError if an invariant is broken (tests, restored saves)."""
        self.ledger.check()
        assert len(set(self._queue)) == len(self._queue), self._queue
        assert len(set(self.seated)) == len(self.seated)
        assert set(self._delegates) <= self._proxied, (self._delegates, self._proxied)
        if self._game is None:
            assert not self._contracts and not self._offers and not self._resigns
            return
        assert self._box in self._queue
        assert self._captain is None or self.is_live(self._captain)
        for c in self._contracts:
            assert c.value >= 1 and c.value & (c.value - 1) == 0, c
            assert (c.winner is None) == c.live, c
        for cid in self._offers:
            assert self.contract(cid).live
        settled = [r.cid for r in self.ledger.rows if r.cid is not None]
        assert len(settled) == len(set(settled)), "a contract settled twice"
        if self._partner is not None:
            assert self._queue[1] == self._partner

    def to_dict(self) -> dict[str, Any]:
        """The whole table, JSON-able and versioned (`from_dict` restores it)."""
        return {
            "version": FORMAT_VERSION,
            "settings": self.settings.to_dict(),
            "ledger": self.ledger.to_dict(),
            "phase": self._phase.value,
            "queue": list(self._queue),
            "sitting_out": sorted(self._sitting_out),
            "order_groups": [list(g) for g in self._order_groups],
            "order_joiners": list(self._order_joiners),
            "joiners": list(self._joiners),
            "leaving": list(self._leaving),
            "partner": self._partner,
            "game_number": self._game_number,
            "next_cid": self._next_cid,
            "last_game": None if self._last_game is None else self._last_game.to_dict(),
            "game": None if self._game is None else self._game.to_dict(),
            "participants": list(self._participants),
            "contracts": [c.to_dict() for c in self._contracts],
            "box": self._box,
            "captain": self._captain,
            "first_captain": self._first_captain,
            "rot_captain": self._rot_captain,
            "decided": None if self._decided is None else self._decided.value,
            "moved_to_end": list(self._moved_to_end),
            "captain_fate": self._captain_fate,
            "offers": [[cid, side.value] for cid, side in self._offers.items()],
            "box_round": list(self._box_round),
            "box_round_all": self._box_round_all,
            "box_round_initial": self._box_round_initial,
            "sealed": [[cid, a.value] for cid, a in self._sealed.items()],
            "timed_out": sorted(self._timed_out),
            "team_round": list(self._team_round),
            "team_round_initial": self._team_round_initial,
            "box_answers": [[cid, a.value] for cid, a in self._box_answers.items()],
            "resigns": [
                [cid, side.value, result.name]
                for cid, (side, result) in self._resigns.items()
            ],
            "extras_taker": self._extras_taker,
            "extras_givers": list(self._extras_givers),
            "extras_fee": self._extras_fee,
            "extras_value": self._extras_value,
            "proxied": sorted(self._proxied),
            "delegates": dict(sorted(self._delegates.items())),
            "auto": self._auto,
            "partner_candidates": list(self._partner_candidates),
            "partner_draw": list(self._partner_draw),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chouette:
        """Restore a table saved by `to_dict`; ValueError on malformed data or an
        unknown format version."""
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a saved chouette of format version 1")
        try:
            t = cls(Settings.from_dict(data["settings"]))
            t.ledger = Ledger.from_dict(data["ledger"])
            t._phase = TablePhase(data["phase"])
            t._queue = [str(n) for n in data["queue"]]
            t._sitting_out = set(data["sitting_out"])
            t._order_groups = [list(g) for g in data["order_groups"]]
            t._order_joiners = list(data["order_joiners"])
            t._joiners = list(data["joiners"])
            t._leaving = list(data["leaving"])
            t._partner = data["partner"]
            t._game_number = int(data["game_number"])
            t._next_cid = int(data["next_cid"])
            lg = data["last_game"]
            t._last_game = None if lg is None else Game.from_dict(lg)
            g = data["game"]
            t._game = None if g is None else Game.from_dict(g)
            t._participants = tuple(data["participants"])
            t._contracts = [Contract.from_dict(c) for c in data["contracts"]]
            t._box = data["box"]
            t._captain = data["captain"]
            t._first_captain = data["first_captain"]
            t._rot_captain = data["rot_captain"]
            d = data["decided"]
            t._decided = None if d is None else Holder(d)
            t._moved_to_end = list(data["moved_to_end"])
            t._captain_fate = data["captain_fate"]
            t._offers = {int(cid): Holder(s) for cid, s in data["offers"]}
            t._box_round = [int(x) for x in data["box_round"]]
            t._box_round_all = bool(data["box_round_all"])
            t._box_round_initial = bool(data["box_round_initial"])
            t._sealed = {int(cid): Answer(a) for cid, a in data["sealed"]}
            t._timed_out = {int(x) for x in data["timed_out"]}
            t._team_round = [int(x) for x in data["team_round"]]
            t._team_round_initial = bool(data["team_round_initial"])
            t._box_answers = {int(cid): Answer(a) for cid, a in data["box_answers"]}
            t._resigns = {
                int(cid): (Holder(s), GameResult[r]) for cid, s, r in data["resigns"]
            }
            t._extras_taker = data["extras_taker"]
            t._extras_givers = list(data["extras_givers"])
            t._extras_fee = int(data["extras_fee"])
            t._extras_value = int(data["extras_value"])
            t._proxied = set(data["proxied"])
            # (absent from tables saved before `chouette delegate` existed)
            t._delegates = {str(m): str(d) for m, d in data.get("delegates", {}).items()}
            t._auto = int(data["auto"])
            t._partner_candidates = list(data["partner_candidates"])
            t._partner_draw = tuple(data["partner_draw"])
            t.check()
        except (KeyError, TypeError, AssertionError) as exc:
            raise ValueError(f"not a saved chouette: {exc!r}") from exc
        return t

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chouette):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable


def active_in_order(queue: Iterable[str], sitting_out: Iterable[str]) -> list[str]:
    out = set(sitting_out)
    return [n for n in queue if n not in out]
