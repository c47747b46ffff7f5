"""The GNU Backgammon bot plays a whole 3-point match against the random bot; gnubg's
move numbering is translated into legal FIBS plays."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

from fibsd.rules import BAR, OFF, Position, legal_plays
from fibsd.tools.bots.client import BotClient
from fibsd.tools.bots.gnubg import (
    DEFAULT_GNUBG,
    GnubgStrategy,
    apply_gnubg_move,
    gnubg_hops,
)
from fibsd.tools.bots.moves import position_of
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy
from protocol.board import BoardLine

MATCH_SECONDS = 120
OPENING_X = BoardLine.decode(  # the bot is X (moves 1→24) and rolled 6-2
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "-1:6:2:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:0"
)


def _require_gnubg() -> None:
    if not os.access(DEFAULT_GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is missing at {DEFAULT_GNUBG}: apt-get install -y gnubg "
                    "(./scripts/test installs it)")


def test_gnubg_notation_steps() -> None:
    assert gnubg_hops("24/18 13/11") == [(24, 18), (13, 11)]
    assert gnubg_hops("bar/22* 13/7*/5") == [(BAR, 22), (13, 7), (7, 5)]
    assert gnubg_hops("6/off(2) 5/off") == [(6, OFF), (6, OFF), (5, OFF)]
    # what the external interface actually writes: 25 = bar, 0 = off
    assert gnubg_hops("25/22 4/0 4/0") == [(BAR, 22), (4, OFF), (4, OFF)]
    with pytest.raises(ValueError):
        gnubg_hops("double")


def test_a_gnubg_play_is_matched_to_the_legal_play_with_the_same_result() -> None:
    position = Position.opening()
    played = apply_gnubg_move(position, "8/5(2) 6/3(2)")  # 3-3: the 5- and 3-points
    plays = [p for p in legal_plays(position, (3, 3)) if p.result == played]
    assert len(plays) == 1
    assert (played.me[8], played.me[6], played.me[5], played.me[3]) == (1, 3, 2, 2)


async def test_gnubg_answers_in_its_own_numbering_and_is_stopped_by_pid() -> None:
    _require_gnubg()
    async with GnubgStrategy.started() as gnubg:
        pid = gnubg.pid
        assert pid is not None and Path(f"/proc/{pid}").exists()
        # As X the play comes back in X's own numbering (24/18 = absolute 1→7).
        assert await gnubg.ask(OPENING_X.encode()) == "24/18 13/11"
        plays = legal_plays(position_of(OPENING_X), OPENING_X.player_dice)
        play = await gnubg.choose_play(OPENING_X, plays)
        assert [(m.from_point, m.to_point) for m in play.moves] in (
            [(24, 18), (13, 11)], [(13, 11), (24, 18)])
        assert gnubg.unmatched_plays == 0
        assert not await gnubg.should_double(OPENING_X)  # nobody doubles at the start
        assert await gnubg.should_accept_double(OPENING_X)
    with trio.fail_after(5):
        while Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid):
            await trio.sleep(0.05)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"


async def test_gnubg_bot_plays_a_three_point_match_against_the_random_bot(bot_server: Any) -> None:
    _require_gnubg()
    running = bot_server
    async with GnubgStrategy.started() as gnubg:
        gnubg_bot = BotClient(
            BotConfig("gnubg", "secret1", port=running.port, invite="rando", matches=1), gnubg)
        random_bot = BotClient(
            BotConfig("rando", "secret2", port=running.port, matches=1), RandomStrategy(seed=7))
        with trio.fail_after(MATCH_SECONDS):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(random_bot.run)
                nursery.start_soon(gnubg_bot.run)
        assert gnubg.unmatched_plays == 0
    assert gnubg_bot.player.refusals == random_bot.player.refusals == []
    assert len(gnubg_bot.results) == len(random_bot.results) == 1, list(gnubg_bot.recent_lines)[-30:]
    result = gnubg_bot.results[0]
    assert result.length == 3 and max(result.score, result.opponent_score) >= 3
    winner = gnubg_bot if result.won else random_bot
    assert any(line.startswith("You win the 3 point match") for line in winner.recent_lines)
