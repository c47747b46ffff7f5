"""Match play on the server: running matches and chouettes, their saves, clocks, boards
and wording.

`table` (a running match's flow), `table_save` (its save), `match_clock` (its clock: the
one home of the match clock's code), `narration`, `boards`, `notation`, `history`;
`chouette` (a running chouette), `chouette_presence` (who is away, its clock),
`chouette_narration`, `chouette_view`.

The lowest rung of the core above `fibsd.app.outcome`: synchronous, no trio, no sockets,
and nothing of the users above it (a table sees its occupants through a `Protocol`). It
may import `fibsd.app.outcome`, the store's API (the save values), the leaves,
`fibsd.rules` and `protocol`; it drives the rules and words what happens with
`protocol.wording`, per recipient.
"""
