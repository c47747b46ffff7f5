"""A Swiss round is paired off the event loop (issue 35 §2): through the core with the
driver holding background jobs (`hold_jobs`), so each transcript sees the tournament while
its round is being paired and after: nothing is announced until the job's result comes
back, a no-show tick decides nothing meanwhile, a cancel drops the result, and a restart
in that state pairs the round again."""

from __future__ import annotations

from fibsd.rules.tournament import Phase
from fibsd.store.sqlite import SQLiteStore as Store
from tests.app.driver import CoreDriver

NAMES = ["pa", "pb", "pc", "pd", "pe", "pf"]  # seeds 1 to 6


def _driver(store: Store | None = None) -> CoreDriver:
    driver = CoreDriver(store=store)
    driver.create(*NAMES)
    for index, name in enumerate(NAMES):
        driver.store.update_rating(name, 1900.0 - 50 * index, 100)
    for name in NAMES:
        driver.log_in(name)
    driver.send("pa", "tournament create sw swiss 1 rounds 3 noshow 30")
    for name in NAMES:
        driver.send(name, "tournament join sw")
    return driver


def _round_lines(lines: list[str], number: int) -> list[str]:
    return [line for line in lines if line.startswith(f"Tournament sw: round {number} pairings: ")]


def _finish_round(driver: CoreDriver) -> None:
    """Every pending pairing's better-ranked player wins (its opponent resigns)."""
    sw = driver.registry.tournaments["sw"]
    for pairing in list(sw.pending()):
        assert pairing.b is not None
        winner = pairing.a
        driver.send(pairing.b, "resign n")
        driver.send(winner, "accept")


def test_the_round_is_announced_when_the_pairing_job_comes_back() -> None:
    driver = _driver()
    driver.hold_jobs = True
    started = driver.send("pa", "tournament start sw")
    assert "Tournament sw starts with 6 players." in started
    assert _round_lines(started, 1) == []
    assert "  Round 1 of 3 is being paired." in driver.send("pb", "tournament show sw")
    driver.tick(60)  # past the no-show time: there is no pairing to decide yet
    sw = driver.registry.tournaments["sw"]
    assert sw.awaiting_pairing and sw.pairing_underway and sw.played_rounds == []
    assert len(driver.pending_jobs) == 1  # the tick did not pair it twice
    assert driver.run_jobs() == 1
    assert _round_lines(driver.take("pa"), 1) == ["Tournament sw: round 1 pairings: pa-pd, pb-pe, pc-pf"]
    assert "  Round 1 of 3 is being played." in driver.send("pb", "tournament show sw")
    assert not sw.awaiting_pairing and not sw.pairing_underway
    # The round's matches started once the pairing was applied.
    assert driver.sessions["pa"].table is not None


def test_a_result_completing_a_round_waits_for_the_next_pairing() -> None:
    driver = _driver()
    driver.send("pa", "tournament start sw")
    driver.hold_jobs = True
    _finish_round(driver)
    sw = driver.registry.tournaments["sw"]
    assert sw.round_number == 1 and sw.awaiting_pairing and len(driver.pending_jobs) == 1
    assert _round_lines(driver.take("pa"), 2) == []
    driver.run_jobs()
    assert len(_round_lines(driver.take("pa"), 2)) == 1
    assert sw.round_number == 2 and len(sw.pending()) == 3


def test_a_cancel_while_pairing_drops_the_result() -> None:
    driver = _driver()
    driver.send("pa", "tournament start sw")
    driver.hold_jobs = True
    _finish_round(driver)
    driver.send("pa", "tournament cancel sw")
    for name in NAMES:
        driver.take(name)
    driver.run_jobs()
    sw = driver.registry.tournaments["sw"]
    assert sw.phase is Phase.CANCELLED and sw.round_number == 1
    assert all(_round_lines(driver.take(name), 2) == [] for name in NAMES)
    assert all(driver.sessions[name].table is None for name in NAMES)


def test_a_restart_while_pairing_pairs_the_round_again() -> None:
    store = Store.open(":memory:")
    driver = _driver(store)
    driver.send("pa", "tournament start sw")
    driver.hold_jobs = True
    _finish_round(driver)  # round 1 decided and saved; round 2's job never comes back
    assert driver.registry.tournaments["sw"].awaiting_pairing
    # The server stops (kill -9) and comes back on the same store.
    again = CoreDriver(store=store, clock=driver.clock)
    for name in NAMES:
        again.log_in(name)
    sw = again.registry.tournaments["sw"]
    assert sw.awaiting_pairing and sw.round_number == 1
    again.tick(1)
    told = again.take("pa")
    assert len(_round_lines(told, 2)) == 1, told
    assert sw.round_number == 2 and len(sw.pending()) == 3
    met = [frozenset(p.names) for p in sw.all_pairings() if p.b is not None]
    assert len(met) == len(set(met))
