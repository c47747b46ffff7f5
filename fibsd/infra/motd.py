"""The message of the day: the operator's MOTD file, made safe for every client.

Owns reading `motd_file` (a missing file gives the built-in MOTD, an unreadable one stops
start-up with a `ConfigError` naming the setting) and the rules that keep its lines from
confusing FIBS clients. No trio, no wire codec.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fibsd.infra.config import ConfigError


def _boxed(*texts: str) -> tuple[str, ...]:
    width = max(len(text) for text in texts)
    rule = "+" + "-" * (width + 2) + "+"
    return (rule, *(f"| {text.ljust(width)} |" for text in texts), rule)


# Shown when `motd_file` does not exist, so that a fresh checkout serves something sane.
BUILTIN_MOTD: Final[tuple[str, ...]] = _boxed(
    "Welcome to fibsd, a FIBS-compatible backgammon server.",
    "Type 'help' for the commands, 'help beginner' to get started.",
)


def load_motd(path: Path) -> tuple[str, ...]:
    """The MOTD lines from `path`, made safe for every client; BUILTIN_MOTD if it is missing.

    Clients end the MOTD at a line starting with `4` (and start it at `3`), so such lines
    are indented by one space; non-ASCII becomes `?` (FIBS is 7-bit) and trailing
    whitespace goes (some clients anchor on `$`). Any other read error is a `ConfigError`
    naming `motd_file`: an unreadable MOTD the operator asked for stops start-up.
    """
    try:
        text = path.read_bytes().decode("ascii", errors="replace").replace("\ufffd", "?")
    except FileNotFoundError:
        return BUILTIN_MOTD
    except OSError as error:
        raise ConfigError(
            f"setting 'motd_file': cannot read {str(path)!r}: {error.strerror}", "motd_file"
        ) from None
    lines = []
    for line in text.splitlines():
        line = line.replace("\t", "        ").rstrip()
        if line[:1] in ("3", "4"):
            line = " " + line
        lines.append("".join(ch if " " <= ch < "\x7f" else "?" for ch in line))
    return tuple(lines)
