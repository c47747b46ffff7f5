"""The analyses family (issue 23, docs/analysis.md): engine analysis jobs waiting (kept
so they survive a restart), each finished analysis with gnubg's .sgf of the analysed
match, each player's PR per analysed match for `show pr`, and the match's puzzles (issue
37: its decisions that cost more than the threshold)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

from fibsd.domain.match_analysis import MatchAnalysis
from fibsd.domain.puzzles import Puzzle
from fibsd.store.families.base import Family


class Analyses(Family):
    """`fibsd.store.api.AnalysisStore`."""

    def queue_analysis(self, record_id: int, requesters: Sequence[str], at: float) -> None:
        """Keep a job (or replace its requesters); it stays until `save_analysis` or
        `drop_analysis_job`, so a restart finds it."""
        with self._write() as db:
            db.execute(
                "INSERT INTO analysis_jobs (record_id, requesters, queued_at) VALUES (?, ?, ?)"
                " ON CONFLICT (record_id) DO UPDATE SET requesters = excluded.requesters",
                (record_id, json.dumps(list(requesters)), at),
            )

    def analysis_jobs(self) -> list[tuple[int, list[str]]]:
        """The jobs waiting, oldest first: (record id, requesters)."""
        rows = self._read(
            "SELECT record_id, requesters FROM analysis_jobs ORDER BY queued_at, record_id", ())
        return [(int(row["record_id"]), [str(n) for n in json.loads(row["requesters"])])
                for row in rows]

    def drop_analysis_job(self, record_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM analysis_jobs WHERE record_id = ?", (record_id,))

    def save_analysis(self, analysis: MatchAnalysis, sgf: str,
                      puzzles: Sequence[Puzzle] = ()) -> None:
        """Keep a finished analysis, each player's PR and the match's puzzles (those of
        an earlier analysis of the match are replaced); its job is done."""
        data = json.dumps(analysis.to_dict(), separators=(",", ":"))
        with self._write() as db:
            db.execute("DELETE FROM analysis_jobs WHERE record_id = ?", (analysis.record_id,))
            db.execute(
                "INSERT INTO analyses (record_id, data, sgf, analysed_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (record_id) DO UPDATE SET data = excluded.data,"
                " sgf = excluded.sgf, analysed_at = excluded.analysed_at",
                (analysis.record_id, data, zlib.compress(sgf.encode("utf-8")),
                 analysis.analysed_at),
            )
            db.execute("DELETE FROM analysis_prs WHERE record_id = ?", (analysis.record_id,))
            for player in analysis.players:
                if player.pr is not None:
                    db.execute(
                        "INSERT INTO analysis_prs (record_id, name, pr) VALUES (?, ?, ?)"
                        " ON CONFLICT (record_id, name) DO UPDATE SET pr = excluded.pr",
                        (analysis.record_id, player.name, player.pr))
            db.execute("DELETE FROM puzzles WHERE record_id = ?", (analysis.record_id,))
            db.executemany(
                "INSERT INTO puzzles (record_id, player, kind, lost, data) VALUES (?, ?, ?, ?, ?)",
                [(analysis.record_id, puzzle.player, puzzle.kind, puzzle.lost,
                  json.dumps(puzzle.to_dict(), separators=(",", ":"))) for puzzle in puzzles])

    def match_puzzles(self, record_id: int) -> list[tuple[int, Puzzle]]:
        """The puzzles of one analysed match, in match order, with their numbers."""
        rows = self._read("SELECT id, data FROM puzzles WHERE record_id = ? ORDER BY id",
                          (record_id,))
        return [(int(row["id"]), Puzzle.from_dict(json.loads(row["data"]))) for row in rows]

    def analysis(self, record_id: int) -> MatchAnalysis | None:
        rows = self._read("SELECT data FROM analyses WHERE record_id = ?", (record_id,))
        return MatchAnalysis.from_dict(json.loads(rows[0]["data"])) if rows else None

    def analysis_sgf(self, record_id: int) -> str | None:
        rows = self._read("SELECT sgf FROM analyses WHERE record_id = ?", (record_id,))
        return zlib.decompress(bytes(rows[0]["sgf"])).decode("utf-8") if rows else None

    def average_pr(self, name: str) -> tuple[float, int] | None:
        """A player's mean PR over his analysed matches, and how many; None if none."""
        rows = self._read(
            "SELECT AVG(pr) AS average, COUNT(*) AS matches FROM analysis_prs WHERE name = ?",
            (name,))
        if not rows or not rows[0]["matches"]:
            return None
        return float(rows[0]["average"]), int(rows[0]["matches"])
