"""The player's verifier (`fibsd.tools.verify_dice`, `scripts/verify-dice`) on the inputs a
player can obtain: the server's `.mat` export with the dice header lines, a JSON rolls
file, and values on the command line."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
from pathlib import Path

import pytest

from fibsd.domain.dice import SeededDice
from fibsd.domain.fairdice import dice_header_lines, rolls_document, rolls_of_match
from fibsd.domain.matfile import export_mat
from fibsd.rules import Match, MatchOptions
from fibsd.tools.verify_dice import InputError, run
from tests.app.test_fairdice import play

REPO = Path(__file__).resolve().parents[2]


def finished(n: int = 0) -> tuple[Match, SeededDice, int]:
    dice = SeededDice(hashlib.sha256(b"verify" + bytes([n])).digest())
    coin = dice.coin()
    match = Match(MatchOptions(length=3))
    play(match, dice, random.Random(n))
    return match, dice, coin


def exported(match: Match, dice: SeededDice, *, seed: bool = True) -> str:
    headers = dice_header_lines(dice.commitment, dice.seed_hex if seed else None)
    return export_mat(players=("alice", "bob"), match=match, finished_at=0.0, site="fibsd",
                      dice_headers=headers)


def test_the_script_verifies_an_exported_mat(tmp_path: Path) -> None:
    match, dice, _coin = finished()
    path = tmp_path / "match.mat"
    path.write_text(exported(match, dice))
    done = subprocess.run([REPO / "scripts" / "verify-dice", str(path), "--commitment",
                           dice.commitment], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "VERIFIED" in done.stdout
    assert f"values checked: {dice.position}" in done.stdout


def test_a_changed_roll_in_the_mat_fails(tmp_path: Path) -> None:
    match, dice, _coin = finished(1)
    text = exported(match, dice)
    lines = text.splitlines()
    # Change player 0's roll on line 2 of game 1 (a line like "  2) 52: 13/8 13/11 ...").
    index = next(i for i, line in enumerate(lines) if re.match(r"\s*2\)\s+\d\d:", line))
    head, colon, tail = lines[index].partition(":")
    # The verifier does not replay the moves, so only the dice need to change.
    lines[index] = head[:-2] + ("55" if head.endswith("66") else "66") + colon + tail
    status, report = run_text(tmp_path, "\n".join(lines) + "\n")
    assert status == 1 and report[-1] == "FAILED"
    assert any("game 1, roll 2" in line for line in report)


def run_text(tmp_path: Path, text: str, *extra: str) -> tuple[int, list[str]]:
    path = tmp_path / "input"
    path.write_text(text)
    return run([str(path), *extra])


def test_commitment_announced_at_the_start_must_be_the_files(tmp_path: Path) -> None:
    match, dice, _coin = finished(2)
    text = exported(match, dice)
    assert run_text(tmp_path, text)[0] == 0
    other = SeededDice.new().commitment
    status, report = run_text(tmp_path, text, "--commitment", other)
    assert status == 1
    assert any("not the one announced at the start" in line for line in report)
    # A server that rewrote both seed and commitment fails against the announced one.
    forged = SeededDice.new()
    rewritten = text.replace(dice.commitment, forged.commitment).replace(dice.seed_hex, forged.seed_hex)
    assert run_text(tmp_path, rewritten, "--commitment", dice.commitment)[0] == 1


def test_a_mat_without_the_seed_is_an_input_error(tmp_path: Path) -> None:
    match, dice, _coin = finished(3)
    with pytest.raises(InputError, match="no seed"):
        run_text(tmp_path, exported(match, dice, seed=False))
    # The seed may come from the command line (as the server showed it at the end).
    assert run_text(tmp_path, exported(match, dice, seed=False), "--seed", dice.seed_hex)[0] == 0


def test_json_rolls_document_with_ties_and_coin(tmp_path: Path) -> None:
    match, dice, coin = finished(4)
    data = match.to_dict()
    data["dice"] = {"commitment": dice.commitment, "seed": dice.seed_hex, "coin": coin}
    document = rolls_document(data)
    assert document["values"] == rolls_of_match(data, coin)
    status, report = run_text(tmp_path, json.dumps(document))
    assert status == 0 and f"values checked: {dice.position}" in report
    wrong = dict(document, values=[1 - coin, *document["values"][1:]])  # the other coin
    status, report = run_text(tmp_path, json.dumps(wrong))
    assert status == 1 and any("the coin" in line for line in report)
    with pytest.raises(ValueError):
        rolls_document(match.to_dict())  # no dice entry: not verifiable


def test_values_and_dice_on_the_command_line() -> None:
    dice = SeededDice.new()
    values = [dice.coin()] + [dice.die() for _ in range(9)]
    common = ["--seed", dice.seed_hex, "--commitment", dice.commitment]
    assert run([*common, "--values", " ".join(map(str, values))])[0] == 0
    assert run([*common, "--dice", ",".join(map(str, values[1:]))])[0] == 0
    assert run([*common, "--dice", " ".join(map(str, values[:-1]))])[0] == 1
    with pytest.raises(InputError):
        run([*common, "--values", "1 two 3"])
    with pytest.raises(InputError):
        run(["--seed", dice.seed_hex, "--values", "1"])  # no commitment anywhere


def test_unusable_input_exits_2(tmp_path: Path) -> None:
    done = subprocess.run([REPO / "scripts" / "verify-dice", str(tmp_path / "missing.mat")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr.startswith("verify-dice: cannot read")
