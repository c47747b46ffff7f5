"""Jellyfish `.mat` export: the exact layout, a legal move-by-move replay of random
complete matches through the rules engine, and GNU Backgammon importing the file."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibsd.domain.matfile import (
    MatchRecord,
    MatFile,
    export_mat,
    mat_lines,
    mat_text,
    parse_mat,
)
from fibsd.rules import (
    Beavered,
    CheckersMoved,
    CubePassed,
    CubeTaken,
    Game,
    GamePhase,
    GameResult,
    Match,
    MatchOptions,
    Raccooned,
    ResignationAccepted,
    ResignationRejected,
    TurnPassed,
    WinKind,
)

from .random_matches import play_match

PLAYERS = ("alice", "bob")
# 2026-11-21 21:30 UTC
FINISHED_AT = 1795296600.0


def _games(match: Match) -> list[Game]:
    games = list(match.finished_games)
    if match.over or len(match.game.history) > 1:
        games.append(match.game)
    return games


# --- the layout ---------------------------------------------------------------------------


def test_layout_of_a_scripted_match() -> None:
    match = Match(MatchOptions(length=3))
    match.opening_roll(3, 1)
    match.move(0, [(8, 5), (6, 5)])
    match.roll(1, (5, 2))
    match.move(1, [(13, 8), (13, 11)])
    match.double(0)
    match.take(1)
    match.roll(0, (6, 4))
    match.move(0, [(24, 18), (13, 9)])
    match.double(1)
    match.pass_double(0)  # bob wins 2 (the cube): 0-2, the next game is Crawford
    match.opening_roll(2, 5)  # bob opens
    match.move(1, [(13, 8), (13, 11)])
    match.roll(0, (6, 5))
    match.resign(0, GameResult.SINGLE)
    match.reject_resignation(1)  # leaves no trace
    match.move(0, [(24, 18), (18, 13)])
    match.roll(1, (4, 2))
    match.resign(1, GameResult.GAMMON)  # bob resigns a gammon after rolling
    match.accept_resignation(0)  # alice 2: 2-2
    match.opening_roll(6, 1)
    match.resign(1, GameResult.SINGLE)  # before moving the opening roll
    match.accept_resignation(0)  # alice 3-2
    assert match.over and match.score == (3, 2)

    text = export_mat(players=PLAYERS, match=match, finished_at=FINISHED_AT, site="fibsd test")
    assert text == (
        '; [Site "fibsd test"]\n'
        '; [Player 1 "alice"]\n'
        '; [Player 2 "bob"]\n'
        '; [EventDate "2026.11.21"]\n'
        '; [EventTime "21.30"]\n'
        '; [Variation "Backgammon"]\n'
        '; [Crawford "On"]\n'
        "\n"
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " alice : 0                        bob : 0\n"
        "  1) 31: 8/5 6/5                    52: 13/8 13/11\n"
        "  2)  Doubles => 2                   Takes\n"
        "  3) 64: 24/18 13/9                  Doubles => 4\n"
        "  4)  Drops                          Wins 2 points\n"
        "\n"
        " Game 2\n"
        " alice : 0                        bob : 2\n"
        "  1)                                52: 13/8 13/11\n"
        "  2) 65: 24/18 18/13                42:\n"
        "  3)  Wins 2 points\n"
        "\n"
        " Game 3\n"
        " alice : 2                        bob : 2\n"
        "  1) 61:\n"
        "  2)  Wins 1 point and the match\n"
        "\n"
    )
    assert parse_mat(text).games[2].score == (2, 2)


def test_hits_bar_and_off_are_written_in_the_movers_numbering() -> None:
    match = _play(*MATCHES[0])
    text = export_mat(players=PLAYERS, match=match, finished_at=None, site="x")
    assert "EventDate" not in text
    assert re.search(r"\b25/\d+", text)  # entering from the bar
    assert re.search(r"\b\d/0\b", text)  # bearing off
    assert re.search(r"\d+/\d+\*", text)  # a hit
    for line in text.splitlines():
        assert "/" not in line or not re.search(r"\b(2[6-9]|[3-9]\d)/", line)


def test_money_session_is_a_zero_point_match_and_keeps_an_unfinished_game() -> None:
    match = play_match(random.Random(6), MatchOptions(length=None, beavers=True), max_games=3)
    match.opening_roll(4, 2)  # the session stops in the fourth game
    match.move(0, [(8, 4), (6, 4)])
    text = export_mat(players=PLAYERS, match=match, finished_at=FINISHED_AT, site="x")
    assert "\n 0 point match\n" in text
    assert '; [Beaver "On"]' in text
    parsed = parse_mat(text)
    assert len(parsed.games) == 4
    assert parsed.games[3].actions[-1].moves == ((8, 4), (6, 4))
    assert "Wins" not in text.split(" Game 4")[1]


def test_a_match_still_at_its_first_opening_roll_has_no_games() -> None:
    text = export_mat(players=PLAYERS, match=Match(MatchOptions(length=None)),
                      finished_at=None, site="x")
    assert parse_mat(text).games == ()


def test_mat_lines_of_a_stored_record() -> None:
    match = play_match(random.Random(8), MatchOptions(length=3))
    record = MatchRecord(
        id=42, players=("Alice", "Bob"), length=3, score=match.score, winner=match.winner,
        data=match.to_dict(), started_at=None, finished_at=FINISHED_AT,
    )
    lines = mat_lines(record, "fibsd.example")
    assert lines[:4] == [
        '; [Site "fibsd.example"]', '; [Match ID "42"]', '; [Player 1 "Alice"]',
        '; [Player 2 "Bob"]',
    ]
    assert all("\n" not in line and "\r" not in line for line in lines)
    assert mat_text(lines) == export_mat(
        players=("Alice", "Bob"), match=match, finished_at=FINISHED_AT, site="fibsd.example",
        match_id=42,
    )


def test_header_values_cannot_break_the_header() -> None:
    text = export_mat(players=PLAYERS, match=_finished(1), finished_at=None,
                      site='evil"]\n 9 point match')
    assert text.splitlines()[0] == "; [Site \"evil'] 9 point match\"]"
    assert parse_mat(text).length == 1


# --- replay through the rules engine ---------------------------------------------------------


def _finished(length: int) -> Match:
    match = Match(MatchOptions(length=length))
    match.opening_roll(5, 3)
    match.resign(1, GameResult.SINGLE)
    match.accept_resignation(0)
    while not match.over:  # longer matches: more one-point resignations
        match.opening_roll(5, 3)
        match.resign(1, GameResult.SINGLE)
        match.accept_resignation(0)
    return match


def _resignation_result(points: int, cube: int) -> GameResult:
    # gnubg's inference (ParseMatMove): up to the cube a single, up to twice a gammon.
    if points <= cube:
        return GameResult.SINGLE
    return GameResult.GAMMON if points <= 2 * cube else GameResult.BACKGAMMON


def replay(mat: MatFile, options: MatchOptions) -> Match:
    """Play the file's actions through the rules engine; every step must be legal."""
    match = Match(options)
    for mat_game in mat.games:
        assert mat_game.names == PLAYERS
        assert match.score == mat_game.score, f"score line of game {mat_game.number}"
        game = match.game
        after_raccoon = False
        for action in mat_game.actions:
            player = action.player
            if action.verb != "win":
                assert game.result is None, f"an action after the end of game {mat_game.number}"
            if action.verb == "roll":
                assert action.dice is not None
                if game.phase is GamePhase.OPENING:
                    high, low = max(action.dice), min(action.dice)
                    match.opening_roll(*((high, low) if player == 0 else (low, high)))
                else:
                    match.roll(player, action.dice)
                if action.moves:
                    match.move(player, action.moves)
                else:  # no legal play, or a resignation follows
                    assert game.phase is GamePhase.AWAITING_ROLL or game.turn == player
            elif action.verb == "double":
                match.double(player)
            elif action.verb == "take":
                if after_raccoon:  # written for gnubg; the engine needs no take
                    after_raccoon = False
                    continue
                match.take(player)
            elif action.verb == "drop":
                match.pass_double(player)
            elif action.verb == "beaver":
                match.beaver(player)
            elif action.verb == "raccoon":
                match.raccoon(player)
                after_raccoon = True
            elif action.verb == "win":
                assert action.value is not None
                if game.result is None:  # the loser resigned
                    match.resign(1 - player, _resignation_result(action.value, game.cube))
                    match.accept_resignation(player)
                assert game.result is not None
                assert (game.result.winner, game.result.points) == (player, action.value)
            else:  # pragma: no cover
                raise AssertionError(action)
    return match


MATCHES = [
    # (seed, options): chosen so that together they hold every feature asserted below
    # (gammons borne off, Crawford games, beavers and raccoons, dances, resignations).
    (18, MatchOptions(length=9)),
    (19, MatchOptions(length=7)),
    (20, MatchOptions(length=5)),
    (15, MatchOptions(length=None, beavers=True)),
    (7, MatchOptions(length=1)),
]


def _play(seed: int, options: MatchOptions) -> Match:
    return play_match(random.Random(seed), options, max_games=6, resign_chance=0.01)


@pytest.mark.parametrize(("seed", "options"), MATCHES)
def test_export_replays_legally_to_the_same_games(seed: int, options: MatchOptions) -> None:
    original = _play(seed, options)
    text = export_mat(players=PLAYERS, match=original, finished_at=FINISHED_AT, site="fibsd")
    mat = parse_mat(text)
    assert mat.length == (options.length or 0)
    assert mat.header["Player 1"] == "alice" and mat.header["Player 2"] == "bob"
    replayed = replay(mat, options)
    assert replayed.score == original.score
    assert replayed.over == original.over
    assert replayed.winner == original.winner
    for before, after in zip(_games(original), _games(replayed), strict=True):
        assert after.result == before.result
        assert (after.side(0), after.side(1), after.cube) == (
            before.side(0), before.side(1), before.cube,
        )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    length=st.sampled_from([1, 2, 3, 5, 7, 11, None]),
    beavers=st.booleans(),
)
def test_any_random_match_replays_legally(seed: int, length: int | None, beavers: bool) -> None:
    options = MatchOptions(length=length, beavers=beavers and length is None)
    original = play_match(random.Random(seed), options, max_games=4, resign_chance=0.01)
    text = export_mat(players=PLAYERS, match=original, finished_at=None, site="x")
    replayed = replay(parse_mat(text), options)
    assert replayed.score == original.score
    assert [g.result for g in _games(replayed)] == [g.result for g in _games(original)]


def test_the_replayed_matches_cover_every_feature() -> None:
    events = []
    crawford = gammon = 0
    for seed, options in MATCHES:
        match = _play(seed, options)
        for game in _games(match):
            events += [type(e) for e in game.history]
            gammon += bool(
                game.result
                and game.result.result is not GameResult.SINGLE
                and game.result.how is WinKind.BORNE_OFF
            )
        crawford += any(g.rules.enabled is False for g in _games(match))
    for kind in (CheckersMoved, TurnPassed, CubeTaken, CubePassed, Beavered, Raccooned,
                 ResignationAccepted, ResignationRejected):
        assert kind in events, kind.__name__
    assert gammon and crawford


# --- GNU Backgammon ------------------------------------------------------------------------

GNUBG_SCORE = re.compile(r"The score \(after \d+ games?\) is: (\S+) (\d+), (\S+) (\d+)")


def _gnubg() -> str:
    found = shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.access(found, os.X_OK):
        pytest.fail(
            "GNU Backgammon is needed for this test: install the Debian package `gnubg` "
            "(./scripts/test installs it): apt-get install gnubg"
        )
    return found


def gnubg_score(mat_path: Path, home: Path) -> tuple[dict[str, int], str]:
    """Import the file into gnubg (text mode) and read back its score line."""
    commands = home / "commands.txt"
    commands.write_text(
        # Both players human and no automatic play: otherwise gnubg's own player would
        # start and play the next game after the import and change the score.
        "set player 0 human\nset player 1 human\n"
        "set automatic game off\nset automatic roll off\n"
        f"import mat {mat_path}\nshow score\n"
    )
    result = subprocess.run(
        [_gnubg(), "--tty", "--quiet", "--no-rc", "--commands", str(commands)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
        env={**os.environ, "HOME": str(home), "LANG": "C", "LC_ALL": "C"},
        check=False,
    )
    output = result.stdout + result.stderr
    found = GNUBG_SCORE.search(output)
    assert found, f"gnubg printed no score (exit {result.returncode}):\n{output[-2000:]}"
    return {found.group(1): int(found.group(2)), found.group(3): int(found.group(4))}, output


@pytest.mark.parametrize(("seed", "options"), MATCHES[:4])
def test_gnu_backgammon_imports_the_export_with_the_same_score(
    seed: int, options: MatchOptions, tmp_path: Path
) -> None:
    match = _play(seed, options)
    assert len(_games(match)) >= 3
    path = tmp_path / "match.mat"
    path.write_text(export_mat(players=PLAYERS, match=match, finished_at=FINISHED_AT, site="x"))
    score, output = gnubg_score(path, tmp_path)
    for complaint in ("WARNING", "Invalid", "Unrecognised", "not a valid", "illegal"):
        assert complaint not in output, output[-2000:]
    # gnubg adds the decisive game's full value, as FIBS and the engine do (a finished
    # match's winner may stand past the length): the scores agree exactly.
    assert (score["alice"], score["bob"]) == match.score
    if match.over:
        assert max(match.score) >= (match.length or 0)


def test_ratings_and_matfile_are_pure() -> None:
    # They run inside the synchronous core and in the CLI: no trio, no database, no I/O.
    code = (
        "import sys, fibsd.domain.ratings, fibsd.domain.matfile; "
        "print(sorted(m for m in ('trio', 'sqlite3', 'socket', 'subprocess', 'fibsd.store', "
        "'fibsd.shell.server', 'fibsd.app.session') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_the_longest_play_keeps_the_columns_apart() -> None:
    # Four hits with 33 fill the whole left column; the columns must still split where
    # gnubg splits them, by the second `dd:` and by a double space.
    from fibsd.domain.matfile import _Columns

    longest = "33: 24/21* 21/18* 18/15* 15/12*"
    columns = _Columns()
    for player, text in [(0, longest), (1, " Doubles => 2"), (0, longest), (1, "52: 25/20 13/11")]:
        columns.add(player, text)
    lines = columns.finish()
    assert lines[0].startswith(f"  1) {longest}  ")
    parsed = parse_mat(" 1 point match\n Game 1\n a : 0  b : 0\n" + "\n".join(lines))
    actions = parsed.games[0].actions
    assert [(a.player, a.verb) for a in actions] == [
        (0, "roll"), (1, "double"), (0, "roll"), (1, "roll"),
    ]
    assert actions[2].moves == ((24, 21), (21, 18), (18, 15), (15, 12))
    assert actions[3].moves == ((25, 20), (13, 11))
