"""Delivery: an outcome's lines, prompts and closes queued on its recipients' connections.

A message fanned out to many recipients is rendered once per kind of client and queued
as the same bytes for each; a user's who-info (a status line) replaces the previous one
still waiting in an outbox (coalescing: `Connection.write_status`); telnet users get a
prompt after each burst meant for them, the issuer's waiting while a job holds it; a
leaving user gets none. Queuing never waits (the shell's invariant 3): the flusher sends
each outbox later. Part of the trio shell, called back by `fibsd.shell.ordering` so that nothing
overtakes lines queued earlier; testable alone over connections on memory streams.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from itertools import chain

from fibsd.app import presentation
from fibsd.app.outcome import ClipBytes, Outcome, Recipient
from fibsd.app.session import Session
from fibsd.shell.connection import Connection
from protocol.framing import encode_line

log = logging.getLogger("fibsd.shell.server")


class Deliverer:
    """The open connections by session, and the queuing of outcomes onto them."""

    def __init__(self) -> None:
        #: The open connections by session (the core's recipients are sessions).
        self.connections: dict[Recipient, Connection] = {}

    def deliver_part(self, payload: tuple[Outcome, Session | None],
                      wanted: Callable[[Recipient], bool] | None) -> None:
        outcome, issuer = payload
        self.deliver(outcome, issuer=issuer, wanted=wanted)

    def deliver(self, outcome: Outcome, *, issuer: Session | None,
                 wanted: Callable[[Recipient], bool] | None = None) -> None:
        """Queue `outcome`'s lines, prompts and closes for its recipients (only for those
        `wanted` accepts, if given: the others' part waits in `_order`). Called by
        `_order` only, so that nothing overtakes lines queued before it."""
        # The issuer's prompt waits for the follow-up when a job holds it.
        issuer_prompt = None if outcome.holds_prompt else issuer
        if wanted is not None and issuer_prompt is not None and not wanted(issuer_prompt):
            issuer_prompt = None
        touched: dict[Recipient, None] = {}
        # A message fanned out to many recipients is rendered once per kind of client
        # and queued as the same bytes for each; the flusher later sends each recipient
        # everything queued for it in one piece.
        connections = self.connections
        encoded: dict[tuple[int, bool, int, bool], bytes] = {}
        for recipients, message in outcome.deliveries:
            clip_data = message.data if isinstance(message, ClipBytes) else None
            if wanted is not None:
                recipients = tuple(r for r in recipients if wanted(r))
            if isinstance(message, ClipBytes) and message.status_of is not None:
                # A status line: coalesced in each outbox.
                self._deliver_status(recipients, message.status_of, message.data, issuer)
                continue
            for recipient in recipients:
                if clip_data is not None:  # who-info, encoded once, for CLIP users only
                    if not recipient.clip:
                        continue
                    data = clip_data
                else:
                    key = (id(message), recipient.clip, recipient.clip_version, recipient.extensions)
                    found = encoded.get(key)
                    if found is None:  # rendering depends on the message and client kind
                        found = b"".join(encode_line(line) for line in presentation.render(recipient, message))
                        encoded[key] = found
                    data = found
                if not data:  # e.g. a CLIP-only message for a telnet user: no new prompt
                    continue
                connection = connections.get(recipient)
                if connection is None or not connection.is_open:
                    continue
                connection.write_encoded(data, asynchronous=recipient is not issuer)
                if recipient.prompts and (recipient is not issuer or issuer_prompt is not None):
                    touched[recipient] = None
        if issuer_prompt is not None and issuer_prompt.prompts and issuer_prompt in connections:
            touched[issuer_prompt] = None
        for recipient in touched:
            connection = connections.get(recipient)
            # A user who is leaving (timed out, bye, replaced, shutdown) gets no new prompt.
            if connection is not None and connection.is_open and recipient.departure is None:
                connection.write_prompt(presentation.prompt(recipient))
        for recipient, reason in outcome.closes:
            if wanted is not None and not wanted(recipient):
                continue
            connection = self.connections.get(recipient)
            if connection is not None:
                log.info("closing connection of %s: %s", recipient.name, reason)
                connection.close_soon()

    def _deliver_status(self, recipients: Sequence[Recipient], key: str, data: bytes,
                        issuer: Session | None) -> None:
        """A user's who-info to CLIP `recipients`: it replaces that user's previous one
        still waiting in a recipient's outbox (`Connection.write_status`). Asks for no
        prompt: it is CLIP-only and never the answer to a command."""
        connections = self.connections
        for recipient in recipients:
            if not recipient.clip:
                continue
            connection = connections.get(recipient)
            if connection is None or not connection.is_open:
                continue
            if recipient is issuer:  # the user's own line, in the answer's order
                connection.write_encoded(data)
            else:
                connection.write_status(key, data)


def recipients(outcome: Outcome, issuer: Session | None) -> Iterator[Recipient]:
    """Everyone `outcome` may send something to (lines, a prompt, a close); lazily, as
    the order needs them only while something waits (and chained in C: a broadcast
    reaches everyone online)."""
    return chain(
        chain.from_iterable(recipients for recipients, _ in outcome.deliveries),
        (recipient for recipient, _ in outcome.closes),
        () if issuer is None else (issuer,),
    )
