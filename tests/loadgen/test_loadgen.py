"""The load generator end to end: each scenario in a small configuration, as a subprocess.

Runs `python -m fibsd.tools.loadgen` (what `scripts/loadgen` execs), which starts its own server
on a free port of 127.0.0.1, and checks that the report is complete and sane. These are
not benchmarks: no figure is compared with a speed target.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from fibsd.tools.loadgen.bot import play_command
from fibsd.tools.loadgen.report import Report, percentile
from fibsd.tools.loadgen.scenarios import account_name
from protocol.vocabulary import name_problem

ROOT = Path(__file__).resolve().parents[2]


def run_loadgen(*args: str, timeout: float = 600.0) -> tuple[int, dict[str, list[str]], str]:
    # (The timeout only bounds a hang: on a busy machine a run takes minutes.)
    done = subprocess.run(
        [sys.executable, "-m", "fibsd.tools.loadgen", *args], cwd=ROOT, capture_output=True,
        text=True, timeout=timeout, check=False,
    )
    figures: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        name, _, value = line.partition(": ")
        figures.setdefault(name, []).append(value)
    return done.returncode, figures, done.stdout + done.stderr


def one(figures: dict[str, list[str]], name: str) -> float:
    (value,) = figures[name]
    return float(value)


def positive_finite(figures: dict[str, list[str]], name: str) -> float:
    value = one(figures, name)
    assert math.isfinite(value) and value > 0, (name, value)
    return value


def assert_cpu_and_memory_figures(figures: dict[str, list[str]], unit: str) -> None:
    """CPU per unit (server and load client) and the RSS samples are present and sane."""
    positive_finite(figures, f"server_cpu_us_per_{unit}")
    positive_finite(figures, f"client_cpu_us_per_{unit}")
    low, high = one(figures, "server_rss_min_kib"), one(figures, "server_rss_max_kib")
    assert 0 < low <= high
    samples = [name for name in figures if name.startswith("sample_at_")]
    assert samples
    for name in samples:
        (text,) = figures[name]
        fields = dict(field.split("=") for field in text.split())
        assert low <= float(fields["rss_kib"]) <= high


def assert_server_fine(figures: dict[str, list[str]], output: str) -> None:
    assert figures["errors"] == ["0"], output
    assert figures["server_alive_at_end"] == ["True"], output
    assert figures["server_log_errors"] == ["0"], output
    assert figures["server_exit_status"] == ["0"], output  # stopped by SIGTERM, gracefully
    assert one(figures, "server_rss_kib") > 0
    assert one(figures, "server_rss_kib") >= one(figures, "server_rss_before_kib") > 0


@pytest.mark.slow
def test_matches_scenario_plays_and_measures_latency() -> None:
    status, figures, output = run_loadgen("matches", "--sessions", "20", "--matches", "5",
                                          "--seconds", "5", "--match-length", "1",
                                          "--min-matches", "1", "--sample-seconds", "1")
    assert status == 0, output
    assert_server_fine(figures, output)
    assert_cpu_and_memory_figures(figures, "command")
    positive_finite(figures, "server_cpu_us_per_login")
    assert one(figures, "commands_answered") >= one(figures, "latency_count")
    assert one(figures, "sessions_held") == 20
    assert one(figures, "matches_running") == 5
    assert one(figures, "plays") > 0 and one(figures, "moves_per_second") > 0
    # 1-point matches, played until one has ended (5 s are not enough on a busy machine)
    assert one(figures, "matches_finished") >= 1
    assert one(figures, "games_finished") >= one(figures, "matches_finished")
    assert one(figures, "latency_count") >= one(figures, "plays") > 0
    p50, p99, top = (one(figures, f"latency_{k}_ms") for k in ("p50", "p99", "max"))
    assert 0 < p50 <= p99 <= top  # (how long depends on the machine's load)


@pytest.mark.slow
def test_unlimited_matches_with_think_time_play_games_at_a_human_pace() -> None:
    status, figures, output = run_loadgen("matches", "--sessions", "6", "--matches", "2",
                                          "--seconds", "4", "--match-length", "0",
                                          "--think-ms", "20", "--sample-seconds", "1")
    assert status == 0, output
    assert_server_fine(figures, output)
    assert_cpu_and_memory_figures(figures, "command")
    assert one(figures, "think_ms") == 20
    assert one(figures, "matches_finished") == 0  # unlimited: no match ever ends
    # Each bot waits about 20 ms before each command: two matches, one player acting at a
    # time, cannot answer more than one command per 20 ms each on average (about 400 in
    # 4 s); without think time they make thousands (see the test above).
    assert 0 < one(figures, "commands_answered") < 2000
    assert one(figures, "latency_p50_ms") < one(figures, "seconds") * 1000


@pytest.mark.slow
def test_hold_scenario_holds_every_session() -> None:
    status, figures, output = run_loadgen("hold", "--sessions", "50", "--settle", "1",
                                          "--sample-seconds", "0.5")
    assert status == 0, output
    assert_server_fine(figures, output)
    assert_cpu_and_memory_figures(figures, "login")
    assert one(figures, "sessions_held") == 50
    assert one(figures, "ramp_up_seconds") > 0
    assert one(figures, "server_rss_per_session_kib") > 0
    assert one(figures, "login_latency_count") == 50
    assert 0 < one(figures, "login_latency_p50_ms") <= one(figures, "login_latency_max_ms")


@pytest.mark.slow
def test_storm_scenario_logs_everyone_in() -> None:
    status, figures, output = run_loadgen("storm", "--sessions", "30", "--settle", "1",
                                          "--sample-seconds", "0.5")
    assert status == 0, output
    assert_server_fine(figures, output)
    assert_cpu_and_memory_figures(figures, "login")
    assert one(figures, "sessions_logged_in") == 30
    assert one(figures, "sessions_held") == 30
    assert 0 < one(figures, "login_latency_max_ms") <= one(figures, "storm_seconds") * 1000 + 1


def test_help_lists_scenarios_and_parameters() -> None:
    status, _figures, output = run_loadgen("--help")
    assert status == 0
    for word in ("matches", "hold", "storm"):
        assert word in output
    status, _figures, output = run_loadgen("matches", "--help")
    for option in ("--sessions", "--matches", "--seconds"):
        assert option in output


def test_bad_arguments_are_refused_before_anything_starts() -> None:
    status, _figures, output = run_loadgen("matches", "--sessions", "4", "--matches", "3")
    assert status == 2
    assert "half of --sessions" in output


def test_account_names_are_valid_and_distinct() -> None:
    names = [account_name(i) for i in range(2000)]
    assert len(set(names)) == len(names)
    assert all(name_problem(name) is None for name in names)


def test_percentiles_and_report_format() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0
    report = Report()
    report.add_latencies("latency", [0.002, 0.001, 0.003])
    assert report.lines() == ["latency_count: 3", "latency_p50_ms: 2.000",
                              "latency_p99_ms: 3.000", "latency_max_ms: 3.000"]


def test_play_command_moves_the_opening_roll_in_absolute_numbers() -> None:
    # O (colour 1) to play 3-1 from the opening position: board from the transcripts.
    board = ("board:You:bob:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
             "1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    command = play_command(board, random.Random(1))
    assert command is not None and command.startswith("move ")
    moves = command.removeprefix("move ").split()
    assert len(moves) == 2
    for move in moves:
        source, target = (int(p) for p in move.split("-"))
        assert source - target in (1, 3)  # O moves down, by a die each


def test_server_settings_override_the_load_test_configuration() -> None:
    from fibsd.tools.loadgen.serverproc import config_text, with_overrides

    text = config_text(4321, Path("/x/db"), Path("/x/motd"), log_level="INFO")
    changed = with_overrides(text, ["limits.max_output_lines=2000", "server.club_name=\"x\""])
    assert "max_output_lines = 2000" in changed.splitlines()
    assert "max_output_lines = 1000000" not in changed
    assert 'club_name = "x"' in changed.splitlines()
    with pytest.raises(ValueError):
        with_overrides(text, ["nosuch.key=1"])
    with pytest.raises(ValueError):
        with_overrides(text, ["limits.max_output_lines"])
