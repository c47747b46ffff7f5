"""The chouette's ledger (C76-C78): every payment, each game's record, the standings.

Owns `LedgerRow` (one payment: a settled contract, an extra's fee, the partner's
split), `GameRecord` (one game's roles and deltas), `Standing` and `Ledger`. A row
always moves `amount` from `loser` to `winner`, so the ledger sums to zero by
construction (C54); `Ledger.check()` verifies it anyway, for the tests and for a
restored save. `split_with_partner` is C53's formula.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from ..events import GameResult
from .events import Cause


@attrs.frozen
class LedgerRow:
    game: int
    cause: Cause
    winner: str
    loser: str
    amount: int  # > 0, from loser to winner
    value: int = 0  # the contract's value (0 for fees and splits)
    result: GameResult | None = None
    cid: int | None = None  # the contract (None for splits)


@attrs.frozen
class GameRecord:
    game: int
    box: str
    partner: str | None
    captain: str  # the captain at the start of the game
    box_won: bool
    deltas: tuple[tuple[str, int], ...]


@attrs.frozen
class Standing:
    """C78: one player's line of `chouette score`."""

    name: str
    total: int
    games: int
    box_games: int
    box_wins: int
    best: int  # biggest win in one game (0 if none)
    worst: int  # biggest loss in one game (0 if none)


def split_with_partner(net: int) -> tuple[int, int]:
    """C53: (box's share, partner's share) of the box side's net for a game; the odd
    point goes to the box, whether won or lost."""
    partner = (1 if net > 0 else -1) * (abs(net) // 2)
    return net - partner, partner


def deltas_of(rows: Iterable[LedgerRow]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        out[row.winner] = out.get(row.winner, 0) + row.amount
        out[row.loser] = out.get(row.loser, 0) - row.amount
    return out


class Ledger:
    """All payments and game records of one table, in order."""

    def __init__(self) -> None:
        self.rows: list[LedgerRow] = []
        self.games: list[GameRecord] = []

    def add(self, row: LedgerRow) -> None:
        if row.amount <= 0 or row.winner == row.loser:
            raise ValueError(f"not a payment: {row!r}")
        self.rows.append(row)

    def totals(self) -> dict[str, int]:
        return deltas_of(self.rows)

    def game_rows(self, game: int) -> list[LedgerRow]:
        return [r for r in self.rows if r.game == game]

    def check(self) -> None:
        """Raise ValueError unless every game and the whole ledger sum to zero."""
        if sum(self.totals().values()) != 0:
            raise ValueError("the ledger does not sum to zero")
        for record in self.games:
            if sum(d for _, d in record.deltas) != 0:
                raise ValueError(f"game {record.game} does not sum to zero")

    def standings(self, names: Iterable[str] = ()) -> list[Standing]:
        """Every player ever in the ledger (and `names`), best total first."""
        totals = self.totals()
        everyone = dict.fromkeys([*totals, *names])
        for record in self.games:
            everyone.update(dict.fromkeys(n for n, _ in record.deltas))
        out = []
        for name in everyone:
            games = [r for r in self.games if any(n == name for n, _ in r.deltas)]
            box = [r for r in self.games if r.box == name]
            per_game = [d for r in games for n, d in r.deltas if n == name]
            out.append(
                Standing(
                    name=name,
                    total=totals.get(name, 0),
                    games=len(games),
                    box_games=len(box),
                    box_wins=sum(1 for r in box if r.box_won),
                    best=max([0, *per_game]),
                    worst=min([0, *per_game]),
                )
            )
        out.sort(key=lambda s: (-s.total, s.name))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [
                {
                    "game": r.game,
                    "cause": r.cause.value,
                    "winner": r.winner,
                    "loser": r.loser,
                    "amount": r.amount,
                    "value": r.value,
                    "result": None if r.result is None else r.result.name,
                    "cid": r.cid,
                }
                for r in self.rows
            ],
            "games": [
                {
                    "game": g.game,
                    "box": g.box,
                    "partner": g.partner,
                    "captain": g.captain,
                    "box_won": g.box_won,
                    "deltas": [[n, d] for n, d in g.deltas],
                }
                for g in self.games
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ledger:
        ledger = cls()
        for r in data["rows"]:
            ledger.add(
                LedgerRow(
                    game=int(r["game"]),
                    cause=Cause(r["cause"]),
                    winner=str(r["winner"]),
                    loser=str(r["loser"]),
                    amount=int(r["amount"]),
                    value=int(r["value"]),
                    result=None if r["result"] is None else GameResult[r["result"]],
                    cid=r["cid"],
                )
            )
        ledger.games = [
            GameRecord(
                game=int(g["game"]),
                box=str(g["box"]),
                partner=g["partner"],
                captain=str(g["captain"]),
                box_won=bool(g["box_won"]),
                deltas=tuple((str(n), int(d)) for n, d in g["deltas"]),
            )
            for g in data["games"]
        ]
        ledger.check()
        return ledger
