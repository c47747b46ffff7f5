"""Club tournaments, pure: knockout brackets, Swiss pairings, Berger tables, standings.

Like the rest of `fibsd.rules` it knows no clock, no store and no users (a contract in
setup.cfg keeps it apart from the backgammon rules too: it pairs names, nothing else).
Modules: `knockout` (seeding and byes), `swiss` (score-group pairing by maximum-weight
matching, with a look-ahead so late rounds stay repeat-free), `roundrobin` (FIDE's Berger
tables) and `tournament` (`Tournament`, the state: entrants, rounds, results, standings
with their tie-breaks, the winner; saved and restored as a dict). Recurring tournaments'
rules live in `fibsd.domain.schedule`: expanding them reads the zone database.

    t = Tournament("club", Format.KNOCKOUT, length=1, creator="alice")
    for name, rating in [("alice", 1600), ("bob", 1500), ("carol", 1550)]:
        t.join(name, rating)
    first = t.start()                 # alice has the bye; carol v bob
    t.record(first[1], "carol", (1, 0))   # -> the final: alice v carol
"""

from .knockout import bracket_order, bracket_size, first_round, rounds_needed
from .roundrobin import berger_rounds
from .swiss import default_rounds, max_rounds, pair_round
from .tournament import (
    Bracket,
    Ending,
    Entrant,
    Format,
    Pairing,
    PairingRequest,
    Phase,
    Standing,
    Tournament,
    TournamentError,
    standings,
)

__all__ = [
    "Bracket", "Ending", "Entrant", "Format", "Pairing", "PairingRequest", "Phase",
    "Standing", "Tournament", "TournamentError", "berger_rounds",
    "bracket_order", "bracket_size", "default_rounds",
    "first_round", "max_rounds", "pair_round", "rounds_needed", "standings",
]
