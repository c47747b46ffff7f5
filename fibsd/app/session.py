"""One logged-in user: their per-connection state and the dispatch of their commands.

A `Session` turns one command line into an `Outcome` (lines for recipients, store writes)
by calling the verb handlers in `fibsd.app.verbs`. It is synchronous and never awaits; work that
must leave the event loop (password hashing) is returned as an `OffLoop` job. Per-session
state that FIBS forgets at logout lives here: away message, gag/blind lists, waitfor list,
the last command for `!!`, messages received since login.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, assert_never

import attrs

from fibsd.accounts import Account, name_key
from fibsd.app.outcome import ClipBytes, Lines, Outcome
from fibsd.app.registry import Departure, Registry
from fibsd.limits import TokenBucket
from protocol import commands as c
from protocol.errors import CommandError
from protocol.messages import ServerMessage, TextLine, is_server_message, render_lines
from protocol.wording import Text

if TYPE_CHECKING:
    from fibsd.app.lobby import Invitation
    from fibsd.app.play.table import Table
    from protocol.messages import Message

log = logging.getLogger("fibsd.app.session")


@attrs.define(eq=False)
class Session:
    """A logged-in user. Identity semantics: two sessions are never equal."""

    registry: Registry
    account: Account
    clip: bool
    clip_version: int
    client_name: str | None
    host: str
    login_at: float
    #: Telnet users get a `> ` prompt after each burst of output.
    prompts: bool
    last_input_at: float = attrs.field(default=0.0)
    away_message: str | None = None
    #: Name keys of users whose tell/shout/kibitz/whisper this user ignores (until logout).
    gagged: dict[str, str] = attrs.field(factory=dict)
    #: Name keys of users who may not watch this user's games (until logout).
    blinded: dict[str, str] = attrs.field(factory=dict)
    #: Name key -> name of users this user waits for (`waitfor`).
    waiting_for: dict[str, str] = attrs.field(factory=dict)
    #: Messages (CLIP 9) received since login, for `message` without arguments.
    received_messages: list[Message] = attrs.field(factory=list)
    last_command: c.Command | None = None
    waves: int = 0
    #: Set when the user has left (bye, wave, replaced): the shell ends the connection.
    departure: Departure | None = None
    #: The match this user plays, if any, and the last one that ended (for oldmoves).
    table: Table | None = None
    last_table: Table | None = None
    #: This user's outstanding invitation (one at a time).
    invitation: Invitation | None = None
    #: The player this user watches, and who watches this user.
    watching: Session | None = None
    watched_by: set[Session] = attrs.field(factory=set)
    #: Until when an operator muted this user (None: not muted; inf: until unmuted).
    muted_until: float | None = None
    #: When this user last shouted (for the shout interval).
    last_shout_at: float | None = None
    #: Commands over the rate limit in a row (warnings given so far).
    flood_warnings: int = 0
    _bucket: TokenBucket | None = None
    #: What this user's CLIP 5 line shows, and the line's encoded halves around the idle
    #: time (`presentation.who_line`).
    who_line_cache: tuple[tuple[object, ...], bytes, bytes] | None = None
    #: Whether this session gets fibsd's own lines (`wording.EXTENSION_LINES`): on for
    #: telnet users, off for CLIP clients until they `toggle extensions` (for this session).
    extensions: bool = attrs.field(
        default=attrs.Factory(lambda self: not self.clip, takes_self=True))

    def __attrs_post_init__(self) -> None:
        if not self.last_input_at:
            self.last_input_at = self.login_at

    # -------------------------------------------------------------- identity

    @property
    def name(self) -> str:
        return self.account.name

    @property
    def key(self) -> str:
        return name_key(self.account.name)

    @property
    def seat(self) -> int | None:
        return None if self.table is None else self.table.seat_of(self)

    @property
    def opponent_name(self) -> str | None:
        """The name of the user this one plays a match with."""
        seat = self.seat
        return None if seat is None or self.table is None else self.table.names[1 - seat]

    @property
    def watching_name(self) -> str | None:
        return None if self.watching is None else self.watching.name

    def set_toggle(self, name: str, value: bool, out: Outcome) -> None:
        """Change one toggle and persist it."""
        toggles = self.account.toggles.with_value(name, value)
        self.account = attrs.evolve(self.account, toggles=toggles)
        key_name = self.name
        out.write(lambda store: store.update_toggles(key_name, toggles))

    def reset_toggles_for_new_game(self, out: Outcome) -> None:
        """FIBS resets `double` (on) and `greedy` (off) at the start of every game."""
        toggles = self.account.toggles.for_new_game()
        if toggles != self.account.toggles:
            self.account = attrs.evolve(self.account, toggles=toggles)
            name = self.name
            out.write(lambda store: store.update_toggles(name, toggles))

    def idle_seconds(self, now: float) -> int:
        return max(0, int(now - self.last_input_at))

    # ------------------------------------------------------------- rendering

    def render(self, message: object) -> list[str]:
        """The lines `message` becomes for this user (CLIP or telnet wording)."""
        if isinstance(message, Lines):
            return list(message.lines)
        if isinstance(message, ClipBytes):
            return message.lines() if self.clip else []
        return render_lines(_server_message(message), clip=self.clip, clip_version=self.clip_version,
                            extensions=self.extensions)

    def prompt(self) -> str:
        return Text.COMMAND_PROMPT.value

    def line_too_long_notice(self) -> str:
        return Text.LINE_TOO_LONG.value

    # --------------------------------------------------------------- commands

    def is_muted(self, now: float) -> bool:
        return self.muted_until is not None and self.muted_until > now

    def _over_rate_limit(self, now: float, out: Outcome) -> bool:
        """The command token bucket: every refused command is answered (so a client knows
        which one was dropped); after `flood_warnings` refusals in a row the connection
        closes, so a flood never gets more than a few lines back."""
        config = self.registry.config
        if self._bucket is None:
            self._bucket = TokenBucket(config.commands_per_second, config.command_burst, updated=now)
        if self._bucket.take(now):
            self.flood_warnings = 0
            return False
        self.flood_warnings += 1
        if self.flood_warnings > config.flood_warnings:
            out.to(self, TextLine.of(Text.FLOODING))
            self.departure = Departure.DROPPED
            out.close(self, "flooding")
            log.warning("%s disconnected for flooding", self.name)
        else:
            out.to(self, TextLine.of(Text.SLOW_DOWN))
        return True

    def handle(self, line: str, *, monotonic: float | None = None) -> Outcome:
        """Handle one command line typed by this user.

        `monotonic` is the shell's clock for rate limits (trio's, which tests can run
        instantly); without it the wall clock serves.
        """
        now = self.registry.clock.now()
        self.last_input_at = now
        out = Outcome()
        if self._over_rate_limit(now if monotonic is None else monotonic, out):
            return out
        try:
            command = c.parse_command(line)
        except CommandError as error:
            out.lines(self, *error.lines)
            self._remind_away(out, None)
            return out
        if isinstance(command, c.RepeatLast):
            if self.last_command is None:
                return out
            command = self.last_command
        elif not isinstance(command, c.NOT_REPEATABLE) and not isinstance(command, c.Blank):
            self.last_command = command
        self.dispatch(command, out)
        self._remind_away(out, command)
        return out

    def _remind_away(self, out: Outcome, command: c.Command | None) -> None:
        # FIBS appends the away reminder to the output of every command until `back`.
        if self.away_message is not None and not isinstance(command, (c.Away, c.Back)):
            out.to(self, TextLine.of(Text.AWAY))

    def timed_out(self) -> Outcome:
        """The idle timeout struck: tell the user; the shell then closes the connection."""
        out = Outcome()
        out.to(self, TextLine.of(Text.CONNECTION_TIMED_OUT))
        self.departure = Departure.TIMED_OUT
        return out

    def dispatch(self, command: c.Command, out: Outcome) -> None:
        from fibsd.app.verbs import admin, info, play, settings, social

        match command:
            case c.Blank():
                pass
            case c.Name():
                out.to(self, TextLine.of(Text.CANT_CHANGE_NAME))
            case c.Who() | c.RawWho():
                info.who(self, command, out)
            case c.Whois():
                info.whois(self, command, out)
            case c.Where():
                info.where(self, command, out)
            case c.Tell():
                social.tell(self, command, out)
            case c.Shout():
                social.shout(self, command, out)
            case c.Say():
                play.say(self, command, out)
            case c.Kibitz() | c.Whisper():
                play.kibitz(self, command, out)
            case c.Message():
                social.message(self, command, out)
            case c.Messages():
                social.show_messages(self, out)
            case c.Waitfor():
                social.waitfor(self, command, out)
            case c.Gag():
                social.gag(self, command, out)
            case c.Blind():
                social.blind(self, command, out)
            case c.Away():
                social.away(self, command, out)
            case c.Back():
                social.back(self, out)
            case c.Toggle():
                settings.toggle(self, command, out)
            case c.Set():
                settings.set_variable(self, command, out)
            case c.Address():
                settings.address(self, command, out)
            case c.Password():
                settings.password(self, command, out)
            case c.Save():
                out.to(self, TextLine.of(Text.SETTINGS_SAVED))
            case c.Show():
                info.show(self, command, out)
            case c.Ratings():
                info.ratings(self, command, out)
            case c.Last():
                info.last(self, out)
            case c.Time() | c.Date():
                info.time(self, command, out)
            case c.Motd():
                info.motd(self, out)
            case c.Help():
                info.help(self, command, out)
            case c.About() | c.Average() | c.Dicetest() | c.Stat() | c.Version() | c.Port():
                info.server_facts(self, command, out)
            case c.Clear():
                out.lines(self, Text.CLEAR_SCREEN.value)
            case c.Export():
                play.export(self, command, out)
            case c.Claim():
                play.claim(self, out)
            case c.Erase():
                out.to(self, TextLine.of(Text.PERMISSION_DENIED))
            case (
                c.Shutdown() | c.Broadcast() | c.Kick() | c.Ban() | c.Unban() | c.Mute()
                | c.Unmute() | c.Adduser() | c.Invitecode()
            ):
                admin.handle(self, command, out)
            case c.Bye():
                social.bye(self, out)
            case c.Wave():
                social.wave(self, out)
            case c.Invite():
                play.invite(self, command, out)
            case c.Join():
                play.join(self, command, out)
            case c.Watch():
                play.watch(self, command, out)
            case c.Unwatch():
                play.unwatch(self, out)
            case c.Look():
                play.look(self, command, out)
            case c.Oldboard() | c.Oldmoves():
                play.old(self, command, out)
            case c.Board():
                play.board(self, out)
            case c.Pip():
                play.pip(self, out)
            case c.Leave() | c.Panic():
                play.leave(self, command, out)
            case (
                c.Roll() | c.Move() | c.Off() | c.Double() | c.Redouble() | c.Beaver()
                | c.Raccoon() | c.Otter() | c.Accept() | c.Reject() | c.Resign()
            ):
                play.game_command(self, command, out)
            case c.RepeatLast():
                pass  # `!!` after `!!`: nothing to repeat
            case _:
                assert_never(command)


def _server_message(message: object) -> ServerMessage:
    # Deliveries are typed loosely in `Outcome` so that the core need not import every
    # message class; anything else is a programming error caught here.
    if is_server_message(message):
        return message
    raise TypeError(f"cannot deliver {message!r}")
