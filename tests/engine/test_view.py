"""The per-seat view is complete: ladder steps, the calling seat and the decision's values."""

from __future__ import annotations

import pickle
import random
from dataclasses import FrozenInstanceError, replace

import pytest

from engine import Act, HandKind, Match, Phase, TableOptions, get_ruleset
from engine.view import View
from tests.engine.helpers import act, deal


def test_the_view_carries_the_ruleset_and_the_options() -> None:
    m = deal("mineiro", "3C QC KC|KH 3H QH", dealer=1, ladder=(4, 6, 10, 12), target=15)
    v = m.view(0)
    assert v.ruleset is get_ruleset("mineiro")
    assert v.options == TableOptions(players=2, target=15, ladder=(4, 6, 10, 12))
    options = v.to_json()["options"]
    assert options["ladder"] == [4, 6, 10, 12] and options["target"] == 15
    assert TableOptions(**{**options, "ladder": tuple(options["ladder"])}) == v.options


def test_no_call_pending() -> None:
    v = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1).view(1)
    assert (v.pending_step, v.accepted_step, v.call_seat) == (None, None, None)
    assert (v.accept_value, v.run_value, v.raise_value) == (None, None, None)
    assert v.next_step == 0  # a truco now would ask for the first step


@pytest.mark.parametrize(
    ("variant", "ladder", "values"),
    [
        # (accept, run, raise) at truco, seis, nove, doze
        ("paulista", None, [(3, 1, 6), (6, 3, 9), (9, 6, 12), (12, 9, None)]),
        ("mineiro", None, [(4, 2, 8), (8, 4, 10), (10, 8, 12), (12, 10, None)]),
        ("mineiro", (4, 6, 10, 12), [(4, 2, 6), (6, 4, 10), (10, 6, 12), (12, 10, None)]),
    ],
)
def test_each_step_of_the_ladder(
    variant: str, ladder: tuple[int, ...] | None, values: list[tuple[int, int, int | None]]
) -> None:
    vira = "4D" if variant == "paulista" else None
    m = act(deal(variant, "3C QC KC|KH 3H QH", vira=vira, dealer=1, ladder=ladder), "0 truco")
    for step, (accept, run, raised) in enumerate(values):
        caller = step % 2
        for seat in (0, 1):  # both seats see the same public facts
            v = m.view(seat)
            assert v.pending_step == step and v.call_seat == caller and v.call_team == caller
            assert (v.accept_value, v.run_value, v.raise_value) == (accept, run, raised)
            assert v.accepted_step == (step - 1 if step else None)
            assert v.next_step == (step + 1 if raised is not None else None)
        if raised is not None:
            act(m, f"{1 - caller} raise")
    act(m, "0 accept")  # seat 1 called doze
    v = m.view(0)
    assert v.accepted_step == 3 and v.pending_step is None and v.next_step is None


def test_2x2_the_calling_seat_not_only_its_team() -> None:
    m = deal("paulista", "5C 5H 5S|3C 3H 6S|4D 4H 6D|2C 2H 7S", vira="KD", dealer=3)
    act(m, "0 truco", "3 raise")
    for seat in range(4):
        v = m.view(seat)
        assert v.call_seat == 3 and v.call_team == 1 and v.pending_step == 1
    act(m, "2 run")  # the partner still answers: the call and its seat stay
    assert m.view(0).call_seat == 3 and m.view(0).ran == (2,)


def test_the_mao_de_onze_and_dez_decision() -> None:
    for variant, score, values in (("paulista", (11, 5), (3, 1)), ("mineiro", (4, 10), (4, 2))):
        vira = "4D" if variant == "paulista" else None
        m = deal(variant, "3C QC KC|KH 3H QH", vira=vira, dealer=1, score=score)
        v = m.view(0)
        assert v.kind == HandKind.SPECIAL and v.phase == Phase.DECIDE
        assert (v.accept_value, v.run_value, v.raise_value) == (*values, None)
        assert v.pending_step is None and v.call_seat is None and v.next_step is None


def test_a_view_is_the_view_its_own_constructor_makes() -> None:
    # make_view fills the slots without the frozen dataclass's constructor: over random
    # 2×2 play with covered cards and signals, every seat's view must equal the one
    # ``View(...)`` builds from the same fields, and stay frozen and picklable.
    rng = random.Random(3)
    m = Match("trem-bao", TableOptions(players=4, covered_cards=True), seed=8)
    views = 0
    while m.phase is not Phase.MATCH_OVER:
        if m.phase is Phase.HAND_OVER:
            m.deal()
            continue
        for seat in range(4):
            v = m.view(seat)
            assert type(v) is View
            assert replace(v) == v
            assert pickle.loads(pickle.dumps(v)) == v
            with pytest.raises(FrozenInstanceError):
                v.seat = 5  # type: ignore[misc]
            views += 1
        signals = m.legal_signals(rng.randrange(4))
        if signals and rng.random() < 0.2:
            seat = next(s for s in range(4) if m.legal_signals(s) == signals)
            m.apply(seat, rng.choice(signals))
            continue
        seat = rng.choice(m.to_act())
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    acts = {a.act for _, a in m.log}
    assert views > 50 and Act.COVER in acts and Act.SIGNAL in acts
