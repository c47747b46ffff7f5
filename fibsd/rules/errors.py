"""The rules engine's error taxonomy: one base `RuleError`, each carrying a reason enum.

Owns the reasons and the details the server needs to word FIBS's error lines (it does
the wording; this module knows no protocol text). Model: h11's `ProtocolError` with its
status hint, python-chess's illegal-move errors.
"""

from __future__ import annotations

import enum


class RuleError(Exception):
    """Base of every rejected action; the state it was tried on is unchanged."""

    reason: enum.Enum

    def __init__(self, reason: enum.Enum, message: str = "") -> None:
        super().__init__(message or reason.name)
        self.reason = reason


class PlayReason(enum.Enum):
    """Why a submitted play is illegal (FIBS wording in comments, N/P from the error)."""

    TOO_FEW_MOVES = enum.auto()  # You must give N moves.
    TOO_MANY_MOVES = enum.auto()  # Please don't give more than N moves.
    NO_CHECKER = enum.auto()  # You can't move from P in your first move.
    NO_SUCH_DIE = enum.auto()  # You can't move N points in your first move.
    WRONG_DIRECTION = enum.auto()  # (backwards) You can't move N points ...
    BLOCKED = enum.auto()  # You can't move to P in your first move.
    BAR_FIRST = (
        enum.auto()
    )  # You have to remove pieces from the bar in your first move.
    NOT_HIGHEST = enum.auto()  # You can't remove this piece in your first move.
    CANNOT_BEAR_OFF_YET = enum.auto()  # You can't move home in your first move.
    MUST_USE_LARGER = enum.auto()  # only one die can be used, and it must be the larger
    NOT_MAXIMAL = enum.auto()  # defensive: not a legal result although count and steps
    # are fine (cannot happen with the rules as implemented; kept so that a bug would be
    # a refused play rather than an accepted illegal one)


class IllegalPlay(RuleError):
    """A submitted play that is not legal.

    `move_index` is the 1-based index of the offending move in the user's order (None
    for whole-play reasons), `point` the point concerned (FIBS's P), `distance` the number
    of pips (FIBS's N points), `required` how many moves the roll requires (FIBS's N moves;
    `validate_play` always fills it in).
    """

    reason: PlayReason

    def __init__(
        self,
        reason: PlayReason,
        *,
        move_index: int | None = None,
        point: int | None = None,
        distance: int | None = None,
        required: int = -1,
    ) -> None:
        detail = ", ".join(
            f"{k}={v}"
            for k, v in (
                ("move", move_index),
                ("point", point),
                ("distance", distance),
                ("required", required),
            )
            if v is not None and v != -1
        )
        super().__init__(reason, f"{reason.name} ({detail})" if detail else reason.name)
        self.move_index = move_index
        self.point = point
        self.distance = distance
        self.required = required


class ActionReason(enum.Enum):
    """Why a game or match action was refused."""

    WRONG_PHASE = enum.auto()  # not possible now (e.g. move before rolling)
    NOT_YOUR_TURN = enum.auto()
    BAD_DICE = enum.auto()  # dice values outside 1..6
    CUBE_NOT_YOURS = enum.auto()  # the opponent owns the cube
    CRAWFORD_GAME = enum.auto()  # no doubling in the Crawford game
    HOLLAND_RULE = enum.auto()  # trailer may not double before his third turn
    REDOUBLE_LIMIT = enum.auto()  # maximum number of redoubles reached
    NO_BEAVERS = enum.auto()  # beavers/raccoons not allowed (match play or option)
    BAD_RESIGNATION = enum.auto()  # resignation value not 1, 2 or 3
    MATCH_OVER = enum.auto()


class IllegalAction(RuleError):
    """A game or match action refused in the current state (reason says why)."""

    reason: ActionReason

    def __init__(self, reason: ActionReason, message: str = "") -> None:
        super().__init__(reason, message)
