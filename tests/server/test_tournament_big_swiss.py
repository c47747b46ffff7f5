"""A 512-player Swiss round is paired off the event loop, over real TCP (issue 35 §2):
while the pairing runs in its worker thread, another user's command is answered; the
pairings are announced after, when the job's result comes back.

The pairing is held at a gate (the real `swiss.pair_round`, wrapped so that it waits
for the test's word once it has begun): the other user's answer must arrive while it
waits. A server that paired on its event loop would answer nothing until the gate gave up
(a bounded wait), and the answer would then come after the pairings: the test fails."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import trio

from fibsd.rules.tournament import Phase, swiss
from tests.server.helpers import clip_login, register

FIELD = 512
ROUND_ONE = "Tournament big: round 1 pairings: "


@pytest.mark.slow
async def test_a_512_player_swiss_round_is_paired_while_another_user_is_answered(
        start_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    began, release = threading.Event(), threading.Event()
    real_pair_round = swiss.pair_round

    def gated(*args: Any, **kwargs: Any) -> Any:
        began.set()
        release.wait(timeout=30)  # (bounded: a server pairing on its loop fails, never hangs)
        return real_pair_round(*args, **kwargs)

    monkeypatch.setattr(swiss, "pair_round", gated)
    running = await start_server(**{"admin.admins": ["director"]})
    for name in ("director", "other"):
        await register(running, name)
    director, _ = await clip_login(running, "director")
    other, _ = await clip_login(running, "other")
    await director.send("tournament create big swiss 1 rounds 3 noshow 3600")
    await director.read_until(lambda line: line.startswith("Tournament big opened by director."))
    for client, name in ((director, "director"), (other, "other")):
        await client.send("tournament join big")
        await client.read_until(lambda line, name=name: line.startswith(f"Tournament big: {name} enters"))
    # The rest of the field entered without logging in (entrants need not be online).
    big = running.server.registry.tournaments["big"]
    for number in range(FIELD - 2):
        big.join(f"entrant{number}", 1400.0 + number % 100)

    await director.send("tournament start big")
    await director.read_until(f"Tournament big starts with {FIELD} players.")
    await trio.to_thread.run_sync(began.wait, 30)  # the pairing job has begun, and waits
    assert big.awaiting_pairing and big.pairing_underway

    await other.send("tournament show big")
    answered = await other.read_until("  Round 1 of 3 is being paired.")
    assert not [line for line in answered if line.startswith(ROUND_ONE)], answered

    release.set()
    announced = await other.read_until(lambda line: line.startswith(ROUND_ONE), timeout=30)
    pairs = announced[-1].removeprefix(ROUND_ONE).split(", ")
    assert len(pairs) == FIELD // 2 and not [pair for pair in pairs if "(bye)" in pair]
    assert big.phase is Phase.RUNNING and big.round_number == 1 and not big.pairing_underway
    assert len(big.pending()) == FIELD // 2
    names = sorted(name for pairing in big.current for name in pairing.names)
    assert names == sorted(big.seeds)
