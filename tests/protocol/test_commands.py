"""protocol.commands: every verb, FIBS's abbreviations and errors, and the round trip."""

from __future__ import annotations

import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import commands as c
from protocol.commands import (
    BAR,
    OFF,
    Command,
    LoginLine,
    ResignKind,
    ShowWhat,
    WhoKind,
    format_command,
    parse_command,
    parse_login_line,
    resolve_verb,
)
from protocol.errors import CommandError, LoginRejected
from protocol.vocabulary import SET_VARIABLES, TOGGLE_NAMES

# --- every verb -----------------------------------------------------------------------

PARSED: list[tuple[str, Command]] = [
    ("", c.Blank()),
    ("   ", c.Blank()),
    ("who", c.Who()),
    ("who ready", c.Who(WhoKind.READY)),
    ("who playing", c.Who(WhoKind.PLAYING)),
    ("who away", c.Who(WhoKind.AWAY)),
    ("who count", c.Who(WhoKind.COUNT)),
    ("who from example.com", c.Who(WhoKind.FROM, "example.com")),
    ("who someplayer", c.Who(WhoKind.NAME, "someplayer")),
    ("rawwho", c.RawWho()),
    ("rawwho GammonBot", c.RawWho(WhoKind.NAME, "GammonBot")),
    ("whois someplayer", c.Whois("someplayer")),
    ("where", c.Where()),
    ("where someplayer", c.Where("someplayer")),
    ("tell bob Hi,  how are you?", c.Tell("bob", "Hi,  how are you?")),
    ("tellx bob hi", c.Tell("bob", "hi")),  # GammonBot's tell
    ("shout anyone for a 5 pointer?", c.Shout("anyone for a 5 pointer?")),
    ("say gl", c.Say("gl")),
    ("kibitz nice roll", c.Kibitz("nice roll")),
    ("whisper psst", c.Whisper("psst")),
    ("message bob I'll be back at 10", c.Message("bob", "I'll be back at 10")),
    ("message", c.Messages()),
    ("waitfor", c.Waitfor()),
    ("waitfor bob alice", c.Waitfor(("bob", "alice"))),
    ("gag", c.Gag()),
    ("gag bob extra", c.Gag("bob")),  # only the first argument is used
    ("blind bob", c.Blind("bob")),
    ("away", c.Away()),
    ("away having dinner", c.Away("having dinner")),
    ("back", c.Back()),
    ("invite bob", c.Invite("bob")),
    ("invite bob 5", c.Invite("bob", 5)),
    ("invite bob 07", c.Invite("bob", 7)),
    ("invite bob unlimited", c.Invite("bob", unlimited=True)),
    ("invite bob UNLIMITED", c.Invite("bob", unlimited=True)),
    ("invite bob 5 holland", c.Invite("bob", 5, options=("holland",))),
    ("invite bob unlimited Jacoby please", c.Invite("bob", unlimited=True, options=("jacoby",))),
    ("clock", c.ClockCommand()),
    ("correspondence bob", c.Correspondence("bob")),
    ("join", c.Join()),
    ("join bob", c.Join("bob")),
    ("watch bob", c.Watch("bob")),
    ("unwatch", c.Unwatch()),
    ("look bob", c.Look("bob")),
    ("oldboard bob", c.Oldboard("bob")),
    ("oldmoves bob", c.Oldmoves("bob")),
    ("toggle", c.Toggle()),
    ("toggle ready notify", c.Toggle(("ready", "notify"))),
    ("toggle autoroll", c.Toggle(("double",))),  # the old name
    ("set", c.Set()),
    ("set boardstyle", c.Set("boardstyle")),
    ("set boardstyle 3", c.Set("boardstyle", 3)),
    ("set linelength 80", c.Set("linelength", 80)),
    ("set pagelength abc", c.Set("pagelength", 0)),  # FIBS: a non-number sets 0
    ("set redoubles none", c.Set("redoubles", 0)),
    ("set redoubles 2", c.Set("redoubles", 2)),
    ("set redoubles unlimited", c.Set("redoubles", "unlimited")),
    ("set sortwho rrating", c.Set("sortwho", "rrating")),
    ("set timezone Europe/Sofia", c.Set("timezone", "Europe/Sofia")),
    ("address bob@example.com", c.Address("bob@example.com")),
    ("address bob@example.com ignored", c.Address("bob@example.com")),
    ("password old:new1:new1", c.Password("old", "new1", "new1")),
    ("save", c.Save()),
    ("show games", c.Show(ShowWhat.GAMES)),
    ("show saved", c.Show(ShowWhat.SAVED)),
    ("show savedcount bob", c.Show(ShowWhat.SAVEDCOUNT, "bob")),
    ("show watchers", c.Show(ShowWhat.WATCHERS)),
    ("show max", c.Show(ShowWhat.MAX)),
    ("ratings", c.Ratings()),
    ("ratings bob", c.Ratings("bob")),
    ("ratings from 21 to 40", c.Ratings(None, 21, 40)),
    ("ratings bob to 5", c.Ratings("bob", None, 5)),
    ("ratings all", c.Ratings(everyone=True)),
    ("ratings from 2 ALL", c.Ratings(None, 2, None, True)),
    ("last", c.Last()),
    ("time", c.Time()),
    ("date", c.Date()),
    ("date UTC", c.Date("UTC")),
    ("motd", c.Motd()),
    ("about", c.About()),
    ("average", c.Average()),
    ("dicetest", c.Dicetest()),
    ("version", c.Version()),
    ("stat", c.Stat()),
    ("help", c.Help()),
    ("help invite", c.Help("invite")),
    ("man invite", c.Help("invite")),
    ("clear", c.Clear()),
    ("cls", c.Clear()),
    ("erase", c.Erase()),
    ("export", c.Export()),
    ("claim", c.Claim()),
    ("uninvite", c.Uninvite()),
    ("export 12", c.Export(12)),
    ("analyse 12", c.Analyse(12)),
    ("analyze 7", c.Analyse(7)),
    ("analysis 12", c.Analysis(12)),
    ("analysis 12 moves", c.Analysis(12, c.AnalysisPart.MOVES)),
    ("analysis 12 m", c.Analysis(12, c.AnalysisPart.MOVES)),
    ("analysis 12 sgf", c.Analysis(12, c.AnalysisPart.SGF)),
    ("puzzle", c.Puzzle()),
    ("puzzle mine", c.Puzzle(c.PuzzleSource.MINE)),
    ("puzzle ANY", c.Puzzle(c.PuzzleSource.ANY)),
    ("pu m", c.Puzzle(c.PuzzleSource.MINE)),
    ("show pr", c.Show(c.ShowWhat.PR)),
    ("show pr bob", c.Show(c.ShowWhat.PR, "bob")),
    ("show record", c.Show(c.ShowWhat.RECORD)),
    ("show record bob", c.Show(c.ShowWhat.RECORD, "bob")),
    ("show puzzles", c.Show(c.ShowWhat.PUZZLES)),
    ("show puzzles bob", c.Show(c.ShowWhat.PUZZLES, "bob")),
    ("show rec bob alice", c.Show(c.ShowWhat.RECORD, "bob", "alice")),
    ("shutdown 60", c.Shutdown(60)),
    ("broadcast  back in 5 minutes ", c.Broadcast("back in 5 minutes")),
    ("kick bob spamming", c.Kick("bob", "spamming")),
    ("ban bob 60 spam", c.Ban("bob", 60, "spam")),
    ("ban 10.0.0.7", c.Ban("10.0.0.7")),
    ("ban bob for spam", c.Ban("bob", None, "for spam")),
    ("unban bob", c.Unban("bob")),
    ("mute bob 5", c.Mute("bob", 5)),
    ("unmute bob", c.Unmute("bob")),
    ("adduser carol pa55word", c.Adduser("carol", "pa55word")),
    ("invitecode", c.Invitecode()),
    ("invitecode 3", c.Invitecode(3)),
    ("shutdown", c.Shutdown()),
    ("port", c.Port()),
    ("name bob", c.Name("bob")),
    ("name", c.Name("")),
    ("roll", c.Roll()),
    ("move 8-5 6-5", c.Move(((8, 5), (6, 5)))),
    ("move", c.Move()),
    ("off", c.Off()),
    ("board", c.Board()),
    ("pip", c.Pip()),
    ("double", c.Double()),
    ("redouble", c.Redouble()),
    ("beaver", c.Beaver()),
    ("raccoon", c.Raccoon()),
    ("otter", c.Otter()),
    ("accept", c.Accept()),
    ("reject", c.Reject()),
    ("resign n", c.Resign(ResignKind.NORMAL)),
    ("resign g", c.Resign(ResignKind.GAMMON)),
    ("resign b", c.Resign(ResignKind.BACKGAMMON)),
    ("resign normal", c.Resign(ResignKind.NORMAL)),
    ("resign gammon", c.Resign(ResignKind.GAMMON)),
    ("resign backgammon", c.Resign(ResignKind.BACKGAMMON)),
    ("leave", c.Leave()),
    ("panic", c.Panic()),
    ("bye", c.Bye()),
    ("wave", c.Wave()),
    ("!!", c.RepeatLast()),
    # fibsd's chouette (docs/chouette.md): names after the cube verbs, and its commands.
    ("double bob carol", c.Double(("bob", "carol"))),
    ("accept bob", c.Accept(("bob",))),
    ("reject bob carol", c.Reject(("bob", "carol"))),
    ("beaver alice", c.Beaver(("alice",))),
    ("raccoon bob", c.Raccoon(("bob",))),
    ("resign g bob", c.Resign(ResignKind.GAMMON, ("bob",))),
    ("chouette create single jacoby=off", c.Chouette(c.ChouetteAction.CREATE, ("single", "jacoby=off"))),
    ("chouette list", c.Chouette(c.ChouetteAction.LIST)),
    ("ch li", c.Chouette(c.ChouetteAction.LIST)),
    ("chouette join alice", c.Chouette(c.ChouetteAction.JOIN, ("alice",))),
    ("chouette leave", c.Chouette(c.ChouetteAction.LEAVE)),
    ("chouette leave now", c.Chouette(c.ChouetteAction.LEAVE, ("now",))),
    ("chouette start", c.Chouette(c.ChouetteAction.START)),
    ("chouette show", c.Chouette(c.ChouetteAction.SHOW)),
    ("chouette score", c.Chouette(c.ChouetteAction.SCORE)),
    ("chouette kick bob", c.Chouette(c.ChouetteAction.KICK, ("bob",))),
    ("chouette close", c.Chouette(c.ChouetteAction.CLOSE)),
    ("chouette export", c.Chouette(c.ChouetteAction.EXPORT)),
    ("chouette partner", c.Chouette(c.ChouetteAction.PARTNER)),
    ("chouette partner Yes", c.Chouette(c.ChouetteAction.PARTNER, ("yes",))),
    ("chouette extra", c.Chouette(c.ChouetteAction.EXTRA)),
    ("chouette noextra", c.Chouette(c.ChouetteAction.NOEXTRA)),
    ("chouette break", c.Chouette(c.ChouetteAction.BREAK)),
    ("chouette score 12", c.Chouette(c.ChouetteAction.SCORE, ("12",))),
    ("chouette export 3", c.Chouette(c.ChouetteAction.EXPORT, ("3",))),
    ("chouette history", c.Chouette(c.ChouetteAction.HISTORY)),
    ("ch h", c.Chouette(c.ChouetteAction.HISTORY)),
    ("chouette delegate bob", c.Chouette(c.ChouetteAction.DELEGATE, ("bob",))),
    ("chouette delegate off", c.Chouette(c.ChouetteAction.DELEGATE, ("off",))),
    ("team hold the cube", c.Team("hold the cube")),
    ("boxside we double", c.Boxside("we double")),
    ("tournament create club knockout 1 noshow 60 bots",
     c.Tournament(c.TournamentAction.CREATE, "club",
                  c.TournamentSpec("knockout", 1, noshow_seconds=60, bots=True))),
    ("tou cr Cup SWISS 3 clock rounds 5 max 16",
     c.Tournament(c.TournamentAction.CREATE, "Cup",
                  c.TournamentSpec("swiss", 3, rounds=5, clock=(12.0, 120.0), max_entrants=16))),
    ("tournament create rr roundrobin 5 clock 1 1.5",
     c.Tournament(c.TournamentAction.CREATE, "rr", c.TournamentSpec("roundrobin", 5, clock=(1.0, 1.5)))),
    ("tournament create k knockout 7 consolation",
     c.Tournament(c.TournamentAction.CREATE, "k", c.TournamentSpec("knockout", 7, consolation=True))),
    ("tournament join club", c.Tournament(c.TournamentAction.JOIN, "club")),
    ("tournament leave club", c.Tournament(c.TournamentAction.LEAVE, "club")),
    ("tournament start club", c.Tournament(c.TournamentAction.START, "club")),
    ("tournament cancel club", c.Tournament(c.TournamentAction.CANCEL, "club")),
    ("tournament list", c.Tournament(c.TournamentAction.LIST)),
    ("tournament sh club", c.Tournament(c.TournamentAction.SHOW, "club")),
    ("setbot gnubg on", c.Setbot("gnubg", True)),
    ("setbot gnubg OFF", c.Setbot("gnubg", False)),
    # fibsd's own verbs never make a FIBS abbreviation ambiguous.
    ("te bob hi", c.Tell("bob", "hi")),
    ("bo", c.Board()),
]

ALIASES = ["bye", "adios", "ciao", "end", "exit", "logout", "quit", "tschoe"]


@pytest.mark.parametrize(("line", "command"), PARSED, ids=[line or "<empty>" for line, _ in PARSED])
def test_every_verb_parses_to_its_typed_value(line: str, command: Command) -> None:
    assert parse_command(line) == command


def test_every_command_type_is_exercised_above() -> None:
    tested = {type(command) for _, command in PARSED}
    assert tested == set(typing.get_args(Command))


@pytest.mark.parametrize("alias", ALIASES)
def test_bye_and_its_aliases(alias: str) -> None:
    assert parse_command(alias) == c.Bye()


# --- case, prefixes, short forms, ambiguity -------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("Join", c.Join()),  # CocoaFIBS sends a capital J
        ("JOIN Bob", c.Join("Bob")),  # the name keeps its case
        ("WhO", c.Who()),
        ("b", c.Board()),
        ("k hello", c.Kibitz("hello")),
        ("m 8-5 6-5", c.Move(((8, 5), (6, 5)))),
        ("r", c.Roll()),
        ("s hi", c.Say("hi")),
        ("t bob hi", c.Tell("bob", "hi")),
        ("w", c.Who()),
        ("wh psst", c.Whisper("psst")),
        ("i bob 3", c.Invite("bob", 3)),
        ("to", c.Toggle()),
        ("to gr", c.Toggle(("greedy",))),
        ("res g", c.Resign(ResignKind.GAMMON)),
        ("o", c.Off()),
        ("jo bob", c.Join("bob")),  # unique prefixes
        ("acc", c.Accept()),
        ("rej", c.Reject()),
        ("tog ready", c.Toggle(("ready",))),
        ("unw", c.Unwatch()),
        ("whoi bob", c.Whois("bob")),
        ("whe", c.Where()),
        ("rac", c.Raccoon()),
        ("cl", c.Clear()),  # clear and cls are one command
        ("ex", c.Bye()),  # exit
        ("tel bob hi", c.Tell("bob", "hi")),  # tell and tellx are one command
        ("set board 2", c.Set("boardstyle", 2)),
        ("show savedc bob", c.Show(ShowWhat.SAVEDCOUNT, "bob")),
        ("toggle Ready", c.Toggle(("ready",))),
    ],
)
def test_abbreviations_prefixes_and_case(line: str, command: Command) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize("word", ["re", "e", "a", "sh", "wa", "d", "l", "pa", "xyz", "Re"])
def test_ambiguous_or_unknown_words_are_unknown_commands(word: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(f"{word} something")
    assert caught.value.line == f"** Unknown command: '{word}'"


def test_unknown_command_echoes_the_word_as_typed() -> None:
    # KBackgammon's keep-alive and the artefact it expects for a repeated login.
    with pytest.raises(CommandError) as caught:
        parse_command("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert caught.value.line == "** Unknown command: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"
    with pytest.raises(CommandError) as caught:
        parse_command("login kbackgammon-2.4 1008 bob secret")
    assert caught.value.line == "** Unknown command: 'login'"


def test_resolve_verb() -> None:
    assert resolve_verb("TELLX") == "tell"
    assert resolve_verb("wh") == "whisper"
    assert resolve_verb("re") is None
    assert resolve_verb("adi") == "bye"
    assert resolve_verb("cl") == "clear"
    assert resolve_verb("to") == "toggle"
    for alias, verb in c.ALIASES.items():
        assert resolve_verb(alias) == verb


# --- moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "moves"),
    [
        ("8-5 6-5", ((8, 5), (6, 5))),
        ("bar-22 13-11", ((BAR, 22), (13, 11))),
        ("6-off 5-off", ((6, OFF), (5, OFF))),
        ("b-3", ((BAR, 3),)),
        ("21-o 21-h", ((21, OFF), (21, OFF))),
        ("24-home", ((24, OFF),)),
        ("8 5 6 5", ((8, 5), (6, 5))),
        ("m b 22", ((BAR, 22),)),
        ("move bar-5 bar 5 bar - 5 bar -5", ((BAR, 5),) * 4),
        ("M BAR-20 6-1", ((BAR, 20), (6, 1))),
        ("bar 22", ((BAR, 22),)),
        ("move 13-11 13-11 6-4 6-4", ((13, 11), (13, 11), (6, 4), (6, 4))),
    ],
)
def test_move_lists(line: str, moves: tuple[tuple[c.MovePoint, c.MovePoint], ...]) -> None:
    assert parse_command(line) == c.Move(moves)


def test_b_with_a_number_alone_is_board() -> None:
    assert parse_command("b 22") == c.Board()


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("m 8-x", "** first move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."),
        ("m 8-5 6-y", "** second move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."),
        ("8-5 6-5 4-25", "** third move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."),
        ("m 0-5", "** first move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."),
        ("m 8", "** first move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."),
        ("m 1-2 3-4 5-6 7-8 9-10", "** Please don't give more than 4 moves."),
    ],
)
def test_bad_move_words(line: str, error: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert caught.value.line == error


# --- errors with FIBS's exact text --------------------------------------------------------

ERRORS = [
    ("invite", "** invite who?"),
    ("invite bob five", "** The second argument to 'invite' has to be a number or the word 'unlimited'"),
    ("invite bob -3", "** The second argument to 'invite' has to be a number or the word 'unlimited'"),
    ("invite bob 0", "** You can't play a 0 point match."),
    ("invite bob 100", "** You can't play a 100 point match."),
    ("invite bob 0000123", "** You can't play a 123 point match."),
    ("tell", "** Tell whom?"),
    ("tell bob", "** Tell bob what?"),
    ("message bob", "** usage: message <user> <text>"),
    ("watch", "** Watch who?"),
    ("look", "** Look at who?"),
    ("oldboard", "** usage: oldboard <name>"),
    ("oldmoves", "** usage: oldmoves <name>"),
    ("whois", "** please give a name as an argument."),
    ("address", "** You didn't give your address."),
    ("resign", "** Type 'n' (normal), 'g' (gammon) or 'b' (backgammon) after resign."),
    ("chouette", "** Usage: chouette create|list|join|leave|start|show|score|kick|close|export|partner|extra|noextra|break|history|delegate"),
    ("chouette fly", "** Usage: chouette create|list|join|leave|start|show|score|kick|close|export|partner|extra|noextra|break|history|delegate"),
    ("chouette join", "** chouette join needs one player's name."),
    ("chouette kick a b", "** chouette kick needs one player's name."),
    ("chouette delegate", "** chouette delegate needs one player's name."),
    ("chouette leave later", "** Usage: chouette leave [now]"),
    ("chouette score one", "** Usage: chouette score|export [number] (the numbers are in 'chouette history')."),
    ("chouette export 1 2", "** Usage: chouette score|export [number] (the numbers are in 'chouette history')."),
    ("chouette partner maybe", "** Usage: chouette partner [yes|no]"),
    ("resign x", "** Type 'n' (normal), 'g' (gammon) or 'b' (backgammon) after resign."),
    ("toggle nonsense", "** Don't know how to toggle nonsense"),
    ("toggle a", "** Don't know how to toggle a"),  # ambiguous: allowpip, autoboard, ...
    ("set colour red", "** Invalid argument. Type 'help set'."),
    ("set boardstyle 4", "** Valid arguments are the numbers 1 to 3."),
    ("set boardstyle x", "** Valid arguments are the numbers 1 to 3."),
    ("set linelength 1000", "** Valid arguments are the numbers 0 to 999. Use 0 for no linelength."),
    ("set pagelength -1", "** Valid arguments are the numbers 0 to 999. Use 0 for no pagelength."),
    ("set redoubles 100", "** Valid arguments are 'none', 'unlimited' and the numbers 1 to 99."),
    ("set redoubles lots", "** Valid arguments are 'none', 'unlimited' and the numbers 1 to 99."),
    ("set sortwho age", "** Unknown value 'age'. Try 'login', 'name', 'rating' or 'rrating'."),
    ("show", "** show what?"),
    ("show fish", "** Don't know how to show fish"),
    ("ratings alice bob", "** Please use only one of the given names 'alice' and 'bob'."),
    ("ratings from 20 to 15", "** invalid range from 20 to 15"),
    ("ratings from 1 to 101", "** range currently limited to 100."),
    ("ratings from 0", "** Please give a positive number after 'from'."),
    ("ratings to", "** Please give a positive number after 'to'."),
    ("last bob", "** Please use the 'whois' command."),
]


@pytest.mark.parametrize(("line", "error"), ERRORS, ids=[line for line, _ in ERRORS])
def test_errors_carry_the_exact_fibs_text(line: str, error: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert caught.value.line == error
    assert caught.value.lines == (error,)


@pytest.mark.parametrize("line", ["password", "password old", "password a:b", "password a:b:c:d"])
def test_password_usage_is_two_lines(line: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert caught.value.lines == (
        "** usage: password <old password>:<new password>:<new password>",
        "** NOTE: The character between the passwords is now a colon!",
    )


def test_huge_match_length_is_a_fibs_error() -> None:
    with pytest.raises(CommandError) as caught:
        parse_command("invite bob " + "9" * 10_000)  # int() would refuse this string
    assert caught.value.line.startswith("** You can't play a 999")


# --- the login prompt -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("login MacFIBS 1008 someplayer secret", c.Login("MacFIBS", "1008", "someplayer", "secret")),
        ("LOGIN kbackgammon-2.4 1008 bob pw", c.Login("kbackgammon-2.4", "1008", "bob", "pw")),
        ("login >NTJohn_Do_Xoe_____! 1008 bob pw", c.Login(">NTJohn_Do_Xoe_____!", "1008", "bob", "pw")),
        ("connect bob chinchilla", c.Connect("bob", "chinchilla")),
        ("guest", c.Guest()),
        ("Guest", c.Guest()),
        ("someplayer", c.TelnetLogin("someplayer")),
    ],
)
def test_login_lines(line: str, value: LoginLine) -> None:
    assert parse_login_line(line) == value


@pytest.mark.parametrize(
    "line",
    [
        "",
        "login a 1008 bob",  # four tokens
        "login a 1008 bob pass word",  # six: passwords cannot contain spaces
        "login " + "x" * 21 + " 1008 bob pw",  # client name over 20 characters
        "login a 1008 b0b pw",
        "connect bob",
        "two words",
        "bob42",
        "a" * 21,
    ],
)
def test_bad_login_lines_are_rejected_without_text(line: str) -> None:
    with pytest.raises(LoginRejected) as caught:
        parse_login_line(line)
    assert caught.value.line == ""
    assert isinstance(caught.value, CommandError)


def test_clip_version() -> None:
    assert c.Login("x", "1009", "bob", "pw").clip_version == 1009
    assert c.Login("x", "beta", "bob", "pw").clip_version == 1008


def test_passwords_stay_out_of_reprs() -> None:
    assert "secret" not in repr(parse_login_line("login MacFIBS 1008 bob secret"))
    assert "secret" not in repr(parse_command("password secret:new1:new1"))


# --- round trip -------------------------------------------------------------------------

names = st.from_regex(r"[A-Za-z_]{1,20}", fullmatch=True)
who_names = names.filter(lambda n: n.lower() not in {"ready", "playing", "away", "count", "from"})
words = st.from_regex(r"[!-~]{1,12}", fullmatch=True)  # one printable ASCII token
texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40
).map(str.strip).filter(bool)
points = st.one_of(st.integers(min_value=1, max_value=24), st.sampled_from([BAR, OFF]))
passwords = st.from_regex(r"[!-9;-~]{0,12}", fullmatch=True)  # no ':' or blanks


def who_values(cls: type[c.Who | c.RawWho]) -> st.SearchStrategy[Command]:
    return st.one_of(
        st.sampled_from([WhoKind.ALL, WhoKind.READY, WhoKind.PLAYING, WhoKind.AWAY, WhoKind.COUNT]).map(
            lambda kind: cls(kind)
        ),
        who_names.map(lambda n: cls(WhoKind.NAME, n)),
        words.map(lambda site: cls(WhoKind.FROM, site)),
    )


set_values = st.one_of(
    st.builds(c.Set),
    st.sampled_from(SET_VARIABLES).map(c.Set),
    st.integers(1, 3).map(lambda v: c.Set("boardstyle", v)),
    st.integers(0, 999).map(lambda v: c.Set("linelength", v)),
    st.integers(0, 999).map(lambda v: c.Set("pagelength", v)),
    st.one_of(st.integers(0, 99), st.just("unlimited")).map(lambda v: c.Set("redoubles", v)),
    st.sampled_from(["login", "name", "rating", "rrating"]).map(lambda v: c.Set("sortwho", v)),
    words.map(lambda v: c.Set("timezone", v)),
)


@st.composite
def ratings_values(draw: st.DrawFn) -> c.Ratings:
    start = draw(st.none() | st.integers(1, 5000))
    if start is None:
        end = draw(st.none() | st.integers(1, 100))
    else:
        end = draw(st.none() | st.integers(start, start + 99))
    return c.Ratings(draw(st.none() | names.filter(lambda n: n.lower() not in ("from", "to"))), start, end)


no_argument_commands = [
    cls for cls in typing.get_args(Command) if not typing.get_type_hints(cls) or cls is c.Blank
]

commands: st.SearchStrategy[Command] = st.one_of(
    st.sampled_from(no_argument_commands).map(lambda cls: cls()),
    st.builds(c.Name, names),
    who_values(c.Who),
    who_values(c.RawWho),
    st.builds(c.Whois, names),
    st.builds(c.Where, st.none() | names),
    st.builds(c.Tell, names, texts),
    st.builds(c.Shout, st.just("") | texts),
    st.builds(c.Say, st.just("") | texts),
    st.builds(c.Kibitz, st.just("") | texts),
    st.builds(c.Whisper, st.just("") | texts),
    st.builds(c.Message, names, texts),
    st.builds(c.Waitfor, st.lists(names, max_size=4).map(tuple)),
    st.builds(c.Gag, st.none() | names),
    st.builds(c.Blind, st.none() | names),
    st.builds(c.Away, st.none() | texts),
    st.builds(c.Invite, names),
    st.builds(c.Export, st.none() | st.integers(0, 999_999_999)),
    st.builds(c.Analyse, st.integers(0, 999_999_999)),
    st.builds(c.Analysis, st.integers(0, 999_999_999), st.sampled_from(c.AnalysisPart)),
    st.builds(c.Puzzle, st.sampled_from(c.PuzzleSource)),
    st.builds(c.Shutdown, st.none() | st.integers(0, c.MAX_SHUTDOWN_SECONDS)),
    st.builds(c.Broadcast, texts.filter(lambda t: t.strip() == t and t != "")),
    st.builds(c.Kick, names, st.just("") | texts.filter(lambda t: t.strip() == t)),
    st.builds(c.Ban, names, st.none() | st.integers(0, 1000), st.just("") | names),
    st.builds(c.Unban, names),
    st.builds(c.Mute, names, st.none() | st.integers(0, 1000)),
    st.builds(c.Unmute, names),
    st.builds(c.Adduser, names, words),
    st.builds(c.Invitecode, st.integers(1, c.MAX_INVITATION_CODES)),
    st.builds(c.Invite, names, st.integers(1, 99), st.just(False),
              st.lists(st.sampled_from(c.INVITE_OPTIONS), unique=True).map(tuple)),
    st.builds(c.Invite, names, st.none(), st.just(True),
              st.lists(st.sampled_from(c.INVITE_OPTIONS), unique=True).map(tuple)),
    st.builds(c.Join, st.none() | names),
    st.builds(c.Watch, names),
    st.builds(c.Look, names),
    st.builds(c.Oldboard, names),
    st.builds(c.Oldmoves, names),
    st.builds(c.Toggle, st.lists(st.sampled_from(TOGGLE_NAMES), max_size=4).map(tuple)),
    set_values,
    st.builds(c.Address, words),
    st.builds(c.Password, passwords, passwords, passwords),
    st.builds(c.Show, st.sampled_from([w for w in ShowWhat if w is not ShowWhat.SAVEDCOUNT])),
    st.builds(c.Show, st.just(ShowWhat.RECORD), names, st.none() | names),
    st.builds(c.Show, st.just(ShowWhat.SAVEDCOUNT), st.none() | names),
    ratings_values(),
    st.builds(c.Time, st.none() | words),
    st.builds(c.Date, st.none() | words),
    st.builds(c.Help, st.none() | words),
    st.builds(c.Move, st.lists(st.tuples(points, points), max_size=4).map(tuple)),
    st.builds(c.Resign, st.sampled_from(ResignKind), st.lists(names, max_size=3).map(tuple)),
    *(st.builds(cls, st.lists(names, max_size=3).map(tuple))
      for cls in (c.Double, c.Accept, c.Reject, c.Beaver, c.Raccoon)),
    st.builds(c.Chouette, st.sampled_from([a for a in c.ChouetteAction if a.value not in
                                           ("create", "join", "kick", "leave", "delegate")])),
    st.builds(c.Chouette, st.just(c.ChouetteAction.CREATE), st.lists(words, max_size=4).map(tuple)),
    st.builds(c.Chouette, st.sampled_from([c.ChouetteAction.JOIN, c.ChouetteAction.KICK,
                                           c.ChouetteAction.DELEGATE]),
              names.map(lambda n: (n,))),
    st.builds(c.Chouette, st.just(c.ChouetteAction.LEAVE), st.sampled_from([(), ("now",)])),
    st.builds(c.Chouette, st.just(c.ChouetteAction.PARTNER), st.sampled_from([(), ("yes",), ("no",)])),
    st.builds(c.Chouette, st.sampled_from([c.ChouetteAction.SCORE, c.ChouetteAction.EXPORT]),
              st.integers(0, 99999).map(lambda n: (str(n),))),
    st.builds(c.Team, texts.filter(lambda t: t.strip() == t and t != "")),
    st.builds(c.Boxside, texts.filter(lambda t: t.strip() == t and t != "")),
    st.builds(c.Tournament, st.sampled_from([a for a in c.TournamentAction if a.value not in ("create", "list")]),
              st.from_regex(r"[A-Za-z0-9_-]{1,24}", fullmatch=True)),
    st.just(c.Tournament(c.TournamentAction.LIST)),
    st.builds(c.Tournament, st.just(c.TournamentAction.CREATE), st.from_regex(r"[A-Za-z0-9_-]{1,24}", fullmatch=True),
              st.sampled_from(c.TOURNAMENT_FORMATS).flatmap(lambda form: st.builds(
                        c.TournamentSpec, st.just(form), st.integers(1, 99),
                        # only a swiss takes `rounds`
                        st.none() | st.integers(1, 99) if form == "swiss" else st.none(),
                        st.none() | st.tuples(st.integers(0, 999).map(float), st.integers(0, 9999).map(float)),
                        st.none() | st.integers(1, 3600), st.none() | st.integers(2, 512), st.booleans(),
                        st.just(False)))),
    st.builds(c.Setbot, names, st.booleans()),
    st.builds(c.Correspondence, st.none() | names),
)

login_lines: st.SearchStrategy[LoginLine] = st.one_of(
    st.builds(c.Login, st.from_regex(r"[!-~]{1,20}", fullmatch=True), words, names, words),
    st.builds(c.Connect, names, words),
    st.just(c.Guest()),
    st.builds(c.TelnetLogin, names.filter(lambda n: n.lower() != "guest")),
)


def test_the_strategy_covers_every_command_type() -> None:
    covered = set(no_argument_commands) | {
        c.Name, c.Who, c.RawWho, c.Whois, c.Where, c.Tell, c.Shout, c.Say, c.Kibitz, c.Whisper,
        c.Message, c.Waitfor, c.Gag, c.Blind, c.Away, c.Invite, c.Join, c.Watch, c.Look,
        c.Oldboard, c.Oldmoves, c.Toggle, c.Set, c.Address, c.Password, c.Show, c.Ratings,
        c.Time, c.Date, c.Help, c.Move, c.Resign, c.Export, c.Shutdown, c.Broadcast, c.Kick,
        c.Ban, c.Unban, c.Mute, c.Unmute, c.Adduser, c.Invitecode,
        c.Double, c.Accept, c.Reject, c.Beaver, c.Raccoon, c.Chouette, c.Team, c.Boxside,
        c.Analyse, c.Analysis, c.Puzzle,
        c.Tournament, c.Setbot, c.Correspondence,
    }
    assert covered == set(typing.get_args(Command))


@settings(max_examples=1500, deadline=None)
@given(commands)
def test_parse_of_format_is_identity(command: Command) -> None:
    line = format_command(command)
    assert "\n" not in line and line == line.strip()
    assert parse_command(line) == command


@settings(max_examples=300, deadline=None)
@given(login_lines)
def test_login_lines_round_trip(value: LoginLine) -> None:
    assert parse_login_line(format_command(value)) == value


@settings(max_examples=1000, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(st.sampled_from(
    ["m", "move", "8-5", "bar", "b", "-", "o", "invite", "set", "ratings", "from", "to", "99",
     "unlimited", "toggle", "show", "re", "password", ":", "tell", "x", "24", "0", "9" * 30]
), max_size=6).map(" ".join)))
def test_arbitrary_lines_give_a_command_or_a_command_error(line: str) -> None:
    try:
        command = parse_command(line)
    except CommandError as error:
        assert error.line.startswith("** ")
    else:
        assert parse_command(format_command(command)) == command


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_login_lines_give_a_value_or_a_rejection(line: str) -> None:
    try:
        parse_login_line(line)
    except LoginRejected:
        pass


def test_every_refusal_is_a_sentence_of_the_wording_table() -> None:
    from protocol.wording import match_text

    for line, error in ERRORS:
        found = match_text(error)
        assert found is not None, line
    assert match_text("** Unknown command: 'xyz'") is not None
    assert match_text("** first move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'.")


@pytest.mark.parametrize("line", [
    "tournament", "tournament frobnicate x", "tournament create", "tournament create x",
    "tournament create x chess 3", "tournament create x knockout 0", "tournament create x knockout 100",
    "tournament create x knockout 3 rounds", "tournament create x knockout 3 max 1",
    "tournament create x swiss 3 consolation", "tournament create x knockout 3 noshow 0",
    "tournament create x knockout 3 bots bots", "tournament create bad/name knockout 3",
    "tournament join", "setbot", "setbot bob", "setbot bob maybe",
])
def test_tournament_and_setbot_refusals_say_the_usage(line: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert caught.value.lines[0].startswith("** ")


@pytest.mark.parametrize(("line", "answer"), [
    ("tournament create x knockout 3 noshow 0",
     "** Tournament option 'noshow' takes a number from 1 to 604800."),
    ("tournament create x knockout 3 max 1", "** Tournament option 'max' takes a number from 2 to 10000."),
    ("tournament create x swiss 3 rounds", "** Tournament option 'rounds' takes a number from 1 to 99."),
    ("tournament create " + "n" * 25 + " knockout 3",
     "** A tournament's name is 1 to 24 letters, digits, - and _."),
    ("tournament create bad/name knockout 3", "** A tournament's name is 1 to 24 letters, digits, - and _."),
    ("tournament create x chess 3", "** A tournament is a knockout, swiss or roundrobin, not 'chess'."),
    ("tournament create x knockout 100", "** A tournament's match length is a number from 1 to 99."),
    ("tournament create x knockout 3 fast",
     "** Unknown tournament option 'fast': the options are rounds, clock, noshow, max, bots, consolation, deadline and days."),
    ("tournament create x knockout 3 bots bots", "** Tournament option 'bots' is given twice."),
    ("tournament create x swiss 3 consolation", "** Only a knockout has a consolation bracket."),
    ("tournament create x knockout 3 rounds 3",
     "** Only a swiss takes 'rounds': a knockout plays as many rounds as it needs."),
    ("tournament create x roundrobin 3 rounds 3",
     "** Only a swiss takes 'rounds': a roundrobin plays as many rounds as it needs."),
])
def test_a_bad_tournament_create_is_told_what_is_wrong(line: str, answer: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert list(caught.value.lines) == [answer]


@pytest.mark.parametrize("line", [
    "invite bob 3 clock 1 1 2", "invite bob 3 clock fast 2", "invite bob 3 clock 1 1 overtime 5 6",
    "invite bob 3 days 1 2",
])
def test_a_number_left_over_after_a_clock_is_refused(line: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert caught.value.lines[0].startswith("** usage: invite <user> <length> clock")


# --- clocks (club-play.md K9) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "clock"),
    [
        ("invite bob 5 clock", c.InviteClock(12, 120, True, None, None, ("clock",))),
        ("invite bob 1 clock 1 1", c.InviteClock(1, 1, True, None, None, ("clock", "1", "1"))),
        ("invite bob 7 CLOCK 12.5 90 overtime 60",
         c.InviteClock(12.5, 90, True, 60, None, ("clock", "12.5", "90", "overtime", "60"))),
        ("invite bob 5 clock fast", c.InviteClock(8, 20, True, None, None, ("clock", "fast"))),
        ("invite bob 5 clock normal", c.InviteClock(10, 60, True, None, None, ("clock", "normal"))),
        ("invite bob 5 clock casual", c.InviteClock(15, 180, True, None, None, ("clock", "casual"))),
        ("invite bob 5 clock bullet", c.InviteClock(2, 30, False, None, None, ("clock", "bullet"))),
        ("invite bob 5 days 2", c.InviteClock(days=2, words=("days", "2"))),
        ("invite bob 5 days 0.0001", c.InviteClock(days=0.0001, words=("days", "0.0001"))),
        ("invite bob 5 holland clock", c.InviteClock(12, 120, True, None, None, ("clock",))),
    ],
)
def test_invite_with_a_clock(line: str, clock: c.InviteClock) -> None:
    command = parse_command(line)
    assert isinstance(command, c.Invite)
    assert command.clock == clock
    assert parse_command(format_command(command)) == command


def test_clock_words_leave_the_other_options_alone() -> None:
    command = parse_command("invite bob unlimited jacoby clock 3 100")
    assert command == c.Invite("bob", unlimited=True, options=("jacoby",),
                               clock=c.InviteClock(3, 100, True, None, None, ("clock", "3", "100")))


@pytest.mark.parametrize(
    "line",
    ["invite bob 5 clock 12", "invite bob 5 clock 12 x", "invite bob 5 days", "invite bob 5 days -1",
     "invite bob 5 days 0", "invite bob 5 clock 1 0", "invite bob 5 days 1 clock",
     "invite bob 5 clock overtime", "invite bob 5 clock 1e9 1", "invite bob 5 days 99999999"],
)
def test_a_malformed_clock_is_refused(line: str) -> None:
    with pytest.raises(CommandError) as refused:
        parse_command(line)
    assert str(refused.value).startswith("** usage: invite <user> <length> clock")


def test_clock_and_correspondence_commands() -> None:
    assert parse_command("clock") == c.ClockCommand()
    assert parse_command("correspondence") == c.Correspondence()
    assert parse_command("correspondence bob") == c.Correspondence("bob")
    assert parse_command("cl") == c.Clear()  # FIBS's verbs win prefix matching
