"""One way to run a table (issue 21 §4, the chouette side): the chouette's save is a typed
value the store interprets, and both tables draw their boards with one builder
(`fibsd.app.play.boards.game_board_line`: the position, the cube as this viewer sees it,
the turn and the dice)."""

from __future__ import annotations

from fibsd.app import dispatch
from fibsd.app.play.boards import CubeView, game_board_line
from fibsd.app.play.chouette import ChouetteTable, SavedChouette
from fibsd.app.play.chouette_view import Seating
from fibsd.app.play.chouette_view import board_line as chouette_board_line
from fibsd.domain.dice import ScriptedDice
from fibsd.store.api import ChouetteSave
from protocol.board import YOU
from tests.app.driver import CoreDriver
from tests.app.test_chouette_transcripts import Chouette
from tests.chouette.helpers import TEAM_GAMMONED


def test_every_chouette_action_saves_a_typed_value_the_store_interprets() -> None:
    driver = CoreDriver(ScriptedDice())
    driver.create("al", "bo")
    al = driver.log_in("al")
    driver.log_in("bo")
    outcome = dispatch.handle(driver.registry, al, "chouette create", monotonic=0.0)
    saves = [write for write in outcome.writes if isinstance(write, ChouetteSave)]
    assert len(saves) == 1
    save = saves[0]
    assert (save.table_id, save.owner, save.closed) == (1, "al", False)
    saved = SavedChouette.from_dict(save.state)
    assert saved.engine["queue"] == ["al"] and not saved.closing and saved.deadline is None
    driver.apply(outcome)
    # The store holds exactly what the value said.
    assert driver.store.open_chouettes() == [save.state]
    outcome = dispatch.handle(driver.registry, al, "chouette close", monotonic=0.0)
    (closing,) = [write for write in outcome.writes if isinstance(write, ChouetteSave)]
    assert closing.closed
    driver.apply(outcome)
    assert driver.store.open_chouettes() == []
    assert driver.store.chouette(1) == closing.state


def test_a_saved_table_restores_to_the_same_table() -> None:
    c = Chouette(["bx", "cp", "ta"], "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("bx", "double")
    c.send("bx", "chouette close")
    saved = c.table.saved()
    again = ChouetteTable.from_saved(
        saved.to_dict(), clock=c.driver.clock, dice=ScriptedDice(), roll_counts=c.table.roll_counts)
    assert again.engine == c.table.engine
    assert again.saved() == saved and saved.closing and saved.deadline is not None


def test_the_chouette_board_is_the_match_board_builder_with_the_viewers_own_cube() -> None:
    c = Chouette(["bx", "cp", "ta"], "", box={1: 2}, team=TEAM_GAMMONED, turn=0)
    c.send("bx", "double ta")
    c.send("ta", "beaver", [2, 1])  # the box rolls at once
    engine = c.table.engine
    seating = Seating.of(engine)
    assert seating is not None and engine.game is not None
    game = engine.game
    # ta (crew) sees the captain's board with his own cube: 4, his, nobody was doubled.
    own = CubeView(value=4, player_may_double=True, opponent_may_double=False, was_doubled=False)
    expected = game_board_line(game, 1, player="cp", opponent="bx", is_o=False, cube=own,
                               in_play=True, match_length=9999, redoubles=1)
    assert chouette_board_line(engine, seating, game, "ta") == expected
    # The captain sees the same position as a player (You), with his own cube, centred.
    centred = CubeView(value=1)
    assert chouette_board_line(engine, seating, game, "cp") == game_board_line(
        game, 1, player=YOU, opponent="bx", is_o=False, cube=centred, in_play=True,
        match_length=9999, redoubles=1)
