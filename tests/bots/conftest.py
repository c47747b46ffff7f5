"""The real-server fixture of the end-to-end tests, shared with the bot tests."""

from tests.server.conftest import start_server

__all__ = ["start_server"]
