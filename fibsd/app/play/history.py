"""The moves of a game as FIBS lists them (`oldmoves`, and after a game with `moves` on).

```
Score is 2-2 in a 3 point match.
someplayer is X - myself is O

O: (5 1) 13-8 24-23
X: doubles
O: accepts
X: (6 4) 21-off 21-off
O: wins
```
"""

from __future__ import annotations

from fibsd.app.play.notation import moves_text
from fibsd.rules import (
    Beavered,
    CheckersMoved,
    CubeOffered,
    CubePassed,
    CubeTaken,
    Game,
    GameStarted,
    GameWon,
    Match,
    Raccooned,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    TurnPassed,
)
from protocol.wording import Text, render


def game_number(game: Game) -> int:
    for event in game.history:
        if isinstance(event, GameStarted):
            return event.game_number
    return 1


def o_seat_of_game(first_o_seat: int, number: int) -> int:
    """Colours swap every game; game 1 has `first_o_seat` as O."""
    return first_o_seat if number % 2 == 1 else 1 - first_o_seat


def score_before(match: Match, game: Game) -> tuple[int, int]:
    """The match score when `game` started (each game's full points, as FIBS adds them)."""
    score = list(match.forgotten_score)  # the games before those still in memory
    for finished in match.finished_games:
        if finished is game:
            break
        won = finished.result
        if won is not None:
            score[won.winner] += won.points
    return score[0], score[1]


def oldmoves_lines(
    game: Game, *, names: tuple[str, str], first_o_seat: int, score_before: tuple[int, int],
    length: int | None,
) -> list[str]:
    o_seat = o_seat_of_game(first_o_seat, game_number(game))
    letter = ("O", "X") if o_seat == 0 else ("X", "O")
    if length is None:
        header = render(Text.OLDMOVES_SCORE_UNLIMITED, score=score_before[0], opponent_score=score_before[1])
    else:
        header = render(Text.OLDMOVES_SCORE, score=score_before[0], opponent_score=score_before[1], length=length)
    x_seat = 1 - o_seat
    lines = [header, render(Text.OLDMOVES_COLOURS, x_name=names[x_seat], o_name=names[o_seat]), ""]
    for event in game.history:
        match event:
            case CheckersMoved(player=player, dice=dice, moves=moves):
                lines.append(render(Text.OLDMOVES_PLAY, colour=letter[player], die1=dice[0], die2=dice[1],
                                    moves=moves_text(moves, is_o=player == o_seat)))
            case TurnPassed(player=player, dice=dice):
                lines.append(render(Text.OLDMOVES_CANT_MOVE, colour=letter[player], die1=dice[0], die2=dice[1]))
            case CubeOffered(player=player) | Beavered(player=player) | Raccooned(player=player):
                lines.append(render(Text.OLDMOVES_DOUBLES, colour=letter[player]))
            case CubeTaken(player=player) | ResignationAccepted(player=player):
                lines.append(render(Text.OLDMOVES_ACCEPTS, colour=letter[player]))
            case CubePassed(player=player) | ResignationRejected(player=player):
                lines.append(render(Text.OLDMOVES_REJECTS, colour=letter[player]))
            case ResignationOffered(player=player):
                lines.append(render(Text.OLDMOVES_WANTS_TO_RESIGN, colour=letter[player]))
            case GameWon(winner=winner):
                lines.append(render(Text.OLDMOVES_WINS, colour=letter[winner]))
            case _:
                pass
    return lines
