"""A running match's save: what a table writes after every action, and how it comes back.

A table saves the complete state of its match after every completed action (`persist`),
so a crash or a dropped connection loses nothing. The first save of each game is a whole
copy; the others, within the game, are patches of a constant size: the small state of
table, match and game, and the events added to the game's history since the last save.
(Rewriting every game of the match after every roll and move made each save cost more
than the action.) Either is a value (`MatchCopy`, `MatchChange` of `fibsd.store.api`)
that the store interprets: where each part lives in a saved match is the store's
business. `saved_state` is the whole save as one value; `restored_fields` reads one back
for `Table.from_saved`.

The save is also the one point where a match clock starts and stops
(`fibsd.app.play.match_clock.sync`): every completed action passes through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fibsd.app.outcome import Outcome, TournamentTag
from fibsd.app.play import match_clock
from fibsd.domain.dice import SeededDice
from fibsd.rules import Game, Match
from fibsd.store.api import MatchChange, MatchCopy, MatchSave, save_running_match

if TYPE_CHECKING:
    from fibsd.app.play.table import Table

SAVED_FORMAT = 1


class Saves:
    """What the store holds of one table's match, so that later saves are patches."""

    def __init__(self) -> None:
        #: The whole copy's game and the number of games finished then; later saves of
        #: the same game are patches. None: nothing saved by this table yet.
        self.at_game: tuple[Game, int] | None = None
        #: How many events of that game's history the store has.
        self.history = 0
        #: The table's and the match's small states as the store has them: a patch
        #: carries each only when it changed (most actions change neither).
        self.table_state: dict[str, Any] | None = None
        self.match_state: dict[str, Any] | None = None


def table_state(table: Table[Any]) -> dict[str, Any]:
    """The table's own part of the save (the match's is `Match.to_dict`)."""
    return {
        "format": SAVED_FORMAT,
        "names": list(table.names),
        "first_o_seat": table.first_o_seat,
        "started_at": table.started_at,
        "redoubles_field": table.redoubles_field,
        "crawford_disabled": table.crawford_disabled,
        "awaiting_join": sorted(table.awaiting_join),
        "opening_done": table.opening_done,
        "dice": table.dice.to_dict() if isinstance(table.dice, SeededDice) else None,
        # (who dropped, and when: a clock that runs through a drop goes on after a
        # restart, `lobby.correspondence.load_running_clocks`)
        **({} if table.timer is None else {"clock": table.timer.to_dict(),
                                            "dropped": None if table.dropped is None else list(table.dropped)}),
        **({} if table.tournament is None else {"tournament": table.tournament.to_dict()}),
    }


def saved_state(table: Table[Any]) -> dict[str, Any]:
    """Everything needed to resume this match exactly (JSON-able), but the finished
    games no longer in memory (`Match.forget_finished`): they are in the store."""
    match = table.match
    return {**table_state(table), "match": match.to_dict(finished_from=match.forgotten_count)}


def restored_fields(data: dict[str, Any], now: float) -> tuple[Match, tuple[str, str], dict[str, Any]]:
    """A save read back: the match, the names, and the table's other fields (keyword
    arguments of `Table`); ValueError if the data is not a saved match."""
    try:
        if data.get("format") != SAVED_FORMAT:
            raise ValueError("unknown saved match format")
        names = data["names"]
        tag = data.get("tournament")
        fields = dict(
            first_o_seat=int(data["first_o_seat"]),
            started_at=float(data["started_at"]),
            redoubles_field=int(data["redoubles_field"]),
            crawford_disabled=bool(data["crawford_disabled"]),
            awaiting_join=frozenset(int(seat) for seat in data["awaiting_join"]),
            opening_done=bool(data["opening_done"]),
            timer=match_clock.restored(data.get("clock"), now),
            tournament=None if tag is None else TournamentTag.from_dict(tag),
        )
        return Match.from_dict(data["match"]), (str(names[0]), str(names[1])), fields
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"not a saved match: {error!r}") from error


def persist(table: Table[Any], out: Outcome) -> None:
    """Commit the table's current state before anything about it is acknowledged: a
    whole copy at a game's first save, a patch after that."""
    now = table.clock.now()
    match_clock.sync(table, now, out)  # the one point where a clock starts and stops
    saves = table.saves
    match = table.match
    game = match.game
    finished = match.finished_count
    saved = saves.at_game
    save: MatchSave
    if saved is None or saved[0] is not game or saved[1] != finished:
        # The finished games this table already saved are stored: not again.
        kept = 0 if saved is None else saved[1]
        state = {**table_state(table), "match": match.to_dict(finished_from=kept)}
        save = MatchCopy(table.names, state, now, finished_from=kept)
        match.forget_finished(keep=1)  # stored now; `last_game` needs the last one
        saves.table_state = table_state(table)
        saves.match_state = match.state_dict()
    else:
        changed_table: dict[str, Any] | None = table_state(table)
        if changed_table == saves.table_state:
            changed_table = None
        else:
            saves.table_state = changed_table
        changed_match: dict[str, Any] | None = match.state_dict()
        if changed_match == saves.match_state:
            changed_match = None
        else:
            saves.match_state = changed_match
        save = MatchChange(table.names, changed_table, changed_match, game.state_dict(),
                           game.history_dicts_since(saves.history), now)
    out.write(lambda store: save_running_match(store, save))
    saves.at_game = (game, finished)
    saves.history = game.history_length
