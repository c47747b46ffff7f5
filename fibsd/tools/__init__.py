"""Client tools that ship with fibsd but are not the server: they stand beside it.

- `bots/`: a FIBS client library on trio plus the bundled bots (random legal, GNU
  Backgammon), `python -m fibsd.tools.bots random|gnubg`.
- `loadgen/`: the load generator, `python -m fibsd.tools.loadgen SCENARIO`; it starts its
  own server as a subprocess and drives it over TCP.
- `verify_dice.py`: the player's dice verifier, `python -m fibsd.tools.verify_dice`.

The contract (checked by import-linter, `[importlinter]` in setup.cfg): a tool uses only
what any client may use, the protocol codec (`protocol`), the rules (`fibsd.rules`) and
the public formats (`fibsd.domain.fairdice`, `fibsd.domain.matfile`), never the server's internals.
The one documented exception is the load generator's database seeding
(`loadgen/serverproc.precreate_accounts`, through `fibsd.store`, `fibsd.domain.accounts` and
`fibsd.infra.passwords`): registering thousands of accounts over the wire would measure the
password hash, not the server, so it writes them before the server starts. These tools
are also the only trio importers outside the server's shell.
"""
