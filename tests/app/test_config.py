"""fibsd.infra.config: defaults, the shipped TOML file, overrides, one-line errors, the MOTD."""

from __future__ import annotations

import tomllib
from pathlib import Path

import attrs
import pytest

from fibsd.infra.config import TABLES, Config, ConfigError
from fibsd.infra.house_bots import house_bot_named
from fibsd.infra.motd import BUILTIN_MOTD, load_motd

REPO = Path(__file__).resolve().parents[2]
SHIPPED_TOML = REPO / "conf" / "fibsd.toml"
SHIPPED_MOTD = REPO / "conf" / "motd.txt"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fibsd.toml"
    path.write_text(text)
    return path


def test_defaults_are_safe() -> None:
    config = Config.default()
    assert config.host == "127.0.0.1"  # loopback unless the operator says otherwise
    assert config.port == 4321
    assert config.db_path == Path("var/fibsd.db")
    assert config.motd_file == Path("conf/motd.txt")
    assert config.club_name == "fibsd"
    assert config.idle_timeout_seconds == 3600
    assert config.login_timeout_seconds == 120
    assert config.max_line_bytes == 1024
    assert config.max_output_lines == 2000
    assert config.max_login_failures == 5
    assert config.password_hash_scheme == "argon2"
    assert config.admins == ()
    assert config.log_level == "INFO"


def test_shipped_toml_equals_the_defaults() -> None:
    # One deliberate difference: ./scripts/serve serves the web client (issue 16), while a
    # Config built in code (tests, benchmarks, embedders) opens no HTTP port unasked; and
    # it runs the three house bots (issue 36), where a Config built in code runs none.
    shipped = Config.from_toml(SHIPPED_TOML)
    assert [(bot.name, bot.strength) for bot in shipped.house_bots] == [
        ("gnubg_beginner", "beginner"), ("gnubg_intermediate", "intermediate"),
        ("gnubg_expert", "expert")]
    assert shipped == attrs.evolve(Config.default(), web_enabled=True,
                                   house_bots=shipped.house_bots)


def test_shipped_toml_documents_every_setting() -> None:
    data = tomllib.loads(SHIPPED_TOML.read_text())
    in_file = {key for table in data.values() for key in table}
    fields = {field.name for field in attrs.fields(Config)}
    assert in_file == fields
    assert {key for keys in TABLES.values() for key in keys} == fields


def test_empty_file_gives_defaults(tmp_path: Path) -> None:
    assert Config.from_toml(write(tmp_path, "")) == Config.default()


def test_values_are_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[server]\nhost = "0.0.0.0"\nport = 4000\ndb_path = "/srv/f.db"\nlog_level = "debug"\n'
        "[limits]\nidle_timeout_seconds = 90.5\n"
        '[passwords]\npassword_hash_scheme = "pbkdf2_sha256"\npbkdf2_rounds = 1000\n'
        '[admin]\nadmins = ["Alice", "bob"]\n',
    )
    config = Config.from_toml(path)
    assert (config.host, config.port, config.db_path) == ("0.0.0.0", 4000, Path("/srv/f.db"))
    assert config.log_level == "DEBUG"
    assert config.idle_timeout_seconds == 90.5
    assert config.password_hash_scheme == "pbkdf2_sha256"
    assert config.admins == ("Alice", "bob")
    assert config.is_admin("alice") and config.is_admin("BOB") and not config.is_admin("carol")


def test_command_line_overrides_the_file(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, "[server]\nport = 4000\n"))
    overridden = config.with_overrides(host="::1", port="5000", db_path="x.db")
    assert (overridden.host, overridden.port, overridden.db_path) == ("::1", 5000, Path("x.db"))
    # None means "not given on the command line".
    assert config.with_overrides() == config
    assert config.with_overrides(port=None).port == 4000


BAD_SETTINGS = [
    ("server", "host", '""'),
    ("server", "host", '"a b"'),
    ("server", "port", '"abc"'),
    ("server", "port", "70000"),
    ("server", "port", "-1"),
    ("server", "port", "true"),
    ("server", "db_path", '""'),
    ("server", "db_path", "5"),
    ("server", "motd_file", "[]"),
    ("server", "club_name", '""'),
    ("server", "club_name", '"' + "x" * 41 + '"'),
    ("server", "club_name", '"caf\\u00e9"'),
    ("server", "log_level", '"LOUD"'),
    ("web", "web_board", '"marble"'),
    ("limits", "idle_timeout_seconds", "0"),
    ("limits", "idle_timeout_seconds", '"1h"'),
    ("limits", "login_timeout_seconds", "-5"),
    ("limits", "max_line_bytes", "10"),
    ("limits", "max_line_bytes", "1.5"),
    ("limits", "max_output_lines", "0"),
    ("limits", "max_login_failures", "0"),
    ("passwords", "password_hash_scheme", '"bcrypt"'),
    ("passwords", "argon2_time_cost", "0"),
    ("passwords", "argon2_memory_cost_kib", "4"),
    ("passwords", "argon2_parallelism", "0"),
    ("passwords", "pbkdf2_rounds", "10"),
    ("admin", "admins", '"alice"'),
    ("admin", "admins", '["al1ce"]'),
    ("admin", "admins", '["guest"]'),
    ("admin", "admins", "[3]"),
]


@pytest.mark.parametrize(("table", "key", "value"), BAD_SETTINGS)
def test_every_bad_setting_gives_one_line_naming_it(
    tmp_path: Path, table: str, key: str, value: str
) -> None:
    path = write(tmp_path, f"[{table}]\n{key} = {value}\n")
    with pytest.raises(ConfigError) as caught:
        Config.from_toml(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: setting '{key}': ")
    assert ", got " in message
    assert caught.value.setting == key


def test_error_message_format() -> None:
    with pytest.raises(ConfigError) as caught:
        Config.default().with_overrides(port="abc")
    assert str(caught.value) == "setting 'port': must be an integer 0..65535, got 'abc'"


def test_value_with_a_newline_stays_on_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        Config.default().with_overrides(host="evil\nline")
    assert "\n" not in str(caught.value)


def test_unknown_key_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown setting 'server\.prot' \(did you mean 'port'\?\)"):
        Config.from_toml(write(tmp_path, "[server]\nprot = 4000\n"))


def test_unknown_table_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown table \[limit\] \(did you mean 'limits'\?\)"):
        Config.from_toml(write(tmp_path, "[limit]\nmax_line_bytes = 200\n"))


def test_key_in_the_wrong_table_or_at_top_level(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"setting 'port': belongs in \[server\], not \[limits\]"):
        Config.from_toml(write(tmp_path, "[limits]\nport = 4000\n"))
    with pytest.raises(ConfigError, match=r"setting 'port': must be inside the \[server\] table"):
        Config.from_toml(write(tmp_path, "port = 4000\n"))


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        Config.from_toml(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="not valid TOML") as caught:
        Config.from_toml(write(tmp_path, "[server\nport = \n"))
    assert "\n" not in str(caught.value)


def test_argon2_memory_must_cover_the_lanes() -> None:
    with pytest.raises(ConfigError, match="argon2_memory_cost_kib"):
        attrs.evolve(Config.default(), argon2_parallelism=4, argon2_memory_cost_kib=16)


# --- MOTD ---


def test_shipped_motd_is_safe_for_clients() -> None:
    lines = SHIPPED_MOTD.read_text().splitlines()
    assert lines, "the shipped MOTD is empty"
    assert load_motd(SHIPPED_MOTD) == tuple(lines)  # nothing needed fixing
    text = " ".join(lines)
    assert "fibsd" in text and "'help'" in text and "'help beginner'" in text
    for line in lines:
        assert line[:1] not in ("3", "4")
        assert line.isascii() and line == line.rstrip()
        assert line.startswith(("+", "|"))
    assert len({len(line) for line in lines}) == 1  # a closed box


def test_builtin_motd_when_the_file_is_missing(tmp_path: Path) -> None:
    assert load_motd(tmp_path / "nope.txt") == BUILTIN_MOTD
    assert all(line[:1] not in ("3", "4") for line in BUILTIN_MOTD)


def test_motd_lines_are_made_safe(tmp_path: Path) -> None:
    path = tmp_path / "motd.txt"
    path.write_bytes("4 players online  \n3rd line\nnaïve\ttab\r\n".encode())
    assert load_motd(path) == (" 4 players online", " 3rd line", "na??ve        tab")


def test_unreadable_motd_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^setting 'motd_file': cannot read "):
        load_motd(tmp_path)  # a directory


def test_clock_settings_are_read_and_checked(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, "[clocks]\nclock_required_for_rated = true\n"
                                              "clock_default_overtime_seconds = 60\n"))
    assert config.clock_required_for_rated and config.clock_default_overtime_seconds == 60
    with pytest.raises(ConfigError) as bad:
        Config.from_toml(write(tmp_path, "[clocks]\nclock_max_reserve_seconds = 0\n"))
    assert bad.value.setting == "clock_max_reserve_seconds"
    with pytest.raises(ConfigError):
        Config.from_toml(write(tmp_path, "[clocks]\ncorrespondence_max_days = 400\n"))


@pytest.mark.parametrize(("bots", "wanted"), [
    ('"gnubg_expert"', "setting 'house_bots': must be a list of tables"),
    ('[{ name = "a b" }]', "setting 'house_bots': house bot name 'a b' is not a possible user name"),
    ('[{ name = "bot", strength = "godlike" }]', "strength must be one of beginner, intermediate, expert"),
    ('[{ name = "bot", engine = "xg" }]', "engine must be one of gnubg"),
    ('[{ name = "bot" }, { name = "BOT" }]', "house bot BOT is listed twice"),
    ('[{ name = "bot", plies = 3 }]', "unknown key 'plies' in a house bot"),
    ('[{ name = "bot", matches = 0 }]', "house bot bot: matches must be a whole number from 1 to 8"),
    ('[{ name = "bot", matches = 9 }]', "house bot bot: matches must be a whole number from 1 to 8"),
    ('[{ name = "bot", matches = "2" }]', "house bot bot: matches must be a whole number from 1 to 8"),
    ('[{ name = "gnubg_intermediate_x", matches = 2 }]',
     "house bot gnubg_intermediate_x: its copy's name 'gnubg_intermediate_x_b' is not a possible user name"),
    ('[{ name = "bot", matches = 2 }, { name = "bot_b" }]', "house bot bot_b is listed twice"),
    ('[{ name = "bot_b" }, { name = "bot", matches = 3 }]', "house bot bot_b is listed twice"),
])
def test_a_bad_house_bot_stops_start_up_with_one_line(tmp_path: Path, bots: str, wanted: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Config.from_toml(write(tmp_path, f"[bots]\nhouse_bots = {bots}\n"))
    assert wanted in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.setting == "house_bots"


def test_house_bots_are_read_with_their_strengths(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, '[bots]\nhouse_bots = [{ name = "Bert", strength = "beginner" }]\n'
                                              "bots_rated = false\n"))
    (bot,) = config.house_bots
    assert (bot.name, bot.engine, bot.settings.plies, bot.settings.noise) == ("Bert", "gnubg", 0, 0.06)
    assert config.bots_rated is False


def test_a_house_bot_with_several_matches_has_a_copy_for_each(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, '[bots]\nhouse_bots = [{ name = "gnubg_expert", '
                                              'strength = "expert", matches = 3 }, { name = "Bert" }]\n'))
    expert, bert = config.house_bots
    assert expert.copies == ("gnubg_expert", "gnubg_expert_b", "gnubg_expert_c")
    assert bert.matches == 1 and bert.copies == ("Bert",)
    # Every copy is that house bot, in any case (user names are).
    assert house_bot_named(config.house_bots, "GNUBG_EXPERT_C") is expert
    assert house_bot_named(config.house_bots, "gnubg_expert_d") is None
