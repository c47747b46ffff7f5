"""The repository stands on its own: a fresh clone with nothing beside it runs the suite.

Nothing in it names a path outside it (the tests' data lives in tests/data), and a user
who cannot install the system programs the tests need is told once what is missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
CHECKED = ["tests", "fibsd", "protocol", "scripts", "docs", "conf", ".ci", "README.md",
           "setup.cfg", "pyproject.toml"]
# Spelled in pieces so that this file does not name them itself.
OUTSIDE = ["../" + "shared", "shared" + "/data", "shared" + "/docs", "/" + "work/"]


def checked_files() -> list[Path]:
    files: list[Path] = []
    for name in CHECKED:
        path = TOP / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        files += [
            candidate for candidate in candidates
            if candidate.is_file() and "__pycache__" not in candidate.parts
            and candidate.parent != TOP / "tests" / "data"  # the references' own text
        ]
    return files


def test_nothing_names_a_path_outside_the_repository() -> None:
    offenders = []
    for path in checked_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if any(outside in line for outside in OUTSIDE):
                offenders.append(f"{path.relative_to(TOP)}:{number}: {line.strip()}")
    assert offenders == []


def test_the_tests_data_is_in_the_repository() -> None:
    data = TOP / "tests" / "data"
    assert len((data / "legal-plays.jsonl").read_text().splitlines()) == 3000
    assert "## 10. Strings that real clients match on" in (data / "fibs-protocol.md").read_text()


def test_a_user_who_may_not_install_is_told_what_is_missing_and_how(tmp_path: Path) -> None:
    # An empty directory as the machine's root: every program is missing there.
    run = subprocess.run(
        [sys.executable, str(TOP / "scripts" / "prerequisites.py"), "--check", "--root", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert run.stdout == ""
    told = run.stderr
    assert "sudo apt-get install -y -qq gnubg chromium chromium-driver postgresql" in told
    for why in ("analysis engine", "browser tests", "PostgreSQL store"):
        assert told.count(why) == 1


def test_nothing_is_said_when_everything_is_there(tmp_path: Path) -> None:
    for probe in ("usr/games/gnubg", "usr/bin/chromium", "usr/bin/chromedriver",
                  "usr/lib/postgresql/17/bin/postgres"):
        (tmp_path / probe).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / probe).write_text("")
    run = subprocess.run(
        [sys.executable, str(TOP / "scripts" / "prerequisites.py"), "--check", "--root", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert run.stderr == ""
