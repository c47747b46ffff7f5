"""The bot's line handling against a scripted server: lines in, commands out (no sockets)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from fibsd.app.play.notation import own_point
from fibsd.rules import Play, legal_plays
from fibsd.tools.bots.moves import position_of
from fibsd.tools.bots.player import BotConfig, BotPlayer
from fibsd.tools.bots.strategy import RandomStrategy
from protocol.board import BoardLine, Colour
from protocol.commands import Move, parse_command
from protocol.messages import OwnInfo, TextLine, WhoInfo
from protocol.wording import Text

OPENING_O = BoardLine.decode(  # the bot is O and rolled 6-2 (§4.3)
    "board:You:alice:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)
OPENING_X = attrs.evolve(OPENING_O, colour=Colour.X, turn=Colour.X)


class Scripted:
    """A strategy with fixed answers; plays the first legal play with the wanted moves."""

    def __init__(self, *, double: bool = False, take: bool = True, accept: bool = True,
                 wanted: list[tuple[int, int]] | None = None) -> None:
        self.double, self.take, self.accept, self.wanted = double, take, accept, wanted
        self.resign_points: list[int] = []

    async def choose_play(self, board: BoardLine, plays: Sequence[Play]) -> Play:
        for play in plays:
            if self.wanted is None or [(m.from_point, m.to_point) for m in play.moves] == self.wanted:
                return play
        raise AssertionError(f"no play {self.wanted}")

    async def should_double(self, board: BoardLine) -> bool:
        return self.double

    async def should_accept_double(self, board: BoardLine) -> bool:
        return self.take

    async def should_accept_resignation(self, board: BoardLine, points: int) -> bool:
        self.resign_points.append(points)
        return self.accept


def line(text: Text, **fields: object) -> str:
    return TextLine.of(text, **fields).line


def own_info(*, ready: bool, moreboards: bool) -> str:
    return OwnInfo(
        name="bot", allowpip=True, autoboard=True, autodouble=False, automove=False,
        away=False, bell=False, crawford=True, double=True, experience=0, greedy=False,
        moreboards=moreboards, moves=False, notify=True, rating=1500.0, ratings=False,
        ready=ready, redoubles=0, report=False, silent=False, timezone="UTC",
    ).clip_line()


def who(name: str, *, ready: bool = True, opponent: str | None = None) -> str:
    return WhoInfo(name=name, opponent=opponent, watching=None, ready=ready, away=False,
                   rating=1500.0, experience=0, idle_seconds=0, login_time=1700000000,
                   hostname="localhost", client=None, email=None).clip_line()


async def feed(player: BotPlayer, *lines: str) -> list[str]:
    out: list[str] = []
    for text in lines:
        out += await player.handle_line(text)
    return out


def bot(strategy: object = None, **config: object) -> BotPlayer:
    return BotPlayer(BotConfig("bot", "secret", **config),  # type: ignore[arg-type]
                     strategy or RandomStrategy(seed=0))  # type: ignore[arg-type]


async def logged_in(player: BotPlayer, *who_lines: str) -> list[str]:
    return await feed(player, "1 bot 1700000000 localhost", own_info(ready=True, moreboards=True),
                      *who_lines, "6", line(Text.SET_VALUE_SET_TO, variable="boardstyle", value=3))


async def test_after_the_first_who_list_the_bot_sets_itself_up() -> None:
    player = bot()
    out = await feed(player, "1 bot 1700000000 localhost", own_info(ready=False, moreboards=False),
                     who("bot"), "6")
    assert out == ["toggle ready", "toggle moreboards", "show saved", "set boardstyle 3"]
    assert await feed(player, who("alice"), "6") == []  # later who lists change nothing


async def test_invitations_are_accepted_from_allowed_users_only() -> None:
    player = bot(accept_from=frozenset({"alice"}))
    await logged_in(player)
    assert await feed(player, line(Text.WANTS_TO_PLAY_MATCH, name="mallory", length=3),
                      line(Text.TYPE_JOIN_TO_ACCEPT, name="mallory")) == []
    assert await feed(player, line(Text.WANTS_TO_RESUME, name="alice"),
                      line(Text.TYPE_JOIN_TO_ACCEPT, name="alice")) == ["join alice"]
    await feed(player, line(Text.RESUMED_MATCH_LOADED, name="alice"))
    assert player.opponent == "alice"
    # while playing, nobody else is joined
    assert await feed(player, line(Text.TYPE_JOIN_TO_ACCEPT, name="alice")) == []


async def test_the_inviter_resumes_a_saved_match_and_starts_a_new_one_otherwise() -> None:
    player = bot(invite="alice", invite_length=5)
    saved_row = line(Text.SAVED_ROW_READY, name="alice", length=5, score=1, opponent_score=2)
    out = await feed(player, "1 bot 1700000000 localhost", own_info(ready=True, moreboards=True),
                     who("alice", ready=False), "6", line(Text.SAVED_HEADER), saved_row,
                     line(Text.SET_VALUE_SET_TO, variable="boardstyle", value=3))
    assert out == ["show saved", "set boardstyle 3"]  # alice is not ready yet
    assert await feed(player, who("alice")) == ["invite alice"]
    assert await feed(player, who("alice")) == []  # one invitation at a time
    # the server lost the saved match: invite with a length
    assert await feed(player, line(Text.NO_SAVED_MATCH_GIVE_LENGTH, name="alice")) == ["invite alice 5"]


async def test_a_move_is_made_on_the_board_showing_the_bots_dice_and_only_once() -> None:
    strategy = Scripted(wanted=[(24, 18), (13, 11)])
    player = bot(strategy)
    await logged_in(player)
    # "It's your turn to move." comes before the opening board: ask for it, then move
    assert await feed(player, line(Text.YOUR_TURN_TO_MOVE)) == ["board"]
    assert await feed(player, OPENING_O.encode()) == ["move 24-18 13-11"]
    assert await feed(player, OPENING_O.encode()) == []  # the answer to `board`: no second play


async def test_the_x_player_moves_in_fibs_absolute_numbers() -> None:
    player = bot(Scripted(wanted=[(24, 18), (13, 11)]))
    await logged_in(player)
    assert await feed(player, OPENING_X.encode(), line(Text.PLEASE_MOVE, n=2)) == ["move 1-7 12-14"]


async def test_random_plays_are_legal() -> None:
    for seed in range(20):
        player = bot(RandomStrategy(seed=seed))
        await logged_in(player)
        asked, sent = await feed(player, line(Text.PLEASE_MOVE, n=2), OPENING_X.encode())
        assert asked == "board"
        command = parse_command(sent)
        assert isinstance(command, Move)
        # X's own point p is FIBS absolute 25 - p
        own = [(own_point(a, is_o=False), own_point(b, is_o=False)) for a, b in command.moves]
        legal = legal_plays(position_of(OPENING_X), (6, 2))
        assert own in [[(m.from_point, m.to_point) for m in play.moves] for play in legal]


async def test_a_refused_play_is_retried_on_a_fresh_board() -> None:
    player = bot(Scripted())
    await logged_in(player)
    assert (await feed(player, OPENING_O.encode(), line(Text.PLEASE_MOVE, n=2)))[0].startswith("move ")
    assert await feed(player, line(Text.CANT_MOVE_TO, point=18, ordinal="first")) == ["board"]
    assert (await feed(player, OPENING_O.encode()))[0].startswith("move ")
    assert player.refusals == [Text.CANT_MOVE_TO]


async def test_roll_or_double_asks_the_strategy_only_when_the_cube_is_available() -> None:
    before_roll = attrs.evolve(OPENING_O, player_dice=(0, 0))
    player = bot(Scripted(double=True))
    await logged_in(player)
    assert await feed(player, before_roll.encode(), line(Text.YOUR_TURN_ROLL_OR_DOUBLE)) == ["double"]
    assert await feed(player, line(Text.CRAWFORD_NO_DOUBLE)) == ["roll"]
    owned_by_opponent = attrs.evolve(before_roll, player_may_double=False, cube=2)
    assert await feed(player, owned_by_opponent.encode(), line(Text.YOUR_TURN_ROLL_OR_DOUBLE)) == ["roll"]


async def test_doubles_and_resignations_are_answered_by_the_strategy() -> None:
    taker = bot(Scripted(take=True, accept=False))
    await logged_in(taker)
    await feed(taker, OPENING_O.encode())
    assert await feed(taker, line(Text.DOUBLES_ACCEPT_OR_REJECT, name="alice")) == ["accept"]
    assert await feed(taker, line(Text.WANTS_TO_RESIGN_YOU_WIN, name="alice", points="2 points")) == ["reject"]
    assert taker.strategy.resign_points == [2]  # type: ignore[attr-defined]
    passer = bot(Scripted(take=False, accept=True))
    await logged_in(passer)
    await feed(passer, OPENING_O.encode())
    assert await feed(passer, line(Text.DOUBLES_ACCEPT_OR_REJECT, name="alice")) == ["reject"]
    assert await feed(passer, line(Text.WANTS_TO_RESIGN_YOU_WIN, name="alice", points="1 point")) == ["accept"]


async def test_next_game_is_joined_and_the_match_end_is_recorded() -> None:
    player = bot(matches=1)
    await logged_in(player)
    await feed(player, line(Text.NOW_PLAYING_MATCH, length=3, name="alice"))
    assert await feed(player, line(Text.TYPE_JOIN_NEXT_GAME)) == ["join"]
    await feed(player, line(Text.YOU_WIN_MATCH, length=3, score=3, opponent_score=1))
    assert [(r.opponent, r.won, r.score, r.opponent_score) for r in player.results] == [("alice", True, 3, 1)]
    assert player.finished and player.opponent is None


async def test_an_opponent_who_drops_leaves_a_saved_match_to_resume() -> None:
    player = bot(invite="alice")
    await logged_in(player, who("alice", opponent="bot"))
    await feed(player, line(Text.JOINED_YOU_MATCH, name="alice", length=3))
    await feed(player, line(Text.DROPS_CONNECTION_GAME_SAVED, name="alice"))
    assert player.opponent is None and "alice" in player.saved_with
    assert await feed(player, who("alice")) == ["invite alice"]
    # after a resume the bot looks at the board and carries on with its own turn
    assert await feed(player, line(Text.JOINED_MATCH_LOADED, name="alice")) == ["board"]
    assert (await feed(player, OPENING_O.encode()))[0].startswith("move ")


async def test_a_play_refused_because_the_opponent_just_dropped_is_made_again_after_the_resume() -> None:
    """The race seen in the reconnect test: the bot moves as its opponent's connection
    breaks; the play is refused; after the resume the same board must be played on."""
    player = bot(invite="alice")
    await logged_in(player, who("alice", opponent="bot"))
    await feed(player, line(Text.JOINED_YOU_MATCH, name="alice", length=3))
    await feed(player, OPENING_O.encode())
    assert (await feed(player, line(Text.YOUR_TURN_TO_MOVE)))[0].startswith("move ")
    await feed(player, line(Text.OPPONENT_DISCONNECTED, name="alice"))
    await feed(player, line(Text.DROPS_CONNECTION_GAME_SAVED, name="alice"))
    assert await feed(player, line(Text.JOINED_MATCH_LOADED, name="alice")) == ["board"]
    assert (await feed(player, OPENING_O.encode()))[0].startswith("move ")


async def test_after_slow_down_the_bot_does_what_the_board_asks() -> None:
    player = bot(Scripted(take=False))
    await logged_in(player)
    await feed(player, line(Text.NOW_PLAYING_MATCH, length=3, name="alice"))
    # which command was dropped is unknown: ask for the board and act on it
    assert await feed(player, line(Text.SLOW_DOWN)) == ["board"]
    assert (await feed(player, OPENING_O.encode()))[0].startswith("move ")
    assert await feed(player, line(Text.SLOW_DOWN)) == ["board"]
    assert await feed(player, attrs.evolve(OPENING_O, player_dice=(0, 0)).encode()) == ["roll"]
    assert await feed(player, line(Text.SLOW_DOWN)) == ["board"]
    assert await feed(player, attrs.evolve(OPENING_O, turn=None).encode()) == ["join"]
    assert await feed(player, line(Text.SLOW_DOWN)) == ["board"]
    doubled = attrs.evolve(OPENING_O, turn=Colour.X, player_dice=(0, 0), was_doubled=True)
    assert await feed(player, doubled.encode()) == ["reject"]
