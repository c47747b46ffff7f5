"""fibsd's invitation extras for the web client: `uninvite` withdraws an invitation, and the
option words `nocrawford` and `beavers` (with `holland`, `jacoby`) set the match's rules,
which the invitee is told in one extension line."""

from __future__ import annotations

from fibsd.domain.dice import ScriptedDice
from tests.app.driver import CoreDriver


def _driver() -> CoreDriver:
    d = CoreDriver(ScriptedDice([3, 1, 6, 5], coin=0))
    d.create("alice", "bob", ready=True)
    for name in ("alice", "bob"):
        d.log_in(name)
        d.send(name, "toggle extensions")
    d.take("alice"), d.take("bob")
    return d


def test_uninvite_withdraws_the_invitation_and_tells_the_invitee() -> None:
    d = _driver()
    assert d.send("alice", "uninvite") == ["** You have not invited anyone."]
    d.send("alice", "invite bob 5")
    d.take("bob")
    assert d.send("alice", "uninvite") == ["** You withdrew your invitation to bob."]
    assert d.take("bob") == ["** alice withdrew the invitation."]
    assert d.send("bob", "join alice") == ["** alice didn't invite you."]


def test_nocrawford_and_beavers_are_the_invitations_rules() -> None:
    d = _driver()
    d.send("alice", "invite bob 3 holland nocrawford")
    assert d.take("bob")[-1] == "** The invitation's rules: Holland rule, no Crawford rule."
    d.send("bob", "join alice")
    table = d.sessions["alice"].table
    assert table is not None and table.crawford_disabled and table.match.options.holland
    d.send("alice", "leave")
    d.send("alice", "invite bob unlimited beavers jacoby")
    assert "** The invitation's rules: beavers, Jacoby rule." in d.take("bob")
    d.send("bob", "join alice")
    table = d.sessions["alice"].table
    assert table is not None and table.match.options.beavers and table.match.options.jacoby
    assert not table.crawford_disabled or table.match.length is None


def test_without_extensions_the_invitee_gets_only_fibs_lines() -> None:
    d = CoreDriver(ScriptedDice([3, 1], coin=0))
    d.create("alice", "bob", ready=True)
    d.log_in("alice"), d.log_in("bob")
    d.take("bob")
    d.send("alice", "invite bob 3 nocrawford")
    assert d.take("bob") == ["alice wants to play a 3 point match with you.", "Type 'join alice' to accept."]
    d.send("alice", "uninvite")
    assert d.take("bob") == []
