"""A chouette table's settings (spec §1.2, C7-C20): what the players agreed at creation.

Owns the setting enums, `Settings` (frozen, validated, with the spec's defaults) and
`parse_settings`, which reads the `chouette create [multi|single] [key=value ...]` words
and raises `BadSetting` (a ValueError naming the key) on anything it cannot accept.
The timers are kept here so the server reads them from one place; the engine itself
never looks at a clock.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs

SEATS_MIN = 2  # C18: two may play ("unlimited games"), once the table has started
START_MIN = 3  # C18: `chouette start` needs three seated [SYD]
SEATS_LIMIT = 10  # C18, C64: KW's limit


class Cubes(enum.Enum):
    MULTI = "multi"  # one cube per team member vs the box (C26-C32)
    SINGLE = "single"  # one team cube, settled per member (C33-C38)


class Consult(enum.Enum):
    FREE = "free"  # C40
    CUBE = "cube"  # C41: only once your own cube is in the game
    NONE = "none"  # C42


class LoneTaker(enum.Enum):
    """What C44 does to the lone taker of the box's double at a table of five or more."""

    DROP = "drop"  # SEED
    BEAVER = "beaver"  # BGT 11, CHB
    FREE = "free"  # no rule


class BoxLimits(enum.Enum):
    NONE = "none"
    CAPTAIN = "captain"  # must take the captain's cube if it takes any
    HALF = "half"  # takes at least half of a full round of centred cubes, or none
    SAME_VALUE = "same_value"  # same value, same action


class PartnerMode(enum.Enum):
    OFF = "off"
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


class PartnerPick(enum.Enum):
    OFFER = "offer"  # captain first, then from the end of the queue backwards (SEED)
    NEXT = "next"  # the player after the captain, automatically (KW)


class Rotation(enum.Enum):
    CAPTAIN = "captain"  # the captain who replaces a dropped captain counts (SEED)
    ACTING = "acting"  # he only acts; the first decision stands (EG)


class JoinMode(enum.Enum):
    END = "end"  # newcomers go to the end of the queue at once (SEED, CAM, ACT)
    BEHIND_LOSER = "behind_loser"  # after the game, behind its loser (KW)


def _range(low: int, high: int) -> Any:
    def check(_instance: object, attribute: attrs.Attribute[Any], value: int) -> None:
        if not isinstance(value, int) or not low <= value <= high:
            raise BadSetting(attribute.name, str(value), f"must be {low}..{high}")

    return check


def _default_beavers(settings: Settings) -> int:
    return 0 if settings.cubes is Cubes.SINGLE else 1


@attrs.frozen
class Settings:
    """A table's settings with the spec's defaults (§1.2); fixed while a game runs."""

    cubes: Cubes = Cubes.MULTI
    consult: Consult = Consult.CUBE
    jacoby: bool = True
    # 0 none, 1 beavers, 2 beavers and raccoons; 0 in single-cube (C10, C38)
    beavers: int = attrs.field(
        default=attrs.Factory(_default_beavers, takes_self=True), validator=_range(0, 2)
    )
    autodoubles: int = attrs.field(default=0, validator=_range(0, 6))
    fiveplus: bool = True
    lone_taker: LoneTaker = LoneTaker.DROP
    extras: bool = False
    box_limits: BoxLimits = BoxLimits.NONE
    partner: PartnerMode = PartnerMode.OPTIONAL
    partner_from: int = attrs.field(default=8, validator=_range(3, SEATS_LIMIT))
    partner_pick: PartnerPick = PartnerPick.OFFER
    rotation: Rotation = Rotation.CAPTAIN
    join: JoinMode = JoinMode.END
    seats_max: int = attrs.field(default=SEATS_LIMIT, validator=_range(3, SEATS_LIMIT))
    # No `double_window_seconds` (C19): the spec's window only holds the captain's roll
    # for members who turned autoroll off (C26), which fibsd does not offer; members
    # double until the captain rolls. Saved tables that still carry the key load fine
    # (`from_dict` reads only the fields below).
    answer_seconds: int = attrs.field(default=60, validator=_range(5, 3600))
    box_absent_seconds: int = attrs.field(default=300, validator=_range(10, 3600))

    def __attrs_post_init__(self) -> None:
        if self.cubes is Cubes.SINGLE and self.beavers:
            raise BadSetting(
                "beavers", str(self.beavers), "no beavers in single-cube chouettes"
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: enums by their value, as `chouette create` spells them."""
        return {
            f.name: v.value if isinstance(v, enum.Enum) else v
            for f, v in ((f, getattr(self, f.name)) for f in attrs.fields(Settings))
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Inverse of `to_dict`; raises ValueError (a `BadSetting`) on bad data. Keys
        of settings fibsd no longer has (`double_window_seconds`) are ignored."""
        try:
            kwargs: dict[str, Any] = {
                f.name: _convert(f.name, data[f.name]) for f in attrs.fields(cls)
            }
        except KeyError as exc:
            raise BadSetting(str(exc), "", "missing") from exc
        return cls(**kwargs)

    def describe(self) -> tuple[tuple[str, str], ...]:
        """(key, value) pairs as `chouette create` reads them, for `chouette show`."""
        return tuple((k, _spell(v)) for k, v in self.to_dict().items())


class BadSetting(ValueError):
    """A `key=value` the table cannot accept: `key`, `value` and why."""

    def __init__(self, key: str, value: str, why: str) -> None:
        super().__init__(f"{key}={value}: {why}")
        self.key = key
        self.value = value
        self.why = why


_ENUMS: dict[str, type[enum.Enum]] = {
    "cubes": Cubes,
    "consult": Consult,
    "lone_taker": LoneTaker,
    "box_limits": BoxLimits,
    "partner": PartnerMode,
    "partner_pick": PartnerPick,
    "rotation": Rotation,
    "join": JoinMode,
}
_BOOLS = frozenset({"jacoby", "fiveplus", "extras"})
_ON = {"on": True, "yes": True, "true": True, "1": True}
_OFF = {"off": False, "no": False, "false": False, "0": False}


def _spell(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _convert(key: str, value: object) -> object:
    """A setting's value from its text (or JSON) form."""
    if key in _ENUMS:
        try:
            return _ENUMS[key](str(value).lower())
        except ValueError:
            choices = "|".join(str(m.value) for m in _ENUMS[key])
            raise BadSetting(key, str(value), f"must be {choices}") from None
    if key in _BOOLS:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in _ON:
            return True
        if text in _OFF:
            return False
        raise BadSetting(key, str(value), "must be on|off")
    if isinstance(value, bool):
        raise BadSetting(key, str(value), "must be a number")
    if isinstance(value, int):
        return value
    try:
        return int(str(value))
    except ValueError:
        raise BadSetting(key, str(value), "must be a number") from None


_KEYS = frozenset(f.name for f in attrs.fields(Settings))


def parse_settings(words: Sequence[str]) -> Settings:
    """Settings from `chouette create`'s words: an optional `multi`/`single` first, then
    `key=value` pairs (keys as in §1.2). Unknown keys, repeats and bad values raise
    `BadSetting`. In single-cube mode beavers default to 0 (C10)."""
    kwargs: dict[str, object] = {}
    rest = list(words)
    if rest and rest[0].lower() in ("multi", "single"):
        kwargs["cubes"] = Cubes(rest.pop(0).lower())
    for word in rest:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep or not value:
            raise BadSetting(key, value, "expected key=value")
        if key not in _KEYS:
            raise BadSetting(key, value, "no such setting")
        if key in kwargs:
            raise BadSetting(key, value, "given twice")
        kwargs[key] = _convert(key, value)
    return Settings(**kwargs)  # type: ignore[arg-type]
