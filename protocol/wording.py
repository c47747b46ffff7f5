"""The one table of FIBS wording: every literal sentence the server sends.

Each member of `Text` is a `str.format` template with named fields. `render` fills it in;
the reverse direction (a regex per template, used to parse server lines back into typed
events) is derived from the same templates, so a sentence is written exactly once.

Sources and exact spelling: ../shared/docs/fibs-protocol.md (sections 2-7 and 10). Clients
match these byte for byte: do not "fix" FIBS's typos, spacing or punctuation.
"""

from __future__ import annotations

import enum


@enum.unique
class Text(enum.Enum):
    """Every FIBS sentence, keyed by what it says."""

    # --- messages, game flow, board-related texts (owned by protocol.messages) ---

    # --- commands, their errors and listings (owned by protocol.commands/listings) ---
    UNKNOWN_COMMAND = "** Unknown command: '{word}'"


def render(text: Text, **fields: object) -> str:
    """Fill in `text`'s template; a missing field is a programming error (KeyError)."""
    return text.value.format(**fields)
