"""protocol.messages: CLIP and telnet renderings per recipient, and parse(render(x)) == x."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from protocol.board import BoardLine
from protocol.messages import (
    Alert,
    BoardMessage,
    ClipMessage,
    Kibitzes,
    LoginNotice,
    LogoutNotice,
    Message,
    MessageDelivered,
    MessageSaved,
    MotdBegin,
    MotdEnd,
    OwnInfo,
    Says,
    ServerMessage,
    Shouts,
    TextLine,
    UnknownLine,
    Welcome,
    Whispers,
    WhoInfo,
    WhoInfoEnd,
    YouKibitz,
    YouSay,
    YouShout,
    YouWhisper,
    is_server_message,
    parse_server_line,
    render_lines,
)
from protocol.wording import LINE_FRAGMENTS, Text, match_text
from tests.protocol.test_board import EXAMPLE_START, board_lines
from tests.protocol.test_wording import field_values, user_names

words = st.text(string.ascii_letters + string.digits + "._-@/<>", min_size=1, max_size=30).filter(
    lambda word: word != "-"
)
free_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60)
ratings = st.floats(0, 5000, allow_nan=False).map(lambda value: round(value, 2))
unix_seconds = st.integers(-(2**31), 2**33)
flag = st.booleans()


@st.composite
def who_infos(draw: st.DrawFn) -> WhoInfo:
    partner = draw(st.sampled_from(["none", "opponent", "watching"]))
    return WhoInfo(
        name=draw(user_names),
        opponent=draw(user_names) if partner == "opponent" else None,
        watching=draw(user_names) if partner == "watching" else None,
        ready=draw(flag), away=draw(flag), rating=draw(ratings),
        experience=draw(st.integers(0, 10**6)), idle_seconds=draw(st.integers(0, 10**6)),
        login_time=draw(unix_seconds), hostname=draw(words),
        client=draw(st.none() | words), email=draw(st.none() | words),
    )


own_infos = st.builds(
    OwnInfo,
    name=user_names, allowpip=flag, autoboard=flag, autodouble=flag, automove=flag, away=flag,
    bell=flag, crawford=flag, double=flag, experience=st.integers(0, 10**6), greedy=flag,
    moreboards=flag, moves=flag, notify=flag, rating=ratings, ratings=flag, ready=flag,
    redoubles=st.one_of(st.integers(0, 99), st.just("unlimited")), report=flag, silent=flag,
    timezone=words,
)

clip_messages: st.SearchStrategy[ClipMessage] = st.one_of(
    st.builds(Welcome, user_names, unix_seconds, words),
    own_infos,
    st.just(MotdBegin()),
    st.just(MotdEnd()),
    who_infos(),
    st.just(WhoInfoEnd()),
    st.builds(LoginNotice.logs_in, user_names),
    st.builds(LoginNotice, user_names, free_text),
    st.builds(LogoutNotice.logs_out, user_names),
    st.builds(LogoutNotice.drops_connection, user_names),
    st.builds(LogoutNotice.waves_goodbye_again, user_names),
    st.builds(Message, user_names, unix_seconds, free_text),
    st.builds(MessageDelivered, user_names),
    st.builds(MessageSaved, user_names),
    *(st.builds(cls, user_names, free_text) for cls in (Says, Shouts, Whispers, Kibitzes, YouSay, Alert)),
    *(st.builds(cls, free_text) for cls in (YouShout, YouWhisper, YouKibitz)),
)


@st.composite
def text_lines(draw: st.DrawFn) -> TextLine:
    text = draw(st.sampled_from([text for text in Text if text not in LINE_FRAGMENTS]))
    return TextLine(text, draw(field_values(text)))


server_messages: st.SearchStrategy[ServerMessage] = st.one_of(
    clip_messages, text_lines(), board_lines().map(BoardMessage)
)


@settings(max_examples=600, deadline=None)
@given(clip_messages)
def test_clip_messages_parse_back_to_themselves(message: ClipMessage) -> None:
    lines = render_lines(message, clip=True, clip_version=1009)
    assert len(lines) == 1
    assert parse_server_line(lines[0]) == message


@settings(max_examples=600, deadline=None)
@given(server_messages)
def test_every_message_parses_back_to_itself_for_a_clip_recipient(message: ServerMessage) -> None:
    (line,) = render_lines(message, clip=True, clip_version=1009)
    assert parse_server_line(line) == message


@settings(max_examples=400, deadline=None)
@given(clip_messages)
def test_telnet_renderings_parse_into_events_that_render_back_identically(
    message: ClipMessage,
) -> None:
    for line in render_lines(message, clip=False):
        if isinstance(message, (LoginNotice, LogoutNotice)):
            # Their telnet form is their free text: only the table's sentences are typed.
            assume(match_text(line) is not None)
        event = parse_server_line(line)
        assert isinstance(event, TextLine)
        assert render_lines(event, clip=False) == [line]


@pytest.mark.parametrize(
    "message",
    [MotdBegin(), MotdEnd(), WhoInfoEnd(), Welcome("bob", 1, "host")],
)
def test_telnet_users_get_no_clip_markers(message: ClipMessage) -> None:
    assert render_lines(message, clip=False) == []


def test_telnet_forms_of_chat() -> None:
    assert render_lines(Says("bob", "hi there"), clip=False) == ["bob says: hi there"]
    assert render_lines(Shouts("bob", "hi"), clip=False) == ["bob shouts: hi"]
    assert render_lines(Kibitzes("sorrytigger", "Hi and good luck"), clip=False) == [
        "sorrytigger kibitzes: Hi and good luck"
    ]
    assert render_lines(YouSay("bob", "x"), clip=False) == ["** You tell bob: x"]
    assert render_lines(LoginNotice.logs_in("someplayer"), clip=False) == ["someplayer logs in."]
    assert render_lines(LoginNotice.logs_in("someplayer"), clip=True) == [
        "7 someplayer someplayer logs in."
    ]


def test_alert_is_clip_20_only_from_version_1009() -> None:
    alert = Alert("admin", "server restarts soon")
    assert render_lines(alert, clip=True, clip_version=1009) == ["20 admin server restarts soon"]
    assert render_lines(alert, clip=True, clip_version=1008) == ["12 admin server restarts soon"]
    assert render_lines(alert, clip=False) == ["admin says: server restarts soon"]


REFERENCE_CLIP_LINES = [
    "1 myself 1041253132 192.168.1.308",
    "2 myself 1 1 0 0 0 0 1 1 2396 0 1 0 1 3457.85 0 0 0 0 0 Australia/Melbourne",
    "2 wxpygammon 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC",
    "5 mgnu_advanced someplayer - 1 0 1912.15 827 8 1040515752 192.168.143.5 3DFiBs -",
    "5 someplayer mgnu_advanced - 0 0 1418.61 23 1914 1041272421 192.168.40.3 MacFIBS someplayer@somewhere.com",
    "5 anotherplayer - - 0 0 1439.79 1262 410 1041251697 somehost.com - -",
    "5 MonteCarlo spooky - 1 0 1928.52 935201 1 1200210127 swangames.com - ComputerPlayer___MonteCarlo@gamercafe.com",
    "6",
    "7 someplayer someplayer logs in.",
    "8 someplayer someplayer drops connection.",
    "9 someplayer 1041253132 I'll log in at 10pm if you want to finish that game.",
    "9 gflohr -1306935184    Be back at 20 p.m.",
    "10 someplayer",
    "11 someplayer",
    "12 someplayer Do you want to play a game?",
    "13 someplayer Anybody for a 5 point match?",
    "14 someplayer I think he should double now.",
    "15 someplayer G'Day and good luck from Hobart, Australia.",
    "16 someplayer Yes, sure.",
    "17 Anybody for a 5 point match?",
    "18 Hi there.",
    "19 Nice move!",
    "20 someplayer Please pay attention.",
    "3",
    "4",
]


@pytest.mark.parametrize("line", REFERENCE_CLIP_LINES)
def test_reference_clip_lines_parse_and_render_back_byte_identical(line: str) -> None:
    event = parse_server_line(line)
    assert not isinstance(event, (UnknownLine, TextLine)), event
    assert render_lines(event, clip=True, clip_version=1009) == [line]


def test_own_info_fields_are_in_the_reference_order() -> None:
    info = parse_server_line(REFERENCE_CLIP_LINES[1])
    assert isinstance(info, OwnInfo)
    assert (info.allowpip, info.autoboard, info.autodouble, info.crawford, info.double) == (
        True, True, False, True, True,
    )
    assert (info.experience, info.moreboards, info.notify, info.rating) == (2396, True, True, 3457.85)
    assert (info.redoubles, info.timezone) == (0, "Australia/Melbourne")
    unlimited = OwnInfo(
        "me", *[False] * 8, 0, *[False] * 4, 1500.0, False, False, "unlimited", False, False, "UTC"  # type: ignore[arg-type]
    )
    (line,) = render_lines(unlimited, clip=True)
    assert line == "2 me 0 0 0 0 0 0 0 0 0 0 0 0 0 1500.00 0 0 unlimited 0 0 UTC"
    assert len(line.split(" ")) == 22


def test_who_info_uses_dashes_for_empty_fields_and_validates_tokens() -> None:
    who = WhoInfo("bob", None, None, False, False, 1500.0, 0, 0, 0, "localhost", None, None)
    assert render_lines(who, clip=True) == ["5 bob - - 0 0 1500.00 0 0 0 localhost - -"]
    with pytest.raises(ValueError):
        WhoInfo("bob", "al", "cy", False, False, 1500.0, 0, 0, 0, "h", None, None)
    with pytest.raises(ValueError):
        WhoInfo("bob", None, None, False, False, 1500.0, 0, 0, 0, "two words", None, None)
    with pytest.raises(ValueError):
        WhoInfo("bob", None, None, False, False, 1500.0, 0, 0, 0, "h", "", None)


def test_chat_text_must_be_one_line() -> None:
    with pytest.raises(ValueError):
        Says("bob", "two\r\nlines")


def test_text_line_keeps_fields_as_they_appear() -> None:
    line = TextLine.of(Text.ROLLS, name="bob", die1=3, die2=5)
    assert line.fields == {"name": "bob", "die1": "3", "die2": "5"}
    assert render_lines(line, clip=True) == render_lines(line, clip=False) == ["bob rolls 3 and 5."]
    assert parse_server_line("bob rolls 3 and 5.") == line
    with pytest.raises(ValueError):
        TextLine.of(Text.ROLLS, name="bob", die1=3, die2=5, colour="X")
    with pytest.raises(KeyError):
        TextLine.of(Text.ROLLS, name="bob")


def test_board_messages_follow_the_board_style() -> None:
    board = BoardLine.decode(EXAMPLE_START)
    assert render_lines(BoardMessage(board), clip=True) == [EXAMPLE_START]
    assert parse_server_line(EXAMPLE_START) == BoardMessage(board)
    ascii_lines = render_lines(BoardMessage(board, style=2, player_name="myself"), clip=False)
    assert len(ascii_lines) == 17 and ascii_lines[1].endswith("X: someplayer - score: 0")


def test_lines_without_structure_are_unknown() -> None:
    for line in ["+----------+", "| All bots must have an address |", "", "board:You:x:1", "12"]:
        assert parse_server_line(line) == UnknownLine(line)
        assert render_lines(UnknownLine(line), clip=True) == [line]


def _renders_back(line: str) -> None:
    event = parse_server_line(line)
    if not isinstance(event, UnknownLine):
        assert render_lines(event, clip=True, clip_version=1009) == [line], (line, event)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=80).filter(lambda line: "\r" not in line and "\n" not in line))
def test_any_line_parses_and_a_typed_event_renders_back_exactly(line: str) -> None:
    _renders_back(line)


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from([str(number) for number in range(1, 21)] + ["board:"]).flatmap(
        lambda head: st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60).map(
            lambda rest: f"{head} {rest}" if head != "board:" else head + rest
        )
    )
)
def test_malformed_clip_and_board_lines_are_unknown_or_exact(line: str) -> None:
    _renders_back(line)


@pytest.mark.parametrize(
    "line",
    [
        "1 bob +5 host",  # int() would accept the sign
        "5 bob - - 1 0 1500.1 0 0 0 h - -",  # a rating has two decimals
        "allowpip YES",  # the toggle row pads names to 16 columns
        "rating difference D=1.5",  # six decimals
        EXAMPLE_START.replace(":1:1:1:0:1:-1", ":1:1:1:0:1:-01"),  # "-01" is not how FIBS writes -1
    ],
)
def test_near_misses_are_unknown_lines(line: str) -> None:
    assert parse_server_line(line) == UnknownLine(line)


def test_parse_takes_one_line() -> None:
    with pytest.raises(ValueError):
        parse_server_line("6\r\n5 bob")


@settings(deadline=None)  # timing varies on a shared machine; no per-example deadline
@given(server_messages)
def test_every_message_is_recognised_as_a_server_message(message: ServerMessage) -> None:
    assert is_server_message(message)


def test_other_values_are_not_server_messages() -> None:
    for value in [None, "bob rolls 3 and 5.", Text.ROLLS, ["6"], BoardLine.decode(EXAMPLE_START)]:
        assert not is_server_message(value)
