"""The handlers of FIBS commands, one module per area, called by `fibsd.app.dispatch`.

Each handler takes the registry (who is online and the server's services) when it needs
it, the session of the user who typed the command, the parsed command and the `Outcome`
to fill; handlers are synchronous and hold no state of their own. They sit beside
`fibsd.app.presence` on the ladder: above the lobby, below the dispatch. They may import
every rung below them (tournaments, the lobby, the registry, ...), never `dispatch`,
`presence`, `timers` or `results`.
"""
