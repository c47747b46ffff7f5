"""The table's invariants and its JSON-able save (C79).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..events import GameResult
from ..game import Game
from .contracts import Contract, Holder
from .events import Answer
from .ledger import Ledger
from .settings import Settings
from .state import (
    FORMAT_VERSION,
    ChouetteState,
    TablePhase,
)

C = TypeVar("C", bound=ChouetteState)


def check(t: ChouetteState) -> None:
    """Raise AssertionError if an invariant is broken (tests, restored saves)."""
    t.ledger.check()
    assert len(set(t._queue)) == len(t._queue), t._queue
    assert len(set(t.seated)) == len(t.seated)
    assert set(t._delegates) <= t._proxied, (t._delegates, t._proxied)
    if t._game is None:
        assert not t._contracts and not t._offers and not t._resigns
        return
    assert t._box in t._queue
    assert t._captain is None or t.is_live(t._captain)
    for c in t._contracts:
        assert c.value >= 1 and c.value & (c.value - 1) == 0, c
        assert (c.winner is None) == c.live, c
    for cid in t._offers:
        assert t.contract(cid).live
    settled = [r.cid for r in t.ledger.rows if r.cid is not None]
    assert len(settled) == len(set(settled)), "a contract settled twice"
    if t._partner is not None:
        assert t._queue[1] == t._partner


def to_dict(t: ChouetteState) -> dict[str, Any]:
    """The whole table, JSON-able and versioned (`from_dict` restores it)."""
    return {
        "version": FORMAT_VERSION,
        "settings": t.settings.to_dict(),
        "ledger": t.ledger.to_dict(),
        "phase": t._phase.value,
        "queue": list(t._queue),
        "sitting_out": sorted(t._sitting_out),
        "order_groups": [list(g) for g in t._order_groups],
        "order_joiners": list(t._order_joiners),
        "joiners": list(t._joiners),
        "leaving": list(t._leaving),
        "partner": t._partner,
        "game_number": t._game_number,
        "next_cid": t._next_cid,
        "last_game": None if t._last_game is None else t._last_game.to_dict(),
        "game": None if t._game is None else t._game.to_dict(),
        "participants": list(t._participants),
        "contracts": [c.to_dict() for c in t._contracts],
        "box": t._box,
        "captain": t._captain,
        "first_captain": t._first_captain,
        "rot_captain": t._rot_captain,
        "decided": None if t._decided is None else t._decided.value,
        "moved_to_end": list(t._moved_to_end),
        "captain_fate": t._captain_fate,
        "offers": [[cid, side.value] for cid, side in t._offers.items()],
        "box_round": list(t._box_round),
        "box_round_all": t._box_round_all,
        "box_round_initial": t._box_round_initial,
        "sealed": [[cid, a.value] for cid, a in t._sealed.items()],
        "timed_out": sorted(t._timed_out),
        "team_round": list(t._team_round),
        "team_round_initial": t._team_round_initial,
        "box_answers": [[cid, a.value] for cid, a in t._box_answers.items()],
        "resigns": [
            [cid, side.value, result.name] for cid, (side, result) in t._resigns.items()
        ],
        "extras_taker": t._extras_taker,
        "extras_givers": list(t._extras_givers),
        "extras_fee": t._extras_fee,
        "extras_value": t._extras_value,
        "proxied": sorted(t._proxied),
        "delegates": dict(sorted(t._delegates.items())),
        "auto": t._auto,
        "partner_candidates": list(t._partner_candidates),
        "partner_draw": list(t._partner_draw),
    }


def from_dict(cls: type[C], data: dict[str, Any]) -> C:
    """Restore a table saved by `to_dict`; ValueError on malformed data or an
    unknown format version."""
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise ValueError("not a saved chouette of format version 1")
    try:
        t = cls(Settings.from_dict(data["settings"]))
        t.ledger = Ledger.from_dict(data["ledger"])
        t._phase = TablePhase(data["phase"])
        t._queue = [str(n) for n in data["queue"]]
        t._sitting_out = set(data["sitting_out"])
        t._order_groups = [list(g) for g in data["order_groups"]]
        t._order_joiners = list(data["order_joiners"])
        t._joiners = list(data["joiners"])
        t._leaving = list(data["leaving"])
        t._partner = data["partner"]
        t._game_number = int(data["game_number"])
        t._next_cid = int(data["next_cid"])
        lg = data["last_game"]
        t._last_game = None if lg is None else Game.from_dict(lg)
        g = data["game"]
        t._game = None if g is None else Game.from_dict(g)
        t._participants = tuple(data["participants"])
        t._contracts = [Contract.from_dict(c) for c in data["contracts"]]
        t._box = data["box"]
        t._captain = data["captain"]
        t._first_captain = data["first_captain"]
        t._rot_captain = data["rot_captain"]
        d = data["decided"]
        t._decided = None if d is None else Holder(d)
        t._moved_to_end = list(data["moved_to_end"])
        t._captain_fate = data["captain_fate"]
        t._offers = {int(cid): Holder(s) for cid, s in data["offers"]}
        t._box_round = [int(x) for x in data["box_round"]]
        t._box_round_all = bool(data["box_round_all"])
        t._box_round_initial = bool(data["box_round_initial"])
        t._sealed = {int(cid): Answer(a) for cid, a in data["sealed"]}
        t._timed_out = {int(x) for x in data["timed_out"]}
        t._team_round = [int(x) for x in data["team_round"]]
        t._team_round_initial = bool(data["team_round_initial"])
        t._box_answers = {int(cid): Answer(a) for cid, a in data["box_answers"]}
        t._resigns = {
            int(cid): (Holder(s), GameResult[r]) for cid, s, r in data["resigns"]
        }
        t._extras_taker = data["extras_taker"]
        t._extras_givers = list(data["extras_givers"])
        t._extras_fee = int(data["extras_fee"])
        t._extras_value = int(data["extras_value"])
        t._proxied = set(data["proxied"])
        # (absent from tables saved before `chouette delegate` existed)
        t._delegates = {str(m): str(d) for m, d in data.get("delegates", {}).items()}
        t._auto = int(data["auto"])
        t._partner_candidates = list(data["partner_candidates"])
        t._partner_draw = tuple(data["partner_draw"])
        check(t)
    except (KeyError, TypeError, AssertionError) as exc:
        raise ValueError(f"not a saved chouette: {exc!r}") from exc
    return t
