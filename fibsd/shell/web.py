"""The web listener (issue 16): HTTP for the bundled web client, WebSocket for any browser.

Owns one HTTP/1.1 port: `GET /` and the other files of `fibsd/webclient/` are served from
memory, and `GET /fibs` (or `GET /` asking for an upgrade) becomes a WebSocket that carries
exactly the byte stream of a TCP connection, binary frames both ways (text frames from the
client are accepted too, as their UTF-8 bytes). Browsers cannot open TCP sockets; this lets
the bundled page, or any FIBS client running in a browser, reach fibsd without a bridge.

It owns nothing of the conversation: `WebSocketStream` adapts an upgraded connection to the
`trio.abc.Stream` interface, and the server's own per-connection path (refusals, login
dialogue, limits, logging, shutdown) takes it from there, like a TLS stream.

Libraries: h11 parses HTTP (requests, keep-alive, the 101 switch) and wsproto frames the
WebSocket after it. Both are sans-I/O, so trio drives them directly and each connection
stays one task plus the connection's writer task. (trio-websocket, on the same wsproto,
rejects every request that is not an upgrade, so it could not serve the page on the same
port, and its message queue would sit between the socket and the line reader.) No
permessage-deflate: CLIP lines are short, and inflating is a way to make a small frame big.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import importlib.resources
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import h11
import trio
from wsproto.connection import Connection as WSConnection
from wsproto.connection import ConnectionState, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, TextMessage
from wsproto.frame_protocol import CloseReason
from wsproto.utilities import generate_accept_token

log = logging.getLogger("fibsd.shell.web")

#: The paths that upgrade to the WebSocket (`/fibs` is what clients are told to use).
WEBSOCKET_PATHS: Final = frozenset({"/fibs", "/"})
#: An HTTP request head larger than this gets 431 (h11's own bound on buffered input).
MAX_REQUEST_HEAD_BYTES: Final = 16 * 1024
#: A request body is never needed; one larger than this closes the connection.
MAX_REQUEST_BODY_BYTES: Final = 64 * 1024
#: Requests served on one keep-alive connection before it is closed.
MAX_REQUESTS_PER_CONNECTION: Final = 100
#: How long an idle keep-alive connection stays open.
KEEP_ALIVE_SECONDS: Final = 30.0

_READ_BYTES: Final = 16 * 1024

_CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
# The page loads only its own files and talks only to this server.
_SECURITY_HEADERS: Final = [
    ("Content-Security-Policy",
     "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-cache"),
]


def load_static_files() -> dict[str, tuple[bytes, str]]:
    """The web client's files by URL path (`/` is index.html), with their content types."""
    files: dict[str, tuple[bytes, str]] = {}
    for entry in importlib.resources.files("fibsd.webclient").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in _CONTENT_TYPES:
            files["/" + entry.name] = (entry.read_bytes(), _CONTENT_TYPES[suffix])
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


class WebSocketStream(trio.abc.Stream):
    """An upgraded WebSocket connection seen as a byte stream: what the client sends in
    data frames is received in order, what is sent goes out as one binary frame per
    `send_all`. Pings are answered, a close frame (or a protocol error, answered with a
    close frame naming it) ends the input like a closed TCP connection."""

    def __init__(self, transport: trio.abc.Stream, peer: str, trailing_data: bytes) -> None:
        self.transport_stream = transport
        #: The peer's address (the TCP peer: a reverse proxy, if there is one).
        self.peer = peer
        self._ws = WSConnection(ConnectionType.SERVER, trailing_data=trailing_data)
        self._incoming = bytearray()
        self._input_ended = False
        # Replies to pings and closes come from the reader while the connection's writer
        # task may be sending: one send at a time on the transport.
        self._send_lock = trio.StrictFIFOLock()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        while not self._incoming and not self._input_ended:
            await self._handle_events()
            if self._incoming or self._input_ended:
                break
            data = await self.transport_stream.receive_some(_READ_BYTES)
            if self._ws.state is ConnectionState.CLOSED:
                self._input_ended = True
            else:
                self._ws.receive_data(bytes(data) if data else None)
        size = len(self._incoming) if max_bytes is None else max_bytes
        chunk = bytes(self._incoming[:size])
        del self._incoming[:size]
        return chunk

    async def _handle_events(self) -> None:
        for event in self._ws.events():
            if isinstance(event, BytesMessage):
                self._incoming += event.data
            elif isinstance(event, TextMessage):
                self._incoming += event.data.encode("utf-8")
            elif isinstance(event, Ping):
                await self._send_frame(self._ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                self._input_ended = True
                if self._ws.state is ConnectionState.REMOTE_CLOSING:
                    await self._send_frame(self._ws.send(event.response()))
                elif self._ws.state is ConnectionState.OPEN:
                    # A protocol error (bad framing, bad UTF-8 in a text frame, ...):
                    # wsproto names it, the client hears why before the connection ends.
                    log.info("websocket from %s: %s", self.peer, event.reason)
                    await self._send_frame(self._ws.send(CloseConnection(event.code, event.reason)))
                return  # nothing after a close counts

    async def _send_frame(self, data: bytes) -> None:
        try:
            async with self._send_lock:
                await self.transport_stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._input_ended = True

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._ws.state is not ConnectionState.OPEN:
            raise trio.ClosedResourceError("the WebSocket is closing")
        frame = self._ws.send(BytesMessage(data=bytes(data)))
        async with self._send_lock:
            await self.transport_stream.send_all(frame)

    async def wait_send_all_might_not_block(self) -> None:
        await self.transport_stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        """Say goodbye with a close frame when that cannot wait on anyone (the transport
        is idle), then close the transport."""
        if self._ws.state in (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING) and (
            not self._send_lock.locked()
        ):
            frame = self._ws.send(CloseConnection(CloseReason.GOING_AWAY))
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                try:
                    await self.transport_stream.send_all(frame)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
        await self.transport_stream.aclose()


class WebListener:
    """Serves HTTP connections: the static files, and the upgrade to a WebSocket, which is
    handed to `serve_stream` (the server's per-connection path)."""

    def __init__(
        self,
        *,
        serve_stream: Callable[[trio.abc.Stream], Awaitable[None]],
        peer_of: Callable[[trio.abc.Stream], str],
        allows: Callable[[str], bool],
        allowed_origins: tuple[str, ...],
        request_timeout_seconds: float,
        board: str = "felt",
        house_bots: Sequence[tuple[str, str, Sequence[str]]] = (),
    ) -> None:
        self._serve_stream = serve_stream
        self._peer_of = peer_of
        self._allows = allows
        self._allowed_origins = frozenset(origin.lower() for origin in allowed_origins)
        self._request_timeout = request_timeout_seconds
        self.files = load_static_files()
        # The operator's board (felt or wood) is a mark on the page's body, read by board.js;
        # the house bots (name, strength, the accounts of its copies) another, for "Play the
        # computer" (issue 36): the page lists each once and invites a free copy.
        bots = html.escape(json.dumps([{"name": name, "strength": strength, "copies": list(copies)}
                                       for name, strength, copies in house_bots]))
        if "/index.html" in self.files:
            page, kind = self.files["/index.html"]
            self.files["/index.html"] = self.files["/"] = (page.replace(
                b"<body>", b'<body data-board="%s" data-house-bots="%s">' % (board.encode("ascii"), bots.encode()),
                1), kind)
        # The same files gzipped once (the page weighs a third as much on the wire).
        self.gzipped = {path: gzip.compress(body, 9, mtime=0) for path, (body, _) in self.files.items()}
        # Each file's validator, per encoding: a reload asks "If-None-Match" and gets 304.
        self.etags = {path: hashlib.sha256(body).hexdigest()[:20] for path, (body, _) in self.files.items()}

    async def handle(self, stream: trio.abc.Stream) -> None:
        """Serve one accepted connection (plain or TLS: a TLS handshake happens on the
        first read, within the first request's timeout)."""
        peer = self._peer_of(stream)
        if not self._allows(peer):  # the club's allowed networks cover the page too
            await trio.aclose_forcefully(stream)
            return
        upgraded = False
        try:
            websocket = await self._serve_http(stream, peer)
            if websocket is not None:
                upgraded = True
                await self._serve_stream(websocket)  # closes it
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the peer went away (or a TLS handshake failed)
        except Exception:  # invariant 4 of fibsd.shell.server: a bug closes this connection only
            log.exception("unexpected error on web connection from %s", peer)
        finally:
            if not upgraded:
                await trio.aclose_forcefully(stream)

    async def _serve_http(
        self, stream: trio.abc.Stream, peer: str
    ) -> WebSocketStream | None:
        """Answer requests until the connection closes or upgrades (the WebSocket then)."""
        http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES)
        for served in range(MAX_REQUESTS_PER_CONNECTION):
            # The first request gets the login timeout (it includes any TLS handshake);
            # a keep-alive connection waits for the next one for a shorter time.
            timeout = self._request_timeout if served == 0 else KEEP_ALIVE_SECONDS
            request = None
            with trio.move_on_after(timeout):
                try:
                    request = await self._read_request(http, stream)
                except h11.RemoteProtocolError as error:
                    if http.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                        await self._respond(http, stream, error.error_status_hint,
                                            b"Bad request\n", close=True)
                    return None
            if request is None:
                return None  # closed, or timed out
            target = request.target.decode("ascii", "replace").partition("?")[0]
            headers = {name.lower(): value for name, value in request.headers}
            if _wants_websocket(headers) and target in WEBSOCKET_PATHS:
                return await self._upgrade(http, stream, request, headers, peer)
            gzip_ok = b"gzip" in headers.get(b"accept-encoding", b"").lower()
            await self._answer(http, stream, request.method, target, gzip_ok=gzip_ok,
                               if_none_match=headers.get(b"if-none-match", b""))
            if http.our_state is not h11.DONE or http.their_state is not h11.DONE:
                return None
            http.start_next_cycle()
        return None

    async def _read_request(self, http: h11.Connection, stream: trio.abc.Stream) -> h11.Request | None:
        """The next request, its (ignored, bounded) body read; None if the peer closed."""
        request: h11.Request | None = None
        body_bytes = 0
        while True:
            event = http.next_event()
            if event is h11.NEED_DATA:
                data = await stream.receive_some(_READ_BYTES)
                http.receive_data(bytes(data))
                continue
            if isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body_bytes += len(event.data)
                if body_bytes > MAX_REQUEST_BODY_BYTES:
                    return None
            elif isinstance(event, h11.EndOfMessage) or event is h11.PAUSED:
                return request
            elif isinstance(event, h11.ConnectionClosed):
                return None

    async def _answer(self, http: h11.Connection, stream: trio.abc.Stream,
                      method: bytes, target: str, *, gzip_ok: bool = False, if_none_match: bytes = b"") -> None:
        if method not in (b"GET", b"HEAD"):
            await self._respond(http, stream, 405, b"Method not allowed\n",
                                extra=[("Allow", "GET, HEAD")])
            return
        found = self.files.get(target)
        if found is None:
            status, body, content_type = 404, b"Not found\n", "text/plain; charset=utf-8"
            if target == "/fibs":  # a plain GET of the WebSocket path
                status, body = 426, b"This is fibsd's WebSocket: connect with ws:// or wss://\n"
        else:
            status, (body, content_type) = 200, found
        extra = [("Upgrade", "websocket")] if status == 426 else []
        if found is not None:
            etag = f'"{self.etags[target]}{"-gz" if gzip_ok else ""}"'
            extra += [("Vary", "Accept-Encoding"), ("ETag", etag)]
            if gzip_ok:
                body = self.gzipped[target]
                extra.append(("Content-Encoding", "gzip"))
            if _etag_matches(if_none_match, etag):  # the browser's copy is this one
                await self._respond(http, stream, 304, b"", content_type=content_type, head_only=True,
                                    extra=extra, length=False)
                return
        await self._respond(http, stream, status, body, content_type=content_type,
                            head_only=method == b"HEAD", extra=extra)

    async def _respond(
        self,
        http: h11.Connection,
        stream: trio.abc.Stream,
        status: int,
        body: bytes,
        *,
        content_type: str = "text/plain; charset=utf-8",
        head_only: bool = False,
        close: bool = False,
        extra: list[tuple[str, str]] | None = None,
        length: bool = True,
    ) -> None:
        headers = [
            ("Content-Type", content_type),
            *([("Content-Length", str(len(body)))] if length else []),  # (none on a 304)
            ("Server", "fibsd"),
            *_SECURITY_HEADERS,
            *(extra or []),
        ]
        if close:
            headers.append(("Connection", "close"))
        data = http.send(h11.Response(status_code=status, headers=headers)) or b""
        if not head_only:
            data += http.send(h11.Data(data=body)) or b""
        data += http.send(h11.EndOfMessage()) or b""
        await stream.send_all(data)

    async def _upgrade(
        self,
        http: h11.Connection,
        stream: trio.abc.Stream,
        request: h11.Request,
        headers: dict[bytes, bytes],
        peer: str,
    ) -> WebSocketStream | None:
        """Validate the WebSocket handshake (RFC 6455 §4.2) and switch protocols."""
        key = headers.get(b"sec-websocket-key")
        if request.method != b"GET" or key is None:
            await self._respond(http, stream, 400, b"Bad WebSocket handshake\n", close=True)
            return None
        if headers.get(b"sec-websocket-version") != b"13":
            await self._respond(http, stream, 426, b"Only WebSocket version 13 is spoken here\n",
                                close=True, extra=[("Sec-WebSocket-Version", "13")])
            return None
        origin = headers.get(b"origin")
        if not self._origin_allowed(origin, headers.get(b"host")):
            log.info("websocket from %s refused: origin %r not allowed", peer, origin)
            await self._respond(http, stream, 403, b"This page's origin may not connect\n",
                                close=True)
            return None
        response_headers = [
            (b"Upgrade", b"websocket"),
            (b"Connection", b"Upgrade"),
            (b"Sec-WebSocket-Accept", generate_accept_token(key)),
        ]
        # websockify-style clients (the usual WebSocket-to-telnet bridges) ask for the
        # "binary" subprotocol; a browser fails a connection whose subprotocol offer
        # is ignored, so the one that describes this stream is accepted.
        offered = [p.strip().lower() for p in
                   headers.get(b"sec-websocket-protocol", b"").split(b",") if p.strip()]
        if b"binary" in offered:
            response_headers.append((b"Sec-WebSocket-Protocol", b"binary"))
        await stream.send_all(http.send(h11.InformationalResponse(
            status_code=101, headers=response_headers)) or b"")
        trailing, _closed = http.trailing_data
        log.info("websocket from %s (origin %s)", peer,
                 origin.decode("ascii", "replace") if origin else "none")
        return WebSocketStream(stream, peer, trailing)

    def _origin_allowed(self, origin: bytes | None, host: bytes | None) -> bool:
        """Browsers send the page's origin; other clients send none and may connect (they
        could forge any Origin anyway: the check protects browsers' users from other
        sites' pages, not the server). The server's own page is always allowed: an origin
        naming the host and port the request was sent to. (The scheme is not compared: a
        reverse proxy that terminates TLS serves the page as https and asks over http.)"""
        if origin is None:
            return True
        text = origin.decode("ascii", "replace").lower()
        if host is not None and text.partition("://")[2] == host.decode("ascii", "replace").lower():
            return True
        return "*" in self._allowed_origins or text in self._allowed_origins


def _etag_matches(if_none_match: bytes, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weakly compared, RFC 9110 13.1.2)."""
    tags = [tag.strip().removeprefix(b"W/") for tag in if_none_match.split(b",")]
    return b"*" in tags or etag.encode() in tags


def _wants_websocket(headers: dict[bytes, bytes]) -> bool:
    upgrade = [p.strip().lower() for p in headers.get(b"upgrade", b"").split(b",")]
    connection = [p.strip().lower() for p in headers.get(b"connection", b"").split(b",")]
    return b"websocket" in upgrade and b"upgrade" in connection
