"""The store: everything fibsd keeps, behind one API, with a backend per database.

Layout:

- `api.py`: the API. A `Protocol` per family (accounts, messages, saved matches and their
  patches, match records, sanctions, chouettes, analyses, tournaments), `Store` (all of them, plus group commit
  and lifetime), the record types and the errors. This package's top level re-exports
  it, and it is all the core (`fibsd.app`) may import of the store (a contract in
  setup.cfg forbids the backends).
- `families/`: each family's operations as SQL, written once over a backend's database
  helper (`families/base.py`), and `Families`, all of them with `run_batch`.
- `sqlite.py`: the SQLite backend (the default, one file): connections, WAL and fsync,
  transactions and the batch, migrations.
- `postgresql.py`: the PostgreSQL backend (psycopg 3, a bounded pool, waiting for a
  database that restarts), with `memory.py`, its `Reader` facts kept in memory.
- `migrations/`: the schema versions, one list per backend, the same length.
- `backends.py`: `open_store(location)`, the backend a location names (for the shell and
  the command line). `copy.py`: `fibsd migrate-store` (SQLite to PostgreSQL, checked).

Adding a family (say, tournaments):
1. `api.py`: a `TournamentStore(Protocol)` with its methods and record types, added to
   `Store`'s bases.
2. `families/tournaments.py`: `class Tournaments(Family)` with those methods, SQL through
   `self._write()` / `self._read()`; added to `Families`' bases in `families/__init__.py`.
3. A migration creating its tables: one entry appended to every backend's list in
   `migrations/` (same position).
4. Tests through the API with the `backend` fixture (tests/conftest.py), so that they run
   on SQLite and on a real PostgreSQL both (`tests/app/test_store_families.py`).
5. The core writes it with `out.write(lambda store: ...)` and reads it with
   `registry.read(query, then)` (a job). Only a small fact the core needs at once goes on
   `api.Reader`, and then the PostgreSQL backend answers it from memory
   (`memory.Facts`, kept by its own writes): docs/architecture.md, "Reading the store".

Adding a migration: append it to every backend's list in `migrations/` (never edit or
reorder one that has shipped); the backend runs it at start.

May import: the leaves (`fibsd.domain`, `fibsd.infra`), `fibsd.rules`, `protocol`, and
the database drivers. Never the core (`fibsd.app`), the shell, the tools or trio (the
import contracts in setup.cfg).
"""

from fibsd.store.api import (
    AccountStore,
    AnalysisStore,
    ChouetteSave,
    ChouetteStore,
    MatchRecordStore,
    MessageStore,
    NameTaken,
    NoSuchAccount,
    PatchStep,
    Reader,
    SanctionStore,
    SavedMatchInfo,
    SavedMatchStore,
    Store,
    StoredMessage,
    StoreError,
    apply_patch,
)

__all__ = [
    "AccountStore",
    "AnalysisStore",
    "ChouetteSave",
    "ChouetteStore",
    "MatchRecordStore",
    "MessageStore",
    "NameTaken",
    "NoSuchAccount",
    "PatchStep",
    "Reader",
    "SanctionStore",
    "SavedMatchInfo",
    "SavedMatchStore",
    "Store",
    "StoreError",
    "StoredMessage",
    "apply_patch",
]
