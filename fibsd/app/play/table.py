"""A running match between two players: the FIBS match flow of §6, worded per recipient.

A `Table` owns one `fibsd.rules.Match`, the two seats (player 0 = the inviter, player 1 =
the invitee), colours (which seat is O; they swap every game), the between-games `join`
handshake, and the narration of every action to each recipient in its own words: the
player who acted, the opponent, the watchers of either player. It saves the complete state
after every completed action (`table_save`), which is also where its match clock starts
and stops (`match_clock`), so a crash or a dropped connection loses nothing.

The narration is data too: the match returns past-tense events, `narration` words each
for the three audiences, and the table delivers them between the boards and prompts of
its flow. Every action goes through `_apply` (narrate, then `_after_events`), whose last
step, `_to_act_now`, is the one point where the turn has settled.

A table knows nothing above it: it gets its clock, its dice and the server's roll counter
when it is made, sees the users at it through the small `Occupant` protocol (the sessions
of `fibsd.app.session` are occupants), and never calls the lobby. When a game (or the
clock) ends the match, it records the win in `match_won`; whoever acted on the table then
lets `fibsd.app.lobby.conclusion.conclude` finish the match (ratings, record, reports).
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any, Generic, Protocol, Self, TypeVar

from fibsd.app.outcome import Ending, Outcome, Recipient, TournamentTag
from fibsd.app.play import boards, match_clock, narration, table_save
from fibsd.app.play.history import oldmoves_lines, score_before
from fibsd.app.play.notation import bearoff_text, moves_text, own_point, play_error
from fibsd.domain.accounts import Account
from fibsd.domain.dice import DiceSource, SeededDice
from fibsd.infra.wallclock import Clock
from fibsd.rules import (
    CheckersMoved,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    Event,
    Game,
    GamePhase,
    GameResult,
    GameWon,
    IllegalPlay,
    Match,
    MatchWon,
    OpeningRolled,
    Play,
    Raccooned,
    ResignationOffered,
    ResignationRejected,
    WinKind,
    forced_play,
    greedy_bearoff,
    pip_count,
)
from fibsd.rules.timecontrol import MatchClock
from protocol.board import BoardLine
from protocol.commands import MovePoint
from protocol.messages import BoardMessage, TextLine
from protocol.wording import Text, count_phrase

#: How the game that won a match ended, as the match's ending.
_ENDINGS = {
    WinKind.BORNE_OFF: Ending.BORNE_OFF,
    WinKind.DOUBLE_PASSED: Ending.DOUBLE_PASSED,
    WinKind.RESIGNED: Ending.RESIGNED,
}

RollCounts = collections.Counter[tuple[int, int]]


class Occupant(Recipient, Protocol):
    """What a table reads from a user at it or watching it (a `Session` is one), who is
    also someone lines are delivered to."""

    @property
    def account(self) -> Account: ...
    @property
    def watched_by(self) -> AbstractSet[Self]: ...
    def reset_toggles_for_new_game(self, out: Outcome) -> None: ...


O = TypeVar("O", bound=Occupant)


def _wants_board(viewer: Occupant, after: str) -> bool:
    toggles = viewer.account.toggles
    return toggles.moreboards if after == "roll" else toggles.autoboard


def _points(points: int) -> str:
    return count_phrase(points, "point")


class Table(Generic[O]):
    """One match in progress (or between games) and who takes part in it."""

    def __init__(
        self,
        match: Match,
        names: tuple[str, str],
        *,
        clock: Clock,
        dice: DiceSource,
        roll_counts: RollCounts,
        first_o_seat: int,
        started_at: float,
        redoubles_field: int = 0,
        crawford_disabled: bool = False,
        awaiting_join: frozenset[int] = frozenset(),
        opening_done: bool = False,
        timer: MatchClock | None = None,
        tournament: TournamentTag | None = None,
    ) -> None:
        #: The wall clock (the server's: login times, the match clock's seconds).
        self.clock = clock
        #: The match clock (docs/clocks.md), None for a match without one, and what the
        #: table keeps for it: `fibsd.app.play.match_clock` owns both.
        self.timer = timer
        self.clock_keeping = match_clock.keeping_for(match, timer, awaiting_join, opening_done)
        #: The tournament pairing this match is for (saved with it; `MatchFinished`
        #: carries it back), None for any other match.
        self.tournament = tournament
        #: This match's dice (seeded and committed in production).
        self.dice = dice
        #: The server's count of every roll (`dicetest`), shared by all tables.
        self.roll_counts = roll_counts
        self.match = match
        self.names = names
        self.first_o_seat = first_o_seat
        self.started_at = started_at
        #: Board field 52: the instant redoubles allowed (unlimited matches).
        self.redoubles_field = redoubles_field
        #: Both players play without the Crawford rule (board field 50).
        self.crawford_disabled = crawford_disabled
        #: Seats that still have to `join` before the next game starts.
        self.awaiting_join: set[int] = set(awaiting_join)
        #: The opening roll of the current game has been decided.
        self.opening_done = opening_done
        self.seats: list[O | None] = [None, None]
        #: (seat, when) of a player who dropped and may still come back (saved with a
        #: clock, which runs through the drop even across a restart: docs/clocks.md).
        self.dropped: tuple[int, float] | None = None
        #: What the store holds of this match (`table_save.Saves`): later saves are patches.
        self.saves = table_save.Saves()
        #: Set when a game (or the clock) ended the match; `lobby.conclusion` finishes it.
        self.match_won: MatchWon | None = None
        #: How the game that won the match ended (set with `match_won`).
        self.match_won_how: Ending | None = None
        #: The seat the match waits for (`_to_act_now`), None between games and after.
        self.to_act: int | None = None

    # ----------------------------------------------------------------- seats

    @property
    def between_games(self) -> bool:
        return bool(self.awaiting_join)

    @property
    def o_seat(self) -> int:
        """The seat that plays O in this game: colours swap every game (§4.2)."""
        return self.first_o_seat if self.match.game_number % 2 == 1 else 1 - self.first_o_seat

    def is_o(self, seat: int) -> bool:
        return seat == self.o_seat

    def seat_of(self, occupant: object) -> int | None:
        for seat, seated in enumerate(self.seats):
            if seated is occupant:
                return seat
        return None

    def seat_of_name(self, name: str) -> int:
        """The seat of the player called `name` (any case; the other seat if neither)."""
        return 0 if self.names[0].lower() == name.lower() else 1

    def colour_letter(self, seat: int) -> str:
        return "O" if self.is_o(seat) else "X"

    def watchers(self, seat: int | None = None) -> list[O]:
        """Who watches either player (or the one in `seat`)."""
        found: list[O] = []
        for index, occupant in enumerate(self.seats):
            if occupant is not None and (seat is None or seat == index):
                found.extend(occupant.watched_by)
        return found

    def viewers(self) -> Iterator[O]:
        """The players at the table, then everyone watching either of them."""
        for _seat, player in self._players():
            yield player
        yield from self.watchers()

    def clock_labels(self, seat: int) -> tuple[str, str] | None:
        """The clocks beside the names on `seat`'s ASCII board (his, his opponent's)."""
        return match_clock.board_labels(self, seat, self.clock.now())

    def _players(self) -> Iterator[tuple[int, O]]:
        for seat, occupant in enumerate(self.seats):
            if occupant is not None:
                yield seat, occupant

    @property
    def length_phrase(self) -> str:
        return "unlimited" if self.match.length is None else str(self.match.length)

    # ------------------------------------------------------------- narration

    def say(self, out: Outcome, seat: int, own: TextLine | None, opponent: TextLine | None,
             watchers: TextLine | None) -> None:
        """One event in three wordings: to the actor, the actor's opponent, the watchers."""
        actor, other = self.seats[seat], self.seats[1 - seat]
        if own is not None and actor is not None:
            out.to(actor, own)
        if opponent is not None and other is not None:
            out.to(other, opponent)
        if watchers is not None:
            for watcher in self.watchers():
                out.to(watcher, watchers)

    def _boards(self, out: Outcome, *, after: str) -> None:
        """Boards after a roll (to those with `moreboards`) or a move/change (`autoboard`).
        Watchers follow their own toggles like players: FIBS's protocol sends watchers "the
        same sequence" (fibs-protocol.md §4.1; docs/compatibility.md)."""
        for seat, player in self._players():
            if after == "always" or _wants_board(player, after):
                out.to(player, boards.board_for(self, player, seat))
            # One line per viewpoint: every watcher of this seat sees the same board (and
            # the line keeps its encoding), so it is built and rendered once for them all.
            seen: BoardLine | None = None
            for watcher in player.watched_by:
                if after == "always" or _wants_board(watcher, after):
                    if self.seat_of(watcher) == seat:  # not a watcher's viewpoint
                        out.to(watcher, boards.board_for(self, watcher, seat))
                        continue
                    if seen is None:
                        seen = boards.board_line(self, seat, as_player=False)
                    out.to(watcher, boards.board_message(seen, watcher, playing=False,
                                                         clocks=self.clock_labels(seat)))

    def board(self, viewer: O, seat: int) -> BoardMessage:
        return boards.board_for(self, viewer, seat)

    # ------------------------------------------------------------ persistence

    def saved_state(self) -> dict[str, Any]:
        """Everything needed to resume this match exactly (`fibsd.app.play.table_save`)."""
        return table_save.saved_state(self)

    @classmethod
    def from_saved(cls, data: dict[str, Any], *, clock: Clock, dice: DiceSource,
                   roll_counts: RollCounts) -> Table[O]:
        """Rebuild a table from `saved_state`; ValueError if the data is not a saved match."""
        match, names, fields = table_save.restored_fields(data, clock.now())
        return cls(match, names, clock=clock, dice=dice, roll_counts=roll_counts, **fields)

    def persist(self, out: Outcome) -> None:
        """Commit the current state before anything about it is acknowledged; the match
        clock starts and stops here (`table_save.persist`)."""
        table_save.persist(self, out)

    # --------------------------------------------------------------- flow

    def start_game(self, out: Outcome) -> None:
        """`Starting a new game with ...`, the opening roll, the first move (§6.4)."""
        for seat, player in self._players():
            out.to(player, TextLine.of(Text.STARTING_NEW_GAME, name=self.names[1 - seat]))
        for seat, occupant in self._players():
            for watcher in occupant.watched_by:
                out.to(watcher, TextLine.of(Text.STARTING_NEW_GAME, name=self.names[1 - seat]))
        for _seat, player in self._players():
            player.reset_toggles_for_new_game(out)
        self._opening_roll(out)

    def _opening_roll(self, out: Outcome) -> None:
        """Each player rolls one die until they differ (an opening tie may turn the cube)."""
        while True:
            die0, die1 = self._die(), self._die()
            events = self.match.opening_roll(die0, die1)
            self.roll_counts[(die0, die1)] += 1
            if die0 != die1:
                self.opening_done = True
                break
            self._narrate(events, out, o_seat=self.o_seat)
        # The new game and its opening roll are saved before anyone sees them: after a
        # crash the match goes on from this roll instead of rolling the opening again.
        self._apply(events, out)

    def _begin_turn(self, out: Outcome) -> None:
        """The player on turn may double: prompt him; otherwise roll for him (§6.5)."""
        game = self.match.game
        if self.match.over or game.phase is not GamePhase.AWAITING_ROLL:
            return
        seat = game.turn
        assert seat is not None
        player = self.seats[seat]
        if player is None:
            return  # resumed later: the prompt comes with the resume
        if game.may_double(seat) and player.account.toggles.double:
            out.to(player, TextLine.of(Text.YOUR_TURN_ROLL_OR_DOUBLE))
            return
        self.roll(seat, out)

    def prompt_current(self, out: Outcome) -> None:
        """After a resume: tell the player on turn what is expected of him."""
        self._prompt_current(out)
        self._to_act_now(out)

    def _prompt_current(self, out: Outcome) -> None:
        game = self.match.game
        if self.between_games:
            for seat in self.awaiting_join:
                player = self.seats[seat]
                if player is not None:
                    out.to(player, TextLine.of(Text.TYPE_JOIN_NEXT_GAME))
            return
        if not self.opening_done:
            self._opening_roll(out)
            return
        actor = game.actor()
        if actor is None:
            return
        seat = actor
        player = self.seats[seat]
        if player is None:
            return
        match game.phase:
            case GamePhase.AWAITING_ROLL:
                self._begin_turn(out)
            case GamePhase.AWAITING_MOVE:
                out.to(player, TextLine.of(Text.PLEASE_MOVE, n=game.moves_required()))
            case GamePhase.DOUBLE_OFFERED:
                out.to(player, TextLine.of(Text.DOUBLES_ACCEPT_OR_REJECT, name=self.names[1 - seat]))
            case GamePhase.RESIGNATION_OFFERED:
                offer = game.resignation
                assert offer is not None
                out.to(player, TextLine.of(
                    Text.WANTS_TO_RESIGN_YOU_WIN, name=self.names[offer[0]],
                    points=_points(game.resignation_points(offer[1])),
                ))
            case _:
                pass

    def _die(self) -> int:
        return self.dice.die()

    @property
    def commitment(self) -> str | None:
        """The hash this match's dice are committed to (None for unverifiable dice)."""
        return self.dice.commitment if isinstance(self.dice, SeededDice) else None

    @property
    def seed_hex(self) -> str | None:
        """The dice seed: secret while the match runs, shown once it is over."""
        return self.dice.seed_hex if isinstance(self.dice, SeededDice) else None

    def announce_commitment(self, out: Outcome) -> None:
        commitment = self.commitment
        if commitment is None:
            return
        line = TextLine.of(Text.DICE_COMMITMENT, commitment=commitment)
        for _seat, player in self._players():
            out.to(player, line)

    def reveal_seed(self, out: Outcome) -> None:
        """The match ended or was abandoned: show the seed, so the dice can be checked."""
        if not isinstance(self.dice, SeededDice):
            return
        line = TextLine.of(Text.DICE_REVEALED, seed=self.dice.seed_hex)
        for _seat, player in self._players():
            out.to(player, line)

    def roll(self, seat: int, out: Outcome) -> None:
        """Roll for `seat` (by command or automatically) and go on (§6.5)."""
        dice = (self._die(), self._die())
        events = self.match.roll(seat, dice)
        self.roll_counts[dice] += 1
        self._apply(events, out)

    def _after_roll(self, seat: int, out: Outcome, *, opening: bool) -> None:
        """Automove a forced play, greedy bear-off, or ask for the move."""
        game = self.match.game
        player = self.seats[seat]
        if player is None or game.dice is None:
            return
        position = game.position_for(seat)
        toggles = player.account.toggles
        o_seat = self.o_seat  # (a play that wins a game starts the next, colours swapped)
        is_o = seat == o_seat
        if toggles.automove:
            play = forced_play(position, game.dice)
            if play is not None:
                out.to(player, TextLine.of(Text.ONLY_POSSIBLE_MOVE,
                                           moves=moves_text(play.moves, is_o=is_o)))
                self._apply(self.match.play(seat, play), out, o_seat=o_seat)
                return
        if toggles.greedy:
            play = greedy_bearoff(position, game.dice)
            if play is not None:
                line = TextLine.of(Text.BEARING_OFF, bearoff=bearoff_text(play.moves, is_o=is_o))
                self.say(out, seat, line, line, None)
                self._apply(self.match.play(seat, play), out, o_seat=o_seat)
                return
        if not opening:
            out.to(player, TextLine.of(Text.PLEASE_MOVE, n=game.moves_required()))

    def move(self, seat: int, moves: tuple[tuple[MovePoint, MovePoint], ...], out: Outcome) -> None:
        """A play typed by the player (absolute FIBS numbers)."""
        o_seat = self.o_seat  # (a play that wins a game starts the next, colours swapped)
        is_o = seat == o_seat
        own = [(own_point(a, is_o=is_o), own_point(b, is_o=is_o)) for a, b in moves]
        try:
            events = self.match.move(seat, own)
        except IllegalPlay as error:
            player = self.seats[seat]
            assert player is not None
            out.to(player, play_error(error, is_o=is_o))
            return
        self._apply(events, out, o_seat=o_seat)

    def play(self, seat: int, play: Play, out: Outcome) -> None:
        """A play the server chose for the player (`off`: bear off with every die)."""
        o_seat = self.o_seat
        self._apply(self.match.play(seat, play), out, o_seat=o_seat)

    # --------------------------------------------------------------- the cube

    def double(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.double(seat), out)

    def accept_double(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.take(seat), out)

    def reject_double(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.pass_double(seat), out)

    def beaver(self, seat: int, out: Outcome) -> None:
        """Money play: the doubled player takes and redoubles at once, keeping the cube."""
        self._apply(self.match.beaver(seat), out)

    def raccoon(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.raccoon(seat), out)

    # ----------------------------------------------------------- resignation

    def resign(self, seat: int, result: GameResult, out: Outcome) -> None:
        self._apply(self.match.resign(seat, result), out)

    def accept_resignation(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.accept_resignation(seat), out)

    def reject_resignation(self, seat: int, out: Outcome) -> None:
        self._apply(self.match.reject_resignation(seat), out)

    # ------------------------------------------------- events, and after them

    def _apply(self, events: list[Event], out: Outcome, *, o_seat: int | None = None) -> None:
        """What every action on the match goes through: narrate the events it returned,
        then `_after_events`. `o_seat`: who played O in the game of a play that won it
        (the match has started the next game meanwhile, with the colours swapped)."""
        self._narrate(events, out, o_seat=self.o_seat if o_seat is None else o_seat)
        self._after_events(events, out)

    def _narrate(self, events: list[Event], out: Outcome, *, o_seat: int) -> None:
        """Each event in its three wordings (`narration`), with the boards that follow it."""
        game_over = any(isinstance(event, GameWon) for event in events)
        for event in events:
            said = narration.said(event, self.names, o_seat=o_seat)
            if said is not None:
                self.say(out, said.seat, said.own, said.opponent, said.watchers)
            after = narration.boards_after(event)
            if after is not None and not (game_over and isinstance(event, CheckersMoved)):
                # FIBS sends no board after a game's last move: the result line follows
                # (a board would carry the new score already, and Gibbon adds the points
                # of the result line to it once more; docs/compatibility.md, issue 20 §5).
                self._boards(out, after=after)

    def _after_events(self, events: list[Event], out: Outcome) -> None:
        """The one point after every action on the match: the game is over, or the state
        is saved and the flow goes on from the last event (the server's automatic rolls
        and plays, the prompts), and then whoever is to act now is settled
        (`_to_act_now`), however many turns the flow moved on meanwhile."""
        won = next((event for event in events if isinstance(event, GameWon)), None)
        if won is not None:
            self._game_over(events, out)
        else:
            self.persist(out)
            self._go_on(events[-1], out)
        self._to_act_now(out)

    def _go_on(self, last: Event, out: Outcome) -> None:
        """The flow after an action that did not end the game, by what it did last."""
        match last:
            case OpeningRolled():
                first = self.match.game.turn
                assert first is not None
                self.say(out, first, TextLine.of(Text.YOUR_TURN_TO_MOVE),
                         TextLine.of(Text.MAKES_FIRST_MOVE, name=self.names[first]),
                         TextLine.of(Text.MAKES_FIRST_MOVE, name=self.names[first]))
                self._boards(out, after="always")
                self._after_roll(first, out, opening=True)
            case DiceRolled(player=seat):
                self._after_roll(seat, out, opening=False)
            case CubeOffered(player=seat):
                doubled = self.seats[1 - seat]
                if doubled is not None and doubled.account.toggles.autoboard:
                    out.to(doubled, self.board(doubled, 1 - seat))
            case CubeTaken(player=seat):
                self.roll(1 - seat, out)  # the doubler rolls at once
            case Raccooned(player=seat):
                self.roll(seat, out)
            case ResignationOffered():
                pass
            case ResignationRejected():
                if self.match.game.phase is GamePhase.AWAITING_ROLL:
                    self._begin_turn(out)
            case _:  # a play, a roll that could not be played, a beaver
                self._begin_turn(out)

    def _to_act_now(self, out: Outcome) -> None:
        """Called last after every action on the match (and after a resume): `to_act`
        becomes the seat the match waits for now (to roll or double, move, or answer a
        double or a resignation), None between games and once the match is over: it is
        reached once the turn has settled, whatever happened before."""
        game = self.match.game
        self.to_act = None if self.match.over or self.between_games else game.actor()

    # ------------------------------------------------------- end of a game

    def _game_over(self, events: list[Event], out: Outcome) -> None:
        """A game is over (and was narrated): its moves to those who want them, then the
        match's end for the lobby, or the score and the `join` handshake (§6.8)."""
        won = next(event for event in events if isinstance(event, GameWon))
        for seat, player in self._players():
            if player.account.toggles.moves:
                out.lines(player, *self.moves_lines(self.last_game()))
        match_won = next((event for event in events if isinstance(event, MatchWon)), None)
        if match_won is not None:
            # The lobby concludes the match once the action that won it has returned
            # (`fibsd.app.lobby.conclusion.conclude`): a table never calls up.
            self.match_won = match_won
            self.match_won_how = _ENDINGS[won.how]
            return
        score = self.match.score
        for seat, player in self._players():
            out.to(player, self._score_line(seat, score))
        for seat, occupant in self._players():
            for watcher in occupant.watched_by:
                out.to(watcher, self._score_line(seat, score))
        self.awaiting_join = {0, 1}
        self.opening_done = False
        for _seat, player in self._players():
            out.to(player, TextLine.of(Text.TYPE_JOIN_NEXT_GAME))
        self.persist(out)

    def _score_line(self, seat: int, score: tuple[int, int]) -> TextLine:
        fields = dict(name=self.names[seat], score=score[seat], opponent=self.names[1 - seat],
                      opponent_score=score[1 - seat])
        if self.match.length is None:
            return TextLine.of(Text.SCORE_IN_UNLIMITED, **fields)
        return TextLine.of(Text.SCORE_IN_MATCH, length=self.match.length, **fields)

    def join_next_game(self, seat: int, out: Outcome) -> None:
        """`join` between games: wait for the other, or start the next game (§6.8)."""
        player = self.seats[seat]
        assert player is not None
        if not self.between_games:
            return  # a stray `join` right after the game started (CocoaFIBS sends two)
        self.awaiting_join.discard(seat)
        if self.awaiting_join:
            out.to(player, TextLine.of(Text.WAIT_FOR_JOIN, name=self.names[1 - seat]))
            return
        self.start_game(out)

    def last_game(self) -> Game:
        finished = self.match.finished_games
        if self.match.over or not finished:
            return self.match.game
        return finished[-1]

    # ------------------------------------------------------------- queries

    def pip_line(self, viewer: object) -> TextLine:
        seat = self.seat_of(viewer)
        game = self.match.game
        if seat is not None:
            return TextLine.of(Text.PIPCOUNTS, pips=pip_count(game.side(seat)),
                               opponent=self.names[1 - seat], opponent_pips=pip_count(game.side(1 - seat)))
        return TextLine.of(Text.PIPCOUNTS_WATCHING, name=self.names[0], pips=pip_count(game.side(0)),
                           opponent=self.names[1], opponent_pips=pip_count(game.side(1)))

    def moves_lines(self, game: Game) -> list[str]:
        """The `oldmoves` listing of `game` (§5.2)."""
        return oldmoves_lines(
            game, names=self.names, first_o_seat=self.first_o_seat,
            score_before=score_before(self.match, game), length=self.match.length,
        )
