"""Jellyfish `.mat` match files: writing a finished match, and reading one back.

Owns the text format that GNU Backgammon's `import mat` reads (its `ImportMatVariation`
/ `ImportGame` / `ParseMatMove`), written from a `fibsd.rules.Match` and its per-game
histories; the one-line summary of a stored match (`record_summary`); and a small reader
(`parse_mat`) that the tests use to replay an export through the rules engine; and
`MatchRecord`, a finished match as `fibsd.store` keeps it and this format writes it.
Pure: no store, no clock (times are passed in), no protocol.

The format, as gnubg reads it (checked against GNU Backgammon 1.07 in the tests):

    ; [Site "fibsd"]                      comment lines (`;`) carry the header
     7 point match                        ` 0 point match` is a money session
     Game 1
     alice : 0                        bob : 0          score before the game; alice is
      1) 31: 8/5 6/5                    52: 13/8 13/11 the left column in every game
      2)  Doubles => 2                   Takes
      3) 64: 24/18* 13/9                 Doubles => 4
      4)  Drops                          Wins 2 points and the match

Each numbered line holds one action of the left player, then one of the right player;
gnubg splits the columns at the second `dd:` or, failing that, at the first double
space after column 15, so the left column is padded wide and never contains a double
space. An action is a roll with its play (`52: 13/8 13/11`; the mover's own point
numbers, 25 = bar, 0 = off, `*` = hit; a roll alone means no legal play, or a
resignation right after rolling), `Doubles => N`, `Beavers => N`, `Raccoons => N`,
`Takes`, `Drops` or `Wins N point(s)`. `Wins` is the winner's next action like any
other, as gnubg's own `export match mat` writes it: set apart on an unnumbered line,
gnubg 1.07 misread it and scored phantom games. While the game is still being played
gnubg takes `Wins` as the loser's resignation, its kind (single, gammon, backgammon)
inferred from N against the cube, so N is the game's full value; gnubg therefore shows
the decisive game's full value in its final score (e.g. 9-5 in a 7-point match), as
FIBS and fibsd score it too.

Not expressible in the format, so gnubg cannot know them: a match played without the
Crawford rule (gnubg assumes it in every match), the Holland rule, Jacoby and automatic
doubles in money sessions (gnubg uses its own settings), rejected resignations and
opening-roll ties (both leave no trace, which is harmless).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence

import attrs

from fibsd.domain.fairdice import dice_header_lines
from fibsd.rules import (
    Beavered,
    CheckersMoved,
    CubeOffered,
    CubePassed,
    CubeTaken,
    DiceRolled,
    Event,
    Game,
    GameStarted,
    GameWon,
    Match,
    OpeningRolled,
    Raccooned,
    TurnPassed,
)


@attrs.frozen
class MatchRecord:
    """A finished match as stored: who played (player 0 invited), length (None =
    unlimited), final score, winner (None for an unlimited match) and the complete
    `Match.to_dict()` data, from which this module writes the `.mat` file.

    It lives beside the format, not in `fibsd.store` (which stores and returns it), so
    that the client tools can read and write match files without the server's store."""

    id: int
    players: tuple[str, str]
    length: int | None
    score: tuple[int, int]
    winner: int | None
    data: dict[str, object]
    started_at: float | None
    finished_at: float


#: Width of the left column after the line number (Jellyfish's layout); a longer action
#: (at most `33: 24/21* 21/18* 18/15* 15/12*`, 31 characters) gets two spaces after it.
LEFT_WIDTH = 31
#: The `Game K` score line puts the right player's name at this column, like Jellyfish.
SCORE_RIGHT_COLUMN = 34


# --- writing -----------------------------------------------------------------------------


def _dice_text(dice: tuple[int, int]) -> str:
    high, low = max(dice), min(dice)  # Jellyfish writes the higher die first
    return f"{high}{low}:"


def _play_text(event: CheckersMoved) -> str:
    moves = " ".join(
        f"{m.from_point}/{m.to_point}{'*' if m.hit else ''}" for m in event.moves
    )
    return f"{_dice_text(event.dice)} {moves}"


def _points_text(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"


@attrs.define
class _Columns:
    """Lays actions out in numbered two-column lines, keeping their order."""

    lines: list[str] = attrs.field(factory=list)
    _number: int = 0
    _left: str | None = None
    _right: str | None = None

    def add(self, player: int, text: str) -> None:
        # The left action of a line precedes its right one: player 0 needs a fresh line
        # unless the current one is empty; player 1 needs one if his slot is taken.
        if player == 0:
            if self._left is not None or self._right is not None:
                self._flush()
            self._left = text
        else:
            if self._right is not None:
                self._flush()
            self._right = text

    def _flush(self) -> None:
        if self._left is None and self._right is None:
            return
        self._number += 1
        left, right = self._left or "", self._right or ""
        line = f"{self._number:3d}) {left}"
        if right:
            # At least two spaces even after the longest play: gnubg's fallback split
            # looks for a double space.
            line += " " * max(2, LEFT_WIDTH - len(left)) + right
        self.lines.append(line.rstrip())
        self._left = self._right = None

    def finish(self) -> list[str]:
        self._flush()
        return self.lines


def _game_lines(history: Sequence[Event], *, last_game_of_match: bool) -> list[str]:
    """The numbered lines of one game, ending with the winner's `Wins` once it is over."""
    columns = _Columns()
    pending: tuple[int, tuple[int, int]] | None = None  # rolled, not played yet

    def flush_roll() -> None:
        nonlocal pending
        if pending is not None:
            columns.add(pending[0], _dice_text(pending[1]))
            pending = None

    for event in history:
        match event:
            case OpeningRolled(die0=die0, die1=die1) if die0 != die1:
                pending = (0 if die0 > die1 else 1, (die0, die1))
            case DiceRolled(player=player, dice=dice):
                pending = (player, dice)
            case CheckersMoved():
                pending = None
                columns.add(event.player, _play_text(event))
            case TurnPassed(player=player, dice=dice):
                pending = None
                columns.add(player, _dice_text(dice))
            case CubeOffered(player=player, cube=cube):
                columns.add(player, f" Doubles => {cube}")
            case CubeTaken(player=player):
                columns.add(player, " Takes")
            case CubePassed(player=player):
                columns.add(player, " Drops")
            case Beavered(player=player, cube=cube):
                columns.add(player, f" Beavers => {cube}")
            case Raccooned(player=player, cube=cube):
                # The beaverer keeps the cube at once, but gnubg reads a raccoon as one
                # more double and wants to see it taken.
                columns.add(player, f" Raccoons => {cube}")
                columns.add(1 - player, " Takes")
            case GameWon(winner=winner, points=points):
                flush_roll()  # resigned after rolling: the roll stands alone
                suffix = " and the match" if last_game_of_match else ""
                columns.add(winner, f" Wins {_points_text(points)}{suffix}")
            case _:
                pass  # GameStarted, opening ties, auto-doubles, rejected resignations
    flush_roll()
    return columns.finish()


def _played(game: Game) -> bool:
    """Whether a game got beyond its start (a session may end before the next roll)."""
    return any(not isinstance(e, GameStarted) for e in game.history)


def _header_value(text: str) -> str:
    # One line, and no quote that would end the value early.
    return " ".join(text.replace('"', "'").split())


def export_mat(
    *,
    players: tuple[str, str],
    match: Match,
    finished_at: float | None,
    site: str,
    match_id: int | None = None,
    dice_headers: Sequence[str] = (),
) -> str:
    """The match as a Jellyfish `.mat` file: player 0 is "Player 1" and the left column
    of every game. `finished_at` (epoch seconds, UTC) gives the event date.
    `dice_headers` are extra comment lines (the verifiable dice's commitment and seed)."""
    lines = [f'; [Site "{_header_value(site)}"]']
    if match_id is not None:
        lines.append(f'; [Match ID "{match_id}"]')
    lines += [
        f'; [Player 1 "{_header_value(players[0])}"]',
        f'; [Player 2 "{_header_value(players[1])}"]',
    ]
    if finished_at is not None:
        when = time.gmtime(finished_at)
        lines += [
            f'; [EventDate "{time.strftime("%Y.%m.%d", when)}"]',
            f'; [EventTime "{time.strftime("%H.%M", when)}"]',
        ]
    options = match.options
    lines += dice_headers
    lines.append('; [Variation "Backgammon"]')
    if options.length is not None:
        lines.append(f'; [Crawford "{"On" if options.crawford else "Off"}"]')
    else:
        lines.append(f'; [Jacoby "{"On" if options.jacoby else "Off"}"]')
        lines.append(f'; [Beaver "{"On" if options.beavers else "Off"}"]')
    lines += ["", f" {options.length or 0} point match", ""]

    games = [*match.finished_games]
    # The current game is the decisive one of a finished match, or the one a money
    # session stopped in (worth exporting once it got beyond its start).
    if match.over or _played(match.game):
        games.append(match.game)
    score = [0, 0]
    for number, game in enumerate(games, start=1):
        lines.append(f" Game {number}")
        left = f" {players[0]} : {score[0]}"
        lines.append(f"{left:<{SCORE_RIGHT_COLUMN - 1}} {players[1]} : {score[1]}")
        won = game.result
        last = match.over and game is games[-1]
        lines += _game_lines(game.history, last_game_of_match=last)
        lines.append("")
        if won is not None:
            score[won.winner] += won.points  # full points, as the match adds them
    return "\n".join(lines) + "\n"


def mat_lines(record: MatchRecord, site: str) -> list[str]:
    """The `.mat` text of a stored match as lines without line ends (the server's
    `export ID` sends them as plain lines). ValueError if the stored data is unreadable."""
    match = Match.from_dict(dict(record.data))
    dice = record.data.get("dice")
    headers: list[str] = []
    if isinstance(dice, dict) and isinstance(dice.get("commitment"), str):
        seed = dice.get("seed")
        headers = dice_header_lines(dice["commitment"], seed if isinstance(seed, str) else None)
        if dice.get("coin") in (0, 1):
            headers.append(f'; [DiceCoin "{dice["coin"]}"]')
    text = export_mat(
        players=record.players, match=match, finished_at=record.finished_at, site=site,
        match_id=record.id, dice_headers=headers,
    )
    return text.splitlines()


def record_summary(record: MatchRecord) -> str:
    """One line about a stored match, as `list-matches` and the server's `export` list
    them: id, date and time (UTC), the players (inviter first), the length (`N point`
    or `unlimited`) and the final score in the players' order."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(record.finished_at))
    length = "unlimited" if record.length is None else f"{record.length} point"
    players = f"{record.players[0]} - {record.players[1]}"
    return f"{record.id:>5d}  {when}  {players:<43}  {length:<9}  {record.score[0]}-{record.score[1]}"


# --- reading -------------------------------------------------------------------------------


class MatFormatError(ValueError):
    """The text is not a `.mat` file this reader understands; says which line."""


@attrs.frozen
class MatAction:
    """One action of a `.mat` game, in file order.

    `verb` is "roll" (with `dice` and `moves`, each move a (from, to) pair in the
    mover's numbering), "double", "beaver", "raccoon" (with `value` = the new cube),
    "take", "drop" or "win" (with `value` = the points written)."""

    player: int
    verb: str
    dice: tuple[int, int] | None = None
    moves: tuple[tuple[int, int], ...] = ()
    value: int | None = None


@attrs.frozen
class MatGame:
    number: int
    names: tuple[str, str]
    score: tuple[int, int]  # before the game
    actions: tuple[MatAction, ...]


@attrs.frozen
class MatFile:
    length: int  # 0 = money session
    header: dict[str, str]
    games: tuple[MatGame, ...]


_HEADER = re.compile(r'^;\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+[Pp]oint\s+[Mm]atch\s*$")
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
_SCORE = re.compile(r"^\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)\s*$")
_ROLL = re.compile(r"^([1-6])([1-6]):(.*)$")
_MOVE = re.compile(r"^(\d+|bar)/(\d+|off)(\*?)$", re.IGNORECASE)
_CUBE = re.compile(r"^(Doubles|Beavers|Raccoons)\s*=>\s*(\d+)$", re.IGNORECASE)
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)


def _split_columns(line: str) -> tuple[str, str]:
    """Split a move line into its two columns exactly as gnubg's ImportGame does."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        return line[: second - 3], line[second - 2 :]
    if len(line) > 15 and (gap := line.find("  ", 15)) >= 0:
        return line[:gap], line[gap + 1 :]
    return line, ""


def _point(text: str) -> int:
    lowered = text.lower()
    return 25 if lowered == "bar" else 0 if lowered == "off" else int(text)


def _action(text: str, player: int, where: int) -> MatAction | None:
    text = text.strip()
    if not text:
        return None
    if roll := _ROLL.match(text):
        moves = []
        for token in roll.group(3).split():
            move = _MOVE.match(token)
            if move is None:
                raise MatFormatError(f"line {where}: not a move: {token!r}")
            moves.append((_point(move.group(1)), _point(move.group(2))))
        dice = (int(roll.group(1)), int(roll.group(2)))
        return MatAction(player, "roll", dice=dice, moves=tuple(moves))
    if cube := _CUBE.match(text):
        verb = {"doubles": "double", "beavers": "beaver", "raccoons": "raccoon"}
        return MatAction(player, verb[cube.group(1).lower()], value=int(cube.group(2)))
    if text.lower() in ("takes", "drops"):
        return MatAction(player, text.lower()[:-1])
    if wins := _WINS.match(text):
        return MatAction(player, "win", value=int(wins.group(1)))
    raise MatFormatError(f"line {where}: not a .mat action: {text!r}")


def parse_mat(text: str) -> MatFile:
    """Read a `.mat` file as written by `export_mat` (plays written move by move)."""
    header: dict[str, str] = {}
    length: int | None = None
    games: list[MatGame] = []
    current: tuple[int, tuple[str, str], tuple[int, int]] | None = None
    actions: list[MatAction] = []
    expect_score: int | None = None  # the game number whose score line comes next

    def close() -> None:
        if current is not None:
            games.append(MatGame(current[0], current[1], current[2], tuple(actions)))

    for where, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.startswith((";", "#")):
            if length is None and (entry := _HEADER.match(line)):
                header[entry.group("key")] = entry.group("value")
            continue
        if length is None:
            if found := _LENGTH.match(line):
                length = int(found.group(1))
                continue
            raise MatFormatError(f"line {where}: expected 'N point match': {line!r}")
        if game := _GAME.match(line):
            close()
            current, actions = None, []
            expect_score = int(game.group(1))
            continue
        if expect_score is not None:
            score = _SCORE.match(line)
            if score is None:
                raise MatFormatError(f"line {where}: expected the score line: {line!r}")
            names = (score.group(1), score.group(3))
            current = (expect_score, names, (int(score.group(2)), int(score.group(4))))
            expect_score = None
            continue
        if current is None:
            raise MatFormatError(f"line {where}: a move outside a game: {line!r}")
        left, right = _split_columns(line)
        if ")" in left:
            left = left[left.index(")") + 1 :]
        for player, column in ((0, left), (1, right)):
            action = _action(column, player, where)
            if action is not None:
                actions.append(action)
    close()
    if length is None:
        raise MatFormatError("no 'N point match' line")
    return MatFile(length=length, header=header, games=tuple(games))


def mat_text(lines: Iterable[str]) -> str:
    """Join lines received from the server's `export` back into a file's text."""
    return "".join(f"{line}\n" for line in lines)


__all__ = [
    "MatAction",
    "MatFile",
    "MatFormatError",
    "MatGame",
    "export_mat",
    "mat_lines",
    "mat_text",
    "parse_mat",
    "record_summary",
]
