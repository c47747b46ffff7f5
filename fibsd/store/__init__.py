"""The store (moved into a package; see fibsd.store.sqlite)."""

from fibsd.store.sqlite import *  # noqa: F403
from fibsd.store.sqlite import (  # noqa: F401
    MIGRATIONS, SCHEMA_VERSION, NameTaken, NoSuchAccount, PatchStep, Store, StoredMessage,
    StoreError, apply_patch,
)
