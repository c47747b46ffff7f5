"""Match play on the server: tables (running matches), boards per viewer, move wording.

Application core: synchronous, no trio, no sockets. It drives `fibsd.rules` and words
what happens with `protocol.wording`, per recipient.
"""
