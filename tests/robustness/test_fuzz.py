"""Fuzzing the codec and the application core (issue 7): garbage in, no crash, invariants hold.

(a) `protocol.framing.LineReader` + `protocol.commands.parse_command` on arbitrary bytes in
arbitrary chunks: only clean lines, `ProtocolError` (`LineTooLong`) or `CommandError`.

(b) The session layer without sockets: a `Registry` on an in-memory store, four accounts
logged in as `Session`s (as `fibsd.shell.server._converse` builds them), and random command lines
(generated garbage, every command type through `format_command`, and invite/join/roll/move/
double/accept/resign/leave sequences so that matches start and progress) fed to random
sessions. A small driver plays the shell's part: it commits each `Outcome`'s writes to the
store, renders every delivery for its recipient, runs off-loop work, and logs out sessions
that left or were closed. After every step the structural invariants are checked.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fibsd.app import presence
from fibsd.app.outcome import ClipBytes, Outcome
from fibsd.app.presentation import who_info
from fibsd.app.session import Departure, Session
from fibsd.rules import GamePhase, legal_plays
from fibsd.tools.bots.moves import play_line
from protocol.board import Colour
from protocol.commands import format_command, parse_command, parse_login_line
from protocol.errors import CommandError, LineTooLong, ProtocolError
from protocol.framing import LineReader
from tests.app.driver import CoreDriver
from tests.protocol.test_commands import commands as command_values

# --------------------------------------------------------------------- (a) the codec

_TELNET_BITS = [b"\xff", b"\xff\xfb\x01", b"\xff\xfa", b"\xff\xf0", b"\xff\xff", b"\r", b"\n",
                b"\r\n", b"\r\x00", b"\x00", b"move 1-2", b"\xc3\xa9", b"\xe9"]
wire_bytes = st.lists(
    st.one_of(st.binary(max_size=80), st.sampled_from(_TELNET_BITS)), max_size=30
).map(b"".join)


def _chunks(data: bytes, cuts: list[int]) -> Iterator[bytes]:
    start = 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}):
        yield data[start:cut]
        start = cut
    yield data[start:]


def _check_line(line: str) -> None:
    assert isinstance(line, str)
    assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in line), repr(line)
    try:
        command = parse_command(line)
    except CommandError as error:
        assert all("\r" not in text and "\n" not in text for text in error.lines), error.lines
    else:
        assert "\n" not in format_command(command)
    try:
        parse_login_line(line)
    except CommandError:
        pass


@settings(max_examples=300, deadline=None)
@given(data=wire_bytes, cuts=st.lists(st.integers(0, 10_000), max_size=6),
       limit=st.integers(1, 200))
def test_arbitrary_bytes_give_lines_or_protocol_errors(data: bytes, cuts: list[int], limit: int) -> None:
    reader = LineReader(max_line_bytes=limit)
    lines: list[str] = []
    for chunk in _chunks(data, cuts):
        try:
            lines += reader.feed(chunk)
        except LineTooLong as too_long:
            lines += too_long.lines
            for _ in range(len(data) + 2):  # each retry consumes input: bounded
                try:
                    lines += reader.discard_line()
                    break
                except LineTooLong as again:
                    lines += again.lines
            else:
                pytest.fail("discard_line never made progress")
        except ProtocolError:  # pragma: no cover - only after an unhandled LineTooLong
            pytest.fail("feed refused input although discard_line was called")
        assert reader.pending_bytes <= limit
    for line in lines:
        _check_line(line)


# ------------------------------------------------------------ (b) the session layer

NAMES = ("alice", "bob", "carol", "dave")


class RandomDice:
    """A seeded dice source: hypothesis chooses the seed, so failures replay."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def die(self) -> int:
        return self._rng.randint(1, 6)

    def coin(self) -> int:
        return self._rng.randint(0, 1)


class Core(CoreDriver):
    """The application core under the shared synchronous driver (`tests.app.driver`)."""

    def __init__(self, seed: int) -> None:
        super().__init__(RandomDice(seed))
        self.create(*NAMES, ready=True)
        #: How far the clock moves per command: 50 a second, above the server's command
        #: rate limit, so long runs reach flood warnings and disconnections too.
        self.seconds_per_command = 0.02

    # --- the shell's part -------------------------------------------------------------

    def log_in(self, name: str, *, clip: bool = True) -> Session:
        # (A takeover or a return to a suspended match seats the user after the who list
        # was built, and announces the new status then: compare plain logins only.)
        self._plain = self.registry.get(name) is None and name.lower() not in self.registry.suspended
        return super().log_in(name, clip=clip)

    def check_login(self, session: Session, outcome: Outcome) -> None:
        if session.clip and self._plain:
            self.check_who_list(session, outcome)

    def check_who_list(self, session: Session, outcome: Outcome) -> None:
        """A CLIP login's who list (kept between logins) shows everyone online as their
        who-info says now; idle times may be up to a second old: the list is kept for
        the logins of the same second (`Registry.who_list_with`), so a user who typed
        something within this second may still show the idle time from before."""
        lists = [message for recipient, message in outcome.pairs()
                 if recipient is session and isinstance(message, ClipBytes)
                 and message.data.startswith(b"5 ")]
        assert lists  # the who list first; a takeover's reseat may add status lines
        shown = [line.split(" ") for line in lists[0].lines()]
        now = self.clock.now()
        fresh = [who_info(other, now).clip_line().split(" ") for other in self.registry.sessions()]
        assert shown[-1] == ["6"]
        assert [tokens[:8] + tokens[9:] for tokens in shown[:-1]] == \
            [tokens[:8] + tokens[9:] for tokens in fresh]
        this_second = int(now)
        for seen, exact, other in zip(shown, fresh, self.registry.sessions()):
            if other.last_input_at >= this_second:  # active since the list was kept
                continue
            assert 0 <= int(exact[8]) - int(seen[8]) <= 1, (seen, exact)

    def handle(self, session: Session, line: str) -> None:
        if self.registry.get(session.name) is not session:
            return  # its connection is gone: the shell would never call it
        self.clock.advance(self.seconds_per_command)
        self.feed(session, line)

    def drop(self, session: Session) -> None:
        self.apply(presence.log_out(self.registry, session, Departure.DROPPED))

    # --- invariants -------------------------------------------------------------------

    def check(self) -> None:
        online = list(self.registry.sessions())
        keys = [s.name.lower() for s in online]
        assert len(keys) == len(set(keys)), keys
        assert self.registry.online_count() == len(online)
        tables = {id(s.table): s.table for s in online if s.table is not None}
        for session in online:
            assert self.registry.get(session.name) is session
            if session.table is not None:
                seat = session.table.seat_of(session)
                assert seat is not None, f"{session.name} has a table without a seat"
                assert session.table.seats[seat] is session
                assert session.table.names[seat].lower() == session.name.lower()
                assert session.watching is None, f"{session.name} plays and watches"
            if session.watching is not None:
                watched = session.watching
                assert self.registry.get(watched.name) is watched, "watches someone offline"
                assert session in watched.watched_by
                assert watched is not session
            for watcher in session.watched_by:
                assert watcher.watching is session
                assert self.registry.get(watcher.name) is watcher, "watched by someone offline"
        # Dropper protection: a suspended table waits, with the opponent still seated,
        # for the one who dropped.
        for key, waiting in getattr(self.registry, "suspended", {}).items():
            assert waiting.dropped is not None, key
            seat = waiting.dropped[0]
            assert waiting.names[seat].lower() == key
            assert waiting.seats[seat] is None, f"{key} dropped but is still seated"
            opponent = waiting.seats[1 - seat]
            assert opponent is not None, f"a suspended table of {key} with nobody at it"
            assert opponent.table is waiting and self.registry.get(opponent.name) is opponent
        for table in tables.values():
            assert table is not None
            occupants = [s for s in table.seats if s is not None]
            assert len({id(s) for s in occupants}) == len(occupants), "one user in both seats"
            for occupant in occupants:
                assert occupant.table is table, "a seat points to a user at another table"
                assert self.registry.get(occupant.name) is occupant, "an offline user is seated"
            # The store's copy of the match (a whole copy plus patches) is the match.
            saved = self.store.saved_match(*table.names)
            if saved is not None:
                # The table keeps the last finished game in memory; the store has them all.
                games = saved["match"]["finished_games"]
                forgotten = table.match.forgotten_count
                assert len(games) == table.match.finished_count, table.names
                saved["match"]["finished_games"] = games[forgotten:]
                assert saved == json.loads(json.dumps(table.saved_state())), table.names
            game = table.match.game
            for seat in (0, 1):
                side = game.side(seat)
                assert len(side) == 26 and min(side) >= 0
                assert sum(side) == 15, (seat, side)

    # --- driving a match ----------------------------------------------------------------

    def sensible_action(self, session: Session, choice: int) -> None:
        """What the player whose turn it is at `session`'s table would do next."""
        table = session.table
        if table is None:
            self.handle(session, "roll")
            return
        players = [s for s in table.seats if s is not None]
        game = table.match.game
        if table.between_games:
            for player in players:
                self.handle(player, "join")
            return
        actor_seat = game.actor()
        actor = table.seats[actor_seat] if actor_seat is not None else None
        if actor is None:
            self.handle(session, "board")
            return
        phase = game.phase
        if phase is GamePhase.AWAITING_MOVE:
            self.handle(actor, self.legal_move_line(actor, choice) or "roll")
        elif phase is GamePhase.AWAITING_ROLL:
            self.handle(actor, "double" if choice % 9 == 0 else "roll")
        elif phase is GamePhase.DOUBLE_OFFERED:
            self.handle(actor, "accept" if choice % 3 else "reject")
        elif phase is GamePhase.RESIGNATION_OFFERED:
            self.handle(actor, "reject" if choice % 2 else "accept")
        else:
            self.handle(actor, "board")

    # --- a legal play for whoever is to move ------------------------------------------

    def legal_move_line(self, session: Session, choice: int) -> str | None:
        table, seat = session.table, session.seat
        if table is None or seat is None:
            return None
        game = table.match.game
        if game.phase is not GamePhase.AWAITING_MOVE or game.turn != seat or game.dice is None:
            return None
        plays = legal_plays(game.position_for(seat), game.dice)
        if not plays or not plays[0].moves:
            return None
        colour = Colour.O if table.is_o(seat) else Colour.X
        return play_line(plays[choice % len(plays)], colour)


# Lines that drive matches between the four users, with names filled in at run time.
_MATCH_TEMPLATES = (
    "invite {other} 1", "invite {other} 3", "invite {other}", "invite {other} unlimited",
    "invite {other} 2 holland", "join {other}", "join", "roll", "double", "redouble", "beaver",
    "raccoon", "accept", "reject", "resign n", "resign g", "resign b", "leave", "board", "pip",
    "watch {other}", "unwatch", "look {other}", "oldmoves {other}", "oldboard {other}",
    "toggle ready", "toggle automove", "toggle greedy", "toggle double", "toggle autoboard",
    "set boardstyle 1", "set boardstyle 2", "set boardstyle 3", "set redoubles 1",
    "tell {other} hi", "message {other} see you", "messages", "kibitz well played", "say gg",
    "whisper psst", "show saved", "show games", "export", "whois {other}", "who", "rawwho",
    "away lunch", "back", "gag {other}", "blind {other}", "waitfor {other}", "bye", "wave",
    "!!", "panic", "off", "move 24-18 13-11", "move bar-20", "password secret:secret2:secret2",
    "password secret2:secret:secret", "claim", "claim {other}",
)

garbage = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60),
    st.from_regex(r"[a-z!]{1,8}( [A-Za-z0-9_:\-]{0,10}){0,4}", fullmatch=True),
)

actions = st.one_of(
    st.tuples(st.just("line"), st.integers(0, 3), garbage),
    st.tuples(st.just("command"), st.integers(0, 3), command_values.map(format_command)),
    st.tuples(st.just("template"), st.integers(0, 3), st.sampled_from(_MATCH_TEMPLATES),
              st.integers(0, 3)),
    st.tuples(st.just("template"), st.integers(0, 3), st.sampled_from(_MATCH_TEMPLATES[:8]),
              st.integers(0, 3)),
    st.tuples(st.just("start"), st.integers(0, 3), st.integers(1, 3),
              st.sampled_from(["1", "3", "", "unlimited", "5 holland"])),
    st.tuples(st.just("start"), st.integers(0, 3), st.integers(1, 3), st.just("3")),
    st.tuples(st.just("act"), st.integers(0, 3), st.integers(0, 1000)),
    st.tuples(st.just("act"), st.integers(0, 3), st.integers(0, 1000)),
    st.tuples(st.just("act"), st.integers(0, 3), st.integers(0, 1000)),
    st.tuples(st.just("relogin"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("relogin"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("drop"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("drop_a_player"), st.integers(0, 3)),
    st.tuples(st.just("claim"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("tick"), st.integers(1, 4000)),
)


def run_actions(seed: int, steps: list[tuple[object, ...]]) -> Core:
    """Play `steps` against a fresh core, checking the invariants after each one."""
    core = Core(seed)
    sessions = [core.log_in(name, clip=index % 2 == 0) for index, name in enumerate(NAMES)]
    core.check()
    for step in steps:
        match step:
            case ("tick", int(seconds)):
                core.clock.advance(float(seconds))
                continue
            case ("line" | "command", int(index), str(line)):
                core.handle(sessions[index], line)
            case ("template", int(index), str(template), int(other)):
                core.handle(sessions[index], template.format(other=NAMES[other]))
            case ("start", int(index), int(offset), str(length)):
                invitee = (index + offset) % len(NAMES)
                for player in (index, invitee):  # players who had left come back to play
                    if core.registry.get(NAMES[player]) is None:
                        sessions[player] = core.log_in(NAMES[player], clip=player % 2 == 0)
                core.handle(sessions[index], f"invite {NAMES[invitee]} {length}".strip())
                core.check()
                core.handle(sessions[invitee], f"join {NAMES[index]}")
            case ("act", int(index), int(choice)):
                if core.registry.get(NAMES[index]) is None:  # back to the (suspended) match
                    sessions[index] = core.log_in(NAMES[index], clip=index % 2 == 0)
                    core.check()
                for _ in range(1 + choice % 12):  # some turns of this user's match, if any
                    core.sensible_action(sessions[index], choice)
                    core.check()
            case ("relogin", int(index), bool(clip)):
                sessions[index] = core.log_in(NAMES[index], clip=clip)
            case ("drop", int(index), bool(comes_back)):
                core.drop(sessions[index])
                if comes_back:
                    sessions[index] = core.log_in(NAMES[index], clip=index % 2 == 0)
            case ("claim", int(index), bool(wait)):  # the one left at a suspended table
                waiting = list(core.registry.suspended.values())
                if waiting:
                    table = waiting[index % len(waiting)]
                    if wait:
                        core.clock.advance(core.registry.config.reconnect_grace_seconds)
                    claimant = next(s for s in table.seats if s is not None)
                    core.handle(claimant, "claim")
            case ("drop_a_player", int(index)):  # someone in a match loses the connection
                playing = [s for s in core.registry.sessions() if s.table is not None]
                if playing:
                    core.drop(playing[index % len(playing)])
            case _:  # pragma: no cover
                raise AssertionError(step)
        core.check()
        # Whoever left (bye, dropped, cut off for flooding) stays away until a `relogin`
        # step; meanwhile their old session gets no commands (it has no connection).
    store = core.store
    for name in NAMES:
        account = store.get_account(name)
        assert account is not None and account.experience >= 0
    return core


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.lists(actions, min_size=1, max_size=120))
def test_random_commands_from_four_users_never_break_the_core(seed: int, steps: list[tuple[object, ...]]) -> None:
    run_actions(seed, steps)


def _seeded_steps(rng: random.Random, count: int) -> list[tuple[object, ...]]:
    """A long run without hypothesis: mostly match play, with drops, claims and returns."""
    steps: list[tuple[object, ...]] = []
    for _ in range(count):
        roll = rng.random()
        user = rng.randrange(len(NAMES))
        if roll < 0.10:
            steps.append(("start", user, rng.randint(1, 3), rng.choice(["1", "3", "5", "unlimited"])))
        elif roll < 0.60:
            steps.append(("act", user, rng.randrange(1000)))
        elif roll < 0.75:
            steps.append(("template", user, rng.choice(_MATCH_TEMPLATES), rng.randrange(4)))
        elif roll < 0.80:
            steps.append(("drop_a_player", user))
        elif roll < 0.85:
            steps.append(("relogin", user, rng.random() < 0.5))
        elif roll < 0.90:
            steps.append(("tick", rng.choice([1, 60, 400])))
        elif roll < 0.95:
            steps.append(("claim", user, rng.random() < 0.7))
        else:
            text = "".join(chr(rng.randrange(32, 0x250)) for _ in range(rng.randrange(30)))
            steps.append(("line", user, text))
    return steps


@pytest.mark.parametrize("seed", [1, 2])
def test_long_seeded_runs_with_drops_claims_and_returns(seed: int) -> None:
    core = run_actions(seed, _seeded_steps(random.Random(seed), 300))
    assert core.deliveries > 1000


def test_matches_really_start_and_progress_under_the_driver() -> None:
    """The generated sequences reach match play: a scripted run plays a whole 1-point match."""
    core = Core(seed=7)
    core.seconds_per_command = 1.0  # players at human speed
    alice = core.log_in("alice", clip=True)
    bob = core.log_in("bob", clip=False)
    core.handle(alice, "invite bob 1")
    core.handle(bob, "join alice")
    assert alice.table is not None and alice.table is bob.table
    core.check()
    for _ in range(2000):
        table = alice.table
        if table is None:
            break
        game = table.match.game
        turn = game.turn
        mover = alice if turn == table.seat_of(alice) else bob
        if game.phase is GamePhase.AWAITING_ROLL:
            core.handle(mover, "roll")
        elif game.phase is GamePhase.AWAITING_MOVE:
            line = core.legal_move_line(mover, 0)
            assert line is not None
            core.handle(mover, line)
        else:
            break
        core.check()
    assert alice.table is None and bob.table is None
    assert alice.last_table is not None and alice.last_table.match.over
    alice_account, bob_account = core.store.get_account("alice"), core.store.get_account("bob")
    assert alice_account is not None and bob_account is not None
    assert alice_account.experience == bob_account.experience == 1


@pytest.mark.parametrize("line", [
    "broadcast 0", "kick bob", "ban bob", "unban bob", "mute bob", "unmute bob",
    "adduser zed secret", "invitecode", "erase bob", "shutdown",
])
def test_admin_verbs_from_a_non_admin_are_refused(line: str) -> None:
    """Regression: the fuzz once found `broadcast 0` escaping `Session.handle`
    (`assert_never` on a command the codec knew and the session did not)."""
    core = Core(seed=1)
    alice = core.log_in("alice", clip=True)
    core.handle(alice, line)
    core.check()
    assert core.last_lines and core.last_lines[0].startswith("** "), core.last_lines
