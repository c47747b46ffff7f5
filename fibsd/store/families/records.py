"""The match records family: finished matches, kept for `.mat` export."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final

from fibsd.domain.matfile import MatchRecord
from fibsd.domain.player_record import MatchEnding
from fibsd.store.api import NoSuchAccount
from fibsd.store.families.base import Family, json_object, pair_key

_RECORD_COLUMNS: Final = (
    "id, player0, player1, length, score0, score1, winner, data, started_at, finished_at"
)


def _record_from_row(row: Any) -> MatchRecord:
    return MatchRecord(
        id=row["id"],
        players=(row["player0"], row["player1"]),
        length=row["length"],
        score=(row["score0"], row["score1"]),
        winner=row["winner"],
        data=json_object(row["data"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )



class MatchRecords(Family):
    """`fibsd.store.api.MatchRecordStore`."""

    def record_match(
        self,
        *,
        players: tuple[str, str],
        match_data: dict[str, object],
        length: int | None,
        score: tuple[int, int],
        winner: int | None,
        started_at: float | None,
        finished_at: float,
        ratings: Iterable[tuple[str, float, int]] = (),
        saved_games_before: int = 0,
        ending: MatchEnding | None = None,
    ) -> int:
        """Keep a finished match (`match_data` is `Match.to_dict()`); its record id.

        With `saved_games_before` N, `match_data` lacks the first N finished games (the
        server drops them from memory once saved): they are taken from the saved match
        between the two players (`save_match`), which must still hold them.

        `ratings` are (name, rating, experience) updates applied in the same transaction,
        so the record and both players' new ratings are stored together or not at all
        (`NoSuchAccount` if a name is unknown, and then nothing is stored).

        `ending` (how it ended, rated, checker plays) is kept in columns of its own, which
        `show record` counts (`fibsd.store.families.player_records`).
        """
        if winner not in (0, 1, None):
            raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
        with self._write() as db:
            if saved_games_before > 0:
                low, high = pair_key(*players)
                rows = db.execute(
                    "SELECT data FROM saved_match_games WHERE player_low = ? AND player_high = ?"
                    " AND number < ? ORDER BY number",
                    (low, high, saved_games_before),
                ).fetchall()
                if len(rows) != saved_games_before:
                    raise ValueError(f"the saved match holds {len(rows)} of {saved_games_before} games")
                later = match_data.get("finished_games")
                if not isinstance(later, list):
                    raise ValueError("match data without a list of finished games")
                match_data = {**match_data,
                              "finished_games": [*(json.loads(row[0]) for row in rows), *later]}
            text = json.dumps(match_data, separators=(",", ":"))
            for name, rating, experience in ratings:
                cursor = db.execute(
                    "UPDATE accounts SET rating=?, experience=? WHERE name = ?",
                    (rating, experience, name),
                )
                if cursor.rowcount != 1:
                    raise NoSuchAccount(name)
            cursor = db.execute(
                f"INSERT INTO match_records ({_RECORD_COLUMNS.removeprefix('id, ')},"
                " rated, ending, moves, final_moves)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                (players[0], players[1], length, score[0], score[1], winner, text,
                 started_at, finished_at,
                 None if ending is None else int(ending.rated),
                 None if ending is None else ending.how,
                 None if ending is None else ending.moves,
                 None if ending is None else ending.final_moves),
            )
            record_id: int = cursor.fetchone()[0]
            return record_id

    def match_record(self, record_id: int) -> MatchRecord | None:
        """The match record with this id, or None."""
        rows = self._read(
            f"SELECT {_RECORD_COLUMNS} FROM match_records WHERE id = ?", (record_id,)
        )
        return _record_from_row(rows[0]) if rows else None

    def match_records_of(self, name: str, limit: int = 20) -> list[MatchRecord]:
        """The last `limit` finished matches `name` (any case) played, newest first."""
        # A UNION of the two indexed lookups rather than `OR`, which would scan the table.
        rows = self._read(
            f"SELECT {_RECORD_COLUMNS} FROM match_records WHERE player0 = ? COLLATE NOCASE"
            f" UNION SELECT {_RECORD_COLUMNS} FROM match_records"
            " WHERE player1 = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?",
            (name, name, max(limit, 0)),
        )
        return [_record_from_row(row) for row in rows]
