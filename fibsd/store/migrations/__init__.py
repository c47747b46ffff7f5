"""The store's schema versions, one list for every backend.

Schema version N is the N-th migration of each backend's list (`sqlite.MIGRATIONS`, and
the other backends' lists beside it): the same tables, columns and meaning in each
dialect, so that a database copied from one backend to another is at the same version.
A test checks that every backend's list has the same length.

Adding a migration: append one entry to EVERY backend's list (same position), never
edit or reorder one that has shipped. The backend runs the missing ones at start, each in
its own transaction, and refuses a database newer than it knows.
"""


def check_lengths() -> None:
    """Every backend's list has one entry per schema version (a StoreError if not)."""
    from fibsd.store.api import StoreError
    from fibsd.store.migrations import postgresql, sqlite

    lengths = {"sqlite": len(sqlite.MIGRATIONS), "postgresql": len(postgresql.MIGRATIONS)}
    if len(set(lengths.values())) != 1:
        raise StoreError(f"the backends' migration lists differ in length: {lengths}")
