"""A match's life around the table, one module per job (as `fibsd.app.verbs` is split).

    start            a match begins: from an invitation, or a saved match resumed (§6.2, §6.3)
    interruptions    it stops without ending: saved, waiting for a dropper, reseat, claim (§6.11)
    correspondence   correspondence matches: days per move, loaded at start and login (K7)
    conclusion       it ends: `conclude` after any action, `finish_match` for every end (§6.9)
    rating           its rating, whoever is online (an absent player's account read in a job)
    seating          what they share: seating players, the reports, a restored table

On the ladder this package is one rung (beside `fibsd.app.chouettes` and
`fibsd.app.analyses`): it may import the registry and everything below it (sessions,
`play/`, the outcome), never the rungs above (tournaments, the aftermath, the verbs,
presence, timers, dispatch). The table itself never calls the lobby: it records a won
match (`table.match_won`) and whoever acted calls `conclusion.conclude`. A match's end
reaches whatever acts on it (tournaments, the analysis queue) only as data
(`MatchFinished`), handed on by `fibsd.app.aftermath`.
"""
