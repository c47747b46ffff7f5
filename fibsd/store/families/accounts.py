"""The accounts family: accounts, settings, ratings and the ratings list, drop counts."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final

from fibsd.domain.accounts import Account, Toggles, Variables
from fibsd.store.api import NameTaken, NoSuchAccount
from fibsd.store.families.base import Family, json_object

_ACCOUNT_COLUMNS: Final = (
    "name, password_hash, created_at, last_login_at, last_login_host, last_logout_at,"
    " rating, experience, email, toggles, variables, bot"
)


def _account_row(account: Account) -> tuple[object, ...]:
    return (
        account.name,
        account.password_hash,
        account.created_at,
        account.last_login_at,
        account.last_login_host,
        account.last_logout_at,
        account.rating,
        account.experience,
        account.email,
        json.dumps(account.toggles.as_dict()),
        json.dumps(account.variables.as_dict()),
        int(account.bot),
    )


def _account_from_row(row: Any) -> Account:
    return Account(
        name=row["name"],
        password_hash=row["password_hash"],
        created_at=row["created_at"],
        last_login_at=row["last_login_at"],
        last_login_host=row["last_login_host"],
        last_logout_at=row["last_logout_at"],
        rating=row["rating"],
        experience=row["experience"],
        email=row["email"],
        toggles=Toggles.from_dict(json_object(row["toggles"])),
        variables=Variables.from_dict(json_object(row["variables"])),
        bot=bool(row["bot"]),
    )


class Accounts(Family):
    """`fibsd.store.api.AccountStore`."""

    def create_account(self, account: Account) -> None:
        """Store a new account; `NameTaken` if the name exists in any case."""
        with self._write() as db:
            if db.execute("SELECT 1 FROM accounts WHERE name = ?", (account.name,)).fetchone():
                raise NameTaken(account.name)
            db.execute(
                f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                _account_row(account),
            )

    def get_account(self, name: str) -> Account | None:
        """The account called `name` in any case (with its stored spelling), or None."""
        rows = self._read(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE name = ?", (name,))
        return _account_from_row(rows[0]) if rows else None

    def account_exists(self, name: str) -> bool:
        """True if an account called `name` (in any case) exists."""
        return bool(self._read("SELECT 1 FROM accounts WHERE name = ?", (name,)))

    def save_account(self, account: Account) -> None:
        """Overwrite every field of the existing account `account.name`.

        The stored spelling of the name is kept. Prefer the finer updates below where they
        fit: they cannot undo a concurrent change to another field.
        """
        row = _account_row(account)
        self._update(
            account.name,
            "password_hash=?, created_at=?, last_login_at=?, last_login_host=?,"
            " last_logout_at=?, rating=?, experience=?, email=?, toggles=?, variables=?, bot=?",
            row[1:],
        )

    def update_toggles(self, name: str, toggles: Toggles) -> None:
        self._update(name, "toggles=?", (json.dumps(toggles.as_dict()),))

    def update_variables(self, name: str, variables: Variables) -> None:
        self._update(name, "variables=?", (json.dumps(variables.as_dict()),))

    def set_email(self, name: str, email: str | None) -> None:
        self._update(name, "email=?", (email,))

    def set_bot(self, name: str, bot: bool) -> None:
        self._update(name, "bot=?", (int(bot),))

    def set_password_hash(self, name: str, password_hash: str) -> None:
        self._update(name, "password_hash=?", (password_hash,))

    def record_login(self, name: str, at: float, host: str) -> None:
        self._update(name, "last_login_at=?, last_login_host=?", (at, host))

    def record_logout(self, name: str, at: float) -> None:
        self._update(name, "last_logout_at=?", (at,))

    def update_rating(self, name: str, rating: float, experience: int) -> None:
        self._update(name, "rating=?, experience=?", (rating, experience))

    def update_ratings(self, changes: Iterable[tuple[str, float, int]]) -> None:
        """Several (name, rating, experience) in one transaction: both players of a
        finished match change together or not at all."""
        with self._write() as db:
            for name, rating, experience in changes:
                cursor = db.execute(
                    "UPDATE accounts SET rating=?, experience=? WHERE name = ?",
                    (rating, experience, name),
                )
                if cursor.rowcount != 1:
                    raise NoSuchAccount(name)

    # ------------------------------------------------------------- ratings list

    #: Only experienced players are ranked (FIBS: experience above 50, §8).
    RANKED_EXPERIENCE: Final = 50

    def ratings_page(self, first_rank: int, last_rank: int, *,
                     everyone: bool = False) -> list[tuple[int, str, float, int]]:
        """(rank, name, rating, experience) of the ranked players in ranks first..last
        (with `everyone`, the provisional players too, ranked among them: fibsd's
        `ratings all`, for a new club where nobody has 50 points of experience yet)."""
        if last_rank < first_rank or last_rank < 1:
            return []
        first_rank = max(first_rank, 1)
        rows = self._read(
            "SELECT name, rating, experience FROM accounts WHERE experience > ?"
            " ORDER BY rating DESC, name LIMIT ? OFFSET ?",
            (-1 if everyone else self.RANKED_EXPERIENCE, last_rank - first_rank + 1, first_rank - 1),
        )
        return [
            (first_rank + index, row["name"], float(row["rating"]), int(row["experience"]))
            for index, row in enumerate(rows)
        ]

    def rating_rank(self, name: str, *, everyone: bool = False) -> int | None:
        """`name`'s rank in the ratings list, or None if unknown or not ranked."""
        least = -1 if everyone else self.RANKED_EXPERIENCE
        rows = self._read(
            "SELECT a.name, (SELECT COUNT(*) FROM accounts b WHERE b.experience > ?"
            " AND (b.rating > a.rating OR (b.rating = a.rating AND b.name < a.name))) AS better"
            " FROM accounts a WHERE a.name = ? AND a.experience > ?",
            (least, name, least),
        )
        return int(rows[0]["better"]) + 1 if rows else None

    def delete_account(self, name: str) -> None:
        """Remove the account and its pending messages (admin `erase`)."""
        with self._write() as db:
            if db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount != 1:
                raise NoSuchAccount(name)

    def _update(self, name: str, assignments: str, values: tuple[object, ...]) -> None:
        # `assignments` is always a literal from this class, never user input.
        with self._write() as db:
            cursor = db.execute(
                f"UPDATE accounts SET {assignments} WHERE name = ?", (*values, name)
            )
            if cursor.rowcount != 1:
                raise NoSuchAccount(name)

    def record_drop(self, name: str) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO drop_counts (name, drops) VALUES (?, 1)"
                " ON CONFLICT (name) DO UPDATE SET drops = drop_counts.drops + 1",
                (name,),
            )

    def drop_count(self, name: str) -> int:
        rows = self._read("SELECT drops FROM drop_counts WHERE name = ?", (name,))
        return int(rows[0]["drops"]) if rows else 0
