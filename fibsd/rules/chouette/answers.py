"""Doubles and their answers, sealed rounds, the five-or-more rule, beavers, raccoons
and extras (C26-C38, C44-C48).

Functions over a table's state (`ChouetteState`); `Chouette` (table.py) calls them.
Each validates first and mutates after, and returns past-tense events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from ..game import GamePhase
from .contracts import Contract, Holder, Kind
from .events import (
    Answer,
    AnswerSealed,
    AnyEvent,
    Cause,
    DoubleAnswered,
    Doubled,
    ExtraDeclined,
    ExtraGiven,
    ExtrasOpen,
    Raccooned,
)
from .settings import (
    BoxLimits,
    Cubes,
    LoneTaker,
)
from .settlement import after_settlements, pay, settle
from .state import (
    ChouetteState,
    R,
    _refuse,
)


def eligible_doubles(t: ChouetteState, name: str) -> tuple[Contract, ...]:
    """The contracts `name` may double right now (before his side rolls)."""
    game = t._game
    if (
        game is None
        or game.phase is not GamePhase.AWAITING_ROLL
        or t._resigns
        or t._partner_candidates
        or t._partner_draw
        or name in t._proxied
    ):
        return ()
    side = Holder.BOX if game.turn == 0 else Holder.TEAM
    if side is Holder.BOX and (t._offers or t._extras_givers):
        return ()  # the box's round must be over first
    if side is Holder.TEAM and t.settings.cubes is Cubes.SINGLE:
        if name != t._captain or t._offers:
            return ()
        mains = [c for c in t._contracts if c.kind is Kind.MAIN and c.live]
        return tuple(mains) if all(c.may_double(side) for c in mains) else ()
    return tuple(
        c
        for c in t._contracts
        if c.player_of(side) == name
        and c.may_double(side)
        and c.cid not in t._offers
        and c.cid not in t._resigns
    )


def double(
    t: ChouetteState, name: str, targets: Sequence[str] | None = None
) -> list[AnyEvent]:
    """C26/C28/C34/C35: the box doubles all eligible contracts or those of
    `targets`; a member doubles his own (his main, or with targets the extras of
    those givers); single-cube: the captain doubles for the whole team and the box
    doubles everyone."""
    game = t._playing()
    eligible = eligible_doubles(t, name)
    if not eligible:
        if game.phase is not GamePhase.AWAITING_ROLL:
            _refuse(R.WRONG_PHASE, "doubles come before the roll")
        _refuse(R.CANNOT_DOUBLE, f"{name} has no cube to turn now")
    side = Holder.BOX if game.turn == 0 else Holder.TEAM
    single = t.settings.cubes is Cubes.SINGLE
    if targets is not None and single:
        _refuse(R.SINGLE_CUBE, "single-cube doubles go to the whole team")
    chosen: list[Contract]
    if targets is None:
        if side is Holder.TEAM and not single:
            mains = [c for c in eligible if c.kind is Kind.MAIN]
            chosen = mains or list(eligible)
        else:
            chosen = list(eligible)
    else:
        chosen = []
        for target in dict.fromkeys(targets):
            found = [c for c in eligible if c.player_of(side.other) == target]
            if side is Holder.TEAM and target == t._box:
                found = [c for c in eligible if c.kind is Kind.MAIN]
            if not found:
                _refuse(R.CANNOT_DOUBLE, f"{name} may not double {target} now")
            chosen.extend(found)
        if (
            side is Holder.BOX
            and name == t._box
            and t.settings.box_limits is BoxLimits.SAME_VALUE
        ):
            values = {c.value for c in chosen}
            chosen.extend(c for c in eligible if c.value in values and c not in chosen)
    events: list[AnyEvent] = []
    live_mains = {c.cid for c in t._contracts if c.kind is Kind.MAIN and c.live}
    for c in chosen:
        t._offers[c.cid] = side
        events.append(Doubled(c.cid, name, c.player_of(side.other), c.value * 2))
    if side is Holder.BOX and name == t._box:
        t._box_round = [c.cid for c in chosen]
        t._box_round_all = {c.cid for c in chosen} == live_mains
        t._box_round_initial = all(c.owner is None for c in chosen)
        maybe_reveal(t, events)
        after_settlements(t, events)
    elif side is Holder.TEAM:
        mains = [c for c in chosen if c.kind is Kind.MAIN]
        if not t._team_round:
            t._team_round_initial = True
        t._team_round_initial &= all(c.owner is None for c in mains)
        t._team_round.extend(c.cid for c in mains)
    return events


def pending_for(t: ChouetteState, name: str) -> list[int]:
    return [
        cid
        for cid, side in t._offers.items()
        if t.contract(cid).player_of(side.other) == name
    ]


def answer(
    t: ChouetteState, name: str, answer: Answer, targets: Sequence[str] | None = None
) -> list[AnyEvent]:
    """`accept`/`reject`/`beaver` (with `targets`: only the doubles of those
    players). A member's answer to the box's double is sealed until all are in
    (C29); the box's answers to team doubles apply at once (C27)."""
    t._playing()
    t._partner_pending()
    pending = pending_for(t, name)
    if not pending:
        _refuse(R.NOT_DOUBLED, f"nobody doubled {name}")
    if targets is not None:
        chosen: list[int] = []
        for target in dict.fromkeys(targets):
            found = [
                cid
                for cid in pending
                if t.contract(cid).player_of(t._offers[cid]) == target
            ]
            if not found:
                _refuse(R.NOT_DOUBLED, f"{target} did not double {name}")
            chosen.extend(found)
        pending = chosen
    if answer is Answer.BEAVER and (
        t.settings.beavers < 1 or t.settings.cubes is Cubes.SINGLE
    ):
        _refuse(R.NO_BEAVERS)
    sealed = [cid for cid in pending if cid in t._box_round]
    if any(cid in t._sealed for cid in sealed):
        _refuse(R.ALREADY_ANSWERED)
    immediate = [cid for cid in pending if cid not in t._box_round]
    if name == t._box and immediate:
        if t.settings.cubes is Cubes.SINGLE and len(immediate) != len(
            pending_for(t, name)
        ):
            _refuse(R.SINGLE_CUBE, "the box answers the team's cube once")
        check_box_limits(t, immediate, answer)
    events: list[AnyEvent] = []
    for cid in immediate:
        apply_answer(t, cid, answer, events)
    if name == t._box:
        for cid in immediate:
            t._box_answers[cid] = answer
        if not any(cid in t._offers for cid in t._team_round):
            t._team_round = []
            t._team_round_initial = False
            t._box_answers = {}
    for cid in sealed:
        t._sealed[cid] = answer
    if sealed:
        events.append(AnswerSealed(name))
        maybe_reveal(t, events)
    after_settlements(t, events)
    return events


def check_box_limits(t: ChouetteState, cids: list[int], answer: Answer) -> None:
    """C14, checked before any answer applies; partial answers are refused as soon
    as no completion of the round could satisfy the limit."""
    limit = t.settings.box_limits
    if limit is BoxLimits.NONE:
        return
    answers = dict(t._box_answers)
    answers.update((cid, answer) for cid in cids)
    round_ = list(t._team_round)
    takes = [c for c in round_ if c in answers and answers[c] is not Answer.DROP]
    drops = [c for c in round_ if answers.get(c) is Answer.DROP]
    open_ = [c for c in round_ if c not in answers]
    if limit is BoxLimits.CAPTAIN:
        captain = t.main_of(t._captain) if t._captain else None
        if captain is not None and captain.cid in drops and takes:
            _refuse(R.BOX_LIMIT, "take the captain's cube if you take any")
    elif limit is BoxLimits.HALF:
        live = [c.cid for c in t._contracts if c.kind is Kind.MAIN and c.live]
        full = t._team_round_initial and all(cid in round_ for cid in live)
        need = len(round_) if len(round_) <= 2 else -(-len(round_) // 2)
        if full and takes and len(takes) + len(open_) < need:
            _refuse(R.BOX_LIMIT, f"take at least {need} of {len(round_)} or none")
    elif limit is BoxLimits.SAME_VALUE:
        by_value: dict[int, set[bool]] = {}
        for cid in round_:
            if cid in answers:
                value = t.contract(cid).value
                if cid in t._box_answers and answers[cid] is not Answer.DROP:
                    value = value // (4 if answers[cid] is Answer.BEAVER else 2)
                by_value.setdefault(value, set()).add(answers[cid] is Answer.DROP)
        if any(len(kinds) > 1 for kinds in by_value.values()):
            _refuse(R.BOX_LIMIT, "same value, same action")


def apply_answer(
    t: ChouetteState,
    cid: int,
    answer: Answer,
    events: list[AnyEvent],
    forced: bool = False,
    proxied: bool = False,
    follows: str | None = None,
    defaulted: bool = False,
) -> None:
    c = t.contract(cid)
    doubler_side = t._offers.pop(cid)
    answerer_side = doubler_side.other
    doubler = c.player_of(doubler_side)
    answerer = c.player_of(answerer_side)
    if answer is Answer.DROP:
        events.append(
            DoubleAnswered(
                cid,
                answerer,
                doubler,
                answer,
                c.value,
                forced,
                proxied,
                follows,
                defaulted,
            )
        )
        if c.kind is Kind.MAIN and c.member == t._captain:
            t._captain_fate = doubler_side is Holder.TEAM
        settle(t, c, doubler_side, c.value, Cause.DROP, None, events)
        return
    if answer is Answer.TAKE:
        c = attrs.evolve(c, value=c.value * 2, owner=answerer_side, turned=True)
    else:
        c = attrs.evolve(
            c,
            value=c.value * 4,
            owner=answerer_side,
            turned=True,
            raccoon=doubler_side if t.settings.beavers >= 2 else None,
        )
    t._put(c)
    events.append(
        DoubleAnswered(
            cid, answerer, doubler, answer, c.value, forced, proxied, follows, defaulted
        )
    )


def raccoon(
    t: ChouetteState, name: str, targets: Sequence[str] | None = None
) -> list[AnyEvent]:
    """C48: the doubler answers a beaver by redoubling again before he rolls; the
    beaverer keeps the cube."""
    game = t._playing()
    if t.settings.beavers < 2:
        _refuse(R.NO_BEAVERS)
    chosen = [
        c
        for c in t._contracts
        if c.live
        and c.raccoon is not None
        and c.player_of(c.raccoon) == name
        and (targets is None or c.player_of(c.raccoon.other) in targets)
    ]
    if not chosen or game.phase is not GamePhase.AWAITING_ROLL:
        _refuse(R.NO_BEAVERS, "no beaver to raccoon")
    events: list[AnyEvent] = []
    for c in chosen:
        c = attrs.evolve(c, value=c.value * 2, raccoon=None, turned=True)
        t._put(c)
        events.append(Raccooned(c.cid, name, c.value))
    return events


def proxy_source(
    t: ChouetteState, member: str | None
) -> tuple[Answer, str | None, bool]:
    """C29/C71: a proxied `member`'s answer: his delegate's to the same double if
    he named one and the delegate answered it himself, else the captain's, else a
    drop; the delegate when it was his (None: the captain's, or a drop); and whether
    it is the drop by default (nobody's answer to copy)."""
    delegate = t._delegates.get(member) if member else None
    for leader in (delegate, t._captain):
        if leader is None or leader in t._proxied:
            continue
        cube = t.main_of(leader)
        if cube is not None and cube.cid in t._sealed and cube.cid not in t._timed_out:
            return t._sealed[cube.cid], leader if leader == delegate else None, False
    return Answer.DROP, None, True


def copied(
    t: ChouetteState, cids: Iterable[int]
) -> tuple[dict[int, Answer], dict[int, str], set[int]]:
    """The proxied answers for `cids`; for those copied from a delegate, his name;
    and those that are drops by default (nobody's answer to copy)."""
    answers: dict[int, Answer] = {}
    follows: dict[int, str] = {}
    defaulted: set[int] = set()
    for cid in cids:
        answer, leader, default = proxy_source(t, t.contract(cid).member)
        answers[cid] = answer
        if leader is not None:
            follows[cid] = leader
        if default:
            defaulted.add(cid)
    return answers, follows, defaulted


def maybe_reveal(t: ChouetteState, events: list[AnyEvent]) -> None:
    """Reveal the box's round once every member who is not proxied has answered."""
    if not t._box_round:
        return
    waiting = [
        cid
        for cid in t._box_round
        if cid not in t._sealed and t.contract(cid).member not in t._proxied
    ]
    if waiting:
        return
    for cid in t._box_round:
        if cid not in t._sealed:
            t._timed_out.add(cid)
    answers, follows, defaulted = copied(t, t._box_round)
    for cid in t._box_round:
        t._sealed.setdefault(cid, answers[cid])
    reveal(t, events, follows, defaulted)


def answer_timeout(t: ChouetteState) -> list[AnyEvent]:
    """answer_seconds ran out on the box's double: silent members get the
    captain's answer, or drop (C29)."""
    t._playing()
    if not t._box_round:
        _refuse(R.WRONG_PHASE, "no answers are awaited")
    events: list[AnyEvent] = []
    silent = [cid for cid in t._box_round if cid not in t._sealed]
    answers, follows, defaulted = copied(t, silent)
    for cid in silent:
        t._timed_out.add(cid)
        t._sealed[cid] = answers[cid]
    reveal(t, events, follows, defaulted)
    after_settlements(t, events)
    return events


def reveal(
    t: ChouetteState,
    events: list[AnyEvent],
    follows: dict[int, str] | None = None,
    defaulted: set[int] | None = None,
) -> None:
    order = {n: i for i, n in enumerate(t._queue)}
    round_ = sorted(t._box_round, key=lambda cid: order.get(t.contract(cid).member, 99))
    answers = {cid: t._sealed[cid] for cid in round_}
    before = {cid: t.contract(cid).value for cid in round_}
    takers = [cid for cid in round_ if answers[cid] is not Answer.DROP]
    forced: int | None = None
    s = t.settings
    if (
        s.fiveplus
        and s.lone_taker is not LoneTaker.FREE
        and len(t._participants) >= 5
        and len(round_) >= 2
        and t._box_round_all
        and len(takers) == 1
    ):
        forced = takers[0]
        single = s.cubes is Cubes.SINGLE
        answers[forced] = (
            Answer.BEAVER
            if s.lone_taker is LoneTaker.BEAVER and not single
            else Answer.DROP
        )
    for cid in round_:
        apply_answer(
            t,
            cid,
            answers[cid],
            events,
            forced=cid == forced,
            proxied=cid in t._timed_out,
            follows=(follows or {}).get(cid) if cid in t._timed_out else None,
            defaulted=cid in (defaulted or set()) and cid in t._timed_out,
        )
    takers = [cid for cid in round_ if answers[cid] is not Answer.DROP]
    initial = t._box_round_initial
    everyone = t._box_round_all
    t._box_round = []
    t._sealed = {}
    t._timed_out = set()
    if (
        s.extras
        and initial
        and everyone
        and len(round_) >= 2
        and len(takers) == 1
        and forced is None
    ):
        taker = t.contract(takers[0]).member
        t._extras_taker = taker
        t._extras_givers = [
            t.contract(cid).member for cid in round_ if cid not in takers
        ]
        t._extras_fee = before[takers[0]]
        t._extras_value = before[takers[0]] * 2
        events.append(
            ExtrasOpen(
                taker,
                tuple(t._extras_givers),
                t._extras_fee,
                t._extras_value,
            )
        )


def extra(t: ChouetteState, giver: str) -> list[AnyEvent]:
    """A dropper gives the lone taker an extra 2-cube: he pays the fee and the
    taker must accept (C47)."""
    t._playing()
    if giver not in t._extras_givers or t._extras_taker is None:
        _refuse(R.NO_EXTRAS, f"{giver} may not give an extra now")
    taker = t._extras_taker
    events: list[AnyEvent] = []
    pay(t, giver, taker, t._extras_fee, Cause.EXTRA_FEE, events)
    c = t._new_contract(
        Kind.EXTRA,
        giver,
        taker,
        value=t._extras_value,
        owner=Holder.TEAM,
        turned=True,
    )
    t._contracts.append(c)
    events.append(ExtraGiven(c.cid, giver, taker, t._extras_fee, c.value))
    t._extras_givers.remove(giver)
    if not t._extras_givers:
        t._extras_taker = None
    return events


def decline_extra(t: ChouetteState, giver: str) -> list[AnyEvent]:
    t._playing()
    if giver not in t._extras_givers:
        _refuse(R.NO_EXTRAS, f"{giver} may not give an extra now")
    t._extras_givers.remove(giver)
    if not t._extras_givers:
        t._extras_taker = None
    return [ExtraDeclined(giver)]


def close_extras(t: ChouetteState) -> list[AnyEvent]:
    """answer_seconds ran out: droppers who said nothing give no extra."""
    t._playing()
    if not t._extras_givers:
        _refuse(R.NO_EXTRAS, "no extras are open")
    events: list[AnyEvent] = [ExtraDeclined(g) for g in t._extras_givers]
    t._extras_givers = []
    t._extras_taker = None
    return events
