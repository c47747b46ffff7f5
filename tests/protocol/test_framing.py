"""protocol.framing: bytes to lines whatever the chunking, bounded buffers, wire output."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import LineTooLong, ProtocolError
from protocol.framing import (
    ECHO_OFF,
    ECHO_ON,
    LineReader,
    decode_line,
    encode_line,
    encode_prompt,
    to_wire_text,
)
from protocol.wording import Text, render

TOO_LONG = object()  # marks "LineTooLong was raised here" in an event list


def read_events(reader: LineReader, chunks: list[bytes]) -> list[object]:
    """Feed `chunks`; on LineTooLong record it, discard the line and go on (as a lenient
    server would). Any exception other than LineTooLong propagates and fails the test."""
    events: list[object] = []

    def run(step: object) -> None:
        while True:
            try:
                events.extend(step() if callable(step) else [])
                return
            except LineTooLong as exc:
                events.extend(exc.lines)
                events.append(TOO_LONG)
                step = reader.discard_line

    for chunk in chunks:
        run(lambda chunk=chunk: reader.feed(chunk))
    return events


def split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


# Bytes that exercise every branch: terminators, telnet commands, controls, UTF-8.
interesting_bytes = st.lists(
    st.one_of(
        st.sampled_from(
            [b"\n", b"\r", b"\r\n", b"\xff", b"\xff\xff", b"\xff\xfb\x01", b"\xff\xfd\x03",
             b"\xff\xfa\x18\x00xterm\xff\xf0", b"\xff\xfa", b"\xff\xf0", b"\xff\xf1", b"\x00",
             b"\t", b"\x1b[2J", b"\x7f", "é".encode(), "€".encode("cp1252"), b"\x81", b"\xe9",
             "日本".encode(), b" "]
        ),
        st.binary(max_size=12),
        st.text(alphabet="abc xyz-0123456789", max_size=12).map(str.encode),
    ),
    max_size=40,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=interesting_bytes, cuts=st.lists(st.integers(min_value=0), max_size=12),
       limit=st.integers(min_value=1, max_value=40))
def test_same_events_however_the_bytes_are_chunked(data: bytes, cuts: list[int], limit: int) -> None:
    whole = read_events(LineReader(limit), [data])
    assert read_events(LineReader(limit), split_at(data, cuts)) == whole
    assert read_events(LineReader(limit), [bytes([b]) for b in data]) == whole


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300) | interesting_bytes,
       cuts=st.lists(st.integers(min_value=0), max_size=8))
def test_arbitrary_bytes_give_lines_or_protocol_error_only(data: bytes, cuts: list[int]) -> None:
    reader = LineReader(64)
    for chunk in split_at(data, cuts):
        try:
            lines = reader.feed(chunk)
        except ProtocolError:
            return  # the only failure allowed; the server closes the connection
        assert reader.pending_bytes <= 64  # never more than the limit is held
        for line in lines:
            assert line == line.strip()
            assert not any(unicodedata.category(ch) == "Cc" for ch in line)
            assert "\r" not in line and "\n" not in line


@settings(max_examples=100, deadline=None)
@given(data=interesting_bytes, cuts=st.lists(st.integers(min_value=0), max_size=8))
def test_lines_are_clean_text(data: bytes, cuts: list[int]) -> None:
    for event in read_events(LineReader(1000), split_at(data, cuts)):
        assert isinstance(event, str)
        assert event == event.strip()
        assert not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in event)


def test_lf_and_crlf_both_end_lines() -> None:
    reader = LineReader(100)
    assert reader.feed(b"who\r\nrawwho bob\nset boardstyle 3\r\n") == [
        "who",
        "rawwho bob",
        "set boardstyle 3",
    ]


def test_partial_line_waits_for_its_terminator() -> None:
    reader = LineReader(100)
    assert reader.feed(b"log") == []
    assert reader.feed(b"in a 1008 b c") == []
    assert reader.feed(b"\r\n") == ["login a 1008 b c"]


def test_empty_lines_are_lines() -> None:
    assert LineReader(10).feed(b"\r\n\n  \n") == ["", "", ""]


@pytest.mark.parametrize(
    ("chunks", "line"),
    [
        ([b"ab\xff", b"\xfb\x01cd\n"], "abcd"),  # IAC | WILL ECHO
        ([b"ab\xff\xfb", b"\x01cd\n"], "abcd"),  # IAC WILL | ECHO
        ([b"a\xff", b"\xffb\n"], "aÿb"),  # IAC | IAC is a literal 0xFF (latin-1 fallback)
        ([b"a\xff\xfa\x18", b"\x00xt\nerm\xff", b"\xf0b\n"], "ab"),  # LF inside SB is data
        ([b"a\xff\xfa\xff\xff\n", b"\xff\xf0b\n"], "ab"),  # IAC IAC inside SB
        ([b"\xff", b"\xf4ok\n"], "ok"),  # IAC IP (telnet ^C), a two-byte command
        ([b"\xff\xfd", b"\x18\xff\xfc", b"\x01x\n"], "x"),  # DO TTYPE, WONT ECHO
    ],
)
def test_telnet_sequences_are_stripped_across_chunks(chunks: list[bytes], line: str) -> None:
    reader = LineReader(100)
    lines = [out for chunk in chunks for out in reader.feed(chunk)]
    assert lines == [line]


def test_control_characters_removed_tabs_become_spaces_and_lines_trimmed() -> None:
    reader = LineReader(100)
    assert reader.feed(b"  say\thi\x00 \x07there\x1b \x7f \r\n") == ["say hi there"]


def test_a_client_reader_keeps_a_server_lines_spaces() -> None:
    # `show saved` rows start with spaces or a star (issue 20 §2); a client reads them as
    # sent, only control characters go. The server's reader trims commands.
    rows = [render(Text.SAVED_ROW, name="bob", length=5, score=1, opponent_score=2),
            render(Text.SAVED_ROW_PLAYING, name="bob", length=5, score=1, opponent_score=2)]
    data = b"".join(encode_line(row) for row in rows) + b" \tindented\x07 \r\n"
    assert rows[0].startswith("  bob") and rows[1].startswith(" *bob")
    assert LineReader(100, keep_spaces=True).feed(data) == [*rows, "  indented "]
    assert LineReader(100).feed(data) == [row.strip() for row in rows] + ["indented"]


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("café ☺".encode(), "café ☺"),  # UTF-8
        ("café €".encode("cp1252"), "café €"),  # old Windows client
        (b"caf\xe9 \x81", "café"),  # not cp1252 either (0x81): latin-1, C1 control dropped
    ],
)
def test_decoding_falls_back_per_line(raw: bytes, text: str) -> None:
    assert decode_line(raw) == text
    assert LineReader(100).feed(raw + b"\n" + "ü".encode() + b"\n") == [text, "ü"]


def test_line_at_the_limit_passes_with_lf_or_crlf() -> None:
    reader = LineReader(10)
    assert reader.feed(b"0123456789\n0123456789\r\n") == ["0123456789", "0123456789"]
    # The CR ends the line at once; the LF arriving later is its pair, not a new line.
    assert reader.feed(b"0123456789\r") == ["0123456789"]
    assert reader.feed(b"\n") == []
    assert reader.pending_bytes == 0


@pytest.mark.parametrize(
    ("chunks", "lines"),
    [
        ([b"who\r\x00", b"roll\r\x00"], ["who", "roll"]),  # telnet CR NUL (PuTTY)
        ([b"who\r", b"\x00roll\r"], ["who", "roll"]),
        ([b"who\rroll\r"], ["who", "roll"]),  # a bare CR (old clients)
        ([b"who\r\r\n"], ["who", ""]),  # CR CR LF: an empty line in between
        ([b"who\n\r"], ["who", ""]),  # LF CR: the CR ends an empty line
        ([b"a\r\xff\xf1\nb\n"], ["a", "", "b"]),  # only an LF right after the CR pairs
    ],
)
def test_cr_alone_or_with_nul_ends_a_line(chunks: list[bytes], lines: list[str]) -> None:
    reader = LineReader(100)
    assert [line for chunk in chunks for line in reader.feed(chunk)] == lines


def test_over_long_line_raises_as_soon_as_it_passes_the_limit() -> None:
    reader = LineReader(10)
    with pytest.raises(LineTooLong) as caught:
        reader.feed(b"ok\n01234567890")
    assert caught.value.lines == ["ok"]
    assert caught.value.max_line_bytes == 10
    assert reader.pending_bytes == 0


def test_over_long_input_is_never_buffered() -> None:
    reader = LineReader(1024)
    with pytest.raises(LineTooLong):
        for _ in range(1000):  # would be 4 MB without a newline
            reader.feed(b"x" * 4096)
            assert reader.pending_bytes <= 1024
    # Refused until the caller decides to continue.
    with pytest.raises(ProtocolError):
        reader.feed(b"more")
    assert reader.discard_line() == []
    for _ in range(100):  # the rest of the long line is skipped without buffering
        assert reader.feed(b"y" * 4096) == []
        assert reader.pending_bytes == 0
    assert reader.feed(b"yyy\nwho\n") == ["who"]


def test_discard_line_continues_with_the_rest_of_the_chunk() -> None:
    reader = LineReader(5)
    with pytest.raises(LineTooLong) as caught:
        reader.feed(b"a\nbbbbbbbbbb\nc\nd")
    assert caught.value.lines == ["a"]
    assert reader.discard_line() == ["c"]
    assert reader.feed(b"\n") == ["d"]


def test_telnet_bytes_count_against_the_limit() -> None:
    # An endless subnegotiation must not be a way around the limit.
    reader = LineReader(100)
    with pytest.raises(LineTooLong):
        reader.feed(b"\xff\xfa" + b"\x00" * 200)


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        LineReader(0)


def test_encode_line_ends_with_crlf() -> None:
    assert encode_line("6") == b"6\r\n"
    assert encode_line("") == b"\r\n"
    assert encode_line("café") == "café\r\n".encode()
    with pytest.raises(ValueError):
        encode_line("two\nlines")


def test_prompts_have_no_terminator() -> None:
    assert encode_prompt("login: ") == b"login: "
    assert encode_prompt("> ") == b"> "
    with pytest.raises(ValueError):
        encode_prompt("x\r\n")


def test_echo_bytes_are_iac_will_and_wont_echo() -> None:
    assert ECHO_OFF == bytes([255, 251, 1])
    assert ECHO_ON == bytes([255, 252, 1])


def test_to_wire_text_keeps_ascii_and_strips_accents() -> None:
    assert to_wire_text("plain ASCII ~!") == "plain ASCII ~!"
    assert to_wire_text("Müller naïve") == "Muller naive"
    assert to_wire_text("日本 ß") == "?? ?"


@given(st.text())
def test_to_wire_text_is_always_ascii(text: str) -> None:
    assert to_wire_text(text).isascii()
    if text.isascii():
        assert to_wire_text(text) == text


def test_codec_modules_import_no_io_and_no_server() -> None:
    # Sans-I/O (architecture.md): bots import these without trio, sockets or fibsd.
    import subprocess
    import sys

    code = (
        "import sys, protocol.framing, protocol.commands, protocol.listings, protocol.errors,"
        " protocol.vocabulary;"
        "bad = {'trio', 'socket', 'fibsd', 'random', 'selectors'} & set(sys.modules);"
        "print(sorted(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
