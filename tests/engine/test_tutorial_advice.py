"""Every card a lesson asks the learner to play is one of the best with the cards as dealt.

The lessons show all four hands to the engine: for each card the learner is asked to play (or
cover), the rest of the hand is played out every possible way with open cards (each side picks
its best card at every turn, no more calls), and the card the lesson recommends must keep the
best outcome the learner's team could reach from there: a lesson never has the learner give up
a hand, or a round that decides it, that another card in the same hand would have won. A hand
played blind (the mão de ferro) has no card to recommend and is left out.
"""

from __future__ import annotations

from engine import Act, HandKind, Match, Phase
from engine.scenario import load_match, parse_action
from engine.tutorial import load_lessons

CARD_ACTS = (Act.PLAY, Act.COVER)


def best_outcome(m: Match, team: int) -> int:
    """+1 if ``team`` wins the hand with best play from here by both sides, -1 if it loses, 0 if
    nobody does; cards only, open, no more calls."""
    if m.phase >= Phase.HAND_OVER:
        winner = m.hand_winner
        return 0 if winner is None else (1 if winner == team else -1)
    seat = m.to_act()[0]
    outcomes = []
    for action in m.legal_actions(seat):
        if action.act in CARD_ACTS:
            after = m.copy()
            after.apply(seat, action)
            outcomes.append(best_outcome(after, team))
    return max(outcomes) if seat & 1 == team else min(outcomes)


def card_advice():
    """(where, recommended, {card action: best outcome}) for each card a lesson asks for."""
    for lesson in load_lessons().lessons:
        for n, hand in enumerate(lesson.hands):
            if hand.start.kind == HandKind.IRON:
                continue
            m = load_match(hand.scenario, hand.scenario.get("seed", 0))
            for i, item in enumerate(a for a in hand.scenario["actions"] if a["act"] != "signal"):
                seat, action = parse_action(item)
                if seat == lesson.seat and action.act in CARD_ACTS:
                    options = {}
                    for option in m.legal_actions(seat):
                        if option.act in CARD_ACTS:
                            after = m.copy()
                            after.apply(seat, option)
                            options[option] = best_outcome(after, lesson.seat & 1)
                    yield f"{lesson.id} mão {n + 1} lance {i + 1}", action, options
                m.apply(seat, action)


def test_every_recommended_card_keeps_the_best_outcome() -> None:
    worse = []
    count = 0
    for where, action, options in card_advice():
        count += 1
        if options[action] < max(options.values()):
            better = [str(a) for a, v in options.items() if v == max(options.values())]
            worse.append(f"{where}: {action} ({options[action]:+d}), melhor: {better}")
    assert count > 30
    assert worse == []


OLD_HAND = {
    "variant": "paulista",
    "players": 2,
    "score": [10, 0],
    "dealer": 1,
    "hands": [["QH", "2D", "4C"], ["AC", "3S", "5H"]],
    "vira": "7C",
    "actions": [],
}
"""An earlier lesson's hand: leading the 2 lets a 3 take the first round and the hand."""


def test_the_check_finds_a_card_that_gives_the_hand_away() -> None:
    m = load_match(OLD_HAND)
    values = {}
    for option in m.legal_actions(0):
        if option.act not in CARD_ACTS:
            continue
        after = m.copy()
        after.apply(0, option)
        values[str(option)] = best_outcome(after, 0)
    assert values["play 2D"] == -1
    assert values["play 4C"] == 1
