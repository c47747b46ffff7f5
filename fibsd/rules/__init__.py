"""The rules of backgammon, pure: positions, legal plays, games, the cube and matches.

No trio, no sockets, no protocol, no clock and no hidden randomness: dice come in from
outside. It imports nothing of `protocol` or the rest of `fibsd` (the import contracts in
setup.cfg); the chouette engine (`chouette/`), the time control arithmetic
(`timecontrol`) and tournament pairings (`tournament/`) live here too.

Modules: `position` (boards, BAR/OFF, FIBS numbering), `movegen` (legal plays),
`validate` (typed plays), `errors`, `events`, `scoring`, `cube`, `game`, `match`.
Everything the server needs is re-exported here.

Points are numbered from the mover's side (it moves 24 -> 1; `BAR` = 25, `OFF` = 0);
`to_absolute`/`from_absolute` convert to FIBS's board numbering. A typical turn:

    match = Match(MatchOptions(length=5))
    match.opening_roll(3, 1)             # player 0 rolled 3, player 1 rolled 1
    match.move(0, [(8, 5), (6, 5)])      # -> [CheckersMoved(...)]
    match.double(1); match.take(0)       # -> [CubeOffered(...)], [CubeTaken(...)]
    match.roll(1, (6, 6))                # -> [DiceRolled(...)] (+ TurnPassed if stuck)

A refused action raises a `RuleError` (`IllegalPlay` or `IllegalAction`, with a reason
enum) and changes nothing; `Match.to_dict()`/`Match.from_dict()` save and restore it all.
"""

from .cube import Cube, CubeRules, double_refusal
from .errors import ActionReason, IllegalAction, IllegalPlay, PlayReason, RuleError
from .events import (
    Beavered,
    CheckersMoved,
    CubeAutoDoubled,
    CubeOffered,
    CubePassed,
    CubeTaken,
    DiceRolled,
    Event,
    GameResult,
    GameStarted,
    GameWon,
    MatchWon,
    OpeningRolled,
    Raccooned,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    ScoreChanged,
    TurnPassed,
    WinKind,
    event_from_dict,
    event_to_dict,
)
from .game import TRANSITIONS, Action, Game, GamePhase
from .match import Match, MatchOptions
from .movegen import (
    Move,
    Play,
    forced_play,
    greedy_bearoff,
    has_legal_play,
    legal_plays,
    moves_required,
    single_moves,
)
from .position import (
    BAR,
    DIRECTION_O,
    DIRECTION_X,
    OFF,
    InvalidPosition,
    Position,
    Side,
    from_absolute,
    pip_count,
    to_absolute,
)
from .scoring import game_points, game_result
from .validate import validate_play

__all__ = [
    "BAR",
    "DIRECTION_O",
    "DIRECTION_X",
    "OFF",
    "TRANSITIONS",
    "Action",
    "ActionReason",
    "Beavered",
    "CheckersMoved",
    "Cube",
    "CubeAutoDoubled",
    "CubeOffered",
    "CubePassed",
    "CubeRules",
    "CubeTaken",
    "DiceRolled",
    "Event",
    "Game",
    "GamePhase",
    "GameResult",
    "GameStarted",
    "GameWon",
    "IllegalAction",
    "IllegalPlay",
    "InvalidPosition",
    "Match",
    "MatchOptions",
    "MatchWon",
    "Move",
    "OpeningRolled",
    "Play",
    "PlayReason",
    "Position",
    "Raccooned",
    "ResignationAccepted",
    "ResignationOffered",
    "ResignationRejected",
    "RuleError",
    "ScoreChanged",
    "Side",
    "TurnPassed",
    "WinKind",
    "double_refusal",
    "event_from_dict",
    "event_to_dict",
    "forced_play",
    "from_absolute",
    "game_points",
    "game_result",
    "greedy_bearoff",
    "has_legal_play",
    "legal_plays",
    "moves_required",
    "pip_count",
    "single_moves",
    "to_absolute",
    "validate_play",
]
