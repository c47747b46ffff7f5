"""GNU Backgammon as a strategy: gnubg runs as a separate process, we talk to its
`external` interface.

Owns the gnubg process (started with a command file, waited for with a timeout, killed by
its PID when the strategy closes), the socket to it, and the translation of its answers.
gnubg is GPL: it is never imported, only run, and only by a bot, never by the server.

The `external` interface, as verified with gnubg 1.07: `external PATH` (a unix socket; or
`HOST:PORT`) makes gnubg listen and accept one connection at a time. Each line we send is
a FIBS `board:` line (§4.2, from the bot's own view: `You`, its colour and dice), and
gnubg answers one line, judged from the fields of that board:

* dice showing for the player on turn: a play in gnubg's notation, in the mover's own
  numbering (24→1; the external interface writes the bar as 25 and off as 0, e.g.
  `25/22 6/0`, where gnubg's own notation says `bar`/`off`, both accepted here; `*`
  for a hit, `13/7/5` for one checker, `(2)` for repeats are accepted too), e.g.
  `24/18 13/11` — also for the X player, so it is translated back to FIBS
  absolute points for the bot's colour here;
* no dice, the player's turn: `double` or `roll`;
* field 40 "was doubled" set: `take`, `drop` or `beaver`.

`evaluation fibsboard BOARD plies N cube on` answers six numbers for the player on turn:
P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon) and an
equity; resignations are judged from those.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import attrs
import trio

from fibsd.rules import BAR, OFF, Play, Position
from fibsd.tools.bots.moves import position_of
from protocol.board import BoardLine

__all__ = ["DEFAULT_GNUBG", "GnubgError", "GnubgStrategy", "apply_gnubg_move", "gnubg_hops"]

log = logging.getLogger("fibsd.tools.bots.gnubg")

DEFAULT_GNUBG = "/usr/games/gnubg"
_HOP_TOKEN = re.compile(r"^(?P<path>(?:bar|off|\d+)\*?(?:/(?:bar|off|\d+)\*?)+)(?:\((?P<count>[1-4])\))?$")


class GnubgError(Exception):
    """gnubg could not be started, or did not answer in time or sensibly."""


def _point(word: str) -> int:
    word = word.rstrip("*")
    if word == "bar":
        return BAR
    if word == "off":
        return OFF
    point = int(word)  # the external interface writes 25 for the bar and 0 for off
    if not OFF <= point <= BAR:
        raise ValueError(f"no such point in a gnubg move: {word!r}")
    return point


def gnubg_hops(text: str) -> list[tuple[int, int]]:
    """The (from, to) steps of a gnubg play such as `bar/22* 13/7/5 6/off(2)`, in the
    mover's own numbering; one step may span several dice (`24/16` for 24/20/16)."""
    hops: list[tuple[int, int]] = []
    for token in text.split():
        found = _HOP_TOKEN.match(token)
        if found is None:
            raise ValueError(f"not a gnubg move: {token!r}")
        points = [_point(word) for word in found["path"].split("/")]
        steps = list(itertools.pairwise(points))
        hops += steps * int(found["count"] or 1)
    return hops


def apply_gnubg_move(position: Position, text: str) -> Position:
    """The position after the mover plays gnubg's `text` (no legality check)."""
    me, opp = list(position.me), list(position.opp)
    for start, end in gnubg_hops(text):
        if me[start] <= 0:
            raise ValueError(f"no checker on {start} for {text!r}")
        me[start] -= 1
        me[end] += 1
        if end != OFF and opp[25 - end] == 1:  # a blot there is hit
            opp[25 - end] = 0
            opp[BAR] += 1
    return Position(tuple(me), tuple(opp))


def _command_file(socket_path: Path, plies: int, noise: float = 0.0) -> str:
    # Fastest useful settings: one thread, `plies`-ply evaluation for plays and cube
    # (0-ply answers in about a millisecond), then listen for the bot. Noise (gnubg's
    # own way to play weaker) is a random error of that standard deviation in equity.
    noisy = [
        f"set evaluation {kind} evaluation {setting}"
        for kind in ("chequerplay", "cubedecision")
        for setting in (f"noise {noise:g}", "deterministic off")
    ] if noise else []
    return "\n".join([
        "set threads 1",
        f"set evaluation chequerplay evaluation plies {plies}",
        f"set evaluation cubedecision evaluation plies {plies}",
        *noisy,
        f"external {socket_path}",
        "",
    ])


_PR_SET_PDEATHSIG = 1


def _find_prctl() -> Callable[..., int] | None:
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None  # not Linux: aclose still stops gnubg by its PID
    return prctl


#: Looked up once, here: the child only calls it (nothing is loaded between fork and exec).
_PRCTL = _find_prctl()


def _die_with(parent: int) -> Callable[[], None]:
    """Run in gnubg's process before it starts: the kernel kills it when the bot's thread
    that started it dies (so a kill -9 of the bot leaves no gnubg behind)."""
    def arrange() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)
    return arrange


async def _exited(process: subprocess.Popen[bytes]) -> None:
    """Wait, without blocking the event loop, until `process` has exited, and reap it."""
    pidfd = os.pidfd_open(process.pid)  # readable once the process has exited
    try:
        await trio.lowlevel.wait_readable(pidfd)
    finally:
        os.close(pidfd)
    process.wait()  # (it has exited: this only reaps it)


class GnubgStrategy:
    """Plays and cube decisions from GNU Backgammon. Use `async with
    GnubgStrategy.started(...) as strategy:` so that the gnubg process is stopped."""

    def __init__(
        self,
        *,
        executable: str = DEFAULT_GNUBG,
        plies: int = 0,
        noise: float = 0.0,
        startup_timeout_seconds: float = 30.0,
        answer_timeout_seconds: float = 30.0,
    ) -> None:
        self.executable = executable
        self.plies = plies
        self.noise = noise
        self.startup_timeout_seconds = startup_timeout_seconds
        self.answer_timeout_seconds = answer_timeout_seconds
        self.unmatched_plays = 0  # gnubg answers that matched no legal play (should stay 0)
        self._process: subprocess.Popen[bytes] | None = None
        self._stream: trio.SocketStream | None = None
        self._directory: Path | None = None
        self._buffer = b""
        self._lock = trio.Lock()

    @classmethod
    @contextlib.asynccontextmanager
    async def started(cls, **options: object) -> AsyncIterator[GnubgStrategy]:
        strategy = cls(**options)  # type: ignore[arg-type]
        try:
            await strategy.start()
            yield strategy
        finally:
            await strategy.aclose()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self) -> None:
        """Start gnubg and connect to its external socket (GnubgError on failure)."""
        if not (Path(self.executable).is_file() and os.access(self.executable, os.X_OK)):
            raise GnubgError(f"GNU Backgammon not found at {self.executable} (apt-get install gnubg)")
        self._directory = Path(tempfile.mkdtemp(prefix="fibsd-gnubg-"))
        socket_path = self._directory / "external.sock"
        commands = self._directory / "commands.txt"
        commands.write_text(_command_file(socket_path, self.plies, self.noise))
        output = (self._directory / "gnubg.log").open("wb")
        try:
            # Started from the event loop's own thread, not a worker thread as trio's
            # open_process does: the parent-death signal follows the thread that started
            # the child, and this one lives as long as the bot.
            self._process = subprocess.Popen(  # noqa: ASYNC220
                [self.executable, "--tty", "--quiet", "--no-rc", "--commands", str(commands)],
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                # gnubg keeps preferences under $HOME/.gnubg: give it a private one.
                env={**os.environ, "HOME": str(self._directory)},
                preexec_fn=_die_with(os.getpid()),  # noqa: PLW1509
            )
        except OSError as error:
            raise GnubgError(f"gnubg could not be started: {error}") from None
        finally:
            output.close()
        with trio.move_on_after(self.startup_timeout_seconds):
            while self._stream is None:
                if self._process.poll() is not None:
                    raise GnubgError(f"gnubg exited at start: {self._log_tail()}")
                try:
                    self._stream = await trio.open_unix_socket(str(socket_path))
                except OSError:
                    await trio.sleep(0.05)  # gnubg is still loading its networks
        if self._stream is None:
            raise GnubgError(f"gnubg did not listen within {self.startup_timeout_seconds} s")
        log.info("gnubg %d ready on %s", self._process.pid, socket_path)

    def _log_tail(self) -> str:
        if self._directory is None:
            return ""
        try:
            return (self._directory / "gnubg.log").read_text(errors="replace")[-500:]
        except OSError:
            return ""

    async def aclose(self) -> None:
        """Close the socket and stop the gnubg process we started (by its PID)."""
        with trio.CancelScope(shield=True):
            if self._stream is not None:
                await self._stream.aclose()
                self._stream = None
            process, self._process = self._process, None
            if process is not None and process.poll() is None:
                process.terminate()
                with trio.move_on_after(5.0) as waited:
                    await _exited(process)
                if waited.cancelled_caught:
                    process.kill()
                    await _exited(process)
            if self._directory is not None:
                shutil.rmtree(self._directory, ignore_errors=True)
                self._directory = None

    async def ask(self, line: str) -> str:
        """Send one line to gnubg's external interface and return its one-line answer."""
        async with self._lock:
            stream = self._stream
            if stream is None:
                raise GnubgError("gnubg is not running")
            try:
                with trio.fail_after(self.answer_timeout_seconds):
                    await stream.send_all(line.encode() + b"\r\n")
                    while b"\n" not in self._buffer:
                        data = await stream.receive_some(4096)
                        if not data:
                            raise GnubgError("gnubg closed the external connection")
                        self._buffer += data
            except trio.TooSlowError:
                raise GnubgError(f"gnubg did not answer {line!r} in time") from None
            answer, _, self._buffer = self._buffer.partition(b"\n")
            text = answer.decode(errors="replace").strip()
            log.debug("gnubg: %s -> %r", line, text)
            return text

    # ------------------------------------------------------------------ Strategy

    async def choose_play(self, board: BoardLine, plays: Sequence[Play]) -> Play:
        answer = await self.ask(board.encode())
        try:
            wanted = apply_gnubg_move(position_of(board), answer)
        except ValueError as error:
            wanted = None
            log.warning("gnubg answered %r to %s: %s", answer, board.encode(), error)
        for play in plays:
            if play.result == wanted:
                return play
        self.unmatched_plays += 1
        log.warning("gnubg's play %r is none of the %d legal plays; playing the first",
                    answer, len(plays))
        return plays[0]

    async def should_double(self, board: BoardLine) -> bool:
        before_roll = attrs.evolve(board, turn=board.colour, player_dice=(0, 0),
                                   opponent_dice=(0, 0), was_doubled=False)
        return await self.ask(before_roll.encode()) == "double"

    async def should_accept_double(self, board: BoardLine) -> bool:
        doubled = attrs.evolve(
            board, turn=board.colour.opponent, player_dice=(0, 0), opponent_dice=(0, 0),
            was_doubled=True, player_may_double=False, opponent_may_double=False,
        )
        return await self.ask(doubled.encode()) in ("take", "beaver")

    async def should_accept_resignation(self, board: BoardLine, points: int) -> bool:
        if not board.is_unlimited and board.player_score + points >= board.match_length:
            return True  # the resignation wins the match
        on_roll = attrs.evolve(board, turn=board.colour, player_dice=(0, 0),
                               opponent_dice=(0, 0), was_doubled=False)
        answer = await self.ask(f"evaluation fibsboard {on_roll.encode()} plies {self.plies} cube on")
        try:
            win, win_g, win_bg, lose_g, lose_bg = (float(x) for x in answer.split()[:5])
        except ValueError:
            raise GnubgError(f"gnubg's evaluation is not five numbers: {answer!r}") from None
        expected_per_cube = 2 * win - 1 + win_g - lose_g + win_bg - lose_bg
        return points >= board.cube * expected_per_cube
