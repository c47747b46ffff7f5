"""Fixtures shared by every test directory: the store's backends.

`backend` runs a test once per backend of the store: SQLite (a file in the test's
directory) and PostgreSQL (a new database on a throw-away cluster, `postgresql_cluster`,
started once per session by `fibsd.tools.pgcluster` and stopped by its PID at the end).
`backend.open()` opens a store there; calling it again reopens the same database.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import attrs
import hypothesis
import pytest

from fibsd.store import Store
from fibsd.store.backends import open_store
from fibsd.tools import pgcluster

# Hypothesis's per-example deadline (200 ms) is a timing assertion: on a 2-core machine
# busy with other work a plain example can take longer, and the test then fails for the
# machine's sake, not the code's (issue 20 §3). Examples still run; only the timer goes.
hypothesis.settings.register_profile("fibsd", deadline=None)
hypothesis.settings.load_profile("fibsd")

BACKENDS = ("sqlite", "postgresql")
# The session's cluster is thrown away at the end, and what a test checks survives (a kill
# -9 of fibsd, a restart of PostgreSQL) lives in the kernel's page cache either way:
# waiting for the disk at every commit and every new database only slows the suite down.
# (Only an operating system crash would lose data; no test makes one. The clusters of
# the tests that stop or crash PostgreSQL itself keep the defaults.)
_THROWAWAY = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgresql_cluster() -> Iterator[pgcluster.Cluster]:
    """A throw-away PostgreSQL cluster for the session (./scripts/test installs Debian's
    postgresql when it is missing)."""
    if pgcluster.binaries() is None:
        pytest.fail("PostgreSQL is not installed: run ./scripts/test, or apt-get install postgresql")
    cluster = pgcluster.Cluster.start(settings=_THROWAWAY)
    try:
        yield cluster
    finally:
        cluster.stop()


def new_database(cluster: pgcluster.Cluster) -> str:
    """A new, empty database on `cluster`; its URL."""
    import psycopg

    name = f"test_{next(_databases)}"
    with psycopg.connect(cluster.url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return cluster.url_of(name)


@attrs.define
class StoreBackend:
    """One backend, with one database for the test."""

    name: str
    location: str

    def open(self) -> Store:
        return open_store(self.location)

    @property
    def is_postgresql(self) -> bool:
        return self.name == "postgresql"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> StoreBackend:
    """The test's store location on each backend in turn."""
    if request.param == "postgresql":
        cluster: pgcluster.Cluster = request.getfixturevalue("postgresql_cluster")
        return StoreBackend("postgresql", new_database(cluster))
    return StoreBackend("sqlite", str(tmp_path / "fibsd.db"))
