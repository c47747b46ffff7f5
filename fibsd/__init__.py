"""fibsd: a FIBS-compatible backgammon server.

The folders are the rings (docs/architecture.md), from the outside in; each imports only
the folders below it (the import contracts in setup.cfg):

    __main__.py   the command line
    shell/        the trio shell: listeners, connections, login, commit, delivery, workers
    app/          the synchronous core: a line, a tick or a worker's result in, an Outcome out
    store/        the store's API and its backends
    domain/       domain leaves: accounts, ratings, dice, .mat files, analysis data
    infra/        infrastructure leaves: settings, the wall clock, limits, passwords
    rules/        backgammon, chouettes and tournament pairings, pure
    (protocol/, beside this package: the FIBS wire codec, pure)

Beside them: `tools/` (clients: bots, the load generator, the dice verifier) and
`webclient/` (the web client's static page).
"""

__version__ = "0.1.0"
