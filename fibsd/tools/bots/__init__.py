"""Bots for fibsd: a client library on trio and the bundled bots (random, GNU Backgammon).

`BotClient(BotConfig(...), strategy).run()` logs in with CLIP (registering the account if
needed), plays through the `protocol` codec and asks a `Strategy` for its decisions.
Modules: `client` (connection, login, reconnection), `player` (reactions to server
lines), `moves` (board ↔ rules ↔ move lines), `strategy` (the interface and the random
bot), `gnubg` (GNU Backgammon as a separate process), `__main__` (command line).
The server never imports this package.
"""

from fibsd.tools.bots.client import BotClient, ConnectionLost, LoginFailed
from fibsd.tools.bots.player import BotConfig, BotPlayer, MatchResult
from fibsd.tools.bots.strategy import RandomStrategy, Strategy

__all__ = [
    "BotClient",
    "BotConfig",
    "BotPlayer",
    "ConnectionLost",
    "LoginFailed",
    "MatchResult",
    "RandomStrategy",
    "Strategy",
]
