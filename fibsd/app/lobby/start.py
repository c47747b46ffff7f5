"""A match begins: a new one from an invitation (`start_match`) or a saved one (`resume_match`).

The options are agreed from both players' settings and the invitation (§6.2); a new
match replaces the pair's saved one and reveals its dice seed; a saved match seats its
players by the saved names, whoever invited this time (§6.3). A match a tournament
starts carries its tag (`fibsd.app.outcome.TournamentTag`) from the invitation to its
`MatchFinished`.
"""

from __future__ import annotations

from typing import Any

from fibsd.app import watchers
from fibsd.app.lobby.conclusion import conclude
from fibsd.app.lobby.seating import announce, pair_key, restore_table, seat_players
from fibsd.app.outcome import Outcome, TournamentTag
from fibsd.app.play import boards
from fibsd.app.play.table import Table
from fibsd.app.registry import Registry
from fibsd.app.session import Invitation, Session
from fibsd.domain.dice import SeededDice
from fibsd.rules import Match, MatchOptions
from fibsd.rules.timecontrol import MatchClock
from protocol.messages import TextLine
from protocol.wording import Text, resume_synopsis_lines

#: Automatic doubles on opening ties in unlimited matches, when both players want them.
AUTO_DOUBLES_MAX = 3


def _redoubles_limit(value: int | str) -> int:
    return 99 if value == "unlimited" else int(value)


def start_match(registry: Registry, inviter: Session, invitee: Session, invitation: Invitation,
                *, replaced: dict[str, Any] | None = None) -> Outcome:
    """A new match between `inviter` (player 0) and `invitee` (player 1) (§6.2).

    `replaced` is the pair's saved match, which the new one replaces (read by the caller,
    a cold read: `verbs.invitations.join`): its dice seed is revealed."""
    out = Outcome()
    a, b = inviter.account, invitee.account
    unlimited = invitation.unlimited
    redoubles = min(_redoubles_limit(a.variables.redoubles), _redoubles_limit(b.variables.redoubles))
    options = MatchOptions(
        length=None if unlimited else invitation.length,
        # Unless both said no, or the invitation (which the invitee joined) said so.
        crawford=(a.toggles.crawford or b.toggles.crawford) and not invitation.nocrawford,
        holland=invitation.holland and not unlimited,
        jacoby=unlimited and invitation.jacoby,
        beavers=unlimited and (redoubles > 0 or invitation.beavers),
        auto_doubles_max=AUTO_DOUBLES_MAX if unlimited and a.toggles.autodouble and b.toggles.autodouble else 0,
    )
    dice = registry.match_dice.new()
    table: Table[Session] = Table(
        Match(options), (inviter.name, invitee.name),
        clock=registry.clock, dice=dice, roll_counts=registry.roll_counts,
        first_o_seat=dice.coin(), started_at=registry.clock.now(),
        redoubles_field=redoubles if unlimited else 0,
        crawford_disabled=not options.crawford,
        timer=None if invitation.clock is None else MatchClock(invitation.clock),
        tournament=invitation.tournament,
    )
    first, second = inviter.name, invitee.name
    if table.timer is not None and table.timer.control.correspondence:
        registry.correspondence[pair_key(first, second)] = table
    _abandon_saved_match(inviter, invitee, replaced, out)
    saved = registry.reader.saved_match_info(first, second)
    if saved is not None:  # the pair's saved match is abandoned: it counts in `show record`
        abandoned_at = registry.clock.now()
        out.write(lambda store: store.record_abandoned_match((first, second), saved.length,
                                                             abandoned_at))
    out.write(lambda store: store.delete_saved_match(first, second))
    seat_players(registry, table, inviter, invitee, out)
    if unlimited:
        out.to(invitee, TextLine.of(Text.NOW_PLAYING_UNLIMITED, name=inviter.name))
        out.to(inviter, TextLine.of(Text.JOINED_YOU_UNLIMITED, name=invitee.name))
        report = TextLine.of(Text.START_UNLIMITED, name=inviter.name, opponent=invitee.name)
    else:
        length = invitation.length
        out.to(invitee, TextLine.of(Text.NOW_PLAYING_MATCH, length=length, name=inviter.name))
        out.to(inviter, TextLine.of(Text.JOINED_YOU_MATCH, name=invitee.name, length=length))
        report = TextLine.of(Text.START_MATCH, name=inviter.name, opponent=invitee.name, length=length)
    announce(registry, table, report, out)
    table.announce_commitment(out)
    table.start_game(out)
    conclude(registry, table, out)
    return out


def _abandon_saved_match(inviter: Session, invitee: Session, data: dict[str, Any] | None,
                         out: Outcome) -> None:
    """A new match replaces the pair's saved one (`data`): its dice seed is revealed now."""
    dice = None if data is None else data.get("dice")
    if not isinstance(dice, dict):
        return  # nothing saved, or scripted dice (tests), or a match from before seeds
    try:
        seed = SeededDice.from_dict(dice).seed_hex
    except (ValueError, KeyError, TypeError):
        return
    line = TextLine.of(Text.DICE_REVEALED, seed=seed)
    out.to(inviter, line)
    out.to(invitee, line)


def resume_match(registry: Registry, inviter: Session, invitee: Session, data: dict[str, Any],
                 *, tournament: TournamentTag | None = None) -> Outcome:
    """Resume the saved match of these two players (§6.3). `tournament`: the pairing a
    tournament resumes it for (the saved match carries the tag too, unless it was saved
    before matches carried one)."""
    out = Outcome()
    try:
        table = restore_table(registry, data)
    except ValueError:
        for player in (inviter, invitee):
            out.to(player, TextLine.of(Text.SAVED_MATCH_CORRUPT))
        inviter_name, invitee_name = inviter.name, invitee.name
        out.write(lambda store: store.delete_saved_match(inviter_name, invitee_name))
        return out
    # Seats follow the saved names, whoever invited this time.
    if table.names[0].lower() == inviter.name.lower():
        first, second = inviter, invitee
    else:
        first, second = invitee, inviter
    table.names = (first.name, second.name)
    if tournament is not None:
        table.tournament = tournament
    seat_players(registry, table, first, second, out)
    out.to(invitee, TextLine.of(Text.RESUMED_MATCH_LOADED, name=inviter.name))
    out.to(inviter, TextLine.of(Text.JOINED_MATCH_LOADED, name=invitee.name))
    if table.match.length is None:
        report = TextLine.of(Text.RESUMING_UNLIMITED, name=inviter.name, opponent=invitee.name)
    else:
        report = TextLine.of(Text.RESUMING_MATCH, name=inviter.name, opponent=invitee.name,
                             length=table.match.length)
    announce(registry, table, report, out)
    table.announce_commitment(out)
    match = table.match
    turn = match.game.turn
    synopsis = resume_synopsis_lines(
        turn=table.names[turn if turn is not None else 0],
        match_length=match.length,
        names_and_scores=[(table.names[0], match.score[0]), (table.names[1], match.score[1])],
    )
    for seat, player in enumerate((first, second)):
        out.lines(player, *synopsis)
        out.to(player, boards.board_for(table, player, seat))
        watchers.put_back(registry, table, player, seat, out)
    table.prompt_current(out)
    table.persist(out)
    conclude(registry, table, out)  # the automatic roll may have ended the match (§1.6)
    return out
