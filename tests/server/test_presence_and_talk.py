"""End-to-end: who lists, CLIP 5/6/7/8 fan-out, tell/shout/message, settings, restarts."""

from __future__ import annotations

from typing import Any

import trio

from tests.server.helpers import clip_login, register, telnet_login


async def test_login_and_logout_are_announced(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await clip_login(running, "alice")
    bob, bob_lines = await clip_login(running, "bob")
    # bob's own who list has both, each as a 13-token 5-line, closed by 6.
    names = [line.split(" ")[1] for line in bob_lines if line.startswith("5 ")]
    assert names == ["alice", "bob"]
    # alice (notify on by default) sees 7, then bob's 5 and a 6.
    lines = await alice.read_until("6")
    assert lines[0] == "7 bob bob logs in."
    assert lines[1].startswith("5 bob - - 0 0 1500.00 0 ")
    await bob.send("bye")
    farewell = await bob.read_all_until_closed()
    assert farewell[0] == "                             Goodbye."
    assert await alice.read_line() == "8 bob bob logs out."


async def test_dropped_connection_and_notify_off(start_server: Any) -> None:
    running = await start_server()
    for name in ("alice", "bob", "carol"):
        await register(running, name)
    alice, _ = await clip_login(running, "alice")
    carol, _ = await clip_login(running, "carol")
    await alice.read_until("6")
    await carol.send("toggle notify")
    assert await carol.read_line() == "** You won't be notified when new users log in."
    bob, _ = await clip_login(running, "bob")
    assert (await alice.read_line()) == "7 bob bob logs in."
    # carol gets no 7, but still the who-info update.
    line = await carol.read_line()
    assert line.startswith("5 bob ")
    await bob.close()
    lines = await alice.read_until(lambda line: line.startswith("8 "))
    assert lines[-1] == "8 bob bob drops connection."


async def test_status_changes_send_who_info_to_everyone(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await clip_login(running, "alice")
    bob, _ = await clip_login(running, "bob")
    await alice.read_until("6")
    await bob.send("toggle ready")
    assert await bob.read_line() == "** You're now ready to invite or join someone."
    for client in (alice, bob):
        update = await client.read_until("6")
        assert update[0].startswith("5 bob - - 1 0 1500.00 ")
    await bob.send("away lunch")
    assert await bob.read_line() == "You're away. Please type 'back'"
    assert (await bob.read_until("6"))[0].startswith("5 bob - - 1 1 ")  # own status too
    assert (await alice.read_until("6"))[0].startswith("5 bob - - 1 1 ")
    await alice.send("tell bob hi")
    assert await alice.read_line() == "16 bob hi"
    assert await alice.read_line() == "bob is away: lunch"
    assert await bob.read_line() == "12 alice hi"
    await bob.send("back")
    lines = await bob.read_until("6")
    assert lines[0] == "Welcome back." and lines[1].startswith("5 bob - - 1 0 ")
    await bob.send("address bob@example.org")
    lines = await bob.read_until("6")
    assert "Your email address is 'bob@example.org'." in lines
    assert lines[-2].endswith(" bob@example.org")


async def test_tell_and_shout_round_trips(start_server: Any) -> None:
    running = await start_server()
    for name in ("alice", "bob", "quiet"):
        await register(running, name)
    alice, _ = await clip_login(running, "alice")
    bob, _ = await clip_login(running, "bob")
    quiet, _ = await clip_login(running, "quiet")
    await quiet.send("toggle silent")
    assert await quiet.read_line() == "** You won't hear what other players shout."
    await alice.send("tell bob hello   there")
    assert (await alice.read_until(lambda line: line.startswith("16 ")))[-1] == "16 bob hello   there"
    lines = await bob.read_until(lambda line: line.startswith("12 "))
    assert lines[-1] == "12 alice hello   there"
    await alice.send("tell nobody hi")
    assert await alice.read_until(lambda line: line.startswith("**")) == ["** There is no one called nobody"]
    await alice.send("tell alice me")
    assert await alice.read_line() == "You say to yourself: me"
    await bob.send("shout anyone?")
    assert (await bob.read_until(lambda line: line.startswith("17 ")))[-1] == "17 anyone?"
    assert (await alice.read_until(lambda line: line.startswith("13 ")))[-1] == "13 bob anyone?"
    # The silent user hears nothing: the next line quiet gets is the answer to its own command.
    await quiet.send("back")
    lines = await quiet.read_until("** You're not away.")
    assert not any(line.startswith("13 ") for line in lines)
    # gag: alice ignores bob
    await alice.send("gag bob")
    assert (await alice.read_until(lambda line: line.startswith("** You gag")))[-1] == "** You gag bob."
    await bob.send("tell alice psst")
    assert await bob.read_line() == "** alice won't listen to you."


async def test_telnet_users_get_human_wording_and_prompts(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await telnet_login(running, "alice")
    bob, _ = await clip_login(running, "bob")
    lines = await alice.expect_prompt("> ")
    assert lines == ["", "bob logs in."]  # asynchronous: starts on a fresh line, then the prompt
    await bob.send("tell alice hi there")
    assert await alice.expect_prompt("> ") == ["", "bob says: hi there"]
    await alice.send("tell bob hello")
    assert await alice.expect_prompt("> ") == ["** You tell bob: hello"]
    await alice.send("toggle")
    listing = await alice.expect_prompt("> ")
    # FIBS's 17 toggles, then fibsd's per-session `extensions` (on for telnet users).
    assert listing[0] == "The current settings are:" and len(listing) == 19
    assert listing[-1].split() == ["extensions", "YES"]
    await alice.send("who")
    who = await alice.expect_prompt("> ")
    assert len(who) == 3 and "alice" in who[1] + who[2] and "bob" in who[1] + who[2]


async def test_unknown_command_and_bad_input_keep_the_connection(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    await alice.send("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert await alice.read_line() == "** Unknown command: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"
    await alice.stream.send_all(b"\x00\xff\xfb\x01tel\xffl alice \xe9t\xe9\r\n")
    line = await alice.read_line()
    assert line.startswith("You say to yourself: ")
    await alice.send("roll")
    assert await alice.read_line() == "** You're not playing."
    await alice.send("say hi")
    assert await alice.read_line() == "** 'say' can't be used outside a game"


async def test_offline_message_survives_a_restart(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await clip_login(running, "alice")
    await alice.send("message bob see you at ten")
    assert await alice.read_line() == "11 bob"
    await alice.send("message nobody hi")
    assert await alice.read_line() == "** Don't know user nobody."
    await running.stop()
    restarted = await start_server(clock=running.clock)
    bob, lines = await clip_login(restarted, "bob")
    stored = [line for line in lines if line.startswith("9 ")]
    assert len(stored) == 1
    sender, sent_at, text = stored[0].split(" ", 3)[1:]
    assert (sender, text) == ("alice", "see you at ten") and sent_at.isdigit()
    assert lines.index(stored[0]) > lines.index("4")  # after the MOTD, before the who list
    await bob.send("bye")
    await bob.read_all_until_closed()
    # Shown once, then deleted.
    bob, lines = await clip_login(restarted, "bob")
    assert not [line for line in lines if line.startswith("9 ")]


async def test_message_to_online_user_is_delivered_at_once(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await clip_login(running, "alice")
    bob, _ = await clip_login(running, "bob")
    await alice.read_until("6")
    await alice.send("message bob now")
    assert await alice.read_line() == "10 bob"
    line = (await bob.read_until(lambda line: line.startswith("9 ")))[-1]
    assert line.startswith("9 alice ") and line.endswith(" now")


async def test_settings_survive_a_restart(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    for command, answer in [
        ("toggle bell", "** Your terminal will ring the bell if someone talks to you or invites you"),
        ("toggle automove", "** Forced moves will be done automatically."),
        ("set boardstyle 3", "Value of 'boardstyle' set to 3."),
        ("set timezone Europe/Berlin", "Value of 'timezone' set to Europe/Berlin."),
        ("set redoubles unlimited", "Value of 'redoubles' set to 'unlimited'."),
    ]:
        await alice.send(command)
        assert await alice.read_line() == answer
    await alice.send("password secret:newpass:newpass")
    assert await alice.read_line() == "Password changed."
    await running.stop()
    restarted = await start_server()
    alice, lines = await clip_login(restarted, "alice", "newpass")
    assert lines[1] == "2 alice 1 1 0 1 0 1 1 1 0 0 0 0 1 1500.00 0 0 unlimited 1 0 Europe/Berlin"
    await alice.send("set")
    lines = await alice.read_until(lambda line: line.startswith("timezone:"))
    assert "boardstyle: 3" in lines and "redoubles:  unlimited" in lines


async def test_waitfor(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    await register(running, "bob")
    alice, _ = await clip_login(running, "alice")
    await alice.send("waitfor bob")
    assert await alice.read_line() == "** You'll receive a message when 'bob' logs in."
    bob, bob_lines = await clip_login(running, "bob")
    lines = await alice.read_until(lambda line: "FINALLY" in line)
    assert lines[-1] == "** FINALLY!!! bob logs in.\a\a\a"
    # The newcomer learns it right after its login sequence.
    assert await bob.read_line() == "** alice is waiting for you to log in."
    assert "** alice is waiting for you to log in." not in bob_lines


async def test_a_who_list_longer_than_the_outbox_bound_is_delivered_whole(start_server: Any) -> None:
    """Found by the load generator: each who-info line used to be one outbox entry, so a
    login with more users online than `max_output_lines` overflowed its own outbox."""
    from fibsd.domain.accounts import Account
    from fibsd.infra.passwords import PasswordHasher

    running = await start_server(**{"limits.max_output_lines": 100,
                                    "limits.max_connections_per_address": 200})
    password_hash = PasswordHasher.for_tests("pbkdf2_sha256").hash("secret")
    names = [f"user_{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(120)]
    for name in names:
        running.server.store.create_account(Account.new(name, password_hash, 0.0))
    for name in names[:-1]:
        await clip_login(running, name)
    last, lines = await clip_login(running, names[-1])
    assert len([line for line in lines if line.startswith("5 ")]) == 120
    await last.send("time")
    assert "UTC" in await last.read_line()  # still connected


async def test_last_lists_logins_and_logouts(start_server: Any) -> None:
    running = await start_server()
    await register(running, "alice")
    alice, _ = await clip_login(running, "alice")
    await alice.send("last")
    lines = [await alice.read_line() for _ in range(4)]
    assert lines[0] == "The 20 last logins/logouts:"
    # The guest registration logged in and out, then the CLIP login.
    assert [line.split(": ", 1)[1] for line in lines[1:]] == [
        "alice logs in.", "alice logs out.", "alice logs in."]
    assert all(line.split(": ", 1)[0].endswith(" UTC") for line in lines[1:])


async def test_many_departures_at_once_are_all_announced_in_order(start_server: Any) -> None:
    """Users who drop together are announced together (one piece per recipient), each
    notice once, and a line said after the departures arrives after their notices."""
    running = await start_server()
    names = ["alice", "bob", "carol", "dave", "erin"]
    for name in names:
        await register(running, name)
    alice, _ = await clip_login(running, "alice")
    others = {}
    for name in names[1:]:
        others[name], _ = await clip_login(running, name)
        await alice.read_until("6")
    erin = others.pop("erin")
    async with trio.open_nursery() as nursery:
        for client in others.values():
            nursery.start_soon(client.close)
    expected = {f"8 {name} {name} drops connection." for name in others}
    seen: set[str] = set()
    await erin.read_until(lambda line: (seen.add(line) if line in expected else None) or seen == expected)
    await erin.send("shout still here")
    lines = await alice.read_until(lambda line: line.startswith("13 erin"))
    departures = [line for line in lines if line.startswith("8 ")]
    assert sorted(departures) == sorted(expected)
    assert lines[-1] == "13 erin still here"
    assert all(not line.startswith("8 ") for line in await _lines_for_a_moment(alice))


async def _lines_for_a_moment(client: Any) -> list[str]:
    lines: list[str] = []
    with trio.move_on_after(0.3):
        while True:
            lines.append(await client.read_line())
    return lines
