"""The codec's exceptions: wire-level violations and rejected command lines.

Two families, because the server treats them differently (architecture.md, "Errors"):

* `ProtocolError` — the peer broke the transport rules (a line over the limit). The server
  sends a short notice and closes, or discards the rest of the line and goes on.
* `CommandError` — a line was read fine but is not a valid FIBS command. It carries the
  exact FIBS reply (`** Unknown command: 'xyz'`, a usage line, ...); the connection stays
  open. `LoginRejected` is its login-prompt flavour: FIBS answers a bad login line with
  nothing but a new `login: ` prompt, so it carries no text.

This module knows no wording; the texts come from `protocol.wording` via the raisers.
"""

from __future__ import annotations


class ProtocolError(Exception):
    """The byte stream violates the protocol; no FIBS reply exists for it."""


class LineTooLong(ProtocolError):
    """The current line grew past `max_line_bytes` before its terminator arrived.

    `lines` are the complete lines that preceded the over-long one in the same `feed`
    call, so that nothing already received is lost when the caller chooses to continue
    (with `LineReader.discard_line`).
    """

    def __init__(self, max_line_bytes: int, lines: list[str]) -> None:
        super().__init__(f"line longer than {max_line_bytes} bytes")
        self.max_line_bytes = max_line_bytes
        self.lines = lines


class CommandError(Exception):
    """A command line FIBS would refuse; `line` is FIBS's exact answer (without CRLF).

    A few refusals are two lines (the `password` usage pair); `lines` has them all and
    `line` is the first.
    """

    def __init__(self, line: str, *more: str) -> None:
        super().__init__(line, *more)
        self.line = line
        self.lines: tuple[str, ...] = (line, *more)

    def __str__(self) -> str:
        return "\n".join(self.lines)


class LoginRejected(CommandError):
    """A line at the `login: ` prompt that cannot log anyone in.

    FIBS sends no error text, only the prompt again (fibs-protocol.md §2.2), so `line`
    is empty; `reason` is for logs and tests only, never for the wire.
    """

    def __init__(self, reason: str) -> None:
        super().__init__("")
        self.reason = reason

    def __str__(self) -> str:
        return self.reason
