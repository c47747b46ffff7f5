"""protocol.wording: templates render, every rendered line is recognised as its own member,
and the multi-line texts are the reference's."""

from __future__ import annotations

import datetime
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import wording
from protocol.wording import (
    FIELD_KINDS,
    LINE_FRAGMENTS,
    PROMPTS,
    FieldKind,
    RatingChange,
    Text,
    banner_lines,
    candidates,
    count_phrase,
    format_fields,
    goodbye_lines,
    guest_lines,
    match_text,
    pattern,
    rating_calculation_lines,
    render,
    resume_synopsis_lines,
    template_fields,
    time_line,
)

# The FIBS protocol reference (every line real FIBS sends, with its sources), kept with the
# tests as data: tests/data/README.md.
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "fibs-protocol.md"

# "You" is what FIBS writes for the recipient; no user may be called that (the server
# reserves it), otherwise "You rolled 5, bob rolled 1" would be ambiguous.
user_names = st.text(string.ascii_letters + "_", min_size=1, max_size=20).filter(
    lambda name: name != "You"
)
_moves = st.lists(
    st.tuples(
        st.one_of(st.integers(1, 24).map(str), st.just("bar")),
        st.one_of(st.integers(1, 24).map(str), st.just("off")),
    ).map("-".join),
    min_size=1,
    max_size=4,
).map(" ".join)
_single_line_text = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40
)

KIND_VALUES: dict[FieldKind, st.SearchStrategy[str]] = {
    FieldKind.NAME: user_names,
    FieldKind.NUMBER: st.integers(0, 100_000).map(str),
    FieldKind.DECIMAL: st.floats(-5000, 5000, allow_nan=False).map(lambda value: f"{value:.6f}"),
    FieldKind.COUNT: st.builds(count_phrase, st.integers(0, 64), st.sampled_from(["point", "user"])),
    FieldKind.POINT: st.one_of(st.integers(1, 24).map(str), st.sampled_from(["bar", "off", "home"])),
    FieldKind.MOVES: _moves,
    FieldKind.COLOUR: st.sampled_from(["X", "O"]),
    FieldKind.ORDINAL: st.sampled_from(["first", "second", "third", "fourth"]),
    FieldKind.TOKEN: st.text(string.ascii_letters + string.digits + "_-.@", min_size=1, max_size=12),
    FieldKind.TEXT: _single_line_text,
}

LINE_TEXTS = [text for text in Text if text not in LINE_FRAGMENTS]


def field_values(text: Text) -> st.SearchStrategy[dict[str, str]]:
    kinds = {field.name: field.kind for field in wording._template(text).fields}
    return st.fixed_dictionaries({name: KIND_VALUES[kind] for name, kind in kinds.items()})


@st.composite
def rendered_lines(draw: st.DrawFn, texts: list[Text] = LINE_TEXTS) -> tuple[Text, dict[str, str]]:
    text = draw(st.sampled_from(texts))
    return text, draw(field_values(text))


def test_every_template_compiles_and_has_kinds_for_its_fields() -> None:
    for text in Text:
        assert pattern(text).pattern
        for name in template_fields(text):
            assert name.isidentifier()


@settings(max_examples=1500, deadline=None)
@given(rendered_lines())
def test_a_rendered_line_is_recognised_as_its_member_with_its_fields(
    case: tuple[Text, dict[str, str]],
) -> None:
    text, fields = case
    line = render(text, **fields)
    found = match_text(line)
    assert found is not None, line
    assert found[0] is text, (line, found[0])
    assert render(found[0], **found[1]) == line
    if not _has_inner_free_text(text):
        assert found[1] == format_fields(text, **fields)


def _has_inner_free_text(text: Text) -> bool:
    fields = wording._template(text).fields
    return any(field.kind is FieldKind.TEXT for field in fields[:-1])


def test_specific_sentences_win_over_general_ones() -> None:
    assert match_text("** Gagged users: none") == (Text.GAGGED_NONE, {})
    assert match_text("** Gagged users: a,b") == (Text.GAGGED_LIST, {"names": "a,b"})
    assert match_text("Pipcounts: You 167   bob 160") == (
        Text.PIPCOUNTS,
        {"pips": "167", "opponent": "bob", "opponent_pips": "160"},
    )
    assert match_text("You rolled 5, bob rolled 1") is not None
    assert match_text("You rolled 5, bob rolled 1")[0] is Text.YOU_ROLLED_OPENING  # type: ignore[index]
    assert match_text("alice rolled 5, bob rolled 1")[0] is Text.ROLLED_OPENING  # type: ignore[index]


def test_lines_that_are_not_in_the_table_are_not_matched() -> None:
    for line in ["", "bob moves 8-5 6-5", "bob rolls 3 and 5", "hello world", "5 bob - -"]:
        assert match_text(line) is None, line


def test_the_index_narrows_the_search_for_the_hot_lines() -> None:
    for line in ["bob moves 8-5 6-5 .", "bob rolls 3 and 5.", "You roll 3 and 5.", "** You're not playing."]:
        assert len(candidates(line)) <= 25, (line, len(candidates(line)))
    assert len(candidates("bob moves 8-5 6-5 .")) < len(LINE_TEXTS) // 5


def test_parsed_fields_are_the_rendered_forms() -> None:
    assert match_text("rating difference D=155.634835") == (
        Text.RATING_DIFFERENCE,
        {"difference": "155.634835"},
    )
    assert render(Text.RATING_DIFFERENCE, difference="155.634835") == "rating difference D=155.634835"
    assert render(Text.RATING_DIFFERENCE, difference=155.6348351) == "rating difference D=155.634835"
    assert format_fields(Text.RATING_K, name="bob", k=1) == {"name": "bob", "k": "1.000000"}


def test_repeated_fields_must_repeat_the_same_value() -> None:
    line = "** bob doesn't allow this. Ask bob to 'toggle allowpip'"
    assert match_text(line) == (Text.PIP_NOT_ALLOWED, {"name": "bob"})
    assert match_text("** bob doesn't allow this. Ask al to 'toggle allowpip'") is None


def test_padded_fields_are_matched_without_their_padding() -> None:
    assert wording._field_regex(
        wording._Field("name", "<16", FieldKind.NAME, ""), last=False
    ) == r"(?P<name>[A-Za-z_<>]+) *"
    assert wording._field_regex(
        wording._Field("n", ">5d", FieldKind.NUMBER, "d"), last=True
    ) == r" *(?P<n>-?\d+)"


def test_count_phrase_pluralises_like_fibs() -> None:
    assert count_phrase(1, "point") == "1 point"
    assert count_phrase(2, "point") == "2 points"
    assert count_phrase(0, "user") == "0 users"
    assert render(Text.USERS_HEARD_YOU, users=count_phrase(1, "user")) == "** 1 user heard you."


def test_field_kinds_cover_the_game_flow_fields() -> None:
    for name in ("name", "opponent", "winner", "watcher"):
        assert FIELD_KINDS[name] is FieldKind.NAME
    for name in ("length", "score", "cube", "die1", "die2", "n"):
        assert FIELD_KINDS[name] is FieldKind.NUMBER


def test_no_line_of_the_table_starts_with_a_digit() -> None:
    # FCM and KBackgammon treat a leading digit as a CLIP message number.
    for text in LINE_TEXTS:
        assert not text.value[:1].isdigit(), text


def test_no_line_of_the_table_has_trailing_whitespace_unless_it_is_a_prompt() -> None:
    for text in LINE_TEXTS:
        if text not in PROMPTS and text not in LINE_FRAGMENTS:
            assert text.value == text.value.rstrip(), text


# --- exact wording checked against the reference -------------------------------------------

EXACT = {
    Text.GOODBYE: " " * 29 + "Goodbye.",
    Text.YOUR_TURN_ROLL_OR_DOUBLE: "It's your turn. Please roll or double",
    Text.TYPE_JOIN_NEXT_GAME: "Type 'join' if you want to play the next game, type 'leave' if you don't.",
    Text.NO_ONE_CALLED: "** There is no one called {name}",
    Text.PLAYER_LEFT_GAME: "** Player {name} has left the game. The game was saved.",
    Text.PLEASE_MOVE: "Please move {n} pieces.",
    Text.MOVES: "{name} moves {moves} .",
    Text.ONLY_POSSIBLE_MOVE: "The only possible move is {moves} .",
    Text.SYNOPSIS_POINTS: "points for {name}: {score}",
    Text.REPORT_WINS_MATCH: "{name} wins a {length} point match against {opponent}  {score}-{opponent_score} .",
    Text.JOINED_YOU_UNLIMITED: "Player {name} has joined you for an unlimited match.",
    Text.NOW_PLAYING_MATCH: "** You are now playing a {length} point match with {name}",
    Text.SAVED_MATCH_WARNING: "WARNING: Don't accept if you want to continue the saved {length} point match!",
    Text.WATCHED_LOGS_OUT: "{name} logs out.. You're not watching anymore.",
    Text.NOT_YOUR_TURN_TO_DOUBLE: "** It's not your turn to double",
    Text.MUST_GIVE_MOVES: "** You must give {n} moves.",
    Text.BANNER_ONE_ACCOUNT: "                     One account per person only!",
}


def test_sentences_clients_depend_on_are_exact() -> None:
    for text, expected in EXACT.items():
        assert text.value == expected


# Members whose wording the reference leaves open (UNVERIFIED there) or that are ours.
NOT_IN_REFERENCE = {
    Text.MESSAGE_DELIVERED, Text.MESSAGE_SAVED, Text.DOUBLE_NOT_ANSWERED,
    Text.WAITFOR_LIST_ENTRY, Text.AWAY_LIST_ENTRY, Text.BOARD_REDOUBLES, Text.BOARD_CUBE_OWNER,
    Text.BOARD_COUNTS, Text.BOARD_ROLLED, Text.BOARD_BORDER_LABEL, Text.DONE,
    Text.OLDMOVES_CANT_MOVE, Text.OLDMOVES_PLAY, Text.REDOUBLE_WRONG_WORD,
    Text.BOARD_CLOCK,  # fibsd's match clocks (docs/clocks.md)
    Text.SAVED_UNLIMITED_WARNING,  # the reference abbreviates it: "(or `…the saved unlimited match!`)"
}


def command_section() -> set[Text]:
    """The members of the table's other section ("commands, their errors and listings"),
    which the command tests own; read from the source, where the sections are marked."""
    source = Path(wording.__file__).read_text()
    section = source.split("# --- commands, their errors and listings")[1]
    section = section.split("# --- the mechanism")[0]
    return {text for text in Text if re.search(rf"^    {text.name} = ", section, re.MULTILINE)}


def test_every_literal_piece_of_the_game_flow_wording_is_in_the_reference() -> None:
    """Guards against typos: the longest literal piece of each sentence of this section
    occurs verbatim in the reference (which writes fields as NAME, N, ...)."""
    reference = REFERENCE.read_text()
    missing = []
    for text in set(Text) - NOT_IN_REFERENCE - command_section():
        pieces = [literal for literal, _ in wording._template(text).pieces]
        longest = max(pieces, key=len).strip(" ")
        if len(longest) >= 4 and longest not in reference:
            missing.append((text.name, longest))
    assert missing == []


def is_fibs_own(text: Text, reference: str) -> bool:
    """FIBS sends this sentence: its longest literal piece is in the reference."""
    pieces = [literal for literal, _ in wording._template(text).pieces]
    longest = max(pieces, key=len).strip(" ")
    return len(longest) >= 4 and longest in reference


def test_every_star_line_reaches_a_fibs_client_only_if_fibs_sends_it_or_it_asked() -> None:
    """GUI clients (Gibbon, JavaFIBS) show an unknown `** ` line as an error dialog: every
    `** ` line of the table is FIBS's own, or an extension line (a FIBS client gets its
    FIBS fallback or nothing), or the answer to one of fibsd's own commands, or a refusal,
    or a chouette's or tournament's line (those reach only who joined one)."""
    reference = REFERENCE.read_text()
    offenders = [
        text.name
        for text in LINE_TEXTS
        if text.value.startswith("** ")
        and not is_fibs_own(text, reference)
        and text not in wording.EXTENSION_LINES
        and text not in wording.OWN_COMMAND_ANSWERS
        and text not in wording.REFUSALS
        and not text.name.startswith(("CHOUETTE_", "TOURNAMENT_"))
    ]
    assert offenders == []


def test_the_fibs_fallback_of_an_extension_line_is_fibs_own_and_has_its_fields() -> None:
    reference = REFERENCE.read_text()
    for line, fallback in wording.EXTENSION_LINES.items():
        if fallback is not None:
            assert is_fibs_own(fallback, reference), fallback.name
            assert set(template_fields(fallback)) <= set(template_fields(line)), line.name


def test_the_lists_of_fibsd_own_star_lines_hold_only_star_lines_fibs_never_sent() -> None:
    reference = REFERENCE.read_text()
    for text in wording.OWN_COMMAND_ANSWERS | wording.REFUSALS:
        assert text.value.startswith("** ") and not is_fibs_own(text, reference), text.name
    assert not wording.OWN_COMMAND_ANSWERS & wording.REFUSALS
    assert not (wording.OWN_COMMAND_ANSWERS | wording.REFUSALS) & wording.EXTENSION_LINES.keys()


# --- multi-line texts -------------------------------------------------------------------------


def test_banner_has_the_lines_clients_wait_for_and_no_line_starts_with_a_digit() -> None:
    lines = banner_lines(
        club_line="         fibsd: a FIBS-compatible server at example.org",
        date_line="Wednesday, April 09 09:08:53 MEST   ( Wed Apr  9 07:08:53 2008 UTC )",
    )
    assert "                     One account per person only!" in lines
    assert "              LOGIN AS guest IF YOU ARE NEW TO THIS SERVER!" in lines
    assert lines[0] == "WELCOME TO THE"
    assert lines[-1].startswith("Wednesday, April 09")
    assert all(not line[:1].isdigit() for line in lines)


@pytest.mark.parametrize("bad", ["1 club", "3", "4 ever", "two\nlines"])
def test_banner_refuses_lines_clients_would_misread(bad: str) -> None:
    with pytest.raises(ValueError):
        banner_lines(club_line=bad, date_line="Monday")
    with pytest.raises(ValueError):
        banner_lines(club_line="club", date_line=bad)


def test_time_line_has_the_fibs_format() -> None:
    local = datetime.datetime(2008, 4, 9, 9, 8, 53)
    utc = datetime.datetime(2008, 4, 9, 7, 8, 53)
    assert time_line(local, "MEST", utc) == (
        "Wednesday, April 09 09:08:53 MEST   ( Wed Apr  9 07:08:53 2008 UTC )"
    )
    assert time_line(
        datetime.datetime(2003, 1, 15, 22, 18, 35), "EST", datetime.datetime(2003, 1, 15, 11, 18, 35)
    ) == "Wednesday, January 15 22:18:35 EST   ( Wed Jan 15 11:18:35 2003 UTC )"


def test_goodbye_starts_with_29_spaces() -> None:
    lines = goodbye_lines(contact="                         admin@example.org")
    assert lines[0] == " " * 29 + "Goodbye."
    assert re.match(r"^                             Goodbye\.", lines[0])


def test_guest_text_is_the_reference_text() -> None:
    assert guest_lines() == [
        "Welcome to FIBS. You just logged in as guest.",
        "Please register before using this server:",
        "",
        "Type 'name username' where name is the word 'name' and",
        "username is the login name you want to use.",
        "The username may not contain blanks ' ' or colons ':'.",
        "The system will then ask you for your password twice.",
        "Please make sure that you don't forget your password. All",
        "passwords are encrypted before they are saved. If you forget",
        "your password there is no way to find out what it was.",
        "Please type 'bye' if you don't want to register now.",
        "",
        "ONE USERNAME PER PERSON ONLY!!!",
        "",
    ]


def test_resume_synopsis() -> None:
    assert resume_synopsis_lines(
        turn="A", match_length=5, names_and_scores=[("A", 2), ("B", 1)]
    ) == ["turn: A.", "match length: 5", "points for A: 2", "points for B: 1"]
    assert resume_synopsis_lines(turn="A", match_length=None, names_and_scores=[])[1] == (
        "unlimited matchlength"
    )


def test_rating_calculation_reproduces_the_reference_example() -> None:
    lines = rating_calculation_lines(
        difference=155.634835,
        match_length=3,
        probability_underdog=0.423029,
        probability=0.423029,
        winner=RatingChange("myself", 2761, 1.0, 2.930831),
        loser=RatingChange("someplayer", 187, 3.13, -9.173502),
    )
    assert lines == [
        "rating calculation:",
        "rating difference D=155.634835",
        "match length      N=3",
        "Experience: myself 2761 - someplayer 187",
        "Probability that underdog wins: Pu=1/(10^(D*sqrt(N)/2000)+1)=0.423029",
        "P=0.423029 is 1-Pu if underdog wins and Pu if favorite wins",
        "K=max(1 , -Experience/100+5) for myself: 1.000000",
        "change for myself: 4*K*sqrt(N)*P=2.930831",
        "K=max(1 , -Experience/100+5) for someplayer: 3.130000",
        "change for someplayer: -4*K*sqrt(N)*P=-9.173502",
        "",
    ]
    assert [match_text(line)[0] for line in lines[:-1]] == [  # type: ignore[index]
        Text.RATING_CALCULATION, Text.RATING_DIFFERENCE, Text.RATING_MATCH_LENGTH,
        Text.RATING_EXPERIENCE, Text.RATING_UNDERDOG_PROBABILITY, Text.RATING_P, Text.RATING_K,
        Text.RATING_CHANGE_WINNER, Text.RATING_K, Text.RATING_CHANGE_LOSER,
    ]
