"""The load generator: drives a real fibsd server over TCP on 127.0.0.1 and reports figures.

This package owns the load client and its three scenarios, nothing of the server:

- `serverproc`: starting `fibsd serve` as a subprocess with a load-test configuration
  (temporary database, free port on 127.0.0.1, a cheap password hash, raised limits),
  pre-creating accounts, reading its RSS from /proc, stopping it by PID.
- `wire`: a lean line client over a trio TCP stream (no parsing beyond what is needed).
- `bot`: a bot-vs-bot match player (random legal plays from `fibsd.rules`).
- `scenarios`: `matches`, `hold` and `storm`.
- `report`: latency percentiles and the plain `name: value` report.
- `__main__`: the command line (`python -m fibsd.tools.loadgen SCENARIO ...`).

It talks to the server only through the socket (and /proc for memory); it never imports
the server's internals (`fibsd.shell.server`, `fibsd.app`; import-linter checks it). Of the bots it borrows only `fibsd.tools.bots.moves`
(a board line to a position, a play to a command line). The one exception, documented in
`fibsd.tools` and allowed by name in setup.cfg: `serverproc` seeds the database through
`fibsd.store`, `fibsd.domain.accounts` and `fibsd.infra.passwords` before the server starts, and asks
`fibsd.infra.config.Config` which limits this server version has.
Traffic goes only to 127.0.0.1, and every loop is bounded in count and in time.
"""
