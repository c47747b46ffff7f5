"""The synchronous application core: a ladder, each rung importing only rungs below it.

    dispatch                 one command line -> Outcome (rate limit, parse, match/assert_never)
    verbs/ | presence        the command handlers | arrivals and departures
    lobby | chouettes        a match's | a chouette's life around the table (start, finish, ...)
    registry                 who is online, the status fan-out, the server's services
    presentation             domain values -> codec messages; what a message is for one user
    session                  one user's state (no services, no dispatch)
    play/                    one running match: table, boards, notation, history
    outcome                  what a command produced: deliveries, writes, closes

Below the ladder: the pure rings (`protocol`, `fibsd.rules`) and the leaves (`fibsd.config`,
`store`, `accounts`, `dice`, `fairdice`, `ratings`, `matfile`, `clock`, `limits`,
`passwords`). Above it: the trio shell (`fibsd.server`, `connection`, `login`, `tls`,
`__main__`). Nothing here imports trio, awaits, or touches a socket; the import-linter
contracts in `setup.cfg` check all of it (docs/architecture.md).
"""
