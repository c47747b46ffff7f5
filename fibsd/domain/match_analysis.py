"""Engine analysis of finished matches, as data: GNU Backgammon's results read into
values, the PR arithmetic, the bands, and the script gnubg runs.

Owns `MatchAnalysis` (what `analysis ID` shows and the store keeps, as JSON), reading
gnubg's output into it (`read_gnubg_output`), PR (club-play.md A1: 500 × equity lost ÷
non-forced decisions), the band words (A2), the queue's state as the core sees it
(`AnalysisQueue`), and `GNUBG_SCRIPT`: the Python that runs *inside* gnubg's own
process (`gnubg -t -q -p SCRIPT`). gnubg is GPL: fibsd never imports it; the shell
(`fibsd/shell/analysis_workers.py`) runs it as a separate process and hands its JSON here.
Pure: no trio, no store, no clock, no protocol.

The figures, as gnubg 1.07 computes them (checked against its `show statistics match` in
tests/server/test_analysis.py):

* a decision is an unforced checker play (more than one legal play) or a close cube
  decision (gnubg's `close-cube`: close, or a double/take/pass actually made);
* equity lost is in normalised money equity (EMG), the unit of gnubg's "Error total
  EMG"; the checker total is the statistics' `error-skill`, the cube total the sum of the
  `err-*-skill` entries (club-play.md A3a: the cube's `error-skill` is a rate);
* PR = 500 × (checker + cube equity lost) ÷ decisions, i.e. half of gnubg's "Error rate
  mEMG" of the "Overall statistics";
* an error is a decision gnubg marks "bad" (0.08 EMG or more lost), a blunder one it
  marks "very bad" (0.16 or more);
* luck is gnubg's "Luck total EMG": the sum over the player's rolls of the roll's equity
  against the average roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal

import attrs

from fibsd.domain.puzzles import Puzzle

__all__ = [
    "GNUBG_SCRIPT",
    "AnalysedError",
    "AnalysisDone",
    "AnalysisError",
    "AnalysisQueue",
    "MatchAnalysis",
    "PlayerAnalysis",
    "band",
    "pr",
    "read_gnubg_output",
]

# club-play.md A2: the BMAB titles on PR (upper bounds, inclusive).
BANDS: Final[tuple[tuple[float, str], ...]] = (
    (2.5, "super grand master"),
    (4.0, "grand master"),
    (6.5, "master"),
    (10.0, "advanced"),
    (16.0, "intermediate"),
)
# Above the BMAB titles gnubg's words take over (per decision < 0.026 casual, < 0.035
# beginner, else awful; PR = 500 × per-decision error, so PR < 13, < 17.5).
BEYOND_BANDS: Final[tuple[tuple[float, str], ...]] = ((17.5, "beginner"),)
WORST_BAND: Final = "awful"


class AnalysisError(ValueError):
    """gnubg's output could not be read (a crash midway, an unknown format)."""


def pr(equity_lost: float, decisions: int) -> float | None:
    """The performance rating: 500 × equity lost (EMG) ÷ non-forced decisions; None
    without a single decision to judge."""
    if decisions <= 0:
        return None
    return 500.0 * equity_lost / decisions


def band(rating: float | None) -> str:
    """The band word of club-play.md A2 for a PR (lower is better)."""
    if rating is None:
        return "unrated"
    for bound, word in (*BANDS, *BEYOND_BANDS):
        if rating <= bound:
            return word
    return WORST_BAND


@attrs.frozen
class PlayerAnalysis:
    """One player's figures for one match."""

    name: str
    #: Unforced checker plays and close (or actual) cube decisions.
    decisions: int
    #: Equity lost in EMG: checker and cube.
    checker_lost: float
    cube_lost: float
    checker_errors: int
    checker_blunders: int
    cube_errors: int
    cube_blunders: int
    #: gnubg's luck total (EMG, + lucky).
    luck: float

    @property
    def pr(self) -> float | None:
        return pr(self.checker_lost + self.cube_lost, self.decisions)

    @property
    def band(self) -> str:
        return band(self.pr)


ErrorKind = Literal["move", "cube"]


@attrs.frozen
class AnalysedError:
    """One error or blunder: where, what was played, what was best, what it cost."""

    game: int  # 1-based
    player: int  # 0 or 1, as in the match record
    kind: ErrorKind
    position: str  # gnubg position ID, the mover on roll
    dice: tuple[int, int] | None  # None for a cube decision
    played: str  # gnubg's notation, or "no double", "double", "take", "pass"
    best: str
    lost: float  # EMG
    blunder: bool


@attrs.frozen
class MatchAnalysis:
    """The engine's verdict on one finished match (the store keeps it as JSON)."""

    record_id: int
    checker_plies: int
    cube_plies: int
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    errors: tuple[AnalysedError, ...]
    #: When it was finished (epoch seconds) and how long gnubg took.
    analysed_at: float
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return attrs.asdict(self, recurse=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MatchAnalysis:
        players = _seq(data["players"])
        errors = _seq(data["errors"])
        return cls(
            record_id=_int(data["record_id"]),
            checker_plies=_int(data["checker_plies"]),
            cube_plies=_int(data["cube_plies"]),
            players=(_player_from(_map(players[0])), _player_from(_map(players[1]))),
            errors=tuple(_error_from(_map(e)) for e in errors),
            analysed_at=_float(data["analysed_at"]),
            seconds=_float(data["seconds"]),
        )


def _player_from(data: Mapping[str, object]) -> PlayerAnalysis:
    return PlayerAnalysis(
        name=str(data["name"]), decisions=_int(data["decisions"]),
        checker_lost=_float(data["checker_lost"]), cube_lost=_float(data["cube_lost"]),
        checker_errors=_int(data["checker_errors"]), checker_blunders=_int(data["checker_blunders"]),
        cube_errors=_int(data["cube_errors"]), cube_blunders=_int(data["cube_blunders"]),
        luck=_float(data["luck"]),
    )


def _error_from(data: Mapping[str, object]) -> AnalysedError:
    kind = data["kind"]
    if kind not in ("move", "cube"):
        raise AnalysisError(f"unknown decision kind {kind!r}")
    dice = data.get("dice")
    pair: tuple[int, int] | None = None
    if dice:
        values = _seq(dice)
        if len(values) != 2:
            raise AnalysisError(f"bad dice {dice!r}")
        pair = (_int(values[0]), _int(values[1]))
    return AnalysedError(
        game=_int(data["game"]), player=_int(data["player"]), kind=kind,
        position=str(data["position"]), dice=pair, played=str(data["played"]),
        best=str(data["best"]), lost=_float(data["lost"]), blunder=bool(data["blunder"]),
    )


# --- reading gnubg's output ---------------------------------------------------------------


def _map(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise AnalysisError(f"expected an object, got {type(value).__name__}")
    return value


def _seq(value: object) -> Sequence[object]:
    if not isinstance(value, list | tuple):
        raise AnalysisError(f"expected a list, got {type(value).__name__}")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AnalysisError(f"expected a whole number, got {value!r}")
    return value


def _float(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AnalysisError(f"expected a number, got {value!r}")
    return float(value)


SIDES: Final = ("X", "O")  # gnubg's names for the .mat's Player 1 and Player 2


def read_gnubg_output(
    data: Mapping[str, object], *, record_id: int, checker_plies: int, cube_plies: int,
    analysed_at: float, seconds: float,
) -> MatchAnalysis:
    """`GNUBG_SCRIPT`'s JSON as a `MatchAnalysis`. Player 0 of the record is the .mat's
    Player 1, gnubg's "X". AnalysisError if the data is not what the script writes."""
    try:
        info = _map(data["info"])
        stats = _map(data["stats"])
        raw_errors = _seq(data["errors"])
        errors = tuple(_error_from(_map(e)) for e in raw_errors)
        players = []
        for index, side in enumerate(SIDES):
            name = str(_map(info[side])["name"])
            side_stats = _map(stats[side])
            moves = _map(side_stats["moves"])
            cube = _map(side_stats["cube"])
            marked = _map(moves["marked"])
            cube_lost = sum(
                _float(value) for key, value in cube.items()
                if key.startswith("err-") and key.endswith("-skill")
            )
            mine = [e for e in errors if e.player == index and e.kind == "cube"]
            players.append(PlayerAnalysis(
                name=name,
                decisions=_int(moves["unforced-moves"]) + _int(cube["close-cube"]),
                checker_lost=_float(moves["error-skill"]),
                cube_lost=cube_lost,
                checker_errors=_int(marked.get("bad", 0)),
                checker_blunders=_int(marked.get("very bad", 0)),
                cube_errors=sum(1 for e in mine if not e.blunder),
                cube_blunders=sum(1 for e in mine if e.blunder),
                luck=_float(_map(side_stats["dice"])["luck"]),
            ))
    except KeyError as missing:
        raise AnalysisError(f"gnubg's output lacks {missing}") from None
    return MatchAnalysis(
        record_id=record_id, checker_plies=checker_plies, cube_plies=cube_plies,
        players=(players[0], players[1]), errors=errors, analysed_at=analysed_at,
        seconds=seconds,
    )


@attrs.frozen
class AnalysisDone:
    """What a worker hands back for one job: the analysis and gnubg's .sgf of the
    analysed match, or why there is none (words for the requester)."""

    record_id: int
    analysis: MatchAnalysis | None = None
    sgf: str = ""
    failure: str | None = None
    #: The decisions that cost more than the puzzle threshold (issue 37).
    puzzles: tuple[Puzzle, ...] = ()


# --- the queue, as the core sees it --------------------------------------------------------


@attrs.define
class AnalysisQueue:
    """Matches waiting for (or in) analysis, in order, each with who asked (name keys;
    empty for an automatic job), and whether there is an engine at all. The shell runs
    the jobs; the core keeps this so it can answer "queued", "already queued" and "the
    queue is full" without asking the shell."""

    capacity: int
    #: Why analysis is off, or None when it works: off until the shell has workers
    #: running (the synchronous test driver has none).
    unavailable: str | None = "no analysis workers are running"
    pending: dict[int, list[str]] = attrs.field(factory=dict)

    @property
    def full(self) -> bool:
        return len(self.pending) >= self.capacity

    def position(self, record_id: int) -> int | None:
        """1-based place of a match in the queue (running jobs count), or None."""
        for place, pending in enumerate(self.pending, start=1):
            if pending == record_id:
                return place
        return None


# --- what runs inside gnubg ----------------------------------------------------------------

#: Run by `gnubg -t -q -p FILE` with FIBSD_MAT (the .mat to import), FIBSD_OUT (where to
#: write the JSON), FIBSD_SGF (where to save the analysed match, gnubg's .sgf),
#: FIBSD_CHECKER_PLIES and FIBSD_CUBE_PLIES in its environment. It runs in gnubg's embedded
#: Python (3.x in Debian's build), which has `gnubg` and the standard library only.
GNUBG_SCRIPT: Final = r'''
import json
import os

import gnubg

DROP = 1.0  # a dropped double: the doubler wins the cube's value, normalised equity +1


def play_text(move, board):
    if not move:
        return ""
    flat = [p for step in move for p in step]
    try:
        return gnubg.movetupletostring(tuple(flat + [-1] * (8 - len(flat))), board)
    except Exception:
        name = lambda p: "bar" if p == 25 else "off" if p == 0 else str(p)
        return " ".join(name(a) + "/" + name(b) for a, b in move)


def cube_best(nd, dt):
    if max(nd, min(dt, DROP)) == nd:
        return "no double"
    return "double, take" if dt <= DROP else "double, pass"


def main():
    env = os.environ
    gnubg.command("set threads 1")
    gnubg.command("set analysis chequerplay evaluation plies %d" % int(env["FIBSD_CHECKER_PLIES"]))
    gnubg.command("set analysis cubedecision evaluation plies %d" % int(env["FIBSD_CUBE_PLIES"]))
    gnubg.command('import mat "%s"' % env["FIBSD_MAT"])
    gnubg.command("analyse match")
    match = gnubg.match(statistics=1)
    length = match["match-info"]["match-length"]
    side = {"X": 0, "O": 1}
    gnubg_side = {"X": 1, "O": 0}  # gnubg's own player numbers, for its cube-info
    errors = []
    puzzles = []  # issue 37: every decision that cost more than the threshold, its candidates
    threshold = float(env.get("FIBSD_PUZZLE_THRESHOLD", "0.05"))
    for number, game in enumerate(match["games"], start=1):
        info = game["info"]
        score = [0, 0]
        score[gnubg_side["X"]] = info["score-X"]
        score[gnubg_side["O"]] = info["score-O"]
        cube, owner, double = 1, -1, None
        for record in game["game"]:
            player = record.get("player")
            if player not in side:
                continue
            action = record.get("action")
            analysis = record.get("analysis") or {}
            position = record.get("board") or (double[2] if double else "-")

            def note(kind, played, best, lost, mark, dice=None):
                if mark in ("bad", "very bad"):
                    errors.append({
                        "game": number, "player": side[player], "kind": kind,
                        "position": position, "dice": list(dice or []), "played": played,
                        "best": best, "lost": lost, "blunder": mark == "very bad",
                    })

            def puzzle(kind, candidates, played, lost, dice=None):
                if lost > threshold:
                    mine = gnubg_side[player]
                    puzzles.append({
                        "game": number, "player": side[player], "kind": kind,
                        "position": position, "dice": list(dice or []), "length": length,
                        "score": [score[mine], score[1 - mine]], "cube": cube,
                        "cube_owner": "centred" if owner == -1 else
                                      "mover" if owner == mine else "opponent",
                        "crawford": bool(info.get("crawford", False)), "played": played,
                        "lost": lost,
                        "candidates": [{"play": p, "equity": e} for p, e in candidates],
                    })

            def equities():
                info = gnubg.cubeinfo(cube, owner, gnubg_side[player], length, tuple(score), 0, 0)
                return (gnubg.mwc2eq(analysis["nd-cubeful-eq"], info),
                        gnubg.mwc2eq(analysis["dt-cubeful-eq"], info)) if length else (
                        analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"])

            if action == "move":
                if "nd-cubeful-eq" in analysis and "dt-cubeful-eq" in analysis:
                    nd, dt = equities()
                    lost = max(nd, min(dt, DROP)) - nd
                    if lost > 0:
                        note("cube", "no double", cube_best(nd, dt), lost, analysis.get("cube-skill"))
                    puzzle("double", [("no double", nd), ("double", min(dt, DROP))],
                           "no double", lost)
                moves = analysis.get("moves") or []
                if len(moves) > 1:
                    board = gnubg.positionfromid(position)
                    lost = moves[0]["score"] - moves[analysis["imove"]]["score"]
                    note("move", play_text(record.get("move"), board),
                         play_text(moves[0]["move"], board), lost, analysis.get("skill"),
                         record.get("dice"))
                    puzzle("move", [(play_text(m["move"], board), m["score"]) for m in moves],
                           play_text(record.get("move"), board), lost, record.get("dice"))
            elif action == "double":
                double = None
                if "nd-cubeful-eq" in analysis and "dt-cubeful-eq" in analysis:
                    nd, dt = equities()
                    double = (nd, dt, position)
                    lost = max(nd, min(dt, DROP)) - min(dt, DROP)
                    note("cube", "double", cube_best(nd, dt), lost, analysis.get("skill"))
                    puzzle("double", [("no double", nd), ("double", min(dt, DROP))],
                           "double", lost)
            elif action in ("take", "drop"):
                if double is not None:
                    nd, dt, _ = double
                    best = "take" if dt <= DROP else "pass"
                    answers = [("take", -dt), ("pass", -DROP)]
                    if action == "take":
                        note("cube", "take", best, max(0.0, dt - DROP), analysis.get("skill"))
                        puzzle("take", answers, "take", max(0.0, dt - DROP))
                    else:
                        note("cube", "pass", best, max(0.0, DROP - dt), analysis.get("skill"))
                        puzzle("take", answers, "pass", max(0.0, DROP - dt))
                if action == "take":
                    cube, owner = cube * 2, gnubg_side[player]
    sgf = env.get("FIBSD_SGF")
    if sgf:
        gnubg.command('save match "%s"' % sgf)
    out = {"info": match["match-info"], "stats": match["stats"], "errors": errors,
           "puzzles": puzzles}
    with open(env["FIBSD_OUT"], "w") as handle:
        json.dump(out, handle, default=repr)


main()
'''
