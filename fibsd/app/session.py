"""One logged-in user's state, and the questions it answers about itself.

A `Session` is what FIBS keeps per connection until logout: the account (as last saved),
the client kind (CLIP or telnet), the away message, gag/blind/waitfor lists, the last
command for `!!`, messages received since login, the match this user plays or watches,
the outstanding invitation, the rate-limit bucket and the cached CLIP 5 line. It holds
no service and dispatches nothing (`fibsd.app.dispatch` does): every layer above reads
and changes it, and it imports nothing above `fibsd.app.play`.

`Departure` (how a user left) and `Invitation` (one outstanding invitation) live here too,
beside the state that records them.
"""

from __future__ import annotations

import enum

import attrs

from fibsd.domain.accounts import Account, Toggles, name_key
from fibsd.domain.puzzles import Puzzle
from fibsd.app.outcome import Outcome, TournamentTag
from fibsd.app.play.chouette import ChouetteTable
from fibsd.app.play.table import Table
from fibsd.infra.limits import TokenBucket
from fibsd.rules.timecontrol import TimeControl
from protocol import commands as c
from protocol.messages import Message


class Departure(enum.Enum):
    """How a user left; decides what the others are told."""

    LOGGED_OUT = enum.auto()  # bye, quit, ...
    WAVED = enum.auto()  # wave twice
    DROPPED = enum.auto()  # the connection broke or was cut (line too long, slow reader)
    TIMED_OUT = enum.auto()  # idle timeout
    REPLACED = enum.auto()  # the same account logged in again elsewhere
    SHUT_DOWN = enum.auto()  # the server is stopping


@attrs.frozen
class Invitation:
    """One outstanding invitation (a new one replaces it)."""

    invitee_key: str
    length: int | None  # None with `unlimited` False: resume the saved match
    unlimited: bool = False
    holland: bool = False
    jacoby: bool = False
    nocrawford: bool = False  # the inviter asks for no Crawford rule (fibsd's option word)
    beavers: bool = False  # money play with beavers (fibsd's option word)
    #: The match clock agreed with the invitation (docs/clocks.md); None: no clock.
    clock: TimeControl | None = None
    #: The tournament pairing the match is for (the server's invitations for a pairing).
    tournament: TournamentTag | None = None

    @property
    def resume(self) -> bool:
        return self.length is None and not self.unlimited


@attrs.define(eq=False)
class Session:
    """A logged-in user. Identity semantics: two sessions are never equal."""

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
    table: Table[Session] | None = None
    last_table: Table[Session] | None = None
    #: The chouette this user sits at, if any (docs/chouette.md).
    chouette: ChouetteTable[Session] | None = None
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
    #: The command rate limit (`fibsd.app.dispatch` creates it on the first command).
    bucket: TokenBucket | None = None
    #: What this user's CLIP 5 line shows, and the line's encoded halves around the idle
    #: time (`presentation.who_line`).
    who_line_cache: tuple[tuple[object, ...], bytes, bytes] | None = None
    #: The opponent the last who-info sent for a chouette player named (a chouette's
    #: roles change with every game: `chouettes.settle` announces the changes).
    chouette_opponent_shown: str | None = None
    #: The puzzle this user is solving (issue 37): its number and the puzzle.
    puzzle: tuple[int, Puzzle] | None = None
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
        """The name of the user this one plays a match with, or, at a chouette game, the
        box (for team members) or the captain (for the box and his partner)."""
        if self.table is None:
            return None if self.chouette is None else self.chouette.opponent_of(self.name)
        seat = self.seat
        return None if seat is None else self.table.names[1 - seat]

    @property
    def watching_name(self) -> str | None:
        return None if self.watching is None else self.watching.name

    def idle_seconds(self, now: float) -> int:
        return max(0, int(now - self.last_input_at))

    def is_muted(self, now: float) -> bool:
        return self.muted_until is not None and self.muted_until > now

    # -------------------------------------------------------------- settings

    def save_toggles(self, toggles: Toggles, out: Outcome) -> None:
        """Make `toggles` this user's and persist them (the one place toggles are saved)."""
        if toggles == self.account.toggles:
            return
        self.account = attrs.evolve(self.account, toggles=toggles)
        name = self.name
        out.write(lambda store: store.update_toggles(name, toggles))

    def set_toggle(self, name: str, value: bool, out: Outcome) -> None:
        """Change one toggle and persist it."""
        self.save_toggles(self.account.toggles.with_value(name, value), out)

    def reset_toggles_for_new_game(self, out: Outcome) -> None:
        """FIBS resets `double` (on) and `greedy` (off) at the start of every game."""
        self.save_toggles(self.account.toggles.for_new_game(), out)
