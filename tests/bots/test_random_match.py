"""Two random bots play whole matches against each other through a real server."""

from __future__ import annotations

from typing import Any

import trio

from fibsd.tools.bots.client import BotClient
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy

MATCH_SECONDS = 60


async def test_two_random_bots_play_a_three_point_match_to_the_end(bot_server: Any) -> None:
    running = bot_server
    inviter = BotClient(
        BotConfig("alice", "secret1", port=running.port, invite="bob", invite_length=3, matches=1),
        RandomStrategy(seed=1),
    )
    invitee = BotClient(
        BotConfig("bob", "secret2", port=running.port, accept_from=frozenset({"alice"}), matches=1),
        RandomStrategy(seed=2),
    )
    with trio.fail_after(MATCH_SECONDS):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(invitee.run)
            nursery.start_soon(inviter.run)
    assert len(inviter.results) == len(invitee.results) == 1, (
        list(inviter.recent_lines)[-30:], list(invitee.recent_lines)[-30:])
    assert inviter.player.refusals == invitee.player.refusals == []  # every play was legal
    a, b = inviter.results[0], invitee.results[0]
    assert a.opponent == "bob" and b.opponent == "alice"
    assert a.won != b.won
    assert a.length == 3 and max(a.score, a.opponent_score) >= 3
    winner = inviter if a.won else invitee
    assert any(line.startswith("You win the 3 point match") for line in winner.recent_lines)
