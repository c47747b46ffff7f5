"""Checker play on the one board: the opening roll, rolls and moves of the box and the
(acting) captain (C22-C25, C50).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..game import GamePhase
from ..movegen import Play
from .contracts import Holder
from .events import (
    AnyEvent,
    CubesAutoDoubled,
)
from .settlement import board_over
from .state import (
    ChouetteState,
    R,
    _refuse,
)


def side_of_player(t: ChouetteState, name: str) -> Holder:
    if name == t._box:
        return Holder.BOX
    if name == t._captain:
        return Holder.TEAM
    _refuse(R.NOT_BOX_OR_CAPTAIN, f"{name} neither box nor captain")


def opening_roll(t: ChouetteState, box_die: int, captain_die: int) -> list[AnyEvent]:
    """C22: box and captain roll one die each; a tie re-rolls and turns every
    centred cube while `autodoubles` allows (C50)."""
    game = t._playing()
    t._partner_pending()
    events: list[AnyEvent] = list(game.opening_roll(box_die, captain_die))
    if box_die == captain_die and t._auto < t.settings.autodoubles:
        t._auto += 1
        for c in list(t._contracts):
            if c.live and c.owner is None:
                t._put(attrs.evolve(c, value=c.value * 2))
        events.append(CubesAutoDoubled(t._contracts[0].value))
    return events


def roll(t: ChouetteState, name: str, dice: Sequence[int]) -> list[AnyEvent]:
    """The box or the (acting) captain rolls on his turn, once every double and
    resignation is answered. Rolling ends his side's chance to raccoon."""
    game = t._playing()
    side = side_of_player(t, name)
    t._board_free()
    events: list[AnyEvent] = list(game.roll(side.player, dice))
    for c in list(t._contracts):
        if c.raccoon is side:
            t._put(attrs.evolve(c, raccoon=None))
    return events


def move(
    t: ChouetteState, name: str, moves: Sequence[tuple[int, int]]
) -> list[AnyEvent]:
    """Checker play by the box or the (acting) captain, in his own perspective."""
    game = t._playing()
    side = side_of_player(t, name)
    t._board_free()
    events: list[AnyEvent] = list(game.move(side.player, moves))
    if game.phase is GamePhase.GAME_OVER:
        board_over(t, events)
    return events


def play(t: ChouetteState, name: str, play: Play) -> list[AnyEvent]:
    """Like `move`, with a `Play` from `legal_plays` (the server's automove)."""
    return move(t, name, [(m.from_point, m.to_point) for m in play.moves])
