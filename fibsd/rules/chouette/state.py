"""A chouette table's state: who sits where, the game, the cubes, the ledger; the queries
on it and the table-level transition table.

Owns `ChouetteState`, `TablePhase`, `TableAction` and `TRANSITIONS`. The actions live in
modules of functions over this state (`seats`, `board`, `answers`, `partner`,
`resignation`, `absence`, `settlement`, `persistence`), and `Chouette` (table.py) is
the state with those actions as its methods. The board is the two-player `Game` (player
0 = the box, player 1 = the team, moved by the acting captain, C23-C25). Rule numbers
refer to docs/chouette-rules.md; docs/chouette.md says how each is implemented.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, NoReturn

from ..events import GameResult
from ..game import Game, GamePhase
from ..scoring import game_points
from .contracts import Contract, Holder, Kind
from .errors import ChouetteError, ChouetteReason
from .events import Answer
from .ledger import Ledger
from .settings import (
    Consult,
    Cubes,
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


class ChouetteState:
    """A table's whole state, its queries and the table-level transitions; the actions
    are the functions of the modules beside this one, called by `Chouette`. The action
    modules are the package's own: they read and write the underscored attributes."""

    def __init__(self, settings: Settings | None = None) -> None:
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

    # --- primitives the action modules share -------------------------------------------

    def _playing(self) -> Game:
        self._require(TableAction.PLAY, "no game is being played")
        assert self._game is not None
        return self._game

    def _partner_pending(self) -> None:
        if self._partner_candidates or self._partner_draw:
            _refuse(R.PARTNER_PENDING)

    def _board_free(self) -> None:
        self._partner_pending()
        if self._resigns:
            _refuse(R.RESIGNATION_PENDING)
        if self._offers:
            _refuse(R.ANSWERS_PENDING)
        if self._extras_givers:
            _refuse(R.EXTRAS_OPEN)

    def _new_contract(
        self, kind: Kind, box_side: str, member: str, **kw: Any
    ) -> Contract:
        c = Contract(self._next_cid, kind, box_side, member, **kw)
        self._next_cid += 1
        return c

    def _put(self, contract: Contract) -> None:
        for i, c in enumerate(self._contracts):
            if c.cid == contract.cid:
                self._contracts[i] = contract
                return
        raise KeyError(contract.cid)

    def _k(self, c: Contract, result: GameResult) -> int:
        """The result's multiplier on contract `c` (Jacoby: 1 for a cube never turned)."""
        return game_points(result, 1, cube_turned=c.turned, jacoby=self.settings.jacoby)


def active_in_order(queue: Iterable[str], sitting_out: Iterable[str]) -> list[str]:
    out = set(sitting_out)
    return [n for n in queue if n not in out]
