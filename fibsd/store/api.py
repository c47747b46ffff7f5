"""The store's API: what the server may ask of any backend, grouped by family, with the
record types and errors the families return and raise.

This module is all the core (`fibsd.app`) knows of storage (a contract in setup.cfg
forbids it the backends). Each family is a `Protocol`; `Store` is all of them together
plus the transaction and lifetime methods the shell uses. A backend (`fibsd.store.sqlite`)
implements `Store`; it has no clock (callers pass epoch seconds in) and knows nothing of
trio or the protocol.

Guarantees every backend gives: every method is one transaction (when it returns, the
change is durable); `run_batch` runs many writes in one transaction (group commit), each
write a savepoint of it, so one that fails is undone alone and reported in its place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, Self

import attrs

from fibsd.accounts import Account, Toggles, Variables
from fibsd.matfile import MatchRecord

# --- errors ---------------------------------------------------------------------------


class StoreError(Exception):
    """The database cannot be used (corrupt, too new, not a database); one-line message."""


class NameTaken(Exception):
    """An account with this name (in any case) already exists."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class NoSuchAccount(Exception):
    """No account has this name (in any case)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


# --- records ----------------------------------------------------------------------------


@attrs.frozen
class StoredMessage:
    """An offline message waiting for its recipient; `id` orders and deletes it."""

    id: int
    recipient: str
    sender: str
    sent_at: float
    text: str


#: One step of a saved match's patch: ["update", path, object] or ["extend", path, list].
PatchStep = tuple[str, Sequence[str], object]


def apply_patch(data: dict[str, object], patch: Iterable[Sequence[object]]) -> None:
    """Apply `patch` to `data` in place, step by step: `update` merges an object's keys
    into the object at the path of keys (the empty path is `data` itself); `extend`
    appends a list's values to the list at the path."""
    for step in patch:
        operation, path, value = step
        if not isinstance(path, list | tuple):
            raise ValueError(f"bad patch path {path!r}")
        target: Any = data
        for key in path:
            target = target[key]
        if operation == "update" and isinstance(target, dict) and isinstance(value, dict):
            target.update(value)
        elif operation == "extend" and isinstance(target, list) and isinstance(value, list):
            target.extend(value)
        else:
            raise ValueError(f"bad patch step {operation!r} at {path!r}")


# --- the families -----------------------------------------------------------------------


class AccountStore(Protocol):
    """Accounts (names unique in any case), their settings, ratings and drop counts."""

    def create_account(self, account: Account) -> None:
        """Store a new account; `NameTaken` if the name exists in any case."""

    def get_account(self, name: str) -> Account | None:
        """The account called `name` in any case (with its stored spelling), or None."""

    def account_exists(self, name: str) -> bool:
        """True if an account called `name` (in any case) exists."""

    def save_account(self, account: Account) -> None:
        """Overwrite every field of the existing account `account.name`."""

    def update_toggles(self, name: str, toggles: Toggles) -> None: ...
    def update_variables(self, name: str, variables: Variables) -> None: ...
    def set_email(self, name: str, email: str | None) -> None: ...
    def set_password_hash(self, name: str, password_hash: str) -> None: ...
    def record_login(self, name: str, at: float, host: str) -> None: ...
    def record_logout(self, name: str, at: float) -> None: ...
    def update_rating(self, name: str, rating: float, experience: int) -> None: ...

    def update_ratings(self, changes: Iterable[tuple[str, float, int]]) -> None:
        """Several (name, rating, experience) in one transaction."""

    def ratings_page(self, first_rank: int, last_rank: int) -> list[tuple[int, str, float, int]]:
        """(rank, name, rating, experience) of the ranked players in ranks first..last."""

    def rating_rank(self, name: str) -> int | None:
        """`name`'s rank in the ratings list, or None if unknown or not ranked."""

    def delete_account(self, name: str) -> None:
        """Remove the account and its pending messages (admin `erase`)."""

    def record_drop(self, name: str) -> None: ...
    def drop_count(self, name: str) -> int: ...


class MessageStore(Protocol):
    """Offline messages, kept until delivered."""

    def add_message(self, recipient: str, sender: str, sent_at: float, text: str) -> int:
        """Store a message for `recipient` (any case); its id. `NoSuchAccount` if none."""

    def pending_messages(self, recipient: str) -> list[StoredMessage]:
        """The messages waiting for `recipient`, oldest first."""

    def delete_messages(self, ids: Iterable[int]) -> None:
        """Forget delivered messages; ids that are already gone are ignored."""


class SavedMatchStore(Protocol):
    """Saved (interrupted) matches, one per pair of players, and their patches."""

    def save_match(
        self, name: str, other: str, data: dict[str, object], at: float, *, finished_from: int = 0,
    ) -> None:
        """Store (or replace) the saved match between `name` and `other`, whole."""

    def patch_saved_match(self, name: str, other: str, patch: Sequence[PatchStep], at: float) -> None:
        """Record a change to the saved match between `name` and `other`."""

    def saved_match(self, name: str, other: str) -> dict[str, object] | None:
        """The saved match between the two players, or None (also for unreadable data)."""

    def delete_saved_match(self, name: str, other: str) -> None: ...

    def saved_matches_of(self, name: str) -> list[tuple[str, dict[str, object]]]:
        """(opponent's name key, data) of every saved match `name` takes part in."""


class MatchRecordStore(Protocol):
    """Finished matches, kept for `.mat` export."""

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
    ) -> int:
        """Keep a finished match (and apply `ratings` in the same transaction); its id."""

    def match_record(self, record_id: int) -> MatchRecord | None: ...

    def match_records_of(self, name: str, limit: int = 20) -> list[MatchRecord]:
        """The last `limit` finished matches `name` (any case) played, newest first."""


class SanctionStore(Protocol):
    """The operators' sanctions (bans, mutes) and registration invitation codes."""

    def impose(self, kind: str, target: str, *, until: float | None, reason: str, by: str,
               at: float) -> None: ...

    def lift(self, kind: str, target: str) -> bool:
        """Lift a sanction; False if there was none."""

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        """None if `target` is free; else the end of the sanction (`inf` if open-ended)."""

    def add_invitation_codes(self, codes: Iterable[str], *, by: str, at: float) -> None: ...

    def use_invitation_code(self, code: str, *, name: str, at: float) -> bool:
        """Spend an unused code for `name`'s registration; False if unknown or used."""

    def invitation_code_usable(self, code: str) -> bool: ...


class ChouetteStore(Protocol):
    """Chouette tables, their whole state saved after every action."""

    def save_chouette(self, table_id: int, owner: str, state: dict[str, object], at: float,
                      *, closed: bool = False) -> None: ...

    def open_chouettes(self) -> list[dict[str, object]]:
        """The saved state of every chouette not closed, by number."""

    def chouette(self, table_id: int) -> dict[str, object] | None:
        """One chouette's saved state, closed or not."""

    def chouettes_naming(self, name: str) -> list[tuple[int, bool, dict[str, object]]]:
        """(number, closed, saved state) of every chouette whose saved state names `name`."""

    def last_chouette_id(self) -> int: ...


class Store(
    AccountStore, MessageStore, SavedMatchStore, MatchRecordStore, SanctionStore, ChouetteStore,
    Protocol,
):
    """Every family, and the transaction and lifetime methods of the shell."""

    def schema_version(self) -> int:
        """The migration number the database is at (0 = empty)."""

    def run_batch(self, writes: Sequence[Callable[[Store], object]]) -> list[BaseException | None]:
        """Group commit: run `writes` in ONE transaction; each a savepoint, and one that
        raises is undone alone, its exception returned in its place."""

    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc_info: object) -> None: ...
