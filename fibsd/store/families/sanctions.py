"""The sanctions family: bans, mutes and registration invitation codes."""

from __future__ import annotations

from collections.abc import Iterable

from fibsd.store.families.base import Family


class Sanctions(Family):
    """`fibsd.store.api.SanctionStore`."""

    def impose(self, kind: str, target: str, *, until: float | None, reason: str, by: str,
               at: float) -> None:
        """Ban or mute `target` (replacing an earlier sanction of the same kind)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO sanctions (kind, target, until, reason, imposed_by, imposed_at)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT (kind, target) DO UPDATE SET"
                " until = excluded.until, reason = excluded.reason,"
                " imposed_by = excluded.imposed_by, imposed_at = excluded.imposed_at",
                (kind, target.lower(), until, reason, by, at),
            )

    def lift(self, kind: str, target: str) -> bool:
        """Lift a sanction; False if there was none."""
        with self._write() as db:
            cursor = db.execute(
                "DELETE FROM sanctions WHERE kind = ? AND target = ?", (kind, target.lower())
            )
            return cursor.rowcount > 0

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        """None if `target` is free; else the end of the sanction (`inf` if open-ended)."""
        rows = self._read(
            "SELECT until FROM sanctions WHERE kind = ? AND target = ?"
            " AND (until IS NULL OR until > ?)",
            (kind, target.lower(), now),
        )
        if not rows:
            return None
        until = rows[0]["until"]
        return float("inf") if until is None else float(until)

    def add_invitation_codes(self, codes: Iterable[str], *, by: str, at: float) -> None:
        with self._write() as db:
            db.executemany(
                "INSERT INTO invitation_codes (code, created_by, created_at) VALUES (?,?,?)",
                ((code, by, at) for code in codes),
            )

    def use_invitation_code(self, code: str, *, name: str, at: float) -> bool:
        """Spend an unused code for `name`'s registration; False if unknown or used."""
        with self._write() as db:
            cursor = db.execute(
                "UPDATE invitation_codes SET used_by = ?, used_at = ?"
                " WHERE code = ? AND used_by IS NULL",
                (name, at, code),
            )
            return cursor.rowcount == 1

    def invitation_code_usable(self, code: str) -> bool:
        rows = self._read(
            "SELECT 1 FROM invitation_codes WHERE code = ? AND used_by IS NULL", (code,)
        )
        return bool(rows)
