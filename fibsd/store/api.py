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

from fibsd.domain.accounts import Account, Toggles, Variables
from fibsd.domain.match_analysis import MatchAnalysis
from fibsd.domain.glicko2 import Glicko2
from fibsd.domain.puzzles import Puzzle
from fibsd.domain.matfile import MatchRecord
from fibsd.domain.player_record import MatchEnding, OpponentsPr, PlayerRecord

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


@attrs.frozen
class SavedMatchInfo:
    """What the core needs to know of a saved match without reading it: that it exists,
    and its length (None: unlimited, or not readable from its whole copy)."""

    length: int | None


def saved_match_info(data: dict[str, object]) -> SavedMatchInfo:
    """The info of a saved match's whole copy (`match.options.length`)."""
    try:
        length = data["match"]["options"]["length"]  # type: ignore[index]
    except (KeyError, TypeError):
        return SavedMatchInfo(None)
    return SavedMatchInfo(length if isinstance(length, int) and not isinstance(length, bool) else None)


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


# --- a running match's save, as a value ----------------------------------------------


@attrs.frozen
class MatchCopy:
    """A running match saved whole: its first save, and the first of each new game.

    `state` lacks the first `finished_from` finished games (stored by an earlier save)."""

    players: tuple[str, str]
    state: dict[str, Any]
    at: float
    finished_from: int = 0


@attrs.frozen
class MatchChange:
    """What changed in a running match within its current game since its last save: the
    table's and the match's small states only if they changed, the game's state, and the
    events the game's history gained. A constant size, however long the match."""

    players: tuple[str, str]
    table_state: dict[str, Any] | None
    match_state: dict[str, Any] | None
    game_state: dict[str, Any]
    history_added: list[dict[str, Any]]
    at: float

    def patch(self) -> list[PatchStep]:
        """The change as patch steps on the saved whole (`apply_patch`): where each part
        lives in a saved match is spelled here, once."""
        steps: list[PatchStep] = []
        if self.table_state is not None:
            steps.append(("update", (), self.table_state))
        if self.match_state is not None:
            steps.append(("update", ("match",), self.match_state))
        steps.append(("update", ("match", "game"), self.game_state))
        steps.append(("extend", ("match", "game", "history"), self.history_added))
        return steps


#: A running match's save (`fibsd.app.play.table.Table.persist` makes one after every
#: action; `save_running_match` stores it).
MatchSave = MatchCopy | MatchChange


def save_running_match(store: SavedMatchStore, save: MatchSave) -> None:
    """Store a running match's save with the saved-match family's methods."""
    first, second = save.players
    match save:
        case MatchCopy():
            store.save_match(first, second, save.state, save.at, finished_from=save.finished_from)
        case MatchChange():
            store.patch_saved_match(first, second, save.patch(), save.at)


# --- the families -----------------------------------------------------------------------


class AccountStore(Protocol):
    """Accounts (names unique in any case), their settings, ratings and drop counts."""

    def create_account(self, account: Account) -> None:
        """Store a new account; `NameTaken` if the name exists in any case."""

    def get_account(self, name: str) -> Account | None:
        """The account called `name` in any case (with its stored spelling), or None."""

    def account_exists(self, name: str) -> bool:
        """True if an account called `name` (in any case) exists."""

    def set_bot(self, name: str, bot: bool) -> None:
        """Mark the account as a bot's, or clear the mark (club-play.md B1)."""

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

    def ratings_page(self, first_rank: int, last_rank: int, *,
                     everyone: bool = False) -> list[tuple[int, str, float, int]]:
        """(rank, name, rating, experience) of the ranked players in ranks first..last
        (with `everyone`, the provisional players too, ranked among them)."""

    def rating_rank(self, name: str, *, everyone: bool = False) -> int | None:
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

    def saved_match_info(self, name: str, other: str) -> SavedMatchInfo | None:
        """Whether the two players have a saved match, and its length (a `Reader` fact)."""

    def saved_matches_of(self, name: str) -> list[tuple[str, dict[str, object]]]:
        """(opponent's name key, data) of every saved match `name` takes part in."""

    def saved_clocked_matches(self) -> list[dict[str, object]]:
        """The data of every saved match with a clock (read at start: the correspondence
        matches and the clocks that run through a drop go on, docs/clocks.md)."""


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
        ending: MatchEnding | None = None,
    ) -> int:
        """Keep a finished match (and apply `ratings` in the same transaction); its id.
        `ending`: how it ended, for `show record` (None: unknown)."""

    def match_record(self, record_id: int) -> MatchRecord | None: ...

    def match_records_of(self, name: str, limit: int = 20) -> list[MatchRecord]:
        """The last `limit` finished matches `name` (any case) played, newest first."""


class PlayerRecordStore(Protocol):
    """Every player's record (`show record`), counted by queries, and the abandoned matches."""

    def record_abandoned_match(self, players: tuple[str, str], length: int | None,
                               at: float) -> None:
        """A saved match of these two was replaced by a new match: it was abandoned."""

    def player_record(self, name: str, opponent: str | None = None) -> PlayerRecord:
        """`name`'s record (any case), or his record against `opponent`."""

    def opponents_pr(self, name: str) -> OpponentsPr:
        """The PR of `name`'s opponents in his analysed matches (a house bot's page)."""


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


@attrs.frozen
class ChouetteSave:
    """A chouette table's save, as a typed value (docs/chouette.md): the table's whole
    state (small: one JSON object, `ChouetteTable.saved`), its owner and whether it is
    closed (a closed table stays, for its ledger). The table says what to save; the
    store interprets it (`apply`, and calling it as an `Outcome` write)."""

    table_id: int
    owner: str
    state: dict[str, object]
    at: float
    closed: bool = False

    def apply(self, store: ChouetteStore) -> None:
        store.save_chouette(self.table_id, self.owner, self.state, self.at, closed=self.closed)

    def __call__(self, store: ChouetteStore) -> None:
        self.apply(store)


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


class AnalysisStore(Protocol):
    """Engine analysis (issue 23): jobs waiting, finished analyses, PRs per player."""

    def queue_analysis(self, record_id: int, requesters: Sequence[str], at: float) -> None:
        """Keep a job (or replace its requesters) until it is saved or dropped."""

    def analysis_jobs(self) -> list[tuple[int, list[str]]]:
        """The jobs waiting, oldest first: (record id, requesters' name keys)."""

    def drop_analysis_job(self, record_id: int) -> None: ...

    def save_analysis(self, analysis: MatchAnalysis, sgf: str,
                      puzzles: Sequence[Puzzle] = ()) -> None:
        """Keep a finished analysis, gnubg's .sgf, each player's PR and the match's
        puzzles (replacing an earlier analysis's); its job is done."""

    def match_puzzles(self, record_id: int) -> list[tuple[int, Puzzle]]:
        """The puzzles of one analysed match, in match order, with their numbers."""

    def analysis(self, record_id: int) -> MatchAnalysis | None: ...

    def analysis_sgf(self, record_id: int) -> str | None: ...

    def average_pr(self, name: str) -> tuple[float, int] | None:
        """A player's mean PR over his analysed matches, and how many; None if none."""


class PuzzleStore(Protocol):
    """Puzzles (issue 37): the next one for a user, his answers, whom he watched."""

    def next_puzzle(self, key: str, *, mine: bool, since: float) -> tuple[int, Puzzle] | None:
        """The oldest puzzle `key` has not answered (his own errors only if `mine`), never
        from a match he watched live since `since`."""

    def save_puzzle_answer(self, puzzle_id: int, key: str, answer: str, lost: float,
                           score: float, at: float) -> None:
        """Keep the answer (the first counts) and move the solver's and the puzzle's
        Glicko-2 ratings by `score` (0..1)."""

    def puzzle_rating(self, key: str) -> tuple[Glicko2, int, int, float] | None:
        """(rating, puzzles answered, best answers, mean equity lost); None if none."""

    def puzzle_answers(self, key: str) -> list[tuple[int, str, float]]:
        """(puzzle number, answer, equity lost) of each answer, oldest first."""

    def note_watch(self, key: str, player_key: str, at: float) -> None: ...


class TournamentStore(Protocol):
    """Tournaments (docs/tournaments.md), each one's whole state saved after every change."""

    def save_tournament(self, tournament_id: int, name: str, state: dict[str, object]) -> None:
        """Store (or replace) tournament number `tournament_id`'s whole state (its name is
        kept beside it: names are reused once a tournament is over, ids never)."""



class Reader(Protocol):
    """The reads the core may make on the event loop, and the only ones (docs/architecture.md,
    "Reading the store"): small, hot facts that every backend answers from memory or a
    local file, never over a network. The SQLite backend answers from its file (indexed
    lookups on a read-only connection); the PostgreSQL backend from memory, loaded when
    it opens and kept current by its own writes once they commit. Everything else the
    core reads is a cold read: a job (`fibsd.app.registry.Registry.read`), run in a
    worker thread."""

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        """None if `target` is free; else the end of the sanction (`inf` if open-ended)."""

    def saved_match_info(self, name: str, other: str) -> SavedMatchInfo | None:
        """Whether the two players have a saved match, and its length."""

    def last_chouette_id(self) -> int:
        """The highest chouette number ever stored (0 if none)."""

    def open_chouettes(self) -> list[dict[str, object]]:
        """The saved state of every chouette not closed when the store was opened."""

    def saved_tournaments(self) -> list[dict[str, object]]:
        """The saved state of every tournament (open, running or over) when the store was
        opened: the core loads them once, at its first use of tournaments."""


class Store(
    AccountStore, MessageStore, SavedMatchStore, MatchRecordStore, SanctionStore, ChouetteStore,
    AnalysisStore, TournamentStore, PlayerRecordStore, PuzzleStore, Reader, Protocol,
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
