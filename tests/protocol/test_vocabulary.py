"""protocol.vocabulary: the name rules and the settings vocabulary, each fact in one place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.errors import CommandError
from protocol.vocabulary import (
    SORTWHO_VALUES,
    TOGGLE_NAMES,
    NameProblem,
    SortWho,
    check_new_name,
    is_valid_name,
    name_problem,
)

# --- names (§2.5, §2.6) ---


@pytest.mark.parametrize("name", ["a", "wxpygammon", "Some_Player", "_", "x" * 20, "GuestUser"])
def test_good_names(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", NameProblem.EMPTY),
        ("bob1", NameProblem.BAD_CHARACTERS),
        ("bob smith", NameProblem.BAD_CHARACTERS),
        ("bob-smith", NameProblem.BAD_CHARACTERS),
        ("bob:x", NameProblem.BAD_CHARACTERS),
        ("böb", NameProblem.BAD_CHARACTERS),
        ("bob\n", NameProblem.BAD_CHARACTERS),
        ("x" * 21, NameProblem.TOO_LONG),
        ("guest", NameProblem.RESERVED),
        ("GUEST", NameProblem.RESERVED),
        ("You", NameProblem.RESERVED),
    ],
)
def test_bad_names(name: str, problem: NameProblem) -> None:
    assert name_problem(name) is problem


@given(st.text(max_size=30))
def test_accepted_names_are_letters_and_underscore_only(name: str) -> None:
    if name_problem(name) is None:
        assert 1 <= len(name) <= 20
        assert all(ch.isascii() and (ch.isalpha() or ch == "_") for ch in name)


@pytest.mark.parametrize("name", ["guest", "You", "ADMIN"])
def test_reserved_names_are_possible_user_names_but_answered_as_taken(name: str) -> None:
    assert is_valid_name(name)
    with pytest.raises(CommandError) as caught:
        check_new_name(name)
    assert caught.value.line == f"** Please use another name. '{name}' is already used by someone else."


@given(st.text(max_size=30))
def test_check_new_name_refuses_exactly_the_name_problems(name: str) -> None:
    try:
        check_new_name(name)
    except CommandError:
        assert name_problem(name) is not None
    else:
        assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("bob1", "** Your name may only contain letters and the underscore character _ ."),
        ("", "** Your name may only contain letters and the underscore character _ ."),
        ("a" * 21, "** Please use a name with at most 20 characters."),
    ],
)
def test_check_new_name(name: str, error: str) -> None:
    with pytest.raises(CommandError) as caught:
        check_new_name(name)
    assert caught.value.line == error


def test_valid_new_name() -> None:
    check_new_name("Some_Player")
    check_new_name("a" * 20)


# --- settings vocabulary (§5.3) ---


def test_sortwho_values_are_the_enum_words() -> None:
    assert SORTWHO_VALUES == ("login", "name", "rating", "rrating")
    assert tuple(SortWho(word).value for word in SORTWHO_VALUES) == SORTWHO_VALUES


def test_there_are_17_toggles_in_listing_order() -> None:
    assert len(TOGGLE_NAMES) == 17
    assert list(TOGGLE_NAMES) == sorted(TOGGLE_NAMES)
