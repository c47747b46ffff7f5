"""`help`: the list of commands and the help page of each (FIBS's `help`, §5.4).

Owns the help topics (one wording text per canonical verb, and `beginner`), which of
them are the operators' (listed to operators alone), and the layout of `help` and
`help TOPIC`. The words themselves are in `protocol.wording`; `protocol.listings`
re-exports what is here, beside the other listings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from protocol.wording import Text, render

__all__ = ["HELP_MORE", "HELP_TOPICS", "OPERATOR_VERBS", "help_lines"]

# One text per canonical verb (protocol.commands.VERBS minus its aliases) and `beginner`.
HELP_TOPICS: Final[Mapping[str, Text]] = {
    "!!": Text.HELP_REPEAT,
    "about": Text.HELP_ABOUT,
    "accept": Text.HELP_ACCEPT,
    "address": Text.HELP_ADDRESS,
    "average": Text.HELP_AVERAGE,
    "away": Text.HELP_AWAY,
    "back": Text.HELP_BACK,
    "beaver": Text.HELP_BEAVER,
    "beginner": Text.HELP_BEGINNER,
    "blind": Text.HELP_BLIND,
    "board": Text.HELP_BOARD,
    "bye": Text.HELP_BYE,
    "clear": Text.HELP_CLEAR,
    "date": Text.HELP_DATE,
    "dicetest": Text.HELP_DICETEST,
    "export": Text.HELP_EXPORT,
    "analyse": Text.HELP_ANALYSE,
    "analysis": Text.HELP_ANALYSIS,
    "puzzle": Text.HELP_PUZZLE,
    "claim": Text.HELP_CLAIM,
    "uninvite": Text.HELP_UNINVITE,
    "clock": Text.HELP_CLOCK,
    "correspondence": Text.HELP_CORRESPONDENCE,
    "chouette": Text.HELP_CHOUETTE,
    "team": Text.HELP_TEAM,
    "boxside": Text.HELP_BOXSIDE,
    "broadcast": Text.HELP_BROADCAST,
    "kick": Text.HELP_KICK,
    "ban": Text.HELP_BAN,
    "unban": Text.HELP_UNBAN,
    "mute": Text.HELP_MUTE,
    "unmute": Text.HELP_UNMUTE,
    "adduser": Text.HELP_ADDUSER,
    "invitecode": Text.HELP_INVITECODE,
    "tournament": Text.HELP_TOURNAMENT,
    "setbot": Text.HELP_SETBOT,
    "double": Text.HELP_DOUBLE,
    "erase": Text.HELP_ERASE,
    "gag": Text.HELP_GAG,
    "help": Text.HELP_HELP,
    "invite": Text.HELP_INVITE,
    "join": Text.HELP_JOIN,
    "kibitz": Text.HELP_KIBITZ,
    "last": Text.HELP_LAST,
    "leave": Text.HELP_LEAVE,
    "look": Text.HELP_LOOK,
    "message": Text.HELP_MESSAGE,
    "motd": Text.HELP_MOTD,
    "move": Text.HELP_MOVE,
    "name": Text.HELP_NAME,
    "off": Text.HELP_OFF,
    "oldboard": Text.HELP_OLDBOARD,
    "oldmoves": Text.HELP_OLDMOVES,
    "otter": Text.HELP_OTTER,
    "panic": Text.HELP_PANIC,
    "password": Text.HELP_PASSWORD,
    "pip": Text.HELP_PIP,
    "port": Text.HELP_PORT,
    "raccoon": Text.HELP_RACCOON,
    "ratings": Text.HELP_RATINGS,
    "rawwho": Text.HELP_RAWWHO,
    "redouble": Text.HELP_REDOUBLE,
    "reject": Text.HELP_REJECT,
    "resign": Text.HELP_RESIGN,
    "roll": Text.HELP_ROLL,
    "save": Text.HELP_SAVE,
    "say": Text.HELP_SAY,
    "set": Text.HELP_SET,
    "shout": Text.HELP_SHOUT,
    "show": Text.HELP_SHOW,
    "shutdown": Text.HELP_SHUTDOWN,
    "stat": Text.HELP_STAT,
    "tell": Text.HELP_TELL,
    "time": Text.HELP_TIME,
    "toggle": Text.HELP_TOGGLE,
    "unwatch": Text.HELP_UNWATCH,
    "version": Text.HELP_VERSION,
    "waitfor": Text.HELP_WAITFOR,
    "watch": Text.HELP_WATCH,
    "wave": Text.HELP_WAVE,
    "where": Text.HELP_WHERE,
    "whisper": Text.HELP_WHISPER,
    "who": Text.HELP_WHO,
    "whois": Text.HELP_WHOIS,
}
_HELP_COLUMNS: Final = 6
_HELP_COLUMN_WIDTH: Final = 12
#: The operators' commands (administrators only): listed by `help` to operators alone.
OPERATOR_VERBS: Final = frozenset(
    {"broadcast", "kick", "ban", "unban", "mute", "unmute", "adduser", "invitecode", "setbot", "shutdown"}
)


def help_lines(topic: str | None, verb: str | None, *, operator: bool = False) -> list[str]:
    """`help` (the list of commands, in alphabetical order; the operators' commands only
    for an operator) or `help TOPIC` (a `NAME` block).

    TOPIC is matched like a command word (`help quit`, `help m` and `help tog` work): the
    caller passes `verb`, what `protocol.commands.resolve_verb(topic)` made of it, so that
    the listings need not know the command syntax.
    """
    if topic is None:
        verbs = sorted(verb for verb in HELP_TOPICS
                       if verb != "beginner" and (operator or verb not in OPERATOR_VERBS))
        lines = [Text.HELP_LIST_HEADER.value]
        for start in range(0, len(verbs), _HELP_COLUMNS):
            row = verbs[start : start + _HELP_COLUMNS]
            # (a word as wide as the column, `correspondence`, still gets its space)
            lines.append("  " + "".join(f"{v:<{_HELP_COLUMN_WIDTH - 1}} " for v in row).rstrip())
        return lines
    text = HELP_TOPICS.get(topic.lower()) or HELP_TOPICS.get(verb or "")
    if text is None:
        return [render(Text.HELP_NO_TOPIC, word=topic)]
    return [Text.HELP_HEADING.value, "       " + text.value,
            *("       " + more.value for more in HELP_MORE.get(text, ()))]


#: Topics with more than one line of help.
HELP_MORE: Final[Mapping[Text, tuple[Text, ...]]] = {
    Text.HELP_CHOUETTE: (Text.HELP_CHOUETTE_1, Text.HELP_CHOUETTE_2, Text.HELP_CHOUETTE_3,
                         Text.HELP_CHOUETTE_4, Text.HELP_CHOUETTE_5, Text.HELP_CHOUETTE_6,
                         Text.HELP_CHOUETTE_7, Text.HELP_CHOUETTE_8, Text.HELP_CHOUETTE_9,
                         Text.HELP_CHOUETTE_10),
    Text.HELP_TOURNAMENT: (Text.HELP_TOURNAMENT_1, Text.HELP_TOURNAMENT_2, Text.HELP_TOURNAMENT_3,
                           Text.HELP_TOURNAMENT_SCHEDULE),
}
