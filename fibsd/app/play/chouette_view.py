"""What one viewer sees of a chouette: his board, its telnet header, the table's status.

A `Seating` is who sat where in a game and every cube as it stood. The board of the
running game is drawn from the engine's seating; the last board of a game that just
ended is drawn from that game's own seating (kept by the table), never from the next
game's roles, which the engine has rotated already. The board itself comes from the one
board builder of both tables (`fibsd.app.play.boards.game_board_line`): the position,
the cube as this viewer sees it (his own, C81), the turn and the dice.

The status lines are `chouette show` and what a returning player owes (C75): answers
to doubles, resignations, extras and partner offers, with the time left.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from fibsd.app.play.boards import UNLIMITED_LENGTH, CubeView, game_board_line
from fibsd.rules import Game, GamePhase, GameResult
from fibsd.rules.chouette import Chouette, Contract, Cubes, Holder, Kind
from protocol.board import YOU, BoardLine
from protocol.messages import TextLine
from protocol.wording import Text

#: How a member answers a double (the field of the answer prompts).
ANSWERS = "'accept' or 'reject'"
ANSWERS_WITH_BEAVER = "'accept', 'reject' or 'beaver'"

RESULT_WORDS = {GameResult.SINGLE: "normal", GameResult.GAMMON: "gammon",
                GameResult.BACKGAMMON: "backgammon"}


def key(name: str) -> str:
    return name.lower()


@attrs.frozen
class Seating:
    """One game's seats and cubes: the game's number, its box and (acting) captain, and
    every contract with the doubles still open on it."""

    game_number: int
    box: str
    captain: str
    contracts: tuple[Contract, ...] = ()
    offered: frozenset[int] = frozenset()

    @classmethod
    def of(cls, engine: Chouette) -> Seating | None:
        """The running game's seating (None between games)."""
        if engine.game is None or engine.box is None:
            return None
        team = engine.team()
        captain = engine.captain or (team[0] if team else "?")
        return cls(engine.game_number, engine.box, captain, engine.contracts,
                   frozenset(cid for cid, _, _ in engine.pending_offers()))

    def seat_of(self, name: str) -> int | None:
        """0 for the box, 1 for the (acting) captain, None for everyone else."""
        if key(name) == key(self.box):
            return 0
        if key(name) == key(self.captain):
            return 1
        return None

    def main_of(self, name: str) -> Contract | None:
        for contract in self.contracts:
            if contract.kind is Kind.MAIN and key(contract.member) == key(name):
                return contract
        return None

    def player(self, seat: int) -> str:
        return self.box if seat == 0 else self.captain


def cube_view(seating: Seating, viewer: str) -> tuple[CubeView, Contract | None]:
    """The cube `viewer` sees on his board (C81): his own contract if he is on the team,
    else the captain's (the box, and watchers); and that contract."""
    seat = seating.seat_of(viewer)
    own = seating.main_of(viewer) if seat != 0 else None
    contract = own if own is not None else seating.main_of(seating.captain)
    if contract is None:
        return CubeView(), None
    view = 0 if seat == 0 else 1
    mine, theirs = (Holder.BOX, Holder.TEAM) if view == 0 else (Holder.TEAM, Holder.BOX)
    doubled = contract.cid in seating.offered
    return CubeView(
        value=contract.value,
        player_may_double=not doubled and contract.owner in (None, mine),
        opponent_may_double=not doubled and contract.owner in (None, theirs),
        was_doubled=doubled,
    ), contract


def board_line(engine: Chouette, seating: Seating, game: Game, viewer: str) -> BoardLine:
    """The board `viewer` sees: his own as box or captain, else the captain's with his
    own cube (C81), as an unlimited match."""
    seat = seating.seat_of(viewer)
    view = 0 if seat == 0 else 1
    cube, _ = cube_view(seating, viewer)
    single = engine.settings.cubes is Cubes.SINGLE
    return game_board_line(
        game, view,
        player=YOU if seat is not None else seating.player(view),
        opponent=seating.player(1 - view),
        is_o=view == 0,
        cube=cube,
        in_play=engine.game is game and game.phase is not GamePhase.OPENING,
        match_length=UNLIMITED_LENGTH,
        # board field 52: the instant redoubles allowed (beavers, raccoons)
        redoubles=0 if single else engine.settings.beavers,
    )


def cube_owner(seating: Seating, viewer: str) -> str | None:
    """Who owns the cube on `viewer`'s board, by name (the ASCII footer's `owned by`):
    a crew member's own cube is his or the box's, never the captain's."""
    _, contract = cube_view(seating, viewer)
    if contract is None or contract.owner is None:
        return None
    return contract.player_of(contract.owner)


def header(table_id: int, seating: Seating, viewer: str,
           seated_name: Callable[[str], str | None]) -> TextLine:
    """The one-line summary a telnet board gets above it (C81), for the game it shows."""
    fields: dict[str, object] = dict(n=table_id, count=seating.game_number, name=seating.box,
                                     player=seating.captain)
    if seating.seat_of(viewer) == 0:
        return TextLine.of(Text.CHOUETTE_YOU_ARE_BOX, n=table_id, count=seating.game_number,
                           player=seating.captain)
    contract = seating.main_of(seated_name(viewer) or viewer)
    if contract is None or not contract.live:
        return TextLine.of(Text.CHOUETTE_NOT_IN_GAME, **fields)
    return TextLine.of(Text.CHOUETTE_YOUR_CUBE, cube=contract.value, **fields)


# ------------------------------------------------------------------ status


def show_lines(engine: Chouette, table_id: int, owner: str, away: set[str]) -> list[TextLine]:
    """`chouette show`: settings, the queue with roles, the game, every cube, who must act."""
    settings = ", ".join(f"{k}={value}" for k, value in engine.settings.describe())
    lines = [TextLine.of(Text.CHOUETTE_SHOW_HEADER, n=table_id, name=owner, text=settings)]
    queue = []
    for name in engine.seated:
        marks = []
        if name == engine.box:
            marks.append("box")
        if name == engine.partner:
            marks.append("partner")
        if name == engine.captain:
            marks.append("captain")
        if name in engine.sitting_out:
            marks.append("sitting out")
        if name in engine.leaving:
            marks.append("leaving")
        if key(name) in away:
            marks.append("away")
        queue.append(f"{name} ({', '.join(marks)})" if marks else name)
    lines.append(TextLine.of(Text.CHOUETTE_SHOW_QUEUE, names=", ".join(queue) or "-"))
    game = engine.game
    if game is not None and engine.box is not None:
        turn = "opening" if game.turn is None else (engine.box if game.turn == 0 else engine.captain or "-")
        lines.append(TextLine.of(Text.CHOUETTE_SHOW_GAME, n=engine.game_number, name=engine.box,
                                 player=engine.captain or "-",
                                 text=f"{turn} ({game.phase.name.lower()})"))
        offered = {cid for cid, _, _ in engine.pending_offers()}
        for contract in engine.contracts:
            owned = {None: "centred", Holder.BOX: f"{contract.box_side}'s",
                     Holder.TEAM: f"{contract.member}'s"}[contract.owner]
            state = "in play" if contract.live else "settled"
            if contract.cid in offered:
                state = "doubled, waiting for the answer"
            kind = "" if contract.kind is Kind.MAIN else f" ({contract.kind.name.lower()})"
            lines.append(TextLine.of(Text.CHOUETTE_SHOW_CONTRACT, name=contract.member,
                                     opponent=contract.box_side, cube=contract.value,
                                     text=f"{owned}, {state}{kind}"))
    waiting = engine.waiting_for()
    if waiting:
        lines.append(TextLine.of(Text.CHOUETTE_SHOW_WAITING, names=", ".join(waiting)))
    return lines


def owed_lines(engine: Chouette, name: str, seconds: int | None, *, may_roll: bool) -> list[TextLine]:
    """What `name` owes the table now (C75): his answers to doubles (with the time
    left for sealed ones), resignations offered to him, extras he may give, a partner
    offer, or his turn."""
    lines: list[TextLine] = []
    left = seconds if seconds is not None else engine.settings.answer_seconds
    beaver = engine.settings.beavers >= 1 and engine.settings.cubes is Cubes.MULTI
    answers = ANSWERS_WITH_BEAVER if beaver else ANSWERS
    answered: set[str] = set()
    waiting = {key(n) for n in engine.waiting_for()}
    for cid, doubler, answerer in engine.pending_offers():
        if key(answerer) != key(name) or doubler in answered:
            continue
        answered.add(doubler)
        contract = engine.contract(cid)
        if key(name) == key(engine.box or ""):
            lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_BOX_ANSWER, name=doubler, cube=contract.value * 2))
        elif key(name) not in waiting:
            continue  # answered already (sealed until all are in)
        else:
            lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_ANSWER, name=doubler, cube=contract.value * 2,
                                     text=answers, seconds=left))
    for _, resigner, answerer, result in engine.pending_resignations():
        if key(answerer) == key(name):
            lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_RESIGNATION, name=resigner,
                                     text=RESULT_WORDS[result]))
    taker = engine.extras_taker
    if taker is not None and name in engine.extras_givers:
        lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_EXTRA, name=taker, seconds=left))
    if engine.partner_offered_to == name:
        lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_PARTNER, seconds=left))
    if not lines and may_roll:
        lines.append(TextLine.of(Text.CHOUETTE_YOU_OWE_TURN, text="roll or double"))
    return lines
