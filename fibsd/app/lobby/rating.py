"""Rating a finished match, whoever is online (§6.9, FIBS's formula).

A match ends with both players at the table, or with one or both away: lost on time
while nobody is there (a correspondence match, a dropper's clock), claimed against a
dropper, forfeited in a tournament. `rate` rates it either way: with both accounts in
memory (online, or seen since the server started: `Registry.known_account`) at once,
and the new ratings go with the match's record; otherwise what the rating needs is read
through the store (a background job, `Registry.read`) and the new ratings are written
when it comes back. The core keeps the account it read (`Registry.remember_account`),
so two matches rated one after the other for the same absent player build on each
other and no change is lost.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from fibsd.app.outcome import Outcome
from fibsd.app.registry import Registry
from fibsd.app.session import Session
from fibsd.domain.accounts import Account
from fibsd.domain.ratings import rating_calculation_block, rating_change
from fibsd.infra.house_bots import house_bot_named

#: (name, new rating, new experience) of each player, as the store takes them.
Updates = list[tuple[str, float, int]]


def rate(registry: Registry, winner: str, loser: str, length: int, out: Outcome, *,
         seated: Sequence[Session]) -> Updates | None:
    """Rate `winner`'s win over `loser` in a `length`-point match; the players `seated`
    at the table get the rating block (if they want it). The updates, for the caller to
    store with the match's record, when both accounts are in memory; None when an account
    had to be read: then the rating follows in the background, and writes its own."""
    known = registry.known_account(winner), registry.known_account(loser)
    if known[0] is not None and known[1] is not None:
        if not _counts(registry, known[0], known[1]):
            return []  # (a house bot's match, with `bots_rated = false`)
        return _apply(registry, known[0], known[1], length, seated, out)
    seated = tuple(seated)
    read = registry.read(lambda store: (store.get_account(winner), store.get_account(loser)),
                         lambda accounts: _rate_later(registry, accounts, length, seated),
                         name="rating with a player away")
    out.run(attrs.evolve(read, holds_prompt=False))  # (nobody's prompt waits for it)
    return None


def _rate_later(registry: Registry, accounts: tuple[Account | None, Account | None],
                length: int, seated: Sequence[Session]) -> Outcome:
    out = Outcome()
    # What the core knows now beats the read: a rating changed in memory meanwhile (a
    # login, another match rated) may not have reached the store when it was read.
    fresh = [None if read is None else registry.known_account(read.name) or read for read in accounts]
    winner, loser = fresh
    if winner is None or loser is None or not _counts(registry, winner, loser):
        return out  # (an account deleted meanwhile, or a house bot's match: not rated)
    updates = _apply(registry, winner, loser, length, seated, out)
    out.write(lambda store: store.update_ratings(updates))
    return out


def rated_between(registry: Registry, names: Sequence[str]) -> bool:
    """Whether a fixed-length match between `names` will change ratings, before their
    accounts are read: always, unless one of them is a house bot and the operator turned
    that off (`bots_rated = false`)."""
    if registry.config.bots_rated:
        return True
    return not any(house_bot_named(registry.config.house_bots, name) for name in names)


def _counts(registry: Registry, first: Account, second: Account) -> bool:
    """`rated_between`, for the accounts: a house bot's name on a bot's account only."""
    if registry.config.bots_rated:
        return True
    return not any(player.bot and house_bot_named(registry.config.house_bots, player.name)
                   for player in (first, second))


def _apply(registry: Registry, winner: Account, loser: Account, length: int,
           seated: Sequence[Session], out: Outcome) -> Updates:
    """The new ratings in memory, and the rating block to the players online who want it."""
    change = rating_change(
        winner_rating=winner.rating, winner_experience=winner.experience,
        loser_rating=loser.rating, loser_experience=loser.experience, match_length=length,
    )
    block = rating_calculation_block(change, winner_name=winner.name, loser_name=loser.name)
    new = (attrs.evolve(winner, rating=change.winner_rating, experience=change.winner_experience),
           attrs.evolve(loser, rating=change.loser_rating, experience=change.loser_experience))
    for account in new:
        online = registry.get(account.name)
        if online is None:
            registry.remember_account(account)
            continue
        online.account = attrs.evolve(online.account, rating=account.rating, experience=account.experience)
        if online in seated and online.account.toggles.ratings:
            out.lines(online, *block)
    return [(account.name, account.rating, account.experience) for account in new]
