"""The `Reader` facts of a networked backend, kept in memory (`fibsd.store.api.Reader`).

A backend whose database is across a network (PostgreSQL) must still answer the core's
hot reads at once, on the event loop: it loads these facts when it opens and keeps them
current itself, applying each of its writes here once that write has COMMITTED (a write
of a batch when the batch commits; nothing of a batch that rolls back). So the core sees
exactly what it would see reading the database: the committed state.

One lock guards them: the committer's worker thread changes them, the event loop reads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from fibsd.store.api import SavedMatchInfo


class Facts:
    """Active sanctions, the saved matches' keys and lengths, the last chouette number,
    and the chouettes open when the store was opened."""

    def __init__(
        self,
        *,
        sanctions: Iterable[tuple[str, str, float | None]],
        saved: Iterable[tuple[str, str, SavedMatchInfo]],
        last_chouette_id: int,
        open_chouettes: list[dict[str, object]],
        saved_tournaments: list[dict[str, object]] | None = None,
        saved_schedules: list[dict[str, object]] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._sanctions = {(kind, target.lower()): until for kind, target, until in sanctions}
        self._saved = {(low, high): info for low, high, info in saved}
        self._last_chouette_id = last_chouette_id
        self._open_chouettes = open_chouettes
        self._saved_tournaments = saved_tournaments or []
        self._saved_schedules = saved_schedules or []

    # --- the Reader ------------------------------------------------------------------

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        with self._lock:
            key = (kind, target.lower())
            if key not in self._sanctions:
                return None
            until = self._sanctions[key]
        if until is None:
            return float("inf")
        return until if until > now else None

    def saved_match_info(self, low: str, high: str) -> SavedMatchInfo | None:
        with self._lock:
            return self._saved.get((low, high))

    def last_chouette_id(self) -> int:
        with self._lock:
            return self._last_chouette_id

    def open_chouettes(self) -> list[dict[str, object]]:
        return list(self._open_chouettes)

    def saved_tournaments(self) -> list[dict[str, object]]:
        return list(self._saved_tournaments)

    def saved_schedules(self) -> list[dict[str, object]]:
        return list(self._saved_schedules)

    # --- changes, applied once committed ---------------------------------------------

    def imposed(self, kind: str, target: str, until: float | None) -> Callable[[], None]:
        def apply() -> None:
            with self._lock:
                self._sanctions[(kind, target.lower())] = until
        return apply

    def lifted(self, kind: str, target: str) -> Callable[[], None]:
        def apply() -> None:
            with self._lock:
                self._sanctions.pop((kind, target.lower()), None)
        return apply

    def saved(self, low: str, high: str, info: SavedMatchInfo) -> Callable[[], None]:
        def apply() -> None:
            with self._lock:
                self._saved[(low, high)] = info
        return apply

    def deleted(self, low: str, high: str) -> Callable[[], None]:
        def apply() -> None:
            with self._lock:
                self._saved.pop((low, high), None)
        return apply

    def chouette_saved(self, table_id: int) -> Callable[[], None]:
        def apply() -> None:
            with self._lock:
                self._last_chouette_id = max(self._last_chouette_id, table_id)
        return apply
