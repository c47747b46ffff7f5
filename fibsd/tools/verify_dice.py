"""The player's dice verifier: `python -m fibsd.tools.verify_dice` (`scripts/verify-dice`).

Owns the command line a player runs on a finished match: reading the input (the `.mat`
text the server's `export ID` sends, with its `DiceCommitment` and `DiceSeed` header
lines; or a JSON file of the match's values), checking it with `fibsd.domain.fairdice`, and the
report and exit status (0 verified, 1 not verified, 2 unusable input). It talks to no
server and needs nothing but the standard library and fibsd's pure modules.

Input, in order of preference (docs/dice.md explains how to get each):

* a `.mat` file: rolls as shown (opening ties and the coin are recomputed from the seed);
* a JSON file `{"commitment": hex, "seed": hex, "values": [coin, die, die, ...]}` (what
  `fibsd.domain.fairdice.rolls_document` makes from a stored match), or with `"dice"` instead
  of `"values"` when the coin is unknown;
* `--values "0 3 1 6 5 ..."` / `--dice "3 1 6 5 ..."` on the command line.

`--commitment` is the commitment the player saw announced when the match started: if
given it must equal the file's, which closes the one gap a file alone leaves (a server
could rewrite both its commitment and its seed after the fact).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fibsd.domain.fairdice import (
    COMMITMENT_HEADER,
    SEED_HEADER,
    VerificationResult,
    verify,
    verify_mat_rolls,
)
from fibsd.domain.matfile import MatFormatError, parse_mat


class InputError(Exception):
    """The input cannot be verified at all (missing seed, unreadable file, ...)."""


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(token) for token in text.replace(",", " ").split()]
    except ValueError:
        raise InputError(f"{what}: expected numbers separated by spaces") from None


def mat_rolls(text: str) -> tuple[dict[str, str], list[list[tuple[int, tuple[int, int]]]]]:
    """The header and, per game, the rolls (player, dice) of a `.mat` file's text."""
    try:
        parsed = parse_mat(text)
    except MatFormatError as error:
        raise InputError(f"not a .mat file: {error}") from None
    games = [[(action.player, action.dice) for action in game.actions
              if action.verb == "roll" and action.dice is not None]
             for game in parsed.games]
    return parsed.header, games


def _json_values(data: Any) -> tuple[dict[str, str], list[int], int]:
    """Header-like fields, the values, and the stream position of the first value."""
    if isinstance(data, list):
        data = {"values": data}
    if not isinstance(data, dict):
        raise InputError("JSON input must be an object or a list of numbers")
    fields = {key: str(data[key]) for key in ("commitment", "seed") if key in data}
    if "values" in data:
        values, start = data["values"], 0
    elif "dice" in data:
        values, start = data["dice"], 1
    else:
        raise InputError("JSON input needs \"values\" (coin first) or \"dice\"")
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise InputError("the values must be a list of integers")
    return fields, values, start


def run(argv: Sequence[str]) -> tuple[int, list[str]]:
    """Verify as the command line says; (exit status, report lines)."""
    parser = argparse.ArgumentParser(
        prog="verify-dice",
        description="Check a finished fibsd match's dice against its revealed seed.",
    )
    parser.add_argument("file", nargs="?", help=".mat export or JSON rolls file ('-': stdin)")
    parser.add_argument("--seed", help="the revealed seed (64 hex digits), if not in the file")
    parser.add_argument("--commitment",
                        help="the commitment announced at the start of the match")
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--values", help="every value drawn: the coin, then every die")
    given.add_argument("--dice", help="every die drawn (ties included), without the coin")
    args = parser.parse_args(argv)

    header: dict[str, str] = {}
    mat_games: list[list[tuple[int, tuple[int, int]]]] | None = None
    values: list[int] | None = None
    start = 0
    if args.file is not None:
        try:
            text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read {args.file}: {error}") from None
        if text.lstrip().startswith(("{", "[")):
            try:
                fields, values, start = _json_values(json.loads(text))
            except json.JSONDecodeError as error:
                raise InputError(f"{args.file}: not valid JSON: {error}") from None
            header = {COMMITMENT_HEADER: fields.get("commitment", ""),
                      SEED_HEADER: fields.get("seed", "")}
        else:
            header, mat_games = mat_rolls(text)
    if args.values is not None:
        values, start, mat_games = _ints(args.values, "--values"), 0, None
    elif args.dice is not None:
        values, start, mat_games = _ints(args.dice, "--dice"), 1, None
    if values is None and mat_games is None:
        raise InputError("nothing to verify: give a .mat or JSON file, --values or --dice")

    seed = args.seed or header.get(SEED_HEADER) or ""
    if not seed:
        raise InputError("no seed: the file has no DiceSeed line and --seed was not given "
                         "(the seed is revealed when the match ends)")
    file_commitment = header.get(COMMITMENT_HEADER) or ""
    commitment = args.commitment or file_commitment
    if not commitment:
        raise InputError("no commitment: the file has none and --commitment was not given")
    lines = [f"seed:       {seed.strip().lower()}", f"commitment: {commitment.strip().lower()}"]
    mismatch = bool(args.commitment and file_commitment
                    and args.commitment.strip().lower() != file_commitment.strip().lower())
    try:
        result: VerificationResult = (
            verify_mat_rolls(seed, commitment, mat_games) if mat_games is not None
            else verify(seed, commitment, values or [], start=start)
        )
    except ValueError as error:
        raise InputError(str(error)) from None
    if mismatch:
        lines.append(f"problem: the file's commitment {file_commitment} is not the one "
                     "announced at the start")
    lines += result.lines()
    if mismatch and result.ok:
        lines[-1] = "FAILED"
    return (0 if result.ok and not mismatch else 1), lines


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status, lines = run(sys.argv[1:] if argv is None else argv)
    except InputError as error:
        print(f"verify-dice: {error}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
