"""fibsd.rules stays pure: no I/O, no clock, no randomness, no other fibsd ring."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import fibsd.rules

PACKAGE = Path(fibsd.rules.__file__).parent
ALLOWED = {"__future__", "enum", "typing", "collections", "itertools", "attrs"}
#: The tournament rules pair names with a maximum-weight matching (club-play.md T2).
ALLOWED_IN = {"tournament": {"networkx"}}


def test_sources_import_only_the_allowed_modules() -> None:
    found: dict[str, set[str]] = {}
    # rglob: the chouette subpackage (fibsd/rules/chouette/) is held to the same rule
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            extra = ALLOWED_IN.get(path.relative_to(PACKAGE).parts[0], set())
            for name in names:
                if name.split(".")[0] not in ALLOWED | extra:
                    found.setdefault(str(path.relative_to(PACKAGE)), set()).add(name)
    assert found == {}


def test_importing_the_rules_loads_no_io_or_other_ring() -> None:
    code = (
        "import sys, fibsd.rules, fibsd.rules.chouette; "
        "print(sorted(m for m in ('trio', 'socket', 'asyncio', 'random', 'protocol', "
        "'fibsd.shell.server', 'fibsd.app.session', 'fibsd.app.registry') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_tournament_rules_load_no_other_ring() -> None:
    """networkx itself imports `random` and `socket` (it never uses them for matchings),
    so the tournament rules are held to the rings only."""
    code = (
        "import sys, fibsd.rules.tournament; "
        "print(sorted(m for m in ('trio', 'asyncio', 'protocol', "
        "'fibsd.shell.server', 'fibsd.app.session', 'fibsd.app.registry') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
