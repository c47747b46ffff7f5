"""Dialogues shared by the end-to-end tests: register an account, log in by CLIP or telnet."""

from __future__ import annotations

from typing import Any

from tests.server.client import TestClient


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
