"""Departures are announced together: one piece per recipient, every notice, in order."""

from __future__ import annotations

import attrs

from fibsd.domain.accounts import Account
from fibsd.app import presence
from fibsd.app.outcome import ClipBytes, Lines
from fibsd.app.registry import Registry
from fibsd.app.session import Departure, Session
from fibsd.infra.wallclock import ManualClock
from fibsd.infra.config import Config
from fibsd.infra.passwords import PasswordHasher
from fibsd.store.sqlite import SQLiteStore as Store


def _registry() -> tuple[Registry, ManualClock]:
    clock = ManualClock()
    config = Config.from_mapping({"server": {"motd_file": "/nonexistent/motd"}})
    registry = Registry(config=config, store=Store.open(":memory:"), clock=clock,
                        hasher=PasswordHasher.for_tests("pbkdf2_sha256"))
    return registry, clock


def _arrive(registry: Registry, clock: ManualClock, name: str, *, clip: bool = True,
            notify: bool = True) -> Session:
    account = Account.new(name, "hash", clock.now())
    if not notify:
        account = attrs.evolve(account, toggles=account.toggles.with_value("notify", False))
    session = Session(account=account, clip=clip, clip_version=1008,
                      client_name=None, host="10.0.0.1", login_at=clock.now(), prompts=not clip)
    presence.log_in(registry, session, previous_login_at=None, previous_host=None)
    return session


def test_departures_wait_for_their_commit_and_go_out_as_one_piece_each() -> None:
    registry, clock = _registry()
    alice = _arrive(registry, clock, "alice")
    telly = _arrive(registry, clock, "telly", clip=False)
    _arrive(registry, clock, "quiet", notify=False)
    leavers = [_arrive(registry, clock, name) for name in ("bob", "carol", "dave")]
    outcomes = [presence.log_out(registry, leaver, how) for leaver, how in
                zip(leavers, (Departure.DROPPED, Departure.LOGGED_OUT, Departure.WAVED))]
    # Nothing is announced by the logouts themselves: the notices ride on the outcomes,
    # and only notices the shell has committed are sent.
    for outcome in outcomes:
        assert not any(isinstance(message, ClipBytes) and b"8 " in message.data
                       for _recipient, message in outcome.pairs())
    assert not registry.departures_pending
    for outcome in outcomes:
        registry.add_departures(outcome.departures)
    announced = registry.take_departures()
    pieces = list(announced.pairs())
    assert [recipient for recipient, _ in pieces] == [alice, telly]  # quiet has notify off
    clip_piece = pieces[0][1]
    assert isinstance(clip_piece, ClipBytes)
    assert clip_piece.lines() == [
        "8 bob bob drops connection.",
        "8 carol carol logs out.",
        "8 dave dave waves goodbye again.",
    ]
    telnet_piece = pieces[1][1]
    assert isinstance(telnet_piece, Lines) and len(telnet_piece.lines) == 3
    assert all(name in line for name, line in zip(("bob", "carol", "dave"), telnet_piece.lines))
    assert not registry.departures_pending
    assert list(registry.take_departures().pairs()) == []
