"""Golden transcripts (tests/protocol/transcripts/*.txt) replayed through the codec: every
server line parses into the event named beside it and renders back byte-identical; every
client line parses as a client command (or login line).

Format of a transcript: `S[EVENT]: line` (EVENT is a wording member, a message class name,
`BoardMessage` or `UnknownLine`), `P[MEMBER]` for a prompt sent without a terminator,
`C: line` for a client line, `#` for comments.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from protocol import messages
from protocol.commands import format_command, parse_command, parse_login_line
from protocol.messages import TextLine, parse_server_line, render_lines
from protocol.wording import Text

TRANSCRIPTS = Path(__file__).parent / "transcripts"
# Session mode of each transcript's recipient: CLIP login or telnet.
CLIP_MODE = {
    "clip-login.txt": True,
    "telnet-login.txt": False,
    "short-game.txt": True,
    "watching.txt": True,
    "guest-registration.txt": False,
}
PASSWORD_PROMPTS = {
    Text.PASSWORD_PROMPT, Text.GIVE_PASSWORD_PROMPT, Text.RETYPE_PASSWORD_PROMPT,
    Text.PASSWORDS_NOT_IDENTICAL_PROMPT,
}
_SERVER_LINE = re.compile(r"S\[(?P<event>\w+)\]:(?: (?P<line>.*))?\Z")
_PROMPT = re.compile(r"P\[(?P<member>\w+)\]\Z")


@attrs.frozen
class Step:
    number: int  # line number in the file, for failure messages
    kind: str  # "S", "P" or "C"
    label: str  # the event or prompt member; "" for client lines
    line: str


def read_transcript(path: Path) -> list[Step]:
    steps = []
    for number, raw in enumerate(path.read_text().split("\n"), start=1):
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("C: "):
            steps.append(Step(number, "C", "", raw[3:]))
        elif server := _SERVER_LINE.match(raw):
            steps.append(Step(number, "S", server["event"], server["line"] or ""))
        elif prompt := _PROMPT.match(raw):
            steps.append(Step(number, "P", prompt["member"], Text[prompt["member"]].value))
        else:
            raise AssertionError(f"{path.name}:{number}: not a transcript line: {raw!r}")
    return steps


def test_every_transcript_has_a_mode() -> None:
    assert sorted(CLIP_MODE) == sorted(path.name for path in TRANSCRIPTS.glob("*.txt"))


@pytest.mark.parametrize("name", sorted(CLIP_MODE))
def test_server_lines_parse_into_the_named_event_and_render_back_identically(name: str) -> None:
    clip = CLIP_MODE[name]
    for step in read_transcript(TRANSCRIPTS / name):
        if step.kind != "S":
            continue
        where = f"{name}:{step.number}"
        event = parse_server_line(step.line)
        if step.label in Text.__members__:
            assert isinstance(event, TextLine) and event.text is Text[step.label], (where, event)
        else:
            assert hasattr(messages, step.label), f"{where}: no event {step.label}"
            assert type(event).__name__ == step.label, (where, event)
        assert render_lines(event, clip=clip) == [step.line], where


@pytest.mark.parametrize("name", sorted(CLIP_MODE))
def test_client_lines_parse_as_commands(name: str) -> None:
    previous: Step | None = None
    for step in read_transcript(TRANSCRIPTS / name):
        where = f"{name}:{step.number}"
        if step.kind == "C":
            prompt = Text[previous.label] if previous is not None and previous.kind == "P" else None
            if prompt is Text.LOGIN_PROMPT:
                parse_login_line(step.line)
            elif prompt not in PASSWORD_PROMPTS:
                command = parse_command(step.line)
                assert parse_command(format_command(command)) == command, where
        previous = step


def test_prompts_are_the_table_s_prompts() -> None:
    for name in CLIP_MODE:
        for step in read_transcript(TRANSCRIPTS / name):
            if step.kind == "P":
                assert step.line.endswith((": ", "> ")), step
