"""The server side of the optional TLS listener: an `ssl.SSLContext` from the configured
certificate and key files.

Owns which TLS versions and settings the server accepts (TLS 1.2 and later, Python's
default server ciphers, no client certificates) and the one-line errors an operator sees
when a file is missing, unreadable, or not a matching certificate and key. It knows
nothing of sockets or trio: `fibsd.shell.server` opens the listener with this context. The
plain listener is unchanged, so clients that do not speak TLS keep working.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from fibsd.infra.config import ConfigError


def _readable(setting: str, path: Path) -> None:
    """Fail with a one-line `ConfigError` naming the setting unless `path` can be read."""
    try:
        with path.open("rb") as file:
            file.read(1)
    except OSError as error:
        raise ConfigError(
            f"setting '{setting}': cannot read {str(path)!r}: {error.strerror}", setting
        ) from None


def server_context(cert_file: Path, key_file: Path) -> ssl.SSLContext:
    """A server context for `cert_file` (PEM, the certificate chain) and `key_file` (PEM,
    the unencrypted private key). Raises `ConfigError` with one line naming the setting
    at fault."""
    _readable("tls_cert_file", cert_file)
    _readable("tls_key_file", key_file)
    # PROTOCOL_TLS_SERVER with Python's secure defaults; TLS 1.0/1.1 are refused.
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        # An encrypted key gets an empty password (and fails) instead of OpenSSL
        # prompting on the server's terminal.
        context.load_cert_chain(certfile=str(cert_file), keyfile=str(key_file),
                                password=lambda: b"")
    except ssl.SSLError as error:
        # Both files exist and can be read, so the content is wrong: not PEM, or a key
        # that does not belong to the certificate, or an encrypted key.
        raise ConfigError(
            f"setting 'tls_cert_file'/'tls_key_file': {str(cert_file)!r} and "
            f"{str(key_file)!r} are not a matching PEM certificate and unencrypted key "
            f"({error.reason or error})",
            "tls_cert_file",
        ) from None
    return context
