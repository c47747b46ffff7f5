"""Tournaments through the core (docs/tournaments.md): entries, rounds whose matches start
by themselves, results from the matches' ends, no-shows, a restart, bot accounts.

Transcripts through `tests.app.driver.CoreDriver` (manual clock, `tick()` for the no-show
deadlines). Matches are decided fast: the player who should lose resigns and the other
accepts (a 1-point match is over after one game).
"""

from __future__ import annotations

from fibsd.app.session import Departure
from fibsd.rules.tournament import Phase
from fibsd.store.sqlite import SQLiteStore as Store
from protocol.wording import Text
from tests.app.driver import CoreDriver

NAMES = ["pa", "pb", "pc", "pd", "pe", "pf", "pg", "ph"]  # seeds 1 to 8
PERMISSION_DENIED = Text.PERMISSION_DENIED.value


def _driver(**settings: object) -> CoreDriver:
    driver = CoreDriver(**settings)
    driver.create(*NAMES, "boss")
    # Ratings decide the seeds: pa is the best.
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
    assert driver.send("pa", "tournament create club knockout 1 noshow 60")[0] == (
        "Tournament club opened by pa. Type 'tournament join club' to enter.")
    for name in NAMES:
        said = driver.send(name, "tournament join club")
        assert any(line.startswith(f"Tournament club: {name} enters") for line in said), said
    assert driver.send("pb", "tournament start club") == [
        "** Only the tournament's creator (pa) or an administrator may do that."]
    driver.log_out("ph", Departure.LOGGED_OUT)  # ph entered and never shows
    started = driver.send("pa", "tournament start club")
    assert "Tournament club starts with 8 players." in started
    # Seeds by rating: 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    assert "Tournament club: round 1 pairings: pa-ph, pd-pe, pb-pg, pc-pf" in started
    assert any(line.startswith("Tournament club: round 1: your 1-point match with ph") for line in started)
    # The matches of those who are here began by themselves.
    assert _playing(driver, "pd") == "pe" and _playing(driver, "pb") == "pg" and _playing(driver, "pc") == "pf"
    assert _playing(driver, "pa") is None
    joined = driver.take("pe")
    assert any("You are now playing a 1 point match with pd" in line or
               "has joined you for a 1 point match" in line for line in joined), joined
    for loser in ("pe", "pg", "pf"):
        _lose(driver, loser)
    # ph is not there: after the no-show time pa wins by forfeit, and round 2 begins.
    driver.tick(59)
    assert driver.registry.tournaments["club"].round_number == 1
    driver.tick(2)
    told = driver.take("pa")
    assert "Tournament club: ph did not show; pa wins by forfeit." in told
    assert "Tournament club: round 2 pairings: pa-pd, pb-pc" in told
    # The forfeit is rated as pa's win of the 1-point match (issue 34 §2), though ph was
    # never online: his account is read through the store (a background job).
    ph = driver.store.get_account("ph")
    assert ph is not None and ph.rating < 1550.0 and ph.experience == 101
    assert driver.sessions["pa"].account.experience == 101
    assert _playing(driver, "pa") == "pd" and _playing(driver, "pb") == "pc"
    _lose(driver, "pa")
    _lose(driver, "pb")
    assert "Tournament club: round 3 pairings: pd-pc" in driver.take("pd")
    _lose(driver, "pd")
    assert "Tournament club is over: pc wins." in driver.take("pa")
    shown = driver.send("pe", "tournament show club")
    assert "  Winner: pc" in shown
    assert "    pa beats ph by forfeit" in shown
    assert "    pc beats pf 1-0" in shown
    # Tournament matches are rated: pc gained.
    account = driver.store.get_account("pc")
    assert account is not None and account.rating > 1800.0


def test_a_restart_mid_round_loses_nothing_and_the_match_in_progress_resumes() -> None:
    store = Store.open(":memory:")
    driver = _driver(store=store)
    for name in NAMES[:4]:
        driver.log_in(name)
    driver.send("pa", "tournament create cup swiss 1 rounds 2 noshow 30")
    for name in NAMES[:4]:
        driver.send(name, "tournament join cup")
    driver.send("pa", "tournament start cup")  # round 1: pa-pc, pb-pd
    _lose(driver, "pc")
    assert _playing(driver, "pb") == "pd"
    before = driver.registry.tournaments["cup"].to_dict()
    # The server stops (kill -9: no logout is recorded) and comes back on the same store.
    again = CoreDriver(store=store, clock=driver.clock)
    for name in NAMES[:4]:
        again.log_in(name)
    assert again.registry.tournaments["cup"].to_dict()["played_rounds"][0][0] == before["played_rounds"][0][0]
    # pb and pd are back at their saved match; round 1's result stands.
    assert _playing(again, "pb") == "pd"
    assert "    pa beats pc 1-0" in again.send("pc", "tournament show cup")
    _lose(again, "pd")
    told = again.take("pa")
    assert any(line.startswith("Tournament cup: round 2 pairings: ") for line in told), told
    cup = again.registry.tournaments["cup"]
    assert cup.round_number == 2 and cup.phase is Phase.RUNNING


def test_a_player_logging_in_is_told_his_pairing_and_his_match_starts() -> None:
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create rr roundrobin 1")
    driver.send("pa", "tournament join rr")
    driver.send("pb", "tournament join rr")
    driver.log_out("pb", Departure.LOGGED_OUT)
    driver.send("pa", "tournament start rr")
    assert _playing(driver, "pa") is None
    driver.log_in("pb")
    told = driver.take("pb")
    assert any(line.startswith("Tournament rr: round 1: your 1-point match with pa") for line in told)
    assert _playing(driver, "pb") == "pa"


def test_who_may_create_start_and_cancel() -> None:
    driver = _driver(admin__admins=["boss"], tournaments__tournament_creators="admins")
    driver.log_in("pa")
    driver.log_in("boss")
    assert driver.send("pa", "tournament create x knockout 1") == [
        "** Only administrators may create tournaments here."]
    driver.send("boss", "tournament create x knockout 1")
    assert driver.send("pa", "tournament cancel x") == [
        "** Only the tournament's creator (boss) or an administrator may do that."]
    assert driver.send("boss", "tournament cancel x") == ["Tournament x is cancelled by boss."]


def test_bots_enter_only_where_the_creator_allowed_them_and_whois_shows_the_mark() -> None:
    driver = _driver(admin__admins=["boss"])
    driver.log_in("boss", clip=False)  # (telnet: takes fibsd's lines, so sees the mark)
    bot = driver.log_in("pa")
    assert driver.send("pa", "setbot pa on") == [PERMISSION_DENIED]
    assert driver.send("boss", "setbot pa on") == ["** pa is marked as a bot now."]
    assert bot.account.bot
    stored = driver.store.get_account("pa")
    assert stored is not None and stored.bot
    driver.send("boss", "tournament create humans knockout 1")
    driver.send("boss", "tournament create open knockout 1 bots")
    assert driver.send("pa", "tournament join humans") == ["** Tournament humans does not take bots."]
    assert any("pa enters" in line for line in driver.send("pa", "tournament join open"))
    assert "  pa is a bot." in driver.send("boss", "whois pa")  # (telnet)
    clip_viewer = driver.log_in("pb")  # a CLIP client that did not opt in sees no new line
    assert not any("is a bot" in line for line in driver.send("pb", "whois pa"))
    assert not clip_viewer.extensions
    driver.send("boss", "setbot pa off")
    assert not any("is a bot" in line for line in driver.send("boss", "whois pa"))
    assert bot.account.bot is False


def test_a_swiss_of_five_gives_byes_keeps_standings_and_names_the_winner() -> None:
    driver = _driver()
    players = NAMES[:5]
    for name in players:
        driver.log_in(name)
    driver.send("pa", "tournament create sw swiss 1 rounds 3")
    for name in players:
        driver.send(name, "tournament join sw")
    started = driver.send("pa", "tournament start sw")
    # Round 1: seeds 1-4 top half against bottom half; the bye to the lowest seed.
    assert "Tournament sw: round 1 pairings: pa-pc, pb-pd, pe (bye)" in started
    assert "Tournament sw: round 1: you have a bye." in driver.take("pe")
    byes = ["pe"]
    for number in (1, 2, 3):
        sw = driver.registry.tournaments["sw"]
        assert sw.round_number == number
        bye = [p.a for p in sw.current if p.b is None]
        assert len(bye) == 1 and (number == 1 or bye[0] not in byes)
        byes += bye if number > 1 else []
        for pairing in list(sw.pending()):
            assert pairing.b is not None
            _lose(driver, pairing.b)  # the better-ranked player wins
    sw = driver.registry.tournaments["sw"]
    assert sw.phase is Phase.FINISHED and sw.winner == sw.standings()[0].name
    shown = driver.send("pc", "tournament show sw")
    assert shown[:2] == ["Tournament sw: swiss, 1-point matches, rated, created by pa.", "  Options: 3 rounds."]
    assert "  Standings (points, Buchholz, match-point difference):" in shown
    assert f"  Winner: {sw.winner}" in shown
    assert sum(line.endswith("has a bye") for line in shown) == 3


def test_a_knockout_with_consolation_shows_both_brackets() -> None:
    driver = _driver()
    for name in NAMES[:4]:
        driver.log_in(name)
    driver.send("pa", "tournament create k knockout 1 consolation")
    for name in NAMES[:4]:
        driver.send(name, "tournament join k")
    driver.send("pa", "tournament start k")  # pa-pd, pb-pc
    _lose(driver, "pd")
    _lose(driver, "pc")
    # Round 2: the final, and the first round's losers in the consolation bracket.
    assert _playing(driver, "pa") == "pb" and _playing(driver, "pc") == "pd"
    _lose(driver, "pb")
    _lose(driver, "pd")
    shown = driver.send("pa", "tournament show k")
    assert shown[shown.index("  Round 2:") + 1] == "    pa beats pb 1-0"
    assert "  Round 2, consolation bracket:" in shown
    assert shown[-2:] == ["  Winner: pa", "  Consolation winner: pc"]


def test_a_claimed_drop_is_the_pairing_result() -> None:
    driver = _driver(limits__reconnect_grace_seconds=60)
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create cl knockout 3 noshow 30")
    driver.send("pa", "tournament join cl")
    driver.send("pb", "tournament join cl")
    driver.send("pa", "tournament start cl")
    assert _playing(driver, "pa") == "pb"
    driver.log_out("pb", Departure.DROPPED)  # the table waits for him: not a no-show
    driver.tick(61)
    assert driver.registry.tournaments["cl"].winner is None
    told = driver.send("pa", "claim")
    assert "** pb did not come back: you claim the match." in told
    assert "Tournament cl: pa beats pb 3-0." in told, told
    assert "Tournament cl is over: pa wins." in told
def test_a_clocked_tournament_clocks_its_matches_and_a_loss_on_time_is_a_result() -> None:
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create clk knockout 1 clock 1 2 noshow 600")
    assert "  No-show time 600 seconds; clock: 1 second delay, 2 seconds reserve per point." in (
        driver.send("pa", "tournament show clk"))
    driver.send("pa", "tournament join clk")
    driver.send("pb", "tournament join clk")
    driver.send("pa", "tournament start clk")
    table = driver.sessions["pa"].table
    assert table is not None and table.timer is not None  # the match is clocked
    turn = table.match.game.turn
    assert turn is not None
    on_turn = table.names[turn]
    other = table.names[1 - turn]
    driver.tick(3600)  # nobody acts: the player on turn runs out of time
    told = driver.take("pa")
    assert f"Tournament clk: {other} beats {on_turn} 1-0." in told, told
    assert driver.registry.tournaments["clk"].winner == other


def test_a_club_that_requires_clocks_refuses_a_tournament_without_one() -> None:
    driver = _driver(clocks__clock_required_for_rated=True)
    driver.log_in("pa")
    assert driver.send("pa", "tournament create x knockout 1") == [
        "** Rated matches here need a clock: add 'clock' to the tournament."]
    assert driver.send("pa", "tournament create x knockout 1 clock")[0].startswith("Tournament x opened")


def test_tournament_show_counts_in_words_and_show_pr_names_an_unknown_user() -> None:
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create one knockout 1 clock 1 2 noshow 1")
    shown = driver.send("pa", "tournament show one")
    assert "  No-show time 1 second; clock: 1 second delay, 2 seconds reserve per point." in shown
    driver.send("pa", "tournament join one")
    driver.send("pb", "tournament join one")
    driver.send("pa", "tournament start one")
    _lose(driver, "pb")
    assert "  Finished after 1 round." in driver.send("pa", "tournament show one")
    told = driver.send("pa", "show pr nosuch")
    driver.run_jobs()
    assert told + driver.take("pa") == ["** There is no one called nosuch."]


def test_leave_in_a_tournament_match_holds_until_join_or_the_no_show_time() -> None:
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create lv knockout 3 noshow 30")
    driver.send("pa", "tournament join lv")
    driver.send("pb", "tournament join lv")
    driver.send("pa", "tournament start lv")
    assert _playing(driver, "pa") == "pb"
    left = driver.send("pa", "leave")
    assert left[0] == "** You terminated the game. The game was saved."
    assert ("Tournament lv: you left your match with pb. Type 'join pb' to go on; "
            "after 30 seconds away pb wins by forfeit.") in left
    assert not any("has joined you" in line for line in left + driver.take("pb"))
    driver.tick(10)
    assert _playing(driver, "pa") is None and _playing(driver, "pb") is None
    # FIBS's way back: `join`; the match goes on where it stopped.
    back = driver.send("pa", "join pb")
    assert any(line.endswith("Your running match was loaded.") for line in back), back
    assert _playing(driver, "pa") == "pb"
    # Left again, and not back within the no-show time: pb wins by forfeit.
    driver.send("pa", "leave")
    driver.tick(29)
    assert driver.registry.tournaments["lv"].winner is None and _playing(driver, "pa") is None
    driver.tick(2)
    assert "Tournament lv: pa did not show; pb wins by forfeit." in driver.take("pb")
    assert driver.registry.tournaments["lv"].winner == "pb"


def test_a_clocked_tournament_match_states_its_clock_as_an_invitation_does() -> None:
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create ck knockout 3 clock 10 60")
    driver.send("pa", "tournament join ck")
    driver.send("pb", "tournament join ck")
    started = driver.send("pa", "tournament start ck")
    terms = "Clock: delay 10 s, reserve 3:00."
    assert terms in started and terms in driver.take("pb")
    # and again when the match resumes after a restart of the pairing (leave, join)
    driver.send("pa", "leave")
    assert terms in driver.send("pa", "join pb")


def test_watchers_are_put_back_when_a_dropped_player_returns_to_his_match() -> None:
    driver = _driver(limits__reconnect_grace_seconds=60)
    for name in ("pa", "pb", "pc", "pd"):
        driver.log_in(name)
    driver.send("pa", "tournament create wt knockout 3 noshow 300")
    driver.send("pa", "tournament join wt")
    driver.send("pb", "tournament join wt")
    driver.send("pa", "tournament start wt")
    driver.send("pc", "set boardstyle 3")
    driver.send("pc", "watch pa")
    driver.send("pd", "watch pb")
    driver.log_out("pa", Departure.DROPPED)
    assert "pa drops connection.. You're not watching anymore." in driver.take("pc")
    driver.log_in("pa")  # back within the grace period: straight back at the table
    assert _playing(driver, "pa") == "pb"
    told = driver.take("pc")
    assert "You're now watching pa." in told
    assert any(line.startswith("board:") for line in told)
    assert driver.sessions["pc"].watching is driver.sessions["pa"]
    assert driver.sessions["pd"].watching is driver.sessions["pb"]  # (never stopped)


def test_watchers_are_put_back_when_a_saved_match_of_a_dropper_resumes() -> None:
    driver = _driver(limits__reconnect_grace_seconds=0)
    for name in ("pa", "pb", "pc"):
        driver.log_in(name)
    driver.send("pb", "toggle ready")
    driver.send("pa", "invite pb 3")
    driver.send("pb", "join pa")
    driver.send("pc", "watch pb")
    driver.log_out("pb", Departure.DROPPED)  # no grace: the match is saved
    assert driver.sessions["pc"].watching is None
    driver.log_in("pb")
    driver.send("pa", "invite pb")
    driver.send("pb", "join pa")
    driver.run_jobs()
    assert _playing(driver, "pb") == "pa"
    assert "You're now watching pb." in driver.take("pc")
    assert driver.sessions["pc"].watching is driver.sessions["pb"]


def test_the_pairing_result_is_the_tagged_match_not_any_match_between_the_two() -> None:
    # Issue 30: a match started by a tournament carries the tournament's id and pairing
    # (saved with it), and only such a match decides the pairing: a match the two play on
    # their own, of the same length, does not.
    driver = _driver()
    driver.log_in("pa")
    driver.log_in("pb")
    driver.send("pa", "tournament create ko knockout 1")
    driver.send("pa", "tournament join ko")
    driver.send("pb", "tournament join ko")
    driver.send("pa", "tournament start ko")
    assert _playing(driver, "pa") == "pb"
    driver.send("pa", "leave")  # the tournament's match is saved, with its tag
    saved = driver.store.saved_match("pa", "pb")
    assert saved is not None
    assert saved["tournament"] == {"tournament": "ko", "round": 1, "pairing": 0, "id": 1}
    driver.send("pb", "toggle ready")  # (ready for invitations; inviting readies pa)
    driver.send("pa", "invite pb 1")  # a match of their own, replacing the saved one
    driver.send("pb", "join pa")
    assert _playing(driver, "pa") == "pb"
    driver.send("pb", "resign n")
    told = driver.send("pa", "accept")
    assert any("win the 1 point match" in line for line in told), told
    assert not any(line.startswith("Tournament ko: ") for line in told), told
    assert driver.registry.tournaments["ko"].winner is None
    # pa goes back to the pairing's match (it waited for him since his `leave`): it starts
    # afresh, its saved match having been replaced.
    driver.send("pa", "join pb")
    table = driver.sessions["pa"].table
    assert table is not None and table.tournament is not None
    assert (table.tournament.tournament, table.tournament.round, table.tournament.pairing) == ("ko", 1, 0)
    _lose(driver, "pb")
    assert driver.registry.tournaments["ko"].winner == "pa"
