"""A tournament's state: entrants, rounds of pairings, results, standings and the winner.

Pure and synchronous like the rest of `fibsd.rules`: no clock, no store, no users. The
server (`fibsd.app.tournaments`) creates one, adds entrants, starts it, and records each
pairing's result as its match ends (or is forfeited); `record` pairs the next round when
the current one is complete, and says so. `to_dict`/`from_dict` save and restore it all.

Formats (club-play.md T1, T2):
- knockout: entrants seeded by rating, byes to the top seeds; winners meet in bracket
  order; with `consolation`, the first round's losers play a knockout of their own,
  alongside rounds 2 onwards.
- swiss: `rounds` rounds (default ceil(log2 n) + 1), paired by `swiss.pair_round`. The
  server pairs a Swiss round off its event loop: `start` and `record` with `defer=True`
  leave the round unpaired (`awaiting_pairing`), `pairing_request` is what a worker
  thread solves (`PairingRequest.solve`), and `apply_pairing` takes its result.
- roundrobin: the Berger tables (`roundrobin.berger_rounds`), one round at a time.

A result is a win (with the match points of each side), a forfeit (a no-show: the winner
is credited the full match length, the loser nothing) or a double forfeit (neither
showed: in Swiss and round robin both lose; in a knockout the better seed goes through).
A bye is a win worth one point, with no match points and no opponent for Buchholz.
A league or correspondence tournament (`deadline_days`, `move_days`) only carries its
terms and each pairing's deadline and who showed: the server decides at the deadline.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs

from . import knockout, roundrobin, swiss


class Format(enum.Enum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"


class Phase(enum.Enum):
    OPEN = "open"  # taking entrants
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Bracket(enum.Enum):
    MAIN = "main"
    CONSOLATION = "consolation"


class Ending(enum.Enum):
    """How a pairing was decided."""

    PLAYED = "played"
    BYE = "bye"
    FORFEIT = "forfeit"  # one player did not show
    DOUBLE_FORFEIT = "double_forfeit"  # neither showed


class TournamentError(Exception):
    """An action the tournament's state does not allow (the reason is the message)."""


@attrs.frozen
class Entrant:
    name: str
    rating: float
    #: A bot's account (marked by `setbot`) when it entered: shown in `tournament show`.
    bot: bool = False


@attrs.define
class Pairing:
    a: str
    b: str | None  # None: a bye for `a`
    bracket: Bracket = Bracket.MAIN
    winner: str | None = None
    ending: Ending | None = None
    #: Match points (a's, b's) of a played or forfeited match.
    score: tuple[int, int] = (0, 0)
    #: The server's bookkeeping, kept here so it is saved with the pairing: since when
    #: the no-show time runs (a time given by the caller; None: not yet), and whether its
    #: match has begun (then a saved match between the two is this pairing's).
    since: float | None = None
    started: bool = False
    #: The player who left the pairing's match (`leave`): it waits for him to come back
    #: (`join`) instead of starting again by itself, and the no-show time runs for him.
    held_by: str | None = None
    #: A round with a deadline (a league, a correspondence tournament): when the pairing
    #: is decided if it has not been played (a time given by the caller; None: no
    #: deadline, the no-show time rules). Saved, so a restart keeps it.
    deadline: float | None = None
    #: Who was online and free for this pairing at some moment before its deadline (the
    #: caller notes it): at the deadline a player who never showed loses to one who did.
    showed: tuple[str, ...] = ()
    #: The server is reading the pairing's saved match to resume it (not saved: a
    #: restart forgets it and reads again).
    resuming: bool = attrs.field(default=False, eq=False)

    @property
    def done(self) -> bool:
        return self.ending is not None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def involves(self, name: str) -> bool:
        return any(player.lower() == name.lower() for player in self.names)

    def loser(self) -> str | None:
        if self.ending is None or self.b is None:
            return None
        if self.ending is Ending.DOUBLE_FORFEIT:
            return None
        return self.b if self.winner == self.a else self.a

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "bracket": self.bracket.value, "winner": self.winner,
                "ending": None if self.ending is None else self.ending.value, "score": list(self.score),
                "since": self.since, "started": self.started, "held_by": self.held_by,
                **({} if self.deadline is None else {"deadline": self.deadline}),
                **({"showed": list(self.showed)} if self.showed else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        ending = data.get("ending")
        score = data.get("score", [0, 0])
        return cls(a=str(data["a"]), b=None if data.get("b") is None else str(data["b"]),
                   bracket=Bracket(data.get("bracket", "main")),
                   winner=None if data.get("winner") is None else str(data["winner"]),
                   ending=None if ending is None else Ending(ending),
                   score=(int(score[0]), int(score[1])),
                   since=None if data.get("since") is None else float(data["since"]),
                   started=bool(data.get("started", False)),
                   held_by=None if data.get("held_by") is None else str(data["held_by"]),
                   deadline=None if data.get("deadline") is None else float(data["deadline"]),
                   showed=tuple(str(name) for name in data.get("showed", ())))


@attrs.frozen
class PairingRequest:
    """What pairing a Swiss round needs, apart from the tournament (immutable, so a worker
    thread may solve it while the tournament goes on changing): names are lower-cased."""

    round: int  # the number of the round it pairs
    ranking: tuple[str, ...]
    points: dict[str, int]
    played: frozenset[frozenset[str]]
    had_bye: frozenset[str]
    rounds_left: int

    def solve(self) -> tuple[list[tuple[str, str]], str | None]:
        """The round's pairs and bye (`swiss.pair_round`; pure, any thread)."""
        return swiss.pair_round(list(self.ranking), self.points, set(self.played), set(self.had_bye),
                                rounds_left=self.rounds_left)


@attrs.frozen
class Standing:
    name: str
    points: int
    buchholz: int
    match_points: int  # match-point difference
    played: int
    seed: int


@attrs.define
class Tournament:
    name: str
    format: Format
    length: int
    creator: str
    #: Swiss: the rounds asked for (None: the default for the field, set at start).
    rounds: int | None = None
    consolation: bool = False
    max_entrants: int | None = None
    bots_allowed: bool = False
    #: Seconds a player has to be there for his pairing before he forfeits (T4).
    noshow_seconds: int = 600
    #: The match clock (delay, reserve per point in seconds), or None: no clock.
    clock: tuple[float, float] | None = None
    #: Days each round lasts (a league, a correspondence tournament): each pairing gets a
    #: deadline when its round is paired and is decided then if unplayed; None: the
    #: no-show time rules instead.
    deadline_days: int | None = None
    #: A correspondence tournament: days per move of its matches (None: live matches).
    move_days: float | None = None
    created_at: float = 0.0
    #: The tournament's number, given by the server when it is created and never reused:
    #: names are unique only among live tournaments, so a record is reached by its id.
    id: int = 0
    phase: Phase = Phase.OPEN
    entrants: list[Entrant] = attrs.field(factory=list)
    #: The seeding, best first (set at start).
    seeds: list[str] = attrs.field(factory=list)
    played_rounds: list[list[Pairing]] = attrs.field(factory=list)
    winner: str | None = None
    #: The server is pairing the next round in a worker thread (not saved: a restart
    #: finds the tournament `awaiting_pairing` and pairs it again).
    pairing_underway: bool = attrs.field(default=False, eq=False)

    # ------------------------------------------------------------------ entrants

    def entrant(self, name: str) -> Entrant | None:
        for entrant in self.entrants:
            if entrant.name.lower() == name.lower():
                return entrant
        return None

    def join(self, name: str, rating: float, *, bot: bool = False, limit: int | None = None) -> None:
        """Enter `name`, within the tournament's `max` and the server's `limit`."""
        if self.phase is not Phase.OPEN:
            raise TournamentError("started")
        if self.entrant(name) is not None:
            raise TournamentError("already")
        bounds = [most for most in (self.max_entrants, limit) if most is not None]
        if bounds and len(self.entrants) >= min(bounds):
            raise TournamentError("full")
        self.entrants.append(Entrant(name, rating, bot))

    def leave(self, name: str) -> None:
        if self.phase is not Phase.OPEN:
            raise TournamentError("started")
        entrant = self.entrant(name)
        if entrant is None:
            raise TournamentError("not_entered")
        self.entrants.remove(entrant)

    @property
    def live(self) -> bool:
        """Open or running: its name is taken, and it counts against the limits."""
        return self.phase in (Phase.OPEN, Phase.RUNNING)

    def cancel(self) -> None:
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise TournamentError("over")
        self.phase = Phase.CANCELLED

    # ------------------------------------------------------------------ rounds

    def start(self, *, defer: bool = False) -> list[Pairing]:
        """Seed the field and pair round 1 (its byes are decided at once). With `defer`, a
        Swiss is left `awaiting_pairing` instead (the caller pairs it off the loop)."""
        if self.phase is not Phase.OPEN:
            raise TournamentError("started")
        if len(self.entrants) < 2:
            raise TournamentError("too_few")
        ordered = sorted(enumerate(self.entrants), key=lambda item: (-item[1].rating, item[0]))
        self.seeds = [entrant.name for _index, entrant in ordered]
        if self.format is Format.SWISS:
            limit = swiss.max_rounds(len(self.seeds))
            self.rounds = min(self.rounds or swiss.default_rounds(len(self.seeds)), limit)
        elif self.format is Format.ROUNDROBIN:
            self.rounds = len(roundrobin.berger_rounds(len(self.seeds)))
        else:
            self.rounds = knockout.rounds_needed(len(self.seeds))
        self.phase = Phase.RUNNING
        return self._pair_next(defer)

    @property
    def current(self) -> list[Pairing]:
        return self.played_rounds[-1] if self.played_rounds else []

    @property
    def round_number(self) -> int:
        return len(self.played_rounds)

    def pending(self) -> list[Pairing]:
        """The current round's pairings still to be decided."""
        if self.phase is not Phase.RUNNING:
            return []
        return [pairing for pairing in self.current if not pairing.done]

    def record(self, pairing: Pairing, winner: str | None, score: tuple[int, int],
               ending: Ending = Ending.PLAYED, *, defer: bool = False) -> list[Pairing]:
        """Decide `pairing` (of the current round); returns the next round's pairings when
        this completed a round and another follows ([] otherwise; `phase` says whether
        the tournament finished). With `defer`, a Swiss round to come is left
        `awaiting_pairing` instead."""
        if self.phase is not Phase.RUNNING or pairing not in self.current or pairing.done:
            raise TournamentError("not_pending")
        if ending is Ending.DOUBLE_FORFEIT and self.format is Format.KNOCKOUT:
            # Somebody has to go through: the better seed (a documented decision).
            assert pairing.b is not None
            winner = min(pairing.names, key=self.seed_of)
        if winner is not None and not pairing.involves(winner):
            raise TournamentError("not_pending")
        pairing.winner = None if winner is None else next(n for n in pairing.names if n.lower() == winner.lower())
        pairing.ending = ending
        pairing.score = score
        if self.pending():
            return []
        return self._pair_next(defer)

    def seed_of(self, name: str) -> int:
        for index, seeded in enumerate(self.seeds):
            if seeded.lower() == name.lower():
                return index + 1
        return len(self.seeds) + 1

    @property
    def awaiting_pairing(self) -> bool:
        """A running Swiss whose current round is decided and whose next one is not paired
        yet (only after `start` or `record` with `defer`; saved as it is, so a restart
        sees it and pairs again)."""
        return (self.format is Format.SWISS and self.phase is Phase.RUNNING and not self.pending()
                and self.rounds is not None and self.round_number < self.rounds)

    def pairing_request(self) -> PairingRequest:
        """What the next Swiss round's pairing needs (see `awaiting_pairing`)."""
        if not self.awaiting_pairing:
            raise TournamentError("not_awaiting")
        assert self.rounds is not None
        table = self.standings()
        played = frozenset(frozenset((p.a.lower(), p.b.lower())) for p in self.all_pairings()
                           if p.b is not None)
        byes = frozenset(p.a.lower() for p in self.all_pairings() if p.b is None)
        return PairingRequest(round=self.round_number + 1, ranking=tuple(s.name.lower() for s in table),
                              points={s.name.lower(): s.points for s in table}, played=played,
                              had_bye=byes, rounds_left=self.rounds - self.round_number)

    def apply_pairing(self, request: PairingRequest,
                      solved: tuple[list[tuple[str, str]], str | None]) -> list[Pairing]:
        """Take the solved pairing of `request` as the next round (TournamentError
        "not_awaiting" when the tournament moved on meanwhile: cancelled, or paired)."""
        if not self.awaiting_pairing or request.round != self.round_number + 1:
            raise TournamentError("not_awaiting")
        return self._add_round(self._swiss_pairings(solved))

    def _swiss_pairings(self, solved: tuple[list[tuple[str, str]], str | None]) -> list[Pairing]:
        by_key = {name.lower(): name for name in self.seeds}
        pairs, bye = solved
        pairings = [Pairing(by_key[a], by_key[b]) for a, b in pairs]
        if bye is not None:
            pairings.append(Pairing(by_key[bye], None))
        return pairings

    def _pair_next(self, defer: bool = False) -> list[Pairing]:
        if defer and self.awaiting_pairing:
            return []
        pairings = self._next_pairings()
        if not pairings:
            self._finish()
            return []
        return self._add_round(pairings)

    def _add_round(self, pairings: list[Pairing]) -> list[Pairing]:
        for pairing in pairings:
            if pairing.b is None:
                pairing.winner, pairing.ending = pairing.a, Ending.BYE
        self.played_rounds.append(pairings)
        if not self.pending():  # (only byes: cannot happen, but never stall)
            return [*pairings, *self._pair_next()]
        return pairings

    def _finish(self) -> None:
        self.phase = Phase.FINISHED
        if self.format is Format.KNOCKOUT:
            final = [p for p in self.played_rounds[-1] if p.bracket is Bracket.MAIN]
            self.winner = final[0].winner if final else None
        else:
            table = self.standings()
            self.winner = table[0].name if table else None

    def _next_pairings(self) -> list[Pairing]:
        done = len(self.played_rounds)
        seeds = self.seeds
        if self.format is Format.ROUNDROBIN:
            table = roundrobin.berger_rounds(len(seeds))
            if done >= len(table):
                return []
            return [Pairing(seeds[a - 1], None if b is None else seeds[b - 1]) for a, b in table[done]]
        if self.format is Format.SWISS:
            assert self.rounds is not None
            if done >= self.rounds:
                return []
            return self._swiss_pairings(self.pairing_request().solve())
        return self._next_knockout(done)

    def _next_knockout(self, done: int) -> list[Pairing]:
        if done == 0:
            return [Pairing(self.seeds[a - 1], None if b is None else self.seeds[b - 1])
                    for a, b in knockout.first_round(len(self.seeds))]
        last = self.played_rounds[-1]
        main = [p for p in last if p.bracket is Bracket.MAIN]
        pairings: list[Pairing] = []
        if len(main) > 1:
            winners = [p.winner for p in main]
            pairings += [Pairing(str(winners[i]), str(winners[i + 1])) for i in range(0, len(winners), 2)]
        if self.consolation:
            if done == 1:
                losers = [loser for p in main if (loser := p.loser()) is not None]
                if len(losers) >= 2:
                    ordered = sorted(losers, key=self.seed_of)
                    pairings += [Pairing(ordered[a - 1], None if b is None else ordered[b - 1], Bracket.CONSOLATION)
                                 for a, b in knockout.first_round(len(ordered))]
            else:
                side = [p for p in last if p.bracket is Bracket.CONSOLATION]
                if len(side) > 1:
                    winners = [p.winner for p in side]
                    pairings += [Pairing(str(winners[i]), str(winners[i + 1]), Bracket.CONSOLATION)
                                 for i in range(0, len(winners), 2)]
        return pairings

    def consolation_winner(self) -> str | None:
        if not self.consolation or self.phase is not Phase.FINISHED:
            return None
        for rnd in reversed(self.played_rounds):
            side = [p for p in rnd if p.bracket is Bracket.CONSOLATION]
            if side:
                return side[0].winner if len(side) == 1 else None
        return None

    # ------------------------------------------------------------------ standings

    def standings(self) -> list[Standing]:
        """Points, then Buchholz (the opponents' points), then the match-point difference,
        then the seed."""
        return standings(self.seeds or [e.name for e in self.entrants], self.all_pairings())

    def all_pairings(self) -> Iterable[Pairing]:
        for rnd in self.played_rounds:
            yield from rnd

    # ------------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "format": self.format.value, "length": self.length,
            "creator": self.creator, "rounds": self.rounds, "consolation": self.consolation,
            "max": self.max_entrants, "bots": self.bots_allowed, "phase": self.phase.value,
            "noshow": self.noshow_seconds, "clock": None if self.clock is None else list(self.clock),
            "created_at": self.created_at, "id": self.id,
            **({} if self.deadline_days is None else {"deadline_days": self.deadline_days}),
            **({} if self.move_days is None else {"move_days": self.move_days}),
            "entrants": [[e.name, e.rating, *([True] if e.bot else [])] for e in self.entrants], "seeds": list(self.seeds),
            "played_rounds": [[p.to_dict() for p in rnd] for rnd in self.played_rounds],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        try:
            return cls(
                name=str(data["name"]), format=Format(data["format"]), length=int(data["length"]),
                creator=str(data["creator"]),
                rounds=None if data.get("rounds") is None else int(data["rounds"]),
                consolation=bool(data.get("consolation", False)),
                max_entrants=None if data.get("max") is None else int(data["max"]),
                bots_allowed=bool(data.get("bots", False)), phase=Phase(data["phase"]),
                noshow_seconds=int(data.get("noshow", 600)),
                clock=None if data.get("clock") is None else (float(data["clock"][0]), float(data["clock"][1])),
                created_at=float(data.get("created_at", 0.0)), id=int(data.get("id", 0)),
                deadline_days=None if data.get("deadline_days") is None else int(data["deadline_days"]),
                move_days=None if data.get("move_days") is None else float(data["move_days"]),
                entrants=[Entrant(str(e[0]), float(e[1]), bool(e[2]) if len(e) > 2 else False)
                          for e in data.get("entrants", [])],
                seeds=[str(s) for s in data.get("seeds", [])],
                played_rounds=[[Pairing.from_dict(p) for p in rnd] for rnd in data.get("played_rounds", [])],
                winner=None if data.get("winner") is None else str(data["winner"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise ValueError(f"not a saved tournament: {error}") from error


def standings(seeds: list[str], pairings: Iterable[Pairing]) -> list[Standing]:
    """The table of `seeds` (best first) after `pairings` (decided ones count)."""
    points = {name: 0 for name in seeds}
    diff = {name: 0 for name in seeds}
    played = {name: 0 for name in seeds}
    opponents: dict[str, list[str]] = {name: [] for name in seeds}
    for pairing in pairings:
        if not pairing.done:
            continue
        if pairing.winner is not None and pairing.winner in points:
            points[pairing.winner] += 1
        if pairing.b is None:
            continue
        a, b = pairing.a, pairing.b
        for me, other, mine, theirs in ((a, b, pairing.score[0], pairing.score[1]),
                                        (b, a, pairing.score[1], pairing.score[0])):
            if me in points:
                opponents[me].append(other)
                diff[me] += mine - theirs
                played[me] += 1
    table = [Standing(name, points[name], sum(points.get(o, 0) for o in opponents[name]), diff[name],
                      played[name], seed) for seed, name in enumerate(seeds, start=1)]
    table.sort(key=lambda s: (-s.points, -s.buchholz, -s.match_points, s.seed))
    return table
