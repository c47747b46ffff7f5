"""End-to-end: every abuse limit, every operator command, every registration policy."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import trio

from tests.server.helpers import clip_login, register
from tests.server.players import Player


async def test_command_flood_gets_warnings_then_disconnection(start_server: Any) -> None:
    # One token per 10 s: within this test the bucket does not refill, so counts are exact.
    running = await start_server(**{"limits.commands_per_second": 0.1, "limits.command_burst": 5,
                                    "limits.flood_warnings": 2})
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    for _ in range(5):
        await alice.send("time")
        await alice.read_line()
    await alice.send("time")
    assert await alice.read_line() == "** Please slow down: you are sending commands too fast."
    await alice.send("time")
    assert await alice.read_line() == "** Please slow down: you are sending commands too fast."
    await alice.send("time")
    rest = await alice.read_all_until_closed()
    assert rest == ["** Too many commands. Closing the connection."]
    # The limit is per session: logging in again works at once.
    again, lines = await clip_login(running, "alice")
    assert lines[0].startswith("1 alice ")


async def test_shout_interval(start_server: Any) -> None:
    running = await start_server(**{"limits.shout_interval_seconds": 10.0})
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    await alice.send("shout one")
    assert await alice.read_line() == "17 one"
    running.clock.advance(4)
    await alice.send("shout two")
    assert await alice.read_line() == "** Please wait 6 seconds before shouting again."
    running.clock.advance(6)
    await alice.send("shout three")
    assert await alice.read_line() == "17 three"


async def test_connections_per_address(start_server: Any) -> None:
    running = await start_server(**{"limits.max_connections_per_address": 2})
    first, second = await running.connect(), await running.connect()
    await first.expect_prompt("login: ")
    await second.expect_prompt("login: ")
    third = await running.connect()
    assert await third.read_all_until_closed() == ["** Too many connections from your address."]
    await first.close()
    with trio.fail_after(5):  # until the server has seen the close (bounded)
        while running.server.connections_per_address.open_count("127.0.0.1") > 1:
            await trio.sleep(0.01)
    fourth = await running.connect()
    await fourth.expect_prompt("login: ")


async def test_allow_list(start_server: Any) -> None:
    running = await start_server(**{"club.allowed_networks": ["10.0.0.0/8"]})
    client = await running.connect()
    assert await client.read_all_until_closed() == ["** Connections from your address are not allowed here."]


async def test_login_failures_delay_then_block_per_account(start_server: Any) -> None:
    running = await start_server(**{
        "limits.login_failures_before_delay": 1, "limits.login_failures_before_block": 3,
        "limits.login_block_seconds": 600.0,
    })
    await register(running, "alice")
    client = await running.connect()
    await client.expect_prompt("login: ")
    for _ in range(3):
        await client.send("login x 1008 alice wrong")
        await client.expect_prompt("login: ", timeout=10)
    # Blocked now: even the right password is refused, from a new connection too.
    other = await running.connect()
    await other.expect_prompt("login: ")
    await other.send("login x 1008 alice secret")
    lines = await other.read_all_until_closed()
    assert lines == ["** Too many failed logins. Please try again in 10 minutes."]
    running.clock.advance(601)
    third, lines = await clip_login(running, "alice")
    assert lines[0].startswith("1 alice ")


async def test_new_accounts_per_address(start_server: Any) -> None:
    running = await start_server(**{"limits.new_accounts_per_address_per_hour": 1})
    await register(running, "alice")
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("guest")
    await client.expect_prompt("> ")
    await client.send("name bob")
    assert await client.expect_prompt("> ") == ["** Too many new accounts from your address. Please try again later."]
    running.clock.advance(3601)
    await client.send("name bob")
    await client.expect_prompt("Please give your password: ")


async def test_closed_club_refuses_guests_and_adduser_creates_accounts(start_server: Any, tmp_path: Any) -> None:
    running = await start_server(**{"club.registration": "closed", "admin.admins": ["root"]})
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("guest")
    lines = await client.expect_prompt("login: ")
    assert lines[0] == "** Registration is closed on this server. Please ask the operator for an account."
    # The operator creates the first account from the command line ...
    result = subprocess.run(
        [sys.executable, "-m", "fibsd", "adduser", "--db", str(running.db_path), "--password-stdin", "root"],
        input="rootpass\n", capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Account root created."
    root, _ = await clip_login(running, "root", "rootpass")
    # ... and an admin creates more from inside.
    await root.send("adduser carol carolpw")
    assert (await root.read_until(lambda line: line.startswith("** Account")))[-1] == "** Account carol created."
    carol, lines = await clip_login(running, "carol", "carolpw")
    assert lines[0].startswith("1 carol ")


async def test_registration_by_invitation_code(start_server: Any) -> None:
    running = await start_server(**{"club.registration": "code", "admin.admins": ["root"]})
    subprocess.run(
        [sys.executable, "-m", "fibsd", "adduser", "--db", str(running.db_path), "--password-stdin", "root"],
        input="rootpass\n", capture_output=True, text=True, timeout=60, check=True,
    )
    root, _ = await clip_login(running, "root", "rootpass")
    await root.send("invitecode 1")
    lines = await root.read_until(lambda line: line.startswith("  "))
    code = lines[-1].strip()
    guest = await running.connect()
    await guest.expect_prompt("login: ")
    await guest.send("guest")
    await guest.expect_prompt("> ")
    await guest.send("name dora")
    await guest.expect_prompt("Please give your invitation code: ")
    await guest.send("not-a-code")
    assert await guest.expect_prompt("> ") == ["** That invitation code is not valid."]
    await guest.send("name dora")
    await guest.expect_prompt("Please give your invitation code: ")
    await guest.send(code)
    await guest.expect_prompt("Please give your password: ")
    await guest.send("dorapw")
    await guest.expect_prompt("Please retype your password: ")
    await guest.send("dorapw")
    assert "You are registered." in await guest.expect_prompt("> ")
    # A code registers one account only.
    other = await running.connect()
    await other.expect_prompt("login: ")
    await other.send("guest")
    await other.expect_prompt("> ")
    await other.send("name emil")
    await other.expect_prompt("Please give your invitation code: ")
    await other.send(code)
    assert await other.expect_prompt("> ") == ["** That invitation code is not valid."]


async def test_admin_commands(start_server: Any) -> None:
    running = await start_server(**{"admin.admins": ["root"]})
    for name in ("root", "alice", "quiet"):
        await register(running, name)
    root = await Player.join_server(running, "root", register_first=False, ready=False)
    alice = await Player.join_server(running, "alice", register_first=False, ready=False)
    quiet = await Player.join_server(running, "quiet", register_first=False, ready=False)
    await quiet.command("toggle silent", "** You won't hear what other players shout.")
    # Only admins.
    await alice.command("kick root", "** Permission denied")
    await alice.command("shutdown", "** Permission denied")
    # broadcast reaches silent users too
    await root.send("broadcast maintenance at noon")
    for player in (root, alice, quiet):
        await player.expect("*** Message from the administrator root: maintenance at noon")
    # mute / unmute
    await root.command("mute alice 5", "** alice is muted for 5 minutes.")
    await alice.command("tell root hi", "** You are muted: you cannot talk to other users now.")
    await alice.command("shout hi", "** You are muted: you cannot talk to other users now.")
    await root.command("unmute alice", "** alice may talk again.")
    await alice.command("tell root hi", "16 root hi")
    # kick
    await root.command("kick quiet", "** quiet has been disconnected.")
    assert "** You have been disconnected by an administrator." in await quiet.client.read_all_until_closed()
    # ban an account: it is thrown out and cannot log in until unbanned
    await root.command("ban alice 60 spam", "** alice is banned for 60 minutes.")
    assert "** You are banned from this server." in await alice.client.read_all_until_closed()
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("login x 1008 alice secret")
    assert await client.read_all_until_closed() == ["** You are banned from this server."]
    await root.command("unban alice", "** alice is no longer banned.")
    await root.command("unban alice", "** alice was not banned or muted.")
    alice_again, lines = await clip_login(running, "alice")
    assert lines[0].startswith("1 alice ")
    # ban an address: new connections from it are refused (the admin's own stays)
    await root.command("ban 127.0.0.1 1", "** 127.0.0.1 is banned for 1 minutes.")
    refused = await running.connect()
    assert await refused.read_all_until_closed() == ["** You are banned from this server."]
    await root.command("unban 127.0.0.1", "** 127.0.0.1 is no longer banned.")
    # a timed ban ends by itself
    await root.command("ban alice 1", "** alice is banned for 1 minutes.")
    running.clock.advance(61)
    alice_later, lines = await clip_login(running, "alice")
    assert lines[0].startswith("1 alice ")


async def test_help_lists_operator_commands_to_operators_only(start_server: Any) -> None:
    # Issue 32 §4: `help` showed kick, ban, shutdown... to everyone, in no order.
    running = await start_server(**{"admin.admins": ["root"]})
    for name in ("root", "alice"):
        await register(running, name)
    listed = {}
    for name in ("root", "alice"):
        player = await Player.join_server(running, name, register_first=False, ready=False)
        await player.send("help")
        lines = await player.client.read_until(lambda line: line.startswith("Type 'help <command>'"))
        lines = await player.client.read_until(lambda line: line.split()[-1:] == ["whois"])
        listed[name] = " ".join(lines).split()
    assert listed["alice"] == sorted(listed["alice"]) and listed["root"] == sorted(listed["root"])
    assert not {"kick", "ban", "unban", "mute", "broadcast", "shutdown", "adduser", "setbot"} & set(listed["alice"])
    assert {"kick", "ban", "broadcast", "shutdown"} <= set(listed["root"])
    assert {"invite", "move", "tournament", "chouette"} <= set(listed["alice"])


async def test_admin_shutdown_counts_down_and_saves(start_server: Any) -> None:
    running = await start_server(**{"admin.admins": ["root"]})
    await register(running, "root")
    root = await Player.join_server(running, "root", register_first=False, ready=False)
    await root.send("shutdown 1")
    await root.expect("*** ATTENTION ! FIBS will shut down in 1 seconds")
    rest = await root.client.read_all_until_closed(timeout=10)
    assert "*** ATTENTION ! FIBS will shut down in 0 seconds" in rest


async def test_the_club_name_is_in_the_banner_and_the_motd(start_server: Any) -> None:
    running = await start_server(**{"server.club_name": "Backgammon Club Bonn"})
    client = await running.connect()
    banner = await client.expect_prompt("login: ")
    assert any("Backgammon Club Bonn" in line for line in banner)
    await register(running, "alice")
    alice, lines = await clip_login(running, "alice")
    motd = lines[lines.index("3") + 1: lines.index("4")]
    assert any("Backgammon Club Bonn" in line for line in motd)
