"""A WebSocket client for tests, on wsproto: the handshake, then a trio Stream of the
binary payloads, so that the line-level `TestClient` and `Player` work over it unchanged.
It can also send text frames, fragmented messages and raw bytes, to test the framing."""

from __future__ import annotations

from typing import Any

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Ping,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)

from tests.server.client import TestClient


class HandshakeRefused(Exception):
    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body!r}")
        self.status = status
        self.body = body


class WebSocketClientStream(trio.abc.Stream):
    def __init__(self, tcp: trio.abc.Stream, ws: WSConnection) -> None:
        self.tcp = tcp
        self.ws = ws
        self._incoming = bytearray()
        self.closed_with: CloseConnection | None = None  # the server's close frame
        self.text_frames = 0  # text frames received (the server should send none)

    @classmethod
    async def connect(cls, port: int, *, path: str = "/fibs", origin: str | None = None,
                      host: str | None = None, tcp: trio.abc.Stream | None = None,
                      subprotocols: list[str] | None = None) -> WebSocketClientStream:
        if tcp is None:
            tcp = await trio.open_tcp_stream("127.0.0.1", port)
        ws = WSConnection(ConnectionType.CLIENT)
        headers = [(b"origin", origin.encode())] if origin else []
        await tcp.send_all(ws.send(Request(host=host or f"127.0.0.1:{port}", target=path,
                                           extra_headers=headers,
                                           subprotocols=subprotocols or [])))
        try:
            return await cls._handshake(tcp, ws)
        except BaseException:
            await trio.aclose_forcefully(tcp)
            raise

    @classmethod
    async def _handshake(cls, tcp: trio.abc.Stream, ws: WSConnection) -> WebSocketClientStream:
        status, body = 0, b""
        with trio.fail_after(5):
            while True:
                data = await tcp.receive_some(65536)
                ws.receive_data(data or None)
                for event in ws.events():
                    if isinstance(event, AcceptConnection):
                        stream = cls(tcp, ws)
                        stream.accepted = event
                        return stream
                    if isinstance(event, RejectConnection):
                        status = event.status_code
                        if not event.has_body:
                            raise HandshakeRefused(status, body)
                    if isinstance(event, RejectData):
                        body += event.data
                        if event.body_finished:
                            raise HandshakeRefused(status, body)
                if not data:
                    raise HandshakeRefused(status, body)

    accepted: AcceptConnection

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        while not self._incoming:
            if self.closed_with is not None:
                return b""
            for event in self.ws.events():
                if isinstance(event, BytesMessage):
                    self._incoming += event.data
                elif isinstance(event, TextMessage):
                    self.text_frames += 1
                    self._incoming += event.data.encode()
                elif isinstance(event, Ping):
                    await self.tcp.send_all(self.ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    self.closed_with = event
                    if self.ws.state is ConnectionState.REMOTE_CLOSING:
                        await self.tcp.send_all(self.ws.send(event.response()))
            if self._incoming or self.closed_with is not None:
                continue
            data = await self.tcp.receive_some(65536)
            if self.ws.state is ConnectionState.CLOSED:
                return b""
            self.ws.receive_data(data or None)
        chunk = bytes(self._incoming[: max_bytes or len(self._incoming)])
        del self._incoming[: len(chunk)]
        return chunk

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.tcp.send_all(self.ws.send(BytesMessage(data=bytes(data))))

    async def send_text(self, text: str, *, finished: bool = True) -> None:
        await self.tcp.send_all(self.ws.send(TextMessage(data=text, message_finished=finished)))

    async def send_fragment(self, data: bytes, *, finished: bool) -> None:
        await self.tcp.send_all(self.ws.send(BytesMessage(data=data, message_finished=finished)))

    def frame(self, data: bytes) -> bytes:
        """The bytes of one binary frame, to be sent in pieces by the test."""
        return self.ws.send(BytesMessage(data=data))

    async def wait_send_all_might_not_block(self) -> None:
        await self.tcp.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self.tcp.aclose()


class WebDoor:
    """Looks like a running server to the test helpers, but connects over a WebSocket."""

    def __init__(self, running: Any, *, origin: str | None = None) -> None:
        self.running = running
        self.port = running.server.web_listeners[0].socket.getsockname()[1]
        self.origin = origin
        self.streams: list[WebSocketClientStream] = []

    async def connect(self) -> TestClient:
        stream = await WebSocketClientStream.connect(self.port, origin=self.origin)
        self.streams.append(stream)
        client = TestClient(stream)  # type: ignore[arg-type]  # any trio Stream will do
        self.running.clients.append(client)
        return client
