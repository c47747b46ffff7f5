"""The load generator: drives a real fibsd server over TCP on 127.0.0.1 and reports figures.

This package owns the load client and its three scenarios, nothing of the server:

- `serverproc`: starting `fibsd serve` as a subprocess with a load-test configuration
  (temporary database, free port on 127.0.0.1, a cheap password hash, raised limits),
  pre-creating accounts, reading its RSS from /proc, stopping it by PID.
- `wire`: a lean line client over a trio TCP stream (no parsing beyond what is needed).
- `bot`: a bot-vs-bot match player (random legal plays from `fibsd.rules`).
- `scenarios`: `matches`, `hold` and `storm`.
- `report`: latency percentiles and the plain `name: value` report.
- `__main__`: the command line (`python -m fibsd.loadgen SCENARIO ...`).

It talks to the server only through the socket (and /proc for memory); it never imports
`fibsd.server`, `fibsd.app.session` or `fibsd.app.registry`, and it does not use `fibsd.bots`.
Traffic goes only to 127.0.0.1, and every loop is bounded in count and in time.
"""
