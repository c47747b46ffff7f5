"""A bot's reactions: one server event in, the command lines to send back out.

Owns what a bot remembers between lines (its latest board, who it plays, who is online,
which saved matches it has, what it was asked to do) and the FIBS match flow seen from a
player's side (§6 of the protocol reference): accept invitations, invite and resume,
join the next game, roll or double, move, answer doubles and resignations. Decisions go
to a `Strategy`. No sockets, no trio: `fibsd.tools.bots.client` feeds it lines and sends what it
returns, so tests can script a server with plain strings.

Board discipline: a move is computed only from a board where it is the bot's turn and
its dice are showing, because the prompt (`Please move 2 pieces.`, `It's your turn to
move.`) may arrive before or after that board; when the board at hand is not such a
board, the bot asks for one (`board`) and moves when it arrives.
"""

from __future__ import annotations

import enum
import logging

import attrs

from fibsd.rules import legal_plays
from fibsd.tools.bots.moves import play_line, position_of
from fibsd.tools.bots.strategy import Strategy
from protocol.board import BoardLine
from protocol.messages import (
    BoardMessage,
    LoginNotice,
    LogoutNotice,
    OwnInfo,
    ServerEvent,
    TextLine,
    WhoInfo,
    WhoInfoEnd,
    parse_server_line,
)
from protocol.wording import Text

__all__ = ["BotConfig", "BotPlayer", "MatchResult"]

log = logging.getLogger("fibsd.tools.bots")

# Any of these after `move ...` means the play was refused: fetch the board and try again.
_MOVE_REFUSALS = frozenset({
    Text.NOT_YOUR_TURN_TO_MOVE, Text.ROLL_BEFORE_MOVING, Text.MUST_GIVE_MOVES,
    Text.TOO_MANY_MOVES, Text.CANT_MOVE_FROM, Text.CANT_MOVE_DISTANCE, Text.CANT_MOVE_TO,
    Text.MUST_ENTER_FROM_BAR, Text.CANT_REMOVE_PIECE, Text.CANT_MOVE_HOME,
    Text.CANT_MOVE_POINT_HOME, Text.CANT_BEAR_OFF_ALL,
})
# An invitation that will not be answered: invite again when the who list changes.
_INVITE_REFUSALS = frozenset({
    Text.REFUSING_GAMES, Text.ALREADY_PLAYING_WITH_SOMEONE, Text.NOT_EXPERIENCED_ENOUGH,
    Text.NO_NEW_GAMES_ALLOWED, Text.NO_ONE_CALLED, Text.NO_ONE_CALLED_QUOTED,
    Text.NO_ONE_CALLED_APOSTROPHE, Text.INVITE_SELF, Text.YOU_ARE_ALREADY_PLAYING,
})
_MATCH_STARTS = frozenset({
    Text.NOW_PLAYING_MATCH, Text.NOW_PLAYING_UNLIMITED, Text.JOINED_YOU_MATCH,
    Text.JOINED_YOU_UNLIMITED,
})
_MATCH_RESUMES = frozenset({Text.RESUMED_MATCH_LOADED, Text.JOINED_MATCH_LOADED})
# The opponent went away and the server saved the match (§6.11).
_MATCH_SAVED_BY_OPPONENT = frozenset({
    Text.PLAYER_LEFT_GAME, Text.LOGS_OUT_GAME_SAVED, Text.DROPS_CONNECTION_GAME_SAVED,
    Text.TIMED_OUT_GAME_SAVED, Text.NETWORK_ERROR_GAME_SAVED,
    Text.CLOSED_OLD_CONNECTION_GAME_SAVED,
})
_SAVED_ROWS = frozenset({
    Text.SAVED_ROW, Text.SAVED_ROW_PLAYING, Text.SAVED_ROW_READY, Text.SAVED_ROW_UNLIMITED,
    Text.SAVED_ROW_UNLIMITED_PLAYING, Text.SAVED_ROW_UNLIMITED_READY,
})
_DOUBLE_OFFERS = frozenset({
    Text.DOUBLES_ACCEPT_OR_REJECT, Text.DOUBLES_ACCEPT_REJECT_OR_REDOUBLE, Text.REDOUBLES_TO,
    Text.REDOUBLES_TO_LAST,
})
# A refused `double`: roll instead (the Crawford game never prompts, but a resumed
# match or an out-of-date board may make the bot try).
_DOUBLE_REFUSALS = frozenset({Text.CRAWFORD_NO_DOUBLE, Text.NOT_YOUR_TURN_TO_DOUBLE})

MAX_MOVE_ATTEMPTS = 3  # per turn: a bot that keeps sending refused plays gives up the turn


class _Setup(enum.Enum):
    """Where the bot is in its after-login setup (one connection)."""

    LOGGING_IN = enum.auto()  # until the first who list ends
    SETTING_UP = enum.auto()  # commands sent; `set boardstyle 3` answered last
    READY = enum.auto()


@attrs.define
class BotConfig:
    """Everything a bot is told: its account, the server, whom it plays and how often.

    `BotPlayer` reads the playing part, `fibsd.tools.bots.client.BotClient` the rest.
    """

    name: str
    password: str = attrs.field(repr=False)
    host: str = "127.0.0.1"
    port: int = 4321
    ready: bool = True  # `toggle ready` to this state after login
    accept_from: frozenset[str] | None = None  # whose invitations to join; None: anyone
    invite: str | None = None  # invite this user whenever both are free
    invite_length: int = 3  # for a new match; a saved match is resumed instead
    #: Commands sent once after each login's settings, e.g. `tournament join club`
    #: (fibsd's tournaments start the matches themselves: the bot just plays them).
    after_login: tuple[str, ...] = ()
    matches: int | None = None  # finished matches after which the bot stops; None: never
    client_name: str = "fibsd_bot"  # shown in who-info; at most 20 characters, no spaces
    register: bool = True  # create the account through the guest dialogue if login fails
    connect_timeout_seconds: float = 10.0
    login_timeout_seconds: float = 20.0
    # After a dropped connection: this many attempts in a row, waiting base * 2**k seconds
    # (capped) before attempt k; a successful login starts the count again.
    reconnect_attempts: int = 8
    reconnect_delay_seconds: float = 0.25
    reconnect_max_delay_seconds: float = 10.0
    # The bot's own pace, below fibsd's default flood limit (20 commands/s, bursts of 60):
    # a command over the server's limit is refused and the bot would have to resync.
    commands_per_second: float = 15.0
    command_burst: int = 40


@attrs.frozen
class MatchResult:
    """A finished match as the bot saw it."""

    opponent: str
    won: bool
    length: int
    score: int  # the winner's score first, as FIBS words it
    opponent_score: int


def _count(phrase: str) -> int:
    """The number in a count phrase such as `2 points`."""
    return int(phrase.split()[0])


class BotPlayer:
    """The reacting part of a bot; `handle_line` returns the lines to send."""

    def __init__(self, settings: BotConfig, strategy: Strategy) -> None:
        self.settings = settings
        self.strategy = strategy
        self.results: list[MatchResult] = []
        self.saved_with: set[str] = set()  # opponents with a saved match (from `show saved`)
        self.refusals: list[Text] = []  # the server refused a play or a double of ours
        self.resumed = 0  # saved matches resumed
        self.connected()

    def connected(self) -> None:
        """Forget what belonged to the previous connection (a new login starts clean)."""
        self.board: BoardLine | None = None
        self.opponent: str | None = None  # whom the bot is playing now
        self.online: dict[str, WhoInfo] = {}
        self.own_info: OwnInfo | None = None
        self._setup = _Setup.LOGGING_IN
        self._invited = False  # an invitation of ours is outstanding
        self._move_wanted = False  # told to move; waiting for a board with our dice
        self._moved_on: BoardLine | None = None  # the board our last play was made on
        self._move_attempts = 0
        self._check_resumed = False  # look at the first board after a resume
        self._resync = False  # a command was refused for flooding: act on the next board

    @property
    def finished(self) -> bool:
        """Whether the bot has played all the matches it was asked to play."""
        wanted = self.settings.matches
        return wanted is not None and len(self.results) >= wanted

    async def handle_line(self, line: str) -> list[str]:
        return await self.handle(parse_server_line(line))

    async def handle(self, event: ServerEvent) -> list[str]:
        match event:
            case WhoInfoEnd() if self._setup is _Setup.LOGGING_IN:
                return self._after_login()
            case OwnInfo():
                self.own_info = event
            case WhoInfo():
                self.online[event.name] = event
                return self._maybe_invite()
            case LogoutNotice():
                self.online.pop(event.name, None)
            case LoginNotice():
                pass  # the who-info line that follows says whether the user is ready
            case BoardMessage(board=board) if board.player == "You":
                return await self._on_board(board)
            case TextLine():
                return await self._on_text(event.text, event.fields)
        return []

    # ------------------------------------------------------------- login and lobby

    def _after_login(self) -> list[str]:
        """Settings a CLIP client sends after the first who list (§2.2)."""
        self._setup = _Setup.SETTING_UP
        info = self.own_info
        out: list[str] = []
        if info is None or info.ready != self.settings.ready:
            out.append("toggle ready")
        if info is None or not info.autoboard:
            out.append("toggle autoboard")
        if info is None or not info.moreboards:
            out.append("toggle moreboards")
        # `set boardstyle 3` goes last: its answer tells that the `show saved` rows are in.
        self.saved_with.clear()
        out += list(self.settings.after_login)
        out += ["show saved", "set boardstyle 3"]
        return out

    def _maybe_invite(self) -> list[str]:
        target = self.settings.invite
        if (target is None or self._setup is not _Setup.READY or self.opponent is not None
                or self._invited or self.finished):
            return []
        who = self.online.get(target)
        if who is None or not who.ready or who.opponent is not None:
            return []
        self._invited = True
        if target in self.saved_with:
            return [f"invite {target}"]  # resume the saved match (§6.3)
        return [f"invite {target} {self.settings.invite_length}"]

    def _may_join(self, name: str) -> bool:
        allowed = self.settings.accept_from
        return (self.opponent is None and not self.finished
                and (allowed is None or name in allowed))

    # ------------------------------------------------------------- the match

    async def _on_text(self, text: Text, fields: dict[str, str]) -> list[str]:
        name = fields.get("name", "")
        if text is Text.SET_VALUE_SET_TO and fields.get("variable") == "boardstyle":
            if self._setup is _Setup.SETTING_UP:
                self._setup = _Setup.READY
                return self._maybe_invite()
        elif text in _SAVED_ROWS:
            self.saved_with.add(name.strip())
        elif text is Text.TYPE_JOIN_TO_ACCEPT:
            if self._may_join(name):
                return [f"join {name}"]
        elif text is Text.NO_SAVED_MATCH_GIVE_LENGTH:
            self.saved_with.discard(name)
            return [f"invite {name} {self.settings.invite_length}"]
        elif text in _INVITE_REFUSALS:
            self._invited = False
        elif text in _MATCH_STARTS or text in _MATCH_RESUMES:
            self.opponent = name
            self._invited = False
            self.saved_with.discard(name)
            if text in _MATCH_RESUMES:
                self.resumed += 1
                self._moved_on = None  # whatever was sent before the break is void
                # The turn goes on where it stopped: look at the board to see whether the
                # bot is in the middle of its own turn (§6.3).
                self._check_resumed = True
                return ["board"]
        elif text is Text.TYPE_JOIN_NEXT_GAME:
            return ["join"]
        elif text is Text.YOUR_TURN_ROLL_OR_DOUBLE:
            return await self._roll_or_double()
        elif text in (Text.PLEASE_MOVE, Text.YOUR_TURN_TO_MOVE):
            self._move_wanted = True
            self._move_attempts = 0
            return await self._move_or_ask()
        elif text in _MOVE_REFUSALS and self._moved_on is not None:
            log.warning("%s: play refused (%s)", self.settings.name, text.name)
            self.refusals.append(text)
            self._moved_on = None
            if self._move_attempts < MAX_MOVE_ATTEMPTS:
                self._move_wanted = True
                return ["board"]
        elif text is Text.SLOW_DOWN:
            # Some command of ours was dropped and we cannot tell which: look at the board
            # and do what it asks for (what any FIBS client over the limit has to do).
            log.warning("%s: the server says slow down", self.settings.name)
            self.refusals.append(text)
            self._resync = True
            return ["board"]
        elif text in _DOUBLE_REFUSALS:
            self.refusals.append(text)
            return ["roll"]
        elif text in _DOUBLE_OFFERS:
            take = self.board is not None and await self.strategy.should_accept_double(self.board)
            return ["accept" if take else "reject"]
        elif text is Text.WANTS_TO_RESIGN_YOU_WIN:
            board = self.board
            accept = board is not None and await self.strategy.should_accept_resignation(
                board, _count(fields["points"]))
            return ["accept" if accept else "reject"]
        elif text is Text.YOU_WIN_MATCH or (text is Text.WINS_MATCH and self.opponent == name):
            return self._match_over(text is Text.YOU_WIN_MATCH, fields)
        elif text in _MATCH_SAVED_BY_OPPONENT and name == self.opponent:
            self.saved_with.add(name)
            self._match_interrupted()
        elif text is Text.YOU_TERMINATED_GAME and self.opponent is not None:
            self.saved_with.add(self.opponent)
            self._match_interrupted()
        return []

    def _match_interrupted(self) -> None:
        self.opponent = None
        self._move_wanted = False
        self._check_resumed = False
        # A play sent as the opponent dropped was refused ("not connected"): after the
        # resume the same board must be played on again, not taken for one already played.
        self._moved_on = None

    def _match_over(self, won: bool, fields: dict[str, str]) -> list[str]:
        opponent = self.opponent or fields.get("name", "")
        self.results.append(MatchResult(
            opponent=opponent, won=won, length=int(fields["length"]),
            score=int(fields["score"]), opponent_score=int(fields["opponent_score"]),
        ))
        self._match_interrupted()
        self.saved_with.discard(opponent)
        return self._maybe_invite()  # the next match, if more are wanted

    async def _roll_or_double(self) -> list[str]:
        board = self.board
        # Offer the cube only on a board that shows this very moment: the bot's turn, no
        # dice rolled, the cube available to it; otherwise just roll.
        if (board is not None and board.turn is board.colour and board.player_dice == (0, 0)
                and board.player_may_double and await self.strategy.should_double(board)):
            return ["double"]
        return ["roll"]

    def _board_to_move_on(self) -> BoardLine | None:
        board = self.board
        if (board is None or board.turn is not board.colour or 0 in board.player_dice
                or board == self._moved_on):
            return None
        return board

    async def _move_or_ask(self) -> list[str]:
        if self._board_to_move_on() is None:
            return ["board"]
        return await self._move()

    async def _act_on(self, board: BoardLine) -> list[str]:
        """Whatever `board` says the bot must do now (after a command may have been lost)."""
        if self.opponent is None:
            return []
        if board.turn is None:
            return ["join"]  # between games; a second `join` is harmless
        if board.was_doubled:
            return ["accept" if await self.strategy.should_accept_double(board) else "reject"]
        if board.turn is board.colour:
            if 0 in board.player_dice:
                return ["roll"]
            self._moved_on = None
            self._move_wanted = True
            return await self._move()
        return []

    async def _move(self) -> list[str]:
        board = self._board_to_move_on()
        if not self._move_wanted or board is None:
            return []
        self._move_wanted = False
        plays = legal_plays(position_of(board), board.player_dice)
        if not plays[0].moves:
            return []  # the server says "You can't move." and passes the turn itself
        play = await self.strategy.choose_play(board, plays)
        self._moved_on = board
        self._move_attempts += 1
        return [play_line(play, board.colour)]

    async def _on_board(self, board: BoardLine) -> list[str]:
        self.board = board
        if board.turn is not board.colour or 0 in board.player_dice:
            self._moved_on = None  # that turn is over; a new one may look the same
        if self._resync:
            self._resync = False
            return await self._act_on(board)
        if self._check_resumed:
            self._check_resumed = False
            if board.was_doubled:
                take = await self.strategy.should_accept_double(board)
                return ["accept" if take else "reject"]
            if self._board_to_move_on() is not None:
                self._move_wanted = True
        return await self._move()
