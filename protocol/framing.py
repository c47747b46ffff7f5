"""Framing: client bytes to clean text lines, and text to wire bytes. Sans-I/O.

Owns the byte level of fibs-protocol.md §1: LF, CRLF (or CR) terminators in, CRLF out; telnet
IAC sequences stripped (clients and telnet programs send option negotiation); NUL and
other control characters never reach the application; a hard line-length limit; UTF-8
with a cp1252/latin-1 fallback per line for old clients; an ASCII-safe rendering for a
server that stays 7-bit towards its clients (FIBS is 7-bit ASCII).

It knows nothing about commands, sessions or sockets: `LineReader.feed` takes whatever
chunks the transport delivered and returns complete lines, the same lines however the
bytes were chunked.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from typing import Final

from protocol.errors import LineTooLong, ProtocolError

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "ECHO_OFF",
    "ECHO_ON",
    "LineReader",
    "clean_text",
    "decode_line",
    "encode_line",
    "encode_prompt",
    "to_wire_text",
]

# The server says it will echo (so the client stops echoing locally) before a password
# prompt, and that it won't after it. FIBS sends these in telnet mode only (§1, §2.3).
ECHO_OFF: Final = b"\xff\xfb\x01"  # IAC WILL ECHO
ECHO_ON: Final = b"\xff\xfc\x01"  # IAC WONT ECHO

# §9 suggests capping input lines at about 1 KiB; the server's config decides.
DEFAULT_MAX_LINE_BYTES: Final = 1024

_IAC: Final = 0xFF
_SB: Final = 0xFA  # subnegotiation begins
_SE: Final = 0xF0  # subnegotiation ends
_WILL_WONT_DO_DONT: Final = frozenset({0xFB, 0xFC, 0xFD, 0xFE})
_NUL: Final = 0x00
_LF: Final = 0x0A
_CR: Final = 0x0D

# In plain text only LF, CR (line ends) and IAC (telnet command) need attention; everything
# else is copied in slices, so a long chunk is not walked byte by byte.
_TEXT_STOP: Final = re.compile(rb"[\n\r\xff]")


class _Telnet(enum.Enum):
    """Where the reader is within the telnet command syntax (RFC 854/855)."""

    TEXT = enum.auto()  # ordinary data
    IAC = enum.auto()  # after IAC: the command byte follows
    OPTION = enum.auto()  # after IAC WILL/WONT/DO/DONT: the option byte follows
    SUB = enum.auto()  # inside IAC SB ... (data swallowed up to IAC SE)
    SUB_IAC = enum.auto()  # IAC seen inside a subnegotiation


class LineReader:
    """Turns a client's byte stream into clean text lines.

    A line ends at LF, CR LF, or a CR on its own: telnet's CR NUL (PuTTY with "telnet new
    line" off) and old clients that send a bare CR must work too; the LF or NUL right
    after a CR belongs to that CR.

    Every raw byte of the current line (telnet sequences included, the terminator
    excluded) counts against `max_line_bytes`; the first byte beyond it raises
    `LineTooLong`, so at most `max_line_bytes` bytes are ever held for one line.
    After that the reader refuses input (`ProtocolError`) until the caller either gives
    up on the connection or calls `discard_line`, which skips to the end of the over-long
    line and carries on with the rest of the input.

    The server reads commands, whose outer spaces mean nothing: it trims them (the
    default). A client reads the server's lines with `keep_spaces=True`: their leading
    spaces are part of FIBS's output (`show saved` rows are `  bob ...`, ` *bob ...`,
    `**bob ...`; `whois` details are indented), so only control characters go.
    """

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, *,
                 keep_spaces: bool = False) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be positive")
        self.max_line_bytes = max_line_bytes
        self.keep_spaces = keep_spaces
        self._buffer = bytearray()
        self._count = 0  # raw bytes of the current line so far
        self._after_cr = False  # a CR ended the last line: a LF or NUL now is its pair
        self._state = _Telnet.TEXT
        self._skipping = False  # dropping the rest of an over-long line
        self._failed = False  # raised LineTooLong; waiting for discard_line()
        # The unread tail of the chunk in which the limit was hit. It is the caller's
        # own chunk (bounded by its read size), not line data, and is only kept so that
        # discard_line() loses nothing that followed the over-long line.
        self._held_back = b""

    def feed(self, data: bytes) -> list[str]:
        """Consume `data`; return the lines it completed, without terminators."""
        if self._failed:
            raise ProtocolError("input refused after an over-long line; call discard_line()")
        return self._process(bytes(data))

    def discard_line(self) -> list[str]:
        """Drop the current line up to its terminator and continue reading.

        After `LineTooLong` this is how the caller keeps the connection: input held
        back from the chunk that overflowed is read on, and the lines it completes are
        returned (it may itself raise `LineTooLong` for another over-long line).
        Called at any other time it just drops the partial line received so far.
        """
        self._failed = False
        self._reset_line()
        self._skipping = True
        held, self._held_back = self._held_back, b""
        return self._process(held)

    @property
    def pending_bytes(self) -> int:
        """Bytes held for the current, unfinished line (never above the limit)."""
        return len(self._buffer)

    def _reset_line(self) -> None:
        self._buffer.clear()
        self._count = 0

    def _count_bytes(self, n: int) -> bool:
        """Count `n` raw bytes of the current line; True if that crosses the limit."""
        if self._skipping:
            return False
        self._count += n
        return self._count > self.max_line_bytes

    def _overflow(self, data: bytes, resume_at: int, lines: list[str]) -> LineTooLong:
        self._reset_line()
        self._skipping = True
        self._failed = True
        self._held_back = data[resume_at:]
        return LineTooLong(self.max_line_bytes, lines)

    def _process(self, data: bytes) -> list[str]:
        lines: list[str] = []
        i, n = 0, len(data)
        while i < n:
            state = self._state
            if state is _Telnet.TEXT:
                if self._after_cr:
                    self._after_cr = False
                    if data[i] in (_LF, _NUL):  # the second half of CR LF or CR NUL
                        i += 1
                        continue
                match = _TEXT_STOP.search(data, i)
                j = match.start() if match else n
                if j > i:
                    segment = data[i:j]
                    if self._count_bytes(len(segment)):
                        raise self._overflow(data, j, lines)
                    if not self._skipping:
                        self._buffer += segment
                if j == n:
                    break
                if data[j] == _IAC:
                    self._state = _Telnet.IAC
                    if self._count_bytes(1):
                        raise self._overflow(data, j + 1, lines)
                else:  # LF or CR: the line is complete
                    if self._skipping:
                        self._skipping = False
                    else:
                        lines.append(decode_line(bytes(self._buffer), trim=not self.keep_spaces))
                    self._reset_line()
                    self._after_cr = data[j] == _CR
                i = j + 1
                continue

            byte = data[i]
            i += 1
            if state is _Telnet.IAC:
                if byte == _IAC:  # IAC IAC: an escaped, literal 0xFF data byte
                    self._state = _Telnet.TEXT
                    if not self._skipping:
                        self._buffer.append(_IAC)
                elif byte in _WILL_WONT_DO_DONT:
                    self._state = _Telnet.OPTION
                elif byte == _SB:
                    self._state = _Telnet.SUB
                else:  # a two-byte command (NOP, AYT, IP, GA, a stray SE, ...)
                    self._state = _Telnet.TEXT
            elif state is _Telnet.OPTION:
                self._state = _Telnet.TEXT
            elif state is _Telnet.SUB:
                if byte == _IAC:
                    self._state = _Telnet.SUB_IAC
            else:  # SUB_IAC: only IAC SE ends a subnegotiation (IAC IAC is data in it)
                self._state = _Telnet.TEXT if byte == _SE else _Telnet.SUB
            if self._count_bytes(1):
                raise self._overflow(data, i, lines)
        return lines


# Control characters (C0 except tab, DEL, C1) and the Unicode line/paragraph separators
# are removed: none of them may reach the application or be echoed to other users.
_CLEAN_TABLE: Final[dict[int, str | None]] = {
    **{code: None for code in range(0x20)},
    0x09: " ",
    0x7F: None,
    **{code: None for code in range(0x80, 0xA0)},
    0x2028: None,
    0x2029: None,
}


def clean_text(text: str, *, trim: bool = True) -> str:
    """Tabs to spaces, control characters removed, outer whitespace trimmed (§1) unless
    `trim` is False."""
    cleaned = text.translate(_CLEAN_TABLE)
    return cleaned.strip() if trim else cleaned


def decode_line(raw: bytes, *, trim: bool = True) -> str:
    """Decode one line's bytes: UTF-8, else cp1252, else latin-1 (never fails); clean it
    (`clean_text`, which trims it unless `trim` is False)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError:  # the five bytes cp1252 leaves undefined
            text = raw.decode("latin-1")
    return clean_text(text, trim=trim)


def to_wire_text(text: str) -> str:
    """An ASCII-only rendering of `text` for a 7-bit server (FIBS is 7-bit, §1).

    Accented letters lose their accents (`é` → `e`); anything else outside ASCII becomes
    `?`, as BaldLies does.
    """
    if text.isascii():
        return text
    out: list[str] = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        base = "".join(c for c in decomposed if c.isascii())
        rest_is_marks = all(c.isascii() or unicodedata.combining(c) for c in decomposed)
        out.append(base if base and rest_is_marks else "?")
    return "".join(out)


def encode_line(text: str) -> bytes:
    """One server line: `text` + CRLF. KBackgammon needs the CR on every line (§1)."""
    if "\r" in text or "\n" in text:
        raise ValueError(f"a line must not contain CR or LF: {text!r}")
    return (text + "\r\n").encode("utf-8", "replace")


def encode_prompt(text: str) -> bytes:
    """A prompt without terminator (`login: `, `password: `, `> `); clients compare the
    unterminated buffer to it, so nothing may follow until they answer (§1)."""
    if "\r" in text or "\n" in text:
        raise ValueError(f"a prompt must not contain CR or LF: {text!r}")
    return text.encode("utf-8", "replace")
