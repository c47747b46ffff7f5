"""End-to-end: banner, CLIP login, telnet login, guest registration, failures (issue 4)."""

from __future__ import annotations

import re
from typing import Any

import trio

from tests.server.helpers import clip_login, register


async def test_banner_has_no_line_starting_with_a_digit(start_server: Any) -> None:
    running = await start_server()
    client = await running.connect()
    banner = await client.expect_prompt("login: ")
    assert "                     One account per person only!" in banner
    assert any("LOGIN AS guest IF YOU ARE NEW TO THIS SERVER!" in line for line in banner)
    assert all(not line[:1].isdigit() for line in banner)
    # Every line ends with CRLF and the prompt is the unterminated tail.
    assert client.raw.endswith(b"\r\nlogin: ")
    assert b"\n" not in client.raw.replace(b"\r\n", b"")


async def test_clip_login_sequence(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    client, lines = await clip_login(running, "alice")
    welcome = lines[0].split(" ")
    assert welcome[0] == "1" and welcome[1] == "alice" and welcome[2].isdigit() and len(welcome) == 4
    own = lines[1].split(" ")
    assert len(own) == 22 and own[:2] == ["2", "alice"]
    # 2008 defaults: 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC
    assert lines[1] == "2 alice 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 1 0 UTC"
    assert lines[2] == "3"
    end_motd = lines.index("4")
    assert end_motd > 2 and all(not line.startswith(("3", "4")) for line in lines[3:end_motd])
    assert lines[end_motd + 1] == ""
    who = lines[end_motd + 2:]
    assert who[-1] == "6"
    assert len(who) == 2 and who[0].startswith("5 alice - - 0 0 1500.00 0 ")
    assert len(who[0].split(" ")) == 13
    assert who[0].endswith(" testclient -")
    # No prompts in CLIP mode.
    await client.send("time")
    line = await client.read_line()
    assert re.fullmatch(r"\w+day, \w+ \d\d \d\d:\d\d:\d\d UTC   \( \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} UTC \)", line), line
    await client.assert_no_prompt_after("time", lambda line: line.endswith(" UTC )"))


async def test_telnet_login_switches_echo_off_for_the_password(start_server: Any) -> None:
    running = await start_server()
    await register(running, "bob", "hunter2")
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("bob")
    await client.expect_prompt("password: ")
    assert client.raw.endswith(b"\xff\xfb\x01password: ")  # IAC WILL ECHO before the prompt
    await client.send("hunter2")
    lines = await client.expect_prompt("> ")
    assert b"\xff\xfc\x01" in client.raw  # IAC WONT ECHO after it
    assert "** User bob authenticated." in lines
    assert any(line.startswith("** Last login: ") for line in lines)
    assert "hunter2" not in "\n".join(lines)


async def test_wrong_password_gets_the_login_prompt_again(start_server: Any) -> None:
    running = await start_server()
    await register(running, "carol")
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("login testclient 1008 carol wrong")
    lines = await client.expect_prompt("login: ")
    assert lines == [""]  # FIBS answers only with a new prompt
    await client.send("login testclient 1008 nobody secret")
    assert await client.expect_prompt("login: ") == [""]
    await client.send("login testclient 1008 carol secret")
    lines = await client.read_until("6")
    assert lines[0].startswith("1 carol ")


async def test_too_many_failures_close_the_connection(start_server: Any) -> None:
    running = await start_server(**{"limits.max_login_failures": 2})
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("login x 1008 nobody pw")
    await client.expect_prompt("login: ")
    await client.send("login x 1008 nobody pw")
    await client.read_all_until_closed()


async def test_guest_registration_rules(start_server: Any) -> None:
    running = await start_server()
    await register(running, "dave")
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("guest")
    lines = await client.expect_prompt("> ")
    assert "Welcome to FIBS. You just logged in as guest." in lines
    assert "ONE USERNAME PER PERSON ONLY!!!" in lines
    await client.send("name dave")
    assert await client.expect_prompt("> ") == ["** Please use another name. 'dave' is already used by someone else."]
    await client.send("name DAVE")  # unique regardless of case
    assert await client.expect_prompt("> ") == ["** Please use another name. 'DAVE' is already used by someone else."]
    await client.send("name guest")
    assert await client.expect_prompt("> ") == ["** Please use another name. 'guest' is already used by someone else."]
    await client.send("name r2d2")
    assert await client.expect_prompt("> ") == ["** Your name may only contain letters and the underscore character _ ."]
    await client.send("name " + "a" * 21)
    assert await client.expect_prompt("> ") == ["** Please use a name with at most 20 characters."]
    await client.send("name erin")
    lines = await client.expect_prompt("Please give your password: ")
    assert lines == ["Your name will be erin", "Type in no password and hit Enter/Return if you want to change it now."]
    await client.send("abc")
    assert await client.expect_prompt("Please give your password: ") == ["Minimal password length is 4 characters."]
    await client.send("abcd")
    await client.expect_prompt("Please retype your password: ")
    await client.send("abce")
    await client.expect_prompt("** The two passwords were not identical. Please give them again. Password: ")
    await client.send("abcd")
    await client.expect_prompt("Please retype your password: ")
    await client.send("abcd")
    lines = await client.expect_prompt("> ")
    assert lines[-2:] == ["You are registered.", "Type 'help beginner' to get started."]
    # The new user is logged in (telnet mode) and the account works for CLIP.
    await client.send("whois erin")
    lines = await client.expect_prompt("> ")
    assert lines[0] == "Information about erin:"
    assert "  Rating: 1500.00 Experience: 0" in lines
    _, clip_lines = await clip_login(running, "erin", "abcd")
    assert clip_lines[0].startswith("1 erin ")


async def test_second_login_closes_the_older_session(start_server: Any) -> None:
    running = await start_server()
    await register(running, "frank")
    first, _ = await clip_login(running, "frank")
    second, lines = await clip_login(running, "frank")
    assert lines[0].startswith("1 frank ")
    rest = await first.read_all_until_closed()
    assert "Closed old connection with user frank." in rest
    # Only one frank is online.
    await second.send("rawwho")
    who = await second.read_until("6")
    assert [line.split(" ")[1] for line in who if line.startswith("5 ")] == ["frank"]


async def test_connect_autologin_has_no_prompts(start_server: Any) -> None:
    running = await start_server()
    await register(running, "gina")
    client = await running.connect()
    await client.expect_prompt("login: ")
    await client.send("connect gina secret")
    await client.send("time")
    lines = await client.read_until(lambda line: "UTC )" in line)
    assert "** User gina authenticated." in lines
    await client.assert_no_prompt_after("time", lambda line: line.endswith(" UTC )"))


async def test_line_too_long_closes_only_that_connection(start_server: Any) -> None:
    running = await start_server(**{"limits.max_line_bytes": 200})
    await register(running, "hank")
    client, _ = await clip_login(running, "hank")
    await client.stream.send_all(b"x" * 500)
    rest = await client.read_all_until_closed()
    assert any("too long" in line for line in rest)
    again, lines = await clip_login(running, "hank")
    assert lines[0].startswith("1 hank ")


async def test_a_hash_of_another_scheme_is_replaced_at_login(start_server: Any) -> None:
    from fibsd.infra.passwords import PasswordHasher

    running = await start_server()
    await register(running, "ivy", "s3cret")
    # Pretend the account was created when the server used argon2.
    old_hash = PasswordHasher.for_tests("argon2").hash("s3cret")
    await trio.to_thread.run_sync(running.server.store.set_password_hash, "ivy", old_hash)
    client, lines = await clip_login(running, "ivy", "s3cret")
    assert lines[0].startswith("1 ivy ")
    account = running.server.store.get_account("ivy")
    assert account is not None and account.password_hash.startswith("$pbkdf2-sha256$")
