"""`fibsd list-matches` and `fibsd export-match`, run as the real command line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from fibsd.domain.matfile import export_mat, parse_mat
from fibsd.rules import Match, MatchOptions
from fibsd.store.sqlite import SQLiteStore as Store

from .random_matches import play_match

FINISHED_AT = 1795296600.0  # 2026-11-21 21:30 UTC


def fibsd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fibsd", *args], capture_output=True, text=True, timeout=60,
        check=False,
    )


def _money() -> Match:
    return play_match(random.Random(15), MatchOptions(length=None), max_games=2)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int, Match]:
    path = tmp_path_factory.mktemp("cli") / "fibsd.db"
    match = play_match(random.Random(20), MatchOptions(length=5))
    money = _money()
    with Store.open(path) as store:
        first = store.record_match(
            players=("Alice", "bob"), match_data=match.to_dict(), length=5,
            score=match.score, winner=match.winner, started_at=FINISHED_AT - 900,
            finished_at=FINISHED_AT,
        )
        second = store.record_match(
            players=("carol", "alice"), match_data=money.to_dict(), length=None,
            score=money.score, winner=None, started_at=None, finished_at=FINISHED_AT + 3600,
        )
    return path, first, second, match


def test_export_match_to_stdout_is_the_mat_file(database: tuple[Path, int, int, Match]) -> None:
    path, first, _, match = database
    done = fibsd("export-match", "--db", str(path), str(first))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == export_mat(
        players=("Alice", "bob"), match=match, finished_at=FINISHED_AT, site="fibsd",
        match_id=first,
    )
    mat = parse_mat(done.stdout)
    assert mat.length == 5 and mat.header["Player 1"] == "Alice"
    assert len(mat.games) == len(match.finished_games) + 1


def test_export_match_to_a_file(database: tuple[Path, int, int, Match], tmp_path: Path) -> None:
    path, _, second, _ = database
    out = tmp_path / "session.mat"
    done = fibsd("export-match", "--db", str(path), str(second), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    text = out.read_text()
    assert "\n 0 point match\n" in text and '; [Player 1 "carol"]' in text


def test_site_comes_from_the_configuration(
    database: tuple[Path, int, int, Match], tmp_path: Path
) -> None:
    path, first, _, _ = database
    config = tmp_path / "fibsd.toml"
    config.write_text(f'[server]\nclub_name = "Backgammon Club"\ndb_path = "{path}"\n')
    done = fibsd("export-match", "--config", str(config), str(first))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('; [Site "Backgammon Club"]\n')


def test_unknown_id_is_a_one_line_error(database: tuple[Path, int, int, Match]) -> None:
    path, *_ = database
    done = fibsd("export-match", "--db", str(path), "999")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "fibsd: no match record 999\n"


def test_missing_database_is_an_error_and_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "fibsd.db"
    for args in (("export-match", "--db", str(missing), "1"),
                 ("list-matches", "--db", str(missing), "alice")):
        done = fibsd(*args)
        assert done.returncode == 2
        assert done.stderr == f"fibsd: no database at {missing}\n"
    assert not missing.exists()


def test_list_matches_newest_first_in_any_case(database: tuple[Path, int, int, Match]) -> None:
    path, first, second, match = database
    done = fibsd("list-matches", "--db", str(path), "ALICE")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].split() == [
        str(second), "2026-11-21", "22:30", "carol", "-", "alice", "unlimited",
        "{}-{}".format(*_money().score),
    ]
    assert lines[1].split() == [
        str(first), "2026-11-21", "21:30", "Alice", "-", "bob", "5", "point",
        f"{match.score[0]}-{match.score[1]}",
    ]
    assert fibsd("list-matches", "--db", str(path), "bob").stdout.splitlines() == lines[1:]
    nobody = fibsd("list-matches", "--db", str(path), "dave")
    assert (nobody.returncode, nobody.stdout) == (0, "No finished matches of dave.\n")


def test_help_lists_the_new_commands_and_serve() -> None:
    done = fibsd("--help")
    assert done.returncode == 0
    for command in ("serve", "list-matches", "export-match"):
        assert command in done.stdout
