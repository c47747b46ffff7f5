"""The synchronous application core: a ladder, each rung importing only rungs below it.

    dispatch                       one command line -> Outcome (rate limit, parse, match/assert_never)
    verbs/ | presence | timers     the command handlers | arrivals and departures | the one tick
      | results                    | what the shell's workers bring back (engine analysis)
    aftermath                      hands every finished match on to what acts on it
    tournaments                    a tournament's life around its matches
    lobby/ | chouettes | analyses  a match's | a chouette's life around the table | the analysis queue
    registry                       who is online, the status fan-out, the server's services
    presentation                   domain values -> codec messages; what a message is for one user
    session                        one user's state (no services, no dispatch)
    play/                          one running match (table, its save, its clock, boards,
                                   narration) and one running chouette
    outcome                        what a command produced: deliveries, writes, closes, ...

Below the ladder: the store (`fibsd.store`, known here only by its API), the leaves
(`fibsd.domain`, `fibsd.infra`) and the pure rings (`fibsd.rules`, `protocol`); the core
may import all of them. Above it: the trio shell (`fibsd.shell`) and the command line
(`fibsd.__main__`), which it never imports. Nothing here imports trio, awaits, or touches
a socket; the import-linter contracts in `setup.cfg` check all of it
(docs/architecture.md).
"""
