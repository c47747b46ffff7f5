"""Starting and leaving matches: invite, uninvite, join, leave (§5.2, §6.2, §6.3, §6.11).

Checks who may invite whom to what (FIBS's refusal sentences), keeps the invitation on
the inviter's session, and on `join` has the lobby start the match or resume the pair's
saved one (`fibsd.app.lobby.start`); `leave` saves a match through the lobby's
interruptions.
"""

from __future__ import annotations

from typing import Any

from fibsd.app import tournaments
from fibsd.app.lobby.conclusion import conclude
from fibsd.app.lobby.correspondence import correspondence_tables, enter_correspondence
from fibsd.app.lobby.house_bot_copies import busy_line, house_bot_of
from fibsd.app.lobby.interruptions import Interruption, interrupt
from fibsd.app.lobby.seating import pair_key
from fibsd.app.lobby.start import resume_match, start_match
from fibsd.app.outcome import Outcome
from fibsd.app.play import match_clock
from fibsd.app.registry import Registry
from fibsd.app.session import Invitation, Session
from fibsd.app.verbs import clocks
from protocol import commands as c
from protocol.messages import (
    TextLine,
)
from protocol.wording import Text

#: Players not on the ratings list (experience 50 or less) may not invite to longer matches.
MAX_LENGTH_FOR_NEWCOMERS = 9
RANKED_EXPERIENCE = 50


def invite(registry: Registry, session: Session, command: c.Invite, out: Outcome) -> None:
    if session.table is not None:
        out.to(session, TextLine.of(Text.YOU_ARE_ALREADY_PLAYING))
        return
    if session.chouette is not None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_WHILE_IN_CHOUETTE))
        return
    target = registry.find(command.name)
    if target is None:
        out.to(session, TextLine.of(Text.NO_ONE_CALLED, name=command.name))
        return
    if target is session:
        out.to(session, TextLine.of(Text.INVITE_SELF))
        return
    if pair_key(session.name, target.name) in registry.correspondence:
        out.to(session, TextLine.of(Text.CORRESPONDENCE_USE_IT, name=target.name, opponent=target.name))
        return
    if not session.account.toggles.ready:
        # Inviting always turns your own ready flag on (§5.2), silently but for the 5/6.
        session.set_toggle("ready", True, out)
        registry.announce_status(session, out)
    if target.table is not None or target.chouette is not None:
        out.to(session, TextLine.of(Text.ALREADY_PLAYING_WITH_SOMEONE, name=target.name))
        house = house_bot_of(registry, target)
        if house is not None:  # (an extension line: which copy of its strength is free)
            out.to(session, busy_line(registry, house, target))
        return
    if not target.account.toggles.ready:
        out.to(session, TextLine.of(Text.REFUSING_GAMES, name=target.name))
        return
    saved = registry.reader.saved_match_info(session.name, target.name)
    resume = command.length is None and not command.unlimited
    if resume and saved is None:
        out.to(session, TextLine.of(Text.NO_SAVED_MATCH_GIVE_LENGTH, name=target.name))
        return
    if (
        command.length is not None
        and command.length > MAX_LENGTH_FOR_NEWCOMERS
        and session.account.experience <= RANKED_EXPERIENCE
    ):
        out.to(session, TextLine.of(Text.NOT_EXPERIENCED_ENOUGH))
        return
    allowed, clock = clocks.invitation_clock(registry, session, command, out)
    if not allowed:
        return
    options = set(command.options)
    session.invitation = Invitation(
        invitee_key=target.key, length=command.length, unlimited=command.unlimited,
        holland="holland" in options, jacoby="jacoby" in options,
        nocrawford="nocrawford" in options, beavers="beavers" in options, clock=clock,
    )
    if resume:
        out.to(session, TextLine.of(Text.YOU_INVITED_RESUME, name=target.name))
        out.to(target, TextLine.of(Text.WANTS_TO_RESUME, name=session.name))
    elif command.unlimited:
        out.to(session, TextLine.of(Text.YOU_INVITED_UNLIMITED, name=target.name))
        out.to(target, TextLine.of(Text.WANTS_TO_PLAY_UNLIMITED, name=session.name))
    else:
        out.to(session, TextLine.of(Text.YOU_INVITED_MATCH, name=target.name, length=command.length))
        out.to(target, TextLine.of(Text.WANTS_TO_PLAY_MATCH, name=session.name, length=command.length))
    out.to(target, TextLine.of(Text.TYPE_JOIN_TO_ACCEPT, name=session.name))
    rules = _invitation_rules(command.options, unlimited=command.unlimited)
    if rules and not resume:
        out.to(target, TextLine.of(Text.INVITATION_RULES, text=rules))
    if clock is not None and not resume:
        # A plain line after FIBS's two (a client shows it as text; docs/clocks.md).
        terms = TextLine.of(Text.MATCH_CLOCK, text=match_clock.terms(clock))
        out.to(session, terms)
        out.to(target, terms)
    if not resume and saved is not None:
        length = saved.length
        if length is None:
            out.to(target, TextLine.of(Text.SAVED_UNLIMITED_WARNING))
        else:
            out.to(target, TextLine.of(Text.SAVED_MATCH_WARNING, length=length))
    if target.away_message is not None:
        out.lines(session, "")
        out.to(session, TextLine.of(Text.IS_AWAY, name=target.name, text=target.away_message))


def _invitation_rules(options: tuple[str, ...], *, unlimited: bool) -> str:
    """The option words that apply, in words (fibsd's extension line for the invitee)."""
    words = {"holland": "Holland rule", "nocrawford": "no Crawford rule"} if not unlimited \
        else {"jacoby": "Jacoby rule", "beavers": "beavers"}
    return ", ".join(words[o] for o in options if o in words)


def uninvite(registry: Registry, session: Session, out: Outcome) -> None:
    """`uninvite`: the outstanding invitation is withdrawn; the invitee is told."""
    invitation = session.invitation
    if invitation is None:
        out.to(session, TextLine.of(Text.NOTHING_TO_UNINVITE))
        return
    session.invitation = None
    target = registry.get(invitation.invitee_key)
    name = target.name if target is not None else invitation.invitee_key
    out.to(session, TextLine.of(Text.YOU_UNINVITE, name=name))
    if target is not None:
        out.to(target, TextLine.of(Text.UNINVITES_YOU, name=session.name))


def join(registry: Registry, session: Session, command: c.Join, out: Outcome) -> None:
    table = session.table
    if command.name is None:
        if table is not None and table.between_games:
            seat = table.seat_of(session)
            assert seat is not None
            table.join_next_game(seat, out)
            conclude(registry, table, out)
        elif table is None:
            out.to(session, TextLine.of(Text.JOIN_WHO))
        return  # a repeated `join` right after the game started is harmless
    if table is not None:
        if table.between_games and command.name.lower() == (session.opponent_name or "").lower():
            seat = table.seat_of(session)
            assert seat is not None
            table.join_next_game(seat, out)
            conclude(registry, table, out)
        elif not table.between_games and command.name.lower() == (session.opponent_name or "").lower():
            pass  # CocoaFIBS sends `Join` twice: ignore the second
        else:
            out.to(session, TextLine.of(Text.TWO_GAMES_AT_ONCE))
        return
    if any(t.names[1 - t.seat_of_name(session.name)].lower() == command.name.lower()
           for t in correspondence_tables(registry, session.name)):
        # FIBS's way back to a saved match (a FIBS client is reminded of a correspondence
        # match by a resume invitation: wording.EXTENSION_LINES).
        enter_correspondence(registry, session, command.name, out)
        return
    if tournaments.come_back(registry, session, command.name, out):
        return
    found = _invitation_to_join(registry, session, command.name, out)
    if found is None:
        return
    inviter, invitation = found
    if not invitation.resume and registry.reader.saved_match_info(inviter.name, session.name) is None:
        out.extend(start_match(registry, inviter, session, invitation))
        return
    # The saved match (to resume, or to reveal the dice of when a new match replaces
    # it) is a cold read: a job, and the join goes on when it is read.
    first, second = inviter.name, session.name
    out.run(registry.read(
        lambda store: store.saved_match(first, second),
        lambda saved: _join_with_saved(registry, session, first, invitation, saved),
        name="join: the saved match",
    ))


def _invitation_to_join(registry: Registry, session: Session, name: str,
                        out: Outcome) -> tuple[Session, Invitation] | None:
    """The inviter called `name` and their invitation of `session`, if `session` may join
    it now; else None, with the reason said."""
    if session.chouette is not None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_WHILE_IN_CHOUETTE))
        return None
    inviter = registry.find(name)
    if inviter is None:
        out.to(session, TextLine.of(Text.CANT_FIND_PLAYER, name=name))
        return None
    invitation = inviter.invitation
    if inviter is session or invitation is None or invitation.invitee_key != session.key:
        out.to(session, TextLine.of(Text.DIDNT_INVITE_YOU, name=inviter.name))
        return None
    if inviter.table is not None:
        out.to(session, TextLine.of(Text.JOIN_ALREADY_PLAYING, name=inviter.name))
        return None
    if not inviter.account.toggles.ready:
        out.to(session, TextLine.of(Text.REFUSING_GAMES, name=inviter.name))
        return None
    return inviter, invitation


def _join_with_saved(registry: Registry, session: Session, name: str, invitation: Invitation,
                     saved: dict[str, Any] | None) -> Outcome:
    """`join`, once the saved match is read: everything is checked again (the users may
    have moved on while it was read)."""
    out = Outcome()
    if registry.get(session.name) is not session or session.table is not None:
        return out  # gone, or already playing: the join is moot
    found = _invitation_to_join(registry, session, name, out)
    if found is None:
        return out
    inviter, current = found
    if current is not invitation:  # invited again meanwhile: that invitation's join
        return out
    if invitation.resume:
        if saved is None:
            out.to(session, TextLine.of(Text.NO_SAVED_MATCH_WITH_PLAYER, name=inviter.name))
            return out
        out.extend(resume_match(registry, inviter, session, saved))
    else:
        out.extend(start_match(registry, inviter, session, invitation, replaced=saved))
    return out


def leave(registry: Registry, session: Session, command: c.Leave | c.Panic, out: Outcome) -> None:
    table = session.table
    if table is None:
        out.to(session, TextLine.of(Text.NO_ONE_TO_LEAVE))
        return
    opponent = table.names[1 - table.seat_of_name(session.name)]
    interrupt(registry, session, Interruption.LEFT, out)
    if session.table is None:  # (a tournament's match waits for him: `join` brings him back)
        tournaments.hold(registry, session.name, opponent, table.tournament, out)
    if isinstance(command, c.Panic):
        out.to(session, TextLine.of(Text.PANIC_SAVED))
