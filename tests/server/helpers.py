"""Dialogues shared by the end-to-end tests: register an account, log in by CLIP or telnet;
wait for the server's house bots."""

from __future__ import annotations

from typing import Any

import trio

from tests.server.client import TestClient

#: A bound for what waits on a house bot (its start, its answer to an invitation). The
#: server runs its bots at the lowest CPU priority (nice 19): with both cores busy they
#: get about one part in seventy of a core, and a bot's start (Python, then gnubg loading
#: its networks) takes a minute instead of a second. The waits are on conditions; this
#: is only the bound against a bot that never comes.
HOUSE_BOT_SECONDS = 180.0


async def register(running: Any, name: str, password: str = "secret") -> None:
    """Create an account through the guest dialogue, then disconnect."""
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("guest")
    await client.expect_prompt("> ")
    await client.send(f"name {name}")
    await client.expect_prompt("Please give your password: ")
    await client.send(password)
    await client.expect_prompt("Please retype your password: ")
    await client.send(password)
    lines = await client.expect_prompt("> ")
    assert "You are registered." in lines, lines
    await client.send("bye")
    await client.read_all_until_closed()


async def clip_login(running: Any, name: str, password: str = "secret", client_name: str = "testclient", version: int = 1008) -> tuple[TestClient, list[str]]:
    """Log in with CLIP; returns the client and every line up to the end of the who list."""
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send(f"login {client_name} {version} {name} {password}")
    lines = await client.read_until("6")
    return client, lines


async def telnet_login(running: Any, name: str, password: str = "secret") -> tuple[TestClient, list[str]]:
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send(name)
    await client.expect_prompt("password: ")
    await client.send(password)
    lines = await client.expect_prompt("> ")
    return client, lines


async def house_bots_online(server: Any, names: list[str]) -> None:
    """Wait until every house bot in `names` is logged in to `server` (a fibsd Server) and
    ready to play, as the registry sees it."""
    bots = server.house_bots
    with trio.fail_after(HOUSE_BOT_SECONDS):
        while not all((session := server.registry.get(name)) is not None
                      and session.account.toggles.ready for name in names):
            with trio.move_on_after(0.2):  # (a login renews no event here: look again)
                await bots.changed.wait()


async def playing(server: Any, name: str, opponent: str) -> None:
    """Wait until `name` plays a match with `opponent` on `server` (a house bot took up an
    invitation, say)."""
    with trio.fail_after(HOUSE_BOT_SECONDS):
        while (session := server.registry.get(name)) is None or session.opponent_name != opponent:
            await trio.sleep(0.05)  # (no event says so: look again)
