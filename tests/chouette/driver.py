"""A random driver for chouettes: offers many actions, legal or not, in random order.

`step` tries candidates until one is accepted; every refused one must leave the table
exactly as it was (checked here), and if none is accepted the table is stuck, which
`step` reports as a failure. Used by the fuzz test."""

from __future__ import annotations

import random
from collections.abc import Callable

from fibsd.rules.chouette import Answer, Chouette, Cubes, TablePhase
from fibsd.rules.errors import RuleError
from fibsd.rules.events import GameResult
from fibsd.rules.game import GamePhase
from fibsd.rules.movegen import legal_plays

Action = Callable[[], object]
NAMES = [f"p{i}" for i in range(14)]


def _dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def candidates(t: Chouette, rng: random.Random) -> list[tuple[float, Action]]:
    """(weight, action) pairs: the likely-legal actions weigh most."""
    out: list[tuple[float, Action]] = []
    add = out.append
    seated = list(t.seated)
    newcomer = next((n for n in NAMES if n not in seated), None)
    if newcomer is not None:
        add((0.3, lambda: t.join(newcomer)))
    if seated:
        name = rng.choice(seated)
        add((0.15, lambda: t.leave(name)))
        add((0.05, lambda: t.leave(name, now=True)))
        add((0.05, lambda: t.sit_out(name, rng.random() < 0.5)))
    if t.phase is TablePhase.GATHERING:
        add((5, t.begin_order))
    elif t.phase is TablePhase.ORDERING:
        dice = {n: rng.randint(1, 6) for n in t.order_to_roll}
        add((5, lambda: t.order_roll(dice)))
    elif t.phase is TablePhase.BETWEEN_GAMES:
        add((5, t.start_game))
    if t.game is None:
        return out
    game = t.game
    box, captain = t.box, t.captain
    assert box is not None
    everyone = list(t.participants)
    who = rng.choice(everyone)
    # answers
    if t.partner_offered_to is not None:
        p = t.partner_offered_to
        add((5, lambda: t.partner_answer(p, rng.random() < 0.4)))
    if t.partner_draw_candidates:
        d = rng.choice(t.partner_draw_candidates)
        add((5, lambda: t.draw_partner(d)))
    for giver in t.extras_givers:
        add((3, lambda g=giver: t.extra(g)))  # type: ignore[misc]
        add((2, lambda g=giver: t.decline_extra(g)))  # type: ignore[misc]
    if t.extras_givers:
        add((0.5, t.close_extras))
    for _, resigner, answerer, _ in t.pending_resignations():
        yes = rng.random() < 0.6
        add((3, lambda a=answerer, r=resigner, y=yes: t.answer_resignation(a, y, [r])))  # type: ignore[misc]
    answers = [Answer.TAKE, Answer.DROP] + (
        [Answer.BEAVER]
        if t.settings.beavers and t.settings.cubes is Cubes.MULTI
        else []
    )
    for _, doubler, answerer in t.pending_offers():
        a = rng.choice(answers)
        add((3, lambda n=answerer, a=a, d=doubler: t.answer(n, a, [d])))  # type: ignore[misc]
        add((2, lambda n=answerer, a=a: t.answer(n, a)))  # type: ignore[misc]
    if t.pending_offers():
        add((0.3, t.answer_timeout))
        add((1.5, t.captain_absent))
        add((1.5, lambda: t.set_proxy(who)))
        add((0.2, lambda: t.set_proxy(who, False)))
    add((0.3, lambda: t.raccoon(who)))
    for raccooner in {c.player_of(c.raccoon) for c in t.contracts if c.raccoon}:
        add((2, lambda n=raccooner: t.raccoon(n)))  # type: ignore[misc]
    # the board
    if game.phase is GamePhase.OPENING:
        add((0.5, lambda: t.request_partner(box)))
        dice = _dice(rng)
        add((5, lambda: t.opening_roll(*dice)))
    elif game.phase is GamePhase.AWAITING_ROLL:
        roller = box if game.turn == 0 else captain
        for name in everyone:
            if t.eligible_doubles(name):
                targets = None
                if name == box and rng.random() < 0.5:
                    targets = [
                        c.member for c in t.eligible_doubles(name) if rng.random() < 0.6
                    ]
                add((0.6, lambda n=name, tg=targets: t.double(n, tg)))  # type: ignore[misc]
        level = rng.choice(list(GameResult))
        add((0.1, lambda: t.resign(who, level)))
        if roller is not None:
            dice = _dice(rng)
            add((4, lambda: t.roll(roller, dice)))
        add((0.2, lambda: t.roll(who, _dice(rng))))
    elif game.phase is GamePhase.AWAITING_MOVE:
        assert game.turn is not None and game.dice is not None
        mover = box if game.turn == 0 else captain
        plays = legal_plays(game.position_for(game.turn), game.dice)
        play = rng.choice(plays)
        if mover is not None:
            add((5, lambda: t.play(mover, play)))
        level = rng.choice(list(GameResult))
        add((0.1, lambda: t.resign(who, level)))
    return out


def step(t: Chouette, rng: random.Random) -> list[object]:
    """One accepted action (refused tries must change nothing)."""
    pool = candidates(t, rng)
    rng.shuffle(pool)
    pool.sort(key=lambda wa: -wa[0] * rng.random())
    for _, action in pool:
        before = t.to_dict()
        try:
            return list(action())  # type: ignore[call-overload]
        except RuleError:
            assert t.to_dict() == before, "a refused action changed the table"
    raise AssertionError(f"the table is stuck: {t.to_dict()}")
