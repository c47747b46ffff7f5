"""The doubling cube: its value and owner, and who may turn it when.

Owns `Cube` (an immutable value the game replaces on every change), `CubeRules` (what the
match allows in one game: Crawford, Holland, redouble limit, beavers, automatic doubles)
and `double_refusal`, the one place that decides whether a player may double. Knows
nothing of dice or checkers; "before rolling" is the game's phase check.
"""

from __future__ import annotations

import attrs

from .errors import ActionReason


@attrs.frozen
class CubeRules:
    """The cube rules of one game, decided by the match."""

    enabled: bool = True  # False in the Crawford game
    beavers: bool = False  # beavers and raccoons (money play only)
    auto_doubles_max: int = 0  # automatic doubles on opening ties (money play only)
    max_redoubles: int | None = None  # cube turns after the first (None: no limit)
    holland_player: int | None = None  # may not double before his third turn
    jacoby: bool = False  # gammons count only once the cube was turned (money play)


@attrs.frozen
class Cube:
    """Value (a power of two), owner (None when centred) and how often it was turned."""

    value: int = 1
    owner: int | None = None
    turns: int = 0  # doubles taken (a beaver or raccoon counts as one more turn)
    auto_doubles: int = 0

    @property
    def centred(self) -> bool:
        return self.owner is None

    def taken(self, taker: int) -> Cube:
        return attrs.evolve(
            self, value=self.value * 2, owner=taker, turns=self.turns + 1
        )

    def beavered(self, beaverer: int) -> Cube:
        # take (x2) and immediately redouble (x2) while keeping the cube
        return attrs.evolve(
            self, value=self.value * 4, owner=beaverer, turns=self.turns + 2
        )

    def raccooned(self) -> Cube:
        # the doubler redoubles again; the beaverer, who keeps the cube, owns it still
        return attrs.evolve(self, value=self.value * 2, turns=self.turns + 1)

    def auto_doubled(self) -> Cube:
        return attrs.evolve(
            self, value=self.value * 2, auto_doubles=self.auto_doubles + 1
        )


def double_refusal(
    cube: Cube, rules: CubeRules, player: int, turns_started: int
) -> ActionReason | None:
    """Why `player` may not double now (None: he may), apart from phase and turn.

    `turns_started` counts the player's rolls in this game so far (the opening roll
    counts for the player who moved first): the Holland rule lets the trailer double
    only from his third turn on, i.e. after two rolls of his own.
    """
    if not rules.enabled:
        return ActionReason.CRAWFORD_GAME
    if cube.owner is not None and cube.owner != player:
        return ActionReason.CUBE_NOT_YOURS
    if rules.holland_player == player and turns_started < 2:
        return ActionReason.HOLLAND_RULE
    if rules.max_redoubles is not None and cube.turns > rules.max_redoubles:
        return ActionReason.REDOUBLE_LIMIT
    return None
