"""The store's families, written once for every backend.

Each module is one family of `fibsd.store.api` (accounts, messages, saved matches and
their patches, match records, sanctions, chouettes, tournaments, player records,
puzzles) as a class of methods over the backend's database helper (`base.Database`). `Families` puts them together with the
group commit (`run_batch`); a backend (`fibsd.store.sqlite`) subclasses it and supplies
the database.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, Self

from fibsd.store.api import Store
from fibsd.store.families.accounts import Accounts
from fibsd.store.families.analyses import Analyses
from fibsd.store.families.base import Database
from fibsd.store.families.chouettes import Chouettes
from fibsd.store.families.messages import Messages
from fibsd.store.families.player_records import PlayerRecords
from fibsd.store.families.puzzles import Puzzles
from fibsd.store.families.records import MatchRecords
from fibsd.store.families.sanctions import Sanctions
from fibsd.store.families.saved_matches import SavedMatches
from fibsd.store.families.tournaments import Tournaments


class BatchDatabase(Database, Protocol):
    """A database that can run many writes in one transaction, and be closed."""

    def batch(self) -> AbstractContextManager[None]:
        """One transaction for the writes of `run_batch`: `write()` in this thread opens a
        savepoint of it until it ends; committed on exit."""

    def schema_version(self) -> int: ...
    def close(self) -> None: ...


class Families(Accounts, Messages, SavedMatches, MatchRecords, Sanctions, Chouettes, Analyses,
               Tournaments, PlayerRecords, Puzzles):
    """Every family over one `BatchDatabase` (set by the backend's constructor)."""

    _database: BatchDatabase

    def schema_version(self) -> int:
        """The migration number the database is at (0 = empty)."""
        return self._database.schema_version()

    def run_batch(self, writes: Sequence[Callable[[Store], object]]) -> list[BaseException | None]:
        """Group commit: run `writes` (each a function of this store) in ONE transaction,
        so one commit makes them all durable. Each write is a savepoint: one that raises is
        undone alone and its exception returned in its place; the others commit."""
        results: list[BaseException | None] = []
        with self._database.batch():
            for write in writes:
                try:
                    with self._database.write():  # the whole write, however many calls
                        write(self)
                except Exception as error:  # that write only; reported to its caller
                    results.append(error)
                else:
                    results.append(None)
        return results

    def close(self) -> None:
        self._database.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
