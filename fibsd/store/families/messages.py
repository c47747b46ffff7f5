"""The messages family: offline messages, kept until delivered."""

from __future__ import annotations

from collections.abc import Iterable

from fibsd.store.api import NoSuchAccount, StoredMessage
from fibsd.store.families.base import Family


class Messages(Family):
    """`fibsd.store.api.MessageStore`."""

    def add_message(self, recipient: str, sender: str, sent_at: float, text: str) -> int:
        """Store a message for `recipient` (any case); its id. `NoSuchAccount` if none."""
        with self._write() as db:
            row = db.execute("SELECT id FROM accounts WHERE name = ?", (recipient,)).fetchone()
            if row is None:
                raise NoSuchAccount(recipient)
            cursor = db.execute(
                "INSERT INTO messages (recipient_id, sender, sent_at, text) VALUES (?,?,?,?)"
                " RETURNING id",
                (row["id"], sender, sent_at, text),
            )
            message_id: int = cursor.fetchone()[0]
            return message_id

    def pending_messages(self, recipient: str) -> list[StoredMessage]:
        """The messages waiting for `recipient`, oldest first; they stay stored until
        `delete_messages`, so a crash before delivery loses nothing."""
        rows = self._read(
            "SELECT m.id, a.name, m.sender, m.sent_at, m.text"
            " FROM messages m JOIN accounts a ON a.id = m.recipient_id"
            " WHERE a.name = ? ORDER BY m.id",
            (recipient,),
        )
        return [StoredMessage(*row) for row in rows]

    def delete_messages(self, ids: Iterable[int]) -> None:
        """Forget delivered messages; ids that are already gone are ignored."""
        with self._write() as db:
            db.executemany("DELETE FROM messages WHERE id = ?", ((i,) for i in ids))
