"""A CLIP player for match tests: logs in, sets boardstyle 3, waits for lines, reads boards."""

from __future__ import annotations

from typing import Any

import trio

from protocol.board import BoardLine
from protocol.wording import Text
from tests.server.client import TestClient
from tests.server.helpers import clip_login, register

EXTENSIONS_ON = Text.TOGGLE_EXTENSIONS_ON.value


class Player:
    def __init__(self, name: str, client: TestClient) -> None:
        self.name = name
        self.client = client

    @classmethod
    async def join_server(cls, running: Any, name: str, *, ready: bool = True, register_first: bool = True,
                          extensions: bool = False) -> Player:
        """A CLIP client as FIBS clients log in; `extensions` opts in to fibsd's own lines."""
        if register_first:
            await register(running, name)
        client, _ = await clip_login(running, name)
        player = cls(name, client)
        await player.command("set boardstyle 3", "Value of 'boardstyle' set to 3.")
        if ready:
            await player.command("toggle ready", "** You're now ready to invite or join someone.")
        if extensions:
            await player.command("toggle extensions", EXTENSIONS_ON)
        return player

    async def send(self, line: str) -> None:
        await self.client.send(line)

    async def expect(self, line: str, timeout: float = 5.0) -> list[str]:
        """Read until exactly `line`; everything read on the way is returned."""
        try:
            return await self.client.read_until(line, timeout=timeout)
        except trio.TooSlowError:
            raise AssertionError(f"{self.name} never got {line!r}; last lines: {self.client.lines[-12:]}") from None

    async def command(self, line: str, answer: str) -> list[str]:
        await self.send(line)
        return await self.expect(answer)

    async def board(self) -> BoardLine:
        """Ask for the board and decode it."""
        await self.send("board")
        lines = await self.client.read_until(lambda line: line.startswith("board:"))
        return BoardLine.decode(lines[-1])

    async def next_board(self) -> BoardLine:
        lines = await self.client.read_until(lambda line: line.startswith("board:"))
        return BoardLine.decode(lines[-1])
