"""The web listener (issue 16) at the protocol level: the static page over HTTP, and the
WebSocket carrying exactly a TCP connection's byte stream, with the same login, limits,
drop handling and shutdown. (The page itself is tested in a browser: test_web_browser.py.)"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
import trio
from wsproto.events import BytesMessage
from wsproto.frame_protocol import CloseReason

from fibsd.infra.config import Config, ConfigError
from fibsd.domain.dice import ScriptedDice
from tests.server.client import TestClient
from tests.server.helpers import clip_login, register
from tests.server.players import Player
from tests.server.test_tls import certificate, start_tls  # noqa: F401  # a fixture
from tests.server.websocket_client import (
    HandshakeRefused,
    WebDoor,
    WebSocketClientStream,
)

WEB_ON = {"web.web_enabled": True, "web.web_port": 0}


async def start_web(start_server: Any, **overrides: Any) -> tuple[Any, WebDoor]:
    running = await start_server(**WEB_ON, **overrides)
    return running, WebDoor(running)


async def http(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 exchange on a fresh connection (Connection: close)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(request)
    data = b""
    with trio.fail_after(5):
        while chunk := await stream.receive_some(65536):
            data += chunk
    await stream.aclose()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in
               (line.partition(":") for line in header_lines)}
    return int(status_line.split()[1]), headers, body


def get(path: str, method: str = "GET", extra: str = "") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n".encode()


async def test_the_page_and_its_files_are_served_and_nothing_else(start_server: Any) -> None:
    running, door = await start_web(start_server)
    status, headers, body = await http(door.port, get("/"))
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    # (index.html with the operator's board marked on its body: felt by default)
    page = (Path(__file__).parents[2] / "fibsd/webclient/index.html").read_bytes()
    assert body == page.replace(b"<body>", b'<body data-board="felt" data-house-bots="[]">', 1)
    assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, body = await http(door.port, get("/app.js?v=1"))
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    status, headers, body = await http(door.port, get("/app.js", method="HEAD"))
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    # A browser asking for gzip gets the same file gzipped (a third of the bytes or less).
    status, headers, body = await http(door.port, get("/match.js", extra="Accept-Encoding: gzip, br\r\n"))
    plain = (Path(__file__).parents[2] / "fibsd/webclient/match.js").read_bytes()
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(body) == plain and len(body) * 3 < len(plain)
    # Every module of the page is served, as JavaScript (a browser refuses a module served
    # as anything else), and none is over 400 lines.
    for script in sorted((Path(__file__).parents[2] / "fibsd/webclient").glob("*.js")):
        status, headers, body = await http(door.port, get(f"/{script.name}"))
        assert status == 200 and headers["content-type"] == "text/javascript; charset=utf-8", script.name
        assert body == script.read_bytes() and body.count(b"\n") <= 400, script.name
    # Each file has a validator (issue 33 #11): asked again with it, the answer is 304 and
    # no body; the gzipped copy has a tag of its own; a changed file would not match.
    status, headers, body = await http(door.port, get("/match.js"))
    etag = headers["etag"]
    status, headers, body = await http(door.port, get("/match.js", extra=f"If-None-Match: {etag}\r\n"))
    assert status == 304 and body == b"" and headers["etag"] == etag
    status, headers, body = await http(door.port, get("/match.js", extra=f"If-None-Match: {etag}\r\nAccept-Encoding: gzip\r\n"))
    assert status == 200 and headers["etag"] != etag and gzip.decompress(body) == plain
    status, _, body = await http(door.port, get("/match.js", extra='If-None-Match: "0123", W/' + etag + "\r\n"))
    assert status == 304 and body == b""
    status, _, body = await http(door.port, get("/match.js", extra='If-None-Match: "stale"\r\n'))
    assert status == 200 and body == plain
    for path in ("/../setup.cfg", "/__init__.py", "/nothing.html", "/webclient/app.js"):
        status, _, _ = await http(door.port, get(path))
        assert status == 404, path
    status, headers, _ = await http(door.port, get("/", method="POST"))
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, headers, body = await http(door.port, get("/fibs"))  # not an upgrade
    assert status == 426 and b"ws://" in body
    status, _, _ = await http(door.port, b"GARBAGE\r\n\r\n")
    assert status == 400
    status, _, _ = await http(door.port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX: " + b"a" * 17000)  # never ends
    assert status == 431
    # The plain FIBS port is unchanged beside it.
    client = await running.connect()
    await client.expect_prompt("login: ")


async def test_keep_alive_serves_several_requests_then_the_upgrade(start_server: Any) -> None:
    running, door = await start_web(start_server)
    await register(running, "alice")
    tcp = await trio.open_tcp_stream("127.0.0.1", door.port)
    await tcp.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /app.js HTTP/1.1\r\nHost: x\r\n\r\n")
    running.clients.append(TestClient(tcp))  # type: ignore[arg-type]  # closed at the end
    script = (Path(__file__).parents[2] / "fibsd/webclient/app.js").read_bytes()
    data = b""
    with trio.fail_after(5):
        while data.count(b"HTTP/1.1 200") < 2 or not data.endswith(script):
            data += await tcp.receive_some(65536)
    stream = await WebSocketClientStream.connect(door.port, tcp=tcp)
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")


async def test_clip_login_and_a_match_over_websockets(start_server: Any) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)  # bob's roll is automatic: a 1-point match
    # Only loopback may connect: this passes only if the WebSocket peer's address is found.
    running, door = await start_web(start_server, dice=dice,
                                    **{"club.allowed_networks": ["127.0.0.0/8"]})
    await register(running, "alice")
    await register(running, "bob")
    client, lines = await clip_login(door, "alice", client_name="fibsd-web")
    assert lines[0].startswith("1 alice ") and lines[-1] == "6"
    alice = Player("alice", client)
    await alice.command("set boardstyle 3", "Value of 'boardstyle' set to 3.")
    await alice.command("toggle ready", "** You're now ready to invite or join someone.")
    bob = await Player.join_server(running, "bob", register_first=False)  # plain TCP
    await alice.send("invite bob 1")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("You rolled 3, bob rolled 1")
    await alice.expect("It's your turn to move.")
    board = await alice.next_board()
    assert board.match_length == 1
    await alice.send("8-5 6-5")
    await bob.expect("alice moves 8-5 6-5 .")
    await alice.expect("bob rolls 6 and 5.")
    # Everything arrived as binary frames, never text.
    assert door.streams[0].text_frames == 0
    assert door.streams[0].accepted.subprotocol is None


async def test_frames_split_and_merged_anywhere_give_the_same_lines(start_server: Any) -> None:
    running, door = await start_web(start_server)
    await register(running, "alice")
    stream = await WebSocketClientStream.connect(door.port)
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")
    # The login line in three binary frames split mid-word, then a text frame and a
    # fragmented message, then two commands in one frame.
    for piece in (b"log", b"in fibsd-web 1008 al", b"ice secret\r"):
        await stream.send_all(piece)
    await stream.send_text("\n")
    await client.read_until("6")
    await stream.send_fragment(b"set board", finished=False)
    await stream.send_fragment(b"style 3\r\n", finished=True)
    await client.read_until("Value of 'boardstyle' set to 3.")
    await stream.send_all(b"toggle ready\r\nwho alice\r\n")
    await client.read_until("** You're now ready to invite or join someone.")
    lines = await client.read_until("6")
    assert lines[-2].startswith("5 alice ")
    # One frame handed to TCP a byte at a time, the next frame's start merged in.
    first, second = stream.frame(b"toggle ready\r\n"), stream.frame(b"who alice\r\n")
    raw = first + second
    for index in range(len(first) + 3):
        await stream.tcp.send_all(raw[index:index + 1])
    await stream.tcp.send_all(raw[len(first) + 3:])
    await client.read_until("** You're now refusing to play with someone.")
    lines = await client.read_until("6")
    assert lines[-2].startswith("5 alice ")


async def test_a_line_too_long_is_answered_and_closed_as_over_tcp(start_server: Any) -> None:
    running, door = await start_web(start_server, **{"limits.max_line_bytes": 128})
    client = await door.connect()
    await client.expect_prompt("login: ")
    await client.stream.send_all(b"x" * 200)  # one huge frame, no line end
    rest = await client.read_all_until_closed()
    assert "** Line too long. Closing the connection." in rest
    assert door.streams[0].closed_with is not None  # a close frame, not just a cut
    # A frame that announces a gigabyte is read as it comes and cut off at the limit too.
    stream = await WebSocketClientStream.connect(door.port)
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")
    header = bytes([0x82, 0x80 | 127]) + (2**30).to_bytes(8, "big") + bytes(4)  # mask 0
    await stream.tcp.send_all(header + b"y" * 4096)
    rest = await client.read_all_until_closed()
    assert "** Line too long. Closing the connection." in rest


async def test_garbage_frames_get_a_close_frame_naming_the_error(start_server: Any) -> None:
    running, door = await start_web(start_server)
    stream = await WebSocketClientStream.connect(door.port)
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")
    await stream.tcp.send_all(b"\x82\x05hello")  # unmasked: clients must mask (RFC 6455)
    await client.read_all_until_closed()
    assert stream.closed_with is not None
    assert stream.closed_with.code == CloseReason.PROTOCOL_ERROR
    # A text frame that is not UTF-8.
    stream = await WebSocketClientStream.connect(door.port)
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")
    frame = bytearray(stream.ws.send(BytesMessage(data=b"\xff\xfe\r\n")))
    frame[0] = 0x81  # FIN + text opcode
    await stream.tcp.send_all(bytes(frame))
    await client.read_all_until_closed()
    assert stream.closed_with is not None
    assert stream.closed_with.code == CloseReason.INVALID_FRAME_PAYLOAD_DATA
    # Both left the server serving.
    client = await door.connect()
    await client.expect_prompt("login: ")


async def test_origins_other_than_the_page_and_the_list_are_refused(start_server: Any) -> None:
    running, door = await start_web(start_server, **{
        "web.web_allowed_origins": ["https://playfibs.example"]})
    with pytest.raises(HandshakeRefused) as refused:
        await WebSocketClientStream.connect(door.port, origin="https://evil.example")
    assert refused.value.status == 403
    host = f"127.0.0.1:{door.port}"
    with pytest.raises(HandshakeRefused):  # the same host on another port is another site
        await WebSocketClientStream.connect(door.port, origin="http://127.0.0.1:1", host=host)
    # The page itself, also as a TLS-terminating proxy serves it; a listed site; no origin.
    for origin in (f"http://{host}", f"https://{host}", "https://playfibs.example", None):
        stream = await WebSocketClientStream.connect(door.port, origin=origin, host=host)
        client = TestClient(stream)  # type: ignore[arg-type]
        running.clients.append(client)
        await client.expect_prompt("login: ")
    # websockify-style bridges ask for the "binary" subprotocol and get it.
    stream = await WebSocketClientStream.connect(door.port, subprotocols=["binary"])
    assert stream.accepted.subprotocol == "binary"
    running.clients.append(TestClient(stream))  # type: ignore[arg-type]


async def test_connections_per_address_count_websockets_too(start_server: Any) -> None:
    running, door = await start_web(start_server, **{"limits.max_connections_per_address": 2})
    first = await running.connect()
    await first.expect_prompt("login: ")
    second = await door.connect()
    await second.expect_prompt("login: ")
    third = await door.connect()
    assert await third.read_all_until_closed() == ["** Too many connections from your address."]


async def test_a_closed_tab_in_a_match_saves_it_like_a_drop(start_server: Any) -> None:
    dice = ScriptedDice([3, 1], coin=0)
    running, door = await start_web(start_server, dice=dice)
    alice = await Player.join_server(running, "alice")
    await register(running, "bob")
    client, _ = await clip_login(door, "bob")
    bob = Player("bob", client)
    await bob.command("toggle ready", "** You're now ready to invite or join someone.")
    await alice.send("invite bob 3")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("It's your turn to move.")
    await door.streams[0].tcp.aclose()  # the tab is gone: no close frame, the TCP ends
    await alice.expect("bob drops connection. The game was saved.")


async def test_shutdown_tells_websocket_users_and_closes_with_a_frame(start_server: Any) -> None:
    running, door = await start_web(start_server)
    await register(running, "alice")
    client, _ = await clip_login(door, "alice")
    running.server.request_stop()
    rest = await client.read_all_until_closed()
    assert any("shut down" in line.lower() or "shutting down" in line.lower() for line in rest), rest
    closed = door.streams[0].closed_with
    assert closed is not None and closed.code == CloseReason.GOING_AWAY


async def test_https_and_wss_with_the_tls_certificate(start_server: Any, certificate: tuple[Path, Path]) -> None:  # noqa: F811
    import ssl
    running, _ = await start_tls(start_server, certificate, **WEB_ON,
                                 **{"web.web_tls_port": 0})
    await register(running, "alice")
    port = running.server.web_tls_listeners[0].transport_listener.socket.getsockname()[1]
    context = ssl.create_default_context(cafile=str(certificate[0]))
    tcp = await trio.open_ssl_over_tcp_stream("127.0.0.1", port, ssl_context=context)
    stream = await WebSocketClientStream.connect(port, tcp=tcp, origin=f"https://127.0.0.1:{port}",
                                                 host=f"127.0.0.1:{port}")
    client = TestClient(stream)  # type: ignore[arg-type]
    running.clients.append(client)
    await client.expect_prompt("login: ")
    await client.send("login fibsd-web 1008 alice secret")
    lines = await client.read_until("6")
    assert lines[0].startswith("1 alice ")
    assert tcp.version() in ("TLSv1.2", "TLSv1.3")


@pytest.mark.parametrize(("settings", "shown", "name"), [
    ({"web_port": 70000}, "70000", "web_port"),
    ({"web_enabled": "yes"}, "'yes'", "web_enabled"),
    ({"web_enabled": True, "web_port": 4321}, "4321", "web_port"),
    ({"web_allowed_origins": ["https://x.org/path"]}, "https://x.org/path", "web_allowed_origins"),
    ({"web_allowed_origins": "*"}, "'*'", "web_allowed_origins"),
])
def test_bad_web_settings_stop_start_up(settings: dict[str, object], shown: str, name: str) -> None:
    with pytest.raises(ConfigError) as error:
        Config.from_mapping({"web": settings})
    assert error.value.setting == name
    assert shown in str(error.value)


def test_the_shipped_config_turns_the_web_listener_on_at_8080() -> None:
    config = Config.from_toml(Path(__file__).parents[2] / "conf/fibsd.toml")
    assert config.web_enabled and config.web_port == 8080 and config.host == "127.0.0.1"
    assert not Config.default().web_enabled


async def test_a_websocket_reader_that_stops_reading_is_cut_off(
        start_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    running, door = await start_web(start_server, **{
        "limits.max_output_lines": 100, "limits.command_burst": 100_000,
        "limits.commands_per_second": 10_000.0})
    await register(running, "alice")
    await register(running, "bob")
    client, _ = await clip_login(door, "alice")
    bob = await Player.join_server(running, "bob", register_first=False)
    # Thousands of commands with long answers, and alice reads none of them: the frames
    # pile up in the socket buffers, then in her outbox, which is bounded.
    commands = 3000
    try:
        for _ in range(commands // 100):
            await client.stream.send_all(b"help\r\n" * 100)
    except trio.BrokenResourceError:
        pass  # already cut off
    await bob.command("toggle ready", "** You're now refusing to play with someone.")  # bob is served meanwhile
    rest = await client.read_all_until_closed(timeout=20)
    answers = sum(line == "Type 'help <command>' for help on a command. The commands are:" for line in rest)
    assert 0 < answers < commands
    assert "output buffer of 127.0.0.1 full; disconnecting" in caplog.text
    assert door.streams[0].closed_with is None or door.streams[0].closed_with.code == CloseReason.GOING_AWAY
    await bob.command("toggle ready", "** You're now ready to invite or join someone.")
