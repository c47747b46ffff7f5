"""The one table of FIBS wording: every literal sentence the server sends.

Each member of `Text` is a `str.format` template with named fields. `render` fills it in;
the reverse direction (a regex per template, used to parse server lines back into typed
events) is derived from the same templates, so a sentence is written exactly once.

Sources and exact spelling: tests/data/fibs-protocol.md (sections 2-7 and 10). Clients
match these byte for byte: do not "fix" FIBS's typos, spacing or punctuation.
"""

from __future__ import annotations

import datetime
import enum
import functools
import itertools
import re
import string
from collections.abc import Mapping, Sequence
from typing import Final

import attrs


@enum.unique
class Text(enum.Enum):
    """Every FIBS sentence, keyed by what it says."""

    # --- messages, game flow, board-related texts (owned by protocol.messages) ---
    # Conventions (see FIELD_KINDS): {name}/{opponent}/{winner}/{watcher} are user names,
    # {points}/{users} are count phrases ("1 point", "2 points"), {moves} a move list
    # ("8-5 6-5"), {text} free text. A sentence needed by both sections is one member.

    # Banner (§2.1); see banner_lines. No line may start with a digit (FCM's login table).
    BANNER_WELCOME = "WELCOME TO THE"
    BANNER_LOGO_1 = "            _______   _          ______            _____"
    BANNER_LOGO_2 = "           |  _____| | |        |  __  \\          / ____|"
    BANNER_LOGO_3 = "           | |___    | |        | |__|  |        | |____"
    BANNER_LOGO_4 = "           |  ___|   | |        |  __  <          \\____ \\"
    BANNER_LOGO_5 = "           | |       | |        | |__|  |          ____| |"
    BANNER_LOGO_6 = "           |_|irst   |_|nternet |______/ackgammon |_____/erver"
    BANNER_MEET_PEOPLE = "       This server is on the net to meet people from all countries."
    BANNER_NO_RACISTS = "     All sorts of racists and fascists are not allowed to login here!"
    BANNER_BE_NICE = "        Rude language will not be tolerated on this server. Be nice."
    BANNER_LOGIN_AS_GUEST = "              LOGIN AS guest IF YOU ARE NEW TO THIS SERVER!"
    BANNER_ONE_ACCOUNT = "                     One account per person only!"

    # Prompts: sent without a line terminator (§1).
    LOGIN_PROMPT = "login: "
    PASSWORD_PROMPT = "password: "
    COMMAND_PROMPT = "> "
    GIVE_PASSWORD_PROMPT = "Please give your password: "
    RETYPE_PASSWORD_PROMPT = "Please retype your password: "
    PASSWORDS_NOT_IDENTICAL_PROMPT = (
        "** The two passwords were not identical. Please give them again. Password: "
    )

    # Telnet login (§2.3), parallel logins, timeouts (§2.7).
    USER_AUTHENTICATED = "** User {name} authenticated."
    LAST_LOGIN = "** Last login: {date}  from {host}"
    ALREADY_LOGGED_IN_WARNING = "** Warning: You are already logged in."
    CLOSED_OLD_CONNECTION = "Closed old connection with user {name}."
    CONNECTION_TIMED_OUT = "Connection timed out."

    # Guest registration (§2.5); see guest_lines.
    GUEST_WELCOME = "Welcome to FIBS. You just logged in as guest."
    GUEST_PLEASE_REGISTER = "Please register before using this server:"
    GUEST_HOWTO_1 = "Type 'name username' where name is the word 'name' and"
    GUEST_HOWTO_2 = "username is the login name you want to use."
    GUEST_HOWTO_3 = "The username may not contain blanks ' ' or colons ':'."
    GUEST_HOWTO_4 = "The system will then ask you for your password twice."
    GUEST_HOWTO_5 = "Please make sure that you don't forget your password. All"
    GUEST_HOWTO_6 = "passwords are encrypted before they are saved. If you forget"
    GUEST_HOWTO_7 = "your password there is no way to find out what it was."
    GUEST_HOWTO_8 = "Please type 'bye' if you don't want to register now."
    GUEST_ONE_USERNAME = "ONE USERNAME PER PERSON ONLY!!!"
    NAME_ALREADY_USED = "** Please use another name. '{name}' is already used by someone else."
    YOUR_NAME_WILL_BE = "Your name will be {name}"
    EMPTY_PASSWORD_HINT = "Type in no password and hit Enter/Return if you want to change it now."
    NO_PASSWORD_GIVEN = "** No password given. Please choose a new name"
    PASSWORD_TOO_SHORT = "Minimal password length is 4 characters."
    PASSWORD_HAS_COLON = "Your password may not contain ':'"
    REGISTERED = "You are registered."
    HELP_BEGINNER_HINT = "Type 'help beginner' to get started."

    # Logging out (§2.4); see goodbye_lines. Exactly 29 spaces before "Goodbye." (KBackgammon).
    GOODBYE = "                             Goodbye."
    GOODBYE_REPORT_BUGS = "                If you find bugs please report them to:"
    WAVE_GOODBYE = "You wave goodbye."
    WAVE_GOODBYE_AGAIN = "You wave goodbye again and log out."
    WAVES_GOODBYE = "{name} waves goodbye."
    WAVES_GOODBYE_AGAIN = "{name} waves goodbye again."
    YOUR_GAME_SAVED = "Your game with {name} was saved."

    # Notices: the message part of CLIP 7/8, and what telnet users see (§3.5, §3.8).
    LOGS_IN = "{name} logs in."
    LOGS_OUT = "{name} logs out."
    DROPS_CONNECTION = "{name} drops connection."
    RESTART_NOTICE = "*** ATTENTION ! FIBS will restart in {seconds} seconds"
    SHUTDOWN_NOTICE = "*** ATTENTION ! FIBS will shut down in {seconds} seconds"

    # Telnet forms of the CLIP chat lines 9-19 (§3.8).
    MESSAGE_FROM = "Message from {name}: {text}"
    MESSAGE_DELIVERED = "Message delivered to {name}."
    MESSAGE_SAVED = "Message saved for {name}."
    SAYS = "{name} says: {text}"
    SHOUTS = "{name} shouts: {text}"
    WHISPERS = "{name} whispers: {text}"
    KIBITZES = "{name} kibitzes: {text}"
    YOU_TELL = "** You tell {name}: {text}"
    YOU_SHOUT = "** You shout: {text}"
    YOU_WHISPER = "** You whisper: {text}"
    YOU_KIBITZ = "** You kibitz: {text}"

    # Chat commands (§5.1).
    SILENT_SHOUT = "** Please type 'toggle silent' again before you shout."
    SHOUTING_DISABLED = "** shouting has been disabled for you"
    USERS_HEARD_YOU = "** {users} heard you."
    NOBODY_HEARD_YOU = "** But nobody heard you."
    NOT_WATCHING_OR_PLAYING = "** You're not watching or playing."
    NO_ONE_CALLED = "** There is no one called {name}"
    WONT_LISTEN = "** {name} won't listen to you."
    CANT_TALK_IF_WONT_LISTEN = "** You can't talk if you won't listen."
    SAY_TO_YOURSELF = "You say to yourself: {text}"
    SAY_OUTSIDE_GAME = "** 'say' can't be used outside a game"
    DONT_KNOW_USER = "** Don't know user {name}."
    NO_NEW_MESSAGES = "There are no new messages for you."
    MESSAGES_FOR_YOU = "There are messages for you:"

    # waitfor, gag, blind (§5.1).
    WAITFOR_ADDED = "** You'll receive a message when '{name}' logs in."
    NO_USER_CALLED = "** There is no user called '{name}'."
    WAITFOR_ALREADY_LOGGED_IN = "** '{name}' is already logged in."
    WAITFOR_SELF = "** Look behind you. Maybe you are waiting there."
    WAITFOR_NOBODY = "You are not waiting for any players."
    WAITFOR_ONE = "You are waiting for {name}"
    WAITFOR_MANY = "You are waiting for the following {count} players:"
    WAITFOR_LIST_ENTRY = "  {name}"
    WAITFOR_FINALLY = "** FINALLY!!! {name} logs in.\a\a\a"
    WAITING_FOR_YOU = "** {name} is waiting for you to log in."
    GAGGED_NONE = "** Gagged users: none"
    GAGGED_LIST = "** Gagged users: {names}"
    YOU_GAG = "** You gag {name}."
    YOU_UNGAG = "** You ungag {name}."
    NO_ONE_CALLED_QUOTED = "** There is no one called '{name}'"
    GAG_SELF = "** You talk too much, don't you?"
    BLINDED_NONE = "** Blinded users: none"
    BLINDED_LIST = "** Blinded users: {names}"
    YOU_BLIND = "** You blind {name}."
    YOU_UNBLIND = "** You unblind {name}."
    BLIND_SELF = "** You can't read this message now, can you?"
    BANS_YOU_FROM_WATCHING = "{name} bans you from watching."
    BANS_FROM_WATCHING = "{name} bans {watcher} from watching."

    # away / back (§5.2).
    AWAY = "You're away. Please type 'back'"
    NOBODY_AWAY = "None of the users is away."
    AWAY_LIST_HEADER = "The following users are away:"
    AWAY_LIST_ENTRY = "{name}: {text}"
    IS_AWAY = "{name} is away: {text}"
    WELCOME_BACK = "Welcome back."
    NOT_AWAY = "** You're not away."

    # Invitations (§5.2, §6.1).
    INVITE_SELF = "** You can't invite yourself."
    REFUSING_GAMES = "** {name} is refusing games."
    ALREADY_PLAYING_WITH_SOMEONE = "** {name} is already playing with someone else."
    YOU_ARE_ALREADY_PLAYING = "** You are already playing."
    NOT_EXPERIENCED_ENOUGH = "** You're not experienced enough to play a match of that length."
    NO_SAVED_MATCH_GIVE_LENGTH = "** There's no saved match with {name}. Please give a match length."
    WAIT_FOR_LAST_INVITATION = "** Please wait for your last invitation to be accepted."
    NO_NEW_GAMES_ALLOWED = "** You are not allowed to create new games."
    YOU_INVITED_MATCH = "** You invited {name} to a {length} point match."
    YOU_INVITED_UNLIMITED = "** You invited {name} to an unlimited match."
    YOU_INVITED_RESUME = "** You invited {name} to resume a saved match."
    WANTS_TO_PLAY_MATCH = "{name} wants to play a {length} point match with you."
    WANTS_TO_PLAY_UNLIMITED = "{name} wants to play an unlimited match with you."
    WANTS_TO_RESUME = "{name} wants to resume a saved match with you."
    TYPE_JOIN_TO_ACCEPT = "Type 'join {name}' to accept."
    SAVED_MATCH_WARNING = "WARNING: Don't accept if you want to continue the saved {length} point match!"
    SAVED_UNLIMITED_WARNING = (
        "WARNING: Don't accept if you want to continue the saved unlimited match!"
    )

    # join (§5.2, §6.2, §6.3).
    JOIN_WHO = "** Error: Join who?"
    JOIN_ALREADY_PLAYING = "** Error: {name} is already playing with someone else."
    DIDNT_INVITE_YOU = "** {name} didn't invite you."
    CANT_FIND_PLAYER = "** Error: can't find player {name}"
    TWO_GAMES_AT_ONCE = "** You can't play two games at once"
    SAVED_MATCH_CORRUPT = "** ERROR: Saved match is corrupt. Please start another one."
    NOW_PLAYING_MATCH = "** You are now playing a {length} point match with {name}"
    NOW_PLAYING_UNLIMITED = "** You are now playing an unlimited match with {name}"
    JOINED_YOU_MATCH = "** Player {name} has joined you for a {length} point match."
    JOINED_YOU_UNLIMITED = "Player {name} has joined you for an unlimited match."
    START_MATCH = "{name} and {opponent} start a {length} point match."
    START_UNLIMITED = "{name} and {opponent} start an unlimited match."
    CANT_WATCH_MATCH_BETWEEN = "** You can't watch the match between {name} and {opponent}."
    RESUMED_MATCH_LOADED = "You are now playing with {name}. Your running match was loaded."
    JOINED_MATCH_LOADED = "{name} has joined you. Your running match was loaded."
    RESUMING_MATCH = "{name} and {opponent} are resuming their {length}-point match."
    RESUMING_UNLIMITED = "{name} and {opponent} are resuming their unlimited match."
    # The resume synopsis (§6.3, §13: "points for NAME", not "points for user NAME").
    SYNOPSIS_TURN = "turn: {name}."
    SYNOPSIS_MATCH_LENGTH = "match length: {length}"
    SYNOPSIS_UNLIMITED = "unlimited matchlength"
    SYNOPSIS_POINTS = "points for {name}: {score}"
    YOUR_TURN_ROLL_OR_DOUBLE = "It's your turn. Please roll or double"

    # watch / unwatch / look / oldboard / oldmoves (§5.2, §7).
    YOU_STOP_WATCHING_OLD = "** You stop watching {name}."
    NO_ONE_CALLED_APOSTROPHE = "** There's no one called {name}."
    DOESNT_WANT_YOU_TO_WATCH = "** {name} doesn't want you to watch."
    USE_A_MIRROR = "** Use a mirror to do that."
    CANT_WATCH_WHILE_PLAYING = "** You can't watch another game while you're playing."
    NOW_WATCHING = "You're now watching {name}."
    NOT_DOING_ANYTHING = "{name} is not doing anything interesting."
    IS_WATCHING_YOU = "{name} is watching you."
    STARTS_WATCHING = "{watcher} starts watching {name}."
    STOPS_WATCHING_YOU = "{name} stops watching you."
    STOPS_WATCHING = "{watcher} stops watching {name}."
    YOU_STOP_WATCHING = "You stop watching {name}."
    NOT_WATCHING = "** You're not watching."
    WATCHED_LOGS_OUT = "{name} logs out.. You're not watching anymore."
    WATCHED_DROPS_CONNECTION = "{name} drops connection.. You're not watching anymore."
    WATCHED_TIMED_OUT = "Connection with {name} timed out.. You're not watching anymore."
    IS_NOT_PLAYING = "** {name} is not playing."
    DOESNT_WANT_YOU_TO_LOOK = "** {name} doesn't want you to look."
    YOU_LOOK_GREAT = "You look great."
    NO_SAVED_MATCH_WITH_PLAYER = "** There's no saved match with a player called '{name}'."
    NOT_WHILE_PLAYING = "** You can't do this while playing."
    NO_SAVED_GAME_WITH = "** There is no saved game with {name}."
    # oldmoves lines (§5.2), also the moves list after a game (§6.8).
    OLDMOVES_SCORE = "Score is {score}-{opponent_score} in a {length} point match."
    OLDMOVES_SCORE_UNLIMITED = "Score is {score}-{opponent_score} in an unlimited match."
    OLDMOVES_COLOURS = "{x_name} is X - {o_name} is O"
    OLDMOVES_PLAY = "{colour}: ({die1} {die2}) {moves}"
    OLDMOVES_CANT_MOVE = "{colour}: ({die1} {die2}) can't move"
    OLDMOVES_DOUBLES = "{colour}: doubles"
    OLDMOVES_ACCEPTS = "{colour}: accepts"
    OLDMOVES_REJECTS = "{colour}: rejects"
    OLDMOVES_WANTS_TO_RESIGN = "{colour}: wants to resign"
    OLDMOVES_WINS = "{colour}: wins"

    # Interruptions: the match is saved (§6.11).
    YOU_TERMINATED_GAME = "** You terminated the game. The game was saved."
    PLAYER_LEFT_GAME = "** Player {name} has left the game. The game was saved."
    NO_ONE_TO_LEAVE = "** Error: No one to leave."
    LOGS_OUT_GAME_SAVED = "{name} logs out. The game was saved."
    DROPS_CONNECTION_GAME_SAVED = "{name} drops connection. The game was saved."
    TIMED_OUT_GAME_SAVED = "Connection with {name} timed out. The game was saved."
    NETWORK_ERROR_GAME_SAVED = "Network error with {name}. The game was saved."
    CLOSED_OLD_CONNECTION_GAME_SAVED = "Closed old connection with user {name}. The game was saved."
    PANIC_SAVED = "Your game was saved in the panic file."

    # Start of a game and the opening roll (§6.4).
    STARTING_NEW_GAME = "Starting a new game with {name}."
    YOU_ROLLED_OPENING = "You rolled {die}, {opponent} rolled {opponent_die}"
    ROLLED_OPENING = "{name} rolled {die}, {opponent} rolled {opponent_die}"
    CUBE_IS_NOW = "The number on the doubling cube is now {cube}"
    YOUR_TURN_TO_MOVE = "It's your turn to move."
    MAKES_FIRST_MOVE = "{name} makes the first move."

    # A turn (§6.5).
    YOU_ROLL = "You roll {die1} and {die2}."
    ROLLS = "{name} rolls {die1} and {die2}."
    PLEASE_MOVE = "Please move {n} pieces."
    YOU_CANT_MOVE = "You can't move."
    CANT_MOVE = "{name} can't move."
    ONLY_POSSIBLE_MOVE = "The only possible move is {moves} ."
    BEARING_OFF = "Bearing off: {bearoff}"
    MOVES = "{name} moves {moves} ."
    DONE = "Done."

    # Doubling and instant redoubles (§6.6).
    YOU_DOUBLE = "You double. Please wait for {name} to accept or reject."
    YOU_DOUBLE_REDOUBLE_ALLOWED = "You double. Please wait for {name} to accept, reject or redouble."
    DOUBLES_ACCEPT_OR_REJECT = "{name} doubles. Type 'accept' or 'reject'."
    DOUBLES_ACCEPT_REJECT_OR_REDOUBLE = "{name} doubles. Type 'accept', 'reject' or 'redouble'."
    DOUBLES = "{name} doubles."
    YOU_ACCEPT_DOUBLE = "You accept the double. The cube shows {cube}."
    ACCEPTS_DOUBLE_CUBE = "{name} accepts the double. The cube shows {cube}."
    ACCEPTS_DOUBLE = "{name} accepts the double."
    YOU_GIVE_UP = "You give up. {name} wins {points}."
    GIVES_UP_YOU_WIN = "{name} gives up. You win {points}."
    GIVES_UP = "{name} gives up. {winner} wins {points}."
    REDOUBLES_TO = "{name} redoubles to {cube}. Type 'accept', 'reject' or 'redouble'."
    REDOUBLES_TO_LAST = "{name} redoubles to {cube}. Type 'accept' or 'reject'."
    YOU_ACCEPT_AND_REDOUBLE = "You accept the double to {cube} and redouble."
    WAIT_ACCEPT_REJECT_OR_REDOUBLE = "Please wait for {name} to accept, reject or redouble."
    WAIT_ACCEPT_OR_REJECT = "Please wait for {name} to accept or reject."
    YOU_ACCEPT_REDOUBLE = "You accept the redouble. The cube shows {cube}."
    ACCEPTS_REDOUBLE_CUBE = "{name} accepts the redouble. The cube shows {cube}."
    REDOUBLES = "{name} redoubles."
    ACCEPTS_REDOUBLE = "{name} accepts the redouble."

    # Resignation (§6.7).
    YOU_WANT_TO_RESIGN = "You want to resign. {name} will win {points}."
    WANTS_TO_RESIGN_YOU_WIN = "{name} wants to resign. You will win {points}. Type 'accept' or 'reject'."
    WANTS_TO_RESIGN = "{name} wants to resign. {winner} will win {points}."
    YOU_ACCEPT_AND_WIN = "You accept and win {points}."
    ACCEPTS_AND_WINS = "{name} accepts and wins {points}."
    YOU_REJECT = "You reject. The game continues."
    REJECTS = "{name} rejects. The game continues."

    # End of a game and of a match (§6.8, §6.9).
    YOU_WIN_GAME = "You win the game and get {points}. Congratulations!"
    WINS_GAME_SORRY = "{name} wins the game and gets {points}. Sorry."
    WINS_GAME = "{name} wins the game and gets {points}."
    SCORE_IN_MATCH = "score in {length} point match: {name}-{score} {opponent}-{opponent_score}"
    SCORE_IN_UNLIMITED = "score in unlimited match: {name}-{score} {opponent}-{opponent_score}"
    TYPE_JOIN_NEXT_GAME = "Type 'join' if you want to play the next game, type 'leave' if you don't."
    WAIT_FOR_JOIN = "** Please wait for {name} to join too."
    YOU_WIN_MATCH = "You win the {length} point match {score}-{opponent_score} ."
    WINS_MATCH = "{name} wins the {length} point match {score}-{opponent_score} ."
    REPORT_WINS_MATCH = (
        "{name} wins a {length} point match against {opponent}  {score}-{opponent_score} ."
    )
    # The rating calculation block (§6.9); see rating_calculation_lines.
    RATING_CALCULATION = "rating calculation:"
    RATING_DIFFERENCE = "rating difference D={difference:.6f}"
    RATING_MATCH_LENGTH = "match length      N={length}"
    RATING_EXPERIENCE = "Experience: {name} {experience} - {opponent} {opponent_experience}"
    RATING_UNDERDOG_PROBABILITY = (
        "Probability that underdog wins: Pu=1/(10^(D*sqrt(N)/2000)+1)={probability:.6f}"
    )
    RATING_P = "P={probability:.6f} is 1-Pu if underdog wins and Pu if favorite wins"
    RATING_K = "K=max(1 , -Experience/100+5) for {name}: {k:.6f}"
    RATING_CHANGE_WINNER = "change for {name}: 4*K*sqrt(N)*P={change:.6f}"
    RATING_CHANGE_LOSER = "change for {name}: -4*K*sqrt(N)*P={change:.6f}"

    # Game command errors (§5.5).
    ALREADY_ROLLED = "** You did already roll the dice."
    NOT_YOUR_TURN_TO_ROLL = "** It's not your turn to roll the dice."
    NOT_PLAYING = "** You're not playing."
    NOT_YOUR_TURN_TO_MOVE = "** It's not your turn to move."
    ROLL_BEFORE_MOVING = "** You have to roll the dice before moving."
    MUST_GIVE_MOVES = "** You must give {n} moves."
    TOO_MANY_MOVES = "** Please don't give more than {n} moves."
    CANT_MOVE_FROM = "** You can't move from {point} in your {ordinal} move."
    CANT_MOVE_DISTANCE = "** You can't move {n} points in your {ordinal} move."
    CANT_MOVE_TO = "** You can't move to {point} in your {ordinal} move."
    MUST_ENTER_FROM_BAR = "** You have to remove pieces from the bar in your {ordinal} move."
    CANT_REMOVE_PIECE = "** You can't remove this piece in your {ordinal} move."
    CANT_MOVE_HOME = "** You can't move home in your {ordinal} move."
    CANT_MOVE_POINT_HOME = "** You can't move {point}-home in your {ordinal} move."
    BEAR_OFF = "Bear off: {bearoff}"
    CANT_BEAR_OFF_ALL = "** You can't bear off with every number you have rolled."
    NOT_YOUR_TURN = "** It's not your turn."
    PIPCOUNTS = "Pipcounts: You {pips}   {opponent} {opponent_pips}"
    PIPCOUNTS_WATCHING = "Pipcounts: {name} {pips}   {opponent} {opponent_pips}"
    PIP_NOT_ALLOWED = "** {name} doesn't allow this. Ask {name} to 'toggle allowpip'"
    PIP_TOGGLE_FIRST = "** Type 'toggle allowpip' first."
    PLAYERS_DONT_ALLOW_PIP = "** The players don't allow pipcounts."
    NOT_PLAYING_OR_WATCHING = "** You're not playing or watching."
    DOUBLE_BEFORE_ROLLING = "** You can only double before you roll the dice."
    WAIT_UNTIL_MOVED = "** Please wait until {name} has moved."
    NOT_YOUR_TURN_TO_DOUBLE = "** It's not your turn to double"
    CRAWFORD_NO_DOUBLE = "** The Crawford rule doesn't allow you to double in this game."
    DOUBLE_NOT_ANSWERED = "** {name} hasn't responded to your double yet."
    DIDNT_DOUBLE_OR_RESIGN = "** {name} didn't double or resign."
    NOT_PLAYING_CANT_GIVE_UP = "** You're not playing, so you can't give up."
    ALREADY_DID_THAT = "** You already did that."
    RESIGN_NOT_ANSWERED = "** {name} hasn't accepted or rejected your resign yet."
    WANTED_TO_RESIGN = "** {name} wanted to resign. Type 'accept' or 'reject'."
    REDOUBLES_ONLY_UNLIMITED = "** Instant redoubles are only available for unlimited matches."
    REDOUBLE_NOT_ALLOWED = "** You are not allowed to redouble."
    REDOUBLE_WRONG_WORD = "** This redouble is not a {word}. Please type '{expected}' or 'redouble'."

    # Pieces of the ASCII boards of boardstyle 1 and 2 (§4.6): parts of lines, not lines
    # (see LINE_FRAGMENTS); protocol.ascii_board assembles them.
    BOARD_BORDER_LABEL = "{colour}: {name} - score: {score}"
    BOARD_BAR_COLUMN = "BAR"
    BOARD_MATCH_LENGTH = "{length}-point match"
    BOARD_UNLIMITED_MATCH = "unlimited match"
    BOARD_NO_REDOUBLES = "No redoubles"
    BOARD_REDOUBLES = "{n} redoubles"
    BOARD_COUNTS = "BAR: O-{o_bar} X-{x_bar}   OFF: O-{o_off} X-{x_off}   Cube: {cube}"
    BOARD_CUBE_OWNER = " (owned by {name})"
    BOARD_ROLLED = "{name} rolled {die1} {die2}."
    BOARD_TURN = "turn: {name}"
    BOARD_CLOCK = "  clock: {text}"


    # --- commands, their errors and listings (owned by protocol.commands/listings) ---
    # Parse errors (protocol.commands): what FIBS answers a malformed line. The session
    # also sends some of them (MATCH_TOO_LONG, NAME_*), hence the neutral names.
    UNKNOWN_COMMAND = "** Unknown command: '{word}'"
    NAME_INVALID_CHARACTERS = (
        "** Your name may only contain letters and the underscore character _ ."
    )
    NAME_TOO_LONG = "** Please use a name with at most 20 characters."
    TELL_WHOM = "** Tell whom?"
    TELL_WHAT = "** Tell {name} what?"
    MESSAGE_USAGE = "** usage: message <user> <text>"
    INVITE_WHO = "** invite who?"
    INVITE_BAD_LENGTH = (
        "** The second argument to 'invite' has to be a number or the word 'unlimited'"
    )
    MATCH_TOO_LONG = "** You can't play a {length} point match."
    INVITE_CLOCK_USAGE = (
        "** usage: invite <user> <length> clock [<delay> <reserve per point> | fast | normal"
        " | casual | bullet] [overtime <seconds>], or invite <user> <length> days <days per move>"
    )
    WATCH_WHO = "** Watch who?"
    LOOK_AT_WHO = "** Look at who?"
    OLDBOARD_USAGE = "** usage: oldboard <name>"
    OLDMOVES_USAGE = "** usage: oldmoves <name>"
    MOVE_LEGAL_WORDS = "** {ordinal} move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."
    RESIGN_USAGE = "** Type 'n' (normal), 'g' (gammon) or 'b' (backgammon) after resign."
    WHOIS_WHO = "** please give a name as an argument."
    ADDRESS_MISSING = "** You didn't give your address."
    PASSWORD_USAGE = "** usage: password <old password>:<new password>:<new password>"
    PASSWORD_USAGE_NOTE = "** NOTE: The character between the passwords is now a colon!"
    TOGGLE_UNKNOWN = "** Don't know how to toggle {word}"
    SET_UNKNOWN = "** Invalid argument. Type 'help set'."
    SET_BOARDSTYLE_RANGE = "** Valid arguments are the numbers 1 to 3."
    SET_LENGTH_RANGE = "** Valid arguments are the numbers 0 to 999. Use 0 for no {variable}."
    SET_REDOUBLES_RANGE = "** Valid arguments are 'none', 'unlimited' and the numbers 1 to 99."
    SET_SORTWHO_UNKNOWN = "** Unknown value '{word}'. Try 'login', 'name', 'rating' or 'rrating'."
    SHOW_WHAT = "** show what?"
    SHOW_UNKNOWN = "** Don't know how to show {word}"
    RATINGS_ONE_NAME = "** Please use only one of the given names '{name}' and '{opponent}'."
    RATINGS_BAD_RANGE = "** invalid range from {start} to {end}"
    RATINGS_RANGE_LIMIT = "** range currently limited to 100."
    RATINGS_POSITIVE_NUMBER = "** Please give a positive number after '{word}'."
    LAST_USE_WHOIS = "** Please use the 'whois' command."

    # toggle (§5.3): the listing and one answer per toggle and state (protocol.listings).
    TOGGLE_HEADER = "The current settings are:"
    TOGGLE_ROW_YES = "{toggle:<16}YES"
    TOGGLE_ROW_NO = "{toggle:<16}NO"
    TOGGLE_ALLOWPIP_ON = "** You allow the use the server's 'pip' command."  # sic
    TOGGLE_ALLOWPIP_OFF = "** You don't allow the use of the server's 'pip' command."
    TOGGLE_AUTOBOARD_ON = "** The board will be refreshed after every move."
    TOGGLE_AUTOBOARD_OFF = "** The board won't be refreshed after every move."
    TOGGLE_AUTODOUBLE_ON = "** You agree that doublets during opening double the cube."
    TOGGLE_AUTODOUBLE_OFF = "** You don't agree that doublets during opening double the cube."
    TOGGLE_AUTOMOVE_ON = "** Forced moves will be done automatically."
    TOGGLE_AUTOMOVE_OFF = "** Forced moves won't be done automatically."
    TOGGLE_BELL_ON = "** Your terminal will ring the bell if someone talks to you or invites you"
    TOGGLE_BELL_OFF = (
        "** Your terminal won't ring the bell if someone talks to you or invites you"
    )
    TOGGLE_CRAWFORD_ON = "** You insist on playing with the Crawford rule."
    TOGGLE_CRAWFORD_OFF = "** You would like to play without using the Crawford rule."
    TOGGLE_DOUBLE_ON = "** You will be asked if you want to double."
    TOGGLE_DOUBLE_OFF = "** You won't be asked if you want to double."
    TOGGLE_GREEDY_ON = "** Will use automatic greedy bearoffs."
    TOGGLE_GREEDY_OFF = "** Won't use automatic greedy bearoffs."
    TOGGLE_MOREBOARDS_ON = "** Will send rawboards after rolling."
    TOGGLE_MOREBOARDS_OFF = "** Won't send rawboards after rolling."
    TOGGLE_MOVES_ON = "** You want a list of moves after this game."
    TOGGLE_MOVES_OFF = "** You won't see a list of moves after this game."
    TOGGLE_NOTIFY_ON = "** You'll be notified when new users log in."
    TOGGLE_NOTIFY_OFF = "** You won't be notified when new users log in."
    TOGGLE_RATINGS_ON = "** You'll see how the rating changes are calculated."
    TOGGLE_RATINGS_OFF = "** You won't see how the rating changes are calculated."
    TOGGLE_READY_ON = "** You're now ready to invite or join someone."
    TOGGLE_READY_OFF = "** You're now refusing to play with someone."
    TOGGLE_REPORT_ON = "** You will be informed about starting and ending matches."
    TOGGLE_REPORT_OFF = "** You won't be informed about starting and ending matches."
    TOGGLE_SILENT_ON = "** You won't hear what other players shout."  # sic: inverted wording
    TOGGLE_SILENT_OFF = "** You will hear what other players shout."
    TOGGLE_TELNET_ON = "** You use telnet and don't need extra 'newlines'."
    TOGGLE_TELNET_OFF = "** You use a client program and will receive extra 'newlines'."
    TOGGLE_WRAP_ON = "** The server will wrap long lines."
    TOGGLE_WRAP_OFF = "** Your terminal knows how to wrap long lines."

    # set (§5.3). One row template per variable: the colon columns are FIBS's own.
    SET_HEADER = "Settings of variables:"
    SET_ROW_BOARDSTYLE = "boardstyle: {value}"
    SET_ROW_LINELENGTH = "linelength: {value}"
    SET_ROW_PAGELENGTH = "pagelength: {value}"
    SET_ROW_REDOUBLES = "redoubles:  {value}"
    SET_ROW_SORTWHO = "sortwho:    {value}"
    SET_ROW_TIMEZONE = "timezone:   {value}"
    SET_VALUE_IS = "Value of '{variable}' is {value}"
    SET_VALUE_SET_TO = "Value of '{variable}' set to {value}."
    TIMEZONE_UNKNOWN = "Can't find timezone '{zone}'. Try one of:"

    # whois (§5.4); KBackgammon reads until the email line, so that one is always last.
    WHOIS_HEADER = "Information about {name}:"
    WHOIS_LAST_LOGIN = "  Last login:  {date} from {host}"
    WHOIS_IDLE_SECONDS = "  Still logged in. {seconds} seconds idle."
    WHOIS_IDLE_MINUTES = "  Still logged in. {minutes} minutes idle."
    WHOIS_LAST_LOGOUT = "  Last logout: {date}"
    WHOIS_NOT_LOGGED_IN = "  Not logged in right now."
    WHOIS_PLAYING = "  {name} is playing with {opponent}."
    WHOIS_READY_WATCHING = "  {name} is ready to play, watching {player}, not playing."
    WHOIS_READY_NOT_WATCHING = "  {name} is ready to play, not watching, not playing."
    WHOIS_NOT_READY_WATCHING = "  {name} is not ready to play, watching {player}, not playing."
    WHOIS_NOT_READY_NOT_WATCHING = "  {name} is not ready to play, not watching, not playing."
    WHOIS_AWAY = "  {name} is away: {text}"
    WHOIS_RATING = "  Rating: {rating:.2f} Experience: {experience}"
    WHOIS_NO_EMAIL = "  No email address."
    WHOIS_EMAIL = "  Email address: {email}"
    WHOIS_UNKNOWN = "No information found on user {name}."

    # who / rawwho for telnet users (§5.4); the header is FCM's spelling.
    WHO_HEADER = "No  S  username        rating  exp login    idle  from"
    WHO_ROW = (
        "{count:>2d} {status} {name:<15} {rating:>7.2f} {experience:>5d}"
        " {login:>5} {idle:>6}  {host}"
    )
    WHO_COUNT = "There are {count} users logged on."
    WHO_COUNT_ONE = "There is 1 user logged on."
    RAWWHO_ROW = (
        "who: {count} {status} {name} {rating:.2f} {experience} {seconds} {login} {host}"
        " {client} {email}"
    )
    RAWWHO_END = "who:end"

    # show (§5.4).
    SAVED_HEADER = "  opponent          matchlength   score (your points first)"
    SAVED_ROW = "  {name:<19} {length:>5d}{score:>17d} - {opponent_score:>2d}"
    SAVED_ROW_PLAYING = " *{name:<19} {length:>5d}{score:>17d} - {opponent_score:>2d}"
    SAVED_ROW_READY = "**{name:<19} {length:>5d}{score:>17d} - {opponent_score:>2d}"
    SAVED_ROW_UNLIMITED = "  {name:<18} unlimited{score:>14d} - {opponent_score:>2d}"
    SAVED_ROW_UNLIMITED_PLAYING = " *{name:<18} unlimited{score:>14d} - {opponent_score:>2d}"
    SAVED_ROW_UNLIMITED_READY = "**{name:<18} unlimited{score:>14d} - {opponent_score:>2d}"
    NO_SAVED_GAMES = "no saved games."
    SAVEDCOUNT_NONE = "{name} has no saved games."
    SAVEDCOUNT_ONE = "{name} has 1 saved game."
    SAVEDCOUNT_MANY = "{name} has {count} saved games."
    GAMES_HEADER = "List of games:"
    GAMES_ROW = "{name:<15} - {opponent:>15} ({length} point match {score}-{opponent_score})"
    GAMES_ROW_UNLIMITED = "{name:<15} - {opponent:>15} (unlimited match {score}-{opponent_score})"
    WATCHERS_HEADER = "Watching players:"
    WATCHERS_NONE = "Watching players: none."
    WATCHERS_ROW = "{watcher} is watching {name}."
    SHOW_MAX = "max_logins is {count} (maximum: {n})"

    # ratings (§5.4); your own row is marked with a leading `*` (FCM's FIBS_Ratings).
    RATINGS_HEADER = " rank name            rating    Experience"
    RATINGS_ROW = "{n:>5d} {name:<15} {rating:>7.2f} {experience:>8d}"
    RATINGS_ROW_OWN = "*{n:>4d} {name:<15} {rating:>7.2f} {experience:>8d}"

    # help: `help` lists the verbs; `help VERB` is a NAME block (KBackgammon starts a help
    # view on a line `NAME`). One sentence per verb: synopsis, then what it does.
    HELP_HEADING = "NAME"
    HELP_LIST_HEADER = "Type 'help <command>' for help on a command. The commands are:"
    HELP_NO_TOPIC = "** There is no help on '{word}'."
    HELP_BEGINNER = (
        "beginner - type 'who' to see who is online, 'toggle ready' to accept games,"
        " 'invite NAME 5' to ask someone for a 5 point match, 'join NAME' to accept an"
        " invitation, then 'roll' and 'move 8-5 6-5'. 'help' lists all commands."
    )
    HELP_ABOUT = "about - show information about this server."
    HELP_ACCEPT = "accept - accept the double or the resignation your opponent offered."
    HELP_ADDRESS = "address <email> - set the email address others see in 'whois'."
    HELP_AVERAGE = "average - show the server's load averages."
    HELP_AWAY = "away [<message>] - mark yourself away with a message; without one, list who is away."
    HELP_BACK = "back - you are back: clears 'away'."
    HELP_BEAVER = "beaver - redouble at once after being doubled (unlimited matches only)."
    HELP_BLIND = "blind [<user>] - forbid <user> to watch your games (again to undo); alone: list."
    HELP_BOARD = "board (b) - show the board of the game you play or watch."
    HELP_BYE = "bye (adios, ciao, end, exit, logout, quit, tschoe) - log out; a match is saved."
    HELP_CLEAR = "clear (cls) - clear the screen."
    HELP_DATE = "date [<zone>] - show the date and time."
    HELP_DICETEST = "dicetest - show statistics of the dice rolled on this server."
    HELP_DOUBLE = "double - offer the doubling cube to your opponent before rolling."
    HELP_ERASE = "erase - administrators only."
    HELP_GAG = "gag [<user>] - ignore what <user> tells, shouts, kibitzes (again to undo); alone: list."
    HELP_HELP = "help (man) [<command>] - list the commands, or explain one."
    HELP_INVITE = (
        "invite (i) <user> [<length>|unlimited] [holland|jacoby|nocrawford|beavers]"
        " [clock [<delay> <reserve>|fast|normal|casual|bullet] | days <n>]"
        " - invite <user> to a match, or to resume one."
    )
    HELP_JOIN = "join [<user>] - accept <user>'s invitation; alone: continue with the next game."
    HELP_KIBITZ = "kibitz (k) <message> - talk to the players and watchers of your game."
    HELP_LAST = "last - show the last logins and logouts."
    HELP_LEAVE = "leave - leave the match; it is saved and can be resumed."
    HELP_LOOK = "look <user> - show the board of <user>'s game once."
    HELP_MESSAGE = "message <user> <text> - leave <text> for <user>; delivered at once or at the next login."
    HELP_MOTD = "motd - show the message of the day."
    HELP_MOVE = "move (m) <from>-<to> ... - move checkers: points 1-24, 'bar', 'off'; e.g. 'm 8-5 6-5'."
    HELP_NAME = "name <username> - choose your user name (guests only)."
    HELP_OFF = "off (o) - bear off with every die."
    HELP_OLDBOARD = "oldboard <user> - show the board of your saved match with <user>."
    HELP_OLDMOVES = "oldmoves <user> - list the moves of the last game of your match with <user>."
    HELP_OTTER = "otter - the third instant redouble in a row (unlimited matches only)."
    HELP_PANIC = "panic - save your game in the panic file."
    HELP_PASSWORD = "password <old>:<new>:<new> - change your password."
    HELP_PIP = "pip - show the pip counts of the game."
    HELP_PORT = "port - show the port this server listens on."
    HELP_RACCOON = "raccoon - the second instant redouble in a row (unlimited matches only)."
    HELP_RATINGS = "ratings [<user>] [from <n>] [to <m>] - list the ratings."
    HELP_RAWWHO = "rawwho [ready|playing|away|<user>|from <site>] - 'who' in a format for programs."
    HELP_REDOUBLE = "redouble - redouble at once after being doubled (unlimited matches only)."
    HELP_REJECT = "reject - refuse the double or the resignation your opponent offered."
    HELP_REPEAT = "!! - repeat your last command (not tell, shout, say, kibitz or whisper)."
    HELP_RESIGN = "resign (res) n|g|b - offer to resign a normal game, a gammon or a backgammon."
    HELP_ROLL = "roll (r) - roll the dice."
    HELP_SAVE = "save - save your settings."
    HELP_SAY = "say (s) <message> - talk to your opponent."
    HELP_SET = "set [<variable> [<value>]] - show or change boardstyle, linelength, pagelength, redoubles, sortwho, timezone."
    HELP_SHOUT = "shout <message> - talk to everybody who is not silent."
    HELP_SHOW = "show games|saved|savedcount <user>|watchers|max|dice|pr [<user>]|record <user> [<opponent>]|puzzles [<user>] - show information about games; 'record': matches won and lost by length, unfinished ones, and the PR of the last analysed ones; 'puzzles': the puzzle rating."
    HELP_SHUTDOWN = "shutdown - administrators only."
    HELP_STAT = "stat - show server statistics."
    HELP_TELL = "tell (t) <user> <message> - talk to <user>."
    HELP_TIME = "time - show the date and time."
    HELP_TOGGLE = "toggle (to) [<name> ...] - switch a setting on or off; alone: list them. 'toggle extensions': fibsd's own notices (on for telnet, off for clients)."
    HELP_UNWATCH = "unwatch - stop watching."
    HELP_VERSION = "version - show the server version."
    HELP_WAITFOR = "waitfor [<user> ...] - be told when <user> logs in; alone: list."
    HELP_WATCH = "watch <user> - watch <user>'s games."
    HELP_WAVE = "wave - wave goodbye; wave again to log out."
    HELP_WHERE = "where [<user>] - show where <user> is connected from."
    HELP_WHISPER = "whisper (wh) <message> - talk to the watchers of your game only."
    HELP_WHO = "who (w) [ready|playing|away|count|<user>|from <site>] - list the users online."
    HELP_WHOIS = "whois <user> - show information about <user>."
    HELP_BROADCAST = "broadcast <message> - (administrators) tell every user, silent ones too."
    HELP_KICK = "kick <user> [<reason>] - (administrators) disconnect a user."
    HELP_BAN = "ban <user or address> [<minutes>] [<reason>] - (administrators) keep out a user or an address."
    HELP_UNBAN = "unban <user or address> - (administrators) lift a ban."
    HELP_MUTE = "mute <user> [<minutes>] - (administrators) stop a user from talking to others."
    HELP_UNMUTE = "unmute <user> - (administrators) let a muted user talk again."
    HELP_ADDUSER = "adduser <user> <password> - (administrators) create an account."
    HELP_INVITECODE = "invitecode [<count>] - (administrators) make invitation codes for new accounts."
    HELP_CLAIM = "claim - when your opponent dropped and did not come back in time: win the match."
    HELP_EXPORT = "export [<number>] - list your finished matches; with a number: that match as a .mat file."
    HELP_CLOCK = "clock - the reserves and the delay of the match you play or watch."
    HELP_CORRESPONDENCE = (
        "correspondence [<user>] - list your correspondence matches; with a name: sit down at that one."
    )

    # away listing: the asker's own entry (§5.2, [HELP away]).
    AWAY_LIST_SELF = "You: {text}"

    # --- the server's own answers: settings, information, limits (owned by fibsd) ---
    CANT_CHANGE_NAME = "** You're not supposed to change your name."
    SETTINGS_SAVED = "Settings saved."
    PASSWORD_CHANGED = "Password changed."
    OLD_PASSWORD_WRONG = "** Sorry. Old password not correct."
    NEW_PASSWORD_TWICE = "** Please give your new password twice."
    PASSWORD_NOT_PRINTABLE = "** Your password may only contain printable characters without blanks."
    EMAIL_SET = "Your email address is '{email}'."
    NOT_AN_EMAIL = "** '{email}' is not an email address."
    NO_ONE_CALLED_PERIOD = "** There is no one called {name}."
    WHERE_FROM = "{name} from {address}"
    WHERE_HOST = "({host})"
    PERMISSION_DENIED = "** Permission denied"
    SERVER_PORT = "The server is running on port {port}."
    VERSION = "** Version {version} (fibsd)"
    BANNER_CLUB = "                  {club} - a FIBS-compatible backgammon server"
    ABOUT = "This is {club}, running fibsd {version}, a FIBS-compatible backgammon server."
    LAST_HEADER = "The 20 last logins/logouts:"
    LAST_LOGIN_ENTRY = "{date}: {name} logs in."
    LAST_LOGOUT_ENTRY = "{date}: {name} logs out."
    CLEAR_SCREEN = "\x1b[;H\x1b[2J"
    LINE_TOO_LONG = "** Line too long. Closing the connection."
    # Beavers and raccoons in unlimited matches follow the standard money-play rules (the
    # beaverer keeps the cube; nothing to accept): fibsd's own sentences.
    EXPORT_USAGE = "** usage: export [<match number>]"
    EXPORT_HEADER = "Your finished matches (type 'export <number>' for the .mat file):"
    EXPORT_NONE = "** You have no finished matches."
    EXPORT_UNKNOWN = "** You played no match number {number}."
    # Engine analysis (fibsd's own; docs/analysis.md describes the formats for parsers).
    HELP_ANALYSE = "analyse <number> - queue one of your finished matches for analysis by GNU Backgammon (also: analyze)."
    HELP_ANALYSIS = "analysis <number> [moves|sgf] - the analysis of a match: each player's PR, errors and luck; each error; or gnubg's .sgf file."
    ANALYSE_USAGE = "** usage: analyse <match number>"
    ANALYSIS_USAGE = "** usage: analysis <match number> [moves|sgf]"
    ANALYSIS_UNAVAILABLE = "** Analysis is unavailable on this server: {text}."
    ANALYSIS_QUEUED = "Match {number} is queued for analysis ({place} in the queue); you will be told when it is ready."
    ANALYSIS_ALREADY_QUEUED = "Match {number} is already queued for analysis ({place} in the queue); you will be told when it is ready."
    ANALYSIS_ALREADY_DONE = "** Match {number} is already analysed: type 'analysis {number}'."
    ANALYSIS_QUEUE_FULL = "** The analysis queue is full ({count} matches waiting). Please try again later."
    ANALYSIS_NOT_YET = "** Match {number} is not analysed yet. Type 'analyse {number}' to queue it."
    ANALYSIS_PENDING = "** Match {number} is still waiting for analysis ({place} in the queue)."
    ANALYSIS_READY = "** The analysis of match {number} is ready: type 'analysis {number}'."
    ANALYSIS_FAILED = "** The analysis of match {number} failed: {text}."
    ANALYSIS_HEADER = "Analysis of match {number} ({text}) by GNU Backgammon, {checker}-ply checker play, {cube}-ply cube:"
    ANALYSIS_PLAYER = "Player {name}: PR {pr} ({band}); {decisions:d} decisions; checker {errors:d} errors, {blunders:d} blunders; cube {cube_errors:d} errors, {cube_blunders:d} blunders; luck {luck}"
    ANALYSIS_MOVES_HEADER = "Errors in match {number}: Game number, player, gnubg position ID, dice, kind: played | best: best play | equity lost"
    ANALYSIS_MOVE = "Game {game:d} {name} {position} {dice} {kind}: {played} | best: {best} | -{lost:.3f}"
    ANALYSIS_NO_ERRORS = "No errors or blunders in match {number}."
    ANALYSIS_SGF_END = "; end of gnubg's .sgf of match {number}"
    SHOW_PR = "Average PR of {name}: {pr} ({band}), analysed matches: {count:d}"
    SHOW_PR_NONE = "** {name} has no analysed matches."
    # Puzzles from the members' analysed errors (fibsd's own; docs/puzzles.md).
    HELP_PUZZLE = "puzzle [mine|any] - a position from an analysed match to solve: your own errors first (mine: only those; any: anyone's). Answer with 'move ...', 'double' or 'roll', 'take' or 'pass'."
    PUZZLE_USAGE = "** usage: puzzle [mine|any]"
    PUZZLE_NONE = "** There is no puzzle for you now: they come from analysed matches ('analyse <number>')."
    PUZZLE_NONE_MINE = "** There is no puzzle from your own errors now. Type 'puzzle any' for anyone's."
    PUZZLE_WHILE_PLAYING = "** You can't solve a puzzle while you play: finish or leave your match first."
    PUZZLE_HEADER = "Puzzle {number}: {name}'s {kind} in match {record}, game {game}; {length}, score {score}, cube {cube} ({owner})."
    PUZZLE_ASK_MOVE = "You are O and on roll with {die1}-{die2}: type 'move' and your play (O moves from 24 to 1)."
    PUZZLE_ASK_DOUBLE = "You are O and on roll: type 'double' to double, or 'roll' not to."
    PUZZLE_ASK_TAKE = "Your opponent doubles: type 'take' or 'pass'."
    PUZZLE_GRADE = "Puzzle {number}: you answered {answer}: equity {equity}, {verdict}. Best: {best} ({best_equity}). In the match {name} chose {played} (lost {played_lost:.3f})."
    PUZZLE_VERDICT_BEST = "the best answer"
    PUZZLE_VERDICT_LOST = "you lost {lost:.3f}"
    PUZZLE_UNLISTED = "GNU Backgammon did not list your play among its candidates: it is graded as the worst one listed."
    SHOW_PUZZLES = "Puzzle rating of {name}: {rating} (RD {deviation}), puzzles answered: {count:d}, best answers: {best:d}, mean equity lost: {lost:.3f}"
    SHOW_PUZZLES_NONE = "** {name} has answered no puzzles."
    # `show record NAME [OPPONENT]` (docs/matches.md): asked for, so every client gets it.
    RECORD_HEADER = "Record of {name}: {played:d} matches played, {won:d} won, {lost:d} lost."
    RECORD_HEADER_AGAINST = "Record of {name} against {opponent}: {played:d} matches played, {won:d} won, {lost:d} lost."
    RECORD_LENGTH = "  {length:d}-point matches, {kind}: {played:d} played, {won:d} won, {lost:d} lost."
    RECORD_UNLIMITED = "  unlimited matches, {kind}: {played:d} played."
    RECORD_UNFINISHED = "Unfinished: {saved:d} saved, {abandoned:d} abandoned, {time:d} lost on time, {claimed:d} dropped and claimed."
    RECORD_UNFINISHED_DROPS = "Unfinished: {saved:d} saved, {abandoned:d} abandoned, {time:d} lost on time, {claimed:d} dropped and claimed; {drops:d} drops in all."
    RECORD_PR = "PR of the last {span:d} analysed matches: {pr} over {count:d}."
    RECORD_PR_NONE = "PR of the last {span:d} analysed matches: none analysed."
    RECORD_LEFT_OUT = "Left out of the PR: {count:d} analysed matches (abandoned, resigned at once, or under {moves:d} checker plays)."
    # Limits and the operators' commands (fibsd's own sentences, FIBS-style).
    SLOW_DOWN = "** Please slow down: you are sending commands too fast."
    FLOODING = "** Too many commands. Closing the connection."
    SHOUT_TOO_SOON = "** Please wait {seconds} seconds before shouting again."
    MUTED = "** You are muted: you cannot talk to other users now."
    TOO_MANY_CONNECTIONS = "** Too many connections from your address."
    ADDRESS_NOT_ALLOWED = "** Connections from your address are not allowed here."
    LOGIN_BLOCKED = "** Too many failed logins. Please try again in {minutes} minutes."
    BANNED = "** You are banned from this server."
    REGISTRATION_CLOSED = "** Registration is closed on this server. Please ask the operator for an account."
    REGISTRATION_LIMIT = "** Too many new accounts from your address. Please try again later."
    INVITATION_CODE_PROMPT = "Please give your invitation code: "
    INVITATION_CODE_INVALID = "** That invitation code is not valid."
    BROADCAST = "*** Message from the administrator {name}: {text}"
    KICKED = "** You have been disconnected by an administrator."
    KICK_DONE = "** {name} has been disconnected."
    BAN_DONE = "** {target} is banned for {minutes} minutes."
    BAN_DONE_FOREVER = "** {target} is banned until further notice."
    UNBAN_DONE = "** {target} is no longer banned."
    NOT_SANCTIONED = "** {target} was not banned or muted."
    MUTE_DONE = "** {name} is muted for {minutes} minutes."
    MUTE_DONE_FOREVER = "** {name} is muted until further notice."
    UNMUTE_DONE = "** {name} may talk again."
    ADDUSER_DONE = "** Account {name} created."
    INVITECODE_HEADER = "Invitation codes (each one registers one account):"
    SHUTDOWN_USAGE = "** usage: shutdown [<seconds>]"
    BROADCAST_USAGE = "** usage: broadcast <message>"
    KICK_USAGE = "** usage: kick <user> [<reason>]"
    BAN_USAGE = "** usage: ban <user or address> [<minutes>] [<reason>]"
    UNBAN_USAGE = "** usage: unban <user or address>"
    MUTE_USAGE = "** usage: mute <user> [<minutes>]"
    UNMUTE_USAGE = "** usage: unmute <user>"
    ADDUSER_USAGE = "** usage: adduser <user> <password>"
    INVITECODE_USAGE = "** usage: invitecode [<count, 1 to 20>]"
    # Verifiable dice (docs/dice.md).
    DICE_COMMITMENT = "** The dice of this match are committed: fibsd-dice-v1 {commitment}"
    DICE_REVEALED = "** The dice seed of this match was {seed}"
    NO_DICE_COMMITMENT = "** You're not playing or watching a match with verifiable dice."
    # The per-session switch for the lines FIBS never sent (EXTENSION_LINES below).
    TOGGLE_EXTENSIONS_ON = "** You will be told fibsd's own notices (dice commitments, droppers)."
    TOGGLE_EXTENSIONS_OFF = "** You will get only the lines FIBS sends."
    # Dropper protection and reattaching (fibsd's own sentences).
    WHOIS_DROPS = "  Dropped matches: {count}"
    DROPPER_GRACE = "** {name} has {seconds} seconds to come back. Then you may 'claim' the match, or 'leave' to keep it saved."
    OPPONENT_DISCONNECTED = "** {name} is not connected. Please wait for {name} to come back, or type 'leave'."
    CLAIM_TOO_EARLY = "** You may claim the match in {seconds} seconds."
    NOTHING_TO_CLAIM = "** There is nothing to claim."
    YOU_CLAIM = "** {name} did not come back: you claim the match."
    CLAIMED_FROM_YOU = "** {name} claimed your match after you did not come back."
    # Match clocks and correspondence (docs/clocks.md, club-play.md K).
    MATCH_CLOCK = "Clock: {text}."
    CLOCK_TERMS_DELAY = "delay {text} s, reserve {duration}"
    CLOCK_TERMS_PER_GAME = "delay {text} s, reserve {duration} per game"
    CLOCK_TERMS_OVERTIME = ", one overtime of {duration}"
    CLOCK_TERMS_DAYS = "{text} days per move (correspondence)"
    CLOCK_ROW = "  {name}: {duration} left{text}"
    CLOCK_ROW_TO_ACT = ", to act"
    CLOCK_ROW_DELAY_FIRST = " ({seconds} s of delay first)"
    CLOCK_ROW_OVERTIME = ", overtime used"
    CLOCK_STATE = "clock: {name} {reserve:d} {opponent} {opponent_reserve:d} {delay:d} {delay_left:d} {mover} {kind}"
    NO_MATCH_CLOCK = "** No clock: you're not playing or watching a match with one."
    CLOCK_REQUIRED = "** Rated matches here need a clock: add 'clock' (or 'days N') to your invitation."
    CLOCK_DELAY_TOO_LONG = "** The longest delay allowed here is {seconds} seconds."
    CLOCK_RESERVE_TOO_LONG = "** The longest reserve allowed here is {duration}."
    CLOCK_DAYS_TOO_LONG = "** The longest time per move allowed here is {text} days."
    YOU_LOSE_ON_TIME = "** You ran out of time and lose the match."
    LOSES_ON_TIME = "** {name} ran out of time and loses the match."
    YOU_IN_OVERTIME = "** Your reserve is used up: you have {duration} of overtime."
    IN_OVERTIME = "** {name}'s reserve is used up: {duration} of overtime."
    CORRESPONDENCE_HEADER = "Your correspondence matches (opponent, score, to move, time left):"
    CORRESPONDENCE_ROW = "  {name} {score}-{opponent_score} of {match_length} {mover} {duration}"
    CORRESPONDENCE_NONE = "** You have no correspondence matches."
    CORRESPONDENCE_YOUR_MOVE = "** Your move against {name} (correspondence): {duration} left. Type 'correspondence {opponent}' to play."
    NO_CORRESPONDENCE_WITH = "** You have no correspondence match with {name}."
    CORRESPONDENCE_USE_IT = "** You have a correspondence match with {name}: play it with 'correspondence {opponent}'."
    CORRESPONDENCE_LEFT = "** {name} left the correspondence match. It goes on: the clock runs for whoever is to move."
    CORRESPONDENCE_YOU_LEFT = "** You left the correspondence match with {name}. It goes on: type 'correspondence {opponent}' to come back."
    CORRESPONDENCE_SAT_DOWN = "** {name} sits down at your correspondence match."
    # A chouette's clock (club-play.md K6, docs/clocks.md): the box's time against the team's.
    CHOUETTE_CLOCK_USAGE = (
        "** usage: chouette create [multi|single] [key=value ...] clock [<delay> <reserve per game>"
        " | fast | normal | casual | bullet] [overtime <seconds>]"
    )
    CHOUETTE_CLOCK_BOX = "the box ({name})"
    CHOUETTE_CLOCK_TEAM = "the team ({name})"
    CHOUETTE_CLOCK_TERMS = "Chouette clock: {text}."
    CHOUETTE_HEADER_CLOCK = "Chouette clock: box {box_time}, team {team_time}."
    CHOUETTE_IN_OVERTIME = "Chouette: {side} used up the reserve: {duration} of overtime."
    CHOUETTE_LOST_ON_TIME = "Chouette: {side} ran out of time and loses the game: each cube settles as a single game."
    # A match that ended with a player away, as the text of a FIBS message to him
    # (`Message from NAME: ...`, CLIP 9): the result, then how it ended.
    RESULT_MESSAGE = "{winner} won the {length} point match against {loser} {score}-{opponent_score}"
    RESULT_MESSAGE_CORRESPONDENCE = "{winner} won the {length} point correspondence match against {loser} {score}-{opponent_score}"
    RESULT_MESSAGE_UNLIMITED = "{winner} won the unlimited match against {loser}"
    ENDED_BORNE_OFF = ": the last game was played out."
    ENDED_DOUBLE_PASSED = ": {name} refused a double."
    ENDED_RESIGNED = ": {name} resigned."
    ENDED_ON_TIME = ": {name} ran out of time."
    ENDED_CLAIMED = ": {name} dropped and did not come back."
    YOU_BEAVER = "You beaver. The cube shows {cube}."
    BEAVERS_CUBE = "{name} beavers. The cube shows {cube}."
    BEAVERS = "{name} beavers."
    YOU_RACCOON = "You raccoon. The cube shows {cube}."
    # Withdrawing an invitation and an invitation's rules (fibsd's own, for the web client).
    HELP_UNINVITE = "uninvite - withdraw the invitation you made."
    YOU_UNINVITE = "** You withdrew your invitation to {name}."
    NOTHING_TO_UNINVITE = "** You have not invited anyone."
    UNINVITES_YOU = "** {name} withdrew the invitation."
    INVITATION_RULES = "** The invitation's rules: {text}."
    RACCOONS_CUBE = "{name} raccoons. The cube shows {cube}."
    RACCOONS = "{name} raccoons."

    # --- fibsd's chouette (docs/chouette.md). Its lines reach only the users at a chouette
    # (joining is the opt-in); status lines start `Chouette:` without `** ` on purpose,
    # so a FIBS client shows them as text instead of as errors.
    HELP_CHOUETTE = "chouette create|list|join|leave|start|show|score|kick|close|export - a table of 3 to 10: one box against a team with a cube each. Unrated. 'help chouette' tells more."
    HELP_TEAM = "team <text> - in a chouette: talk to the team members still in the game (as the table's consultation rule allows)."
    HELP_BOXSIDE = "boxside <text> - in a chouette: the box and his partner talk."
    HELP_CHOUETTE_1 = "A chouette is backgammon for 3 to 10: the box plays against a team whose captain rolls and moves; every member has his own cube against the box (or one cube for all with 'single'). Chouettes are unrated: money play in points, never counted in ratings or experience."
    HELP_CHOUETTE_2 = "Starting: one player types 'chouette create', the others 'chouette join <his name>'. With 3 or more seated anyone types 'chouette start': one die each decides the order; the highest is the box, the next the captain, the rest the crew. Each game starts by itself when the last one ends."
    HELP_CHOUETTE_3 = "After a game: if the box beat the captain, the box stays and the captain goes to the end of the queue; if the captain beat the box, he is the next box and the box goes to the end. 'chouette show' tells the queue, every cube and who must act; 'chouette score' the points."
    HELP_CHOUETTE_4 = "Cubes: before the captain rolls, each team member may 'double' his own cube; the box answers 'accept' or 'reject' (all at once, or 'accept <name>' for some). The box may 'double' everyone or 'double <name> ...'; each doubled member answers 'accept', 'reject' or 'beaver' within the answer time (60 seconds unless the table says otherwise); answers are shown together, and silence follows the captain's answer."
    HELP_CHOUETTE_5 = "A member who drops pays the cube's value and is out of this game; when the captain drops, the next member still in becomes captain. 'resign n|g|b' resigns your own cube (the box: to all, or 'resign n <name>'). The game ends when the board is won or no team cube is left."
    HELP_CHOUETTE_6 = "Talk: 'team <text>' reaches the team members still in the game, as the table's consult rule allows (default: once your cube is turned, never on a cube decision); 'boxside <text>' the box and his partner. Kibitz reaches only the watchers during a game."
    HELP_CHOUETTE_7 = "Away: if you drop, the table waits 300 seconds (the box: box_absent_seconds) for you to log in again; after that your cube follows the captain and you sit out until you are back. 'chouette delegate <name>|off' lets a team member answer for your cube while you step away; 'chouette break' sits out (again: play again)."
    HELP_CHOUETTE_8 = "chouette list | join <name> | leave [now] | start | show | score [number] | export [number] | history - tables, seats, the state of the game, the ledger and the record of every game (yours, or of any table you sat at), your tables. chouette kick <name> | close - the owner's (close during a game: when it ends)."
    HELP_CHOUETTE_9 = "chouette partner [yes|no] - with 8 or more the box may ask for a partner, the one offered answers. chouette extra | noextra - droppers may give a lone taker an extra cube (extras=on)."
    HELP_CHOUETTE_10 = "chouette create [multi|single] [key=value ...] - settings (defaults first): cubes=multi|single consult=cube|free|none jacoby=on|off beavers=1|0|2 autodoubles=0..6 fiveplus=on|off lone_taker=drop|beaver|free extras=off|on box_limits=none|captain|half|same_value partner=optional|off|mandatory partner_from=8 partner_pick=offer|next rotation=captain|acting join=end|behind_loser seats_max=10 answer_seconds=60 box_absent_seconds=300."
    CHOUETTE_USAGE = "** Usage: chouette create|list|join|leave|start|show|score|kick|close|export|partner|extra|noextra|break|history|delegate"
    CHOUETTE_NUMBER_USAGE = "** Usage: chouette score|export [number] (the numbers are in 'chouette history')."
    CHOUETTE_NOT_YOURS = "** You did not sit at a chouette {n}."
    CHOUETTE_NO_HISTORY = "** You have not sat at a chouette yet."
    CHOUETTE_HISTORY_HEADER = "Your chouettes ('chouette score NUMBER' and 'chouette export NUMBER' show one):"
    CHOUETTE_HISTORY_ENTRY = "  {n}: owner {name}, {count} games, you {text}"
    CHOUETTE_NEEDS_NAME = "** chouette {text} needs one player's name."
    CHOUETTE_LEAVE_USAGE = "** Usage: chouette leave [now]"
    CHOUETTE_PARTNER_USAGE = "** Usage: chouette partner [yes|no]"
    CHOUETTE_BAD_SETTING = "** Chouette setting {text}"
    CHOUETTE_NOT_AT_ONE = "** You are not at a chouette."
    CHOUETTE_ALREADY_AT_ONE = "** You are already at a chouette. Type 'chouette leave' first."
    CHOUETTE_NOT_WHILE_PLAYING = "** You can't join a chouette while you play a match."
    CHOUETTE_NOT_WHILE_IN_CHOUETTE = "** You are at a chouette: play there, or type 'chouette leave'."
    CHOUETTE_NOBODY_THERE = "** {name} is not at a chouette."
    CHOUETTE_NONE = "** There are no chouettes. Type 'chouette create' to open one."
    CHOUETTE_OWNER_ONLY = "** Only the chouette's owner ({name}) may do that."
    CHOUETTE_NO_RECORD = "** No chouette game has been played at that table yet."
    CHOUETTE_TALK_REFUSED = "** The table's consultation rule does not let you talk to the team now."
    CHOUETTE_BOXSIDE_REFUSED = "** Only the box and his partner talk on the box side."
    CHOUETTE_PRIVATE_REFUSED = "** Not during the game: your chouette's consultation rule allows only 'team' talk."
    CHOUETTE_NOT_SEATED = "** That player is not at this chouette."
    CHOUETTE_ALREADY_SEATED = "** You are already at this chouette."
    CHOUETTE_TABLE_FULL = "** The chouette is full."
    CHOUETTE_TOO_FEW = "** A chouette needs at least 3 players to start (2 to go on)."
    CHOUETTE_WRONG_PHASE = "** Not now: the chouette is not at that stage."
    CHOUETTE_NOT_BOX_OR_CAPTAIN = "** Only the box and the captain roll and move."
    CHOUETTE_NOT_BOX = "** Only the box may do that."
    CHOUETTE_NOT_LIVE = "** You have no cube in this game any more."
    CHOUETTE_CANNOT_DOUBLE = "** You can't double now."
    CHOUETTE_NOT_DOUBLED = "** Nobody doubled you there, or you doubled nobody of those."
    CHOUETTE_ALREADY_ANSWERED = "** You have answered already."
    CHOUETTE_ANSWERS_PENDING = "** Wait: doubles are still unanswered."
    CHOUETTE_RESIGNATION_PENDING = "** Wait: a resignation is still unanswered."
    CHOUETTE_NO_RESIGNATION = "** Nobody offered you a resignation."
    CHOUETTE_PARTNER_PENDING = "** Wait: the box's partner is being chosen."
    CHOUETTE_EXTRAS_OPEN = "** Wait: the droppers may still give extra cubes."
    CHOUETTE_NO_EXTRAS = "** No extra cube is on offer to you."
    CHOUETTE_NO_BEAVERS = "** This chouette does not allow that (beavers/raccoons)."
    CHOUETTE_BOX_LIMIT = "** The table's box limit does not allow those answers."
    CHOUETTE_SINGLE_CUBE = "** Single cube: one double and one answer for the whole team."
    CHOUETTE_NO_PARTNER = "** No partner is possible now."
    CHOUETTE_NO_REPLACEMENT = "** Nobody else on the team can take over."
    CHOUETTE_BAD_DELEGATE = "** Delegate to another team member who still has a cube in this game and is here."
    CHOUETTE_GAME_IN_PROGRESS = "** Not during a game: wait until it ends."
    CHOUETTE_CLOSED = "** The chouette is closed."
    CHOUETTE_CREATED = "Chouette: {name} opens chouette {n} ({text}). Others type 'chouette join {name}'."
    CHOUETTE_JOINS = "Chouette: {name} joins ({count} seated)."
    CHOUETTE_LEAVES = "Chouette: {name} leaves."
    CHOUETTE_LEAVES_AFTER_GAME = "Chouette: {name} leaves when this game ends."
    CHOUETTE_KICKED = "Chouette: {name} is asked to leave by the owner."
    CHOUETTE_NEW_OWNER = "Chouette: {name} owns the table now."
    CHOUETTE_SITS_OUT = "Chouette: {name} sits out."
    CHOUETTE_SITS_IN = "Chouette: {name} plays again."
    CHOUETTE_ORDER_ROLL = "Chouette: for the order: {text}."
    CHOUETTE_ORDER_TIED = "Chouette: {names} tied and roll again."
    CHOUETTE_ORDER = "Chouette: the order is {names}."
    CHOUETTE_GAME_STARTS = "Chouette: game {n}. Box: {name}. Captain: {player}. Crew: {names}."
    CHOUETTE_GAME_STARTS_PARTNER = "Chouette: game {n}. Box: {name}, partner {opponent}. Captain: {player}. Crew: {names}."
    CHOUETTE_CUBES_TURNED = "Chouette: an opening tie turns the centred cubes to {cube}."
    CHOUETTE_DOUBLES = "Chouette: {name} doubles {names}."
    CHOUETTE_ANSWERED_SEALED = "Chouette: {name} has answered (answers are shown together)."
    CHOUETTE_TAKES = "Chouette: {name} takes {opponent}'s double: the cube is {cube}."
    CHOUETTE_DROPS = "Chouette: {name} drops {opponent}'s double and pays {n}."
    CHOUETTE_BEAVERS = "Chouette: {name} beavers {opponent}'s double: the cube is {cube}."
    CHOUETTE_ANSWER_FORCED = "Chouette: the five-or-more rule changes {name}'s answer."
    CHOUETTE_ANSWER_FOLLOWS = "Chouette: {name} follows the captain's answer."
    CHOUETTE_ANSWER_FOLLOWS_DELEGATE = "Chouette: {name} follows {opponent}'s answer."
    CHOUETTE_RACCOONS = "Chouette: {name} raccoons: the cube is {cube}."
    CHOUETTE_CAPTAIN_NOW = "Chouette: {name} is captain now."
    CHOUETTE_PARTNER_POSSIBLE = "Chouette: {name} may take a partner: 'chouette partner', or 'roll' to play alone."
    CHOUETTE_PARTNER_OFFERED = "Chouette: {name} is offered to be the box's partner: 'chouette partner yes' or 'no'."
    CHOUETTE_PARTNER_DECLINED = "Chouette: {name} declines to be the box's partner."
    CHOUETTE_PARTNER_CHOSEN = "Chouette: {name} is the box's partner; {player} is captain."
    CHOUETTE_TEAM_OUT = "Chouette: nobody on the team is in the game any more."
    CHOUETTE_EXTRAS = "Chouette: {names} may each give {name} an extra cube at {cube} for {n} (decided by the server after the answer time)."
    CHOUETTE_EXTRA_GIVEN = "Chouette: {name} gives {opponent} an extra cube at {cube} and pays {n}."
    CHOUETTE_RESIGNS = "Chouette: {name} offers {opponent} a {text}: {n} to pay. Type 'accept' or 'reject'."
    CHOUETTE_RESIGN_ACCEPTED = "Chouette: {name} accepts the resignation."
    CHOUETTE_RESIGN_REJECTED = "Chouette: {name} rejects the resignation."
    CHOUETTE_PAYS = "Chouette: {name} pays {opponent} {n}."
    CHOUETTE_AWAY = "Chouette: {name} dropped; {seconds} seconds to come back."
    CHOUETTE_BACK = "Chouette: {name} is back."
    CHOUETTE_FOLLOWS_CAPTAIN = "Chouette: {name} is away and follows the captain."
    CHOUETTE_DELEGATES = "Chouette: {name} steps away; {opponent} answers for his cube."
    CHOUETTE_IN_CONTROL = "Chouette: {name} decides for himself again."
    CHOUETTE_GAME_OVER = "Chouette: game {n} over. {text}. Next: {names}."
    CHOUETTE_WAITING = "Chouette: waiting for players (type 'chouette start' with 3 or more)."
    CHOUETTE_CLOSED_TOTALS = "Chouette: the chouette is closed. {text}."
    CHOUETTE_TEAM_SAYS = "Chouette: {name} to the team: {text}"
    CHOUETTE_BOXSIDE_SAYS = "Chouette: {name} to the box side: {text}"
    CHOUETTE_YOUR_CUBE = "Chouette {n}, game {count}: box {name}, captain {player}; your cube {cube}."
    CHOUETTE_YOU_ARE_BOX = "Chouette {n}, game {count}: you are the box; captain {player}."
    CHOUETTE_NOT_IN_GAME = "Chouette {n}, game {count}: box {name}, captain {player}; you have no cube in this game."
    CHOUETTE_LIST_HEADER = "Chouettes (number, owner, seated, stage, settings):"
    CHOUETTE_LIST_ENTRY = "  {n} {name} {count} {text}"
    CHOUETTE_SHOW_HEADER = "Chouette {n} of {name}, unrated: {text}"
    CHOUETTE_SHOW_QUEUE = "Queue: {names}"
    CHOUETTE_SHOW_GAME = "Game {n}: box {name}, captain {player}, turn: {text}"
    CHOUETTE_SHOW_CONTRACT = "  {name} against {opponent}: cube {cube}, {text}"
    CHOUETTE_SHOW_WAITING = "Waiting for: {names}"
    CHOUETTE_SCORE_HEADER = "Chouette {n} score after {count} games (unrated):"
    CHOUETTE_SCORE_ROW = "  {name} {text}"
    CHOUETTE_EXPORT_HEADER = "; fibsd chouette {n}, {text}"
    CHOUETTE_EXPORT_GAME = "Game {n}: box {name}, captain {player}, {text}"
    CHOUETTE_CLOSES_AFTER_GAME = "Chouette: the table closes when this game ends."
    CHOUETTE_ALREADY_CLOSING = "** The table closes when this game ends already."
    CHOUETTE_CLOSED_EMPTY = "Chouette: the chouette is closed; no game was played."
    CHOUETTE_ALREADY_STARTED = "** This chouette has started already: the next game starts by itself."
    CHOUETTE_CAPTAIN_NO_DELEGATE = "** The captain rolls and moves for the team and cannot delegate; if you drop, the next member takes over."
    CHOUETTE_DROPPED_OUT = "** You have no cube in this game any more: you dropped or settled it."
    CHOUETTE_DICE_COMMITMENT = "** The dice of this chouette are committed: fibsd-dice-v1 {commitment}"
    CHOUETTE_DICE_REVEALED = "** The dice seed of this chouette was {seed}"
    CHOUETTE_EXTRA_ONE = "Chouette: {name} may give {opponent} an extra cube at {cube} for {n} (decided by the server after the answer time)."
    CHOUETTE_BOX_TAKES_TEAM = "Chouette: {name} takes the team's double: the cube is {cube}."
    CHOUETTE_BOX_DROPS_TEAM = "Chouette: {name} drops the team's double and pays {n} to each of {names}."
    CHOUETTE_BOX_ABANDONS = "Chouette: {name} abandoned the game: every cube he held settles at the worst result still possible for him."
    CHOUETTE_BOX_AWAY = "Chouette: {name} (the box) dropped; {seconds} seconds to come back, or he abandons the game."
    CHOUETTE_ANSWER_DEFAULT = "Chouette: {name} did not answer in time, and nobody's answer can be followed: it counts as a drop."
    CHOUETTE_ANSWER_PROMPT = "Chouette: {name} doubles you to {cube}: type {text} within {seconds} seconds; silence follows the captain's answer, else drops."
    CHOUETTE_BOX_ANSWER_PROMPT = "Chouette: {name} doubles you to {cube}: type 'accept' or 'reject' (all pending doubles; add names to answer only theirs, e.g. 'accept {name}')."
    CHOUETTE_YOU_OWE_ANSWER = "Chouette: you must answer {name}'s double to {cube}: {text}, within {seconds} seconds."
    CHOUETTE_YOU_OWE_BOX_ANSWER = "Chouette: you must answer {name}'s double to {cube}: 'accept {name}' or 'reject {name}'."
    CHOUETTE_YOU_OWE_RESIGNATION = "Chouette: {name} offers you a {text}: type 'accept' or 'reject'."
    CHOUETTE_YOU_OWE_EXTRA = "Chouette: you may give {name} an extra cube: 'chouette extra' or 'chouette noextra', within {seconds} seconds."
    CHOUETTE_YOU_OWE_PARTNER = "Chouette: you are offered to be the box's partner: 'chouette partner yes' or 'no', within {seconds} seconds."
    CHOUETTE_YOU_OWE_TURN = "Chouette: it is your turn: {text}."
    CHOUETTE_GAME_RESULT = "Chouette: game {n}: {text}. Totals: {names}."

    # --- fibsd's tournaments (docs/tournaments.md, club-play.md T). Like the chouette's,
    # status lines start `Tournament ` without `** `, so a FIBS client shows them as text;
    # they reach the entrants (entering is the opt-in) and, for a start and an end, users
    # with `report` on who take fibsd's lines (`toggle extensions`; telnet has it on).
    HELP_TOURNAMENT = "tournament create|join|leave|start|cancel|list|show - club tournaments run by the server: knockout, swiss, roundrobin. 'help tournament' tells more."
    HELP_TOURNAMENT_1 = "tournament create <name> knockout|swiss|roundrobin <length> [rounds N] [clock [DELAY RESERVE]] [noshow SECONDS] [max N] [bots] [consolation] [deadline DAYS] [days D] - open a tournament (docs/tournaments.md). deadline: each round lasts DAYS days (a league); days: correspondence matches, D days per move."
    HELP_TOURNAMENT_2 = "tournament join|leave <name> - enter or withdraw before it starts. tournament start|cancel <name> - its creator or an administrator."
    HELP_TOURNAMENT_3 = "tournament list [all|finished [<page>]] | show <name> [<yyyy-mm-dd>] | show #<number> - the tournaments open and running (or every one, or those over, a page at a time); one's entrants, rounds, results, standings and winner. Your matches start by themselves when you and your opponent are both here and free; rated."
    TOURNAMENT_USAGE = "** Usage: tournament create|join|leave|start|cancel|list|show|schedule|schedules|unschedule"
    HELP_TOURNAMENT_SCHEDULE = "tournament schedule <name> daily HH:MM|weekly DAYS HH:MM|RRULE [ZONE] <format> <length> [options] [min N] - a tournament that comes back by itself. tournament schedules | unschedule <name>."
    TOURNAMENT_SCHEDULE_USAGE = "** Usage: tournament schedule <name> daily HH:MM|weekly DAYS HH:MM|RRULE [ZONE] knockout|swiss|roundrobin <length> [options as for create] [min N]"
    TOURNAMENT_SCHEDULE_BAD_NAME = "** A schedule's name is 1 to {n} letters, digits, - and _ (its tournaments add the date)."
    TOURNAMENT_SCHEDULE_BAD_RULE = "** Can't read the recurrence rule '{text}': {names}. Try 'daily 18:00', 'weekly thu 20:00' or FREQ=WEEKLY;BYDAY=TH;BYHOUR=20;BYMINUTE=0."
    TOURNAMENT_SCHEDULE_BAD_ZONE = "** Unknown time zone '{text}': give an IANA name such as Europe/Paris, or UTC."
    TOURNAMENT_SCHEDULE_BAD_TIME = "** Not a time of day: '{text}'. Give HH:MM, from 00:00 to 23:59."
    TOURNAMENT_SCHEDULE_BAD_DAY = "** Not a day: '{text}'. Give mon, tue, wed, thu, fri, sat or sun (several joined by commas)."
    TOURNAMENT_SCHEDULE_BAD_WHEN = "** Can't tell when '{text}' is: give 'daily HH:MM', 'weekly DAYS HH:MM' or an RFC 5545 rule (FREQ=...), then a zone if not the server's."
    TOURNAMENT_SCHEDULE_NEVER = "** The rule '{text}' has no occurrence still to come."
    TOURNAMENT_SCHEDULE_TWICE = "** The rule '{text}' fires twice on one day: a schedule opens at most one tournament a day."
    TOURNAMENT_SCHEDULE_ADMINS_ONLY = "** Only administrators may schedule tournaments here."
    TOURNAMENT_SCHEDULE_NAME_TAKEN = "** There is a schedule called {text} already."
    TOURNAMENT_SCHEDULE_NO_SUCH = "** There is no schedule called {text}."
    TOURNAMENT_SCHEDULE_CREATOR_ONLY = "** Only the schedule's creator ({name}) or an administrator may do that."
    TOURNAMENT_SCHEDULE_MADE = "Tournament schedule {text}: {names}. The next starts {date}."
    TOURNAMENT_SCHEDULE_REMOVED = "Tournament schedule {text} removed."
    TOURNAMENT_SCHEDULES_NONE = "** There are no tournament schedules. Type 'tournament schedule' to make one."
    TOURNAMENT_SCHEDULES_HEADER = "Tournament schedules:"
    TOURNAMENT_SCHEDULES_ENTRY = "  {text}: {names}, {length}-point matches, at least {count} players, by {name}; next: {date}"
    TOURNAMENT_SCHEDULES_YOU_MAY = "  You may make schedules ('tournament schedule <name> <when> <format> <length> [options] [min N]')."
    TOURNAMENT_SHOW_SCHEDULED = "  Opened by schedule {text}: it starts {date} if at least {count} players have entered."
    TOURNAMENT_SCHEDULE_EVERY_DAY = "every day at {text}"
    TOURNAMENT_SCHEDULE_EVERY_WEEK = "every {names} at {text}"
    TOURNAMENT_SCHEDULE_NO_NEXT = "none, the rule has ended"
    TOURNAMENT_OCCURRENCE_OPENED = "Tournament {text} opened by {name} ({names}): it starts {date} if at least {count} players have entered. Type 'tournament join {text}' to enter."
    TOURNAMENT_OCCURRENCE_CANCELLED = "Tournament {text} is cancelled: {n} entered by its start, and it needs {count}."
    TOURNAMENT_CREATE_USAGE = "** Usage: tournament create <name> knockout|swiss|roundrobin <length> [rounds N] [clock [DELAY RESERVE]] [noshow SECONDS] [max N] [bots] [consolation] [deadline DAYS] [days D]"
    # What is wrong with a `tournament create` (each refusal names its reason).
    TOURNAMENT_BAD_NAME = "** A tournament's name is 1 to {n} letters, digits, - and _."
    TOURNAMENT_BAD_FORMAT = "** A tournament is a knockout, swiss or roundrobin, not '{text}'."
    TOURNAMENT_BAD_LENGTH = "** A tournament's match length is a number from 1 to {n}."
    TOURNAMENT_BAD_VALUE = "** Tournament option '{text}' takes a number from {low} to {high}."
    TOURNAMENT_UNKNOWN_OPTION = "** Unknown tournament option '{text}': the options are rounds, clock, noshow, max, bots, consolation, deadline and days."
    TOURNAMENT_OPTION_TWICE = "** Tournament option '{text}' is given twice."
    TOURNAMENT_BAD_DAYS = "** Tournament option 'days' takes the days per move of a correspondence match, e.g. 'days 1' or 'days 0.5'."
    TOURNAMENT_DAYS_OR_CLOCK = "** A tournament takes 'days' (correspondence) or 'clock', not both."
    TOURNAMENT_DEADLINE_OR_NOSHOW = "** A tournament with rounds of days ('deadline' or 'days') decides no-shows at each round's deadline: leave out 'noshow'."
    TOURNAMENT_KNOCKOUT_ONLY = "** Only a knockout has a consolation bracket."
    TOURNAMENT_SWISS_ONLY = "** Only a swiss takes 'rounds': a {text} plays as many rounds as it needs."
    TOURNAMENT_NEEDS_NAME = "** tournament {text} needs a tournament's name (letters, digits, - and _)."
    TOURNAMENT_NO_SUCH = "** There is no tournament called {text}."
    TOURNAMENT_NAME_TAKEN = "** There is a tournament called {text} already."
    TOURNAMENT_CREATE_ADMINS_ONLY = "** Only administrators may create tournaments here."
    TOURNAMENT_CREATOR_ONLY = "** Only the tournament's creator ({name}) or an administrator may do that."
    TOURNAMENT_ALREADY_ENTERED = "** You have entered {text} already."
    TOURNAMENT_NOT_ENTERED = "** You have not entered {text}."
    TOURNAMENT_FULL = "** Tournament {text} is full."
    TOURNAMENT_STARTED = "** Tournament {text} has started: no more changes to the entrants."
    TOURNAMENT_OVER = "** Tournament {text} is over."
    TOURNAMENT_TOO_FEW = "** A tournament needs at least 2 entrants."
    TOURNAMENT_CLOCK_REQUIRED = "** Rated matches here need a clock: add 'clock' to the tournament."
    TOURNAMENT_NO_BOTS = "** Tournament {text} does not take bots."
    TOURNAMENT_NONE = "** There are no tournaments. Type 'tournament create' to open one."
    TOURNAMENT_LIST_USAGE = "** Usage: tournament list [all|finished [<page>]]"
    TOURNAMENT_SHOW_USAGE = "** Usage: tournament show <name> [<yyyy-mm-dd>] | tournament show #<number>"
    TOURNAMENT_CREATOR_LIMIT = "** You have {n} tournaments open or running, the most a member may have: wait until one is over."
    TOURNAMENT_SERVER_LIMIT = "** There are {n} tournaments open or running, the most this server runs at a time: wait until one is over."
    TOURNAMENT_NO_SUCH_NUMBER = "** There is no tournament #{n}."
    TOURNAMENT_NO_SUCH_DAY = "** No tournament called {text} was created on {day}."
    TOURNAMENT_NONE_LISTED = "** There are no {text} tournaments."
    TOURNAMENT_NO_SUCH_PAGE = "** There is no page {n}: 'tournament list {text}' has {count}."
    TOURNAMENT_LIST_RECORDS_HEADER = "Tournaments ({text}), newest first:"
    TOURNAMENT_LIST_RECORD = "  #{n} {text}, {day}: {names}, {length}-point matches, {count} entered, by {name}"
    TOURNAMENT_LIST_PAGE = "  Page {n} of {count}."
    TOURNAMENT_LIST_NEXT_PAGE = "  Page {n} of {count}. Type 'tournament list {text} {next}' for the next."
    TOURNAMENT_SHOW_NUMBER = "  Tournament #{n}, created {day}."
    TOURNAMENT_SHOW_MAY_START = "  You may start it ('tournament start {text}') or cancel it ('tournament cancel {text}')."
    TOURNAMENT_SHOW_MAY_CANCEL = "  You may cancel it ('tournament cancel {text}')."
    TOURNAMENT_CREATED = "Tournament {text} opened by {name}. Type 'tournament join {text}' to enter."
    TOURNAMENT_JOINS = "Tournament {text}: {name} enters ({count} entered)."
    TOURNAMENT_LEAVES = "Tournament {text}: {name} withdraws ({count} entered)."
    TOURNAMENT_BEGINS = "Tournament {text} starts with {count} players."
    TOURNAMENT_CANCELLED = "Tournament {text} is cancelled by {name}."
    TOURNAMENT_ROUND = "Tournament {text}: round {n} pairings: {names}"
    TOURNAMENT_YOUR_PAIRING = "Tournament {text}: round {n}: your {length}-point match with {name} starts when you are both here and free (forfeit after {seconds} seconds)."
    TOURNAMENT_YOUR_ROUND_MATCH = "Tournament {text}: round {n}: your {length}-point match with {name} starts when you are both here and free; play it by {date} (at the deadline, a player who never showed loses by forfeit)."
    TOURNAMENT_YOUR_ROUND_CORRESPONDENCE = "Tournament {text}: round {n}: your {length}-point correspondence match with {name} ({days} per move) starts when you are both here and free; begin it by {date} (at the deadline, a player who never showed loses by forfeit)."
    TOURNAMENT_YOUR_BYE = "Tournament {text}: round {n}: you have a bye."
    TOURNAMENT_RESULT = "Tournament {text}: {winner} beats {loser} {score}-{opponent_score}."
    TOURNAMENT_FORFEIT = "Tournament {text}: {loser} did not show; {winner} wins by forfeit."
    TOURNAMENT_DOUBLE_FORFEIT = "Tournament {text}: neither {name} nor {opponent} showed."
    TOURNAMENT_WINNER = "Tournament {text} is over: {name} wins."
    TOURNAMENT_LIST_HEADER = "Tournaments:"
    TOURNAMENT_LIST_ENTRY = "  {text}: {names}, {length}-point matches, {count} entered, by {name}"
    TOURNAMENT_SHOW_HEADER = "Tournament {text}: {names}, {length}-point matches, rated, created by {name}."
    TOURNAMENT_SHOW_OPTIONS = "  Options: {text}."
    # Pieces of `tournament list` and `tournament show` lines (LINE_FRAGMENTS).
    TOURNAMENT_OPTION_ROUNDS = "{n} rounds"
    TOURNAMENT_OPTION_CONSOLATION = "consolation bracket"
    TOURNAMENT_OPTION_BOTS = "bots may enter"
    TOURNAMENT_LEFT_MATCH = "Tournament {text}: you left your match with {name}. Type 'join {name}' to go on; after {noshow} away {name} wins by forfeit."
    TOURNAMENT_LEFT_MATCH_DEADLINE = "Tournament {text}: you left your match with {name}. Type 'join {name}' to go on; if you are not back by {date}, {name} wins by forfeit."
    TOURNAMENT_SHOW_RULES_DEADLINE = "  Rounds of {days}; no clock."
    TOURNAMENT_SHOW_RULES_DEADLINE_CLOCK = "  Rounds of {days}; clock: {delay_phrase} delay, {reserve_phrase} reserve per point."
    TOURNAMENT_SHOW_RULES_CORRESPONDENCE = "  Rounds of {days}; correspondence matches, {move_days} per move."
    TOURNAMENT_SHOW_ROUND_DEADLINE = "  Round {n} (deadline {date}):"
    TOURNAMENT_SHOW_RULES = "  No-show time {noshow}; no clock."
    TOURNAMENT_SHOW_RULES_CLOCK = "  No-show time {noshow}; clock: {delay_phrase} delay, {reserve_phrase} reserve per point."
    TOURNAMENT_SHOW_OPEN = "  Open for entries: {count} entered."
    TOURNAMENT_SHOW_RUNNING = "  Round {n} of {count} is being played."
    TOURNAMENT_SHOW_PAIRING = "  Round {n} of {count} is being paired."
    TOURNAMENT_SHOW_FINISHED = "  Finished after {rounds}."
    TOURNAMENT_SHOW_CANCELLED = "  Cancelled."
    TOURNAMENT_SHOW_ENTRANT = "  Seed {n}: {name} ({text})"
    TOURNAMENT_SHOW_BOT_ENTRANT = "  Seed {n}: {name} ({text}), a bot"
    TOURNAMENT_SHOW_ROUND = "  Round {n}:"
    TOURNAMENT_SHOW_CONSOLATION_ROUND = "  Round {n}, consolation bracket:"
    TOURNAMENT_SHOW_PLAYED = "    {winner} beats {loser} {score}-{opponent_score}"
    TOURNAMENT_SHOW_FORFEIT = "    {winner} beats {loser} by forfeit"
    TOURNAMENT_SHOW_DOUBLE_FORFEIT = "    {name} and {opponent}: neither showed"
    TOURNAMENT_SHOW_BYE = "    {name} has a bye"
    TOURNAMENT_SHOW_PLAYING = "    {name} v {opponent}: playing"
    TOURNAMENT_SHOW_WAITING = "    {name} v {opponent}: waiting for both"
    TOURNAMENT_SHOW_STANDINGS = "  Standings (points, Buchholz, match-point difference):"
    TOURNAMENT_SHOW_STANDING = "    {n}. {name} {text}"
    TOURNAMENT_SHOW_WINNER = "  Winner: {name}"
    TOURNAMENT_SHOW_CONSOLATION = "  Consolation winner: {name}"
    HELP_SETBOT = "setbot <user> on|off - (administrators) mark an account as a bot's, or clear the mark: 'whois' shows it; bots enter only tournaments that allow them."
    SETBOT_USAGE = "** Usage: setbot <name> on|off"
    SETBOT_DONE = "** {name} is marked as a bot now."
    SETBOT_CLEARED = "** {name} is not marked as a bot any more."
    WHOIS_BOT = "  {name} is a bot."
    # A bot online, or a mark changed, for the CLIP clients that asked (fibsd.app.lobby.bot_marks).
    BOT_MARK_ON = "bot: {name} on"
    BOT_MARK_OFF = "bot: {name} off"
    WHOIS_HOUSE_BOT = "  {name} is a house bot: {strength}."
    WHOIS_HOUSE_BOT_RECORD = "  Record in finished matches: {wins} won, {losses} lost."
    WHOIS_HOUSE_BOT_PR = "  Its opponents' PR: {pr} over {count:d} analysed matches ({left_out:d} left out)."
    HOUSE_BOT_BUSY = "** {name} is a house bot and plays one match at a time. Try again when it is free, or invite another house bot ('who' lists them)."
    # A house bot with `matches = N` plays as N accounts (docs/bots.md): a busy copy's line.
    HOUSE_BOT_COPY_FREE = "** {name} is playing; {free} plays at the same strength and is free: invite it."
    HOUSE_BOT_ALL_BUSY = "** {name} is playing, and so are all {count:d} copies of this house bot. Try again when one is free, or invite another house bot ('who' lists them)."
    WHOIS_HOUSE_BOT_COPY = "  {name} is a house bot: {strength}, one of {count:d} copies that play at once ({names}); its record is its own."

# fibsd's own lines that FIBS never sent, sent unasked (or as the answer to a FIBS command):
# GUI clients take an unknown `** ` line for an error and stop to show it, so a CLIP session
# gets them only after `toggle extensions` (telnet sessions have it on). The value is the
# FIBS sentence sent instead, or None to send nothing (docs/compatibility.md lists them).
EXTENSION_LINES: Final[Mapping[Text, Text | None]] = {
    Text.DICE_COMMITMENT: None,
    Text.DICE_REVEALED: None,
    Text.DROPPER_GRACE: None,
    # FIBS saved the match when the opponent dropped: a FIBS client thinks it is not playing.
    Text.OPPONENT_DISCONNECTED: Text.NOT_PLAYING,
    Text.WHOIS_DROPS: None,
    Text.UNINVITES_YOU: None,
    Text.INVITATION_RULES: None,
    Text.CHOUETTE_DICE_COMMITMENT: None,
    Text.CHOUETTE_DICE_REVEALED: None,
    # The analysis a user asked for is ready, or failed (sent unasked, later).
    Text.ANALYSIS_READY: None,
    Text.ANALYSIS_FAILED: None,
    Text.WHOIS_BOT: None,
    Text.BOT_MARK_ON: None,
    Text.BOT_MARK_OFF: None,
    Text.WHOIS_HOUSE_BOT: None,
    Text.WHOIS_HOUSE_BOT_RECORD: None,
    Text.WHOIS_HOUSE_BOT_PR: None,
    Text.HOUSE_BOT_BUSY: None,
    Text.HOUSE_BOT_COPY_FREE: None,
    Text.HOUSE_BOT_ALL_BUSY: None,
    Text.WHOIS_HOUSE_BOT_COPY: None,
    # Match clocks (docs/clocks.md): the end of a match lost on time reaches a FIBS client
    # as FIBS's own `... wins the N point match` lines (docs/compatibility.md).
    Text.CLOCK_STATE: None,
    Text.YOU_LOSE_ON_TIME: None,
    Text.LOSES_ON_TIME: None,
    Text.YOU_IN_OVERTIME: None,
    Text.IN_OVERTIME: None,
    # Correspondence play (docs/clocks.md): a FIBS client gets FIBS's own lines for leaving
    # and resuming a saved match, and its reminder as a resume invitation (`join NAME`
    # sits down at a correspondence match as at a saved one).
    Text.CORRESPONDENCE_YOUR_MOVE: Text.WANTS_TO_RESUME,
    Text.CORRESPONDENCE_YOU_LEFT: Text.YOU_TERMINATED_GAME,
    Text.CORRESPONDENCE_LEFT: Text.PLAYER_LEFT_GAME,
    Text.CORRESPONDENCE_SAT_DOWN: Text.JOINED_MATCH_LOADED,
    # A dropper back after his opponent claimed the match: FIBS had no claims.
    Text.CLAIMED_FROM_YOU: None,
}

# fibsd's own `** ` lines that every session may get, and why that is right for a FIBS
# client too (tests/protocol/test_wording.py checks that every `** ` line of this table is
# FIBS's own, an extension line, one of these, or a chouette's or tournament's line, which
# reach only those who joined one or typed `chouette`/`tournament`).
# Answers to fibsd's own commands and options (export, analyse, correspondence, clock,
# uninvite, the operators' commands, `toggle extensions`, `invite ... clock`): a FIBS
# client that never types them never sees them.
OWN_COMMAND_ANSWERS: Final = frozenset(
    {
        Text.INVITE_CLOCK_USAGE, Text.EXPORT_USAGE, Text.EXPORT_NONE, Text.EXPORT_UNKNOWN,
        Text.ANALYSE_USAGE, Text.ANALYSIS_USAGE, Text.ANALYSIS_UNAVAILABLE,
        Text.ANALYSIS_ALREADY_DONE, Text.ANALYSIS_QUEUE_FULL, Text.ANALYSIS_NOT_YET,
        Text.ANALYSIS_PENDING, Text.SHOW_PR_NONE, Text.PUZZLE_USAGE, Text.PUZZLE_NONE,
        Text.PUZZLE_NONE_MINE, Text.PUZZLE_WHILE_PLAYING, Text.SHOW_PUZZLES_NONE, Text.KICK_DONE, Text.BAN_DONE,
        Text.BAN_DONE_FOREVER, Text.UNBAN_DONE, Text.NOT_SANCTIONED, Text.MUTE_DONE,
        Text.MUTE_DONE_FOREVER, Text.UNMUTE_DONE, Text.ADDUSER_DONE, Text.SHUTDOWN_USAGE,
        Text.BROADCAST_USAGE, Text.KICK_USAGE, Text.BAN_USAGE, Text.UNBAN_USAGE,
        Text.MUTE_USAGE, Text.UNMUTE_USAGE, Text.ADDUSER_USAGE, Text.INVITECODE_USAGE,
        Text.NO_DICE_COMMITMENT, Text.TOGGLE_EXTENSIONS_ON, Text.TOGGLE_EXTENSIONS_OFF,
        Text.CLAIM_TOO_EARLY, Text.NOTHING_TO_CLAIM, Text.YOU_CLAIM, Text.NO_MATCH_CLOCK,
        Text.CLOCK_DELAY_TOO_LONG, Text.CLOCK_RESERVE_TOO_LONG, Text.CLOCK_DAYS_TOO_LONG,
        Text.CORRESPONDENCE_NONE, Text.NO_CORRESPONDENCE_WITH, Text.YOU_UNINVITE,
        Text.NOTHING_TO_UNINVITE, Text.SETBOT_USAGE, Text.SETBOT_DONE, Text.SETBOT_CLEARED,
    }
)
# Refusals: a FIBS command, a login or a connection that this server refuses, said FIBS's
# way (`** ` and a sentence). A client shows an error there, which is what happened.
REFUSALS: Final = frozenset(
    {
        Text.DOUBLE_NOT_ANSWERED, Text.HELP_NO_TOPIC, Text.PASSWORD_NOT_PRINTABLE,
        Text.LINE_TOO_LONG, Text.SLOW_DOWN, Text.FLOODING, Text.SHOUT_TOO_SOON, Text.MUTED,
        Text.TOO_MANY_CONNECTIONS, Text.ADDRESS_NOT_ALLOWED, Text.LOGIN_BLOCKED, Text.BANNED,
        Text.REGISTRATION_CLOSED, Text.REGISTRATION_LIMIT, Text.INVITATION_CODE_INVALID,
        Text.KICKED, Text.CLOCK_REQUIRED, Text.CORRESPONDENCE_USE_IT,
    }
)


# --- the mechanism: rendering, and the reverse direction derived from the same templates ---


# Prompts: sent without a line terminator, so they may end with a space.
PROMPTS: Final = frozenset(
    {
        Text.LOGIN_PROMPT,
        Text.PASSWORD_PROMPT,
        Text.COMMAND_PROMPT,
        Text.GIVE_PASSWORD_PROMPT,
        Text.RETYPE_PASSWORD_PROMPT,
        Text.PASSWORDS_NOT_IDENTICAL_PROMPT,
        Text.INVITATION_CODE_PROMPT,
    }
)

# Members that are parts of a line (the ASCII board's pieces), not lines of their own.
LINE_FRAGMENTS: Final = frozenset(
    {
        Text.BOARD_BORDER_LABEL,
        Text.BOARD_BAR_COLUMN,
        Text.BOARD_MATCH_LENGTH,
        Text.BOARD_UNLIMITED_MATCH,
        Text.BOARD_NO_REDOUBLES,
        Text.BOARD_REDOUBLES,
        Text.BOARD_COUNTS,
        Text.BOARD_CUBE_OWNER,
        Text.BOARD_ROLLED,
        Text.BOARD_TURN,
        Text.TOURNAMENT_OPTION_ROUNDS,
        Text.TOURNAMENT_OPTION_CONSOLATION,
        Text.TOURNAMENT_OPTION_BOTS,
        Text.TOURNAMENT_SCHEDULE_EVERY_DAY,
        Text.TOURNAMENT_SCHEDULE_EVERY_WEEK,
        Text.TOURNAMENT_SCHEDULE_NO_NEXT,
        Text.BOARD_CLOCK,
        Text.CLOCK_TERMS_DELAY,
        Text.CLOCK_TERMS_PER_GAME,
        Text.CLOCK_TERMS_OVERTIME,
        Text.CLOCK_TERMS_DAYS,
        Text.CLOCK_ROW_TO_ACT,
        Text.CLOCK_ROW_DELAY_FIRST,
        Text.CLOCK_ROW_OVERTIME,
    }
)


class FieldKind(enum.Enum):
    """What a template field may contain; decides the regex used to recognise it."""

    NAME = r"[A-Za-z_<>]+"  # FIBS user names; `<>` because clients' regexes allow them
    NUMBER = r"-?\d+"
    DECIMAL = r"-?\d+\.\d+"
    COUNT = r"\d+ [a-z]+"  # a number with its noun, "1 point" / "3 users" (see count_phrase)
    POINT = r"\d+|bar|off|home"
    MOVES = r"(?:\d+|bar)-(?:\d+|off)(?: (?:\d+|bar)-(?:\d+|off))*"
    COLOUR = r"[XO]"
    ORDINAL = r"first|second|third|fourth"
    TOKEN = r"\S+"  # any single word: the default for a field name not listed below
    TEXT = r".*"  # free text, may be empty and contain spaces


# Field names, by kind. A template field is recognised by its name (or by a numeric format
# spec such as `{rating:.2f}`); an unlisted name is a single token. Add names here rather
# than inventing a second convention.
FIELD_KINDS: Final[Mapping[str, FieldKind]] = {
    **dict.fromkeys(
        ("name", "opponent", "player", "watcher", "winner", "loser", "user", "x_name", "o_name"),
        FieldKind.NAME,
    ),
    **dict.fromkeys(
        (
            "n", "length", "score", "opponent_score", "cube", "die", "opponent_die", "die1",
            "die2", "pips", "opponent_pips", "seconds", "experience", "opponent_experience",
            "count", "o_bar", "x_bar", "o_off", "x_off",
        ),
        FieldKind.NUMBER,
    ),
    **dict.fromkeys(("points", "users", "rounds"), FieldKind.COUNT),
    "point": FieldKind.POINT,
    "moves": FieldKind.MOVES,
    "colour": FieldKind.COLOUR,
    "ordinal": FieldKind.ORDINAL,
    **dict.fromkeys(("text", "names", "date", "bearoff", "club"), FieldKind.TEXT),
    # (durations in words, "1 second", "1.5 seconds")
    **dict.fromkeys(("noshow", "delay_phrase", "reserve_phrase"), FieldKind.TEXT),
    **dict.fromkeys(("band", "played", "best"), FieldKind.TEXT),  # engine analysis
    **dict.fromkeys(("side", "box_time", "team_time"), FieldKind.TEXT),  # a chouette's clock
}

# Kinds whose values may contain spaces: after such a field, the words of a line no longer
# sit at fixed positions, which matters for the prefix index below.
_SPACED_KINDS: Final = frozenset({FieldKind.COUNT, FieldKind.MOVES, FieldKind.TEXT})

_FORMAT_SPEC = re.compile(
    r"(?:(?P<fill>.)?(?P<align>[<>^]))?(?P<zero>0)?(?P<width>\d+)?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[df]?)\Z"
)


def count_phrase(count: int, noun: str) -> str:
    """`1 point`, `2 points`: FIBS pluralises by appending `s` (fields of kind COUNT)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def amount_phrase(amount: float, unit: str) -> str:
    """`1 day`, `0.5 days`, `12 seconds`: an amount that may have decimals, as typed."""
    return f"{amount:g} {unit}" if amount == 1 else f"{amount:g} {unit}s"


@attrs.frozen
class _Field:
    name: str
    spec: str
    kind: FieldKind
    number_type: str  # "d", "f" or "" (how a str value is converted before formatting)


@attrs.frozen
class _Template:
    pieces: tuple[tuple[str, _Field | None], ...]  # (literal before, field after it or None)

    @property
    def fields(self) -> tuple[_Field, ...]:
        return tuple(field for _, field in self.pieces if field is not None)

    @property
    def literal_length(self) -> int:
        return sum(len(literal) for literal, _ in self.pieces)


def _field_kind(name: str, number_type: str) -> FieldKind:
    if number_type == "f":
        return FieldKind.DECIMAL
    if number_type == "d":
        return FieldKind.NUMBER
    return FIELD_KINDS.get(name, FieldKind.TOKEN)


@functools.cache
def _template(text: Text) -> _Template:
    pieces: list[tuple[str, _Field | None]] = []
    for literal, name, spec, conversion in string.Formatter().parse(text.value):
        if name is None:
            pieces.append((literal, None))
            continue
        if not name.isidentifier() or conversion:
            raise ValueError(f"{text.name}: fields must be plain names, got {{{name}}}")
        spec = spec or ""
        parsed = _FORMAT_SPEC.match(spec)
        if parsed is None or (parsed["fill"] not in (None, " ")):
            raise ValueError(f"{text.name}: unsupported format spec {spec!r} for {name}")
        number_type = parsed["type"]
        pieces.append((literal, _Field(name, spec, _field_kind(name, number_type), number_type)))
    return _Template(tuple(pieces))


@functools.cache
@functools.cache
def template_fields(text: Text) -> tuple[str, ...]:
    """The names of `text`'s fields, in order of first appearance."""
    return tuple(dict.fromkeys(field.name for field in _template(text).fields))


@functools.cache
def template_field_names(text: Text) -> frozenset[str]:
    """The names of `text`'s fields, as a set (checked for every line the server says)."""
    return frozenset(template_fields(text))


@functools.cache
def _format_plan(text: Text) -> tuple[tuple[_Field, bool], ...]:
    """Each field of `text` with whether its spec pads it (worked out once per text)."""
    return tuple((field, _is_padded(field)) for field in _template(text).fields)


def _format_field(value: object, field: _Field) -> str:
    # Values parsed back from a line are strings; a numeric spec needs the number again.
    if isinstance(value, str) and field.number_type == "d":
        value = int(value)
    elif isinstance(value, str) and field.number_type == "f":
        value = float(value)
    return format(value, field.spec)


def render(text: Text, /, **fields: object) -> str:
    """Fill in `text`'s template; a missing field is a programming error (KeyError)."""
    out: list[str] = []
    for literal, field in _template(text).pieces:
        out.append(literal)
        if field is not None:
            out.append(_format_field(fields[field.name], field))
    return "".join(out)


def format_fields(text: Text, /, **fields: object) -> dict[str, str]:
    """Each field as it appears in the rendered line (the form `match_text` returns)."""
    if _is_plain(text) and all(isinstance(value, str) for value in fields.values()):
        return {name: str(fields[name]) for name in template_fields(text)}  # already so
    formatted: dict[str, str] = {}
    for field, padded in _format_plan(text):
        value = _format_field(fields[field.name], field)
        formatted.setdefault(field.name, value.strip(" ") if padded else value)
    return formatted


def _is_padded(field: _Field) -> bool:
    parsed = _FORMAT_SPEC.match(field.spec)
    return parsed is not None and parsed["width"] is not None and not parsed["zero"]


@functools.cache
def _is_plain(text: Text) -> bool:
    """No field has a format spec: a string value appears in the line as it is."""
    return not any(field.spec for field in _template(text).fields)


def _field_regex(field: _Field, *, last: bool) -> str:
    body = field.kind.value
    if field.kind is FieldKind.TEXT and not last:
        body = ".*?"
    group = f"(?P<{field.name}>{body})"
    parsed = _FORMAT_SPEC.match(field.spec)
    assert parsed is not None
    if parsed["width"] is None or parsed["zero"]:
        return group
    align = parsed["align"] or (">" if field.number_type else "<")
    return {"<": f"{group} *", ">": f" *{group}", "^": f" *{group} *"}[align]


@functools.cache
def pattern(text: Text) -> re.Pattern[str]:
    """The regex that recognises exactly the lines `render(text, ...)` can produce."""
    template = _template(text)
    seen: set[str] = set()
    parts: list[str] = []
    for index, (literal, field) in enumerate(template.pieces):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if field.name in seen:
            parts.append(f"(?P={field.name})")
        else:
            seen.add(field.name)
            parts.append(_field_regex(field, last=index == len(template.pieces) - 1))
    return re.compile("".join(parts), re.DOTALL)


# The prefix index. A line's first three space-separated words select the candidates: a
# template contributes, per position, either its literal word or WILDCARD (a field is in
# that word, or an earlier field may contain spaces). END stands for "no such word".
_INDEX_WORDS: Final = 3
_WILDCARD: Final = "\x00*"
_END: Final = "\x00$"
_PLACEHOLDER: Final = "\x00"
_SPACED_PLACEHOLDER: Final = "\x01"


def _index_key(text: Text) -> tuple[str, ...]:
    skeleton = []
    for literal, field in _template(text).pieces:
        skeleton.append(literal)
        if field is not None:
            spaced = field.kind in _SPACED_KINDS or _is_padded(field)
            skeleton.append(_SPACED_PLACEHOLDER if spaced else _PLACEHOLDER)
    words = "".join(skeleton).split(" ")
    key: list[str] = []
    after_spaced = False
    for position in range(_INDEX_WORDS):
        word = words[position] if position < len(words) else _END
        if after_spaced or _PLACEHOLDER in word or _SPACED_PLACEHOLDER in word:
            key.append(_WILDCARD)
        else:
            key.append(word)
        after_spaced = after_spaced or _SPACED_PLACEHOLDER in word
    return tuple(key)


@attrs.frozen
class _Candidate:
    rank: int  # lower = more specific: more literal characters, then earlier member
    text: Text
    regex: re.Pattern[str]


@functools.cache
def _index() -> Mapping[tuple[str, ...], tuple[_Candidate, ...]]:
    # Each template has exactly one key, so buckets never share a member.
    buckets: dict[tuple[str, ...], list[_Candidate]] = {}
    for order, text in enumerate(Text):
        if text in LINE_FRAGMENTS:
            continue  # never a whole line
        # More literal characters = more specific ("** Gagged users: none" beats
        # "** Gagged users: {names}"); ties go to the earlier member.
        rank = -_template(text).literal_length * len(Text) + order
        buckets.setdefault(_index_key(text), []).append(_Candidate(rank, text, pattern(text)))
    return {key: tuple(bucket) for key, bucket in buckets.items()}


def _candidates(line: str) -> list[_Candidate]:
    words = line.split(" ", _INDEX_WORDS)[:_INDEX_WORDS]
    words += [_END] * (_INDEX_WORDS - len(words))
    index = _index()
    found: list[_Candidate] = []
    for key in itertools.product(*((word, _WILDCARD) for word in words)):
        found += index.get(key, ())
    found.sort(key=_rank)
    return found


def _rank(candidate: _Candidate) -> int:
    return candidate.rank


def candidates(line: str) -> list[Text]:
    """The members whose literal words fit `line`'s first words, most specific first."""
    return [candidate.text for candidate in _candidates(line)]


def match_text(line: str) -> tuple[Text, dict[str, str]] | None:
    """The member `line` is an instance of, with its fields as they appear; None if none.

    An instance means exactly what `render` produces: `allowpip YES` is not the padded
    toggle row, `D=1.5` not a six-decimal rating difference.
    """
    for candidate in _candidates(line):
        found = candidate.regex.fullmatch(line)
        if found is not None:
            fields = found.groupdict()
            if _is_plain(candidate.text) or render(candidate.text, **fields) == line:
                return candidate.text, fields
    return None


# --- multi-line texts, built from the members above ---


def banner_lines(*, club_line: str, date_line: str) -> list[str]:
    """The banner sent on connect (§2.1), ending with the date line; `login: ` follows.

    `club_line` replaces FIBS' contact paragraph (e.g. "   fibsd at example.org"). No
    banner line may start with a digit: FCM-based clients read `^1 `/`^3` as CLIP lines
    even before login. MatchDog waits for BANNER_ONE_ACCOUNT before logging in.
    """
    for line in (club_line, date_line):
        if line[:1].isdigit() or "\n" in line or "\r" in line:
            raise ValueError(f"banner line must be one line not starting with a digit: {line!r}")
    return [
        Text.BANNER_WELCOME.value,
        Text.BANNER_LOGO_1.value,
        Text.BANNER_LOGO_2.value,
        Text.BANNER_LOGO_3.value,
        Text.BANNER_LOGO_4.value,
        Text.BANNER_LOGO_5.value,
        Text.BANNER_LOGO_6.value,
        "",
        club_line,
        "",
        Text.BANNER_MEET_PEOPLE.value,
        Text.BANNER_NO_RACISTS.value,
        Text.BANNER_BE_NICE.value,
        "",
        Text.BANNER_LOGIN_AS_GUEST.value,
        Text.BANNER_ONE_ACCOUNT.value,
        "",
        date_line,
    ]


# English on purpose: strftime's %A/%B follow the process locale. `protocol.listings`
# uses them too.
WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS: Final = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)


def time_line(local: datetime.datetime, zone_abbreviation: str, utc: datetime.datetime) -> str:
    """`Wednesday, April 09 09:08:53 MEST   ( Wed Apr  9 07:08:53 2008 UTC )` (§2.1, `time`).

    Locale-independent on purpose (strftime's %A follows the process locale).
    """
    weekday, month = WEEKDAYS[local.weekday()], MONTHS[local.month - 1]
    ctime = (
        f"{WEEKDAYS[utc.weekday()][:3]} {MONTHS[utc.month - 1][:3]} {utc.day:2d}"
        f" {utc:%H:%M:%S} {utc.year}"
    )
    return (
        f"{weekday}, {month} {local.day:02d} {local:%H:%M:%S} {zone_abbreviation}"
        f"   ( {ctime} UTC )"
    )


def goodbye_lines(*, contact: str) -> list[str]:
    """The farewell before the server closes the connection (§2.4)."""
    return [Text.GOODBYE.value, Text.GOODBYE_REPORT_BUGS.value, contact]


def guest_lines() -> list[str]:
    """What a guest sees after logging in (§2.5); the `> ` prompt follows."""
    return [
        Text.GUEST_WELCOME.value,
        Text.GUEST_PLEASE_REGISTER.value,
        "",
        Text.GUEST_HOWTO_1.value,
        Text.GUEST_HOWTO_2.value,
        Text.GUEST_HOWTO_3.value,
        Text.GUEST_HOWTO_4.value,
        Text.GUEST_HOWTO_5.value,
        Text.GUEST_HOWTO_6.value,
        Text.GUEST_HOWTO_7.value,
        Text.GUEST_HOWTO_8.value,
        "",
        Text.GUEST_ONE_USERNAME.value,
        "",
    ]


def resume_synopsis_lines(
    *, turn: str, match_length: int | None, names_and_scores: Sequence[tuple[str, int]]
) -> list[str]:
    """`turn: A.`, `match length: 5` (or `unlimited matchlength`), `points for A: 2` (§6.3).

    `match_length` None means an unlimited match.
    """
    lines = [render(Text.SYNOPSIS_TURN, name=turn)]
    if match_length is None:
        lines.append(Text.SYNOPSIS_UNLIMITED.value)
    else:
        lines.append(render(Text.SYNOPSIS_MATCH_LENGTH, length=match_length))
    lines += [render(Text.SYNOPSIS_POINTS, name=name, score=score) for name, score in names_and_scores]
    return lines


@attrs.frozen
class RatingChange:
    """One player's part of the rating calculation block."""

    name: str
    experience: int
    k: float
    change: float


def rating_calculation_lines(
    *, difference: float, match_length: int, probability_underdog: float, probability: float,
    winner: RatingChange, loser: RatingChange,
) -> list[str]:
    """The block a player with `toggle ratings` on sees before the match result (§6.9).

    The first player listed is the recipient's own side as FIBS prints it: winner first.
    """
    return [
        Text.RATING_CALCULATION.value,
        render(Text.RATING_DIFFERENCE, difference=difference),
        render(Text.RATING_MATCH_LENGTH, length=match_length),
        render(
            Text.RATING_EXPERIENCE, name=winner.name, experience=winner.experience,
            opponent=loser.name, opponent_experience=loser.experience,
        ),
        render(Text.RATING_UNDERDOG_PROBABILITY, probability=probability_underdog),
        render(Text.RATING_P, probability=probability),
        render(Text.RATING_K, name=winner.name, k=winner.k),
        render(Text.RATING_CHANGE_WINNER, name=winner.name, change=winner.change),
        render(Text.RATING_K, name=loser.name, k=loser.k),
        render(Text.RATING_CHANGE_LOSER, name=loser.name, change=loser.change),
        "",
    ]
