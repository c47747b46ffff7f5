"""The ports the server listens on: opening them, and naming one that cannot be opened.

Each listener (the game port, its TLS twin, the web port and its TLS twin) is opened
here and logged with the address it got; a port that cannot be opened (another program
listens there, say) stops start-up with a `ListenError` that says which listener, which
setting chooses its port, and why (issue 20 §6). `peer_host` is the address a
connection comes from, through TLS and WebSocket wrappers. `fibsd.shell.server` serves
what these open.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Iterator
from contextlib import contextmanager

import trio

from fibsd.shell.web import WebSocketStream

log = logging.getLogger("fibsd.shell.server")

#: The listeners, as a start-up error names them (with the settings that choose the port).
GAME_PORT = "the game port: [server] port, --port"
TLS_PORT = "the TLS port: [tls] tls_port"
WEB_PORT = "the web port: [web] web_port, --web-port"
WEB_TLS_PORT = "the web TLS port: [web] web_tls_port"


class ListenError(Exception):
    """A listener could not open its port (another program listens there, say): which
    listener and port, and why, in one line (issue 20 §6)."""

    def __init__(self, listener: str, host: str, port: int, error: OSError) -> None:
        self.listener = listener
        self.port = port
        self.error = error
        super().__init__(f"cannot listen on {host}:{port} ({listener}): {error.strerror or error}")


@contextmanager
def naming_the_port(listener: str, host: str, port: int) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise ListenError(listener, host, port, error) from error


async def open_plain(listener: str, host: str, port: int, what: str) -> list[trio.SocketListener]:
    """TCP listeners on `host`:`port` (all of the host's addresses), logged as
    "listening`what` on ADDRESS" (`what`: "", " for TLS", ...)."""
    with naming_the_port(listener, host, port):
        opened = await trio.open_tcp_listeners(port, host=host)
    for one in opened:
        sockname = one.socket.getsockname()
        log.info("listening%s on %s:%s", what, sockname[0], sockname[1])
    return opened


async def open_tls(listener: str, host: str, port: int, context: ssl.SSLContext,
                   what: str) -> list[trio.SSLListener[trio.SocketStream]]:
    """TLS listeners (the handshake happens lazily, on a connection's first read or
    write), logged as `what`."""
    with naming_the_port(listener, host, port):
        opened = await trio.open_ssl_over_tcp_listeners(port, context, host=host)
    for one in opened:
        if isinstance(transport := one.transport_listener, trio.SocketListener):
            sockname = transport.socket.getsockname()
            log.info("listening%s on %s:%s", what, sockname[0], sockname[1])
    return opened


def peer_host(stream: trio.abc.Stream) -> str:
    """The address a connection comes from ("unknown" if the stream does not say)."""
    # A TLS connection is an SSLStream over the SocketStream that knows the peer; a
    # WebSocket wraps either.
    while isinstance(stream, (trio.SSLStream, WebSocketStream)):
        stream = stream.transport_stream
    if not isinstance(stream, trio.SocketStream):
        return "unknown"
    try:
        address = stream.socket.getpeername()
    except OSError:
        return "unknown"
    return str(address[0])
