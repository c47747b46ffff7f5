"""`show record` end to end (issue 37 §2): what the players did in this test is what the
record says, over CLIP, with the matches they finished, saved and abandoned."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import attrs

from fibsd.domain.accounts import Account
from fibsd.domain.dice import ScriptedDice
from fibsd.domain.match_analysis import MatchAnalysis, PlayerAnalysis
from fibsd.domain.player_record import MatchEnding
from fibsd.store.sqlite import SQLiteStore
from tests.server.players import Player


async def _start(a: Player, b: Player, length: int) -> None:
    await a.send(f"invite {b.name} {length}")
    await b.expect(f"Type 'join {a.name}' to accept.")
    await b.send(f"join {a.name}")
    await a.expect("It's your turn to move.")  # alice (player 0) wins the opening roll


async def test_show_record_agrees_with_the_matches_played(start_server: Any) -> None:
    running = await start_server(dice=ScriptedDice([3, 1, 3, 1, 3, 1], coin=0))
    alice = await Player.join_server(running, "alice")
    bob = await Player.join_server(running, "bob")
    carol = await Player.join_server(running, "carol", ready=False)

    # A 1-point match alice resigns at once: bob wins it.
    await _start(alice, bob, 1)
    await alice.send("resign n")
    await bob.expect("alice wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await bob.send("accept")
    await alice.expect("bob wins the 1 point match 1-0 .")
    # A 3-point match, saved when alice leaves; then a 5-point match abandons it, and is saved.
    await _start(alice, bob, 3)
    await alice.send("leave")
    await alice.expect("** You terminated the game. The game was saved.")
    await _start(alice, bob, 5)
    await alice.send("leave")
    await alice.expect("** You terminated the game. The game was saved.")

    await carol.send("show record ALICE")
    await carol.expect("Record of alice: 1 matches played, 0 won, 1 lost.")
    await carol.expect("  1-point matches, rated: 1 played, 0 won, 1 lost.")
    await carol.expect("Unfinished: 1 saved, 1 abandoned, 0 lost on time, 0 dropped and claimed;"
                       " 0 drops in all.")
    await carol.expect("PR of the last 10 analysed matches: none analysed.")
    await carol.expect("PR of the last 50 analysed matches: none analysed.")
    await carol.expect("Left out of the PR: 0 analysed matches (abandoned, resigned at once,"
                       " or under 10 checker plays).")
    await carol.send("show record bob alice")
    await carol.expect("Record of bob against alice: 1 matches played, 1 won, 0 lost.")
    await carol.expect("  1-point matches, rated: 1 played, 1 won, 0 lost.")
    await carol.expect("Unfinished: 1 saved, 1 abandoned, 0 lost on time, 0 dropped and claimed.")
    await carol.send("show record bob carol")
    await carol.expect("Record of bob against carol: 0 matches played, 0 won, 0 lost.")
    await carol.send("show record nobody")
    await carol.expect("** There is no one called nobody.")
    await carol.send("show record alice nobody")
    await carol.expect("** There is no one called nobody.")
    # The match is stored as resigned at once (no checker play), which PR figures leave out.
    with closing(sqlite3.connect(running.db_path)) as db:
        assert db.execute("SELECT ending, rated, moves, final_moves FROM match_records").fetchall() \
            == [("resigned", 1, 0, 0)]


async def test_a_house_bots_whois_shows_its_record_and_its_opponents_pr(
        start_server: Any, tmp_path: Path) -> None:
    # The bot's history as the server stored it: two matches it won, one it lost, and
    # the analyses of three (one left out: the opponent resigned at once).
    with SQLiteStore.open(str(tmp_path / "fibsd.db")) as store:
        store.create_account(attrs.evolve(Account.new("hb_expert", "h", 1.0), bot=True))
        store.create_account(Account.new("ann", "h", 1.0))
        for opponent, winner, how, moves, pr in (("ann", 0, "borne_off", 60, 4.0),
                                                 ("ben", 0, "resigned", 1, 70.0),
                                                 ("ann", 1, "borne_off", 80, 6.0)):
            record_id = store.record_match(
                players=("hb_expert", opponent), match_data={"finished_games": []}, length=1,
                score=(1 - winner, winner), winner=winner, started_at=1.0, finished_at=2.0,
                ending=MatchEnding(how=how, rated=True, moves=moves, final_moves=moves))
            store.save_analysis(_analysis(record_id, {"hb_expert": 1.0, opponent: pr}), "(;)")
    # (No gnubg here: the house bots are off, the account and its record are not.)
    running = await start_server(**{"bots.house_bots": [{"name": "hb_expert", "strength": "expert"}],
                                    "bots.bots_gnubg": str(tmp_path / "no-gnubg")})
    carol = await Player.join_server(running, "carol", extensions=True)
    await carol.send("whois hb_expert")
    await carol.expect("  hb_expert is a house bot: expert (GNU Backgammon 2-ply).")
    await carol.expect("  Record in finished matches: 2 won, 1 lost.")
    await carol.expect("  Its opponents' PR: 5.0 (master) over 2 analysed matches (1 left out).")
    await carol.send("show record hb_expert ann")
    await carol.expect("Record of hb_expert against ann: 2 matches played, 1 won, 1 lost.")
    await carol.expect("  1-point matches, rated: 2 played, 1 won, 1 lost.")
    await carol.expect("Unfinished: 0 saved, 0 abandoned, 0 lost on time, 0 dropped and claimed.")
    await carol.expect("PR of the last 10 analysed matches: 1.0 (super grand master) over 2.")


def _analysis(record_id: int, prs: dict[str, float]) -> MatchAnalysis:
    # A PR is 500 x equity lost / decisions (docs/analysis.md): 100 decisions, PR = lost x 5.
    return MatchAnalysis(record_id=record_id, checker_plies=2, cube_plies=2, players=tuple(
        PlayerAnalysis(name=name, decisions=100, checker_lost=pr / 5, cube_lost=0.0,
                       checker_errors=0, checker_blunders=0, cube_errors=0, cube_blunders=0,
                       luck=0.0) for name, pr in prs.items()), errors=(), analysed_at=3.0,
        seconds=1.0)
