"""The handlers of FIBS commands, one module per area, called by `Session.dispatch`.

Each handler takes the session, the parsed command and the `Outcome` to fill; handlers are
synchronous and hold no state of their own.
"""
