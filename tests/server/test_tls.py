"""The optional TLS listener (issue 8): a CLIP login and a whole match over TLS, the plain
listener unchanged beside it, and the start-up errors for bad settings or files."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
import trio

from fibsd.infra.config import Config, ConfigError
from fibsd.domain.dice import ScriptedDice
from fibsd.shell.tls import server_context
from tests.server.client import TestClient
from tests.server.helpers import clip_login, register
from tests.server.players import Player

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A throwaway self-signed pair made by the shipped script."""
    directory = tmp_path_factory.mktemp("tls")
    subprocess.run([REPO / "scripts" / "make-cert", "--dir", str(directory)],
                   check=True, capture_output=True, timeout=60)
    return directory / "fibsd-cert.pem", directory / "fibsd-key.pem"


class TLSDoor:
    """Looks like a running server to the test helpers, but connects over TLS."""

    def __init__(self, running: Any, cert: Path) -> None:
        self.running = running
        listener = running.server.tls_listeners[0]
        self.port = listener.transport_listener.socket.getsockname()[1]
        self.context = ssl.create_default_context(cafile=str(cert))  # trusts only that cert
        self.streams: list[trio.SSLStream[trio.SocketStream]] = []

    async def connect(self) -> TestClient:
        stream = await trio.open_ssl_over_tcp_stream("127.0.0.1", self.port,
                                                      ssl_context=self.context)
        self.streams.append(stream)
        client = TestClient(stream)  # type: ignore[arg-type]  # any trio Stream will do
        self.running.clients.append(client)
        return client


async def start_tls(start_server: Any, certificate: tuple[Path, Path], **overrides: Any) -> tuple[Any, TLSDoor]:
    cert, key = certificate
    running = await start_server(**{"tls.tls_enabled": True, "tls.tls_port": 0,
                                    "tls.tls_cert_file": str(cert),
                                    "tls.tls_key_file": str(key)}, **overrides)
    return running, TLSDoor(running, cert)


async def test_clip_login_and_a_match_over_tls(start_server: Any, certificate: tuple[Path, Path]) -> None:
    dice = ScriptedDice([3, 1, 6, 5], coin=0)
    # Only loopback may connect: this passes only if the TLS peer's address is found.
    running, door = await start_tls(start_server, certificate, dice=dice,
                                    **{"club.allowed_networks": ["127.0.0.0/8"]})
    assert door.port != running.port
    await register(running, "alice")  # registered on the plain listener
    await register(running, "bob")
    alice = await Player.join_server(door, "alice", register_first=False)
    bob = await Player.join_server(door, "bob", register_first=False)
    assert door.streams[0].cipher() is not None  # really TLS, not a plain socket
    assert door.streams[0].version() in ("TLSv1.2", "TLSv1.3")

    await alice.send("invite bob 1")
    await alice.expect("** You invited bob to a 1 point match.")
    await bob.expect("Type 'join alice' to accept.")
    await bob.send("join alice")
    await alice.expect("** Player bob has joined you for a 1 point match.")
    await alice.expect("You rolled 3, bob rolled 1")
    await alice.expect("It's your turn to move.")
    await alice.send("8-5 6-5")
    await bob.expect("alice moves 8-5 6-5 .")
    await bob.expect("You roll 6 and 5.")  # a 1-point match: rolled for him at once
    await bob.send("resign n")
    await bob.expect("You want to resign. alice will win 1 point.")
    await alice.expect("bob wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await alice.send("accept")
    await alice.expect("You accept and win 1 point.")
    await alice.expect("You win the 1 point match 1-0 .")
    await bob.expect("alice wins the 1 point match 1-0 .")
    assert dice.remaining == 0


async def test_plain_listener_still_serves_beside_tls(start_server: Any, certificate: tuple[Path, Path]) -> None:
    running, door = await start_tls(start_server, certificate)
    await register(running, "carol")
    _plain, lines = await clip_login(running, "carol")
    assert any(line.startswith("1 carol ") for line in lines)
    # A plain-text client on the TLS port gets nowhere, and the server stays up.
    raw = await trio.open_tcp_stream("127.0.0.1", door.port)
    await raw.send_all(b"login x 1008 carol secret\r\n")
    with trio.fail_after(5):
        try:
            while await raw.receive_some(4096):
                pass
        except trio.BrokenResourceError:
            pass
    await raw.aclose()
    again, _ = await clip_login(door, "carol")
    await again.send("who")


async def test_without_tls_there_is_no_tls_listener(start_server: Any) -> None:
    running = await start_server()
    assert running.server.tls_listeners == []
    assert Config.default().tls_enabled is False


def test_bad_certificate_files_are_one_line_config_errors(tmp_path: Path, certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    with pytest.raises(ConfigError) as missing:
        server_context(tmp_path / "nope.pem", key)
    assert missing.value.setting == "tls_cert_file" and "\n" not in str(missing.value)
    with pytest.raises(ConfigError) as missing_key:
        server_context(cert, tmp_path / "nope.pem")
    assert missing_key.value.setting == "tls_key_file"
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    with pytest.raises(ConfigError) as bad:
        server_context(garbage, key)
    assert "not a matching PEM certificate" in str(bad.value) and "\n" not in str(bad.value)
    other = tmp_path / "other"
    subprocess.run([REPO / "scripts" / "make-cert", "--dir", str(other)],
                   check=True, capture_output=True, timeout=60)
    with pytest.raises(ConfigError):  # a key that belongs to another certificate
        server_context(cert, other / "fibsd-key.pem")
    context = server_context(cert, key)
    assert context.minimum_version is ssl.TLSVersion.TLSv1_2


@pytest.mark.parametrize(("table", "value", "setting"), [
    ({"tls_enabled": "yes"}, "'yes'", "tls_enabled"),
    ({"tls_port": 70000}, "70000", "tls_port"),
    ({"tls_port": True}, "true", "tls_port"),
    ({"tls_cert_file": ""}, "''", "tls_cert_file"),
    ({"tls_enabled": True, "tls_port": 4321}, "4321", "tls_port"),  # the plain port
])
def test_bad_tls_settings(table: dict[str, object], value: str, setting: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Config.from_mapping({"tls": table})
    assert caught.value.setting == setting
    assert str(caught.value).endswith(f"got {value}")


def test_make_cert_refuses_to_overwrite(certificate: tuple[Path, Path]) -> None:
    cert, _key = certificate
    done = subprocess.run([REPO / "scripts" / "make-cert", "--dir", str(cert.parent)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "--force" in done.stderr
    assert (cert.parent / "fibsd-key.pem").stat().st_mode & 0o077 == 0  # owner only


async def test_a_seeded_match_over_tls_verifies_from_its_export(
    start_server: Any, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue 8 end to end: the commitment seen at the start and the `.mat` the server
    exports at the end are all a player needs for `verify-dice`."""
    from fibsd.domain.matfile import mat_text
    from fibsd.tools.verify_dice import run

    running, door = await start_tls(start_server, certificate)  # seeded dice per match
    for name in ("dora", "emil"):
        await register(running, name)
    dora = await Player.join_server(door, "dora", register_first=False, extensions=True)
    emil = await Player.join_server(door, "emil", register_first=False)
    await dora.send("invite emil 1")
    await emil.expect("Type 'join dora' to accept.")
    await emil.send("join dora")
    start = await dora.client.read_until(lambda line: line in (
        "It's your turn to move.", "emil makes the first move."))
    announced = [line for line in start if line.startswith("** The dice of this match are committed:")]
    commitment = announced[0].rsplit(" ", 1)[1]
    first, second = (dora, emil) if start[-1] == "It's your turn to move." else (emil, dora)
    await first.send("resign n")
    await second.expect(f"{first.name} wants to resign. You will win 1 point. Type 'accept' or 'reject'.")
    await second.send("accept")
    await dora.client.read_until(lambda line: line.startswith("** The dice seed of this match was"))
    await dora.send("export")
    listing = await dora.client.read_until(lambda line: "dora - emil" in line)
    record_id = listing[-1].split()[0]
    await dora.send(f"export {record_id}")
    exported = await dora.client.read_until(lambda line: "Wins 1 point and the match" in line)
    text = mat_text(exported[next(i for i, line in enumerate(exported) if line.startswith("; [")):])
    path = tmp_path / "match.mat"
    path.write_text(text)
    status, report = run([str(path), "--commitment", commitment])
    assert status == 0, report
    assert report[-1].startswith("VERIFIED")
