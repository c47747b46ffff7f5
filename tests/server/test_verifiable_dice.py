"""End-to-end (issue 8): a match's dice are committed at the start and revealed at the end,
and the revealed seed reproduces every roll that was played."""

from __future__ import annotations

import re
from typing import Any

from fibsd.domain.fairdice import commitment_of, rolls_of_match, verify
from tests.server.players import Player


async def test_revealed_seed_reproduces_the_rolls_and_matches_the_commitment(start_server: Any) -> None:
    running = await start_server()  # no scripted dice: each match gets seeded dice
    alice = await Player.join_server(running, "alice", extensions=True)
    bob = await Player.join_server(running, "bob", extensions=True)
    await alice.send("invite bob 1")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    committed = [line for line in await bob.expect("Starting a new game with alice.")
                 if line.startswith("** The dice of this match are committed:")]
    assert len(committed) == 1
    commitment = committed[0].rsplit(" ", 1)[1]
    opening = await bob.client.read_until(lambda line: "first move" in line or "turn to move" in line)
    rolled = [line for line in opening if line.startswith("You rolled ")]  # ties roll again
    shown = re.fullmatch(r"You rolled (\d), alice rolled (\d)", rolled[-1])
    assert shown is not None
    bob_moves_first = opening[-1] == "It's your turn to move."
    starter, other = (bob, alice) if bob_moves_first else (alice, bob)
    await starter.send("resign n")
    await other.expect(f"{starter.name} wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await other.send("accept")
    revealed = (await alice.client.read_until(lambda line: line.startswith("** The dice seed")))[-1]
    seed = revealed.rsplit(" ", 1)[1]
    assert commitment_of(bytes.fromhex(seed)) == commitment
    record = running.server.store.match_records_of("alice")[0]
    coin = record.data["dice"]["coin"]
    values = rolls_of_match(record.data, coin)
    result = verify(seed, commitment, values)
    assert result.ok, result.lines()
    # The dice the players were shown are among the verified values.
    dice = values[1:]
    assert (dice[-2], dice[-1]) == (int(shown[2]), int(shown[1]))  # die0 is alice's
    # The exported .mat carries the commitment and the seed.
    await alice.send(f"export {record.id}")
    lines = await alice.client.read_until(lambda line: line.startswith("; [DiceSeed"))
    assert f'; [DiceCommitment "{commitment}"]' in lines
    assert lines[-1] == f'; [DiceSeed "{seed}"]'
    # dicetest: server-wide statistics over every roll so far.
    await alice.send("dicetest")
    report = await alice.client.read_until(lambda line: "pairs chi-square" in line)
    assert any(line.startswith("Rolls: ") for line in report)
