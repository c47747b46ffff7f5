"""The bundled bots' command line: `python -m fibsd.tools.bots gnubg|random ...` as a process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from fibsd.tools.bots.client import BotClient
from fibsd.tools.bots.gnubg import DEFAULT_GNUBG
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy


def _bot_command(kind: str, port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "fibsd.tools.bots", kind, "--host", "127.0.0.1",
            "--port", str(port), *extra]


async def test_the_gnubg_bot_command_plays_a_match_and_exits(bot_server: Any) -> None:
    if not os.access(DEFAULT_GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is missing at {DEFAULT_GNUBG}: apt-get install -y gnubg")
    running = bot_server
    opponent = BotClient(BotConfig("rando", "secret2", port=running.port, matches=1),
                         RandomStrategy(seed=11))
    command = _bot_command("gnubg", running.port, "--name", "gnubot", "--password", "secret1",
                           "--invite", "rando", "--length", "1", "--matches", "1")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(opponent.run)
            done = await trio.run_process(command, capture_stdout=True, capture_stderr=True,
                                          check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("gnubot ")
    assert "the 1 point match against rando" in done.stdout.decode()
    assert len(opponent.results) == 1


async def test_sigterm_logs_the_bot_out_and_exits_cleanly(bot_server: Any) -> None:
    running = bot_server
    command = _bot_command("random", running.port, "--name", "idler", "--password", "secret1")
    process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE,
                                               stderr=subprocess.PIPE)
    try:
        with trio.fail_after(20):
            while not _online(running, "idler"):
                await trio.sleep(0.05)
            process.send_signal(signal.SIGTERM)
            assert await process.wait() == 0
            while _online(running, "idler"):
                await trio.sleep(0.05)
    finally:
        if process.poll() is None:
            process.kill()
            await process.wait()


def _online(running: Any, name: str) -> bool:
    return running.server.registry.get(name) is not None


async def test_the_minimal_example_of_the_documentation_runs(bot_server: Any, tmp_path: Any) -> None:
    text = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    section = text.split("## Minimal example", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) <= 30 and "port=4321" in code
    script = tmp_path / "racer.py"
    # a 1-point match keeps the test short
    script.write_text(code.replace("port=4321", f"port={bot_server.port}, invite_length=1"))
    rando = BotClient(BotConfig("rando", "pw1234", port=bot_server.port, matches=1),
                      RandomStrategy(seed=2))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(rando.run)
            done = await trio.run_process([sys.executable, str(script)], capture_stdout=True,
                                          capture_stderr=True, check=False)
            assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith(("won MatchResult(", "lost MatchResult("))
    assert len(rando.results) == 1
