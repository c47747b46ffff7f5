"""The bot client on trio: connection, CLIP login, registration, reconnection.

Owns the bot's socket and everything about having one: connecting with a timeout,
registering the account through the guest dialogue when a CLIP login fails (§2.5), the
CLIP login itself (§2.2), reading lines with the `protocol.framing` codec and sending
what `BotPlayer` answers, logging out cleanly, and reconnecting with exponential back-off
(a bounded number of attempts) after the server dropped the connection. What to say in a
match is `fibsd.tools.bots.player`'s business; what to play is the strategy's.
"""

from __future__ import annotations

import collections
import logging
import re

import trio

from fibsd.tools.bots.player import BotConfig, BotPlayer, MatchResult
from fibsd.tools.bots.strategy import Strategy
from protocol.framing import LineReader, encode_line
from protocol.messages import Welcome, parse_server_line
from protocol.wording import Text

__all__ = ["BotClient", "ConnectionLost", "LoginFailed"]

log = logging.getLogger("fibsd.tools.bots")

CLIP_VERSION = 1008
MAX_LINE_BYTES = 16384  # server lines are short; this only bounds a misbehaving server
_RECEIVE_BYTES = 65536
_TELNET_ECHO = re.compile(rb"\xff[\xfb\xfc]\x01")  # IAC WILL/WONT ECHO around password prompts
_CONNECTION_ERRORS = (OSError, EOFError, trio.BrokenResourceError, trio.ClosedResourceError)


class LoginFailed(Exception):
    """The server refused the name/password (and registration was off or refused too)."""


class ConnectionLost(Exception):
    """Every reconnection attempt failed."""


class _Wire:
    """One connection: complete lines in order, and prompts (which end without CRLF)."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        # A server line's leading spaces are part of it (`show saved` rows: issue 20 §2).
        self._reader = LineReader(MAX_LINE_BYTES, keep_spaces=True)
        self._lines: collections.deque[str] = collections.deque()
        self._tail = b""  # the last bytes received, to recognise a pending prompt

    async def send(self, line: str) -> None:
        await self.stream.send_all(encode_line(line))

    async def _receive(self) -> None:
        data = bytes(await self.stream.receive_some(_RECEIVE_BYTES))
        if not data:
            raise EOFError("the server closed the connection")
        self._tail = (self._tail + data)[-256:]
        self._lines.extend(self._reader.feed(data))

    def _pending_prompt(self, prompts: tuple[str, ...]) -> str | None:
        if self._lines or not self._reader.pending_bytes:
            return None
        tail = _TELNET_ECHO.sub(b"", self._tail)
        for prompt in prompts:
            if tail.endswith(prompt.encode()):
                # The server waits for an answer now, so nothing else is buffered: start a
                # fresh reader so that the next line does not begin with the prompt.
                self._reader = LineReader(MAX_LINE_BYTES, keep_spaces=True)
                self._tail = b""
                return prompt
        return None

    async def read_line(self) -> str:
        while not self._lines:
            await self._receive()
        return self._lines.popleft()

    async def line_or_prompt(self, *prompts: str) -> tuple[str | None, str | None]:
        """The next line, or (None, prompt) when the server waits at one of `prompts`."""
        while True:
            if self._lines:
                return self._lines.popleft(), None
            prompt = self._pending_prompt(prompts)
            if prompt is not None:
                return None, prompt
            await self._receive()

    async def until_prompt(self, *prompts: str) -> tuple[str, list[str]]:
        """Lines up to the next of `prompts`; returns the prompt and the lines."""
        seen: list[str] = []
        while True:
            line, prompt = await self.line_or_prompt(*prompts)
            if prompt is not None:
                return prompt, seen
            assert line is not None
            seen.append(line)


class _Pacer:
    """A token bucket for the bot's own commands (so that the server never refuses one)."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = float(burst)
        self.tokens = float(burst)
        self.updated = trio.current_time()

    async def wait(self) -> None:
        while True:
            now = trio.current_time()
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.per_second)
            self.updated = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await trio.sleep((1 - self.tokens) / self.per_second)


class BotClient:
    """A bot: `await BotClient(config, strategy).run()` plays until `stop()` is called,
    `config.matches` matches are over, or the server stays unreachable."""

    def __init__(self, config: BotConfig, strategy: Strategy) -> None:
        self.config = config
        self.player = BotPlayer(config, strategy)
        self.logins = 0  # successful logins so far (more than one: it reconnected)
        self.recent_lines: collections.deque[str] = collections.deque(maxlen=200)
        self._stopping = False
        self._scope: trio.CancelScope | None = None
        self._failures = 0  # connection failures in a row

    @property
    def results(self) -> list[MatchResult]:
        return self.player.results

    def stop(self) -> None:
        """Log out and end `run` (callable from any task of the same trio run)."""
        self._stopping = True
        if self._scope is not None:
            self._scope.cancel()

    async def run(self) -> list[MatchResult]:
        """Connect, play, reconnect after drops; return the finished matches."""
        while not self._stopping and not self.player.finished:
            try:
                await self._one_connection()
            except (*_CONNECTION_ERRORS, trio.TooSlowError) as error:
                if self._stopping:
                    break
                self._failures += 1
                if self._failures > self.config.reconnect_attempts:
                    raise ConnectionLost(
                        f"{self.config.name}: no connection after {self._failures - 1} retries"
                    ) from error
                delay = min(self.config.reconnect_max_delay_seconds,
                            self.config.reconnect_delay_seconds * 2 ** (self._failures - 1))
                log.info("%s: connection lost (%r); retrying in %.2f s",
                         self.config.name, error, delay)
                await trio.sleep(delay)
        return self.results

    async def _connect(self) -> _Wire:
        with trio.fail_after(self.config.connect_timeout_seconds):
            stream = await trio.open_tcp_stream(self.config.host, self.config.port)
        return _Wire(stream)

    async def _one_connection(self) -> None:
        wire = await self._connect()
        try:
            with trio.fail_after(self.config.login_timeout_seconds):
                after_welcome = await self._clip_login(wire)
                if after_welcome is None and self.config.register:
                    await wire.stream.aclose()
                    await self._register()
                    wire = await self._connect()
                    after_welcome = await self._clip_login(wire)
            if after_welcome is None:
                raise LoginFailed(f"the server refused the login of {self.config.name}")
            self.logins += 1
            self._failures = 0
            self.player.connected()
            log.info("%s: logged in (login %d)", self.config.name, self.logins)
            pacer = _Pacer(self.config.commands_per_second, self.config.command_burst)
            with trio.CancelScope() as self._scope:
                for line in after_welcome:
                    await self._handle(wire, line, pacer)
                while not self._stopping and not self.player.finished:
                    await self._handle(wire, await wire.read_line(), pacer)
            await self._log_out(wire)
        finally:
            self._scope = None
            await wire.stream.aclose()

    async def _handle(self, wire: _Wire, line: str, pacer: _Pacer) -> None:
        self.recent_lines.append(line)
        for answer in await self.player.handle_line(line):
            await pacer.wait()
            self.recent_lines.append(f"> {answer}")
            await wire.send(answer)

    async def _log_out(self, wire: _Wire) -> None:
        with trio.CancelScope(shield=True), trio.move_on_after(2.0):
            try:
                await wire.send("bye")
                while True:  # until the server closes the connection
                    await wire.read_line()
            except _CONNECTION_ERRORS:
                pass

    async def _clip_login(self, wire: _Wire) -> list[str] | None:
        """`login CLIENT 1008 NAME PASSWORD`; the lines from the welcome on, or None if
        the server answered with a new `login: ` prompt (a failed login, §2.2)."""
        login_prompt = Text.LOGIN_PROMPT.value
        await wire.until_prompt(login_prompt)
        config = self.config
        await wire.send(f"login {config.client_name} {CLIP_VERSION} {config.name} {config.password}")
        while True:
            line, prompt = await wire.line_or_prompt(login_prompt)
            if prompt is not None:
                return None
            assert line is not None
            if isinstance(parse_server_line(line), Welcome):
                return [line]

    async def _register(self) -> None:
        """Create the account as a guest (§2.5), then log out; LoginFailed if refused."""
        name, password = self.config.name, self.config.password
        wire = await self._connect()
        try:
            await wire.until_prompt(Text.LOGIN_PROMPT.value)
            await wire.send("guest")
            await wire.until_prompt(Text.COMMAND_PROMPT.value)
            await wire.send(f"name {name}")
            prompt, lines = await wire.until_prompt(
                Text.GIVE_PASSWORD_PROMPT.value, Text.COMMAND_PROMPT.value)
            if prompt != Text.GIVE_PASSWORD_PROMPT.value:
                raise LoginFailed(f"cannot register {name}: {' / '.join(lines)}")
            await wire.send(password)
            prompt, lines = await wire.until_prompt(
                Text.RETYPE_PASSWORD_PROMPT.value, Text.GIVE_PASSWORD_PROMPT.value)
            if prompt != Text.RETYPE_PASSWORD_PROMPT.value:
                raise LoginFailed(f"cannot register {name}: {' / '.join(lines)}")
            await wire.send(password)
            _, lines = await wire.until_prompt(Text.COMMAND_PROMPT.value)
            if Text.REGISTERED.value not in lines:
                raise LoginFailed(f"cannot register {name}: {' / '.join(lines)}")
            log.info("%s: registered", name)
            await self._log_out(wire)
        finally:
            await wire.stream.aclose()
