"""Logins are announced together: one piece per recipient per batch, newcomers hearing
only of those who came after them (their who list showed the others)."""

from __future__ import annotations

import attrs

from fibsd.accounts import Account
from fibsd.clock import ManualClock
from fibsd.app import presence
from fibsd.app.outcome import ClipBytes, Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from protocol.messages import LoginNotice
from tests.app.test_registry_departures import _registry


def _log_in(registry: Registry, clock: ManualClock, name: str, *, clip: bool = True,
            notify: bool = True) -> tuple[Session, Outcome]:
    account = Account.new(name, "hash", clock.now())
    if not notify:
        account = attrs.evolve(account, toggles=account.toggles.with_value("notify", False))
    session = Session(account=account, clip=clip, clip_version=1008,
                      client_name=None, host="10.0.0.1", login_at=clock.now(), prompts=not clip)
    return session, presence.log_in(registry, session, previous_login_at=None, previous_host=None)


def _announced(registry: Registry, outcomes: list[Outcome]) -> dict[str, list[object]]:
    for outcome in outcomes:
        registry.add_arrivals(outcome.arrivals)
    heard: dict[str, list[object]] = {}
    for recipient, message in registry.take_arrivals().pairs():
        assert isinstance(recipient, Session)
        heard.setdefault(recipient.name, []).append(message)
    return heard


def test_a_login_storm_reaches_each_user_as_one_piece_in_login_order() -> None:
    registry, clock = _registry()
    for name, clip, notify in (("old", True, True), ("quiet", True, False), ("telly", False, True)):
        _log_in(registry, clock, name, clip=clip, notify=notify)  # (not announced here)
    logins = [_log_in(registry, clock, name) for name in ("ann", "ben", "cat")]
    # The logins' own outcomes announce nothing to anyone else.
    for session, outcome in logins:
        assert all(recipient is session for recipient, _ in outcome.pairs())
        assert len(outcome.arrivals) == 1
    assert not registry.arrivals_pending  # until the shell has committed them
    heard = _announced(registry, [outcome for _, outcome in logins])
    assert not registry.arrivals_pending

    def clip_lines(name: str) -> list[str]:
        (piece,) = heard[name]  # one piece each
        assert isinstance(piece, ClipBytes)
        return piece.lines()

    # Users online before the storm hear of all three, in order: notify on, 7 then 5/6.
    lines = clip_lines("old")
    assert [line.split()[:2] for line in lines if line[:1] in "75"] == [
        ["7", "ann"], ["5", "ann"], ["7", "ben"], ["5", "ben"], ["7", "cat"], ["5", "cat"]]
    # notify off: the who-info only.
    assert [line.split()[:2] for line in clip_lines("quiet") if line[:1] in "75"] == [
        ["5", "ann"], ["5", "ben"], ["5", "cat"]]
    # telnet with notify: the login notices, nothing of CLIP.
    assert heard["telly"] == [LoginNotice.logs_in(name) for name in ("ann", "ben", "cat")]
    # Newcomers: only those after them (ann's who list had neither ben nor cat; cat's
    # had everyone).
    assert [line.split()[:2] for line in clip_lines("ann") if line[:1] == "7"] == [["7", "ben"], ["7", "cat"]]
    assert [line.split()[:2] for line in clip_lines("ben") if line[:1] == "7"] == [["7", "cat"]]
    assert "cat" not in heard


def test_a_single_arrival_to_a_user_without_notify_is_a_status_line_that_coalesces() -> None:
    registry, clock = _registry()
    quiet, _ = _log_in(registry, clock, "quiet", notify=False)
    newcomer, outcome = _log_in(registry, clock, "newcomer")
    heard = _announced(registry, [outcome])
    (piece,) = heard["quiet"]
    assert isinstance(piece, ClipBytes) and piece.status_of == newcomer.key
    assert quiet is not newcomer
