"""A raw TCP test client: sends lines, collects CRLF lines and unterminated prompts.

Deliberately independent of the server's codec for what it checks (line ends, prompts,
telnet bytes), so that end-to-end tests see exactly what a FIBS client would see.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import trio

IAC_ECHO = re.compile(rb"\xff[\xfb\xfc]\x01")


class TestClient:
    __test__ = False  # not a pytest test class

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.raw = bytearray()  # everything received, telnet bytes included
        self._pending = bytearray()  # received but not yet consumed as lines
        self.lines: list[str] = []  # every complete line consumed so far

    async def send(self, line: str) -> None:
        await self.stream.send_all(line.encode() + b"\r\n")

    async def _receive(self) -> None:
        data = await self.stream.receive_some(65536)
        if not data:
            raise EOFError("server closed the connection")
        self.raw += data
        self._pending += data

    def _take_line(self) -> str | None:
        index = self._pending.find(b"\r\n")
        if index < 0:
            return None
        raw = bytes(self._pending[:index])
        del self._pending[: index + 2]
        line = IAC_ECHO.sub(b"", raw).decode("utf-8", "replace")
        self.lines.append(line)
        return line

    async def read_line(self, timeout: float = 5.0) -> str:
        with trio.fail_after(timeout):
            while True:
                line = self._take_line()
                if line is not None:
                    return line
                await self._receive()

    async def read_until(self, wanted: str | Callable[[str], bool], timeout: float = 5.0) -> list[str]:
        """Lines up to and including the first one equal to (or satisfying) `wanted`."""
        test = wanted if callable(wanted) else (lambda line: line == wanted)
        seen: list[str] = []
        with trio.fail_after(timeout):
            while True:
                line = await self.read_line(timeout=timeout)
                seen.append(line)
                if test(line):
                    return seen

    async def expect_prompt(self, prompt: str, timeout: float = 5.0) -> list[str]:
        """Consume lines until the unterminated rest of the input is exactly `prompt`."""
        seen: list[str] = []
        with trio.fail_after(timeout):
            while True:
                line = self._take_line()
                if line is not None:
                    seen.append(line)
                    continue
                rest = IAC_ECHO.sub(b"", bytes(self._pending))
                if rest == prompt.encode():
                    self._pending.clear()
                    return seen
                await self._receive()

    async def read_all_until_closed(self, timeout: float = 5.0) -> list[str]:
        seen: list[str] = []
        with trio.fail_after(timeout):
            try:
                while True:
                    line = self._take_line()
                    if line is not None:
                        seen.append(line)
                        continue
                    await self._receive()
            except (EOFError, trio.BrokenResourceError):
                rest = bytes(self._pending)
                if rest:
                    seen.append(IAC_ECHO.sub(b"", rest).decode("utf-8", "replace"))
                return seen

    async def assert_no_prompt_after(self, command: str, answer: Callable[[str], bool]) -> None:
        """`command` is answered with a line `answer` accepts and no prompt follows.

        Deterministic, without waiting for nothing: a second command is sent, and
        everything before its answer is checked (a prompt would come first)."""
        await self.send(command)
        await self.read_until(answer)
        mark = len(self.raw) - len(self._pending)
        await self.send(command)
        await self.read_until(answer)
        tail = bytes(self.raw[mark:]) if mark >= 0 else bytes(self.raw)
        assert b"> " not in tail, tail

    async def close(self) -> None:
        await self.stream.aclose()
