"""A bot-vs-bot match player for load: reacts to the FIBS match flow as fast as it can.

Owns one bot's reactions to server lines (roll or double, move a random legal play
computed with `fibsd.rules` from the last `board:` line, accept or reject doubles at
random, join the next game, re-invite after a match) and the measurement of latency from
each command to the first line answering it. Knows nothing of the server's internals.

A bot keeps at most one command outstanding; the first line received after sending it
that is not a broadcast (CLIP numbered lines such as `5`/`7`/`8`, match start and end
reports) is its answer.
"""

from __future__ import annotations

import random
import re
import time

import attrs
import trio

from fibsd.rules import legal_plays
from fibsd.tools.bots.moves import play_line, position_of
from fibsd.tools.loadgen.wire import LineClient
from protocol.board import BoardLine

_MATCH_WON = re.compile(r"^(You win|\S+ wins) the \d+ point match ")
_BROADCAST_MARKS = (" point match against ", " start a ", " start an unlimited ", " has left the game")
# `** ` lines that report progress rather than refuse a command.
_INFO_PREFIXES = (
    "** You invited ",
    "** Player ",
    "** You are now playing",
    "** Please wait for ",
    "** You're now ready",
    "** Will send rawboards",
    "** You terminated",
    "** The dice of this match are committed",
    "** The dice seed of this match was",
)


@attrs.define
class MatchStats:
    """Counters shared by all bots of one run."""

    latencies: list[float] = attrs.field(factory=list)
    #: The slowest measured answer: (seconds, the command, the line that answered it).
    slowest: tuple[float, str, str] = (0.0, "", "")
    commands: int = 0
    #: Commands whose answer arrived (measured or not).
    answered: int = 0
    plays: int = 0
    rolls: int = 0
    games: int = 0
    matches: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    errors: int = 0
    disconnects: int = 0
    stalls: int = 0
    error_samples: list[str] = attrs.field(factory=list)
    measuring: bool = True

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(text)


def play_command(board_line: str, rng: random.Random) -> str | None:
    """`move ...` for a random legal play on this board (the viewer is on roll), or None."""
    board = BoardLine.decode(board_line)
    plays = legal_plays(position_of(board), board.player_dice)
    if not plays or not plays[0].moves:
        return None
    return play_line(plays[rng.randrange(len(plays))], board.colour)


@attrs.define
class BotOptions:
    match_length: int = 5
    double_probability: float = 0.05
    take_probability: float = 0.7
    stall_seconds: float = 30.0
    #: Mean think time before each command, in ms (exponentially distributed; 0: none).
    think_ms: float = 0.0


class MatchBot:
    """One logged-in session playing matches against one fixed opponent."""

    def __init__(self, name: str, opponent: str, *, inviter: bool, client: LineClient,
                 stats: MatchStats, rng: random.Random, options: BotOptions,
                 think_rng: random.Random | None = None) -> None:
        self.name = name
        self.opponent = opponent
        self.inviter = inviter
        self.client = client
        self.stats = stats
        self.rng = rng
        self.options = options
        #: Draws the think times; its own generator, so that the plays chosen with a
        #: given seed are the same with or without think time.
        self.think_rng = think_rng or random.Random(rng.random())
        self._sent_at: float | None = None
        self._sent_line = ""
        self._board: str | None = None
        self._move_on_next_board = False
        self._doubles_line = f"{opponent} doubles. Type 'accept' or 'reject'."
        self._invited_line = f"Type 'join {opponent}' to accept."

    async def command(self, line: str) -> None:
        """Think (if asked to), then send `line`; its latency is measured from the send."""
        if self.options.think_ms > 0:
            await trio.sleep(self.think_rng.expovariate(1000.0 / self.options.think_ms))
        self._sent_at = time.perf_counter()
        self._sent_line = line
        self.stats.commands += 1
        await self.client.send(line)

    async def setup(self) -> None:
        """boardstyle 3, moreboards on (a board after each roll), ready on."""
        for line, answer in (
            ("set boardstyle 3", "Value of 'boardstyle' set to 3."),
            ("toggle moreboards", "** Will send rawboards after rolling."),
            ("toggle ready", "** You're now ready to invite or join someone."),
        ):
            await self.client.send(line)
            await self._expect(answer)

    async def _expect(self, wanted: str) -> None:
        for _ in range(100_000):
            if await self.client.read_line() == wanted:
                return
        raise RuntimeError(f"{self.name} never got {wanted!r}")

    async def invite(self) -> None:
        length = self.options.match_length
        await self.command(f"invite {self.opponent} {length if length > 0 else 'unlimited'}")

    async def play(self) -> None:
        """React to lines until cancelled (the caller bounds the time)."""
        if self.inviter:
            await self.invite()
        while True:
            # Lines already received are taken without a timeout scope: most are the
            # broadcasts of thousands of users, and a cancel scope per line made the load
            # client, not the server, the bottleneck at 1,000 matches.
            line = self.client.buffered_line()
            if line is None:
                with trio.move_on_after(self.options.stall_seconds):
                    line = await self.client.read_line()
                if line is None:
                    self.stats.stalls += 1
                    self.stats.error(f"{self.name}: no line for {self.options.stall_seconds} s")
                    continue
            if line[:1].isdigit():
                continue  # CLIP 5/7/8/12/13...: presence and talk, never an answer here
            if self._sent_at is not None and not _is_broadcast(line):
                self.stats.answered += 1
                if self.stats.measuring:
                    latency = time.perf_counter() - self._sent_at
                    self.stats.latencies.append(latency)
                    if latency > self.stats.slowest[0]:
                        self.stats.slowest = (latency, self._sent_line, line)
                self._sent_at = None
            await self._react(line)

    async def _react(self, line: str) -> None:
        if line.startswith("board:"):
            self._board = line
            if self._move_on_next_board:
                self._move_on_next_board = False
                await self._move()
            return
        if line == "It's your turn. Please roll or double":
            if self.rng.random() < self.options.double_probability:
                self.stats.doubles += 1
                await self.command("double")
            else:
                self.stats.rolls += 1
                await self.command("roll")
        elif line.startswith("Please move "):
            await self._move()
        elif line == "It's your turn to move.":
            self._move_on_next_board = True  # the opening board follows
        elif line == self._doubles_line:
            if self.rng.random() < self.options.take_probability:
                self.stats.takes += 1
                await self.command("accept")
            else:
                self.stats.passes += 1
                await self.command("reject")
        elif line.startswith("Type 'join' if you want to play the next game"):
            if self.inviter:
                self.stats.games += 1
            await self.command("join")
        elif line == self._invited_line and not self.inviter:
            await self.command(f"join {self.opponent}")
        elif _MATCH_WON.match(line):
            if self.inviter:
                self.stats.games += 1
                self.stats.matches += 1
                await self.invite()
        elif line.startswith("** ") and not line.startswith(_INFO_PREFIXES):
            self.stats.error(f"{self.name}: {line}")

    async def _move(self) -> None:
        if self._board is None:
            self.stats.error(f"{self.name}: asked to move before any board")
            return
        command = play_command(self._board, self.rng)
        if command is None:
            self.stats.error(f"{self.name}: asked to move without a legal play: {self._board}")
            return
        self.stats.plays += 1
        await self.command(command)


def _is_broadcast(line: str) -> bool:
    if line[:1].isdigit():
        return True
    return any(mark in line for mark in _BROADCAST_MARKS)

