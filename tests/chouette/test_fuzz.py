"""Random chouettes (T9): many games of random legal and illegal actions under random
settings. After every action the ledger sums to zero, every contract settled at most
once, the queue is a permutation of the seated players, each game starts with one box
and one captain, players out of the game cannot talk on the team channel, and a
refused action changed nothing (checked by the driver); the saved form restores an
equal table."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from fibsd.rules.chouette import (
    AnyEvent,
    BoxLimits,
    Chouette,
    ChouetteGameOver,
    ChouetteGameStarted,
    Consult,
    Cubes,
    JoinMode,
    LeaveDeferred,
    LoneTaker,
    PartnerMode,
    PartnerPick,
    PlayerLeft,
    Rotation,
    Settings,
    chouette_event_from_dict,
    chouette_event_to_dict,
)

from .driver import NAMES, step


@st.composite
def table_settings(draw: st.DrawFn) -> Settings:
    cubes = draw(st.sampled_from(Cubes))
    return Settings(
        cubes=cubes,
        consult=draw(st.sampled_from(Consult)),
        jacoby=draw(st.booleans()),
        beavers=0 if cubes is Cubes.SINGLE else draw(st.integers(0, 2)),
        autodoubles=draw(st.integers(0, 2)),
        fiveplus=draw(st.booleans()),
        lone_taker=draw(st.sampled_from(LoneTaker)),
        extras=draw(st.booleans()),
        box_limits=draw(st.sampled_from(BoxLimits)),
        partner=draw(st.sampled_from(PartnerMode)),
        partner_from=draw(st.integers(3, 8)),
        partner_pick=draw(st.sampled_from(PartnerPick)),
        rotation=draw(st.sampled_from(Rotation)),
        join=draw(st.sampled_from(JoinMode)),
    )


def check(t: Chouette, events: list[AnyEvent]) -> None:
    t.check()
    for e in events:
        assert (
            chouette_event_from_dict(json.loads(json.dumps(chouette_event_to_dict(e))))
            == e
        )
    assert sum(t.totals().values()) == 0
    assert sorted(t.seated) == sorted(set(t.seated))
    for e in events:
        if isinstance(e, ChouetteGameStarted):
            assert e.box != e.captain and e.captain in t.participants
            assert e.partner not in (e.box, e.captain)
        if isinstance(e, ChouetteGameOver):
            assert sum(d for _, d in e.deltas) == 0
    if t.game is not None:
        for name in t.participants:
            if not t.is_live(name):
                assert not t.may_team_talk(name)
                assert name not in t.team_audience()


@hyp_settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**32 - 1), settings=table_settings(), players=st.integers(3, 9)
)
def test_random_chouettes_keep_every_invariant(
    seed: int, settings: Settings, players: int
) -> None:
    rng = random.Random(seed)
    t = Chouette(settings, NAMES[:players])
    games = 0
    left: set[str] = set()  # who left the table during the current game
    for n in range(2500):
        box, rot = t.box, t.rotation_captain
        events = step(t, rng)
        check(t, events)
        for e in events:
            if isinstance(e, ChouetteGameStarted):
                left = set()
            if isinstance(e, PlayerLeft | LeaveDeferred):
                left.add(e.name)
            if isinstance(e, ChouetteGameOver):
                # the box keeps the box only by beating the captain who counts (C56)
                winner = box if e.box_won else rot
                if winner not in left and box not in left:
                    assert e.queue[0] == winner
        games += sum(isinstance(e, ChouetteGameOver) for e in events)
        if n % 97 == 0:
            assert Chouette.from_dict(t.to_dict()) == t
        if games >= 4:
            break
    settled = [r.cid for r in t.ledger.rows if r.cid is not None]
    assert len(settled) == len(set(settled))
