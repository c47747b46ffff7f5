"""fibsd.domain.accounts: name/password rules, FIBS defaults, toggles and `set` variables."""

from __future__ import annotations

import attrs
import pytest

from fibsd.domain.accounts import (
    Account,
    PasswordProblem,
    Toggles,
    VariableProblem,
    Variables,
    email_is_valid,
    name_key,
    password_problem,
    set_variable,
    timezone_is_valid,
)
from protocol.vocabulary import SET_VARIABLES, TOGGLE_DEFAULTS, TOGGLE_NAMES, SortWho

# --- names and passwords (§2.6; the name rules are in tests/protocol/test_vocabulary.py) ---


def test_name_key_is_case_insensitive() -> None:
    assert name_key("Alice") == name_key("aLICE") == "alice"


@pytest.mark.parametrize("password", ["abcd", "s3cret!", "x" * 200, "P@ss_w0rd"])
def test_good_passwords(password: str) -> None:
    assert password_problem(password) is None


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("", PasswordProblem.EMPTY),
        ("abc", PasswordProblem.TOO_SHORT),
        ("ab:cd", PasswordProblem.HAS_COLON),
        ("ab cd", PasswordProblem.HAS_WHITESPACE),
        ("abcd\t", PasswordProblem.HAS_WHITESPACE),
        ("pässword", PasswordProblem.NOT_PRINTABLE_ASCII),
        ("abcd\x01", PasswordProblem.NOT_PRINTABLE_ASCII),
    ],
)
def test_bad_passwords(password: str, problem: PasswordProblem) -> None:
    assert password_problem(password) is problem


@pytest.mark.parametrize("address", ["bob@example.com", "a@b", "x.y+z@mail.example.org"])
def test_good_email(address: str) -> None:
    assert email_is_valid(address)


@pytest.mark.parametrize("address", ["", "bob", "@x", "x@", "a@b@c", "a b@c", "a:b@c", "ü@x"])
def test_bad_email(address: str) -> None:
    assert not email_is_valid(address)


# --- defaults (§3.2, §5.3) ---

# Real FIBS own-info line of a fresh account (2008 capture) and the §3.2 field order.
CAPTURE_2008 = "2 wxpygammon 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC"
OWN_INFO_FIELDS = (
    *("clip", "name", "allowpip", "autoboard", "autodouble", "automove", "away", "bell"),
    *("crawford", "double", "experience", "greedy", "moreboards", "moves", "notify"),
    *("rating", "ratings", "ready", "redoubles", "report", "silent", "timezone"),
)


def test_new_account_matches_the_2008_capture() -> None:
    fields = dict(zip(OWN_INFO_FIELDS, CAPTURE_2008.split(), strict=True))
    account = Account.new("wxpygammon", "hash", created_at=1207724539)
    for name in TOGGLE_NAMES:
        if name in fields:
            assert account.toggles.get(name) is (fields[name] == "1"), name
    assert f"{account.rating:.2f}" == fields["rating"]
    assert str(account.experience) == fields["experience"]
    assert str(account.variables.redoubles) == fields["redoubles"]
    assert account.variables.timezone == fields["timezone"]


def test_toggle_defaults_match_the_listing() -> None:
    # §5.3 with moreboards NO as in the capture (the sample listing has it YES).
    expected_yes = {"allowpip", "autoboard", "crawford", "double", "notify", "report", "telnet"}
    assert {name for name, on in Toggles().as_dict().items() if on} == expected_yes


def test_there_are_17_toggles_in_listing_order() -> None:
    assert len(TOGGLE_NAMES) == 17
    assert list(TOGGLE_NAMES) == sorted(TOGGLE_NAMES)
    assert tuple(Toggles().as_dict()) == TOGGLE_NAMES
    assert tuple(field.name for field in attrs.fields(Toggles)) == TOGGLE_NAMES


def test_variable_defaults() -> None:
    variables = Variables()
    assert variables.boardstyle == 2
    assert (variables.linelength, variables.pagelength) == (0, 0)
    assert variables.redoubles == 0
    assert variables.sortwho is SortWho.LOGIN
    assert variables.timezone == "UTC"
    assert tuple(variables.as_dict()) == SET_VARIABLES


def test_new_account() -> None:
    account = Account.new("Alice", "$argon2id$...", created_at=100.0)
    assert account.rating == 1500.0 and account.experience == 0
    assert account.last_login_at is None and account.email is None
    assert account.toggles == Toggles() and account.variables == Variables()
    assert "argon2" not in repr(account)  # the hash stays out of logs


# --- toggles ---


def test_toggled_flips_one_and_leaves_the_rest() -> None:
    toggles = Toggles()
    flipped = toggles.toggled("ready")
    assert flipped.ready is True and toggles.ready is False
    assert {k: v for k, v in flipped.as_dict().items() if k != "ready"} == {
        k: v for k, v in toggles.as_dict().items() if k != "ready"
    }
    with pytest.raises(KeyError):
        toggles.toggled("autoroll")


def test_for_new_game_resets_double_and_greedy() -> None:
    toggles = Toggles(double=False, greedy=True, ready=True)
    assert toggles.for_new_game() == Toggles(double=True, greedy=False, ready=True)


def test_from_dict_is_lenient() -> None:
    assert Toggles.from_dict({}) == Toggles()
    assert Toggles.from_dict({"bell": True, "bogus": True, "wrap": "yes"}) == Toggles(bell=True)


# --- set variables ---


def test_set_boardstyle() -> None:
    assert set_variable(Variables(), "boardstyle", "3") == Variables(boardstyle=3)
    for bad in ["0", "4", "x", ""]:
        assert set_variable(Variables(), "boardstyle", bad) is VariableProblem.BAD_BOARDSTYLE


def test_set_lengths_with_the_fibs_quirk() -> None:
    assert set_variable(Variables(), "linelength", "80") == Variables(linelength=80)
    assert set_variable(Variables(), "PageLength", "24") == Variables(pagelength=24)
    # A non-number sets 0; a number out of range is refused.
    assert set_variable(Variables(linelength=80), "linelength", "abc") == Variables()
    assert set_variable(Variables(), "linelength", "1000") is VariableProblem.BAD_LINELENGTH
    assert set_variable(Variables(), "pagelength", "-1") is VariableProblem.BAD_PAGELENGTH


def test_set_redoubles() -> None:
    assert set_variable(Variables(redoubles=5), "redoubles", "none") == Variables(redoubles=0)
    assert set_variable(Variables(), "redoubles", "Unlimited") == Variables(redoubles="unlimited")
    assert set_variable(Variables(), "redoubles", "99") == Variables(redoubles=99)
    for bad in ["0", "100", "lots", "-1"]:
        assert set_variable(Variables(), "redoubles", bad) is VariableProblem.BAD_REDOUBLES


def test_set_sortwho() -> None:
    assert set_variable(Variables(), "sortwho", "rrating") == Variables(sortwho=SortWho.RRATING)
    assert set_variable(Variables(), "sortwho", "age") is VariableProblem.BAD_SORTWHO


def test_set_timezone() -> None:
    assert set_variable(Variables(), "timezone", "Europe/Sofia") == Variables(
        timezone="Europe/Sofia"
    )
    for bad in ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "", "Europe", "zone.tab"]:
        assert set_variable(Variables(), "timezone", bad) is VariableProblem.BAD_TIMEZONE
    assert timezone_is_valid("UTC")


def test_set_unknown_variable() -> None:
    assert set_variable(Variables(), "colour", "red") is VariableProblem.UNKNOWN_VARIABLE


def test_variables_from_dict_round_trip_and_leniency() -> None:
    variables = Variables(4 - 1, 80, 24, "unlimited", SortWho.NAME, "Australia/Melbourne")
    assert Variables.from_dict(variables.as_dict()) == variables
    assert Variables.from_dict({}) == Variables()
    damaged = {"boardstyle": 9, "linelength": "x", "redoubles": 500, "sortwho": "?",
               "timezone": "Gone/Away", "pagelength": True}
    assert Variables.from_dict(damaged) == Variables()


def test_toggles_follow_the_vocabulary() -> None:
    """`Toggles` spells out the 17 fields (typed attributes) but takes names, order and
    defaults from `protocol.vocabulary`: the fields must be exactly its names."""
    assert tuple(field.name for field in attrs.fields(Toggles)) == TOGGLE_NAMES
    assert Toggles().as_dict() == dict(TOGGLE_DEFAULTS)
