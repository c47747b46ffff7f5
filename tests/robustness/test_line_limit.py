"""Protocol abuse is answered with a short notice, then the connection is closed.

architecture.md ("Errors"): a line over the limit is protocol abuse: "a short notice",
connection closed. Logged-in users get `** Line too long. Closing the connection.`; these
tests hold the login prompt (where bots and scanners arrive) to the same rule, for a plain
over-long line and for a telnet subnegotiation that never ends (its bytes count against
the line too).
"""

from __future__ import annotations

from typing import Any

import pytest

from protocol.wording import Text
from tests.robustness.attackers import clip_login_from, connect_from
from tests.robustness.test_abuse import create_accounts

OVER_LONG_INPUTS = {
    "plain": lambda limit: b"x" * (limit + 10) + b"\r\n",
    "endless subnegotiation": lambda limit: b"\xff\xfa\x18" + b"A" * (limit + 10),
}


@pytest.mark.parametrize("kind", sorted(OVER_LONG_INPUTS))
async def test_over_long_input_after_login_gets_the_notice(start_server: Any, kind: str) -> None:
    running = await start_server()
    create_accounts(running, ["alice"])
    client = await clip_login_from(running, 2, "alice")
    await client.stream.send_all(OVER_LONG_INPUTS[kind](running.server.config.max_line_bytes))
    lines = await client.read_all_until_closed()
    assert Text.LINE_TOO_LONG.value in lines, lines
    assert running.server.registry.get("alice") is None


@pytest.mark.parametrize("kind", sorted(OVER_LONG_INPUTS))
async def test_over_long_input_at_the_login_prompt_gets_the_notice(start_server: Any, kind: str) -> None:
    running = await start_server()
    client = await connect_from(running, 2)
    await client.expect_prompt("login: ")
    await client.stream.send_all(OVER_LONG_INPUTS[kind](running.server.config.max_line_bytes))
    lines = await client.read_all_until_closed()
    assert Text.LINE_TOO_LONG.value in lines, f"closed without a notice: {lines}"
