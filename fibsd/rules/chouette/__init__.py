"""The chouette, pure: one box against a team on one board, with a cube per member.

A wrapper around the two-player engine (`fibsd.rules.Game` plays the checkers, C24):
it adds the queue and roles, the contracts and their cubes, settlement, rotation, the
partner, seats and the ledger. Like the rest of `fibsd.rules` it imports no trio, no
sockets, no clock and no randomness: dice and random draws come in as arguments, and
the server's timers call the engine's timeout actions. Modules: `settings` (§1.2),
`contracts`, `events`, `errors`, `ledger` (§1.17); `state` (the table's state, its
queries and transition table) and the modules of actions over it: `seats`, `partner`,
`checkers`, `answers`, `resignation`, `absence`, `settlement`, `persistence`; and
`table` (`Chouette`: the state with those actions as methods). Rules are numbered as in
docs/chouette-rules.md (C1-C82); docs/chouette.md says how each is implemented and how
a server drives a table.

    table = Chouette(parse_settings(["multi"]), ["alice", "bob", "carol", "dave"])
    table.begin_order(); table.order_roll({"alice": 6, "bob": 5, "carol": 3, "dave": 1})
    table.start_game(); table.opening_roll(3, 1)   # box's die, captain's die
    table.move("alice", [(8, 5), (6, 5)])
    table.double("bob"); table.take("alice")       # bob's own cube; the box takes
"""

from .contracts import Contract, Holder, Kind
from .errors import ChouetteError, ChouetteReason
from .events import (
    Answer,
    AnswerSealed,
    AnyEvent,
    CaptainChanged,
    Cause,
    ChouetteEvent,
    ChouetteGameOver,
    ChouetteGameStarted,
    ContractSettled,
    CubesAutoDoubled,
    DoubleAnswered,
    Doubled,
    ExtraDeclined,
    ExtraGiven,
    ExtrasOpen,
    LeaveDeferred,
    MoneyMoved,
    OrderDecided,
    OrderRolled,
    PartnerChosen,
    PartnerDeclined,
    PartnerDrawNeeded,
    PartnerOffered,
    PlayerJoined,
    PlayerLeft,
    ProxySet,
    Raccooned,
    ResignationAnswered,
    ResignationOffered,
    SittingOut,
    TableClosed,
    chouette_event_from_dict,
    chouette_event_to_dict,
)
from .ledger import GameRecord, Ledger, LedgerRow, Standing, split_with_partner
from .settings import (
    SEATS_LIMIT,
    SEATS_MIN,
    START_MIN,
    BadSetting,
    BoxLimits,
    Consult,
    Cubes,
    JoinMode,
    LoneTaker,
    PartnerMode,
    PartnerPick,
    Rotation,
    Settings,
    parse_settings,
)
from .table import FORMAT_VERSION, TRANSITIONS, Chouette, TableAction, TablePhase

__all__ = [
    "FORMAT_VERSION",
    "SEATS_LIMIT",
    "SEATS_MIN",
    "START_MIN",
    "TRANSITIONS",
    "Answer",
    "AnswerSealed",
    "AnyEvent",
    "BadSetting",
    "BoxLimits",
    "CaptainChanged",
    "Cause",
    "Chouette",
    "ChouetteError",
    "ChouetteEvent",
    "ChouetteGameOver",
    "ChouetteGameStarted",
    "ChouetteReason",
    "Consult",
    "Contract",
    "ContractSettled",
    "Cubes",
    "CubesAutoDoubled",
    "DoubleAnswered",
    "Doubled",
    "ExtraDeclined",
    "ExtraGiven",
    "ExtrasOpen",
    "GameRecord",
    "Holder",
    "JoinMode",
    "Kind",
    "LeaveDeferred",
    "Ledger",
    "LedgerRow",
    "LoneTaker",
    "MoneyMoved",
    "OrderDecided",
    "OrderRolled",
    "PartnerChosen",
    "PartnerDeclined",
    "PartnerDrawNeeded",
    "PartnerMode",
    "PartnerOffered",
    "PartnerPick",
    "PlayerJoined",
    "PlayerLeft",
    "ProxySet",
    "Raccooned",
    "ResignationAnswered",
    "ResignationOffered",
    "Rotation",
    "Settings",
    "SittingOut",
    "Standing",
    "TableAction",
    "TableClosed",
    "TablePhase",
    "chouette_event_from_dict",
    "chouette_event_to_dict",
    "parse_settings",
    "split_with_partner",
]
