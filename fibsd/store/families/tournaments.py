"""The tournaments family: each tournament's whole state (docs/tournaments.md), saved after
every change with the outcome that made it, so a restart resumes it with every result.
Each is kept under its id: a name is reused once its tournament is over, never its record."""

from __future__ import annotations

import json

from fibsd.store.families.base import Family, json_object


class Tournaments(Family):
    """`fibsd.store.api.TournamentStore`."""

    def save_tournament(self, tournament_id: int, name: str, state: dict[str, object]) -> None:
        """Store (or replace) tournament number `tournament_id`'s whole state."""
        text = json.dumps(state, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "INSERT INTO tournaments (id, name, state) VALUES (?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET name = excluded.name, state = excluded.state",
                (tournament_id, name, text),
            )

    def saved_tournaments(self) -> list[dict[str, object]]:
        """The saved state of every tournament, open, running or over, with its id (unreadable
        ones are left out)."""
        rows = self._read("SELECT id, state FROM tournaments ORDER BY id", ())
        saved = []
        for row in rows:
            state = json_object(row["state"])
            if state:
                state["id"] = int(row["id"])
                saved.append(state)
        return saved
