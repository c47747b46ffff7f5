"""A match that stops without ending, and what follows: interrupt, reseat, claim (§6.11).

A player leaves, logs out, drops, times out or is replaced by a new login: the match is
saved and the other told (`interrupt`), or, for a dropper while the grace period runs,
the table waits for him (dropper protection). A returning player is put straight back
(`reseat`); the opponent of a dropper who did not come back in time may `claim` the
match.
"""

from __future__ import annotations

import enum

from fibsd.app.lobby.conclusion import conclude, finish_match
from fibsd.app.lobby.correspondence import leave_correspondence
from fibsd.app.lobby.seating import show_resumed
from fibsd.app.outcome import Ending, Outcome
from fibsd.app.play import boards, match_clock
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.rules import MatchWon
from protocol.messages import TextLine
from protocol.wording import Text


class Interruption(enum.Enum):
    """Why a match stops without ending (§6.11)."""

    LEFT = enum.auto()
    LOGGED_OUT = enum.auto()
    DROPPED = enum.auto()
    TIMED_OUT = enum.auto()
    REPLACED = enum.auto()
    SHUT_DOWN = enum.auto()


def interrupt(registry: Registry, session: Session, how: Interruption, out: Outcome) -> None:
    """`session` stops playing without ending the match: save it, tell the other (§6.11)."""
    table = session.table
    if table is None:
        return
    seat = table.seat_of(session)
    assert seat is not None
    if match_clock.is_correspondence(table) and how is not Interruption.SHUT_DOWN:
        leave_correspondence(registry, table, session, seat, left=how is Interruption.LEFT, out=out)
        return
    other = table.seats[1 - seat]
    name = session.name
    match how:
        case Interruption.LEFT:
            out.to(session, TextLine.of(Text.YOU_TERMINATED_GAME))
            opponent_line = TextLine.of(Text.PLAYER_LEFT_GAME, name=name)
        case Interruption.LOGGED_OUT | Interruption.SHUT_DOWN:
            if other is not None:
                out.to(session, TextLine.of(Text.YOUR_GAME_SAVED, name=other.name))
            opponent_line = TextLine.of(Text.LOGS_OUT_GAME_SAVED, name=name)
        case Interruption.DROPPED:
            opponent_line = TextLine.of(Text.DROPS_CONNECTION_GAME_SAVED, name=name)
        case Interruption.TIMED_OUT:
            opponent_line = TextLine.of(Text.TIMED_OUT_GAME_SAVED, name=name)
        case Interruption.REPLACED:
            opponent_line = TextLine.of(Text.CLOSED_OLD_CONNECTION_GAME_SAVED, name=name)
    if other is not None and how is not Interruption.SHUT_DOWN:
        out.to(other, opponent_line)
    grace = registry.config.reconnect_grace_seconds
    if how in (Interruption.DROPPED, Interruption.TIMED_OUT) and other is not None and grace > 0:
        # Dropper protection: the opponent keeps the table; the dropper may come back.
        _suspend(registry, table, seat, out)
        out.to(other, TextLine.of(Text.DROPPER_GRACE, name=name, seconds=int(grace)))
        return
    if table.dropped is not None:
        _count_unreturned_drop(registry, table, out)
    match_clock.pause(table, registry.clock.now())  # a saved match's clock waits (docs/clocks.md)
    table.persist(out)
    for player in (session, other):
        if player is not None:
            player.table = None
    table.seats = [None, None]
    for player in (session, other):
        if player is not None and registry.get(player.name) is player:
            registry.announce_status(player, out)


def _suspend(registry: Registry, table: Table[Session], seat: int, out: Outcome) -> None:
    dropper = table.seats[seat]
    assert dropper is not None
    dropper.table = None
    table.seats[seat] = None
    table.dropped = (seat, registry.clock.now())
    registry.suspended[dropper.key] = table
    match_clock.pause_for_drop(table, seat, registry.clock.now())
    table.persist(out)


def _count_unreturned_drop(registry: Registry, table: Table[Session], out: Outcome) -> None:
    """The grace period is over and the dropper is still away: it counts as a drop."""
    assert table.dropped is not None
    seat, dropped_at = table.dropped
    name = table.names[seat]
    registry.suspended.pop(name.lower(), None)
    table.dropped = None
    if registry.clock.now() - dropped_at >= registry.config.reconnect_grace_seconds:
        out.write(lambda store: store.record_drop(name))


def reseat(registry: Registry, table: Table[Session], session: Session, out: Outcome, *, takeover: bool) -> None:
    """Put `session` straight back into its running match: after a drop (within or after
    the grace period), or when a new login takes over a half-dead connection."""
    seat = table.seat_of_name(session.name)
    if table.dropped is not None and table.dropped[0] == seat:
        _count_unreturned_drop(registry, table, out)
    registry.suspended.pop(session.key, None)
    table.seats[seat] = session
    session.table = table
    match_clock.go_on(table)
    table.persist(out)  # (the save starts a waiting clock, and forgets the drop)
    other = table.seats[1 - seat]
    other_name = table.names[1 - seat]
    out.to(session, TextLine.of(Text.RESUMED_MATCH_LOADED, name=other_name))
    if other is not None and not takeover:
        out.to(other, TextLine.of(Text.JOINED_MATCH_LOADED, name=session.name))
    show_resumed(registry, table, session, seat, out)
    if other is not None and not takeover:
        out.to(other, boards.board_for(table, other, 1 - seat))
    table.prompt_current(out)
    conclude(registry, table, out)
    if session.table is table:  # (a match the automatic roll ended has announced it)
        registry.announce_status(session, out)


def claim(registry: Registry, session: Session, out: Outcome) -> None:
    """`claim`: the opponent dropped and did not come back in time: win the match."""
    table = session.table
    seat = None if table is None else table.seat_of(session)
    if table is None or seat is None or table.dropped is None or table.dropped[0] != 1 - seat:
        out.to(session, TextLine.of(Text.NOTHING_TO_CLAIM))
        return
    waited = registry.clock.now() - table.dropped[1]
    grace = registry.config.reconnect_grace_seconds
    if waited < grace:
        out.to(session, TextLine.of(Text.CLAIM_TOO_EARLY, seconds=max(1, int(grace - waited + 0.999))))
        return
    dropper = table.names[1 - seat]
    _count_unreturned_drop(registry, table, out)
    out.to(session, TextLine.of(Text.YOU_CLAIM, name=dropper))
    score = list(table.match.score)
    if table.match.length is not None:
        score[seat] = table.match.length  # the dropper forfeits the match
    finish_match(registry, table, MatchWon(seat, (score[0], score[1])), out, ending=Ending.CLAIMED)
