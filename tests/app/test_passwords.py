"""fibsd.infra.passwords: salted slow hashes, verification that never raises, rehash policy."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fibsd.infra.config import Config
from fibsd.infra.passwords import SCHEMES, PasswordHasher, Scheme

PASSWORD = "s3cret_Pw!"


@pytest.fixture(params=SCHEMES)
def hasher(request: pytest.FixtureRequest) -> PasswordHasher:
    scheme: Scheme = request.param
    return PasswordHasher.for_tests(scheme)


def test_hash_is_salted(hasher: PasswordHasher) -> None:
    first, second = hasher.hash(PASSWORD), hasher.hash(PASSWORD)
    assert first != second
    assert hasher.verify(PASSWORD, first) and hasher.verify(PASSWORD, second)


def test_hash_names_its_scheme(hasher: PasswordHasher) -> None:
    prefix = {"argon2": "$argon2id$", "pbkdf2_sha256": "$pbkdf2-sha256$"}[hasher.scheme]
    assert hasher.hash(PASSWORD).startswith(prefix)


def test_verify_true_and_false(hasher: PasswordHasher) -> None:
    stored = hasher.hash(PASSWORD)
    assert hasher.verify(PASSWORD, stored) is True
    assert hasher.verify(PASSWORD + "x", stored) is False
    assert hasher.verify(PASSWORD.upper(), stored) is False
    assert hasher.verify("", stored) is False


@pytest.mark.parametrize(
    "malformed",
    ["", "garbage", "$argon2id$v=19$m=8,t=1,p=1$", "$pbkdf2-sha256$1000$x$y", "$2b$12$abc", "\0"],
)
def test_malformed_hash_is_false_not_an_exception(hasher: PasswordHasher, malformed: str) -> None:
    assert hasher.verify(PASSWORD, malformed) is False
    assert hasher.needs_rehash(malformed) is True


def test_truncated_hash_is_false(hasher: PasswordHasher) -> None:
    stored = hasher.hash(PASSWORD)
    assert hasher.verify(PASSWORD, stored[:-4]) is False


def test_oversized_password_is_false_not_an_exception(hasher: PasswordHasher) -> None:
    assert hasher.verify("x" * 100_000, hasher.hash(PASSWORD)) is False


def test_stored_hash_never_contains_the_password(hasher: PasswordHasher) -> None:
    for password in [PASSWORD, "abcd", "guest", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]:
        stored = hasher.hash(password)
        assert password not in stored
        assert password not in repr(hasher)


def test_both_schemes_verify_and_the_other_one_needs_rehash() -> None:
    argon2 = PasswordHasher.for_tests("argon2")
    pbkdf2 = PasswordHasher.for_tests("pbkdf2_sha256")
    from_argon2, from_pbkdf2 = argon2.hash(PASSWORD), pbkdf2.hash(PASSWORD)
    # Switching the configured scheme must not lock anyone out ...
    assert argon2.verify(PASSWORD, from_pbkdf2) and pbkdf2.verify(PASSWORD, from_argon2)
    # ... and tells which hashes to replace at the next login.
    assert argon2.needs_rehash(from_pbkdf2) and pbkdf2.needs_rehash(from_argon2)
    assert not argon2.needs_rehash(from_argon2) and not pbkdf2.needs_rehash(from_pbkdf2)


def test_changed_cost_needs_rehash() -> None:
    weak = PasswordHasher.for_tests("argon2")
    stronger = PasswordHasher("argon2", argon2_time_cost=2, argon2_memory_cost_kib=16)
    assert stronger.needs_rehash(weak.hash(PASSWORD))
    assert stronger.verify(PASSWORD, weak.hash(PASSWORD))
    pbkdf2_stronger = PasswordHasher("pbkdf2_sha256", pbkdf2_rounds=2000)
    assert pbkdf2_stronger.needs_rehash(PasswordHasher.for_tests("pbkdf2_sha256").hash("abcd"))


def test_config_builds_the_hasher_with_the_configured_cost() -> None:
    config = Config.default().with_overrides()
    hasher = config.password_hasher()
    assert hasher.scheme == "argon2"
    cheap = PasswordHasher.for_tests("argon2").hash(PASSWORD)
    assert hasher.needs_rehash(cheap)  # the production cost differs from the test cost


def test_config_builds_the_configured_scheme() -> None:
    config = Config.from_mapping({"passwords": {"password_hash_scheme": "pbkdf2_sha256", "pbkdf2_rounds": 1000}})
    hasher = config.password_hasher()
    assert hasher.scheme == "pbkdf2_sha256"
    assert not hasher.needs_rehash(PasswordHasher.for_tests("pbkdf2_sha256").hash(PASSWORD))


def test_dummy_verify_runs() -> None:
    PasswordHasher.for_tests().dummy_verify()


def test_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError):
        PasswordHasher("md5_crypt")  # type: ignore[arg-type]


def test_importing_passlib_emits_no_warning() -> None:
    # pytest runs with filterwarnings=error, but the import may have happened already in
    # this process; a fresh interpreter with -W error proves it.
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import fibsd.infra.passwords"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
