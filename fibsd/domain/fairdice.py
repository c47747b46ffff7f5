"""Verifiable dice: the published `fibsd-dice-v1` scheme a player can check.

Owns the scheme (documented for players in `docs/dice.md`): how every value follows from
a 32-byte seed and its position in the stream (`uniform_value`, `die_from_uniform`,
`coin_from_uniform`), the commitment, the pure checks a player's verifier runs (`verify`,
`verify_mat_rolls`), the reconstruction of the drawn values from a finished match
(`rolls_of_match`, `dice_of_match`), the `.mat` header lines that carry commitment and
seed (`dice_header_lines`), and the `dicetest` statistics (`roll_statistics`). The
server's dice source that draws from this stream, `SeededDice`, is in `fibsd.domain.dice`, where
dice come from; this module is the format both sides agree on, and the client tools
(`fibsd.tools.verify_dice`) use it without the server.

Pure: no trio, no clock, no store, no protocol. It knows the rules engine's events only
to read a match's history; it never decides what a match does with the values.

The scheme, precisely (every number here is part of the format):

* seed: 32 bytes from `secrets.token_bytes`; shown as 64 lowercase hex digits.
* commitment: hex SHA-256 of `b"fibsd-dice-v1 commitment\\n" + seed` (domain-separated,
  so the commitment is never the same hash as anything else derived from the seed).
* value number i (i = 0, 1, 2, ...: the i-th value drawn in the match): for j = 0, 1, ...
  compute block_j = HMAC-SHA256(key=seed, msg=b"fibsd-dice-v1" + i as 8 bytes big-endian
  + j as 4 bytes big-endian) and take the first byte b of block_0, block_1, ... (in byte
  order) with b < 252; then u = b is uniform over 0..251. A die is u % 6 + 1, a coin is
  u % 2. 252 = 6 * 42 = 2 * 126, so every face (and both coin sides) has exactly 42 (126)
  of the 252 accepted bytes: unbiased. A byte is rejected with probability 4/256, so a
  whole 32-byte block is rejected with probability (1/64)**32, about 1e-58.
* drawing order in a match: value 0 is the coin (which seat plays O in game 1), then
  every die in the order the server drew it: per opening attempt die0 (player 0) then
  die1 (player 1), ties included; per roll the first die then the second, as shown.

Because every value depends only on (seed, i), a saved match resumes at its `position`
with the same stream, and a verifier can check any prefix.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from fibsd.rules import DiceRolled, Match, OpeningRolled

SCHEME: Final = "fibsd-dice-v1"
SEED_BYTES: Final = 32
_VALUE_PREFIX: Final = SCHEME.encode("ascii")
_COMMITMENT_PREFIX: Final = SCHEME.encode("ascii") + b" commitment\n"
#: Bytes at or above this are rejected: 252 is the largest multiple of 6 (and 2) <= 256.
ACCEPT_BELOW: Final = 252
#: The `.mat` header keys (comment lines, which plain importers such as gnubg skip).
COMMITMENT_HEADER: Final = "DiceCommitment"
SEED_HEADER: Final = "DiceSeed"
SCHEME_HEADER: Final = "DiceScheme"


def seed_from_hex(seed_hex: str) -> bytes:
    """The 32-byte seed written as 64 hex digits; ValueError for anything else."""
    try:
        seed = bytes.fromhex(seed_hex.strip())
    except ValueError:
        raise ValueError("a dice seed is 64 hex digits") from None
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a dice seed is {SEED_BYTES} bytes (64 hex digits), not {len(seed)}")
    return seed


def commitment_of(seed: bytes) -> str:
    """The hex commitment announced at match start for `seed`."""
    return hashlib.sha256(_COMMITMENT_PREFIX + seed).hexdigest()


def uniform_value(seed: bytes, index: int) -> int:
    """Value number `index` of the stream as u in 0..251, uniformly distributed."""
    if index < 0:
        raise ValueError("a stream position is >= 0")
    block_number = 0
    while True:
        message = _VALUE_PREFIX + index.to_bytes(8, "big") + block_number.to_bytes(4, "big")
        for byte in hmac.digest(seed, message, "sha256"):
            if byte < ACCEPT_BELOW:
                return byte
        block_number += 1  # all 32 bytes rejected: about once in 1e58 values


def die_from_uniform(u: int) -> int:
    return u % 6 + 1


def coin_from_uniform(u: int) -> int:
    return u % 2


def expected_values(seed_hex: str, count: int, *, start: int = 0) -> list[int]:
    """The values a match with this seed draws at positions start..start+count-1 (the
    coin at position 0, dice everywhere else)."""
    seed = seed_from_hex(seed_hex)
    values = []
    for index in range(start, start + count):
        u = uniform_value(seed, index)
        values.append(coin_from_uniform(u) if index == 0 else die_from_uniform(u))
    return values


# --- verification ---------------------------------------------------------------------------


@attrs.frozen
class VerificationResult:
    """What a check found. `ok` only if the commitment matches and every value does."""

    commitment_ok: bool
    values_checked: int
    #: Descriptions of what did not match, first problem first (empty when ok).
    problems: tuple[str, ...] = ()
    #: The coin the stream gives (seat playing O in game 1), for the player's information.
    coin: int | None = None

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems

    def lines(self) -> list[str]:
        """A human-readable report."""
        out = [
            "commitment: " + ("matches the seed" if self.commitment_ok
                              else "DOES NOT match the seed"),
            f"values checked: {self.values_checked}",
        ]
        if self.coin is not None:
            out.append(f"coin (seat playing O in game 1): {self.coin}")
        out += [f"problem: {problem}" for problem in self.problems]
        out.append("VERIFIED: every roll follows from the revealed seed" if self.ok
                   else "FAILED")
        return out


def _commitment_matches(seed_hex: str, commitment_hex: str) -> bool:
    expected = commitment_of(seed_from_hex(seed_hex))
    return hmac.compare_digest(expected, commitment_hex.strip().lower())


def verify(seed_hex: str, commitment_hex: str, values: Sequence[int], *,
           start: int = 0) -> VerificationResult:
    """Check that `commitment_hex` commits to `seed_hex` and that `values` are the stream's
    values from position `start` on (start=0: the coin first, then every die; start=1:
    dice only, when the coin is not known). ValueError if the seed is not 64 hex digits."""
    commitment_ok = _commitment_matches(seed_hex, commitment_hex)
    expected = expected_values(seed_hex, len(values), start=start)
    problems = []
    for offset, (want, got) in enumerate(zip(expected, values)):
        if want != got:
            position = start + offset
            what = "the coin" if position == 0 else f"die at stream position {position}"
            problems.append(f"{what} is {got}, the seed gives {want}")
            break  # everything after a wrong value is out of step anyway
    coin = expected_values(seed_hex, 1)[0]
    return VerificationResult(commitment_ok, len(values), tuple(problems), coin)


def verify_mat_rolls(seed_hex: str, commitment_hex: str,
                     games: Sequence[Sequence[tuple[int, tuple[int, int]]]]) -> VerificationResult:
    """Check rolls as a `.mat` file shows them: per game, (player, dice) in order, the
    first being the opening roll (shown in the winner's column), every pair shown high die
    first. What the file cannot show is taken from the stream itself: the coin (position
    0) and the opening ties (an equal pair drawn at a game's start is re-rolled, so the
    file's opening roll must be the first unequal pair at that point of the stream).
    Normal rolls are compared without regard to the order of the two dice, which the
    format drops (and which does not matter to the game)."""
    commitment_ok = _commitment_matches(seed_hex, commitment_hex)
    seed = seed_from_hex(seed_hex)
    position = 1  # 0 is the coin
    checked = 1
    problems: list[str] = []

    def draw_pair() -> tuple[int, int]:
        nonlocal position
        pair = (die_from_uniform(uniform_value(seed, position)),
                die_from_uniform(uniform_value(seed, position + 1)))
        position += 2
        return pair

    for game_number, rolls in enumerate(games, start=1):
        for roll_number, (player, shown) in enumerate(rolls, start=1):
            if roll_number == 1:
                ties = 0
                while (pair := draw_pair())[0] == pair[1]:
                    ties += 1
                opener = 0 if pair[0] > pair[1] else 1
                checked += 2 * (ties + 1)
                if opener != player or sorted(pair) != sorted(shown):
                    problems.append(
                        f"game {game_number}: opening roll {shown[0]}{shown[1]} by player "
                        f"{player}; the seed gives die0={pair[0]} die1={pair[1]}"
                        + (f" after {ties} tie(s)" if ties else "")
                    )
                    return VerificationResult(commitment_ok, checked, tuple(problems),
                                              _coin(seed))
                continue
            pair = draw_pair()
            checked += 2
            if sorted(pair) != sorted(shown):
                problems.append(
                    f"game {game_number}, roll {roll_number}: {shown[0]}{shown[1]} shown, "
                    f"the seed gives {pair[0]}{pair[1]}"
                )
                return VerificationResult(commitment_ok, checked, tuple(problems), _coin(seed))
    return VerificationResult(commitment_ok, checked, (), _coin(seed))


def _coin(seed: bytes) -> int:
    return coin_from_uniform(uniform_value(seed, 0))


# --- what a match drew ---------------------------------------------------------------------


def dice_of_match(match_data: Mapping[str, Any]) -> list[int]:
    """Every die a match drew, in drawing order, from its `Match.to_dict()`: per game, each
    `OpeningRolled` (die0, die1; ties included) and each `DiceRolled` (both dice as
    rolled). ValueError if the data is not a saved match."""
    match = Match.from_dict(dict(match_data))
    games = [*match.finished_games, match.game]
    dice: list[int] = []
    for game in games:
        for event in game.history:
            if isinstance(event, OpeningRolled):
                dice += (event.die0, event.die1)
            elif isinstance(event, DiceRolled):
                dice += event.dice
    return dice


def rolls_of_match(match_data: Mapping[str, Any], coin: int) -> list[int]:
    """The values `verify` checks from position 0: `coin` (the table's `first_o_seat`,
    drawn first at match start), then `dice_of_match`."""
    if coin not in (0, 1):
        raise ValueError(f"the coin is 0 or 1, not {coin!r}")
    return [coin, *dice_of_match(match_data)]


def rolls_document(match_data: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON-able rolls file `verify-dice` reads, from a stored match's data: its
    `Match.to_dict()` plus the `"dice"` entry the server keeps with the record
    (`{"commitment", "seed", "coin"}`; seed None while not revealed). ValueError if the
    match was not played with seeded dice."""
    stored = match_data.get("dice")
    dice: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
    commitment, coin, seed = dice.get("commitment"), dice.get("coin"), dice.get("seed")
    if not commitment:
        raise ValueError("this match was not played with committed dice")
    if coin not in (0, 1):
        raise ValueError("the stored match lacks its coin")
    return {
        "scheme": SCHEME,
        "commitment": str(commitment),
        "seed": seed if isinstance(seed, str) else None,
        "values": rolls_of_match(match_data, int(coin)),
    }


def dice_header_lines(commitment: str, seed_hex: str | None) -> list[str]:
    """`.mat` header lines for an exported match: the scheme, the commitment, and the seed
    once it is revealed (None while the match is still being played). Comment lines in
    the `; [Key "value"]` form, which gnubg and other importers pass over."""
    lines = [f'; [{SCHEME_HEADER} "{SCHEME}"]', f'; [{COMMITMENT_HEADER} "{commitment}"]']
    if seed_hex is not None:
        lines.append(f'; [{SEED_HEADER} "{seed_hex}"]')
    return lines


# --- dicetest statistics --------------------------------------------------------------------


def chi_square_p_value(statistic: float, degrees_of_freedom: int) -> float:
    """P(X >= statistic) for X chi-square distributed: the regularized upper incomplete
    gamma function Q(k/2, x/2), by its power series below a + 1 and Lentz's continued
    fraction above (Numerical Recipes' gammq), accurate to about 1e-12."""
    if degrees_of_freedom < 1:
        raise ValueError("degrees of freedom must be >= 1")
    if statistic <= 0:
        return 1.0
    a, x = degrees_of_freedom / 2.0, statistic / 2.0
    log_prefactor = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefactor) * h)


def _chi_square(observed: Sequence[int], expected_each: float) -> float:
    if expected_each <= 0:
        return 0.0
    return sum((count - expected_each) ** 2 / expected_each for count in observed)


@attrs.frozen
class RollStatistics:
    """A `dicetest` report over rolls (pairs of dice, in the order drawn).

    The chi-square statistics compare the counts with a fair die's expectation: faces
    over all dice (6 cells, 5 degrees of freedom), ordered pairs over all rolls (36
    cells, 35 degrees of freedom). A p-value is the chance that fair dice give counts at
    least this far from even; below 0.01 in one report is worth a second look, but one
    in a hundred reports of fair dice is that low by chance."""

    rolls: int
    face_counts: tuple[int, ...]  # index 0 = ones ... 5 = sixes
    pair_counts: Mapping[tuple[int, int], int]  # ordered (first die, second die)
    doubles: int
    face_chi_square: float
    face_p_value: float
    pair_chi_square: float
    pair_p_value: float

    @property
    def dice(self) -> int:
        return 2 * self.rolls

    def lines(self) -> list[str]:
        """The report as plain text lines (what a `dicetest` command can send)."""
        if self.rolls == 0:
            return ["No rolls yet."]
        out = [f"Rolls: {self.rolls}  dice: {self.dice}"]
        for face, count in enumerate(self.face_counts, start=1):
            out.append(f"  {face}: {count:>8d}  {100 * count / self.dice:6.2f}%  (fair 16.67%)")
        out.append(f"  doubles: {self.doubles}  {100 * self.doubles / self.rolls:.2f}%"
                   "  (fair 16.67%)")
        out.append(f"  faces chi-square {self.face_chi_square:.2f} (5 df), "
                   f"p = {self.face_p_value:.4f}")
        out.append(f"  pairs chi-square {self.pair_chi_square:.2f} (35 df), "
                   f"p = {self.pair_p_value:.4f}")
        return out


def roll_statistics_from_counts(pair_counts: Mapping[tuple[int, int], int]) -> RollStatistics:
    """Statistics from counts of ordered pairs (a server keeps a running `Counter`)."""
    for (d1, d2), count in pair_counts.items():
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6) or count < 0:
            raise ValueError(f"not a roll count: {(d1, d2)}: {count}")
    cells = {(d1, d2): pair_counts.get((d1, d2), 0) for d1 in range(1, 7) for d2 in range(1, 7)}
    rolls = sum(cells.values())
    faces = [0] * 6
    for (d1, d2), count in cells.items():
        faces[d1 - 1] += count
        faces[d2 - 1] += count
    doubles = sum(cells[(d, d)] for d in range(1, 7))
    face_chi = _chi_square(faces, 2 * rolls / 6)
    pair_chi = _chi_square(list(cells.values()), rolls / 36)
    return RollStatistics(
        rolls=rolls,
        face_counts=tuple(faces),
        pair_counts=cells,
        doubles=doubles,
        face_chi_square=face_chi,
        face_p_value=chi_square_p_value(face_chi, 5) if rolls else 1.0,
        pair_chi_square=pair_chi,
        pair_p_value=chi_square_p_value(pair_chi, 35) if rolls else 1.0,
    )


def roll_statistics(rolls: Iterable[tuple[int, int]]) -> RollStatistics:
    """Statistics over rolls (opening attempts count as rolls: die0, die1)."""
    return roll_statistics_from_counts(Counter((int(d1), int(d2)) for d1, d2 in rolls))


def rolls_in_match(match_data: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Every roll of a match as pairs in drawing order (for `roll_statistics`)."""
    dice = dice_of_match(match_data)
    return [(dice[i], dice[i + 1]) for i in range(0, len(dice) - 1, 2)]


__all__ = [
    "ACCEPT_BELOW",
    "COMMITMENT_HEADER",
    "SCHEME",
    "SCHEME_HEADER",
    "SEED_BYTES",
    "SEED_HEADER",
    "RollStatistics",
    "VerificationResult",
    "chi_square_p_value",
    "coin_from_uniform",
    "commitment_of",
    "dice_header_lines",
    "dice_of_match",
    "die_from_uniform",
    "expected_values",
    "roll_statistics",
    "roll_statistics_from_counts",
    "rolls_document",
    "rolls_in_match",
    "rolls_of_match",
    "seed_from_hex",
    "uniform_value",
    "verify",
    "verify_mat_rolls",
]
