"""Contracts (C3): the bets between a box-side and a team-side player on one board.

Owns `Holder` (which side owns a cube), `Kind` (main or extra) and `Contract`, an
immutable value the chouette replaces on every change. One representation covers
multi-cube, single-cube (every member's contract holds the shared cube's value and
owner), extras and the partner (who has none).
"""

from __future__ import annotations

import enum
from typing import Any

import attrs


class Holder(enum.Enum):
    """A side of the board: the box's (player 0) or the team's (player 1)."""

    BOX = "box"
    TEAM = "team"

    @property
    def other(self) -> Holder:
        return Holder.TEAM if self is Holder.BOX else Holder.BOX

    @property
    def player(self) -> int:
        """The two-player engine's player number for this side."""
        return 0 if self is Holder.BOX else 1


class Kind(enum.Enum):
    MAIN = "main"  # a team member vs the box
    EXTRA = "extra"  # a dropper (box side) vs the lone taker (C46)


@attrs.frozen
class Contract:
    cid: int
    kind: Kind
    box_side: str  # the box, or an extra's giver
    member: str  # the team-side player
    value: int = 1
    owner: Holder | None = None  # None: centred
    turned: bool = False  # offered and accepted at least once (C4; Jacoby, C49)
    live: bool = True
    raccoon: Holder | None = (
        None  # the doubler whose double was beavered, until he rolls
    )
    winner: str | None = None  # who won it, once settled

    def player_of(self, side: Holder) -> str:
        return self.box_side if side is Holder.BOX else self.member

    def side_of(self, name: str) -> Holder | None:
        if name == self.box_side:
            return Holder.BOX
        if name == self.member:
            return Holder.TEAM
        return None

    def may_double(self, side: Holder) -> bool:
        """The cube is centred or owned by `side` (the phase is the chouette's check)."""
        return self.live and self.owner in (None, side)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cid": self.cid,
            "kind": self.kind.value,
            "box_side": self.box_side,
            "member": self.member,
            "value": self.value,
            "owner": None if self.owner is None else self.owner.value,
            "turned": self.turned,
            "live": self.live,
            "raccoon": None if self.raccoon is None else self.raccoon.value,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Contract:
        return cls(
            cid=int(data["cid"]),
            kind=Kind(data["kind"]),
            box_side=str(data["box_side"]),
            member=str(data["member"]),
            value=int(data["value"]),
            owner=None if data["owner"] is None else Holder(data["owner"]),
            turned=bool(data["turned"]),
            live=bool(data["live"]),
            raccoon=None if data["raccoon"] is None else Holder(data["raccoon"]),
            winner=data["winner"],
        )
