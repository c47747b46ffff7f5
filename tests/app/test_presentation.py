"""The cached CLIP 5 line (`who_line`) always equals the line built from scratch."""

from __future__ import annotations

import attrs

from fibsd.domain.accounts import Account
from fibsd.app.presentation import who_info, who_line
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.infra.wallclock import ManualClock
from fibsd.infra.config import Config
from fibsd.infra.passwords import PasswordHasher
from fibsd.store.sqlite import SQLiteStore as Store
from protocol.framing import encode_line


def _session(name: str, registry: Registry, clock: ManualClock) -> Session:
    return Session(
        account=Account.new(name, "hash", clock.now()), clip=True,
        clip_version=1008, client_name="some client", host="10.0.0.1",
        login_at=clock.now(), prompts=False,
    )


def test_who_line_follows_every_change_of_what_it_shows() -> None:
    clock = ManualClock()
    store = Store.open(":memory:")
    config = Config.from_mapping({"server": {"motd_file": "/nonexistent/motd"}})
    registry = Registry(config=config, store=store, clock=clock,
                        hasher=PasswordHasher.for_tests("pbkdf2_sha256"))
    alice, bob = _session("alice", registry, clock), _session("bob", registry, clock)

    def fresh() -> bytes:
        return encode_line(who_info(alice, clock.now()).clip_line())

    seen = [who_line(alice, clock.now())]
    assert seen[-1] == fresh()
    changes = [
        lambda: clock.advance(61),  # idle time
        lambda: setattr(alice, "away_message", "lunch"),
        lambda: setattr(alice, "account", attrs.evolve(
            alice.account, toggles=alice.account.toggles.with_value("ready", True))),
        lambda: setattr(alice, "account", attrs.evolve(alice.account, rating=1612.5, experience=7)),
        lambda: setattr(alice, "account", attrs.evolve(alice.account, email="a@example.org")),
        lambda: setattr(alice, "watching", bob),
        lambda: setattr(alice, "away_message", None),
        lambda: setattr(alice, "last_input_at", clock.now()),  # a command resets idle
    ]
    for change in changes:
        change()
        line = who_line(alice, clock.now())
        assert line == fresh()
        assert line != seen[-1]
        seen.append(line)
    assert b" bob " in seen[-1] and b" 1612.50 7 " in seen[-1]
