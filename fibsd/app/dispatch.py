"""One command line of one user, from the text typed to the `Outcome` it produced.

The top rung of the synchronous core: the command rate limit, parsing with the codec,
`!!`, the `match` over every command type (ending in `assert_never`, so the type checker
finds a forgotten verb), the away reminder, and the idle timeout's notice. The trio shell
calls `handle` and `timed_out`; everything below is reached from here, and what the
command finished is handed on to `fibsd.app.aftermath` on the way out.
"""

from __future__ import annotations

import logging
from typing import assert_never

from fibsd.app import aftermath
from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.app.verbs import (
    admin,
    analysis,
    chouette,
    clocks,
    info,
    invitations,
    play,
    puzzles,
    settings,
    social,
    schedules,
    tournament,
    viewing,
)
from fibsd.infra.limits import TokenBucket
from protocol import commands as c
from protocol.errors import CommandError
from protocol.messages import TextLine
from protocol.wording import Text

log = logging.getLogger("fibsd.app.dispatch")


def handle(registry: Registry, session: Session, line: str, *, monotonic: float | None = None) -> Outcome:
    """Handle one command line typed by `session`'s user.

    `monotonic` is the shell's clock for rate limits (trio's, which tests can run
    instantly); without it the registry's clock serves. The matches the command finished
    are handed on (`fibsd.app.aftermath`).
    """
    return aftermath.hand_on(registry, _handle(registry, session, line, monotonic))


def _handle(registry: Registry, session: Session, line: str, monotonic: float | None) -> Outcome:
    now = registry.clock.now()
    session.last_input_at = now
    out = Outcome()
    if _over_rate_limit(registry, session, now if monotonic is None else monotonic, out):
        return out
    cube_word = puzzles.cube_word(session, line)  # `take`/`pass`: only in a puzzle
    if cube_word is not None:
        puzzles.answer(registry, session, cube_word, out)
        _remind_away(session, out, cube_word)
        return out
    try:
        command = c.parse_command(line)
    except CommandError as error:
        out.lines(session, *error.lines)
        _remind_away(session, out, None)
        return out
    if isinstance(command, c.RepeatLast):
        if session.last_command is None:
            return out
        command = session.last_command
    elif not isinstance(command, c.NOT_REPEATABLE) and not isinstance(command, c.Blank):
        session.last_command = command
    dispatch(registry, session, command, out)
    _remind_away(session, out, command)
    return out


def timed_out(session: Session) -> Outcome:
    """The idle timeout struck: tell the user; the shell then closes the connection."""
    out = Outcome()
    out.to(session, TextLine.of(Text.CONNECTION_TIMED_OUT))
    session.departure = Departure.TIMED_OUT
    return out


def _over_rate_limit(registry: Registry, session: Session, now: float, out: Outcome) -> bool:
    """The command token bucket: every refused command is answered (so a client knows
    which one was dropped); after `flood_warnings` refusals in a row the connection
    closes, so a flood never gets more than a few lines back."""
    config = registry.config
    if session.bucket is None:
        session.bucket = TokenBucket(config.commands_per_second, config.command_burst, updated=now)
    if session.bucket.take(now):
        session.flood_warnings = 0
        return False
    session.flood_warnings += 1
    if session.flood_warnings > config.flood_warnings:
        out.to(session, TextLine.of(Text.FLOODING))
        session.departure = Departure.DROPPED
        out.close(session, "flooding")
        log.warning("%s disconnected for flooding", session.name)
    else:
        out.to(session, TextLine.of(Text.SLOW_DOWN))
    return True


def _remind_away(session: Session, out: Outcome, command: c.Command | None) -> None:
    # FIBS appends the away reminder to the output of every command until `back`.
    if session.away_message is not None and not isinstance(command, (c.Away, c.Back)):
        out.to(session, TextLine.of(Text.AWAY))


def dispatch(registry: Registry, session: Session, command: c.Command, out: Outcome) -> None:
    """Hand `command` to its handler."""
    r = registry
    match command:
        case c.Blank():
            pass
        case c.Name():
            out.to(session, TextLine.of(Text.CANT_CHANGE_NAME))
        case c.Who() | c.RawWho():
            info.who(r, session, command, out)
        case c.Whois():
            info.whois(r, session, command, out)
        case c.Where():
            info.where(r, session, command, out)
        case c.Tell():
            social.tell(r, session, command, out)
        case c.Shout():
            social.shout(r, session, command, out)
        case c.Say():
            play.say(r, session, command, out)
        case c.Kibitz() | c.Whisper():
            play.kibitz(r, session, command, out)
        case c.Message():
            social.message(r, session, command, out)
        case c.Messages():
            social.show_messages(session, out)
        case c.Waitfor():
            social.waitfor(r, session, command, out)
        case c.Gag():
            social.gag(r, session, command, out)
        case c.Blind():
            social.blind(r, session, command, out)
        case c.Away():
            social.away(r, session, command, out)
        case c.Back():
            social.back(r, session, out)
        case c.Toggle():
            settings.toggle(r, session, command, out)
        case c.Set():
            settings.set_variable(session, command, out)
        case c.Address():
            settings.address(r, session, command, out)
        case c.Password():
            settings.password(r, session, command, out)
        case c.Save():
            out.to(session, TextLine.of(Text.SETTINGS_SAVED))
        case c.Show():
            info.show(r, session, command, out)
        case c.Ratings():
            info.ratings(r, session, command, out)
        case c.Last():
            info.last(r, session, out)
        case c.Time() | c.Date():
            info.time(r, session, command, out)
        case c.Motd():
            info.motd(r, session, out)
        case c.Help():
            info.help(registry, session, command, out)
        case c.About() | c.Average() | c.Dicetest() | c.Stat() | c.Version() | c.Port():
            info.server_facts(r, session, command, out)
        case c.Clear():
            out.lines(session, Text.CLEAR_SCREEN.value)
        case c.Export():
            viewing.export(r, session, command, out)
        case c.Analyse():
            analysis.analyse(r, session, command, out)
        case c.Analysis():
            analysis.analysis(r, session, command, out)
        case c.Claim():
            play.claim(r, session, out)
        case c.ClockCommand():
            clocks.clock(r, session, out)
        case c.Correspondence():
            clocks.correspondence(r, session, command, out)
        case c.Uninvite():
            invitations.uninvite(r, session, out)
        case c.Erase():
            out.to(session, TextLine.of(Text.PERMISSION_DENIED))
        case (
            c.Shutdown() | c.Broadcast() | c.Kick() | c.Ban() | c.Unban() | c.Mute()
            | c.Unmute() | c.Adduser() | c.Invitecode()
        ):
            admin.handle(r, session, command, out)
        case c.Bye():
            social.bye(r, session, out)
        case c.Wave():
            social.wave(r, session, out)
        case c.Invite():
            invitations.invite(r, session, command, out)
        case c.Join():
            invitations.join(r, session, command, out)
        case c.Watch():
            viewing.watch(r, session, command, out)
        case c.Unwatch():
            viewing.unwatch(r, session, out)
        case c.Look():
            viewing.look(r, session, command, out)
        case c.Oldboard() | c.Oldmoves():
            viewing.old(r, session, command, out)
        case c.Board():
            if session.chouette is not None and session.table is None:
                chouette.board(session, out)
            else:
                viewing.board(session, out)
        case c.Pip():
            viewing.pip(session, out)
        case c.Leave() | c.Panic():
            invitations.leave(r, session, command, out)
        case (
            c.Roll() | c.Move() | c.Off() | c.Double() | c.Redouble() | c.Beaver()
            | c.Raccoon() | c.Otter() | c.Accept() | c.Reject() | c.Resign()
        ):
            if puzzles.answers(session, command):
                puzzles.answer(r, session, command, out)
            elif session.chouette is not None and session.table is None:
                chouette.game_command(r, session, command, out)
            else:
                play.game_command(r, session, command, out)
        case c.Chouette():
            chouette.chouette(r, session, command, out)
        case c.Team():
            chouette.team(r, session, command, out)
        case c.Boxside():
            chouette.boxside(r, session, command, out)
        case c.Tournament(action=c.TournamentAction.SCHEDULE):
            schedules.schedule(r, session, command, out)
        case c.Tournament(action=c.TournamentAction.SCHEDULES):
            schedules.list_schedules(r, session, out)
        case c.Tournament(action=c.TournamentAction.UNSCHEDULE, name=str(name)):
            schedules.unschedule(r, session, name, out)
        case c.Tournament():
            tournament.tournament(r, session, command, out)
        case c.Setbot():
            tournament.setbot(r, session, command, out)
        case c.Puzzle():
            puzzles.puzzle(r, session, command, out)
        case c.RepeatLast():
            pass  # `!!` after `!!`: nothing to repeat
        case _:
            assert_never(command)
