"""The puzzles family (issue 37, docs/puzzles.md): choosing the next puzzle for a user,
his answers, and whom he watched (a puzzle never comes from a match he watched live
that day). The puzzles themselves are written with their analysis
(`fibsd.store.families.analyses`)."""

from __future__ import annotations

import json

from fibsd.domain.puzzles import Puzzle
from fibsd.store.families.base import Family

# A puzzle the user has not answered, not from a match of a player he started watching
# that day (at or after `since`) that finished after he started watching.
_NEXT = (
    "SELECT p.id, p.data FROM puzzles p JOIN match_records r ON r.id = p.record_id"
    " WHERE {mine} NOT EXISTS (SELECT 1 FROM puzzle_answers a"
    "   WHERE a.puzzle_id = p.id AND a.name = ?)"
    " AND NOT EXISTS (SELECT 1 FROM puzzle_watches w"
    "   WHERE w.name = ? AND w.watched_at >= ? AND r.finished_at >= w.watched_at"
    "   AND (w.player = lower(r.player0) OR w.player = lower(r.player1)))"
    " ORDER BY p.id LIMIT 1"
)


class Puzzles(Family):
    """`fibsd.store.api.PuzzleStore`."""

    def next_puzzle(self, key: str, *, mine: bool, since: float) -> tuple[int, Puzzle] | None:
        """The oldest puzzle `key` (a name key) has not answered, of his own errors if
        `mine`, never from a match he watched live since `since`; None if none."""
        sql = _NEXT.format(mine="lower(p.player) = ? AND" if mine else "")
        parameters: tuple[object, ...] = (key, key, since)
        rows = self._read(sql, (key, *parameters) if mine else parameters)
        if not rows:
            return None
        return int(rows[0]["id"]), Puzzle.from_dict(json.loads(rows[0]["data"]))

    def save_puzzle_answer(self, puzzle_id: int, key: str, answer: str, lost: float,
                           at: float) -> None:
        """Keep a user's answer to a puzzle (his first one counts: a second is ignored)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO puzzle_answers (puzzle_id, name, answer, lost, answered_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle_id, name) DO NOTHING",
                (puzzle_id, key, answer, lost, at))

    def puzzle_answers(self, key: str) -> list[tuple[int, str, float]]:
        """A user's answers, oldest first: (puzzle number, answer, equity lost)."""
        rows = self._read(
            "SELECT puzzle_id, answer, lost FROM puzzle_answers WHERE name = ?"
            " ORDER BY answered_at, puzzle_id", (key,))
        return [(int(r["puzzle_id"]), str(r["answer"]), float(r["lost"])) for r in rows]

    def note_watch(self, key: str, player_key: str, at: float) -> None:
        """`key` started watching `player_key` at `at`."""
        with self._write() as db:
            db.execute("INSERT INTO puzzle_watches (name, player, watched_at) VALUES (?, ?, ?)",
                       (key, player_key, at))
