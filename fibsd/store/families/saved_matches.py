"""The saved matches family: interrupted matches, their finished games and patches."""

from __future__ import annotations

import json
from collections.abc import Sequence

from fibsd.store.api import PatchStep, SavedMatchInfo, apply_patch, saved_match_info
from fibsd.store.families.base import Family, json_object, pair_key


class SavedMatches(Family):
    """`fibsd.store.api.SavedMatchStore`."""

    def save_match(
        self, name: str, other: str, data: dict[str, object], at: float, *, finished_from: int = 0,
    ) -> None:
        """Store (or replace) the saved match between `name` and `other`, whole (its
        patches are dropped: `data` includes them).

        The finished games (`data["match"]["finished_games"]`, if there) are stored apart,
        each once: with `finished_from` N, the list holds only the games from number N on
        and the N before it are the ones already stored, so that a save at the start of
        each game costs the same in the 500th game as in the first. Reading the saved
        match puts them back in place."""
        low, high = pair_key(name, other)
        games: list[object] = []
        match = data.get("match")
        if isinstance(match, dict) and isinstance(match.get("finished_games"), list):
            games = match["finished_games"]
            data = {**data, "match": {**match, "finished_games": []}}
        text = json.dumps(data, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "DELETE FROM saved_match_games WHERE player_low = ? AND player_high = ? AND number >= ?",
                (low, high, finished_from),
            )
            db.executemany(
                "INSERT INTO saved_match_games (player_low, player_high, number, data) VALUES (?,?,?,?)",
                ((low, high, finished_from + i, json.dumps(game, separators=(",", ":")))
                 for i, game in enumerate(games)),
            )
            db.execute(
                "INSERT INTO saved_matches (player_low, player_high, data, saved_at)"
                " VALUES (?,?,?,?) ON CONFLICT (player_low, player_high)"
                " DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at",
                (low, high, text, at),
            )
            db.execute(
                "DELETE FROM saved_match_patches WHERE player_low = ? AND player_high = ?",
                (low, high),
            )

    def patch_saved_match(self, name: str, other: str, patch: Sequence[PatchStep], at: float) -> None:
        """Record a change to the saved match between `name` and `other`: each step
        updates the object at a path of keys or extends the list there (`apply_patch`).
        Constant in size however long the match: it holds only what changed."""
        low, high = pair_key(name, other)
        text = json.dumps(patch, separators=(",", ":"))
        with self._write() as db:
            # Inserted only if the match is saved: the saved match's row is read, not
            # rewritten (migration 10).
            cursor = db.execute(
                "INSERT INTO saved_match_patches (player_low, player_high, patch, saved_at)"
                " SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM saved_matches"
                " WHERE player_low = ? AND player_high = ?)",
                (low, high, text, at, low, high),
            )
            if cursor.rowcount != 1:
                raise ValueError(f"no saved match between {name} and {other} to change")

    def saved_match(self, name: str, other: str) -> dict[str, object] | None:
        """The saved match between the two players, or None (also for unreadable data)."""
        low, high = pair_key(name, other)
        rows = self._read(
            "SELECT data FROM saved_matches WHERE player_low = ? AND player_high = ?", (low, high)
        )
        if not rows:
            return None
        return self._with_patches(low, high, json_object(rows[0]["data"])) or None

    def saved_match_info(self, name: str, other: str) -> SavedMatchInfo | None:
        """Whether the two players have a saved match, and its length: read from the
        whole copy alone (no games, no patches: the length never changes)."""
        low, high = pair_key(name, other)
        rows = self._read(
            "SELECT data FROM saved_matches WHERE player_low = ? AND player_high = ?", (low, high)
        )
        data = json_object(rows[0]["data"]) if rows else {}
        return saved_match_info(data) if data else None  # unreadable: as if none

    def saved_match_heads(self) -> list[tuple[str, str, SavedMatchInfo]]:
        """(low key, high key, info) of every saved match (a backend's memory of them)."""
        rows = self._read("SELECT player_low, player_high, data FROM saved_matches", ())
        heads = [(row["player_low"], row["player_high"], json_object(row["data"])) for row in rows]
        return [(low, high, saved_match_info(data)) for low, high, data in heads if data]

    def delete_saved_match(self, name: str, other: str) -> None:
        low, high = pair_key(name, other)
        with self._write() as db:
            db.execute(
                "DELETE FROM saved_matches WHERE player_low = ? AND player_high = ?", (low, high)
            )
            db.execute(
                "DELETE FROM saved_match_games WHERE player_low = ? AND player_high = ?", (low, high)
            )
            db.execute(
                "DELETE FROM saved_match_patches WHERE player_low = ? AND player_high = ?",
                (low, high),
            )

    def saved_matches_of(self, name: str) -> list[tuple[str, dict[str, object]]]:
        """(opponent's name key, data) of every saved match `name` takes part in."""
        key = name.lower()
        rows = self._read(
            "SELECT player_low, player_high, data FROM saved_matches AS s"
            " WHERE player_low = ? OR player_high = ? ORDER BY COALESCE("
            "(SELECT p.saved_at FROM saved_match_patches AS p WHERE p.player_low = s.player_low"
            " AND p.player_high = s.player_high ORDER BY p.id DESC LIMIT 1), s.saved_at)",
            (key, key),
        )
        return [
            (row["player_high"] if row["player_low"] == key else row["player_low"],
             self._with_patches(row["player_low"], row["player_high"], json_object(row["data"])))
            for row in rows
        ]

    def saved_clocked_matches(self) -> list[dict[str, object]]:
        """The data of every saved match with a clock (its whole copy names one: the terms
        never change during a match), patches applied; the unreadable ones left out."""
        rows = self._read(
            "SELECT player_low, player_high, data FROM saved_matches"
            " WHERE instr(data, '\"clock\":{') > 0 ORDER BY player_low, player_high",
            (),
        )
        found = (self._with_patches(row["player_low"], row["player_high"], json_object(row["data"]))
                 for row in rows)
        return [data for data in found if data]

    def _with_patches(self, low: str, high: str, data: dict[str, object]) -> dict[str, object]:
        """The whole copy `data` with its finished games put back, then its patches."""
        games = self._read(
            "SELECT data FROM saved_match_games WHERE player_low = ? AND player_high = ?"
            " ORDER BY number",
            (low, high),
        )
        if games:
            match = data.get("match")
            if not isinstance(match, dict) or not isinstance(match.get("finished_games"), list):
                return {}  # games stored apart belong in a match's list: damaged
            match["finished_games"] = [*(json.loads(row["data"]) for row in games),
                                       *match["finished_games"]]
        rows = self._read(
            "SELECT patch FROM saved_match_patches WHERE player_low = ? AND player_high = ?"
            " ORDER BY id",
            (low, high),
        )
        for row in rows:
            try:
                apply_patch(data, json.loads(row["patch"]))
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                return {}  # damaged: unreadable, like a damaged whole copy
        return data
