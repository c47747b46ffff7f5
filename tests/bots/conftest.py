"""The real-server fixture of the end-to-end tests, shared with the bot tests.

Bots run against the server's wall clock (`SystemClock`): the server's flood limit refills
with time, and a bot is meant to stay under it by pacing itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from fibsd.infra.wallclock import SystemClock
from tests.server.conftest import start_server

__all__ = ["bot_server", "start_server"]


@pytest.fixture
async def bot_server(start_server: Any) -> Any:
    """A real server on 127.0.0.1 with secure dice and the wall clock."""
    return await start_server(clock=SystemClock())
