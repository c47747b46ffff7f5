"""Password hashing: the one place that turns passwords into salted slow hashes and back.

This module owns the choice of scheme and cost (argon2id via argon2-cffi, or
pbkdf2_sha256, both through passlib's `CryptContext`) and the rule that a password is
never stored, logged or put in an exception. It is synchronous and CPU-heavy on purpose:
the server calls it through `trio.to_thread.run_sync`, never on the event loop. It must not
import trio or know about accounts or storage.

passlib here is the maintained fork `libpass` (same `passlib` import); the original 1.7.4
imports the removed `crypt` module and warns at import, which pytest turns into an error.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from passlib.context import CryptContext

Scheme: TypeAlias = Literal["argon2", "pbkdf2_sha256"]
SCHEMES: Final[tuple[Scheme, ...]] = ("argon2", "pbkdf2_sha256")


class PasswordHasher:
    """Hashes and verifies passwords with one configured scheme and cost.

    Every scheme in SCHEMES stays verifiable, so switching `password_hash_scheme` (or
    changing the cost) does not lock anyone out: `needs_rehash` then says which stored
    hashes to replace after the next successful login.
    """

    def __init__(
        self,
        scheme: Scheme = "argon2",
        *,
        argon2_time_cost: int = 3,
        argon2_memory_cost_kib: int = 65536,
        argon2_parallelism: int = 1,
        pbkdf2_rounds: int = 600_000,
    ) -> None:
        if scheme not in SCHEMES:
            raise ValueError(f"unknown password hash scheme {scheme!r}")
        self.scheme: Final = scheme
        # Only the default scheme is ever used to hash; the other one is listed so that its
        # hashes still verify. argon2 "ID" is the variant recommended by RFC 9106.
        self._context = CryptContext(
            schemes=[scheme, *(s for s in SCHEMES if s != scheme)],
            default=scheme,
            deprecated=["auto"],  # hashes of the non-default scheme need a rehash
            argon2__type="ID",
            argon2__time_cost=argon2_time_cost,
            argon2__memory_cost=argon2_memory_cost_kib,
            argon2__parallelism=argon2_parallelism,
            pbkdf2_sha256__rounds=pbkdf2_rounds,
        )

    @classmethod
    def for_tests(cls, scheme: Scheme = "argon2") -> PasswordHasher:
        """The cheapest cost each scheme allows, so that tests stay fast. Never in production."""
        return cls(
            scheme,
            argon2_time_cost=1,
            argon2_memory_cost_kib=8,
            argon2_parallelism=1,
            pbkdf2_rounds=1000,
        )

    def hash(self, password: str) -> str:
        """A new salted hash of `password` (a fresh random salt each call)."""
        result: str = self._context.hash(password)
        return result

    def verify(self, password: str, stored_hash: str) -> bool:
        """True if `password` matches `stored_hash`; False for a wrong password and also for
        a malformed, truncated or unknown hash (a damaged row must not crash a login)."""
        try:
            return bool(self._context.verify(password, stored_hash))
        except (ValueError, TypeError):
            # passlib raises ValueError (incl. PasswordSizeError) for hashes it cannot
            # identify or parse and for oversized passwords; the message never contains
            # the password, but we do not re-raise it anyway.
            return False

    def dummy_verify(self) -> None:
        """Spend the time of one verification: call it for an unknown user, so that timing
        does not tell which names exist."""
        self._context.dummy_verify()

    def needs_rehash(self, stored_hash: str) -> bool:
        """True if `stored_hash` uses another scheme or another cost than configured (also
        for a malformed hash): store a fresh hash after the next successful login."""
        try:
            return bool(self._context.needs_update(stored_hash))
        except (ValueError, TypeError):
            return True

    def __repr__(self) -> str:
        return f"PasswordHasher(scheme={self.scheme!r})"
