"""Why a chouette action was refused: one reason enum and the error that carries it.

Owns `ChouetteReason` and `ChouetteError` (a `RuleError`, like the two-player engine's
errors, so the server catches one base class). Board errors from the two-player `Game`
(`IllegalPlay`, `IllegalAction`) pass through the chouette unchanged. Knows no wording:
the server turns each reason into its `** ` line.
"""

from __future__ import annotations

import enum

from ..errors import RuleError


class ChouetteReason(enum.Enum):
    """Why a chouette action was refused (the server words each one)."""

    NOT_SEATED = enum.auto()  # the player is not at this table
    ALREADY_SEATED = enum.auto()
    TABLE_FULL = enum.auto()  # seats_max reached
    TOO_FEW_PLAYERS = enum.auto()  # start needs 3 seated; a game needs 2 active
    WRONG_PHASE = enum.auto()  # e.g. a roll between games, an order roll in a game
    BAD_DICE = enum.auto()  # order rolls missing, extra, or outside 1..6
    NOT_BOX_OR_CAPTAIN = enum.auto()  # only the box and the (acting) captain roll/move
    NOT_BOX = enum.auto()  # only the box may do this
    NOT_LIVE = enum.auto()  # the player holds no live contract in this game
    CANNOT_DOUBLE = enum.auto()  # no cube of his may be turned now (owner, turn, phase)
    NOT_DOUBLED = enum.auto()  # an answer for a cube nobody offered to him
    ALREADY_ANSWERED = enum.auto()  # a sealed answer was already given
    ANSWERS_PENDING = enum.auto()  # take/drop answers must come first
    RESIGNATION_PENDING = enum.auto()  # a resignation must be answered first
    NO_RESIGNATION = enum.auto()  # accept/reject with no resignation offered to him
    PARTNER_PENDING = enum.auto()  # the box's partner is being chosen
    EXTRAS_OPEN = enum.auto()  # droppers may still give extras (C47)
    NO_EXTRAS = enum.auto()  # not a dropper who may give an extra now
    NO_BEAVERS = enum.auto()  # beaver/raccoon not allowed or nothing to raccoon
    BOX_LIMIT = enum.auto()  # the answers break box_limits (C14)
    SINGLE_CUBE = enum.auto()  # single-cube: one answer/double for the whole team
    NO_PARTNER = enum.auto()  # partner not allowed, not enough players, or not offered
    NO_REPLACEMENT = enum.auto()  # no other live member can take over as captain
    BAD_DELEGATE = enum.auto()  # a delegate must be another live team member (C71)
    GAME_IN_PROGRESS = enum.auto()  # only between games (e.g. close)
    CLOSED = enum.auto()  # the table is closed


class ChouetteError(RuleError):
    """A chouette action refused in the current state; the chouette is unchanged."""

    reason: ChouetteReason

    def __init__(self, reason: ChouetteReason, message: str = "") -> None:
        super().__init__(reason, message)
