"""Conformance with the clients: the regexes real clients match on (reference §10), applied
to every line the codec produces over generated names and numbers.

The tables below are transcribed from §10: FIBS Cookie Monster (MacFIBS/BGO and its ports,
§10.1, an ordered first-match-wins table), Gibbon's lexer (§10.2), KBackgammon (§10.3),
MatchDog (§10.4) and GammonBot (§10.5). Each table is keyed by the message the client
means by it; a line must be recognised by every client regex of its intended message,
and by FCM as that message (or, where FCM has no cookie for it, as nothing else).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import wording
from protocol.ascii_board import render_ascii_board
from protocol.board import BoardLine
from protocol.messages import (
    Alert,
    BoardMessage,
    ClipMessage,
    Kibitzes,
    LoginNotice,
    LogoutNotice,
    Message,
    MessageDelivered,
    MessageSaved,
    MotdBegin,
    MotdEnd,
    OwnInfo,
    Says,
    Shouts,
    TextLine,
    Welcome,
    Whispers,
    WhoInfo,
    WhoInfoEnd,
    YouKibitz,
    YouSay,
    YouShout,
    YouWhisper,
    render_lines,
)
from protocol.wording import (
    LINE_FRAGMENTS,
    Text,
    banner_lines,
    goodbye_lines,
    guest_lines,
    render,
)
from tests.protocol.test_board import board_lines
from tests.protocol.test_messages import clip_messages
from tests.protocol.test_wording import command_section, field_values

T = Text
NAME = r"[a-zA-Z_<>]+"  # FCM's name class

# --- §10.1 FIBS Cookie Monster --------------------------------------------------------------
# Cookies are named after the message; where one FCM cookie stands for several of our
# sentences, they share its name. Order is FCM's: the first match wins.

FCM_NUMERIC: list[tuple[str, str]] = [
    ("WHO_INFO", r"^5 [^ ]+ - - [01]"),
    ("WHO_INFO", r"^5 [^ ]+ [^ ]+ - [01]"),
    ("WHO_INFO", r"^5 [^ ]+ - [^ ]+ [01]"),
    ("WHO_INFO_END", r"^6$"),
    ("LOGIN", rf"^7 {NAME} "),
    ("LOGOUT", rf"^8 {NAME} "),
    ("MESSAGE", rf"^9 {NAME} [0-9]+ "),
    ("MESSAGE_DELIVERED", rf"^10 {NAME}$"),
    ("MESSAGE_SAVED", rf"^11 {NAME}$"),
    ("SAYS", rf"^12 {NAME} "),
    ("SHOUTS", rf"^13 {NAME} "),
    ("WHISPERS", rf"^14 {NAME} "),
    ("KIBITZES", rf"^15 {NAME} "),
    ("YOU_SAY", rf"^16 {NAME} "),
    ("YOU_SHOUT", r"^17 "),
    ("YOU_WHISPER", r"^18 "),
    ("YOU_KIBITZ", r"^19 "),
    ("ALERT", rf"^20 {NAME} "),
]
FCM_LOGIN: list[tuple[str, str]] = [
    ("LOGIN_PROMPT", r"^login:"),
    ("WELCOME", rf"^1 {NAME} [0-9]+ "),
    ("OWN_INFO", rf"^2 {NAME} [01] [01]"),
    ("MOTD_BEGIN", r"^3"),
    ("FAILED_LOGIN", r"^> [0-9]+"),
]
FCM_ALPHA: list[tuple[str, str]] = [
    ("BOARD", rf"^board:{NAME}:{NAME}:[0-9:\-]+$"),
    ("YOU_ROLL", r"^You roll [1-6] and [1-6]"),
    ("ROLLS", rf"^{NAME} rolls [1-6] and [1-6]"),
    ("ROLL_OR_DOUBLE", r"^It's your turn to roll or double\."),
    ("ROLL_OR_DOUBLE", r"^It's your turn\. Please roll or double"),
    ("DOUBLES_ACCEPT_OR_REJECT", r"doubles\. Type 'accept' or 'reject'\."),
    ("DOUBLES", rf"^{NAME} doubles\."),
    ("PLEASE_MOVE", r"^Please move [1-4] pieces?\."),
    ("MOVES", rf"^{NAME} moves"),
    ("BEARING_OFF", r"^Bearing off:"),
    ("YOU_REJECT", r"^You reject\. The game continues\."),
    ("NOT_WATCHING_ANYMORE", r"You're not watching anymore\."),
    ("DROPS_GAME_SAVED", r"drops connection. The game was saved\."),
    ("LOGS_OUT_GAME_SAVED", r"logs out. The game was saved\."),
    ("ONLY_POSSIBLE_MOVE", r"^The only possible move is"),
    ("OPENING_ROLL", rf"{NAME} rolled [1-6].+rolled [1-6]"),
    ("MAKES_FIRST_MOVE", r" makes the first move\."),
    ("YOU_DOUBLE", r"^You double\. Please wait for "),
    ("WANTS_TO_RESIGN_YOU_WIN", rf"^{NAME} wants to resign\. You will win [0-9]+ points?\. Type 'accept' or 'reject'\."),
    ("WANTS_TO_RESIGN", rf"^{NAME} wants to resign\. "),
    ("YOU_WANT_TO_RESIGN", r"^You want to resign\."),
    ("RESUMED_MATCH_LOADED", rf"^You are now playing with {NAME}\. Your running match was loaded\."),
    ("TYPE_JOIN_NEXT_GAME", r"^Type 'join' if you want to play the next game, type 'leave' if you don't\."),
    ("WANTS_TO_PLAY_MATCH", rf"^{NAME} wants to play a [0-9]+ point match with you\."),
    ("SAVED_MATCH_WARNING", r"^WARNING: Don't accept if you want to continue"),
    ("REJECTS", r"rejects\. The game continues\."),
    ("MATCH_LENGTH", r"^match length:"),
    ("TYPE_JOIN_TO_ACCEPT", rf"^Type 'join {NAME}' to accept\."),
    ("NOW_WATCHING", r"^You're now watching "),
    ("YOU_STOP_WATCHING", r"^You stop watching "),
    ("STARTS_WATCHING", rf"{NAME} starts watching {NAME}\."),
    ("IS_WATCHING_YOU", rf"{NAME} is watching you\."),
    ("STOPS_WATCHING", rf"{NAME} stops watching {NAME}\."),
    ("GIVES_UP", rf"^{NAME} gives up\. {NAME} wins [0-9]+ points?\."),
    ("GIVES_UP_YOU_WIN", rf"^{NAME} gives up\. You win [0-9]+ points?\."),
    ("YOU_ACCEPT_AND_WIN", r"^You accept and win [0-9]+"),
    ("ACCEPTS_AND_WINS", rf"^{NAME} accepts and wins [0-9]+ point"),
    ("START_MATCH", rf"^{NAME} and {NAME} start a [0-9]+ point match"),
    ("STARTING_NEW_GAME", r"^Starting a new game with "),
    ("YOU_GIVE_UP", r"^You give up\. "),
    ("YOU_WIN_MATCH", r"^You win the [0-9]+ point match"),
    ("WINS_MATCH", rf"^{NAME} wins the [0-9]+ point match"),
    ("RESUMING_UNLIMITED", rf"^{NAME} and {NAME} are resuming their unlimited match\."),
    ("RESUMING_MATCH", rf"^{NAME} and {NAME} are resuming their [0-9]+-point match\."),
    ("REPORT_WINS_MATCH", rf"^{NAME} wins a [0-9]+ point match against "),
    ("YOU_ACCEPT_DOUBLE", r"^You accept the double\. The cube shows"),
    ("ACCEPTS_DOUBLE_CUBE", rf"^{NAME} accepts the double\. The cube shows "),
    ("ACCEPTS_DOUBLE", rf"^{NAME} accepts the double\."),
    ("WANTS_TO_RESUME", rf"^{NAME} wants to resume a saved match with you\."),
    ("JOINED_MATCH_LOADED", r"has joined you\. Your running match was loaded"),
    ("YOU_WIN_GAME", r"^You win the game and get"),
    ("WANTS_TO_PLAY_UNLIMITED", rf"^{NAME} wants to play an unlimited match with you\."),
    ("WINS_GAME_SORRY", rf"^{NAME} wins the game and gets [0-9]+ points?. Sorry."),
    ("WINS_GAME", rf"^{NAME} wins the game and gets [0-9]+ points?."),
    ("START_UNLIMITED", r"start an unlimited match\."),
    ("SHOW_GAMES_ROW", rf"^{NAME} +- +{NAME} .+ point match"),
    ("OLDMOVES_COLOURS", rf"^{NAME} is X - {NAME} is O"),
    ("OLDMOVES_PLAY", r"^[XO]: \([1-6]"),
    ("OLDMOVES_WINS", r"^[XO]: wins"),
    ("OLDMOVES_DOUBLES", r"^[XO]: doubles"),
    ("OLDMOVES_ACCEPTS", r"^[XO]: accepts"),
    ("OLDMOVES_REJECTS", r"^[XO]: rejects"),
    ("OLDMOVES_WANTS_TO_RESIGN", r"^[XO]: wants to resign"),
    ("SCORE_IN_MATCH", r"^score in [0-9]+ point match:"),
    ("SCORE_IN_UNLIMITED", r"^score in unlimited match:"),
    ("OLDMOVES_SCORE", r"^Score is [0-9]+-[0-9]+ in a [0-9]+ point match\."),
    ("TURN", r"^turn:"),
    ("CANT_MOVE", rf"^{NAME} can't move"),
    ("CUBE_IS_NOW", r"^The number on the doubling cube is now [0-9]+"),
    ("JOINED_YOU_UNLIMITED", rf"^Player {NAME} has joined you for an unlimited match\."),
    ("NETWORK_ERROR", r"^Network error with"),
    ("PIPCOUNTS", r"^Pipcounts: "),
    ("SAY_TO_YOURSELF", r"^You say to yourself:"),
    # the info/settings table (only the entries for sentences of this section)
    ("WAVES_GOODBYE_AGAIN", rf"^{NAME} waves goodbye again\."),
    ("WAVES_GOODBYE", r"waves goodbye"),
    ("WAVE_GOODBYE", r"^You wave goodbye\."),
    ("WAVE_GOODBYE_AGAIN", r"^You wave goodbye again and log out\."),
    ("AWAY", r"^You're away\. Please type 'back'"),
    ("WAITING_FOR_YOU", rf"^{NAME} is waiting for you to log in\."),
    ("IS_AWAY", rf"^{NAME} is away: "),
    ("CLOSED_OLD_CONNECTION", r"^Closed old connection with user"),
    ("DONE", r"^Done\."),
    ("YOUR_TURN_TO_MOVE", r"^It's your turn to move\."),
    ("MESSAGES_FOR_YOU", r"^There are messages for you:"),
    ("RATING", r"^rating calculation:"),
    ("RATING", r"^Probability that underdog wins:"),
    ("RATING", r"is 1-Pu if underdog wins"),
    ("RATING", r"^Experience: "),
    ("RATING", r"^K=max\(1"),
    ("RATING", r"^rating difference"),
    ("RATING", r"^change for"),
    ("RATING", r"^match length  "),
    ("AWAY_LIST_HEADER", r"^The following users are away:"),
    ("NOBODY_AWAY", r"^None of the users is away\."),
    ("CONNECTION_TIMED_OUT", r"^Connection timed out\."),
    ("GOODBYE", r"           Goodbye\."),
    ("WELCOME_BACK", r"^Welcome back"),
    # guest registration table
    ("GUEST_PROMPT", r"^> "),
    ("NAME_ALREADY_USED", r"^\*\* Please use another name"),
    ("NAME_INVALID", r"^\*\* Your name may only contain"),
    ("EMPTY_PASSWORD_HINT", r"^Type in no password and hit"),
    ("GIVE_PASSWORD", r"Please give your password"),
    ("PASSWORD_TOO_SHORT", r"^Minimal password length is"),
    ("RETYPE_PASSWORD", r"^Please retype your password"),
    ("REGISTERED", r"^You are registered"),
]
FCM_STARS: list[tuple[str, str]] = [
    ("USER_AUTHENTICATED", r"^\*\* User"),
    ("YOU_TELL", r"^\*\* You tell "),
    ("YOU_GAG", r"^\*\* You gag"),
    ("YOU_UNGAG", r"^\*\* You ungag"),
    ("YOU_BLIND", r"^\*\* You blind"),
    ("YOU_UNBLIND", r"^\*\* You unblind"),
    ("NOW_PLAYING_UNLIMITED", r"^\*\* You are now playing an unlimited match with "),
    ("NOW_PLAYING_MATCH", r"^\*\* You are now playing a [0-9]+ point match with "),
    ("JOINED_YOU_MATCH", rf"^\*\* Player {NAME} has joined you for a"),
    ("YOU_TERMINATED_GAME", r"^\*\* You terminated the game"),
    ("NO_ONE_TO_LEAVE", r"^\*\* Error: No one to leave"),
    ("PLAYER_LEFT_GAME", rf"^\*\* Player {NAME} has left the game. The game was saved\."),
    ("PLAYER_LEFT_GAME", r"has left the game\."),
    ("YOU_INVITED", r"^\*\* You invited"),
    ("LAST_LOGIN", r"^\*\* Last login:"),
    ("NO_ONE_CALLED", r"^\*\* There is no one called"),
    ("REFUSING_GAMES", rf"^\*\* {NAME} is refusing games\."),
    ("NOT_WATCHING", r"^\*\* You're not watching\."),
    ("NOT_WATCHING_OR_PLAYING", r"^\*\* You're not watching or playing\."),
    ("NOT_PLAYING_OR_WATCHING", r"^\*\* You're not playing or watching\."),
    ("NOT_PLAYING", r"^\*\* You're not playing\."),
    ("NOT_PLAYING_CANT_GIVE_UP", r"^\*\* You're not playing, so you can't give up\."),
    ("DIDNT_DOUBLE_OR_RESIGN", rf"^\*\* {NAME} didn't double or resign\."),
    ("NO_USER_CALLED", r"^\*\* There is no user called "),
    ("ALREADY_PLAYING_WITH", r"is already playing with"),
    ("DIDNT_INVITE_YOU", rf"^\*\* {NAME} didn't invite you."),
    ("CANT_REMOVE_PIECE", r"^\*\* You can't remove this piece"),
    ("CANT_MOVE_ERROR", r"^\*\* You can't move "),
    ("SILENT_SHOUT", r"^\*\* Please type 'toggle silent' again before you shout\."),
    ("MUST_GIVE_MOVES", r"^\*\* You must give [1-4] moves"),
    ("TOO_MANY_MOVES", r"^\*\* Please don't give more than [1-4] moves\."),
    ("MUST_ENTER_FROM_BAR", r"^\*\* You have to remove pieces from the bar in your first move\."),
    ("USERS_HEARD_YOU", r"^\*\* [0-9]+ users? heard you\."),
    ("WAIT_FOR_JOIN", rf"^\*\* Please wait for {NAME} to join too\."),
    ("NOT_YOUR_TURN_TO_ROLL", r"^\*\* It's not your turn to roll the dice\."),
    ("NOT_YOUR_TURN_TO_MOVE", r"^\*\* It's not your turn to move\."),
    ("NOT_YOUR_TURN_TO_DOUBLE", r"^\*\* It's not your turn to double"),
    ("ROLL_BEFORE_MOVING", r"^\*\* You have to roll the dice before moving\."),
    ("MOVE_BAD_WORD", r"legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'\."),
    ("YOU_STOP_WATCHING_OLD", r"^\*\* You stop watching"),
    ("UNKNOWN_COMMAND", r"^\*\* Unknown command:"),
    ("CANT_WATCH_WHILE_PLAYING", r"^\*\* You can't watch another game while you're playing\."),
    ("WATCH_WHO", r"^\*\* Watch who?"),
    ("USE_A_MIRROR", r"^\*\* Use a mirror to do that\."),
    ("INVITE_SELF", r"^\*\* You can't invite yourself\."),
    ("DONT_KNOW_USER", r"^\*\* Don't know user"),
    ("MESSAGE_USAGE", r"^\*\* usage: message <user> <text>"),
    ("IS_NOT_PLAYING", rf"^\*\* {NAME} is not playing\."),
    ("CANT_TALK_IF_WONT_LISTEN", r"^\*\* You can't talk if you won't listen\."),
    ("WONT_LISTEN", rf"^\*\* {NAME} won't listen to you\."),
    ("NO_SAVED_MATCH", r"^\*\* There's no saved match with "),
    ("GAG_SELF", r"^\*\* You talk too much, don't you\?"),
    ("BLIND_SELF", r"^\*\* You can't read this message now, can you\?"),
    ("SHOUTING_DISABLED", r"^\*\* shouting has been disabled for you"),
    ("JOIN_WHO", r"^\*\* Error: Join who\?"),
    ("SAVED_MATCH_CORRUPT", r"^\*\* ERROR: Saved match is corrupt\."),
    ("TWO_GAMES_AT_ONCE", r"^\*\* You can't play two games at once"),
    ("INVITE_WHO", r"^\*\* invite who"),
    ("WAIT_FOR_LAST_INVITATION", r"^\*\* Please wait for your last invitation to be accepted\."),
    ("NOT_EXPERIENCED_ENOUGH", r"^\*\* You're not experienced enough to play a match of that length\."),
    ("YOU_ARE_ALREADY_PLAYING", r"^\*\* You are already playing\."),
    ("ALREADY_DID_THAT", r"^\*\* You already did that\."),
    ("ALREADY_ROLLED", r"^\*\* You did already roll the dice\."),
    ("DOUBLE_BEFORE_ROLLING", r"^\*\* You can only double before you roll the dice\."),
    ("PIP_NOT_ALLOWED", rf"^\*\* {NAME} doesn't allow this. Ask {NAME} to 'toggle allowpip'"),
    ("PIP_TOGGLE_FIRST", r"^\*\* Type 'toggle allowpip' first\."),
    ("PLAYERS_DONT_ALLOW_PIP", r"^\*\* The players don't allow pipcounts\."),
    ("WANTED_TO_RESIGN", rf"^\*\* {NAME} wanted to resign. Type 'accept' or 'reject'\."),
    ("DOESNT_WANT_YOU_TO_WATCH", rf"^\*\* {NAME} doesn't want you to watch\."),
    ("NO_NEW_GAMES_ALLOWED", r"\*\* You are not allowed to create new games\."),
    ("NAME_ALREADY_USED", r"^\*\* Please use another name"),
    ("NAME_INVALID", r"^\*\* Your name may only contain"),
    ("PASSWORDS_NOT_IDENTICAL", r"^\*\* The two passwords were not identical"),
    ("NOT_AWAY", r"^\*\* You're not away"),
]
_FCM_COMPILED = {
    "login": [(cookie, re.compile(regex)) for cookie, regex in FCM_LOGIN],
    "numeric": [(cookie, re.compile(regex)) for cookie, regex in FCM_NUMERIC],
    "stars": [(cookie, re.compile(regex)) for cookie, regex in FCM_STARS],
    "alpha": [(cookie, re.compile(regex)) for cookie, regex in FCM_ALPHA],
}


def fcm_cookie(line: str, *, logging_in: bool = False) -> str | None:
    """FCM's classification: before the MOTD its login table; then dispatch on the first
    character (digit, `*`, other) to one table, where the first match wins."""
    if logging_in:
        for cookie, regex in _FCM_COMPILED["login"]:
            if regex.search(line):
                return cookie
    table = "numeric" if line[:1].isdigit() else "stars" if line[:1] == "*" else "alpha"
    for cookie, regex in _FCM_COMPILED[table]:
        if regex.search(line):
            return cookie
    return None


# The FCM cookie each sentence of this section must get; a sentence not listed must get
# none (FCM would otherwise misread it as something else).
FCM_EXPECTED: dict[Text, str] = {
    T.YOU_ROLL: "YOU_ROLL", T.ROLLS: "ROLLS", T.YOUR_TURN_ROLL_OR_DOUBLE: "ROLL_OR_DOUBLE",
    T.DOUBLES_ACCEPT_OR_REJECT: "DOUBLES_ACCEPT_OR_REJECT", T.DOUBLES: "DOUBLES",
    # FCM knows no instant redoubles: the offer reads as a plain double.
    T.DOUBLES_ACCEPT_REJECT_OR_REDOUBLE: "DOUBLES",
    T.PLEASE_MOVE: "PLEASE_MOVE", T.MOVES: "MOVES", T.BEARING_OFF: "BEARING_OFF",
    T.YOU_REJECT: "YOU_REJECT", T.WATCHED_LOGS_OUT: "NOT_WATCHING_ANYMORE",
    T.WATCHED_DROPS_CONNECTION: "NOT_WATCHING_ANYMORE", T.WATCHED_TIMED_OUT: "NOT_WATCHING_ANYMORE",
    T.DROPS_CONNECTION_GAME_SAVED: "DROPS_GAME_SAVED", T.LOGS_OUT_GAME_SAVED: "LOGS_OUT_GAME_SAVED",
    T.ONLY_POSSIBLE_MOVE: "ONLY_POSSIBLE_MOVE", T.YOU_ROLLED_OPENING: "OPENING_ROLL",
    T.ROLLED_OPENING: "OPENING_ROLL", T.MAKES_FIRST_MOVE: "MAKES_FIRST_MOVE",
    T.YOU_DOUBLE: "YOU_DOUBLE", T.YOU_DOUBLE_REDOUBLE_ALLOWED: "YOU_DOUBLE",
    T.WANTS_TO_RESIGN_YOU_WIN: "WANTS_TO_RESIGN_YOU_WIN", T.WANTS_TO_RESIGN: "WANTS_TO_RESIGN",
    T.YOU_WANT_TO_RESIGN: "YOU_WANT_TO_RESIGN", T.RESUMED_MATCH_LOADED: "RESUMED_MATCH_LOADED",
    T.TYPE_JOIN_NEXT_GAME: "TYPE_JOIN_NEXT_GAME", T.WANTS_TO_PLAY_MATCH: "WANTS_TO_PLAY_MATCH",
    T.SAVED_MATCH_WARNING: "SAVED_MATCH_WARNING", T.SAVED_UNLIMITED_WARNING: "SAVED_MATCH_WARNING",
    T.REJECTS: "REJECTS", T.SYNOPSIS_MATCH_LENGTH: "MATCH_LENGTH",
    T.TYPE_JOIN_TO_ACCEPT: "TYPE_JOIN_TO_ACCEPT", T.NOW_WATCHING: "NOW_WATCHING",
    T.YOU_STOP_WATCHING: "YOU_STOP_WATCHING", T.STARTS_WATCHING: "STARTS_WATCHING",
    T.IS_WATCHING_YOU: "IS_WATCHING_YOU", T.STOPS_WATCHING: "STOPS_WATCHING",
    # "NAME stops watching you." is FCM's "stops watching" with "you" as the name.
    T.STOPS_WATCHING_YOU: "STOPS_WATCHING",
    T.GIVES_UP: "GIVES_UP", T.GIVES_UP_YOU_WIN: "GIVES_UP_YOU_WIN",
    T.YOU_ACCEPT_AND_WIN: "YOU_ACCEPT_AND_WIN", T.ACCEPTS_AND_WINS: "ACCEPTS_AND_WINS",
    T.START_MATCH: "START_MATCH", T.STARTING_NEW_GAME: "STARTING_NEW_GAME",
    T.YOU_GIVE_UP: "YOU_GIVE_UP", T.YOU_WIN_MATCH: "YOU_WIN_MATCH", T.WINS_MATCH: "WINS_MATCH",
    T.RESUMING_UNLIMITED: "RESUMING_UNLIMITED", T.RESUMING_MATCH: "RESUMING_MATCH",
    T.REPORT_WINS_MATCH: "REPORT_WINS_MATCH", T.YOU_ACCEPT_DOUBLE: "YOU_ACCEPT_DOUBLE",
    T.ACCEPTS_DOUBLE_CUBE: "ACCEPTS_DOUBLE_CUBE", T.ACCEPTS_DOUBLE: "ACCEPTS_DOUBLE",
    T.WANTS_TO_RESUME: "WANTS_TO_RESUME", T.JOINED_MATCH_LOADED: "JOINED_MATCH_LOADED",
    T.YOU_WIN_GAME: "YOU_WIN_GAME", T.WANTS_TO_PLAY_UNLIMITED: "WANTS_TO_PLAY_UNLIMITED",
    T.WINS_GAME_SORRY: "WINS_GAME_SORRY", T.WINS_GAME: "WINS_GAME",
    T.START_UNLIMITED: "START_UNLIMITED", T.OLDMOVES_COLOURS: "OLDMOVES_COLOURS",
    T.OLDMOVES_PLAY: "OLDMOVES_PLAY", T.OLDMOVES_CANT_MOVE: "OLDMOVES_PLAY",
    T.OLDMOVES_WINS: "OLDMOVES_WINS", T.OLDMOVES_DOUBLES: "OLDMOVES_DOUBLES",
    T.OLDMOVES_ACCEPTS: "OLDMOVES_ACCEPTS", T.OLDMOVES_REJECTS: "OLDMOVES_REJECTS",
    T.OLDMOVES_WANTS_TO_RESIGN: "OLDMOVES_WANTS_TO_RESIGN", T.SCORE_IN_MATCH: "SCORE_IN_MATCH",
    T.SCORE_IN_UNLIMITED: "SCORE_IN_UNLIMITED", T.OLDMOVES_SCORE: "OLDMOVES_SCORE",
    T.SYNOPSIS_TURN: "TURN", T.CANT_MOVE: "CANT_MOVE",
    # FCM reads "You can't move." as the player "You" who can't move.
    T.YOU_CANT_MOVE: "CANT_MOVE",
    T.CUBE_IS_NOW: "CUBE_IS_NOW", T.JOINED_YOU_UNLIMITED: "JOINED_YOU_UNLIMITED",
    T.NETWORK_ERROR_GAME_SAVED: "NETWORK_ERROR", T.PIPCOUNTS: "PIPCOUNTS",
    T.PIPCOUNTS_WATCHING: "PIPCOUNTS", T.SAY_TO_YOURSELF: "SAY_TO_YOURSELF",
    T.WAVES_GOODBYE_AGAIN: "WAVES_GOODBYE_AGAIN", T.WAVES_GOODBYE: "WAVES_GOODBYE",
    T.WAVE_GOODBYE: "WAVE_GOODBYE", T.WAVE_GOODBYE_AGAIN: "WAVE_GOODBYE_AGAIN",
    T.AWAY: "AWAY", T.IS_AWAY: "IS_AWAY", T.CLOSED_OLD_CONNECTION: "CLOSED_OLD_CONNECTION",
    T.CLOSED_OLD_CONNECTION_GAME_SAVED: "CLOSED_OLD_CONNECTION", T.DONE: "DONE",
    T.YOUR_TURN_TO_MOVE: "YOUR_TURN_TO_MOVE", T.MESSAGES_FOR_YOU: "MESSAGES_FOR_YOU",
    T.RATING_CALCULATION: "RATING", T.RATING_UNDERDOG_PROBABILITY: "RATING",
    T.RATING_P: "RATING", T.RATING_EXPERIENCE: "RATING", T.RATING_K: "RATING",
    T.RATING_DIFFERENCE: "RATING", T.RATING_CHANGE_WINNER: "RATING",
    T.RATING_CHANGE_LOSER: "RATING", T.RATING_MATCH_LENGTH: "RATING",
    T.AWAY_LIST_HEADER: "AWAY_LIST_HEADER", T.NOBODY_AWAY: "NOBODY_AWAY",
    T.CONNECTION_TIMED_OUT: "CONNECTION_TIMED_OUT", T.GOODBYE: "GOODBYE",
    T.WELCOME_BACK: "WELCOME_BACK", T.COMMAND_PROMPT: "GUEST_PROMPT",
    T.NAME_ALREADY_USED: "NAME_ALREADY_USED", T.EMPTY_PASSWORD_HINT: "EMPTY_PASSWORD_HINT",
    T.GIVE_PASSWORD_PROMPT: "GIVE_PASSWORD", T.PASSWORD_TOO_SHORT: "PASSWORD_TOO_SHORT",
    T.RETYPE_PASSWORD_PROMPT: "RETYPE_PASSWORD", T.REGISTERED: "REGISTERED",
    T.LOGIN_PROMPT: "LOGIN_PROMPT",
    # stars
    T.USER_AUTHENTICATED: "USER_AUTHENTICATED", T.YOU_TELL: "YOU_TELL", T.YOU_GAG: "YOU_GAG",
    T.YOU_UNGAG: "YOU_UNGAG", T.YOU_BLIND: "YOU_BLIND", T.YOU_UNBLIND: "YOU_UNBLIND",
    T.NOW_PLAYING_UNLIMITED: "NOW_PLAYING_UNLIMITED", T.NOW_PLAYING_MATCH: "NOW_PLAYING_MATCH",
    T.JOINED_YOU_MATCH: "JOINED_YOU_MATCH", T.YOU_TERMINATED_GAME: "YOU_TERMINATED_GAME",
    T.NO_ONE_TO_LEAVE: "NO_ONE_TO_LEAVE", T.PLAYER_LEFT_GAME: "PLAYER_LEFT_GAME",
    T.YOU_INVITED_MATCH: "YOU_INVITED", T.YOU_INVITED_UNLIMITED: "YOU_INVITED",
    T.YOU_INVITED_RESUME: "YOU_INVITED", T.LAST_LOGIN: "LAST_LOGIN",
    T.NO_ONE_CALLED: "NO_ONE_CALLED", T.NO_ONE_CALLED_QUOTED: "NO_ONE_CALLED",
    T.REFUSING_GAMES: "REFUSING_GAMES", T.NOT_WATCHING: "NOT_WATCHING",
    T.NOT_WATCHING_OR_PLAYING: "NOT_WATCHING_OR_PLAYING",
    T.NOT_PLAYING_OR_WATCHING: "NOT_PLAYING_OR_WATCHING", T.NOT_PLAYING: "NOT_PLAYING",
    T.NOT_PLAYING_CANT_GIVE_UP: "NOT_PLAYING_CANT_GIVE_UP",
    T.DIDNT_DOUBLE_OR_RESIGN: "DIDNT_DOUBLE_OR_RESIGN", T.NO_USER_CALLED: "NO_USER_CALLED",
    T.ALREADY_PLAYING_WITH_SOMEONE: "ALREADY_PLAYING_WITH",
    T.JOIN_ALREADY_PLAYING: "ALREADY_PLAYING_WITH", T.DIDNT_INVITE_YOU: "DIDNT_INVITE_YOU",
    T.CANT_REMOVE_PIECE: "CANT_REMOVE_PIECE", T.CANT_MOVE_FROM: "CANT_MOVE_ERROR",
    T.CANT_MOVE_DISTANCE: "CANT_MOVE_ERROR", T.CANT_MOVE_TO: "CANT_MOVE_ERROR",
    T.CANT_MOVE_HOME: "CANT_MOVE_ERROR", T.CANT_MOVE_POINT_HOME: "CANT_MOVE_ERROR",
    T.SILENT_SHOUT: "SILENT_SHOUT", T.USERS_HEARD_YOU: "USERS_HEARD_YOU",
    T.WAIT_FOR_JOIN: "WAIT_FOR_JOIN", T.NOT_YOUR_TURN_TO_ROLL: "NOT_YOUR_TURN_TO_ROLL",
    T.NOT_YOUR_TURN_TO_MOVE: "NOT_YOUR_TURN_TO_MOVE",
    T.NOT_YOUR_TURN_TO_DOUBLE: "NOT_YOUR_TURN_TO_DOUBLE",
    T.ROLL_BEFORE_MOVING: "ROLL_BEFORE_MOVING", T.YOU_STOP_WATCHING_OLD: "YOU_STOP_WATCHING_OLD",
    T.CANT_WATCH_WHILE_PLAYING: "CANT_WATCH_WHILE_PLAYING", T.USE_A_MIRROR: "USE_A_MIRROR",
    T.INVITE_SELF: "INVITE_SELF", T.DONT_KNOW_USER: "DONT_KNOW_USER",
    T.IS_NOT_PLAYING: "IS_NOT_PLAYING", T.CANT_TALK_IF_WONT_LISTEN: "CANT_TALK_IF_WONT_LISTEN",
    T.WONT_LISTEN: "WONT_LISTEN", T.NO_SAVED_MATCH_GIVE_LENGTH: "NO_SAVED_MATCH",
    T.NO_SAVED_MATCH_WITH_PLAYER: "NO_SAVED_MATCH", T.GAG_SELF: "GAG_SELF",
    T.BLIND_SELF: "BLIND_SELF", T.SHOUTING_DISABLED: "SHOUTING_DISABLED", T.JOIN_WHO: "JOIN_WHO",
    T.SAVED_MATCH_CORRUPT: "SAVED_MATCH_CORRUPT", T.TWO_GAMES_AT_ONCE: "TWO_GAMES_AT_ONCE",
    T.WAIT_FOR_LAST_INVITATION: "WAIT_FOR_LAST_INVITATION",
    T.NOT_EXPERIENCED_ENOUGH: "NOT_EXPERIENCED_ENOUGH",
    T.YOU_ARE_ALREADY_PLAYING: "YOU_ARE_ALREADY_PLAYING", T.ALREADY_DID_THAT: "ALREADY_DID_THAT",
    T.ALREADY_ROLLED: "ALREADY_ROLLED", T.DOUBLE_BEFORE_ROLLING: "DOUBLE_BEFORE_ROLLING",
    T.PIP_NOT_ALLOWED: "PIP_NOT_ALLOWED", T.PIP_TOGGLE_FIRST: "PIP_TOGGLE_FIRST",
    T.PLAYERS_DONT_ALLOW_PIP: "PLAYERS_DONT_ALLOW_PIP", T.WANTED_TO_RESIGN: "WANTED_TO_RESIGN",
    T.DOESNT_WANT_YOU_TO_WATCH: "DOESNT_WANT_YOU_TO_WATCH",
    T.NO_NEW_GAMES_ALLOWED: "NO_NEW_GAMES_ALLOWED",
    T.PASSWORDS_NOT_IDENTICAL_PROMPT: "PASSWORDS_NOT_IDENTICAL", T.NOT_AWAY: "NOT_AWAY",
    T.MUST_GIVE_MOVES: "MUST_GIVE_MOVES", T.TOO_MANY_MOVES: "TOO_MANY_MOVES",
}
# FCM's regex says "first move"; for the later ordinals FCM has no cookie at all.
FCM_ORDINAL_DEPENDENT = {T.MUST_ENTER_FROM_BAR: "MUST_ENTER_FROM_BAR"}


OWN_LINES = sorted(set(Text) - LINE_FRAGMENTS - command_section(), key=lambda text: text.name)


# Values as the server produces them (the wording tests use any numbers).
REALISTIC: dict[str, st.SearchStrategy[object]] = {
    "die": st.integers(1, 6), "opponent_die": st.integers(1, 6), "die1": st.integers(1, 6),
    "die2": st.integers(1, 6), "n": st.integers(1, 4), "cube": st.sampled_from([2, 4, 8, 16, 64]),
    "length": st.integers(1, 99), "score": st.integers(0, 99), "opponent_score": st.integers(0, 99),
    "points": st.builds(wording.count_phrase, st.integers(1, 192), st.just("point")),
    "users": st.builds(wording.count_phrase, st.integers(1, 500), st.just("user")),
    "toggle": st.sampled_from(["allowpip", "autoboard", "ready", "wrap"]),
}


@st.composite
def own_text_lines(draw: st.DrawFn, texts: list[Text] = OWN_LINES) -> tuple[Text, str]:
    text = draw(st.sampled_from(texts))
    fields: dict[str, object] = dict(draw(field_values(text)))
    for name in fields:
        if name in REALISTIC:
            fields[name] = draw(REALISTIC[name])
    if "ordinal" in fields and text in FCM_ORDINAL_DEPENDENT:
        fields["ordinal"] = draw(st.sampled_from(["first", "second"]))
    return text, render(text, **fields)


@settings(max_examples=700, deadline=None)
@given(own_text_lines())
def test_fcm_classifies_every_sentence_as_the_intended_message(case: tuple[Text, str]) -> None:
    text, line = case
    cookie = fcm_cookie(line, logging_in=text is T.LOGIN_PROMPT)
    if text in FCM_ORDINAL_DEPENDENT:
        expected = FCM_ORDINAL_DEPENDENT[text] if " first move" in line else None
    else:
        expected = FCM_EXPECTED.get(text)
    assert cookie == expected, (text.name, line, cookie)


def test_fcm_expectations_name_only_real_cookies() -> None:
    cookies = {cookie for table in _FCM_COMPILED.values() for cookie, _ in table}
    assert set(FCM_EXPECTED.values()) <= cookies
    assert set(FCM_EXPECTED) <= set(OWN_LINES) | command_section()


# --- §10.2-10.5: Gibbon, KBackgammon, MatchDog, GammonBot --------------------------------------
# Per sentence: (client, regex); each must be found in the rendered line (re.search).

USER = r"[^-.:, \t]+"  # Gibbon's lexer
N = r"-?[0-9]+"
W = r"\w+"  # Perl, GammonBot
GAME_SAVED = [("KBackgammon", r"The game was saved\.$")]

CLIENTS: dict[Text, list[tuple[str, str]]] = {
    T.YOU_ROLL: [("Gibbon", rf"^{USER} rolls? {N} and {N}"), ("MatchDog", r"^You roll "),
                 ("GammonBot", r"You roll (\d+) and (\d+).")],
    T.ROLLS: [("Gibbon", rf"^{USER} rolls? {N} and {N}"), ("GammonBot", rf"{W} rolls (\d+) and (\d+).")],
    T.MOVES: [("Gibbon", rf"^{USER} moves? (?:(?:off|bar|[0-9]+)-(?:off|bar|[0-9]+) ?){{1,4}}"),
              ("GammonBot", rf"{W} moves (.*)\.")],
    T.STARTING_NEW_GAME: [("Gibbon", rf"^Starting a new game with {USER}"),
                          ("KBackgammon", r"^Starting a new game with "),
                          ("GammonBot", r"Starting a new game with ")],
    T.LOGS_OUT_GAME_SAVED: [("Gibbon", rf"^{USER} logs out\. The game was saved"), *GAME_SAVED],
    T.DROPS_CONNECTION_GAME_SAVED: [("Gibbon", rf"^{USER} drops connection\. The game was saved"), *GAME_SAVED],
    T.TIMED_OUT_GAME_SAVED: [("Gibbon", rf"^Connection with {USER} timed out\. The game was saved"), *GAME_SAVED],
    T.NETWORK_ERROR_GAME_SAVED: [("MatchDog", r"Network error with"), *GAME_SAVED],
    T.CLOSED_OLD_CONNECTION_GAME_SAVED: [("MatchDog", r"Closed old connection with user "), *GAME_SAVED],
    T.YOU_TERMINATED_GAME: [("MatchDog", r"\*\* You terminated the game"), *GAME_SAVED],
    T.PLAYER_LEFT_GAME: [("MatchDog", r"\*\* Player \w+ has left the game\."), *GAME_SAVED],
    T.CANT_MOVE: [("Gibbon", rf"^{USER} can't move"), ("MatchDog", r"can't move"),
                  ("GammonBot", rf"^{W} can't move\.")],
    T.YOU_CANT_MOVE: [("MatchDog", r"You can't move")],
    T.YOU_DOUBLE: [("Gibbon", rf"^You double\. Please wait for {USER} to accept or reject"),
                   ("MatchDog", r"You double\.")],
    T.DOUBLES_ACCEPT_OR_REJECT: [("Gibbon", rf"^{USER} doubles\. Type 'accept' or 'reject'"),
                                 ("KBackgammon", r"Type 'accept' or 'reject'\.$"),
                                 ("GammonBot", rf"^{W} doubles\.")],
    T.DOUBLES: [("GammonBot", rf"^{W} doubles\.")],
    T.REDOUBLES_TO: [("GammonBot", rf"^{W} redoubles to \d+\.")],
    T.REDOUBLES_TO_LAST: [("GammonBot", rf"^{W} redoubles to \d+\."),
                          ("KBackgammon", r"Type 'accept' or 'reject'\.$")],
    T.YOU_ACCEPT_DOUBLE: [("Gibbon", rf"^{USER} accepts? the double\. The cube shows {N}"),
                          ("KBackgammon", r"^You accept the double\. The cube shows [0-9]+\."),
                          ("MatchDog", r"You accept the double\.")],
    T.ACCEPTS_DOUBLE_CUBE: [("Gibbon", rf"^{USER} accepts? the double\. The cube shows {N}"),
                            ("MatchDog", r"\w+ accepts")],
    T.WANTS_TO_PLAY_MATCH: [("Gibbon", rf"^{USER} wants to play a {N} point match with you"),
                            ("KBackgammon", r" wants to play a [0-9]+ point match with you\.$"),
                            ("MatchDog", r"wants to play a"),
                            ("GammonBot", r"^(\w+) wants to play a (\d+) point match with you.")],
    T.WANTS_TO_PLAY_UNLIMITED: [("Gibbon", rf"^{USER} wants to play an unlimited match with you"),
                                ("KBackgammon", r" wants to play an unlimited match with you\.$"),
                                ("GammonBot", r"^(\w+) wants to play an unlimited match with you.")],
    T.WANTS_TO_RESUME: [("Gibbon", rf"^{USER} wants to resume a saved match with you"),
                        ("KBackgammon", r" wants to resume a saved match with you\.$"),
                        ("MatchDog", r"wants to resume a saved match with you"),
                        ("GammonBot", r"^(\w+) wants to resume a saved match with you.")],
    T.SAVED_MATCH_WARNING: [("GammonBot", r"^WARNING: Don't accept if (.*) point match!")],
    T.TYPE_JOIN_TO_ACCEPT: [("Gibbon", rf"^Type 'join {USER}' to accept"), ("KBackgammon", r"^Type 'join ")],
    T.NOW_WATCHING: [("Gibbon", rf"^You're now watching {USER}"), ("KBackgammon", r"^You're now watching ")],
    T.NOW_PLAYING_MATCH: [("Gibbon", rf"^\*\* You are now playing a {N} point match with {USER}"),
                          ("KBackgammon", r"^\*\* You are now playing a [0-9]+ point match with "),
                          ("MatchDog", r"\*\* You are now playing a "),
                          ("GammonBot", r"^\*\* You are now playing a (\d+) point match with (\w+)")],
    T.NOW_PLAYING_UNLIMITED: [("Gibbon", rf"^\*\* You are now playing an unlimited match with {USER}"),
                              ("KBackgammon", r"^\*\* You are now playing an unlimited match with "),
                              ("MatchDog", r"You are now playing")],
    T.REFUSING_GAMES: [("Gibbon", rf"^\*\* {USER} is refusing games")],
    T.JOIN_ALREADY_PLAYING: [("Gibbon", rf"^\*\* Error: {USER} is already playing with someone else"),
                             ("MatchDog", r"\*\* Error: \w+ is already playing")],
    T.ALREADY_PLAYING_WITH_SOMEONE: [("GammonBot", r"^\*\* (\w+) is already playing with someone else.\s*$")],
    T.DIDNT_INVITE_YOU: [("Gibbon", rf"^\*\* {USER} didn't invite you"), ("MatchDog", r"\*\* \w+ didn't invite you")],
    T.CANT_FIND_PLAYER: [("Gibbon", rf"^\*\* Error: can't find player {USER}")],
    T.TWO_GAMES_AT_ONCE: [("Gibbon", r"^\*\* You can't play two games at once")],
    T.JOINED_YOU_MATCH: [("Gibbon", rf"^\*\* Player {USER} has joined you for a {N} point match"),
                         ("KBackgammon", r" has joined you for a [0-9]+ point match\.$"),
                         ("MatchDog", r"has joined you for a ")],
    T.JOINED_YOU_UNLIMITED: [("Gibbon", rf"^Player {USER} has joined you for an unlimited match"),
                             ("KBackgammon", r" has joined you for an unlimited match\.$"),
                             ("MatchDog", r" has joined you")],
    T.TYPE_JOIN_NEXT_GAME: [("Gibbon", r"^Type 'join' if you want to play the next game, type 'leave' if you don't"),
                            ("KBackgammon", r"^Type 'join' if you want to play the next game, type 'leave' if you don't\.$"),
                            ("GammonBot", r"Type 'join' if you want to play the next game")],
    T.YOU_WIN_GAME: [("Gibbon", rf"^{USER} wins? the game and gets? {N} points?"), ("MatchDog", r"You win the game")],
    T.WINS_GAME: [("Gibbon", rf"^{USER} wins? the game and gets? {N} points?")],
    T.WINS_GAME_SORRY: [("Gibbon", rf"^{USER} wins? the game and gets? {N} points?")],
    T.GIVES_UP: [("Gibbon", rf"^{USER} gives? up\. {USER} wins? {N} points?"), ("MatchDog", r"\w+ gives up\.")],
    T.GIVES_UP_YOU_WIN: [("Gibbon", rf"^{USER} gives? up\. {USER} wins? {N} points?"), ("MatchDog", r"\w+ gives up\.")],
    T.YOU_GIVE_UP: [("Gibbon", rf"^{USER} gives? up\. {USER} wins? {N} points?"),
                    ("KBackgammon", r"^You give up\."), ("MatchDog", r"You give up")],
    T.YOU_ACCEPT_AND_WIN: [("Gibbon", rf"^{USER} accepts? and wins? {N} points?"),
                           ("KBackgammon", r"^You accept and win "), ("MatchDog", r"You accept and win ")],
    T.ACCEPTS_AND_WINS: [("Gibbon", rf"^{USER} accepts? and wins? {N} points?"), ("MatchDog", r"\w+ accepts")],
    T.SCORE_IN_MATCH: [("Gibbon", rf"^score in {N} point match: {USER}-{N} {USER}-{N}"),
                       ("MatchDog", r"score in \d+ point match:")],
    T.SCORE_IN_UNLIMITED: [("Gibbon", rf"^score in unlimited match: {USER}-{N} {USER}-{N}")],
    T.WAIT_FOR_JOIN: [("Gibbon", rf"^\*\* Please wait for {USER} to join too")],
    T.YOU_INVITED_RESUME: [("Gibbon", rf"^\*\* You invited {USER} to resume a saved match")],
    T.YOU_INVITED_MATCH: [("Gibbon", rf"^\*\* You invited {USER} to a {N} point match")],
    T.YOU_INVITED_UNLIMITED: [("Gibbon", rf"^\*\* You invited {USER} to an? unlimited match")],
    T.YOU_WIN_MATCH: [("Gibbon", rf"^{USER} wins? the {N} point match {N}-{N}"),
                      ("KBackgammon", r" win the [0-9]+ point match [0-9]+-[0-9]+"),
                      ("GammonBot", r"^You win the \d+ point match"), ("MatchDog", r"You win .* point match")],
    T.WINS_MATCH: [("Gibbon", rf"^{USER} wins? the {N} point match {N}-{N}"),
                   ("KBackgammon", r" wins the [0-9]+ point match [0-9]+-[0-9]+"),
                   ("GammonBot", rf"^{W} wins the \d+ point match"), ("MatchDog", r"\w+ wins .* point match")],
    T.YOU_STOP_WATCHING: [("Gibbon", rf"^You stop watching {USER}"), ("KBackgammon", r"^You stop watching ")],
    T.WANTS_TO_RESIGN: [("Gibbon", rf"^{USER} wants? to resign\. {USER} will win {N} points?"),
                        ("MatchDog", r"\w+ wants to resign\.")],
    T.YOU_WANT_TO_RESIGN: [("Gibbon", rf"^{USER} wants? to resign\. {USER} will win {N} points?")],
    T.WANTS_TO_RESIGN_YOU_WIN: [("Gibbon", rf"^{USER} wants? to resign\. {USER} will win {N} points?"),
                                ("KBackgammon", r"Type 'accept' or 'reject'\.$"),
                                ("GammonBot", r"^\w+ wants to resign\. You will win (\d+) point")],
    T.WANTED_TO_RESIGN: [("GammonBot", r"^\*\* \w+ wanted to resign\."),
                         ("KBackgammon", r"Type 'accept' or 'reject'\.$")],
    T.REJECTS: [("Gibbon", rf"^{USER} rejects?\. The game continues"),
                ("GammonBot", r"\w+ rejects\. The game continues\."), ("MatchDog", r"\w+ rejects")],
    T.YOU_REJECT: [("Gibbon", rf"^{USER} rejects?\. The game continues"),
                   ("KBackgammon", r"^You reject\. The game continues\.")],
    T.RESUMED_MATCH_LOADED: [("Gibbon", rf"^You are now playing with {USER}\. Your running match was loaded"),
                             ("KBackgammon", r"^You are now playing with "),
                             ("MatchDog", r"You are now playing with"),
                             ("GammonBot", r"^You are now playing with (\w+)\. Your running")],
    T.JOINED_MATCH_LOADED: [("Gibbon", rf"^{USER} has joined you\. Your running match was loaded"),
                            ("KBackgammon", r" has joined you. Your running match was loaded\.$"),
                            ("MatchDog", r"has joined you\."),
                            ("GammonBot", r"^(\w+) has joined you\. Your running")],
    T.SYNOPSIS_TURN: [("Gibbon", rf"^turn: {USER}")],
    T.SYNOPSIS_MATCH_LENGTH: [("Gibbon", rf"^match length: {N}"), ("MatchDog", r"^match length: \d+$")],
    T.SYNOPSIS_UNLIMITED: [("Gibbon", r"^unlimited match")],
    # MatchDog requires "points for NAME: N", without Gibbon's "user" (§13).
    T.SYNOPSIS_POINTS: [("MatchDog", r"^points for \w+: \d+$")],
    T.START_MATCH: [("Gibbon", rf"^{USER} and {USER} start a {N} point match"),
                    ("KBackgammon", r"start a [0-9]+ point match")],
    T.START_UNLIMITED: [("Gibbon", rf"^{USER} and {USER} start an? unlimited match"),
                        ("KBackgammon", r"start an unlimited match")],
    T.REPORT_WINS_MATCH: [("Gibbon", rf"^{USER} wins a {N} point match against {USER}\s+{N}-{N}"),
                          ("KBackgammon", r"point match against")],
    T.RESUMING_MATCH: [("Gibbon", rf"^{USER} and {USER} are resuming their (?:unlimited|{N}-point) match"),
                       ("KBackgammon", r"are resuming their [0-9]+-point match")],
    T.RESUMING_UNLIMITED: [("Gibbon", rf"^{USER} and {USER} are resuming their (?:unlimited|{N}-point) match"),
                           ("KBackgammon", r"are resuming their unlimited match")],
    T.USERS_HEARD_YOU: [("Gibbon", rf"^\*\* {N} users? heard you")],
    T.SAVED_MATCH_CORRUPT: [("Gibbon", r"^\*\* ERROR: Saved match is corrupt\. Please start another one")],
    T.NO_ONE_CALLED: [("Gibbon", rf"^\*\* There is no one called {USER}"),
                      ("MatchDog", r"\*\* There is no one called \w+"),
                      ("GammonBot", r"^\*\* There is no one called (\w+)\s*$")],
    T.GOODBYE: [("KBackgammon", r"^                             Goodbye\.")],
    T.YOUR_TURN_ROLL_OR_DOUBLE: [("KBackgammon", r"^It's your turn\. Please roll or double")],
    T.PLEASE_MOVE: [("KBackgammon", r"^Please move [1-6]+ pie")],
    T.YOUR_TURN_TO_MOVE: [("KBackgammon", r"^It's your turn to move\.")],
    T.WAVES_GOODBYE: [("KBackgammon", r" waves goodbye.$")],
    T.WAVES_GOODBYE_AGAIN: [("KBackgammon", r" waves goodbye again.$")],
    T.WAVE_GOODBYE: [("KBackgammon", r"^You wave goodbye.$")],
    T.GUEST_ONE_USERNAME: [("KBackgammon", r"^ONE USERNAME PER PERSON ONLY!!!")],
    T.AWAY: [("KBackgammon", r"^You're away. Please type 'back'")],
    T.WELCOME_BACK: [("KBackgammon", r"^Welcome back\.$")],
    T.NAME_ALREADY_USED: [("KBackgammon", r"^\*\* Please use another name\. ")],
    T.YOUR_NAME_WILL_BE: [("KBackgammon", r"Your name will be ")],
    T.GIVE_PASSWORD_PROMPT: [("KBackgammon", r"Please give your password:")],
    T.RETYPE_PASSWORD_PROMPT: [("KBackgammon", r"Please retype your password:")],
    T.YOU_BLIND: [("KBackgammon", r"^\*\* You blind ")],
    T.YOU_UNBLIND: [("KBackgammon", r"^\*\* You unblind ")],
    T.RATING_CALCULATION: [("KBackgammon", r"^rating calculation:$"), ("MatchDog", r"rating calculation:")],
    T.RATING_CHANGE_WINNER: [("KBackgammon", r"^change for "), ("MatchDog", r"change for \w+:")],
    T.RATING_CHANGE_LOSER: [("KBackgammon", r"^change for "), ("MatchDog", r"change for \w+:")],
    T.SAY_TO_YOURSELF: [("KBackgammon", r"^You say to yourself:")],
    T.YOU_ROLLED_OPENING: [("MatchDog", r"You rolled \d, \w+ rolled \d"),
                           ("GammonBot", r"You rolled (\d+), \w+ rolled (\d+)")],
    T.MAKES_FIRST_MOVE: [("GammonBot", r"(\w+) makes the first move.")],
    T.IS_WATCHING_YOU: [("MatchDog", r" is watching you"), ("GammonBot", r"^(\w+) is watching you\.")],
    T.STARTS_WATCHING: [("GammonBot", r"^(\w+) starts watching ")],
    T.ALREADY_ROLLED: [("GammonBot", r"\*\* You did already roll")],
    T.NOT_PLAYING: [("GammonBot", r"\*\* You're not playing\."), ("MatchDog", r"\*\* You're not playing\.")],
    T.CRAWFORD_NO_DOUBLE: [("GammonBot", r"\*\* The Crawford rule doesn")],
    T.DOUBLE_NOT_ANSWERED: [("GammonBot", r"^\*\* \w+ hasn't responded to your double")],
    T.RESTART_NOTICE: [("GammonBot", r"^\*\*\* ATTENTION ! FIBS will (restart|shut down) in \d+ second")],
    T.SHUTDOWN_NOTICE: [("GammonBot", r"^\*\*\* ATTENTION ! FIBS will (restart|shut down) in \d+ second")],
    T.NO_ONE_TO_LEAVE: [("MatchDog", r"\*\* Error: No one to leave\.")],
    T.CONNECTION_TIMED_OUT: [("MatchDog", r"Connection timed out")],
    T.BANNER_ONE_ACCOUNT: [("MatchDog", r"One account per person only!")],
}
_CLIENTS_COMPILED = {
    text: [(client, re.compile(regex)) for client, regex in rules] for text, rules in CLIENTS.items()
}


@settings(max_examples=600, deadline=None)
@given(own_text_lines(sorted(CLIENTS, key=lambda text: text.name)))
def test_every_client_recognises_the_sentences_it_matches_on(case: tuple[Text, str]) -> None:
    text, line = case
    for client, regex in _CLIENTS_COMPILED[text]:
        assert regex.search(line), (client, text.name, line, regex.pattern)


def test_matchdog_starting_a_new_game_is_an_exact_line() -> None:
    # MatchDog compares the whole line with "Starting a new game with OPP."
    assert render(T.STARTING_NEW_GAME, name="opp") == "Starting a new game with opp."


# --- CLIP messages ----------------------------------------------------------------------------

GIBBON_CLIP_SHAPES: dict[type, str] = {
    Welcome: rf"^1 {USER} {N} \S+$",
    OwnInfo: rf"^2 {USER}(?: [01]){{8}} {N}(?: [01]){{4}} {N}\.[0-9]+(?: [01]){{2}} (?:{N}|unlimited)(?: [01]){{2}} \S+$",
    MotdBegin: r"^3$",
    MotdEnd: r"^4$",
    WhoInfo: rf"^5 {USER} (?:{USER}|-) (?:{USER}|-) [01] [01] {N}\.[0-9]+ {N} {N} {N} \S+ \S+ \S+$",
    WhoInfoEnd: r"^6$",
    LoginNotice: rf"^7 {USER} ",
    LogoutNotice: rf"^8 {USER} ",
    Message: rf"^9 {USER} {N} ",
    MessageDelivered: rf"^10 {USER}$",
    MessageSaved: rf"^11 {USER}$",
    Says: rf"^12 {USER} ",
    Shouts: rf"^13 {USER} ",
    Whispers: rf"^14 {USER} ",
    Kibitzes: rf"^15 {USER} ",
    YouSay: rf"^16 {USER} ",
    YouShout: r"^17 ",
    YouWhisper: r"^18 ",
    YouKibitz: r"^19 ",
    Alert: rf"^20 {USER} ",
}
FCM_CLIP_COOKIES: dict[type, str] = {
    Welcome: "WELCOME", OwnInfo: "OWN_INFO", MotdBegin: "MOTD_BEGIN", WhoInfo: "WHO_INFO",
    WhoInfoEnd: "WHO_INFO_END", LoginNotice: "LOGIN", LogoutNotice: "LOGOUT", Message: "MESSAGE",
    MessageDelivered: "MESSAGE_DELIVERED", MessageSaved: "MESSAGE_SAVED", Says: "SAYS",
    Shouts: "SHOUTS", Whispers: "WHISPERS", Kibitzes: "KIBITZES", YouSay: "YOU_SAY",
    YouShout: "YOU_SHOUT", YouWhisper: "YOU_WHISPER", YouKibitz: "YOU_KIBITZ", Alert: "ALERT",
}


@settings(max_examples=400, deadline=None)
@given(clip_messages)
def test_clip_lines_have_the_shapes_clients_require(message: ClipMessage) -> None:
    (line,) = render_lines(message, clip=True, clip_version=1009)
    assert re.match(GIBBON_CLIP_SHAPES[type(message)], line), line
    expected = FCM_CLIP_COOKIES.get(type(message))
    unix_time = getattr(message, "sent_at", getattr(message, "last_login", 0))
    if unix_time < 0:
        expected = None  # FCM's `[0-9]+`; the server never sends a time before 1970
    if expected is not None:
        logging_in = isinstance(message, (Welcome, OwnInfo, MotdBegin))
        assert fcm_cookie(line, logging_in=logging_in) == expected, line
    assert re.match(rf"^{type(message).number} " if line != str(type(message).number) else r"^\d$", line)
    if isinstance(message, WhoInfo):
        assert len(line.split(" ")) == 13  # CocoaFIBS ignores other 5-lines
        assert re.match(rf"^5 {W} ", line)  # MatchDog's own-status detection
    if isinstance(message, OwnInfo):
        assert len(line.split(" ")) == 22
        assert line.split(" ")[17] in ("0", "1")  # CocoaFIBS reads ready as token 17
    if isinstance(message, (MessageDelivered, MessageSaved)):
        assert re.match(r"^1[01] \w+$", line)  # KBackgammon's `^10 `, FCM's anchored `$`
    if isinstance(message, Says):
        assert re.match(r"^12 (\w+) (.*)$", line)  # GammonBot's tell


def test_motd_end_leaves_fcm_login_state() -> None:
    (line,) = render_lines(MotdEnd(), clip=True)
    assert re.match(r"^4", line)


def test_alert_reaches_old_clients_as_a_tell() -> None:
    (line,) = render_lines(Alert("admin", "hello"), clip=True, clip_version=1008)
    assert fcm_cookie(line) == "SAYS"


# --- board lines ------------------------------------------------------------------------------

FIBSCLI_BOARD = re.compile(
    r"^board:(?P<player1>[a-zA-Z_<>]+):(?P<player2>[a-zA-Z_<>]+):(?P<matchLength>\d+)"
    r":(?P<player1Score>\d+):(?P<player2Score>\d+)"
    r":(?P<board>(?:-?\d+:){25}-?\d+)"
    r":(?P<turn>-1|0|1):(?P<dice1>\d:\d):(?P<dice2>\d:\d):(?P<cube>\d+)"
    r":([0-1]):([0-1]):([0-1]):(-?1):(-?1):\d+:\d+:(\d+):(\d+):(\d+):(\d+):([0-4]):\d+:\d+:(\d+)$"
)
GIBBON_BOARD = re.compile(rf"^board:{USER}:{USER}(?::{N}){{50}}$")


@settings(max_examples=250, deadline=None)
@given(board_lines())
def test_board_lines_match_every_client_board_regex(board: BoardLine) -> None:
    (line,) = render_lines(BoardMessage(board), clip=True)
    assert FIBSCLI_BOARD.match(line), line
    assert GIBBON_BOARD.match(line), line
    assert fcm_cookie(line) == "BOARD"
    assert len(line.split(":")) == 53  # MatchDog, GammonBot
    assert line.startswith("board:")  # KBackgammon


# --- every line the codec can produce -------------------------------------------------------


def _no_digit_then_space(line: str) -> bool:
    return re.match(r"^[0-9]+( |$)", line) is None


# Telnet-only listings whose FIBS layout starts with a number (`%2d` in FIBS' `who`):
# CLIP sessions never receive them.
TELNET_ONLY = {T.WHO_ROW}


@st.composite
def any_sentence(draw: st.DrawFn) -> str:
    texts = sorted(set(Text) - LINE_FRAGMENTS - TELNET_ONLY, key=lambda text: text.name)
    text = draw(st.sampled_from(texts))
    fields: dict[str, object] = dict(draw(field_values(text)))
    for name in fields:
        if name in REALISTIC:
            fields[name] = draw(REALISTIC[name])
    if "n" in fields and text in (T.RATINGS_ROW, T.RATINGS_ROW_OWN):
        fields["n"] = draw(st.integers(1, 9999))  # ranks
    return render(text, **fields)


@settings(max_examples=600, deadline=None)
@given(any_sentence())
def test_no_sentence_looks_like_a_clip_line(line: str) -> None:
    assert _no_digit_then_space(line), line
    assert not line.startswith("board:")


@settings(max_examples=100, deadline=None)
@given(board_lines(), st.sampled_from([1, 2]))
def test_no_ascii_board_line_looks_like_a_clip_line(board: BoardLine, style: int) -> None:
    for line in render_ascii_board(board, style=style):
        assert _no_digit_then_space(line) and not line[:1].isdigit(), line


def test_fixed_texts_do_not_look_like_clip_lines() -> None:
    lines = [
        *banner_lines(club_line="   fibsd", date_line="Monday, January 01 00:00:00 UTC"),
        *goodbye_lines(contact="   admin@example.org"),
        *guest_lines(),
    ]
    for line in lines:
        assert not line[:1].isdigit(), line
        assert fcm_cookie(line) in (None, "GOODBYE"), line
    assert [line for line in lines if fcm_cookie(line) == "GOODBYE"] == [" " * 29 + "Goodbye."]


def test_the_telnet_prompt_is_only_recognised_as_a_prompt() -> None:
    assert fcm_cookie(Text.COMMAND_PROMPT.value) == "GUEST_PROMPT"
    assert isinstance(TextLine.of(Text.COMMAND_PROMPT).line, str)
