"""The operator's view: ./scripts/serve answers with the banner; SIGTERM shuts down cleanly;
a bad setting stops start-up with a one-line error naming it."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.test_tls import certificate

__all__ = ["certificate"]  # a fixture, used here too

ROOT = Path(__file__).resolve().parents[2]


def _listening_ports(log_path: Path, process: subprocess.Popen[bytes], timeout: float = 120.0) -> tuple[int, int]:
    """The game and web ports a server started on port 0 logs once it listens (the
    kernel's free ports: one probed free beforehand could be taken meanwhile by another
    test, the suite runs in two processes). Bounded against a server that never listens
    (at load 17 starting it takes 15 s)."""
    deadline = time.monotonic() + timeout
    while True:
        log = log_path.read_text(errors="replace")
        game = re.search(r"listening on 127\.0\.0\.1:(\d+)", log)
        web = re.search(r"listening for HTTP/WebSocket on 127\.0\.0\.1:(\d+)", log)
        if game and web:
            return int(game.group(1)), int(web.group(1))
        assert process.poll() is None and time.monotonic() < deadline, f"the server never listened: {log}"
        time.sleep(0.05)  # (the log is a file: look again)


def _read_until(sock: socket.socket, marker: bytes, timeout: float = 60.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _connect(port: int, timeout: float = 120.0) -> socket.socket:
    # (A bound against a server that never listens: at load 17 starting it takes 15 s.)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_scripts_serve_answers_with_banner_and_stops_on_sigterm(tmp_path: Path) -> None:
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "serve"), "--port", "0", "--db", str(tmp_path / "fibsd.db"),
             "--web-port", "0"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log_file,
        )
    try:
        port, web_port = _listening_ports(log_path, process)
        with _connect(port) as sock:
            banner = _read_until(sock, b"login: ")
            assert b"One account per person only!" in banner
            assert banner.endswith(b"\r\nlogin: ")
            # The web listener is on in the shipped configuration (issue 16).
            with _connect(web_port) as web:
                web.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                page = _read_until(web, b"</html>")
                assert page.startswith(b"HTTP/1.1 200 ") and b"<title>fibsd</title>" in page
            os.kill(process.pid, signal.SIGTERM)
            assert process.wait(timeout=120) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    log = log_path.read_text()
    assert "listening on 127.0.0.1" in log and "shut down" in log
    assert (tmp_path / "fibsd.db").is_file()


def test_a_bad_setting_stops_start_up_with_one_line_naming_it(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fibsd", "serve", "--port", "http", "--db", str(tmp_path / "x.db")],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["fibsd: setting 'port': must be an integer 0..65535, got 'http'"]
    config = tmp_path / "bad.toml"
    config.write_text('[limits]\nidle_timeout_secs = 5\n')
    result = subprocess.run(
        [sys.executable, "-m", "fibsd", "serve", "--config", str(config)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "idle_timeout_secs" in result.stderr


@pytest.mark.parametrize("busy", ["game", "tls", "web", "web_tls"])
def test_a_busy_port_stops_start_up_with_one_line_naming_it(
        tmp_path: Path, certificate: tuple[Path, Path], busy: str) -> None:
    """Issue 20 §6: not trio's exception-group traceback, but which listener's port is
    taken (the others are free: port 0)."""
    cert, key = certificate
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        ports = {name: (port if name == busy else 0) for name in ("game", "tls", "web", "web_tls")}
        config = tmp_path / "busy.toml"
        config.write_text(
            f'[server]\nhost = "127.0.0.1"\nport = {ports["game"]}\n'
            f'db_path = "{tmp_path / "fibsd.db"}"\nmotd_file = "{tmp_path / "motd.txt"}"\n'
            f'[tls]\ntls_enabled = true\ntls_port = {ports["tls"]}\n'
            f'tls_cert_file = "{cert}"\ntls_key_file = "{key}"\n'
            f'[web]\nweb_enabled = true\nweb_port = {ports["web"]}\nweb_tls_port = {ports["web_tls"]}\n'
        )
        result = subprocess.run(
            [sys.executable, "-m", "fibsd", "serve", "--config", str(config)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("fibsd:")]
    listener = {"game": "the game port: [server] port, --port", "tls": "the TLS port: [tls] tls_port",
                "web": "the web port: [web] web_port, --web-port",
                "web_tls": "the web TLS port: [web] web_tls_port"}[busy]
    assert errors == [f"fibsd: cannot listen on 127.0.0.1:{port} ({listener}): Address already in use"]
    assert result.stderr.splitlines()[-1] == errors[0]  # the last word, after the log lines
