from __future__ import annotations

from typing import Any


async def test_banner_and_login_prompt(start_server: Any) -> None:
    running = await start_server()
    client = await running.connect()
    banner = await client.expect_prompt("login: ")
    assert any("One account per person only!" in line for line in banner)
    assert not any(line[:1].isdigit() for line in banner)
