"""Whole chouettes from the first order roll: several games in a row, from the opening
roll, for a four-player multi-cube and a three-player single-cube table."""

from __future__ import annotations

from fibsd.rules.chouette import Chouette, Cubes, Settings, TablePhase
from fibsd.rules.events import GameResult
from fibsd.rules.game import GamePhase


def test_four_player_multi_cube_chouette_over_three_games() -> None:
    t = Chouette(Settings(), ["ann", "bob", "cat", "dan"])
    t.begin_order()
    t.order_roll({"ann": 2, "bob": 6, "cat": 4, "dan": 4})
    t.order_roll({"cat": 1, "dan": 3})
    assert t.queue == ("bob", "dan", "cat", "ann")

    # game 1: the box opens, dan and ann double, the box drops dan (the captain) and
    # takes ann; cat plays on as acting captain and resigns a gammon
    t.start_game()
    t.opening_roll(3, 1)  # box first, with 3-1
    t.move("bob", [(8, 5), (6, 5)])
    t.double("dan")
    t.double("ann")
    assert t.eligible_doubles("cat")  # cat may double too, until the captain rolls
    t.drop("bob", ["dan"])
    t.take("bob", ["ann"])
    assert t.captain == "cat"
    t.roll("cat", (6, 5))
    t.move("cat", [(24, 18), (18, 13)])
    t.resign("cat", GameResult.GAMMON)
    t.accept_resignation("bob")  # Jacoby: cat's cube was never turned, a single
    assert t.game is not None and t.live_members() == ("ann",)
    t.resign("ann", GameResult.SINGLE)
    t.accept_resignation("bob")
    assert t.phase is TablePhase.BETWEEN_GAMES
    assert dict(t.ledger.games[0].deltas) == {"bob": 2, "dan": 1, "cat": -1, "ann": -2}
    assert t.queue == ("dan", "cat", "ann", "bob")  # dan beat the box

    # game 2: the box doubles everyone at its first turn; all drop (R7)
    t.start_game()
    t.opening_roll(2, 5)  # the team opens
    t.move("cat", [(13, 8), (13, 11)])
    t.double("dan")
    for name in ("cat", "ann", "bob"):
        t.drop(name)
    assert t.queue == ("dan", "ann", "bob", "cat")

    # game 3: the box resigns a single to everyone; ann accepts for the team's win
    t.start_game()
    t.opening_roll(6, 6)  # a tie re-rolls (no automatic doubles)
    assert t.game is not None and t.game.phase is GamePhase.OPENING
    t.opening_roll(4, 2)
    t.move("dan", [(8, 4), (6, 4)])
    t.resign("dan", GameResult.SINGLE)
    for name in ("ann", "bob", "cat"):
        t.accept_resignation(name)
    assert t.queue == ("ann", "bob", "cat", "dan")
    assert t.totals() == {"bob": 2, "dan": 1, "cat": -1, "ann": -2}
    assert [s.name for s in t.ledger.standings()] == ["bob", "dan", "cat", "ann"]
    assert t.game_number == 3 and len(t.ledger.games) == 3


def test_three_player_single_cube_chouette_over_two_games() -> None:
    t = Chouette(Settings(cubes=Cubes.SINGLE, jacoby=False), ["x", "y", "z"])
    t.begin_order()
    t.order_roll({"x": 1, "y": 5, "z": 3})
    assert t.queue == ("y", "z", "x")
    t.start_game()
    t.opening_roll(1, 3)  # the team opens
    t.move("z", [(8, 5), (6, 5)])
    t.roll("y", (4, 4))
    t.move("y", [(13, 9), (13, 9), (6, 2), (6, 2)])
    t.double("z")  # for the whole team
    t.take("y")
    assert {(c.value, c.owner is not None) for c in t.contracts} == {(2, True)}
    t.roll("z", (2, 1))
    t.move("z", [(13, 11), (6, 5)])
    t.double("y")
    t.drop("z")  # the captain drops ...
    t.take("x")  # ... x takes and is captain; z to the end at once (C36)
    assert t.captain == "x" and t.queue == ("y", "x", "z")
    t.resign("x", GameResult.SINGLE)
    t.accept_resignation("y")
    assert dict(t.ledger.games[0].deltas) == {"y": 6, "z": -2, "x": -4}
    assert t.queue == ("y", "z", "x")
    t.start_game()
    t.opening_roll(1, 2)
    t.move("z", [(24, 23), (13, 11)])
    t.double("y")
    t.drop("z")
    t.drop("x")
    assert t.totals() == {"y": 8, "z": -3, "x": -5}
    assert t.queue == ("y", "x", "z")
