"""The SQLite schema, one migration per schema version (`fibsd.store.migrations`).

Each is an SQL script (statements split with `sqlite3.complete_statement`) or a function
taking the connection, run in its own transaction; the version is kept in
`PRAGMA user_version`. Never edit or reorder a migration that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Final, TypeAlias

Migration: TypeAlias = str | Callable[[sqlite3.Connection], None]

MIGRATIONS: Final[tuple[Migration, ...]] = (
    # 1: accounts and offline messages.
    """
    CREATE TABLE accounts (
        id              INTEGER PRIMARY KEY,
        name            TEXT NOT NULL UNIQUE COLLATE NOCASE,  -- unique regardless of case
        password_hash   TEXT NOT NULL,
        created_at      REAL NOT NULL,
        last_login_at   REAL,
        last_login_host TEXT,
        last_logout_at  REAL,
        rating          REAL NOT NULL DEFAULT 1500.0,
        experience      INTEGER NOT NULL DEFAULT 0,
        email           TEXT,
        -- JSON objects: a toggle or variable added later needs no migration, and a
        -- missing entry reads back as its default.
        toggles         TEXT NOT NULL DEFAULT '{}',
        variables       TEXT NOT NULL DEFAULT '{}'
    );
    -- AUTOINCREMENT: ids are never reused, so deleting delivered ids after a crash can
    -- never remove a newer message.
    CREATE TABLE messages (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        recipient_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        sender       TEXT NOT NULL,
        sent_at      REAL NOT NULL,
        text         TEXT NOT NULL
    );
    CREATE INDEX messages_by_recipient ON messages (recipient_id, id);
    """,
    # 2: the `ratings` list reads accounts by rating.
    "CREATE INDEX accounts_by_rating ON accounts (rating DESC, name)",
    # 3: saved matches, one per pair of players (keys: lower-case names, sorted).
    """
    CREATE TABLE saved_matches (
        player_low  TEXT NOT NULL,  -- the smaller of the two name keys
        player_high TEXT NOT NULL,
        data        TEXT NOT NULL,  -- JSON: the complete match state
        saved_at    REAL NOT NULL,
        PRIMARY KEY (player_low, player_high)
    );
    CREATE INDEX saved_matches_by_high ON saved_matches (player_high);
    """,
    # 4: match records, one per finished match, kept for `.mat` export.
    """
    CREATE TABLE match_records (
        id          INTEGER PRIMARY KEY,
        player0     TEXT NOT NULL,  -- names as spelt; player 0 invited player 1
        player1     TEXT NOT NULL,
        length      INTEGER,        -- NULL: unlimited
        score0      INTEGER NOT NULL,
        score1      INTEGER NOT NULL,
        winner      INTEGER,        -- 0, 1 or NULL (an unlimited match has no winner)
        data        TEXT NOT NULL,  -- JSON: Match.to_dict() with every game's history
        started_at  REAL,
        finished_at REAL NOT NULL
    );
    -- A player's records are looked up by name in any case (`list-matches`, `export`).
    CREATE INDEX match_records_by_player0 ON match_records (player0 COLLATE NOCASE, id);
    CREATE INDEX match_records_by_player1 ON match_records (player1 COLLATE NOCASE, id);
    """,
    # 5: the operators' sanctions (bans of accounts and addresses, mutes) and the
    # invitation codes of clubs with `registration = "code"`.
    """
    CREATE TABLE sanctions (
        kind       TEXT NOT NULL,  -- 'ban-account', 'ban-address' or 'mute'
        target     TEXT NOT NULL,  -- lower-case account name, or an address
        until      REAL,           -- NULL: until lifted
        reason     TEXT NOT NULL,
        imposed_by TEXT NOT NULL,
        imposed_at REAL NOT NULL,
        PRIMARY KEY (kind, target)
    );
    CREATE TABLE invitation_codes (
        code       TEXT PRIMARY KEY,
        created_by TEXT NOT NULL,
        created_at REAL NOT NULL,
        used_by    TEXT,
        used_at    REAL
    );
    """,
    # 6: matches each player dropped and did not come back to (shown by `whois`).
    """
    CREATE TABLE drop_counts (
        name  TEXT PRIMARY KEY COLLATE NOCASE,
        drops INTEGER NOT NULL
    );
    """,
    # 7: changes to a saved match since its last whole copy, applied in id order when it
    # is read. A match is saved after every action; rewriting the whole match (every game
    # so far with its history) each time made the save cost grow with the match.
    """
    CREATE TABLE saved_match_patches (
        id          INTEGER PRIMARY KEY,
        player_low  TEXT NOT NULL,
        player_high TEXT NOT NULL,
        patch       TEXT NOT NULL  -- JSON list of ["update"|"extend", [key, ...], value]
    );
    CREATE INDEX saved_match_patches_by_pair
        ON saved_match_patches (player_low, player_high, id);
    """,
    # 8: the finished games of a saved match, each written once when it is saved for the
    # first time. They were part of the whole copy written at the start of every game, and
    # that copy (and every change of the row it was in: each patch updates `saved_at`)
    # grew with the games played: in a long unlimited match the saves came to cost more
    # than the rest of each command. A match saved by an older release keeps its games
    # in its whole copy until it is saved again.
    """
    CREATE TABLE saved_match_games (
        player_low  TEXT NOT NULL,
        player_high TEXT NOT NULL,
        number      INTEGER NOT NULL,  -- 0 for the first finished game
        data        TEXT NOT NULL,     -- the game's JSON object (`Game.to_dict`)
        PRIMARY KEY (player_low, player_high, number)
    );
    """,
    # 9: chouette tables (docs/chouette.md): the whole state of each, saved after every
    # action like a match; a closed one stays, with its ledger, for `chouette score`.
    """
    CREATE TABLE chouettes (
        id        INTEGER PRIMARY KEY,
        owner     TEXT NOT NULL COLLATE NOCASE,
        state     TEXT NOT NULL,  -- JSON: fibsd.app.play.chouette.ChouetteTable.saved_state
        closed    INTEGER NOT NULL DEFAULT 0,
        saved_at  REAL NOT NULL
    );
    """,
    # 10: each patch carries its own time. A patch used to set `saved_matches.saved_at`,
    # and SQLite rewrites a whole row (the game's whole copy, over several pages) to change
    # one column: a tenth of the committer's work and extra pages in every commit. The
    # time a saved match was last changed is its latest patch's, else its own. (Patches
    # written before this have none, and their match's `saved_at` is up to date.)
    """
    ALTER TABLE saved_match_patches ADD COLUMN saved_at REAL;
    """,
    # 11: engine analysis (issue 23, docs/analysis.md): the jobs waiting (they survive a
    # restart), each finished analysis (JSON, and gnubg's .sgf of the analysed match,
    # zlib-compressed: hundreds of KiB of text), and each player's PR per analysed match
    # for `show pr`.
    """
    CREATE TABLE analysis_jobs (
        record_id  INTEGER PRIMARY KEY,
        requesters TEXT NOT NULL,  -- JSON list of name keys; empty: queued automatically
        queued_at  REAL NOT NULL
    );
    CREATE TABLE analyses (
        record_id   INTEGER PRIMARY KEY,
        data        TEXT NOT NULL,  -- JSON: fibsd.domain.match_analysis.MatchAnalysis.to_dict()
        sgf         BLOB NOT NULL,  -- zlib: gnubg's `save match` of the analysed match
        analysed_at REAL NOT NULL
    );
    CREATE TABLE analysis_prs (
        record_id INTEGER NOT NULL,
        name      TEXT NOT NULL COLLATE NOCASE,
        pr        REAL NOT NULL,
        PRIMARY KEY (record_id, name)
    );
    CREATE INDEX analysis_prs_by_name ON analysis_prs (name);
    """,
    # 12: tournaments (docs/tournaments.md), each one's whole state saved after every change
    # (entrants, rounds, results); and the bot mark an administrator sets on an account
    # (`setbot`, club-play.md B1).
    """
    CREATE TABLE tournaments (
        name   TEXT PRIMARY KEY COLLATE NOCASE,
        state  TEXT NOT NULL  -- JSON: fibsd.rules.tournament.Tournament.to_dict
    );
    ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
    """,
    # 13: puzzles (issue 37, docs/puzzles.md): each decision of an analysed match that
    # cost its player more than `puzzle_threshold`, with gnubg's candidates (JSON).
    """
    CREATE TABLE puzzles (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        record_id INTEGER NOT NULL,
        player    TEXT NOT NULL COLLATE NOCASE,  -- who erred
        kind      TEXT NOT NULL,                 -- move, double, take
        lost      REAL NOT NULL,                 -- EMG
        data      TEXT NOT NULL  -- JSON: fibsd.domain.puzzles.Puzzle.to_dict()
    );
    CREATE INDEX puzzles_by_record ON puzzles (record_id);
    CREATE INDEX puzzles_by_player ON puzzles (player, id);
    """,
    # 14: every player's record (`show record`, docs/matches.md), counted by queries:
    # how each finished match ended, whether it was rated, how many checker plays it had
    # in all and in its last game (NULL in records from before); and the saved matches a
    # new match between the same two players replaced (abandoned).
    """
    ALTER TABLE match_records ADD COLUMN rated INTEGER;        -- 1 or 0
    ALTER TABLE match_records ADD COLUMN ending TEXT;          -- fibsd.app.outcome.Ending, lower case
    ALTER TABLE match_records ADD COLUMN moves INTEGER;        -- checker plays, every game kept
    ALTER TABLE match_records ADD COLUMN final_moves INTEGER;  -- checker plays, its last game
    CREATE TABLE abandoned_matches (
        id           INTEGER PRIMARY KEY,
        player0      TEXT NOT NULL,
        player1      TEXT NOT NULL,
        length       INTEGER,
        abandoned_at REAL NOT NULL
    );
    CREATE INDEX abandoned_matches_by_player0 ON abandoned_matches (player0 COLLATE NOCASE);
    CREATE INDEX abandoned_matches_by_player1 ON abandoned_matches (player1 COLLATE NOCASE);
    """,
    # 15: puzzle answers (one per puzzle and player; name keys), and whom each user
    # started watching and when (a puzzle never comes from a match he watched live that
    # day).
    """
    CREATE TABLE puzzle_answers (
        puzzle_id   INTEGER NOT NULL,
        name        TEXT NOT NULL,  -- name key (lower case)
        answer      TEXT NOT NULL,
        lost        REAL NOT NULL,  -- EMG
        answered_at REAL NOT NULL,
        PRIMARY KEY (puzzle_id, name)
    );
    CREATE INDEX puzzle_answers_by_name ON puzzle_answers (name, answered_at);
    CREATE TABLE puzzle_watches (
        name       TEXT NOT NULL,  -- the watcher's name key
        player     TEXT NOT NULL,  -- the watched player's name key
        watched_at REAL NOT NULL
    );
    CREATE INDEX puzzle_watches_by_name ON puzzle_watches (name, watched_at);
    """,
    # 16: puzzle ratings (Glicko-2, docs/puzzles.md): each solver's (kind 'player', his
    # name key) and each puzzle's (kind 'puzzle', its number), moved by every answer.
    """
    CREATE TABLE puzzle_ratings (
        kind       TEXT NOT NULL,
        subject    TEXT NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        PRIMARY KEY (kind, subject)
    );
    """,
    # 17: every tournament kept under an id (issue 35): a name is unique only among open
    # and running tournaments, and a finished one's record is never overwritten. The rows
    # there were keep their state and are numbered in the order they were first saved.
    """
    CREATE TABLE tournaments_kept (
        id     INTEGER PRIMARY KEY,
        name   TEXT NOT NULL COLLATE NOCASE,
        state  TEXT NOT NULL  -- JSON: fibsd.rules.tournament.Tournament.to_dict
    );
    INSERT INTO tournaments_kept (id, name, state) SELECT rowid, name, state FROM tournaments ORDER BY rowid;
    DROP TABLE tournaments;
    ALTER TABLE tournaments_kept RENAME TO tournaments;
    CREATE INDEX tournaments_by_name ON tournaments (name);
    """,
)
