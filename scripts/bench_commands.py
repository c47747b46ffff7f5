"""What one match command costs the core, counted rather than timed: function calls per
command, in total and per stage.

M matches between 2M CLIP players (unlimited length, no doubles, `boardstyle 3` and
`moreboards` as bots set them), beside S more CLIP users online who only read, run
through the core (`tests.app.driver.CoreDriver`: an in-memory store, seeded dice, the
writes committed and every line rendered for its recipient as the shell would). Each
player reacts to its own lines as the load generator's bots do (roll, a random legal
play, join the next game). After a warm-up, N commands are played with a call counter on, and
the script prints the Python function calls per command (counted exactly with
`sys.setprofile`): all of them, and those made inside each stage of the path (the command's handling, the board lines, the narration, saving
the match, rendering the deliveries), with the mean time per command beside them (timed
without the profiler; the counts are the figure that does not depend on the machine or
its load).

Usage: scripts/bench-commands [--matches M] [--online S] [--commands N] [--seed N].
Figures go to docs/benchmarks.md; they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fibsd.tools.loadgen.bot import play_command  # noqa: E402
from tests.app.driver import CoreDriver  # noqa: E402
from tests.app.test_chouette_fuzz import RandomDice  # noqa: E402

#: (label, the function whose calls and callees count as the stage: file suffix, name)
STAGES = (
    ("the command's handling in the core", ("fibsd/app/dispatch.py", "handle")),
    ("  board lines", ("fibsd/app/play/boards.py", "board_for")),
    ("  narration", ("fibsd/app/play/narration.py", "said")),
    ("  saving the match (the patch)", ("fibsd/app/play/table.py", "persist")),
    ("  the rules (plays, moves required)", ("fibsd/rules/match.py", "move")),
    ("rendering the deliveries", ("tests/app/driver.py", "_deliver")),
    ("committing the writes (in-memory SQLite)", ("fibsd/store/families/__init__.py", "run_batch")),
)


def _name(number: int) -> str:
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters = chr(97 + digit) + letters
        if number == 0:
            return "u" + letters
        number -= 1


class Players:
    """The players' reactions to what they were told, as the load generator's bots."""

    def __init__(self, driver: CoreDriver, pairs: list[tuple[str, str]], rng: random.Random) -> None:
        self.driver = driver
        self.rng = rng
        self.board: dict[str, str] = {}
        self.move_on_board: set[str] = set()
        self.todo: list[tuple[str, str]] = []
        for inviter, invitee in pairs:
            self.todo.append((inviter, f"invite {invitee} unlimited"))
            self.todo.append((invitee, f"join {inviter}"))

    def step(self) -> bool:
        """One command of the next player with something to do; False if nobody has."""
        while self.todo:
            name, line = self.todo.pop(0)
            if line.startswith("move"):
                command = play_command(self.board[name], self.rng)
                if command is None:
                    continue
                line = command
            self.driver.take(name)
            self.driver.feed(self.driver.sessions[name], line)
            for player in {name, *self._opponents(name)}:
                self._react(player, self.driver.take(player))
            return True
        return False

    def _opponents(self, name: str) -> list[str]:
        session = self.driver.sessions[name]
        table = session.table
        if table is None:
            return []
        return [seat.name for seat in table.seats if seat is not None and seat.name != name]

    def _react(self, name: str, lines: list[str]) -> None:
        for line in lines:
            if line.startswith("board:"):
                self.board[name] = line
                if name in self.move_on_board:
                    self.move_on_board.discard(name)
                    self.todo.append((name, "move"))
            elif line == "It's your turn. Please roll or double":
                self.todo.append((name, "roll"))
            elif line.startswith("Please move "):
                self.todo.append((name, "move"))
            elif line == "It's your turn to move.":
                self.move_on_board.add(name)
            elif line.startswith("Type 'join' if you want to play the next game"):
                self.todo.append((name, "join"))


class CallCounter:
    """Counts Python function calls (`sys.setprofile`'s "call" events), all of them and
    those made while a stage's function is on the stack: exact and deterministic."""

    def __init__(self, stages: tuple[tuple[str, tuple[str, str]], ...]) -> None:
        self.targets = {target: label for label, target in stages}
        self.total = 0
        self.by_stage = dict.fromkeys((label for label, _ in stages), 0)
        self._active: dict[str, int] = {}
        self._frames: dict[int, str] = {}

    def __call__(self, frame: object, event: str, _arg: object) -> None:
        if event == "call":
            self.total += 1
            for label in self._active:
                self.by_stage[label] += 1
            code = frame.f_code  # type: ignore[attr-defined]
            label = self.targets.get((code.co_filename, code.co_name)) if code.co_filename.endswith(
                self._suffixes) else None
            if label is not None:
                self.by_stage[label] += 1
                self._active[label] = self._active.get(label, 0) + 1
                self._frames[id(frame)] = label
        elif event == "return":
            label = self._frames.pop(id(frame), None)
            if label is not None:
                self._active[label] -= 1
                if not self._active[label]:
                    del self._active[label]

    def resolve(self) -> None:
        """Turn the file suffixes of the targets into the full paths Python reports."""
        root = Path(__file__).resolve().parent.parent
        self.targets = {(str(root / suffix), name): label
                        for (suffix, name), label in self.targets.items()}
        self._suffixes = tuple({path for path, _ in self.targets})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--online", type=int, default=400, help="more CLIP users who only read")
    parser.add_argument("--commands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    driver = CoreDriver(RandomDice(random.Random(args.seed)), limits__command_burst=100_000,
                        limits__commands_per_second=10_000.0)
    names = [_name(n) for n in range(2 * args.matches + args.online)]
    driver.create(*names, ready=True)
    for name in names:
        driver.log_in(name)
    players = names[:2 * args.matches]
    for name in players:
        driver.send(name, "set boardstyle 3")
        driver.send(name, "toggle moreboards")
    game = Players(driver, list(zip(players[::2], players[1::2])), rng)
    for _ in range(2 * args.commands):  # warm-up: the matches start and settle
        game.step()
    started = time.perf_counter()
    timed = sum(game.step() for _ in range(args.commands))
    seconds = time.perf_counter() - started
    counter = CallCounter(STAGES)
    counter.resolve()
    sys.setprofile(counter)
    try:
        counted = sum(game.step() for _ in range(args.commands))
    finally:
        sys.setprofile(None)
    print(f"matches {args.matches}, CLIP users online {len(names)}, seed {args.seed}")
    print(f"commands timed {timed}, counted {counted}")
    print(f"mean time per command (no profiler)     {seconds / max(timed, 1) * 1e6:8.1f} us")
    print(f"function calls per command, all         {counter.total / max(counted, 1):8.0f}")
    for label, _target in STAGES:
        print(f"{label:<40}{counter.by_stage[label] / max(counted, 1):8.0f}")


if __name__ == "__main__":
    main()
