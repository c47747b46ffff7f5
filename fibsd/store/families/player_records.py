"""The player records family (`show record`, docs/matches.md): a player's record counted
by queries over the match records, the saved and abandoned matches, the drop counts and
the analyses' PRs, never by reading his matches into memory. Also keeps the matches a new
match between the same two players abandoned."""

from __future__ import annotations

from typing import Any

from fibsd.domain.player_record import (
    PR_SPANS,
    RESIGNED_AT_ONCE_MOVES,
    VERY_SHORT_MOVES,
    LengthTally,
    OpponentsPr,
    PlayerRecord,
    PrFigure,
    Unfinished,
)
from fibsd.store.families.base import Family

# A player's matches (as `me`: his seat), optionally against one opponent: a UNION ALL of
# the two indexed lookups by name rather than `OR`, which would scan the table.
_MINE = (
    "SELECT id, length, rated, winner, ending, 0 AS me FROM match_records"
    " WHERE player0 = ? COLLATE NOCASE{against0}"
    " UNION ALL SELECT id, length, rated, winner, ending, 1 AS me FROM match_records"
    " WHERE player1 = ? COLLATE NOCASE{against1}"
)
# 1 when an analysed match is left out of the PR figures: the opponent left and the
# match was claimed (abandoned), resigned at once, or very short. Records from before
# these columns count (CASE makes their NULLs a 0).
_LEFT_OUT = (
    "CASE WHEN r.ending = 'claimed' OR (r.ending = 'resigned' AND r.final_moves <= ?)"
    " OR r.moves < ? THEN 1 ELSE 0 END"
)
_LEFT_OUT_PARAMETERS = (RESIGNED_AT_ONCE_MOVES, VERY_SHORT_MOVES)


def _mine(name: str, opponent: str | None) -> tuple[str, tuple[object, ...]]:
    if opponent is None:
        return _MINE.format(against0="", against1=""), (name, name)
    sql = _MINE.format(against0=" AND player1 = ? COLLATE NOCASE",
                       against1=" AND player0 = ? COLLATE NOCASE")
    return sql, (name, opponent, name, opponent)


def _count(rows: list[Any]) -> int:
    return int(rows[0][0] or 0) if rows else 0


class PlayerRecords(Family):
    """`fibsd.store.api.PlayerRecordStore`."""

    def record_abandoned_match(self, players: tuple[str, str], length: int | None,
                               at: float) -> None:
        """A saved match of these two was replaced by a new match: it was abandoned."""
        with self._write() as db:
            db.execute(
                "INSERT INTO abandoned_matches (player0, player1, length, abandoned_at)"
                " VALUES (?, ?, ?, ?)", (players[0], players[1], length, at))

    def player_record(self, name: str, opponent: str | None = None) -> PlayerRecord:
        """`name`'s record (any case), or his record against `opponent`."""
        mine, parameters = _mine(name, opponent)
        rows = self._read(
            "SELECT length, COALESCE(rated, 0) AS rated, COUNT(*) AS played,"
            " SUM(CASE WHEN winner = me THEN 1 ELSE 0 END) AS won,"
            " SUM(CASE WHEN winner = 1 - me THEN 1 ELSE 0 END) AS lost"
            f" FROM ({mine}) AS mine GROUP BY length, COALESCE(rated, 0)", parameters)
        tallies = tuple(sorted(
            (LengthTally(length=row["length"], rated=bool(row["rated"]), played=int(row["played"]),
                         won=int(row["won"] or 0), lost=int(row["lost"] or 0)) for row in rows),
            # By length, unlimited last, rated first (the backends order NULL differently).
            key=lambda t: (t.length is None, t.length or 0, not t.rated)))
        # Lost on time or by a claim: he was the loser of a match that ended so.
        endings = self._read(
            "SELECT ending, COUNT(*) AS matches"
            f" FROM ({mine}) AS mine WHERE winner = 1 - me AND ending IN ('time', 'claimed')"
            " GROUP BY ending", parameters)
        lost_by = {row["ending"]: int(row["matches"]) for row in endings}
        unfinished = Unfinished(
            saved=self._saved(name, opponent),
            abandoned=self._abandoned(name, opponent),
            lost_on_time=lost_by.get("time", 0),
            claimed=lost_by.get("claimed", 0),
            dropped=self._dropped(name) if opponent is None else None,
        )
        prs, left_out = self._prs(name, opponent)
        return PlayerRecord(name=name, opponent=opponent, tallies=tallies,
                            unfinished=unfinished, prs=prs, left_out=left_out)

    def opponents_pr(self, name: str) -> OpponentsPr:
        """The PR of `name`'s opponents in his analysed matches (a house bot's page)."""
        mine, parameters = _mine(name, None)
        rows = self._read(
            f"SELECT AVG(CASE WHEN {_LEFT_OUT} = 0 THEN p.pr END) AS average,"
            f" SUM(1 - {_LEFT_OUT}) AS counted, SUM({_LEFT_OUT}) AS left_out"
            f" FROM ({mine}) AS mine JOIN match_records r ON r.id = mine.id"
            " JOIN analysis_prs p ON p.record_id = mine.id"
            " WHERE p.name <> ? COLLATE NOCASE",
            (*_LEFT_OUT_PARAMETERS, *_LEFT_OUT_PARAMETERS, *_LEFT_OUT_PARAMETERS,
             *parameters, name))
        row = rows[0]
        average = row["average"]
        return OpponentsPr(average=None if average is None else float(average),
                           matches=int(row["counted"] or 0), left_out=int(row["left_out"] or 0))

    def _saved(self, name: str, opponent: str | None) -> int:
        key = name.lower()
        if opponent is not None:
            low, high = sorted((key, opponent.lower()))
            return _count(self._read(
                "SELECT COUNT(*) FROM saved_matches WHERE player_low = ? AND player_high = ?",
                (low, high)))
        return _count(self._read(
            "SELECT SUM(n) FROM (SELECT COUNT(*) AS n FROM saved_matches WHERE player_low = ?"
            " UNION ALL SELECT COUNT(*) AS n FROM saved_matches WHERE player_high = ?) AS both_sides",
            (key, key)))

    def _abandoned(self, name: str, opponent: str | None) -> int:
        if opponent is None:
            return _count(self._read(
                "SELECT SUM(n) FROM (SELECT COUNT(*) AS n FROM abandoned_matches"
                " WHERE player0 = ? COLLATE NOCASE UNION ALL SELECT COUNT(*) AS n"
                " FROM abandoned_matches WHERE player1 = ? COLLATE NOCASE) AS both_sides",
                (name, name)))
        return _count(self._read(
            "SELECT COUNT(*) FROM abandoned_matches WHERE (player0 = ? COLLATE NOCASE"
            " AND player1 = ? COLLATE NOCASE) OR (player0 = ? COLLATE NOCASE"
            " AND player1 = ? COLLATE NOCASE)", (name, opponent, opponent, name)))

    def _dropped(self, name: str) -> int:
        return _count(self._read("SELECT drops FROM drop_counts WHERE name = ?", (name,)))

    def _prs(self, name: str, opponent: str | None) -> tuple[tuple[PrFigure, ...], int]:
        against, against_parameters = "", ()  # type: tuple[str, tuple[str, ...]]
        if opponent is not None:
            against = " AND (r.player0 = ? COLLATE NOCASE OR r.player1 = ? COLLATE NOCASE)"
            against_parameters = (opponent, opponent)
        analysed = (" FROM analysis_prs p JOIN match_records r ON r.id = p.record_id"
                    f" WHERE p.name = ? COLLATE NOCASE{against}")
        figures = []
        for span in PR_SPANS:
            rows = self._read(
                f"SELECT AVG(pr) AS average, COUNT(*) AS matches FROM (SELECT p.pr{analysed}"
                f" AND {_LEFT_OUT} = 0 ORDER BY p.record_id DESC LIMIT ?) AS latest",
                (name, *against_parameters, *_LEFT_OUT_PARAMETERS, span))
            average = rows[0]["average"]
            figures.append(PrFigure(span=span, average=None if average is None else float(average),
                                    matches=int(rows[0]["matches"] or 0)))
        left_out = _count(self._read(
            f"SELECT COUNT(*){analysed} AND {_LEFT_OUT} = 1",
            (name, *against_parameters, *_LEFT_OUT_PARAMETERS)))
        return tuple(figures), left_out
