"""Time, finished matches and background work at the core's edge, through the driver.

The core's one tick (`fibsd.app.timers.tick`, `CoreDriver.tick`), the matches an outcome
finished as data (`Outcome.finished`, handed on by `fibsd.app.aftermath`), and the jobs
of `Outcome.jobs`: the background ones (`CoreDriver.run_jobs`) and those that hold the
issuer's prompt. Transcripts: client lines in, each user's lines out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fibsd.app import aftermath
from fibsd.app.outcome import Ending, Job, MatchFinished, Outcome
from fibsd.app.session import Departure, Session
from fibsd.domain.dice import ScriptedDice
from tests.app.driver import CoreDriver
from tests.app.test_chouette_transcripts import Chouette

# ------------------------------------------------------------------ the tick


def test_the_core_tick_applies_a_chouette_deadline() -> None:
    """The box drops and stays away: the core's tick (not the chouettes' own) settles
    his game once his absence limit is over, and only then."""
    c = Chouette(["bx", "cp", "ta"], "jacoby=off", box={25: 1, 13: 14}, team={1: 6}, turn=1)
    c.send("cp", "double")
    c.send("bx", "accept")
    c.take_all()
    c.driver.log_out("bx", Departure.DROPPED)
    c.driver.tick(299)
    told = c.take("cp")
    assert "Chouette: bx (the box) dropped; 300 seconds to come back, or he abandons the game." in told
    assert "Chouette: bx leaves." not in told
    c.driver.tick(1)  # box_absent_seconds (300) are over
    told = c.take("cp")
    assert "Chouette: bx leaves." in told
    assert "Chouette: game 1 over. bx -9, cp +6, ta +3. Next: cp, ta." in told


def test_nothing_timed_means_no_tick_is_wanted() -> None:
    from fibsd.app import timers

    driver = CoreDriver()
    driver.create("alice")
    driver.log_in("alice")
    assert timers.next_tick_in(driver.registry) is None
    driver.send("alice", "chouette create")
    assert timers.next_tick_in(driver.registry) == timers.CHOUETTE_TICK_SECONDS
    driver.tick(1)  # an open table waiting for players: nothing to say
    assert driver.take("alice") == []


# ------------------------------------------------------- finished matches as data


def _one_point_match() -> CoreDriver:
    """alice invites bob to 1 point; alice opens 3-1 and is to move."""
    driver = CoreDriver(ScriptedDice([3, 1], coin=0))
    driver.create("alice", "bob", ready=True)
    for name in ("alice", "bob"):
        driver.log_in(name)
    driver.send("alice", "invite bob 1")
    driver.send("bob", "join alice")
    driver.take("alice")
    driver.take("bob")
    return driver


def test_a_resignation_finishes_the_match_as_data() -> None:
    driver = _one_point_match()
    started_at = driver.clock.now()
    driver.clock.advance(90)
    driver.send("alice", "resign n")
    assert driver.finished == []
    bob = driver.send("bob", "accept")
    assert "You win the 1 point match 1-0 ." in bob
    [finished] = driver.finished
    assert finished == MatchFinished(
        players=("alice", "bob"), winner=1, score=(0, 1), length=1, started_at=started_at,
        finished_at=started_at + 90, rated=True, ending=Ending.RESIGNED,
    )
    assert (finished.winner_name, finished.loser_name) == ("bob", "alice")
    # The record's id is known once its write is committed (before any job runs).
    [record] = driver.store.match_records_of("alice")
    assert finished.record_id == record.id


def test_a_claimed_match_finishes_as_claimed() -> None:
    driver = _one_point_match()
    driver.log_out("bob")  # the connection drops: alice may claim after the grace period
    driver.clock.advance(driver.config.reconnect_grace_seconds)
    assert "You win the 1 point match 1-0 ." in driver.send("alice", "claim")
    [finished] = driver.finished
    assert (finished.winner, finished.score, finished.ending, finished.rated) == (0, (1, 0), Ending.CLAIMED, True)


def test_each_finished_match_is_handed_on_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`aftermath` is where what acts on a match's end plugs in: it hears of each match
    once, from the entry rung that finished it."""
    heard: list[MatchFinished] = []
    monkeypatch.setattr(aftermath, "_match_finished",
                        lambda registry, finished, out: heard.append(finished))
    driver = _one_point_match()
    driver.send("alice", "resign n")
    driver.send("bob", "accept")
    assert heard == driver.finished and len(heard) == 1


# ------------------------------------------------------------------ jobs


def _said(session: Session, *lines: str) -> Outcome:
    out = Outcome()
    out.lines(session, *lines)
    return out


def _logged_in(*names: str) -> CoreDriver:
    driver = CoreDriver()
    driver.create(*names)
    for name in names:
        driver.log_in(name)
        driver.take(name)
    return driver


def test_a_background_job_runs_when_the_driver_runs_jobs() -> None:
    driver = _logged_in("alice")
    alice = driver.sessions["alice"]
    driver.hold_jobs = True
    ran: list[str] = []

    def work() -> int:
        ran.append("work")
        return 42

    out = _said(alice, "asked")
    out.run(Job.background(work, lambda answer: _said(alice, f"the answer is {answer}")))
    assert not out.holds_prompt
    driver.apply(out)
    assert driver.take("alice") == ["asked"] and ran == []
    assert driver.run_jobs() == 1
    assert ran == ["work"]
    assert driver.take("alice") == ["the answer is 42"]
    assert driver.run_jobs() == 0


def test_background_jobs_run_at_once_unless_held() -> None:
    driver = _logged_in("alice")
    alice = driver.sessions["alice"]
    out = _said(alice, "asked")
    out.run(Job.background(lambda: "done", lambda word: _said(alice, word)))
    driver.apply(out)
    assert driver.take("alice") == ["asked", "done"]


def test_what_a_job_finishes_is_handed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job's follow-up is an outcome like a command's: the matches it finishes reach
    `aftermath` too (`hand_on` wraps the jobs of the outcome it hands on)."""
    heard: list[MatchFinished] = []
    monkeypatch.setattr(aftermath, "_match_finished",
                        lambda registry, finished, out: heard.append(finished))
    driver = _logged_in("alice")
    finished = MatchFinished(players=("alice", "bob"), winner=0, score=(1, 0), length=1,
                             started_at=0.0, finished_at=1.0, rated=False, ending=Ending.TIME)

    def then(_result: None) -> Outcome:
        follow = Outcome()
        follow.finished.append(finished)
        return follow

    out = Outcome()
    out.run(Job.background(lambda: None, then))
    driver.hold_jobs = True
    driver.apply(aftermath.hand_on(driver.registry, out))
    assert heard == []
    driver.run_jobs()
    assert heard == [finished] and driver.finished == [finished]


def test_a_job_that_holds_the_prompt_runs_before_the_next_command() -> None:
    """Password hashing: the job runs as part of its command, even with jobs held."""
    driver = _logged_in("alice")
    driver.hold_jobs = True
    assert driver.send("alice", "password secret:newpass:newpass") == ["Password changed."]
    assert driver.pending_jobs == []


def test_a_failing_background_job_is_the_tests_failure() -> None:
    """The driver runs jobs inline: a job that raises fails the test that ran it."""
    driver = _logged_in("alice")

    def broken() -> None:
        raise RuntimeError("the engine crashed")

    then: Callable[[None], Outcome] = lambda _result: Outcome()
    out = Outcome()
    out.run(Job.background(broken, then))
    with pytest.raises(RuntimeError):
        driver.apply(out)
