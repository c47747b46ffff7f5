"""The puzzles family (issue 37, docs/puzzles.md): choosing the next puzzle for a user,
his answers and the Glicko-2 ratings they move (the solver's and the puzzle's: one
rating period per answer, `fibsd.domain.glicko2`), and whom he watched (a puzzle never comes from a match he watched live
that day). The puzzles themselves are written with their analysis
(`fibsd.store.families.analyses`)."""

from __future__ import annotations

import json

from fibsd.domain.glicko2 import DEFAULT, Glicko2, rate
from fibsd.domain.puzzles import Puzzle
from fibsd.store.families.base import Connection, Family

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
                           score: float, at: float) -> None:
        """Keep a user's answer to a puzzle and move his rating and the puzzle's by it
        (`score` 0..1 for him, the rest for the puzzle); his first answer counts, a
        second is ignored."""
        with self._write() as db:
            added = db.execute(
                "INSERT INTO puzzle_answers (puzzle_id, name, answer, lost, answered_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle_id, name) DO NOTHING",
                (puzzle_id, key, answer, lost, at))
            if added.rowcount == 0:
                return
            solver = _rating(db, "player", key)
            puzzle = _rating(db, "puzzle", str(puzzle_id))
            _set_rating(db, "player", key, rate(solver, [(puzzle, score)]))
            _set_rating(db, "puzzle", str(puzzle_id), rate(puzzle, [(solver, 1.0 - score)]))

    def puzzle_rating(self, key: str) -> tuple[Glicko2, int, int, float] | None:
        """A solver's rating, how many puzzles he answered, how many best, and the mean
        equity lost; None if he answered none."""
        rows = self._read(
            "SELECT COUNT(*) AS answered, AVG(lost) AS lost,"
            " SUM(CASE WHEN lost < 0.0005 THEN 1 ELSE 0 END) AS best"
            " FROM puzzle_answers WHERE name = ?", (key,))
        if not rows or not rows[0]["answered"]:
            return None
        found = self._read(
            "SELECT rating, deviation, volatility FROM puzzle_ratings"
            " WHERE kind = 'player' AND subject = ?", (key,))
        rating = (Glicko2(float(found[0]["rating"]), float(found[0]["deviation"]),
                          float(found[0]["volatility"])) if found else DEFAULT)
        row = rows[0]
        return rating, int(row["answered"]), int(row["best"]), float(row["lost"])

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


def _rating(db: Connection, kind: str, subject: str) -> Glicko2:
    row = db.execute(
        "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE kind = ? AND subject = ?",
        (kind, subject)).fetchone()
    return DEFAULT if row is None else Glicko2(float(row[0]), float(row[1]), float(row[2]))


def _set_rating(db: Connection, kind: str, subject: str, rating: Glicko2) -> None:
    db.execute(
        "INSERT INTO puzzle_ratings (kind, subject, rating, deviation, volatility)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, subject) DO UPDATE SET"
        " rating = excluded.rating, deviation = excluded.deviation,"
        " volatility = excluded.volatility",
        (kind, subject, rating.rating, rating.deviation, rating.volatility))
