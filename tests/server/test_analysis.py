"""Engine analysis end to end: a match played through the server, analysed by the real
GNU Backgammon in a worker process, and checked against gnubg's own statistics for the
same exported .mat at the same plies (docs/analysis.md)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import trio

from fibsd.infra.wallclock import SystemClock
from fibsd.tools.bots.client import BotClient
from fibsd.tools.bots.player import BotConfig
from fibsd.tools.bots.strategy import RandomStrategy
from tests.server.helpers import telnet_login

GNUBG = "/usr/games/gnubg"
#: How long a real gnubg may take: its workers run at the lowest CPU priority, so on a
#: machine busy with other work (eight test suites on two cores) it waits its turn.
LONG = 600


@pytest.fixture(autouse=True)
def _gnubg_is_installed() -> None:
    # A missing gnubg fails (./scripts/test installs it), never skips: a skip would hide
    # every analysis test behind one missing package.
    if not Path(GNUBG).exists():
        pytest.fail(f"GNU Backgammon is missing at {GNUBG}: apt-get install -y gnubg")


PLAYER_LINE = re.compile(
    r"Player (?P<name>\S+): PR (?P<pr>\S+) \((?P<band>[a-z ]+)\); (?P<decisions>\d+) decisions; "
    r"checker (?P<errors>\d+) errors, (?P<blunders>\d+) blunders; "
    r"cube (?P<cube_errors>\d+) errors, (?P<cube_blunders>\d+) blunders; luck (?P<luck>[+-]\d+\.\d+)$"
)
MOVE_LINE = re.compile(
    r"Game (?P<game>\d+) (?P<name>\S+) (?P<position>\S{14}) (?P<dice>\d\d|-) "
    r"(?P<kind>error|blunder|cube-error|cube-blunder): (?P<played>.+) \| best: (?P<best>.+) "
    r"\| -(?P<lost>\d+\.\d{3})$"
)


def ending(text: str) -> Any:
    """A line that is `text`, after the telnet prompt that may precede it."""
    return lambda line: line.removeprefix("> ") == text


async def play_match(port: int, length: int) -> None:
    """alice and bob, two random bots, play one match through the server."""
    alice = BotClient(BotConfig("alice", "secret", port=port, invite="bob", invite_length=length,
                                matches=1), RandomStrategy(seed=3))
    bob = BotClient(BotConfig("bob", "secret", port=port, accept_from=frozenset({"alice"}),
                              matches=1), RandomStrategy(seed=4))
    with trio.fail_after(LONG):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bob.run)
            nursery.start_soon(alice.run)
    assert len(alice.results) == 1


SECTIONS = {"Chequerplay statistics": "checker", "Luck statistics": "luck",
            "Cube statistics": "cube", "Overall statistics": "overall"}


def _figures(text: str) -> list[float]:
    """The numbers of a row, without the parenthesised MWC figures."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            break
        text = shorter
    return [float(word.rstrip("%")) for word in text.split()]


def gnubg_statistics(mat: Path, plies: int) -> dict[str, list[float]]:
    """gnubg's own `show statistics match` for a .mat: each row as "section: label" and
    its figures (alice's, then bob's), as printed."""
    commands = mat.with_suffix(".commands")
    commands.write_text(
        f"set analysis chequerplay evaluation plies {plies}\n"
        f"set analysis cubedecision evaluation plies {plies}\n"
        f"import mat {mat}\nanalyse match\nshow statistics match\nquit\n")
    shown = subprocess.run([GNUBG, "-t", "-q", "-r", "-c", str(commands)], capture_output=True,
                           text=True, timeout=300, check=True).stdout
    rows: dict[str, list[float]] = {}
    section = None
    for line in shown.splitlines():
        if line.strip() in SECTIONS:
            section = SECTIONS[line.strip()]
            continue
        label, rest = line[:41].strip(), line[41:]
        if section and label and rest.strip():
            try:
                rows[f"{section}: {label}"] = _figures(rest)
            except ValueError:
                pass  # a row of words (ratings)
    return rows


async def test_a_match_played_through_the_server_gets_gnubgs_own_pr(
    start_server: Any, tmp_path: Path,
) -> None:
    running = await start_server(clock=SystemClock(), **{
        "analysis.analysis_checker_plies": 0, "analysis.analysis_cube_plies": 0})
    await play_match(running.port, 3)
    alice, _ = await telnet_login(running, "alice")
    await alice.send("export")
    await alice.read_until(lambda line: line.startswith("Your finished matches"))
    record_id = int((await alice.read_line()).split()[0])

    await alice.send(f"analyse {record_id}")
    await alice.read_until(ending(f"Match {record_id} is queued for analysis (1st in the "
                                  "queue); you will be told when it is ready."))
    await alice.read_until(ending(f"** The analysis of match {record_id} is ready: "
                                  f"type 'analysis {record_id}'."), timeout=LONG)

    await alice.send(f"analysis {record_id}")
    header = (await alice.read_until(lambda line: "Analysis of match" in line))[-1]
    assert header.removeprefix("> ").startswith(f"Analysis of match {record_id} (alice - bob, 3 point, ")
    assert header.endswith("by GNU Backgammon, 0-ply checker play, 0-ply cube:")
    shown = [PLAYER_LINE.match(await alice.read_line()) for _ in range(2)]
    assert shown[0] is not None and shown[1] is not None
    assert [m["name"] for m in shown if m] == ["alice", "bob"]

    await alice.send(f"export {record_id}")
    mat_lines = await alice.read_until(lambda line: "and the match" in line)
    mat = tmp_path / "match.mat"
    mat.write_text("\n".join(line.removeprefix("> ") for line in mat_lines) + "\n")
    gnubg = gnubg_statistics(mat, 0)
    stored = running.server.store.analysis(record_id)
    assert stored is not None
    for index, (line, player) in enumerate(zip(shown, stored.players, strict=True)):
        assert line is not None and player.pr is not None
        # gnubg prints the overall error rate in mEMG to 0.1 (negative); PR is half of it:
        # the same to the printed precision, and the line shows it rounded to 0.1.
        printed_rate = gnubg["overall: Error rate mEMG (MWC)"][index]
        assert f"{-2 * player.pr:.1f}" == f"{printed_rate:.1f}"
        assert line["pr"] == f"{player.pr:.1f}"
        assert abs(float(line["pr"]) + printed_rate / 2) <= 0.05 + 0.025
        unforced = gnubg["checker: Unforced moves"][index]
        close = gnubg["cube: Close or actual cube decisions"][index]
        assert int(line["decisions"]) == unforced + close
        assert int(line["errors"]) == gnubg["checker: Moves marked bad"][index]
        assert int(line["blunders"]) == gnubg["checker: Moves marked very bad"][index]
        assert line["luck"] == f"{gnubg['luck: Luck total EMG (MWC)'][index]:+.3f}"

    await alice.send(f"analysis {record_id} moves")
    lines = await alice.read_until(lambda line: "Errors in match" in line or "No errors" in line)
    assert lines[-1].removeprefix("> ").startswith(f"Errors in match {record_id}: ")
    assert stored.errors
    errors = []
    for _ in stored.errors:
        line = await alice.read_line()
        found = MOVE_LINE.match(line)
        assert found is not None, line
        errors.append(found)
    for line, player in zip(shown, stored.players, strict=True):
        assert line is not None
        mine = [e for e in errors if e["name"] == player.name]
        assert sum(e["kind"] == "blunder" for e in mine) == int(line["blunders"])
        assert sum(e["kind"] == "error" for e in mine) == int(line["errors"])
        assert sum(e["kind"] == "cube-blunder" for e in mine) == int(line["cube_blunders"])
        assert sum(e["kind"] == "cube-error" for e in mine) == int(line["cube_errors"])

    await alice.send(f"analysis {record_id} sgf")
    sgf = await alice.read_until(f"; end of gnubg's .sgf of match {record_id}")
    assert sgf[0].removeprefix("> ").startswith("(;FF[4]GM[6]")

    await alice.send("show pr alice")
    average = await alice.read_until(lambda line: "Average PR of alice" in line)
    assert average[-1].removeprefix("> ") == (f"Average PR of alice: {stored.players[0].pr:.1f} "
                           f"({stored.players[0].band}), analysed matches: 1")


async def test_every_rated_match_is_analysed_by_itself_when_the_setting_says_so(
    start_server: Any,
) -> None:
    running = await start_server(clock=SystemClock(), **{"analysis.analysis_auto": "rated"})
    pool = running.server.analysis_pool
    await play_match(running.port, 1)
    with trio.fail_after(LONG):
        while pool.done_count < 1:
            await pool.changed.wait()
    [record] = running.server.store.match_records_of("alice")
    analysis = running.server.store.analysis(record.id)
    assert analysis is not None and [p.name for p in analysis.players] == ["alice", "bob"]
    assert running.server.store.analysis_jobs() == []
    alice, _ = await telnet_login(running, "alice")
    await alice.send(f"analyse {record.id}")
    await alice.read_until(ending(f"** Match {record.id} is already analysed: "
                                  f"type 'analysis {record.id}'."))
