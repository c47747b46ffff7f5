"""Engine analysis as data: PR arithmetic, the bands, the stored form, and the store's
analyses family (docs/analysis.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fibsd.domain.match_analysis import AnalysedError, MatchAnalysis, PlayerAnalysis, band, pr
from fibsd.store.sqlite import SQLiteStore


def test_pr_is_500_times_the_equity_lost_per_decision() -> None:
    assert pr(1.0, 100) == pytest.approx(5.0)
    assert pr(0.0, 10) == 0.0
    assert pr(1.0, 0) is None


@pytest.mark.parametrize(("rating", "word"), [
    (0.0, "super grand master"), (2.5, "super grand master"), (2.51, "grand master"),
    (4.0, "grand master"), (6.5, "master"), (10.0, "advanced"), (16.0, "intermediate"),
    (17.5, "beginner"), (17.6, "awful"), (None, "unrated"),
])
def test_the_bands_are_club_plays_a2(rating: float | None, word: str) -> None:
    assert band(rating) == word


def analysis(record_id: int, prs: tuple[float, float]) -> MatchAnalysis:
    players = tuple(
        PlayerAnalysis(name=name, decisions=100, checker_lost=value / 5, cube_lost=0.0,
                       checker_errors=1, checker_blunders=0, cube_errors=0, cube_blunders=0,
                       luck=0.25)
        for name, value in zip(("alice", "bob"), prs, strict=True))
    return MatchAnalysis(
        record_id=record_id, checker_plies=1, cube_plies=1, players=(players[0], players[1]),
        errors=(AnalysedError(game=1, player=0, kind="move", position="4HPwATDgc/ABMA",
                              dice=(6, 2), played="24/22 8/2", best="24/16", lost=0.126,
                              blunder=False),),
        analysed_at=100.0, seconds=2.5)


def test_an_analysis_round_trips_through_its_stored_form() -> None:
    original = analysis(7, (4.0, 12.0))
    assert MatchAnalysis.from_dict(original.to_dict()) == original
    assert original.players[0].pr == pytest.approx(4.0)


def test_the_store_keeps_jobs_analyses_and_average_prs(tmp_path: Path) -> None:
    with SQLiteStore.open(tmp_path / "db.sqlite") as store:
        store.queue_analysis(3, ["alice"], 10.0)
        store.queue_analysis(2, [], 11.0)
        store.queue_analysis(3, ["alice", "bob"], 12.0)  # more requesters, same place
        assert store.analysis_jobs() == [(3, ["alice", "bob"]), (2, [])]
        store.save_analysis(analysis(3, (4.0, 12.0)), "(;FF[4])\n")
        store.save_analysis(analysis(2, (8.0, 2.0)), "(;FF[4])\n")
        store.drop_analysis_job(99)
    with SQLiteStore.open(tmp_path / "db.sqlite") as store:  # it survives reopening
        assert store.analysis_jobs() == []
        assert store.analysis(3) == analysis(3, (4.0, 12.0))
        assert store.analysis(5) is None
        assert store.analysis_sgf(2) == "(;FF[4])\n"
        average = store.average_pr("ALICE")
        assert average is not None and average[0] == pytest.approx(6.0) and average[1] == 2
        assert store.average_pr("carol") is None
