"""protocol.listings: the multi-line answers, checked with the regexes real clients use."""

from __future__ import annotations

import datetime
import re
import zoneinfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import listings as li
from protocol import vocabulary
from protocol.commands import VERBS, resolve_verb
from protocol.wording import Text, match_text

NAME = r"[a-zA-Z_<>]+"  # FCM's user name
names = st.from_regex(r"[A-Za-z_]{1,20}", fullmatch=True)
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
MOMENT = datetime.datetime(2003, 1, 14, 20, 14, 35, tzinfo=NEW_YORK)


# --- toggle ---------------------------------------------------------------------------


def test_toggle_listing_has_the_17_lines_matchdog_counts() -> None:
    lines = li.toggle_listing(vocabulary.TOGGLE_DEFAULTS)
    assert lines[0] == "The current settings are:"
    rows = [re.fullmatch(r"([a-z]+)\s+(YES|NO)\s*", line) for line in lines[1:]]
    assert len(rows) == 17 and all(rows)
    assert [row[1] for row in rows if row] == list(vocabulary.TOGGLE_NAMES)
    assert all(line[16:] in ("YES", "NO") and line[:16].rstrip() == line[:16].strip()
               for line in lines[1:])  # the name padded to 16 columns


def test_toggle_names_order_and_2008_defaults() -> None:
    assert vocabulary.TOGGLE_NAMES == (
        "allowpip", "autoboard", "autodouble", "automove", "bell", "crawford", "double",
        "greedy", "moreboards", "moves", "notify", "ratings", "ready", "report", "silent",
        "telnet", "wrap",
    )
    # `2 NAME 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC` (fresh account, 2008)
    own_info = {"allowpip": 1, "autoboard": 1, "autodouble": 0, "automove": 0, "bell": 0,
                "crawford": 1, "double": 1, "greedy": 0, "moreboards": 0, "moves": 0,
                "notify": 1, "ratings": 0, "ready": 0, "report": 1, "silent": 0}
    for name, value in own_info.items():
        assert vocabulary.TOGGLE_DEFAULTS[name] is bool(value)
    assert vocabulary.TOGGLE_DEFAULTS["telnet"] is True and vocabulary.TOGGLE_DEFAULTS["wrap"] is False


def test_toggle_listing_follows_the_values() -> None:
    values = {name: name in ("ready", "wrap") for name in vocabulary.TOGGLE_NAMES}
    lines = li.toggle_listing(values)
    assert "ready           YES" in lines and "allowpip        NO" in lines


def test_toggle_answers_are_distinct_and_fibs_worded() -> None:
    answers = [li.toggle_answer(name, value) for name in vocabulary.TOGGLE_NAMES for value in (True, False)]
    assert len(set(answers)) == 34
    assert all(answer.startswith("** ") for answer in answers)
    assert li.toggle_answer("ready", True) == "** You're now ready to invite or join someone."
    assert li.toggle_answer("silent", True) == "** You won't hear what other players shout."
    assert li.toggle_answer("allowpip", True) == "** You allow the use the server's 'pip' command."
    # KBackgammon's anchored patterns.
    assert re.search(r"You'll see how the rating changes are calculated\.$",
                     li.toggle_answer("ratings", True))
    assert re.match(r"^\*\* Will use automatic greedy bearoffs\.", li.toggle_answer("greedy", True))


# --- set ------------------------------------------------------------------------------

SETTINGS = {"boardstyle": 3, "linelength": 0, "pagelength": 0, "redoubles": 0,
            "sortwho": "login", "timezone": "UTC"}


def test_set_listing_is_fibs_literal() -> None:
    assert li.set_listing(SETTINGS) == [
        "Settings of variables:",
        "boardstyle: 3",
        "linelength: 0",
        "pagelength: 0",
        "redoubles:  none",
        "sortwho:    login",
        "timezone:   UTC",
    ]


@pytest.mark.parametrize(
    ("variable", "value", "line"),
    [
        ("boardstyle", 3, "Value of 'boardstyle' set to 3."),
        ("redoubles", 0, "Value of 'redoubles' set to 'none'."),
        ("redoubles", "unlimited", "Value of 'redoubles' set to 'unlimited'."),
        ("redoubles", 2, "Value of 'redoubles' set to 2."),
        ("sortwho", "rating", "Value of 'sortwho' set to rating."),
    ],
)
def test_set_answers(variable: str, value: int | str, line: str) -> None:
    assert li.set_value_set_to(variable, value) == line


def test_set_value_is() -> None:
    assert li.set_value_is("boardstyle", 2) == "Value of 'boardstyle' is 2"
    assert re.match(r"^Value of 'sortwho' is", li.set_value_is("sortwho", "login"))
    # KBackgammon and Gibbon re-send `set boardstyle 3` on any other value.
    assert re.match(r"^Value of 'boardstyle' set to 3", li.set_value_set_to("boardstyle", 3))


def test_timezone_complaint_lists_zones() -> None:
    lines = li.timezone_unknown_lines("Mars/Base", ["UTC", "Europe/Sofia", "UTC"], width=20)
    assert lines[0] == "Can't find timezone 'Mars/Base'. Try one of:"
    assert ", ".join(lines[1:]).replace(",,", ",") == "Europe/Sofia, UTC"


# --- time -------------------------------------------------------------------------------


def test_time_line_format() -> None:
    moment = datetime.datetime(2003, 1, 15, 22, 18, 35, tzinfo=NEW_YORK)
    assert li.time_lines(moment, "America/New_York") == [
        "Wednesday, January 15 22:18:35 EST   ( Thu Jan 16 03:18:35 2003 UTC )"
    ]
    utc = datetime.datetime(2008, 4, 9, 7, 8, 53, tzinfo=datetime.UTC)
    assert li.time_lines(utc, "UTC") == [
        "Wednesday, April 09 07:08:53 UTC   ( Wed Apr  9 07:08:53 2008 UTC )"
    ]


def test_time_needs_an_aware_datetime() -> None:
    with pytest.raises(ValueError):
        li.time_lines(datetime.datetime(2003, 1, 1), "UTC")


# --- whois ------------------------------------------------------------------------------


def test_whois_online_in_fibs_order() -> None:
    info = li.WhoisInfo("someplayer", 1418.61, 23, MOMENT, "192.168.40.3", online=True,
                        idle_seconds=4, watching="other")
    assert li.whois_lines(info, "America/New_York") == [
        "Information about someplayer:",
        "  Last login:  Tuesday, January 14 20:14 EST from 192.168.40.3",
        "  Still logged in. 4 seconds idle.",
        "  someplayer is not ready to play, watching other, not playing.",
        "  Rating: 1418.61 Experience: 23",
        "  No email address.",
    ]


def test_whois_offline_away_with_email() -> None:
    info = li.WhoisInfo("bob", 1500.0, 0, MOMENT, "host", online=False, last_logout=MOMENT,
                        away_message="gone", email="bob@example.com")
    assert li.whois_lines(info, "America/New_York") == [
        "Information about bob:",
        "  Last login:  Tuesday, January 14 20:14 EST from host",
        "  Last logout: Tuesday, January 14 20:14 EST",
        "  Not logged in right now.",
        "  bob is away: gone",
        "  Rating: 1500.00 Experience: 0",
        "  Email address: bob@example.com",
    ]


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({"playing_with": "alice"}, "  bob is playing with alice."),
        ({"ready": True}, "  bob is ready to play, not watching, not playing."),
        ({"ready": True, "watching": "eve"}, "  bob is ready to play, watching eve, not playing."),
        ({}, "  bob is not ready to play, not watching, not playing."),
        ({"idle_seconds": 604}, "  Still logged in. 10:04 minutes idle."),
    ],
)
def test_whois_status_variants(changes: dict[str, object], line: str) -> None:
    info = li.WhoisInfo("bob", 1500.0, 0, MOMENT, "host", online=True, **changes)  # type: ignore[arg-type]
    assert line in li.whois_lines(info, "UTC")


@settings(max_examples=100, deadline=None)
@given(name=names, online=st.booleans(), idle=st.integers(0, 10**6), email=st.none() | st.just("a@b"),
       away=st.none() | st.just("back soon"), ready=st.booleans())
def test_whois_email_line_is_last_for_kbackgammon(
    name: str, online: bool, idle: int, email: str | None, away: str | None, ready: bool
) -> None:
    info = li.WhoisInfo(name, 1500.0, 10, MOMENT, "host", online, idle, MOMENT, ready,
                        away_message=away, email=email)
    lines = li.whois_lines(info, "UTC")
    assert lines[0] == f"Information about {name}:"
    assert all(line.startswith("  ") for line in lines[1:])
    terminator = [i for i, line in enumerate(lines)
                  if re.match(r"^  No email address\.$", line) or re.match(r"^  Email address: ", line)]
    assert terminator == [len(lines) - 1]
    assert re.match(r"^  Rating: +[0-9]+\.", lines[-2])  # FCM FIBS_RatingExperience


def test_whois_unknown() -> None:
    assert li.whois_unknown("nobody") == "No information found on user nobody."


# --- who / rawwho (telnet) --------------------------------------------------------------------

ENTRY = li.WhoEntry("someplayer", 1418.61, 23, MOMENT, 1914, "somehost.com", opponent="bob",
                    client="MacFIBS", email="a@b.c", away=True)


def test_who_header_is_fcms() -> None:
    lines = li.who_lines([ENTRY])
    assert re.match(r"^No  S  username        rating  exp login    idle  from", lines[0])
    assert re.fullmatch(r" 1 P-A someplayer +1418\.61 +23 20:14 +31:54 +somehost\.com", lines[1])


def test_who_status_columns() -> None:
    assert li.WhoEntry("a", 1.0, 0, MOMENT, 0, "h", ready=True).status == "R--"
    assert li.WhoEntry("a", 1.0, 0, MOMENT, 0, "h", watching="b").status == "-W-"
    assert li.WhoEntry("a", 1.0, 0, MOMENT, 0, "h", opponent="b", ready=True).status == "P--"


def test_who_count() -> None:
    assert li.who_count_line(1) == "There is 1 user logged on."
    assert li.who_count_line(7) == "There are 7 users logged on."


def test_rawwho_is_what_gfibs_scans() -> None:
    lines = li.rawwho_lines([ENTRY])
    # gnubg's gfibs.c: sscanf("who: %d %c%c%c %s %d.%d %d")
    assert re.match(r"who: (\d+) (.)(.)(.) (\S+) (\d+)\.(\d+) (\d+)", lines[0])
    assert lines[-1] == "who:end"
    assert li.rawwho_lines([]) == ["who:end"]


# --- show ---------------------------------------------------------------------------------

FCM_SAVED = [
    rf"^  {NAME} +[0-9]+ +[0-9]+ +- +",
    rf"^ \*{NAME} +[0-9]+ +[0-9]+ +- +",
    rf"^\*\*{NAME} +[0-9]+ +[0-9]+ +- +[0-9]+",
    rf"^  {NAME} +unlimited +[0-9]+ +- +",
    rf"^ \*{NAME} +unlimited +[0-9]+ +- +",
    rf"^\*\*{NAME} +unlimited +[0-9]+ +- +[0-9]+",
]
GIBBON_SAVED = r"^\s*\*{0,2}[^-.:, \t]+\s+([0-9]+|unlimited)\s+[0-9]+\s*-\s*[0-9]+"


def test_show_saved_layout_is_fibs_literal() -> None:
    lines = li.saved_lines([
        li.SavedEntry("someplayer", 3, 1, 1, li.SavedMark.PLAYING),
        li.SavedEntry("anotherplayer", 1, 0, 0, li.SavedMark.READY),
        li.SavedEntry("yetanotherplayer", None, 4, 2),
    ])
    assert lines == [
        "  opponent          matchlength   score (your points first)",
        " *someplayer              3                1 -  1",
        "**anotherplayer           1                0 -  0",
        "  yetanotherplayer   unlimited             4 -  2",
    ]


def test_no_saved_games_comes_after_the_header() -> None:
    # Gibbon's lexer reads `no saved games.` only inside the listing the header opens.
    assert li.saved_lines([]) == [
        "  opponent          matchlength   score (your points first)",
        "no saved games.",
    ]


@settings(max_examples=300, deadline=None)
@given(name=names, length=st.none() | st.integers(1, 99), score=st.integers(0, 9999),
       opponent_score=st.integers(0, 9999), mark=st.sampled_from(li.SavedMark))
def test_show_saved_rows_match_the_client_regexes(
    name: str, length: int | None, score: int, opponent_score: int, mark: li.SavedMark
) -> None:
    header, row = li.saved_lines([li.SavedEntry(name, length, score, opponent_score, mark)])
    assert re.match(r"^  opponent          matchlength   score \(your points first\)", header)
    index = [li.SavedMark.NONE, li.SavedMark.PLAYING, li.SavedMark.READY].index(mark)
    assert re.match(FCM_SAVED[index + (3 if length is None else 0)], row)
    assert re.match(GIBBON_SAVED, row)
    assert row.startswith(("  ", " *", "**"))  # MatchDog
    fields = re.match(r"^[ *]{2}(\S+)\s+(\S+)\s+(\d+) - +(\d+)$", row)
    assert fields is not None
    assert fields.groups() == (name, str(length) if length else "unlimited", str(score),
                               str(opponent_score))


def test_savedcount() -> None:
    assert li.savedcount_line("bob", 0) == "bob has no saved games."
    assert li.savedcount_line("bob", 1) == "bob has 1 saved game."
    assert li.savedcount_line("bob", 12) == "bob has 12 saved games."
    assert re.match(r"^(\w+) has (\d+) saved game", li.savedcount_line("bob", 3))  # GammonBot


def test_show_games() -> None:
    lines = li.games_lines([li.GameEntry("someplayer", "myself", 1, 0, 0),
                            li.GameEntry("alice", "bob", None, 3, 2)])
    assert lines == [
        "List of games:",
        "someplayer      -          myself (1 point match 0-0)",
        "alice           -             bob (unlimited match 3-2)",
    ]
    assert re.match(rf"^{NAME} +- +{NAME} .+ point match", lines[1])  # FCM
    assert re.match(rf"^{NAME} +- +{NAME} \(unlimited", lines[2])


def test_show_watchers() -> None:
    assert li.watchers_lines([]) == ["Watching players: none."]
    assert li.watchers_lines([("eve", "bob")]) == ["Watching players:", "eve is watching bob."]


def test_show_max() -> None:
    assert li.show_max_line(12, 500) == "max_logins is 12 (maximum: 500)"


# --- ratings ----------------------------------------------------------------------------

FCM_RATINGS = rf"^\* *[0-9]+ +{NAME} +[0-9]+\.[0-9]+ +[0-9]+"


def test_ratings_layout() -> None:
    lines = li.ratings_lines(
        [li.RatingEntry(1, "NIHILIST", 2295.11, 7274), li.RatingEntry(3054, "myself", 1453.28, 400)],
        own_name="myself",
    )
    assert lines == [
        " rank name            rating    Experience",
        "    1 NIHILIST        2295.11     7274",
        "*3054 myself          1453.28      400",
    ]


@settings(max_examples=200, deadline=None)
@given(rank=st.integers(1, 99999), name=names, rating=st.floats(0, 9999.99), experience=st.integers(0, 10**6))
def test_ratings_rows_match_fcm(rank: int, name: str, rating: float, experience: int) -> None:
    entry = li.RatingEntry(rank, name, rating, experience)
    header, own = li.ratings_lines([entry], own_name=name)
    assert re.match(r"^ rank name            rating    Experience", header)
    assert re.match(FCM_RATINGS, own)  # the stars table, where a row starting with `*` goes
    _, other = li.ratings_lines([entry])
    assert re.match(rf"^ *[0-9]+ +{NAME} +[0-9]+\.[0-9]+ +[0-9]+$", other)
    assert other.split() == [str(rank), name, f"{rating:.2f}", str(experience)]


# --- away, waitfor, messages --------------------------------------------------------------


def test_away_listing() -> None:
    assert li.away_lines([]) == ["None of the users is away."]
    assert li.away_lines([("bob", "dinner"), ("me", "zzz")], own_name="me") == [
        "The following users are away:",
        "bob: dinner",
        "You: zzz",
    ]


def test_waitfor_listing() -> None:
    assert li.waitfor_lines([]) == ["You are not waiting for any players."]
    assert li.waitfor_lines(["bob"]) == ["You are waiting for bob"]
    assert li.waitfor_lines(["bob", "eve"]) == [
        "You are waiting for the following 2 players:", "  bob", "  eve"]


def test_messages_header() -> None:
    assert li.messages_header(0) == "There are no new messages for you."
    assert li.messages_header(2) == "There are messages for you:"


# --- help -------------------------------------------------------------------------------------


def _help(topic: str | None, *, operator: bool = True) -> list[str]:
    """`help TOPIC` as `verbs/info.help` asks for it: the topic resolved like a command
    (for an operator, unless told otherwise)."""
    return li.help_lines(topic, None if topic is None else resolve_verb(topic), operator=operator)


def test_every_verb_has_help() -> None:
    for verb in VERBS:
        canonical = resolve_verb(verb)
        assert canonical is not None
        lines = _help(verb)
        assert lines[0] == "NAME", verb  # KBackgammon's help marker
        assert lines == _help(canonical)


def test_help_topics_resolve_like_commands() -> None:
    assert _help("quit") == _help("bye")
    assert _help("m") == _help("move")
    assert _help("TOG") == _help("toggle")
    assert _help("re")[0].startswith("** There is no help")  # ambiguous


def test_help_topics_are_verbs_or_beginner() -> None:
    assert set(li.HELP_TOPICS) - set(VERBS) == {"beginner"}


def test_help_without_topic_lists_every_command() -> None:
    lines = _help(None)
    listed = " ".join(lines[1:]).split()
    assert set(listed) == set(li.HELP_TOPICS) - {"beginner"}
    assert _help("beginner")[0] == "NAME"
    assert _help("nonsense") == ["** There is no help on 'nonsense'."]


def test_help_lists_the_commands_sorted_and_the_operators_only_to_operators() -> None:
    # Issue 32 §4: a plain user was shown broadcast, kick, ban... in the table's order.
    plain = " ".join(_help(None, operator=False)[1:]).split()
    assert plain == sorted(plain)
    assert set(plain) == set(li.HELP_TOPICS) - {"beginner"} - li.OPERATOR_VERBS
    assert not {"kick", "ban", "broadcast", "shutdown", "setbot"} & set(plain)
    operator = " ".join(_help(None)[1:]).split()
    assert operator == sorted(operator) and li.OPERATOR_VERBS <= set(operator)
    assert _help("kick", operator=False)[0] == "NAME"  # the topic itself is no secret


# --- the reverse direction ------------------------------------------------------------------


def test_listing_lines_are_recognised_by_the_wording_table() -> None:
    cases = {
        "allowpip        YES": Text.TOGGLE_ROW_YES,
        "wrap            NO": Text.TOGGLE_ROW_NO,
        "redoubles:  none": Text.SET_ROW_REDOUBLES,
        "  Rating: 1418.61 Experience: 23": Text.WHOIS_RATING,
        "**anotherplayer           1                0 -  0": Text.SAVED_ROW_READY,
        "  yetanotherplayer   unlimited             4 -  2": Text.SAVED_ROW_UNLIMITED,
        "*3054 myself          1453.28      400": Text.RATINGS_ROW_OWN,
        "bob has 12 saved games.": Text.SAVEDCOUNT_MANY,
        "** Don't know how to toggle x": Text.TOGGLE_UNKNOWN,
    }
    for line, text in cases.items():
        found = match_text(line)
        assert found is not None and found[0] is text, line
