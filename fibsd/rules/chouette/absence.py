"""Disconnects: abandonment at the worst result, proxies and delegation, the absent
captain (C70-C75).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from ..events import GameResult
from ..scoring import game_result
from .answers import maybe_reveal
from .contracts import Holder
from .events import (
    AnyEvent,
    CaptainChanged,
    Cause,
    ProxySet,
)
from .settlement import after_settlements, captain_beaten, settle
from .state import (
    ChouetteState,
    R,
    _refuse,
)


def worst_result(t: ChouetteState, name: str) -> GameResult:
    """C70: the worst result still possible for `name`'s side of the board, read
    off its checkers now (gammon while nothing is borne off, backgammon with a
    checker on the bar or in the winner's home board)."""
    game = t._playing()
    side = Holder.BOX if name == t._box else Holder.TEAM
    return game_result(game.side(side.player))


def set_proxy(t: ChouetteState, name: str, on: bool = True) -> list[AnyEvent]:
    """C71: an absent member follows the captain (never doubles, copies the
    captain's answer, else drops), or is back in control."""
    t._playing()
    if name not in t.team() or (name == t._captain and on):
        _refuse(R.NOT_LIVE, f"{name} is no crew member")
    return set_proxy_state(t, name, on, None)


def delegate(t: ChouetteState, name: str, to: str | None) -> list[AnyEvent]:
    """C71 `chouette delegate NAME|off`: crew member `name`, stepping away, is
    proxied (he never doubles) and his cube copies `to`'s answer to the same box
    double (else the captain's, else a drop); `to=None` takes control back. `to`
    must be another live team member who is not proxied himself."""
    t._playing()
    if name not in t.team() or name == t._captain:
        _refuse(R.NOT_LIVE, f"{name} is no crew member")
    if to is None:
        return set_proxy_state(t, name, False, None)
    if to == name or to not in t.live_members() or to in t._proxied:
        _refuse(R.BAD_DELEGATE, f"{to} cannot answer for {name}")
    return set_proxy_state(t, name, True, to)


def set_proxy_state(
    t: ChouetteState, name: str, on: bool, to: str | None
) -> list[AnyEvent]:
    if on:
        t._proxied.add(name)
        if to is not None:
            t._delegates[name] = to
    else:
        t._proxied.discard(name)
        t._delegates.pop(name, None)
    events: list[AnyEvent] = [ProxySet(name, on, t._delegates.get(name))]
    if on:
        maybe_reveal(t, events)
        after_settlements(t, events)
    return events


def captain_absent(t: ChouetteState) -> list[AnyEvent]:
    """C72: the captain stayed away past the grace period. The best-placed live
    member who is present becomes captain; for rotation the absent captain counts
    as a captain who dropped; his contracts follow the new captain (C71)."""
    t._playing()
    old = t._captain
    others = [m for m in t.live_members() if m != old and m not in t._proxied]
    if old is None or not others:
        _refuse(R.NO_REPLACEMENT, "nobody present can take over")
    events: list[AnyEvent] = [ProxySet(old, True)]
    t._proxied.add(old)
    to_end = captain_beaten(t, old)
    t._captain = others[0]
    if t._decided is None:
        t._rot_captain = others[0]
    events.append(CaptainChanged(old, others[0], to_end))
    maybe_reveal(t, events)
    after_settlements(t, events)
    return events


def abandon(t: ChouetteState, name: str, events: list[AnyEvent]) -> None:
    """C70/C73: every live contract of `name` settles as his loss at the worst
    result still possible (Jacoby: single for a cube never turned)."""
    game = t._game
    assert game is not None
    if name == t._box:
        if t._decided is None:
            t._decided = Holder.TEAM  # C73: the captain is the next box
        t._captain_fate = True
    elif name == t._captain:
        t._captain_fate = False
    for c in list(t._contracts):
        side = c.side_of(name)
        if not c.live or side is None:
            continue
        k = t._k(c, game_result(game.side(side.player)))
        forget(t, c.cid)
        settle(t, c, side.other, c.value * k, Cause.ABANDON, None, events)
    if name in t._extras_givers:
        t._extras_givers.remove(name)
        if not t._extras_givers:
            t._extras_taker = None
    if name == t._box and name not in t._leaving:
        t._leaving.append(name)
    maybe_reveal(t, events)
    after_settlements(t, events)


def forget(t: ChouetteState, cid: int) -> None:
    t._offers.pop(cid, None)
    t._sealed.pop(cid, None)
    t._resigns.pop(cid, None)
    t._box_round = [x for x in t._box_round if x != cid]
    t._team_round = [x for x in t._team_round if x != cid]
