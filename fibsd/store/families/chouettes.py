"""The chouettes family: each table's whole state, saved after every action."""

from __future__ import annotations

import json

from fibsd.store.families.base import Family, json_object


class Chouettes(Family):
    """`fibsd.store.api.ChouetteStore`."""

    def save_chouette(self, table_id: int, owner: str, state: dict[str, object], at: float,
                      *, closed: bool = False) -> None:
        """Store (or replace) chouette `table_id`'s whole state."""
        text = json.dumps(state, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "INSERT INTO chouettes (id, owner, state, closed, saved_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, state = excluded.state,"
                " closed = excluded.closed, saved_at = excluded.saved_at",
                (table_id, owner, text, int(closed), at),
            )

    def open_chouettes(self) -> list[dict[str, object]]:
        """The saved state of every chouette not closed, by number (unreadable ones are
        left out)."""
        rows = self._read("SELECT state FROM chouettes WHERE closed = 0 ORDER BY id", ())
        return [state for state in (json_object(row["state"]) for row in rows) if state]

    def chouette(self, table_id: int) -> dict[str, object] | None:
        """One chouette's saved state, closed or not."""
        rows = self._read("SELECT state FROM chouettes WHERE id = ?", (table_id,))
        return (json_object(rows[0]["state"]) or None) if rows else None

    def chouettes_naming(self, name: str) -> list[tuple[int, bool, dict[str, object]]]:
        """(number, closed, saved state) of every chouette whose saved state names `name`
        (any case), by number: a text match on the JSON string, so the caller checks
        where the name stands (seated, in the ledger) before showing anything."""
        needle = json.dumps(name).lower()  # '"alice"', escaped as the states are
        rows = self._read(
            "SELECT id, closed, state FROM chouettes WHERE instr(lower(state), ?) > 0 ORDER BY id",
            (needle,),
        )
        found = []
        for row in rows:
            state = json_object(row["state"])
            if state:
                found.append((int(row["id"]), bool(row["closed"]), state))
        return found

    def last_chouette_id(self) -> int:
        rows = self._read("SELECT COALESCE(MAX(id), 0) AS top FROM chouettes", ())
        return int(rows[0]["top"])
