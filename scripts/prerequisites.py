"""The system programs the test suite needs beside Python, and how to get them.

The tests use real parts, never stand-ins: GNU Backgammon (the rules' reference and the
analysis engine), Debian's headless Chromium with chromium-driver (the web client's tests)
and PostgreSQL's server programs (the store's tests start throw-away clusters). This
script, run by ./scripts/test before pytest, finds which are missing and, when it may
(root on a Debian-like system with apt-get), installs them all with one apt-get; when it
may not, it says once what is missing and the command that installs it, and the run goes
on (the tests that need a missing program then fail, as they should).

Usage: python scripts/prerequisites.py [--check] [--root DIR]
  --check     only report, never install (what a user who is not root gets anyway)
  --root DIR  look for the programs under DIR instead of / (to try the report)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Prerequisite:
    """One system program the tests need: the Debian packages that bring it, the files
    whose presence shows it is installed (glob patterns relative to /), and why."""

    packages: tuple[str, ...]
    probes: tuple[str, ...]
    why: str


PREREQUISITES: tuple[Prerequisite, ...] = (
    Prerequisite(("gnubg",), ("usr/games/gnubg",), "the rules' reference and the analysis engine"),
    Prerequisite(
        ("chromium", "chromium-driver"),
        ("usr/bin/chromium", "usr/bin/chromedriver"),
        "the web client's browser tests",
    ),
    Prerequisite(
        ("postgresql",), ("usr/lib/postgresql/*/bin/postgres",), "the PostgreSQL store's tests"
    ),
)


def missing(root: Path) -> list[Prerequisite]:
    """The prerequisites of which some probe finds no file under `root`."""
    return [
        need
        for need in PREREQUISITES
        if not all(any(root.glob(probe)) for probe in need.probes)
    ]


def install_command(needs: Sequence[Prerequisite]) -> list[str]:
    packages = [package for need in needs for package in need.packages]
    return ["apt-get", "install", "-y", "-qq", *packages]


def report(needs: Sequence[Prerequisite], *, can_install: bool) -> list[str]:
    """What the user is told, once, before the tests run."""
    if not needs:
        return []
    lines = ["fibsd: the tests need programs that are not installed here:"]
    lines += [f"  {' and '.join(need.packages)}: {need.why}" for need in needs]
    if can_install:
        lines.append("fibsd: installing them now (Debian packages, one apt-get run)")
    else:
        lines.append("fibsd: install them once as root on Debian or Ubuntu, then run again:")
        lines.append(f"  sudo apt-get update && sudo {' '.join(install_command(needs))}")
        lines.append("fibsd: (or run ./scripts/test once as root); the tests that need them fail until then")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only report, never install")
    parser.add_argument("--root", type=Path, default=Path("/"), help="look under this directory")
    args = parser.parse_args(argv)
    needs = missing(args.root)
    can_install = (
        not args.check and os.geteuid() == 0 and shutil.which("apt-get") is not None
    )
    for line in report(needs, can_install=can_install):
        print(line, file=sys.stderr)
    if needs and can_install:
        environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        try:
            for command in (["apt-get", "update", "-qq"], install_command(needs)):
                subprocess.run(command, check=True, env=environment, stdout=sys.stderr)
        except subprocess.CalledProcessError as failure:
            print(f"fibsd: apt-get failed ({failure}); the tests that need them will fail", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
