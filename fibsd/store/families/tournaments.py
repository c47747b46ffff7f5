"""The tournaments family: each tournament's whole state (docs/tournaments.md), saved after
every change with the outcome that made it, so a restart resumes it with every result.
Each is kept under its id: a name is reused once its tournament is over, never its record.
And each recurring tournament's schedule, saved the same way."""

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

    def save_schedule(self, name: str, state: dict[str, object]) -> None:
        """Store (or replace) schedule `name`'s whole state (names are unique in any case)."""
        text = json.dumps(state, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "INSERT INTO tournament_schedules (name, state) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET name = excluded.name, state = excluded.state",
                (name, text),
            )

    def remove_schedule(self, name: str) -> None:
        """Forget schedule `name` (the tournaments it opened stay)."""
        with self._write() as db:
            db.execute("DELETE FROM tournament_schedules WHERE name = ?", (name,))

    def saved_schedules(self) -> list[dict[str, object]]:
        """The saved state of every schedule (unreadable ones are left out)."""
        rows = self._read("SELECT state FROM tournament_schedules ORDER BY name", ())
        return [state for state in (json_object(row["state"]) for row in rows) if state]
