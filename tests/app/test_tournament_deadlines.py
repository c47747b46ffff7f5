"""Rounds with deadlines (issue 35 §3, docs/tournaments.md "Leagues and correspondence
tournaments"): a league's round lasts `deadline DAYS`, its unplayed pairings are decided
at the deadline by who showed; a correspondence tournament (`days D`) plays its pairings
as correspondence matches, which finish at their own pace.

Transcripts through `tests.app.driver.CoreDriver` with its manual clock (it starts at
1,700,000,000 s: Tuesday, November 14 2023, 22:13:20 UTC).
"""

from __future__ import annotations

import pytest

from fibsd.app.session import Departure
from fibsd.rules.tournament import Ending, Phase
from fibsd.store.sqlite import SQLiteStore as Store
from protocol import commands as c
from protocol.wording import Text
from tests.app.driver import CoreDriver

DAY = 86400.0
NAMES = ["pa", "pb", "pc", "pd"]  # seeds 1 to 4


def _driver(**settings: object) -> CoreDriver:
    driver = CoreDriver(**settings)
    driver.create(*NAMES)
    for index, name in enumerate(NAMES):
        driver.store.update_rating(name, 1900.0 - 50 * index, 100)
    return driver


@pytest.mark.parametrize("words, error", [
    ("swiss 1 deadline 0", Text.TOURNAMENT_BAD_VALUE),
    ("swiss 1 deadline 91", Text.TOURNAMENT_BAD_VALUE),
    ("swiss 1 deadline soon", Text.TOURNAMENT_BAD_VALUE),
    ("swiss 1 days", Text.TOURNAMENT_BAD_DAYS),
    ("swiss 1 days 0", Text.TOURNAMENT_BAD_DAYS),
    ("swiss 1 days -1", Text.TOURNAMENT_BAD_DAYS),
    ("swiss 1 days 1 clock", Text.TOURNAMENT_DAYS_OR_CLOCK),
    ("swiss 1 deadline 3 noshow 60", Text.TOURNAMENT_DEADLINE_OR_NOSHOW),
    ("swiss 1 days 1 noshow 60", Text.TOURNAMENT_DEADLINE_OR_NOSHOW),
])
def test_bad_deadline_and_days_options_say_what_is_wrong(words: str, error: Text) -> None:
    with pytest.raises(c.CommandError) as raised:
        c.parse_tournament_spec(words.split())
    prefix = error.value.split("{")[0]
    assert str(raised.value).startswith(prefix), str(raised.value)


def test_deadline_and_days_parse_and_write_back() -> None:
    spec = c.parse_tournament_spec("roundrobin 3 deadline 7 days 0.5".split())
    assert (spec.deadline_days, spec.move_days) == (7, 0.5)
    assert c.parse_tournament_spec(list(spec.words())) == spec


def test_a_league_round_is_decided_at_its_deadline_by_who_showed() -> None:
    driver = _driver()
    for name in ("pa", "pb"):
        driver.log_in(name)
    driver.send("pa", "tournament create lg swiss 1 rounds 2 deadline 3")
    shown = driver.send("pa", "tournament show lg")
    assert "  Rounds of 3 days; no clock." in shown
    driver.log_in("pc")
    driver.log_in("pd")
    for name in NAMES:
        driver.send(name, "tournament join lg")
    # Only pa is here when it starts: round 1 is pa-pc, pb-pd (seeds 1-3, 2-4).
    for name in ("pb", "pc", "pd"):
        driver.log_out(name, Departure.LOGGED_OUT)
    started = driver.send("pa", "tournament start lg")
    assert "Tournament lg: round 1 pairings: pa-pc, pb-pd" in started
    assert ("Tournament lg: round 1: your 1-point match with pc starts when you are both here"
            " and free; play it by Friday, November 17 22:13 UTC (at the deadline, a player who"
            " never showed loses by forfeit).") in started
    driver.tick(1)  # pa is here and free: he showed
    driver.log_out("pa", Departure.LOGGED_OUT)
    # pc comes a day later while pa is away: he showed too; pb shows, pd never does.
    driver.clock.advance(DAY)
    driver.log_in("pc")
    told = driver.take("pc")
    assert any("your 1-point match with pa starts when you are both here" in line
               and "play it by Friday, November 17 22:13 UTC" in line for line in told), told
    driver.log_in("pb")
    driver.tick(1)
    driver.log_out("pc", Departure.LOGGED_OUT)
    driver.log_out("pb", Departure.LOGGED_OUT)
    # Far beyond the no-show time, but before the deadline, nothing is decided.
    driver.tick(2 * DAY - 10)
    league = driver.registry.tournaments["lg"]
    assert league.round_number == 1 and league.pending() == league.current
    driver.log_in("pa")  # watches it happen
    driver.tick(20)
    told = driver.take("pa")
    assert "Tournament lg: pd did not show; pb wins by forfeit." in told
    # pa and pc both showed, never together: the one here at the deadline wins.
    assert "Tournament lg: pc did not show; pa wins by forfeit." in told
    assert "Tournament lg: round 2 pairings: pa-pb, pc-pd" in told
    assert league.round_number == 2
    assert all(p.deadline == pytest.approx(driver.clock.now() + 3 * DAY) for p in league.current)
    shown = driver.send("pa", "tournament show lg")
    assert "  Round 1 (deadline Friday, November 17 22:13 UTC):" in shown
    assert "  Round 2 (deadline Monday, November 20 22:13 UTC):" in shown


def test_a_pairing_where_nobody_showed_and_one_where_both_showed_apart_are_double_forfeits() -> None:
    driver = _driver()
    for name in NAMES:
        driver.log_in(name)
    driver.send("pa", "tournament create lg swiss 1 rounds 1 deadline 2")
    for name in NAMES:
        driver.send(name, "tournament join lg")
    for name in ("pb", "pc", "pd"):
        driver.log_out(name, Departure.LOGGED_OUT)
    driver.send("pa", "tournament start lg")  # pa-pc, pb-pd
    driver.tick(1)
    driver.log_out("pa", Departure.LOGGED_OUT)
    driver.clock.advance(DAY)
    driver.log_in("pc")
    driver.tick(1)
    driver.log_out("pc", Departure.LOGGED_OUT)
    driver.tick(DAY)
    league = driver.registry.tournaments["lg"]
    assert league.phase is Phase.FINISHED
    endings = {(p.a, p.b): p.ending for p in league.played_rounds[0]}
    assert endings == {("pa", "pc"): Ending.DOUBLE_FORFEIT, ("pb", "pd"): Ending.DOUBLE_FORFEIT}


def test_a_restart_keeps_each_round_deadline_and_who_showed() -> None:
    store = Store.open(":memory:")
    driver = _driver(store=store)
    for name in NAMES:
        driver.log_in(name)
    driver.send("pa", "tournament create lg roundrobin 1 deadline 2")
    for name in NAMES:
        driver.send(name, "tournament join lg")
    for name in ("pb", "pc", "pd"):
        driver.log_out(name, Departure.LOGGED_OUT)
    driver.send("pa", "tournament start lg")  # round 1 of the Berger table: pa-pd, pb-pc
    driver.tick(1)  # pa showed
    deadline = driver.registry.tournaments["lg"].current[0].deadline
    # kill -9: the server comes back a day later on the same store.
    driver.clock.advance(DAY)
    again = CoreDriver(store=store, clock=driver.clock)
    again.log_in("pb")
    league = again.registry.tournaments["lg"]
    assert [p.deadline for p in league.current] == [deadline, deadline]
    assert league.current[0].showed == ("pa",)
    again.tick(DAY - 2)
    assert league.round_number == 1
    again.tick(2)
    told = again.take("pb")
    assert "Tournament lg: pd did not show; pa wins by forfeit." in told
    assert "Tournament lg: pc did not show; pb wins by forfeit." in told
    assert league.round_number == 2


def test_a_correspondence_tournament_plays_correspondence_matches_past_the_deadline() -> None:
    driver = _driver()
    for name in ("pa", "pb"):
        driver.log_in(name)
    driver.send("pa", "tournament create week roundrobin 1 days 1")
    shown = driver.send("pb", "tournament show week")
    assert "  Rounds of 7 days; correspondence matches, 1 day per move." in shown
    # A round shorter than a move's time: the deadline is for beginning the match.
    driver.send("pa", "tournament create corr roundrobin 1 deadline 1 days 2")
    driver.send("pa", "tournament join corr")
    driver.send("pb", "tournament join corr")
    started = driver.send("pa", "tournament start corr")
    assert ("Tournament corr: round 1: your 1-point correspondence match with pb (2 days per move)"
            " starts when you are both here and free; begin it by Wednesday, November 15 22:13 UTC"
            " (at the deadline, a player who never showed loses by forfeit).") in started
    # Both are here: the match began at once, as a correspondence match.
    assert ("pa", "pb") in driver.registry.correspondence
    table = driver.registry.correspondence[("pa", "pb")]
    assert table.timer is not None and table.timer.control.correspondence
    # Getting up is no leaving: the match goes on, nothing waits for a 'join'.
    for name in ("pa", "pb"):
        driver.send(name, "leave")
    pairing = driver.registry.tournaments["corr"].current[0]
    assert pairing.held_by is None
    for name in ("pa", "pb"):
        driver.log_out(name, Departure.LOGGED_OUT)
    # The round's deadline passes: the match under way is not decided by it...
    driver.tick(1.5 * DAY)
    assert not pairing.done
    # ...but by its own clock: whoever is to move runs out of his two days.
    to_move = table.names[table.match.game.turn if table.match.game.turn is not None else 0]
    driver.tick(0.6 * DAY)
    assert pairing.done and pairing.ending is Ending.PLAYED
    assert pairing.winner is not None and pairing.winner != to_move
    assert driver.registry.tournaments["corr"].phase is Phase.FINISHED
