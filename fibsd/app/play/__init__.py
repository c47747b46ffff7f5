"""Match play on the server: tables (running matches), boards per viewer, move wording.

The lowest rung of the core above `fibsd.app.outcome`: synchronous, no trio, no sockets,
and nothing of the users above it (a table sees its occupants through a `Protocol`). It
drives `fibsd.rules` and words what happens with `protocol.wording`, per recipient.
"""
