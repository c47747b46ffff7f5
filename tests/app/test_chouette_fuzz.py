"""Random chouettes through the whole core: many games of random commands, legal or not.

Hypothesis picks a seed; from it, 3 to 6 players type random lines (rolls, legal and
illegal moves, doubles and answers to anyone, resignations, leaving, joining, breaks,
dropping the connection and coming back, the clock running past the answer time and the
grace period). After every step: nothing crashed, every refusal was a `** ` line, the
engine's invariants hold, the ledger sums to zero, and what the store holds is the
table as it is (a restart would resume exactly this).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fibsd.app import chouettes
from fibsd.app.play.chouette import ChouetteTable
from fibsd.app.play.notation import moves_text
from fibsd.app.session import Departure, Session
from fibsd.rules import GamePhase, legal_plays
from tests.app.driver import CoreDriver

NAMES = ["anna", "bert", "cleo", "dirk", "emma", "finn", "gina"]


class RandomDice:
    """Dice from the test's random source (so a failing example replays exactly)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def die(self) -> int:
        return self.rng.randint(1, 6)

    def coin(self) -> int:
        return self.rng.randint(0, 1)


def _line(rng: random.Random, table: ChouetteTable[Session], name: str) -> str:
    engine = table.engine
    others = [n for n in engine.seated if n != name]
    some = " ".join(rng.sample(others, k=rng.randint(0, min(2, len(others))))) if others else ""
    game = engine.game
    if game is not None and game.phase is GamePhase.AWAITING_MOVE and game.dice is not None \
            and rng.random() < 0.8:
        mover = engine.box if game.turn == 0 else engine.captain
        if mover is not None and rng.random() < 0.9:
            plays = legal_plays(game.position_for(game.turn or 0), game.dice)
            play = rng.choice(plays)
            name = mover
            return f"{name}|move {moves_text(play.moves, is_o=game.turn == 0)}".strip()
    if engine.waiting_for() and rng.random() < 0.6:
        name = rng.choice(engine.waiting_for())
    verb = rng.choice([
        "roll", "roll", "roll", "double", f"double {some}", "accept", "reject", "beaver",
        f"accept {some}", f"reject {some}", "raccoon", "resign n", "resign g", "board",
        "chouette show", "chouette score", "team hi", "boxside hi", "move 1-2", "off",
        "chouette partner", "chouette partner yes", "chouette partner no", "chouette extra",
        "chouette noextra", f"chouette delegate {rng.choice(others or [name])}",
        "chouette delegate off", "chouette history", "chouette score 1", "chouette export 1",
    ])
    return f"{name}|{verb}"


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 6))
def test_random_chouettes_keep_the_ledger_at_zero_and_the_store_in_step(seed: int, players: int) -> None:
    rng = random.Random(seed)
    # (the manual clock stands still between steps: the command rate limit is lifted)
    driver = CoreDriver(RandomDice(rng), **{"limits__reconnect_grace_seconds": 30,
                                            "limits__command_burst": 100_000})
    names = NAMES[:players]
    driver.create(*NAMES)
    for name in names:
        driver.log_in(name)
    settings_words = rng.choice(["", "single", "jacoby=off beavers=2", "extras=on fiveplus=off",
                                 "partner_from=3 partner=mandatory", "box_limits=half"])
    driver.send(names[0], f"chouette create {settings_words}")
    for name in names[1:]:
        driver.send(name, f"chouette join {names[0]}")
    table = driver.sessions[names[0]].chouette
    assert table is not None
    driver.send(names[0], "chouette start")
    online = set(names)
    for _step in range(1500):
        if table.engine.game_number >= 8 or len(table.engine.seated) < 2:
            break
        roll = rng.random()
        seated = list(table.engine.seated)
        if roll < 0.01 and len(online) > 1:
            gone = rng.choice(sorted(online & set(seated)) or sorted(online))
            driver.log_out(gone, Departure.DROPPED)
            online.discard(gone)
        elif roll < 0.05:
            back = [n for n in names if n not in online]
            if back:
                driver.log_in(back[0])
                online.add(back[0])
        elif roll < 0.08:
            driver.clock.advance(rng.choice([5, 31, 61, 301]))
            driver.apply(chouettes.tick(driver.registry))
        elif roll < 0.09:
            newcomer = rng.choice(NAMES)
            if newcomer not in online:
                driver.log_in(newcomer)
                online.add(newcomer)
            driver.send(newcomer, f"chouette join {names[0]}")
        elif roll < 0.095:
            driver.send(rng.choice(sorted(online)), rng.choice(["chouette leave", "chouette break"]))
        else:
            who, line = _line(rng, table, rng.choice(seated)).split("|", 1)
            if who in online:
                for said in driver.send(who, line):
                    assert not said.startswith("** ") or said.endswith((".", "?", "'", "]")), said
        table.engine.check()
        assert sum(table.engine.totals().values()) == 0
        saved = driver.store.chouette(table.id)
        assert saved is not None and saved["engine"] == table.engine.to_dict()
        # What CLIP users were last told of each player's opponent is the truth.
        for session in driver.registry.online():
            assert session.chouette_opponent_shown == session.opponent_name, session.name
    assert sum(table.engine.totals().values()) == 0
