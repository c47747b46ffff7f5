"""The ASCII boards of boardstyle 1 and 2 for telnet users (FIBS reference §4.6)."""

from __future__ import annotations

from protocol.board import BoardLine


def render_ascii_board(board: BoardLine, *, style: int, player_name: str | None = None) -> list[str]:
    raise NotImplementedError
