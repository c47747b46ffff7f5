"""A chouette's life around the table: create, join, leave, kick, start, close, and time.

Beside the lobby (the same rung): the lobby runs a match's life, this module a
chouette's. It keeps the registry's open chouettes (loading the saved ones on first use,
so a restart or a kill -9 resumes every table), seats users and lets them go, starts and
closes tables, reattaches a returning player (`arrive`) and notes a departing one
(`depart`, for `fibsd.app.presence`), and drives the engine's clock: `tick` applies the
answer time, the reattach grace period and the box's absence limit (docs/chouette.md),
and the table's clock, if it has one (`chouette_clock`, docs/clocks.md).
The core has no timers: the core's one tick (`fibsd.app.timers`), which the shell runs
every second, calls `tick`, and every chouette command of a table's users checks its
deadlines first (`tick_table`).
"""

from __future__ import annotations

from fibsd.app.outcome import Outcome
from fibsd.app.play import chouette_clock, chouette_presence, match_clock
from fibsd.app.play.chouette import ChouetteTable, refusal
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.dice import SeededDice
from fibsd.rules.chouette import BadSetting, Chouette, ChouetteError, TablePhase, parse_settings
from fibsd.rules.timecontrol import MatchClock, TimeControl
from protocol.messages import TextLine
from protocol.wording import Text


def tables(registry: Registry) -> dict[int, ChouetteTable[Session]]:
    """The open chouettes, by number (the saved ones are loaded the first time)."""
    if not registry.chouettes_loaded:
        registry.chouettes_loaded = True
        now = registry.clock.now()
        for data in registry.reader.open_chouettes():
            dice = data.get("dice")
            try:
                table: ChouetteTable[Session] = ChouetteTable.from_saved(
                    data, clock=registry.clock, roll_counts=registry.roll_counts,
                    dice=registry.match_dice.restored(dice if isinstance(dice, dict) else None),
                )
            except ValueError:
                continue  # an unreadable table is left in the store, not resumed
            # Nobody is at it yet: everyone seated has the grace period to come back.
            table.away = {name.lower(): now for name in table.engine.seated}
            registry.chouettes[table.id] = table
    return registry.chouettes


def find(registry: Registry, name: str) -> ChouetteTable[Session] | None:
    """The open chouette `name` sits at (any case)."""
    for table in tables(registry).values():
        if table.seated_name(name) is not None:
            return table
    return None


def settle(registry: Registry, table: ChouetteTable[Session], out: Outcome | None = None) -> None:
    """After any action on `table`: users no longer seated leave it; an owner who left
    hands the table to the first seated player; an empty table closes; a closed one goes.
    Then every CLIP user hears of the players whose opponent changed (`_announce`)."""
    engine = table.engine
    touched = list(table.present.values())
    for key, session in list(table.present.items()):
        if table.seated_name(session.name) is None:
            del table.present[key]
            if session.chouette is table:
                session.chouette = None
    if out is not None and engine.phase is not TablePhase.CLOSED:
        if not engine.seated and engine.phase is not TablePhase.PLAYING:
            engine.close()
            table.persist(out)
        elif engine.seated and table.seated_name(table.owner) is None:
            table.owner = engine.seated[0]
            table.tell_all(out, TextLine.of(Text.CHOUETTE_NEW_OWNER, name=table.owner))
            table.persist(out)
    closed = engine.phase is TablePhase.CLOSED
    for key, session in list(table.present.items()):
        if closed or table.seated_name(session.name) is None:
            del table.present[key]
            if session.chouette is table:
                session.chouette = None
    if closed:
        registry.chouettes.pop(table.id, None)
    if out is not None:
        _announce(registry, [*touched, *table.present.values()], out)


def _announce(registry: Registry, sessions: list[Session], out: Outcome) -> None:
    """Who-info (CLIP 5, §3.4) for each of `sessions` whose opponent is not the one last
    announced: a chouette player shows as playing the box (or, for the box and his
    partner, the captain) while a game runs, and as free between games, when he sits
    out and after he leaves, so a client's user list matches `who` and `rawwho`."""
    for session in dict.fromkeys(sessions):
        opponent = session.opponent_name
        if opponent != session.chouette_opponent_shown:
            session.chouette_opponent_shown = opponent
            registry.announce_status(session, out)


# ------------------------------------------------------------------ seats


def create(registry: Registry, session: Session, words: tuple[str, ...], out: Outcome, *,
           clock: TimeControl | None = None) -> None:
    """`chouette create`: a new table with `words`' settings, and `clock`'s terms if any
    (the box's and the team's time per game, `chouette_clock`)."""
    try:
        settings = parse_settings(words)
    except BadSetting as bad:
        out.to(session, TextLine.of(Text.CHOUETTE_BAD_SETTING, text=str(bad)))
        return
    known = tables(registry)
    table_id = max([registry.reader.last_chouette_id(), *known]) + 1
    dice = registry.match_dice.new()
    table: ChouetteTable[Session] = ChouetteTable(
        Chouette(settings, [session.name]), table_id=table_id, owner=session.name,
        clock=registry.clock, dice=dice, roll_counts=registry.roll_counts,
    )
    known[table_id] = table
    table.present[session.key] = session
    session.chouette = table
    if clock is not None:
        table.timer = MatchClock(clock)
    described = ", ".join(f"{key}={value}" for key, value in settings.describe())
    if clock is not None:
        described += ", clock=" + match_clock.terms(clock)
    out.to(session, TextLine.of(Text.CHOUETTE_CREATED, name=session.name, n=table_id, text=described))
    if isinstance(dice, SeededDice):
        out.to(session, TextLine.of(Text.CHOUETTE_DICE_COMMITMENT, commitment=dice.commitment))
    table.persist(out)


def join(registry: Registry, session: Session, typed: str, out: Outcome) -> None:
    target = registry.find(typed)
    name = target.name if target is not None else typed
    table = find(registry, name)
    if table is None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOBODY_THERE, name=name))
        return
    me = session.name
    table.present[session.key] = session  # (he hears his own arrival)
    if not table.act(session, lambda: table.engine.join(me), out):
        del table.present[session.key]
    else:
        session.chouette = table
        commitment = table.dice.commitment if isinstance(table.dice, SeededDice) else None
        if commitment is not None:
            out.to(session, TextLine.of(Text.CHOUETTE_DICE_COMMITMENT, commitment=commitment))
        if table.engine.phase is TablePhase.BETWEEN_GAMES and table.engine.game is None:
            table.next_game(out)  # it was waiting for players
        settle(registry, table, out)


def leave(registry: Registry, session: Session, now: bool, out: Outcome) -> None:
    table = session.chouette
    assert table is not None
    me = table.seated_name(session.name) or session.name
    table.act(session, lambda: table.engine.leave(me, now=now), out)  # (he hears it too)
    settle(registry, table, out)


def kick(registry: Registry, session: Session, typed: str, out: Outcome) -> None:
    table = session.chouette
    assert table is not None
    if session.name.lower() != table.owner.lower():
        out.to(session, TextLine.of(Text.CHOUETTE_OWNER_ONLY, name=table.owner))
        return
    name = table.seated_name(typed)
    if name is None:
        out.to(session, TextLine.of(Text.CHOUETTE_NOT_SEATED))
        return
    table.tell_all(out, TextLine.of(Text.CHOUETTE_KICKED, name=name))
    table.act(session, lambda: table.engine.leave(name, now=True), out)
    settle(registry, table, out)


def start(registry: Registry, session: Session, out: Outcome) -> None:
    table = session.chouette
    assert table is not None
    if table.engine.phase in (TablePhase.ORDERING, TablePhase.BETWEEN_GAMES, TablePhase.PLAYING):
        out.to(session, TextLine.of(Text.CHOUETTE_ALREADY_STARTED))
        return
    try:
        table.start(out)
    except ChouetteError as error:
        out.to(session, refusal(error))
        return
    settle(registry, table, out)


def close(registry: Registry, session: Session, out: Outcome) -> None:
    table = session.chouette
    assert table is not None
    if session.name.lower() != table.owner.lower():
        out.to(session, TextLine.of(Text.CHOUETTE_OWNER_ONLY, name=table.owner))
        return
    table.close(out, session)
    settle(registry, table, out)


# ------------------------------------------------------------------ presence


def arrive(registry: Registry, session: Session, out: Outcome) -> None:
    """A user logs in (or takes over his own session): back to his chouette, if any."""
    table = find(registry, session.name)
    if table is None:
        return
    older = table.present.get(session.key)
    if older is not None and older is not session:
        older.chouette = None
    session.chouette = table
    chouette_presence.arrive(table, session, out)
    settle(registry, table, out)


def depart(registry: Registry, session: Session, out: Outcome) -> None:
    """A user at a chouette left the server: the table waits, then the rules decide."""
    table = session.chouette
    if table is None:
        return
    session.chouette = None
    chouette_presence.depart(table, session, registry.config.reconnect_grace_seconds, out)
    settle(registry, table, out)


# ------------------------------------------------------------------ time


def tick_table(registry: Registry, table: ChouetteTable[Session], out: Outcome,
               now: float | None = None) -> None:
    when = registry.clock.now() if now is None else now
    chouette_clock.check(table, when, out)  # (a side out of time loses the game first)
    chouette_presence.tick(table, when, registry.config.reconnect_grace_seconds, out)
    settle(registry, table, out)


def tick(registry: Registry, now: float | None = None) -> Outcome:
    """Every table's deadlines (`fibsd.app.timers.tick`, the core's one tick, calls it)."""
    out = Outcome()
    for table in list(tables(registry).values()):
        tick_table(registry, table, out, now)
    return out
