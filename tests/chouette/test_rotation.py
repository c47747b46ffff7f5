"""Every rotation case of §1.13 (R1-R10, with the `rotation = acting` variant) from the
queue [B, C, T2, T3, T4], played with scripted dice on set-up boards."""

from __future__ import annotations

from fibsd.rules.chouette import Chouette, JoinMode, Rotation, Settings

from .helpers import (
    BOX_SINGLE,
    TEAM_GAMMONED,
    board,
    box_shuffle,
    ordered,
    team_shuffle,
)

Q = ["B", "C", "T2", "T3", "T4"]


def finish(table: Chouette, who: str) -> None:
    table.roll(who, (2, 1))
    table.move(who, [(1, 0), (1, 0)])


def box_wins(settings: Settings | None = None) -> Chouette:
    t = ordered(Q, settings)
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=0))
    return t


def team_wins(settings: Settings | None = None) -> Chouette:
    t = ordered(Q, settings)
    t.start_game(board=board(BOX_SINGLE, {1: 2}, turn=1))
    return t


def test_r1_box_beats_captain_on_the_board() -> None:
    t = box_wins()
    finish(t, "B")
    assert t.queue == ("B", "T2", "T3", "T4", "C")


def test_r2_captain_beats_box() -> None:
    t = team_wins()
    finish(t, "C")
    assert t.queue == ("C", "T2", "T3", "T4", "B")


def test_r3_split_results_are_ignored() -> None:
    t = ordered(Q)
    t.start_game(board=board({1: 4}, TEAM_GAMMONED, turn=0))
    t.double("B", ["T3"])
    t.take("T3")
    finish(t, "B")
    t.double("T3")
    t.drop("B")  # the box loses to T3 ...
    team_shuffle(t)
    finish(t, "B")  # ... but beats the captain
    assert t.queue == ("B", "T2", "T3", "T4", "C")
    assert dict(t.ledger.games[-1].deltas)["T3"] == 2


def test_r4_box_drops_captains_double_and_beats_the_acting_captain() -> None:
    t = ordered(Q)
    t.start_game(board=board({1: 2}, TEAM_GAMMONED, turn=1))
    t.double("C")
    t.drop("B")
    assert t.captain == "T2"
    team_shuffle(t)
    finish(t, "B")
    assert t.queue == ("C", "T2", "T3", "T4", "B")


def r5_start(settings: Settings | None, team_board: dict[int, int]) -> Chouette:
    t = ordered(Q, settings)
    box_board = {1: 2} if team_board is TEAM_GAMMONED else BOX_SINGLE
    t.start_game(board=board(box_board, team_board, turn=0))
    t.double("B")
    t.drop("C")
    t.take("T2")
    t.take("T3")
    t.drop("T4")
    return t


def test_r5_dropped_captain_goes_to_the_end_and_the_box_beats_t2() -> None:
    t = r5_start(None, TEAM_GAMMONED)
    assert t.queue == ("B", "T2", "T3", "T4", "C") and t.captain == "T2"
    finish(t, "B")
    assert t.queue == ("B", "T3", "T4", "C", "T2")


def test_r6_as_r5_but_t2_beats_the_box() -> None:
    t = r5_start(None, {1: 2})
    box_shuffle(t)
    finish(t, "T2")
    assert t.queue == ("T2", "T3", "T4", "C", "B")


def test_r5_r6_with_rotation_acting() -> None:
    acting = Settings(rotation=Rotation.ACTING)
    t = r5_start(acting, TEAM_GAMMONED)
    finish(t, "B")
    assert t.queue == ("B", "T2", "T3", "T4", "C")
    t = r5_start(acting, {1: 2})
    box_shuffle(t)
    finish(t, "T2")
    assert t.queue == ("B", "T2", "T3", "T4", "C")


def test_r7_all_drop_the_box_double() -> None:
    t = box_wins()
    t.double("B")
    for name in ("C", "T2", "T3", "T4"):
        t.drop(name)
    assert t.game is None
    assert t.queue == ("B", "T2", "T3", "T4", "C")


def test_r8_box_drops_every_team_double() -> None:
    t = team_wins()
    for name in ("C", "T2", "T3", "T4"):
        t.double(name)
    t.drop("B")
    assert t.game is None
    assert t.queue == ("C", "T2", "T3", "T4", "B")


def test_r9_five_players_lone_taker_forced_to_drop() -> None:
    t = box_wins()
    t.double("B")
    for name in ("C", "T2", "T3"):
        t.drop(name)
    t.take("T4")
    assert t.game is None
    assert dict(t.ledger.games[-1].deltas) == {
        "B": 4,
        "C": -1,
        "T2": -1,
        "T3": -1,
        "T4": -1,
    }
    assert t.queue == ("B", "T2", "T3", "T4", "C")


def test_r10_newcomer_joins_mid_game_at_the_end() -> None:
    t = team_wins()
    t.join("N")
    assert t.queue == ("B", "C", "T2", "T3", "T4", "N")
    assert "N" not in t.participants
    finish(t, "C")
    assert t.queue == ("C", "T2", "T3", "T4", "N", "B")


def test_r10_behind_the_loser() -> None:
    t = team_wins(Settings(join=JoinMode.BEHIND_LOSER))
    t.join("N")
    assert t.queue == tuple(Q) and t.seated[-1] == "N"
    finish(t, "C")
    assert t.queue == ("C", "T2", "T3", "T4", "B", "N")
