"""Watchers who lose their view when the player they watch drops, and get it back.

FIBS stops a watcher when the watched player's connection goes (`NAME drops
connection.. You're not watching anymore.`). fibsd remembers who watched a player who
dropped in the middle of a match (`remember`), and when that player sits down at the
resumed match (back within the grace period, or later by `join` or a tournament's
restart), puts back those of them who are still online and watching nobody else
(`put_back`): they get `You're now watching NAME.` and the board, as after `watch NAME`.
"""

from __future__ import annotations

from fibsd.app.outcome import Outcome
from fibsd.app.play import boards
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol.messages import TextLine
from protocol.wording import Text


def remember(registry: Registry, player: Session) -> None:
    """`player` dropped out of a match: keep who watched him (one entry per player,
    replaced by his next drop, removed when he sits down again)."""
    if player.watched_by:
        registry.former_watchers[player.key] = tuple(sorted(w.key for w in player.watched_by))


def put_back(registry: Registry, table: Table[Session], player: Session, seat: int, out: Outcome) -> None:
    """`player` sits down at his resumed match in `seat`: his former watchers who are
    online and free watch him again."""
    for key in registry.former_watchers.pop(player.key, ()):
        watcher = registry.get(key)
        if (watcher is None or watcher is player or watcher.watching is not None
                or watcher.table is not None or watcher.chouette is not None
                or watcher.key in player.blinded):
            continue
        watcher.watching = player
        player.watched_by.add(watcher)
        out.to(watcher, TextLine.of(Text.NOW_WATCHING, name=player.name))
        out.to(player, TextLine.of(Text.IS_WATCHING_YOU, name=watcher.name))
        out.to(watcher, boards.board_for(table, watcher, seat))
        registry.announce_status(watcher, out)
