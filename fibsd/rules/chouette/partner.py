"""The box's partner: the offer, the answers, the draw (C60-C62).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from ..events import DiceRolled, OpeningRolled
from .events import (
    AnyEvent,
    PartnerChosen,
    PartnerDeclined,
    PartnerDrawNeeded,
    PartnerOffered,
)
from .settings import (
    PartnerMode,
    PartnerPick,
)
from .state import (
    ChouetteState,
    R,
    _refuse,
)


def opening_untouched(t: ChouetteState) -> bool:
    """Nothing has happened in this game yet: no die rolled, no cube turned."""
    game = t._game
    return (
        game is not None
        and not any(isinstance(e, (OpeningRolled, DiceRolled)) for e in game.history)
        and t._auto == 0
        and not t._offers
        and not any(c.turned for c in t._contracts)
    )


def request_partner(t: ChouetteState, name: str) -> list[AnyEvent]:
    """`chouette partner yes` by the box before the opening roll (C60)."""
    t._playing()
    if name != t._box:
        _refuse(R.NOT_BOX)
    if (
        t.settings.partner is PartnerMode.OFF
        or t._partner is not None
        or t._partner_candidates
        or t._partner_draw
        or len(t._participants) < t.settings.partner_from
        or not opening_untouched(t)
    ):
        _refuse(R.NO_PARTNER)
    events: list[AnyEvent] = []
    begin_partner(t, events)
    return events


def begin_partner(t: ChouetteState, events: list[AnyEvent]) -> None:
    team = list(t.team())
    if t.settings.partner_pick is PartnerPick.NEXT:
        set_partner(t, team[1], events)
        return
    t._partner_candidates = [team[0], *reversed(team[1:])]
    events.append(PartnerOffered(t._partner_candidates[0]))


def partner_answer(t: ChouetteState, name: str, yes: bool) -> list[AnyEvent]:
    """The player offered the partnership accepts or declines (C61); silence is
    the server's `partner_answer(name, False)` after answer_seconds."""
    t._playing()
    if t.partner_offered_to != name:
        _refuse(R.NO_PARTNER, f"nothing offered to {name}")
    events: list[AnyEvent] = []
    if yes:
        set_partner(t, name, events)
        return events
    t._partner_candidates.pop(0)
    events.append(PartnerDeclined(name))
    if t._partner_candidates:
        events.append(PartnerOffered(t._partner_candidates[0]))
    else:
        t._partner_draw = tuple(t.team()[1:])
        events.append(PartnerDrawNeeded(t._partner_draw))
    return events


def draw_partner(t: ChouetteState, name: str) -> list[AnyEvent]:
    """The server's random draw among `partner_draw_candidates` (C61)."""
    t._playing()
    if name not in t._partner_draw:
        _refuse(R.NO_PARTNER, f"{name} cannot be drawn")
    events: list[AnyEvent] = []
    set_partner(t, name, events)
    return events


def set_partner(t: ChouetteState, name: str, events: list[AnyEvent]) -> None:
    t._partner_candidates = []
    t._partner_draw = ()
    t._queue.remove(name)
    t._queue.insert(1, name)
    t._partner = name
    t._contracts = [c for c in t._contracts if c.member != name]
    team = t.team()
    t._captain = t._first_captain = t._rot_captain = team[0]
    events.append(PartnerChosen(name, team[0]))
