"""The robustness tests reuse the end-to-end server fixture (`start_server`)."""

from tests.server.conftest import start_server

__all__ = ["start_server"]
