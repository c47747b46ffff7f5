"""Issue 31: the paced batches of logins, logouts and status changes lose nothing.

Whatever the order of logins, logouts, status changes and batches, every CLIP user ends
up knowing exactly who is online and each one's latest status, as if every change had
been announced at once: the users' views are rebuilt from what they were sent (`5` adds
or updates a user, `8` removes one) and compared with the server's state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fibsd.app.session import Departure
from tests.app.driver import CoreDriver

NAMES = ["anna", "bert", "cleo", "dirk", "emma"]

operations = st.lists(
    st.one_of(
        st.tuples(st.just("login"), st.sampled_from(NAMES)),
        st.tuples(st.just("logout"), st.sampled_from(NAMES)),
        st.tuples(st.just("ready"), st.sampled_from(NAMES)),
        st.tuples(st.just("away"), st.sampled_from(NAMES)),
        st.tuples(st.just("flush"), st.just("")),
    ),
    max_size=40,
)


def _view(lines: list[str], view: dict[str, str]) -> None:
    for line in lines:
        fields = line.split(" ")
        if fields[0] == "5":
            view[fields[1]] = " ".join(fields[2:6])  # opponent, watching, ready, away
        elif fields[0] == "8":
            view.pop(fields[1], None)


@settings(max_examples=150, deadline=None)
@given(operations)
def test_paced_batches_leave_every_user_with_the_state_of_the_server(steps: list[tuple[str, str]]) -> None:
    driver = CoreDriver()
    driver.paced = True
    driver.create("watcher", *NAMES)
    views: dict[str, dict[str, str]] = {}

    def read(name: str) -> None:
        _view(driver.take(name), views.setdefault(name, {}))

    driver.log_in("watcher")
    read("watcher")
    online = {"watcher"}
    for operation, name in steps:
        if operation == "login" and name not in online:
            driver.log_in(name)
            views[name] = {}
            online.add(name)
        elif operation == "logout" and name in online:
            driver.log_out(name, Departure.LOGGED_OUT)
            online.discard(name)
            views.pop(name, None)
            driver.take(name)
        elif operation == "ready" and name in online:
            driver.feed(driver.sessions[name], "toggle ready")
        elif operation == "away" and name in online:
            session = driver.sessions[name]
            driver.feed(session, "away lunch" if session.away_message is None else "back")
        elif operation == "flush":
            driver.flush()
        for reader in online:
            read(reader)
    driver.flush()
    for reader in online:
        read(reader)
    for reader in online:
        view = views[reader]
        assert set(view) == online, (reader, steps)
        for name in online:
            session = driver.sessions[name]
            ready = "1" if session.account.toggles.ready else "0"
            away = "1" if session.away_message is not None else "0"
            assert view[name].split(" ")[2:4] == [ready, away], (reader, name, view[name], steps)
