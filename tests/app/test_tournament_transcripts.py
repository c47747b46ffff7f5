"""Tournaments through the core (docs/tournaments.md): entries, rounds whose matches start
by themselves, results from the matches' ends, no-shows, a restart, bot accounts.

Transcripts through `tests.app.driver.CoreDriver` (manual clock, `tick()` for the no-show
deadlines). Matches are decided fast: the player who should lose resigns and the other
accepts (a 1-point match is over after one game).
"""

from __future__ import annotations

from fibsd.app.session import Departure
from fibsd.rules.tournament import Phase
from fibsd.store import Store
from protocol.wording import Text
from tests.app.driver import CoreDriver

NAMES = [f"p{i}" for i in range(1, 9)]
PERMISSION_DENIED = Text.PERMISSION_DENIED.value


def _driver(**settings: object) -> CoreDriver:
    driver = CoreDriver(**settings)
    driver.create(*NAMES, "admin")
    # Ratings decide the seeds: p1 is the best.
    for index, name in enumerate(NAMES):
        account = driver.store.get_account(name)
        assert account is not None
        driver.store.update_rating(name, 1900.0 - 50 * index, 100)
    return driver


def _playing(driver: CoreDriver, name: str) -> str | None:
    table = driver.sessions[name].table
    if table is None or driver.registry.get(name) is not driver.sessions[name]:
        return None
    return table.names[1] if table.names[0] == name else table.names[0]


def _lose(driver: CoreDriver, loser: str) -> None:
    """`loser` resigns his running 1-point match; his opponent accepts."""
    winner = _playing(driver, loser)
    assert winner is not None, f"{loser} is not playing"
    driver.send(loser, "resign n")
    answer = driver.send(winner, "accept")
    assert any("win the 1 point match" in line for line in answer), answer


def test_knockout_of_eight_runs_by_itself_with_a_no_show_and_names_the_winner() -> None:
    driver = _driver()
    for name in NAMES:
        driver.log_in(name)
    assert driver.send("p1", "tournament create club knockout 1 noshow 60")[0] == (
        "Tournament club opened by p1. Type 'tournament join club' to enter.")
    for name in NAMES:
        said = driver.send(name, "tournament join club")
        assert any(line.startswith(f"Tournament club: {name} enters") for line in said), said
    assert driver.send("p2", "tournament start club") == [
        "** Only the tournament's creator (p1) or an administrator may do that."]
    driver.log_out("p8", Departure.LOGGED_OUT)  # p8 entered and never shows
    started = driver.send("p1", "tournament start club")
    assert "Tournament club starts with 8 players." in started
    # Seeds by rating: 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    assert "Tournament club: round 1 pairings: p1-p8, p4-p5, p2-p7, p3-p6" in started
    assert any(line.startswith("Tournament club: round 1: your 1-point match with p8") for line in started)
    # The matches of those who are here began by themselves.
    assert _playing(driver, "p4") == "p5" and _playing(driver, "p2") == "p7" and _playing(driver, "p3") == "p6"
    assert _playing(driver, "p1") is None
    joined = driver.take("p5")
    assert any("You are now playing a 1 point match with p4" in line or
               "has joined you for a 1 point match" in line for line in joined), joined
    for loser in ("p5", "p7", "p6"):
        _lose(driver, loser)
    # p8 is not there: after the no-show time p1 wins by forfeit, and round 2 begins.
    driver.tick(59)
    assert driver.registry.tournaments["club"].round_number == 1
    driver.tick(2)
    told = driver.take("p1")
    assert "Tournament club: p8 did not show; p1 wins by forfeit." in told
    assert "Tournament club: round 2 pairings: p1-p4, p2-p3" in told
    assert _playing(driver, "p1") == "p4" and _playing(driver, "p2") == "p3"
    _lose(driver, "p1")
    _lose(driver, "p2")
    assert "Tournament club: round 3 pairings: p4-p3" in driver.take("p4")
    _lose(driver, "p4")
    assert "Tournament club is over: p3 wins." in driver.take("p1")
    shown = driver.send("p5", "tournament show club")
    assert "  Winner: p3" in shown
    assert "    p1 beats p8 by forfeit" in shown
    assert "    p3 beats p6 1-0" in shown
    # Tournament matches are rated: p3 gained.
    account = driver.store.get_account("p3")
    assert account is not None and account.rating > 1800.0


def test_a_restart_mid_round_loses_nothing_and_the_match_in_progress_resumes() -> None:
    store = Store.open(":memory:")
    driver = _driver(store=store)
    for name in NAMES[:4]:
        driver.log_in(name)
    driver.send("p1", "tournament create cup swiss 1 rounds 2 noshow 30")
    for name in NAMES[:4]:
        driver.send(name, "tournament join cup")
    driver.send("p1", "tournament start cup")  # round 1: p1-p3, p2-p4
    _lose(driver, "p3")
    assert _playing(driver, "p2") == "p4"
    before = driver.registry.tournaments["cup"].to_dict()
    # The server stops (kill -9: no logout is recorded) and comes back on the same store.
    again = CoreDriver(store=store, clock=driver.clock)
    for name in NAMES[:4]:
        again.log_in(name)
    assert again.registry.tournaments["cup"].to_dict()["played_rounds"][0][0] == before["played_rounds"][0][0]
    # p2 and p4 are back at their saved match; round 1's result stands.
    assert _playing(again, "p2") == "p4"
    assert "    p1 beats p3 1-0" in again.send("p3", "tournament show cup")
    _lose(again, "p4")
    told = again.take("p1")
    assert any(line.startswith("Tournament cup: round 2 pairings: ") for line in told), told
    cup = again.registry.tournaments["cup"]
    assert cup.round_number == 2 and cup.phase is Phase.RUNNING


def test_a_player_logging_in_is_told_his_pairing_and_his_match_starts() -> None:
    driver = _driver()
    driver.log_in("p1")
    driver.log_in("p2")
    driver.send("p1", "tournament create rr roundrobin 1")
    driver.send("p1", "tournament join rr")
    driver.send("p2", "tournament join rr")
    driver.log_out("p2", Departure.LOGGED_OUT)
    driver.send("p1", "tournament start rr")
    assert _playing(driver, "p1") is None
    driver.log_in("p2")
    told = driver.take("p2")
    assert any(line.startswith("Tournament rr: round 1: your 1-point match with p1") for line in told)
    assert _playing(driver, "p2") == "p1"


def test_who_may_create_start_and_cancel() -> None:
    driver = _driver(admin__admins=["admin"], tournaments__tournament_creators="admins")
    driver.log_in("p1")
    driver.log_in("admin")
    assert driver.send("p1", "tournament create x knockout 1") == [
        "** Only administrators may create tournaments here."]
    driver.send("admin", "tournament create x knockout 1")
    assert driver.send("p1", "tournament cancel x") == [
        "** Only the tournament's creator (admin) or an administrator may do that."]
    assert driver.send("admin", "tournament cancel x") == ["Tournament x is cancelled by admin."]


def test_bots_enter_only_where_the_creator_allowed_them_and_whois_shows_the_mark() -> None:
    driver = _driver(admin__admins=["admin"])
    driver.log_in("admin", clip=False)  # (telnet: takes fibsd's lines, so sees the mark)
    bot = driver.log_in("p1")
    assert driver.send("p1", "setbot p1 on") == [PERMISSION_DENIED]
    assert driver.send("admin", "setbot p1 on") == ["** p1 is marked as a bot now."]
    assert bot.account.bot
    stored = driver.store.get_account("p1")
    assert stored is not None and stored.bot
    driver.send("admin", "tournament create humans knockout 1")
    driver.send("admin", "tournament create open knockout 1 bots")
    assert driver.send("p1", "tournament join humans") == ["** Tournament humans does not take bots."]
    assert any("p1 enters" in line for line in driver.send("p1", "tournament join open"))
    assert "  p1 is a bot." in driver.send("admin", "whois p1")  # (telnet)
    clip_viewer = driver.log_in("p2")  # a CLIP client that did not opt in sees no new line
    assert not any("is a bot" in line for line in driver.send("p2", "whois p1"))
    assert not clip_viewer.extensions
    driver.send("admin", "setbot p1 off")
    assert not any("is a bot" in line for line in driver.send("admin", "whois p1"))
    assert bot.account.bot is False
