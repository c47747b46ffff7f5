"""The login dialogue of one connection, from the banner to a logged-in user.

Owns what happens before a session exists: the banner and `login: ` prompt, CLIP login
(`login CLIENT VERSION NAME PASSWORD`), telnet login with the password prompt (echo off
while it is typed), TinyMUD-style `connect NAME PASSWORD`, and guest registration (`guest`,
`name NAME`, the password twice). Password hashing and the store run in worker threads.
A wrong name or password gets FIBS's answer (a new `login: ` prompt) and another try, up to
`max_login_failures`; the whole dialogue is bounded by `login_timeout_seconds`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import attrs
import trio

from fibsd.domain.accounts import Account, PasswordProblem, password_problem
from fibsd.app.outcome import Write
from fibsd.app.presentation import date_line
from fibsd.infra.wallclock import Clock
from fibsd.infra.config import Config
from fibsd.shell.connection import Connection
from fibsd.shell.hashing import ClientGone, HashQueue
from fibsd.infra.limits import LoginGuard, WindowCounter
from fibsd.infra.passwords import PasswordHasher
from fibsd.store import NameTaken, Store, StoredMessage
from protocol.commands import (
    Connect,
    Guest,
    Login,
    TelnetLogin,
    parse_login_line,
)
from protocol.errors import CommandError, LoginRejected
from protocol.framing import ECHO_OFF, ECHO_ON
from protocol.vocabulary import check_new_name
from protocol.wording import Text, banner_lines, goodbye_lines, guest_lines, render

log = logging.getLogger("fibsd.shell.login")

_GUEST_BYE_WORDS = frozenset({"bye", "adios", "ciao", "end", "exit", "logout", "quit", "tschoe"})


@attrs.frozen
class Arrival:
    """A user who passed the login dialogue, and how they are connected."""

    account: Account
    clip: bool
    clip_version: int
    client_name: str | None
    #: Telnet users get `> ` prompts; CLIP clients and `connect` autologins do not.
    prompts: bool
    previous_login_at: float | None
    previous_host: str | None
    just_registered: bool = False
    #: The offline messages waiting for the user, read here (in a worker thread) so that
    #: the core's login reads nothing (docs/architecture.md, "Reading the store").
    pending_messages: tuple[StoredMessage, ...] = ()


@attrs.frozen
class LoginServices:
    """What the dialogue needs from the server."""

    config: Config
    store: Store
    hasher: PasswordHasher
    #: Where the hashes wait their turn (a few at a time, in arrival order).
    hashes: HashQueue
    clock: Clock
    motd_lines: Sequence[str]
    commit: Callable[[Sequence[Write]], Awaitable[None]]
    guard: LoginGuard
    registrations: WindowCounter


class _GaveUp(Exception):
    """The user chose to leave during the dialogue (e.g. `bye` as a guest)."""


async def login_dialogue(connection: Connection, services: LoginServices) -> Arrival | None:
    """Run the dialogue; the arrival, or None when the connection should close."""
    config = services.config
    now = services.clock.now()
    connection.write_lines(
        banner_lines(club_line=_club_line(config), date_line=date_line(now, "UTC"))
    )
    connection.write_prompt(Text.LOGIN_PROMPT.value)
    with trio.move_on_after(config.login_timeout_seconds):
        try:
            return await _login_attempts(connection, services)
        except (_GaveUp, ClientGone):
            return None
    connection.write_lines(["", Text.CONNECTION_TIMED_OUT.value])
    return None


def _club_line(config: Config) -> str:
    # Indented, so it can never start with a digit (FCM's login table reads `^1 `, `^3`).
    return render(Text.BANNER_CLUB, club=config.club_name)


async def _login_attempts(connection: Connection, services: LoginServices) -> Arrival | None:
    failures = 0
    while failures < services.config.max_login_failures:
        line = await connection.read_line()
        if line is None:
            return None
        try:
            login = parse_login_line(line)
        except LoginRejected:
            if line.strip():
                failures += 1
                connection.write_lines([""])
            connection.write_prompt(Text.LOGIN_PROMPT.value)
            continue
        arrival: Arrival | None
        match login:
            case Guest():
                if services.config.registration == "closed":
                    connection.write_lines([Text.REGISTRATION_CLOSED.value, ""])
                    connection.write_prompt(Text.LOGIN_PROMPT.value)
                    continue
                return await _register_guest(connection, services)
            case Login():
                password, clip, prompts = login.password, True, False
            case Connect():
                password, clip, prompts = login.password, False, False
            case TelnetLogin():
                connection.write_bytes(ECHO_OFF)
                connection.write_prompt(Text.PASSWORD_PROMPT.value)
                typed = await connection.read_line()
                connection.write_bytes(ECHO_ON)
                connection.write_lines([""])
                if typed is None:
                    return None
                password, clip, prompts = typed, False, True
        keys = (f"address:{connection.host}", f"account:{login.name.lower()}")
        throttle = services.guard.check(keys, services.clock.now())
        if throttle.blocked:
            minutes = max(1, int(throttle.blocked_seconds / 60 + 0.999))
            connection.write_lines([render(Text.LOGIN_BLOCKED, minutes=minutes)])
            log.warning("login of %r from %s refused: blocked", login.name, connection.host)
            return None
        if throttle.delay_seconds:
            # Each further wrong guess costs more time: password guessing gets slow.
            await trio.sleep(throttle.delay_seconds)
        arrival = await _authenticate(
            services, connection, login.name, password, clip=clip,
            clip_version=login.clip_version if isinstance(login, Login) else 0,
            client_name=login.client if isinstance(login, Login) else None, prompts=prompts,
        )
        if arrival is not None:
            services.guard.succeeded(keys)
            now = services.clock.now()
            if await trio.to_thread.run_sync(
                services.store.sanction_until, "ban-account", arrival.account.name, now
            ) is not None:
                connection.write_lines([Text.BANNED.value])
                log.warning("banned account %s refused from %s", arrival.account.name, connection.host)
                return None
            return arrival
        services.guard.failed(keys, services.clock.now())
        failures += 1
        log.info("failed login for %r from %s", login.name, connection.host)
        connection.write_lines([""])
        connection.write_prompt(Text.LOGIN_PROMPT.value)
    return None


async def _authenticate(
    services: LoginServices, connection: Connection, name: str, password: str, *, clip: bool,
    clip_version: int, client_name: str | None, prompts: bool,
) -> Arrival | None:
    account = await trio.to_thread.run_sync(services.store.get_account, name)
    hasher, hashes, gone = services.hasher, services.hashes, connection.peer_gone
    if account is None:
        # Spend the same time as a real check, so timing does not reveal which names exist.
        await hashes.run(hasher.dummy_verify, client_gone=gone)
        return None
    stored = account.password_hash
    if not await hashes.run(lambda: hasher.verify(password, stored), client_gone=gone):
        return None
    if hasher.needs_rehash(stored):
        # The configured scheme or cost changed: store a hash made the current way.
        new_hash = await hashes.run(lambda: hasher.hash(password), client_gone=lambda: False)
        await trio.to_thread.run_sync(services.store.set_password_hash, account.name, new_hash)
        account = attrs.evolve(account, password_hash=new_hash)
    pending = await trio.to_thread.run_sync(services.store.pending_messages, account.name)
    return Arrival(
        account=account, clip=clip, clip_version=clip_version, client_name=client_name,
        prompts=prompts, previous_login_at=account.last_login_at,
        previous_host=account.last_login_host, pending_messages=tuple(pending),
    )


# ------------------------------------------------------------- registration


async def _register_guest(connection: Connection, services: LoginServices) -> Arrival | None:
    """Guest registration (§2.5): `name NAME`, then the password twice."""
    connection.write_lines(guest_lines())
    connection.write_prompt(Text.COMMAND_PROMPT.value)
    while True:
        line = await connection.read_line()
        if line is None:
            return None
        words = line.split()
        if words and words[0].lower() in _GUEST_BYE_WORDS:
            connection.write_lines(goodbye_lines(contact=f"{services.config.club_name} operators"))
            raise _GaveUp()
        if not words or words[0].lower() != "name":
            connection.write_lines(guest_lines())
            connection.write_prompt(Text.COMMAND_PROMPT.value)
            continue
        name = words[1] if len(words) > 1 else ""
        refusal = await _refuse_name(services, name)
        if refusal is None and not services.registrations.allowed(connection.host, services.clock.now()):
            refusal = Text.REGISTRATION_LIMIT.value
        if refusal is not None:
            connection.write_lines([refusal])
            connection.write_prompt(Text.COMMAND_PROMPT.value)
            continue
        code: str | None = None
        if services.config.registration == "code":
            code = await _ask_invitation_code(connection, services)
            if code is None:
                continue
        password = await _choose_password(connection, name)
        if password is None:
            continue  # "No password given. Please choose a new name"
        arrival = await _create_account(connection, services, name, password, code)
        if arrival is not None:
            services.registrations.record(connection.host, services.clock.now())
            return arrival


async def _refuse_name(services: LoginServices, name: str) -> str | None:
    """FIBS's sentence refusing `name` as a new account, or None if it is available.

    The name rules are `protocol.vocabulary`'s (a reserved name is refused as if taken);
    only whether the name is taken is asked of the store.
    """
    try:
        check_new_name(name)
    except CommandError as error:
        return error.line
    if await trio.to_thread.run_sync(services.store.account_exists, name):
        return render(Text.NAME_ALREADY_USED, name=name)
    return None


async def _ask_invitation_code(connection: Connection, services: LoginServices) -> str | None:
    """Clubs with registration by code: the code an admin handed out, or None."""
    connection.write_prompt(Text.INVITATION_CODE_PROMPT.value)
    code = await connection.read_line()
    if code is None:
        raise _GaveUp()
    code = code.strip()
    if not code or not await trio.to_thread.run_sync(services.store.invitation_code_usable, code):
        connection.write_lines([Text.INVITATION_CODE_INVALID.value])
        connection.write_prompt(Text.COMMAND_PROMPT.value)
        return None
    return code


async def _choose_password(connection: Connection, name: str) -> str | None:
    """Ask for the password twice; None if the user gave none (choose a new name)."""
    connection.write_lines([render(Text.YOUR_NAME_WILL_BE, name=name), Text.EMPTY_PASSWORD_HINT.value])
    connection.write_bytes(ECHO_OFF)
    connection.write_prompt(Text.GIVE_PASSWORD_PROMPT.value)
    while True:
        first = await connection.read_line()
        if first is None:
            raise _GaveUp()
        if not first:
            connection.write_bytes(ECHO_ON)
            connection.write_lines([Text.NO_PASSWORD_GIVEN.value])
            connection.write_prompt(Text.COMMAND_PROMPT.value)
            return None
        problem = password_problem(first)
        if problem is not None:
            connection.write_lines([_password_problem_text(problem)])
            connection.write_prompt(Text.GIVE_PASSWORD_PROMPT.value)
            continue
        connection.write_prompt(Text.RETYPE_PASSWORD_PROMPT.value)
        second = await connection.read_line()
        if second is None:
            raise _GaveUp()
        if second == first:
            return first
        connection.write_prompt(Text.PASSWORDS_NOT_IDENTICAL_PROMPT.value)


def _password_problem_text(problem: PasswordProblem) -> str:
    if problem is PasswordProblem.HAS_COLON:
        return Text.PASSWORD_HAS_COLON.value
    if problem is PasswordProblem.TOO_SHORT or problem is PasswordProblem.EMPTY:
        return Text.PASSWORD_TOO_SHORT.value
    return Text.PASSWORD_NOT_PRINTABLE.value


async def _create_account(
    connection: Connection, services: LoginServices, name: str, password: str,
    code: str | None = None,
) -> Arrival | None:
    password_hash = await services.hashes.run(lambda: services.hasher.hash(password),
                                              client_gone=connection.peer_gone)
    now = services.clock.now()
    account = Account.new(name, password_hash, now)
    if code is not None and not await trio.to_thread.run_sync(
        lambda: services.store.use_invitation_code(code, name=name, at=now)
    ):
        connection.write_bytes(ECHO_ON)
        connection.write_lines(["", Text.INVITATION_CODE_INVALID.value])  # used meanwhile
        connection.write_prompt(Text.COMMAND_PROMPT.value)
        return None
    try:
        await trio.to_thread.run_sync(services.store.create_account, account)
    except NameTaken:  # someone registered the same name meanwhile
        connection.write_bytes(ECHO_ON)
        connection.write_lines(["", render(Text.NAME_ALREADY_USED, name=name)])
        connection.write_prompt(Text.COMMAND_PROMPT.value)
        return None
    log.info("registered new account %s from %s", name, connection.host)
    connection.write_bytes(ECHO_ON)
    connection.write_lines(["", Text.REGISTERED.value, Text.HELP_BEGINNER_HINT.value])
    return Arrival(
        account=account, clip=False, clip_version=0, client_name=None, prompts=True,
        previous_login_at=None, previous_host=None, just_registered=True,
    )
