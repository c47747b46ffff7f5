"""Reading the store (issue 21 §2, docs/architecture.md "Reading the store"): the core
reads only through the declared `Reader` (hot facts, from memory or a local file); every
other read is a job's, off the event loop.

The measure is checked on the source: no store read in `fibsd/app/` except through the
reader, or inside a function that a job or a write runs with the store it is given.
Then transcripts show a cold read going through a job and the reader's facts on both
backends.
"""

from __future__ import annotations

import ast
import threading
from pathlib import Path

from fibsd.domain.accounts import Account
from fibsd.app import dispatch
from fibsd.store import Reader, SavedMatchInfo, Store
from tests.app.driver import CoreDriver
from tests.conftest import StoreBackend

APP = Path(__file__).resolve().parents[2] / "fibsd" / "app"

#: Every read of the store's API (its families' methods that return what is stored).
READS = frozenset({
    "get_account", "account_exists", "ratings_page", "rating_rank", "drop_count",
    "pending_messages", "saved_match", "saved_matches_of", "saved_match_info",
    "match_record", "match_records_of", "sanction_until", "invitation_code_usable",
    "open_chouettes", "chouette", "chouettes_naming", "last_chouette_id", "saved_tournaments",
    "saved_schedules", "analysis_jobs", "analysis", "analysis_sgf", "average_pr",
})
#: The reads the core may make on the event loop: the `Reader`'s.
DECLARED = frozenset(name for name in dir(Reader) if not name.startswith("_"))


def _store_reads_outside_jobs(tree: ast.AST, *, registry_module: bool = False) -> list[tuple[int, str]]:
    """(line, code) of every way the core could read the store outside the reader and
    jobs: a store held in the core (`x.store`; `x._store` outside `Registry.read` and
    its constructor), a read called on a `store` that is not a parameter of an enclosing
    function (a job's query, a write), or an undeclared read on the reader."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, params: frozenset[str], function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            names = {arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
            params = params | names
            if not isinstance(node, ast.Lambda):
                function = node.name
        if isinstance(node, ast.Attribute) and node.attr in ("store", "_store"):
            allowed = registry_module and node.attr == "_store" and function in ("read", "__init__")
            if not allowed:
                found.append((node.lineno, ast.unparse(node)[:80]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, method = node.func.value, node.func.attr
            if isinstance(owner, ast.Name) and owner.id == "store" and method in READS \
                    and "store" not in params:
                found.append((node.lineno, ast.unparse(node)[:80]))
            if isinstance(owner, ast.Attribute) and owner.attr == "reader" and method not in DECLARED:
                found.append((node.lineno, ast.unparse(node)[:80]))
        for child in ast.iter_child_nodes(node):
            visit(child, params, function)

    visit(tree, frozenset(), "")
    return found


def test_the_reader_declares_only_hot_reads() -> None:
    # (saved_tournaments and saved_schedules, like open_chouettes, are what the store held
    # when it opened: the core loads them once.)
    assert DECLARED == {"sanction_until", "saved_match_info", "last_chouette_id", "open_chouettes",
                        "saved_tournaments", "saved_schedules"}


def test_no_store_read_in_the_core_outside_the_reader_and_jobs() -> None:
    offences = {}
    for path in sorted(APP.rglob("*.py")):
        found = _store_reads_outside_jobs(ast.parse(path.read_text(encoding="utf-8")),
                                          registry_module=path.name == "registry.py")
        if found:
            offences[str(path.relative_to(APP))] = found
    assert offences == {}


def test_the_measure_catches_a_direct_read() -> None:
    assert _store_reads_outside_jobs(ast.parse("registry.store.get_account(name)"))
    assert _store_reads_outside_jobs(ast.parse("def f(registry):\n    registry._store.ratings_page(1, 2)"))
    assert _store_reads_outside_jobs(ast.parse("store.saved_match(a, b)"))
    assert _store_reads_outside_jobs(ast.parse("registry.reader.get_account(name)"))
    assert not _store_reads_outside_jobs(ast.parse("registry.read(lambda store: store.get_account(n), then)"))
    assert not _store_reads_outside_jobs(ast.parse("registry.reader.sanction_until('mute', n, 1.0)"))


def test_a_cold_read_is_a_job_that_holds_the_prompt_and_runs_off_the_loop() -> None:
    core = CoreDriver()
    core.create("alice", "bob")
    alice = core.log_in("alice")
    outcome = dispatch.handle(core.registry, alice, "whois bob", monotonic=core.clock.now())
    # Nothing answered yet: the read is a job that holds alice's prompt.
    assert not outcome.deliveries
    assert [job.holds_prompt for job in outcome.jobs] == [True]
    job = outcome.jobs[0]
    results: list[object] = []
    worker = threading.Thread(target=lambda: results.append(job.work()))  # as the shell does
    worker.start()
    worker.join()
    core.take("alice")
    core.apply(job.then(results[0]))
    assert any(line.startswith("Information about bob:") for line in core.take("alice"))


def test_cold_reads_answer_as_before_through_the_driver() -> None:
    core = CoreDriver()
    core.create("alice", "bob")
    core.log_in("alice")
    unknown = core.send("alice", "whois nobody")  # answered by the job, before the prompt
    assert unknown and all("nobody" in line for line in unknown if line)
    lines = core.send("alice", "message bob see you")
    assert any("bob" in line for line in lines)  # saved for the offline bob
    bob = core.log_in("bob")
    assert bob.name == "bob"
    assert any("see you" in line for line in core.take("bob"))


# --- the reader's facts, on each backend --------------------------------------------------


def test_the_reader_sees_committed_sanctions_and_saved_matches(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.create_account(Account.new("Alice", "h", 1.0))
        assert store.sanction_until("mute", "ALICE", 10.0) is None
        store.impose("mute", "Alice", until=None, reason="", by="admin", at=1.0)
        store.impose("ban-account", "bob", until=20.0, reason="", by="admin", at=1.0)
        assert store.sanction_until("mute", "alice", 10.0) == float("inf")
        assert store.sanction_until("ban-account", "BOB", 10.0) == 20.0
        assert store.sanction_until("ban-account", "bob", 30.0) is None  # expired
        assert store.lift("mute", "alice")
        assert store.sanction_until("mute", "alice", 10.0) is None

        assert store.saved_match_info("alice", "bob") is None
        store.save_match("Alice", "bob", {"match": {"options": {"length": 7}}}, 2.0)
        assert store.saved_match_info("BOB", "alice") == SavedMatchInfo(7)
        store.save_match("alice", "carol", {"match": {"options": {"length": None}}}, 2.0)
        assert store.saved_match_info("carol", "alice") == SavedMatchInfo(None)
        store.delete_saved_match("bob", "alice")
        assert store.saved_match_info("alice", "bob") is None

        assert store.last_chouette_id() == 0
        store.save_chouette(3, "alice", {"open": True}, 3.0)
        store.save_chouette(4, "alice", {"closed": True}, 3.0, closed=True)
        assert store.last_chouette_id() == 4
    with backend.open() as store:  # as a restarted server finds them
        assert store.sanction_until("ban-account", "bob", 10.0) == 20.0
        assert store.saved_match_info("alice", "carol") == SavedMatchInfo(None)
        assert store.last_chouette_id() == 4
        assert store.open_chouettes() == [{"open": True}]


def test_a_batch_changes_the_readers_facts_only_for_writes_that_commit(backend: StoreBackend) -> None:
    with backend.open() as store:
        def failing(s: Store) -> None:
            s.impose("mute", "dave", until=None, reason="", by="admin", at=1.0)
            raise ValueError("this write fails after its change")

        errors = store.run_batch([
            lambda s: s.impose("mute", "carol", until=None, reason="", by="admin", at=1.0),
            failing,
            lambda s: s.save_match("erin", "frank", {"match": {"options": {"length": 3}}}, 1.0),
        ])
        assert [type(error) for error in errors] == [type(None), ValueError, type(None)]
        assert store.sanction_until("mute", "carol", 2.0) == float("inf")
        assert store.sanction_until("mute", "dave", 2.0) is None  # undone with its savepoint
        assert store.saved_match_info("frank", "erin") == SavedMatchInfo(3)
