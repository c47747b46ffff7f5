"""Puzzles from the members' analysed errors (issue 37, docs/puzzles.md), the commands:
`puzzle [mine|any]` serves one, and while it is open `move ...`, `double`/`roll` and
`take`/`pass` (or `accept`/`reject`) answer it; `show puzzles [NAME]` tells a solver's
Glicko-2 puzzle rating. The puzzles and their grading are
`fibsd.domain.puzzles`; the store chooses the next one.

A puzzle is shown as the board the client already draws (its board style: the `board:`
line for a CLIP client, the ASCII board for telnet), the solver always as O (moving 24
to 1, so the points he types are his own), with plain lines around it, as the other
fibsd-only commands answer: nothing a CLIP client did not ask for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fibsd.app.outcome import Outcome
from fibsd.app.play.boards import board_message
from fibsd.app.play.notation import own_point, play_error
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.accounts import name_key
from fibsd.domain.glicko2 import Glicko2
from fibsd.domain.puzzles import Grade, Puzzle, grade_cube, grade_play, solving_score
from fibsd.rules import BAR, OFF, IllegalPlay, moves_required
from fibsd.rules.timecontrol import SECONDS_PER_DAY
from fibsd.store import Store
from protocol import commands as c
from protocol.board import UNLIMITED_MATCH_LENGTH, YOU, BoardLine, Checkers, Colour, build_board_line
from protocol.messages import TextLine
from protocol.wording import Text, render

__all__ = ["answer", "answers", "cube_word", "puzzle", "show_puzzles"]

DAY: Final = SECONDS_PER_DAY
#: The opponent's name on a puzzle's board.
OPPONENT: Final = "puzzle"
#: `take` and `pass` are no FIBS verbs: only while a puzzle is open do they mean this.
CUBE_WORDS: Final[Mapping[str, c.Command]] = {"take": c.Accept(), "pass": c.Reject()}
_KIND_WORDS: Final = {"move": "checker play", "double": "cube decision", "take": "take or pass"}


def puzzle(registry: Registry, session: Session, command: c.Puzzle, out: Outcome) -> None:
    """`puzzle [mine|any]`: the oldest puzzle the user has not answered, from his own
    errors first (`mine`: only those; `any`: anyone's), never from a match he watched
    live that day (cold reads: a job)."""
    if session.table is not None or session.chouette is not None:
        out.to(session, TextLine.of(Text.PUZZLE_WHILE_PLAYING))
        return
    key = session.key
    now = registry.clock.now()
    since = now - now % DAY  # the start of the day (UTC)
    source = command.source

    def read(store: Store) -> tuple[int, Puzzle] | None:
        if source is not c.PuzzleSource.ANY:
            found = store.next_puzzle(key, mine=True, since=since)
            if found is not None or source is c.PuzzleSource.MINE:
                return found
        return store.next_puzzle(key, mine=False, since=since)

    def then(found: tuple[int, Puzzle] | None) -> Outcome:
        shown = Outcome()
        if session.table is not None or session.chouette is not None:
            shown.to(session, TextLine.of(Text.PUZZLE_WHILE_PLAYING))
        elif found is None:
            none = Text.PUZZLE_NONE_MINE if source is c.PuzzleSource.MINE else Text.PUZZLE_NONE
            shown.to(session, TextLine.of(none))
        else:
            session.puzzle = found
            show(session, *found, shown)
        return shown

    out.run(registry.read(read, then, name="puzzle: the next one"))


def show(session: Session, number: int, puzzle: Puzzle, out: Outcome) -> None:
    """The puzzle's header, its board in the user's board style, and the question."""
    length = "unlimited match" if puzzle.length == 0 else f"{puzzle.length} point match"
    owner = {"centred": "centred", "mover": "yours", "opponent": "your opponent's"}[
        puzzle.cube_owner]
    out.lines(session, render(
        Text.PUZZLE_HEADER, number=number, name=puzzle.player, kind=_KIND_WORDS[puzzle.kind],
        record=puzzle.record_id, game=puzzle.game, length=length,
        score=f"{puzzle.score[0]}-{puzzle.score[1]}", cube=puzzle.cube, owner=owner))
    out.to(session, board_message(_board(puzzle), session, playing=True))
    match puzzle.kind:
        case "move":
            assert puzzle.dice is not None
            out.lines(session, render(Text.PUZZLE_ASK_MOVE, die1=puzzle.dice[0], die2=puzzle.dice[1]))
        case "double":
            out.lines(session, Text.PUZZLE_ASK_DOUBLE.value)
        case "take":
            out.lines(session, Text.PUZZLE_ASK_TAKE.value)


def _board(puzzle: Puzzle) -> BoardLine:
    position = puzzle.position_for_decider()
    me, opp = position.me, position.opp
    may_double = not puzzle.crawford
    dice = puzzle.dice or (0, 0)
    return build_board_line(
        player=YOU, opponent=OPPONENT, colour=Colour.O,
        player_checkers=Checkers(points=me[1:25], bar=me[BAR], off=me[OFF]),
        opponent_checkers=Checkers(points=opp[1:25], bar=opp[BAR], off=opp[OFF]),
        match_length=puzzle.length or UNLIMITED_MATCH_LENGTH,
        player_score=puzzle.score[0], opponent_score=puzzle.score[1],
        turn=Colour.O, player_dice=dice, cube=puzzle.cube,
        player_may_double=may_double and puzzle.cube_owner != "opponent",
        opponent_may_double=may_double and puzzle.cube_owner != "mover",
        was_doubled=puzzle.kind == "take",
        can_move=moves_required(position, dice) if puzzle.dice is not None else 0,
    )


def answers(session: Session, command: c.Command) -> bool:
    """Whether `command` answers the user's open puzzle (only when he plays no match:
    in a match every command means what it always means)."""
    return (session.puzzle is not None and session.table is None and session.chouette is None
            and isinstance(command, (c.Move, c.Double, c.Roll, c.Accept, c.Reject)))


def cube_word(session: Session, line: str) -> c.Command | None:
    """`take` or `pass` typed while a puzzle is open (no FIBS verbs: the line is not
    parsed as a command then), as `accept`/`reject`; None otherwise."""
    words = line.split()
    command = CUBE_WORDS.get(words[0].lower()) if len(words) == 1 else None
    return command if command is not None and answers(session, command) else None


def answer(registry: Registry, session: Session, command: c.Command, out: Outcome) -> None:
    """Grade the answer to the open puzzle, tell the user and keep the result."""
    assert session.puzzle is not None
    number, puzzle = session.puzzle
    graded = _grade(puzzle, command)
    if graded is None:  # an answer of the wrong kind: ask again
        show(session, number, puzzle, out)
        return
    if isinstance(graded, IllegalPlay):
        out.to(session, play_error(graded, is_o=True))
        return
    text, grade = graded
    session.puzzle = None
    key, at = session.key, registry.clock.now()
    score = solving_score(puzzle, grade)
    out.write(lambda store: store.save_puzzle_answer(number, key, text, grade.lost, score, at))
    verdict = (Text.PUZZLE_VERDICT_BEST.value if grade.lost <= 1e-9
               else render(Text.PUZZLE_VERDICT_LOST, lost=grade.lost))
    out.lines(session, render(
        Text.PUZZLE_GRADE, number=number, answer=text, equity=f"{grade.equity:+.3f}",
        verdict=verdict, best=puzzle.best.play, best_equity=f"{puzzle.best.equity:+.3f}",
        name=puzzle.player, played=puzzle.played, played_lost=puzzle.lost))
    if not grade.listed:
        out.lines(session, Text.PUZZLE_UNLISTED.value)


def _grade(puzzle: Puzzle, command: c.Command) -> tuple[str, Grade] | IllegalPlay | None:
    match command, puzzle.kind:
        case c.Move(moves), "move":
            own = [(own_point(a, is_o=True), own_point(b, is_o=True)) for a, b in moves]
            try:
                grade = grade_play(puzzle, own)
            except IllegalPlay as illegal:
                return illegal
            return " ".join(f"{_point(a)}/{_point(b)}" for a, b in own), grade
        case c.Double(), "double":
            return "double", grade_cube(puzzle, "double")
        case c.Roll(), "double":
            return "no double", grade_cube(puzzle, "no double")
        case c.Accept(), "take":
            return "take", grade_cube(puzzle, "take")
        case c.Reject(), "take":
            return "pass", grade_cube(puzzle, "pass")
    return None


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def show_puzzles(registry: Registry, session: Session, name: str, out: Outcome) -> None:
    """`show puzzles [NAME]`: a solver's puzzle rating and answers (cold reads: a job)."""

    def read(store: Store) -> tuple[str, tuple[Glicko2, int, int, float] | None] | None:
        account = store.get_account(name)
        return None if account is None else (account.name, store.puzzle_rating(name_key(account.name)))

    def then(found: tuple[str, tuple[Glicko2, int, int, float] | None] | None) -> Outcome:
        answer = Outcome()
        if found is None:
            answer.to(session, TextLine.of(Text.NO_ONE_CALLED_PERIOD, name=name))
            return answer
        shown, rating = found
        if rating is None:
            answer.to(session, TextLine.of(Text.SHOW_PUZZLES_NONE, name=shown))
            return answer
        glicko, answered, best, lost = rating
        answer.lines(session, render(
            Text.SHOW_PUZZLES, name=shown, rating=f"{glicko.rating:.0f}",
            deviation=f"{glicko.deviation:.0f}", count=answered, best=best, lost=lost))
        return answer

    out.run(registry.read(read, then, name="show puzzles: the solver's rating"))
