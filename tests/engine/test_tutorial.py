"""The tutorial lessons: replayed by the engine, each lesson one real match, broken when illegal."""

from __future__ import annotations

import copy
import json

import pytest

from engine import Act, Action, HandKind, Match, Phase
from engine.cards import Card, DeckStyle
from engine.scenario import load_match, parse_action, replay
from engine.tutorial import (
    TutorialError,
    Words,
    build_trace,
    card_name,
    from_data,
    load_lessons,
    load_script,
    read_script,
)


@pytest.fixture(scope="module")
def script() -> dict:
    return read_script()


def two_hands(script: dict) -> dict:
    """The lesson on truco, seis and nove (two hands), in ``script``."""
    return next(lesson for lesson in script["lessons"] if lesson["id"] == "truco")


def scenario_hands(script: dict):
    """Every hand as a scenario: signals pass no turn, so without them it is the same hand."""
    for lesson in script["lessons"]:
        for hand in lesson["hands"]:
            plain = {k: v for k, v in hand.items() if k != "seed"}
            plain["actions"] = [a for a in hand["actions"] if a["act"] != "signal"]
            yield lesson["id"], plain


def test_every_hand_is_a_scenario_that_truco_replay_accepts(script: dict) -> None:
    for lesson_id, hand in scenario_hands(script):
        result = replay(hand)
        assert result["error"] is None, (lesson_id, result)
        assert result["finished"] is True, lesson_id
        for key, value in hand["expect"].items():
            assert result[key] == value, (lesson_id, hand["name"], key)


def test_each_lesson_replays_as_one_match_with_the_deal_passing_on(script: dict) -> None:
    """R3: the hands of a lesson follow each other: the next seat deals, the score carries over.

    The whole lesson is played on ONE engine match: after each hand the match's own rotation
    (dealer + 1) and score must be exactly where the next hand of the lesson starts.
    """
    for lesson in script["lessons"]:
        m: Match | None = None
        for number, hand in enumerate(h for _id, h in scenario_hands({"lessons": [lesson]})):
            start = load_match(hand)
            if m is not None:
                assert m.match_winner is None, (lesson["id"], number)
                assert start.dealer == (m.dealer + 1) % m.players, (lesson["id"], number)
                assert start.score == m.score, (lesson["id"], number)
                assert (start.ruleset, start.options) == (m.ruleset, m.options), lesson["id"]
                # the learner is mão exactly when the seat before them dealt
                assert start.leader == (m.dealer + 2) % m.players
            m = start
            for raw in hand["actions"]:
                seat, action = parse_action(raw)
                if m.kind == HandKind.IRON and action.card is not None:
                    action = Action(Act.BLIND, None, m.dealt[seat].index(action.card))
                m.apply(seat, action)
            assert m.phase >= Phase.HAND_OVER, (lesson["id"], number)


def test_a_lesson_whose_dealer_does_not_rotate_is_refused(script: dict) -> None:
    broken = copy.deepcopy(script)
    basics = two_hands(broken)
    basics["hands"][1]["dealer"] = basics["hands"][0]["dealer"]  # the same seat deals twice
    with pytest.raises(TutorialError, match="quem dá as cartas"):
        from_data(broken)


def test_a_lesson_whose_score_does_not_carry_over_is_refused(script: dict) -> None:
    broken = copy.deepcopy(script)
    two_hands(broken)["hands"][1]["score"] = [3, 0]
    with pytest.raises(TutorialError, match="placar"):
        from_data(broken)


def test_load_lessons_replays_each_step_and_gives_the_learner_view() -> None:
    course = load_lessons()
    assert course.lessons[0].id == "basico"
    assert load_script().id == "basico"
    for lesson in course.lessons:
        assert lesson.seat == course.seat == 0
        assert lesson.title and lesson.summary
        for _, step in lesson.steps():
            assert step.view.seat == lesson.seat
            assert step.explanation
            assert step.yours == (step.seat == lesson.seat)
            assert step.expects(step.action)
            assert step.expects(Action(Act.RUN11)) == (step.action.act is Act.RUN11)
    first = course.lessons[0].hands[0]
    assert set(first.start.hand) - set(first.steps[0].view.hand) == {first.steps[0].action.card}


def test_the_first_lesson_is_a_plain_hand_and_truco_comes_after_the_gentle_ones() -> None:
    lessons = load_lessons().lessons
    basics = load_script()
    # the first lesson: cards only, no tie, no call, a normal hand the learner wins
    assert {s.action.act for _, s in basics.steps()} == {Act.PLAY}
    assert all(None not in s.view.rounds for _, s in basics.steps())
    assert all(h.start.vira is not None and len(h.start.manilhas) == 4 for h in basics.hands)
    assert all(h.start.kind == HandKind.NORMAL for h in basics.hands)
    assert basics.hands[-1].result["hand_winner"] == 0
    # losing a round and playing last come before the first call of truco
    ids = [lesson.id for lesson in lessons]
    first_call = min(
        i
        for i, lesson in enumerate(lessons)
        if any(s.action.act is Act.TRUCO for _, s in lesson.steps())
    )
    assert ids.index("perder") < first_call and ids.index("pe") < first_call
    truco = lessons[ids.index("truco")]
    acts_by_learner = {s.action.act for _, s in truco.steps() if s.yours}
    assert {Act.PLAY, Act.ACCEPT, Act.TRUCO} <= acts_by_learner
    assert any(None in s.view.rounds for _, s in truco.steps()), "a cangou"
    assert {h.start.dealer for h in truco.hands} == {0, 1}


def test_mao_de_dez_mineiro_and_trem_bao_lessons() -> None:
    lessons = {lesson.id: lesson for lesson in load_lessons().lessons}
    assert len(lessons["mineiro"].hands) >= 2 and len(lessons["trembao"].hands) >= 2
    dez = lessons["dez"]
    assert all(h.start.variant == "mineiro" and h.start.kind == HandKind.SPECIAL for h in dez.hands)
    acts_by_learner = {s.action.act for _, s in dez.steps() if s.yours}
    assert {Act.RUN11, Act.PLAY11} <= acts_by_learner
    assert dez.hands[-1].steps[-1].view.phase == Phase.MATCH_OVER


def test_the_course_goes_from_the_plain_hand_to_the_exceptions() -> None:
    lessons = load_lessons().lessons
    ids = [lesson.id for lesson in lessons]
    special = [
        i
        for i, lesson in enumerate(lessons)
        if any(h.start.kind != HandKind.NORMAL for h in lesson.hands)
    ]
    plain = [
        ids.index(x) for x in ("basico", "perder", "pe", "truco", "correr", "blefe", "empates")
    ]
    assert max(plain) < min(special)
    # the second part of the old first lesson: coberta, a run, the mão de onze to the end
    rest = lessons[ids.index("onze")]
    acts_by_learner = {s.action.act for _, s in rest.steps() if s.yours}
    assert {Act.COVER, Act.PLAY11} <= acts_by_learner
    assert Act.RUN in {s.action.act for _, s in rest.steps() if not s.yours}
    assert rest.hands[-1].steps[-1].view.phase == Phase.MATCH_OVER


def test_a_bluffing_lesson_where_the_learner_bluffs_and_then_reads_a_bluff() -> None:
    lessons = {lesson.id: lesson for lesson in load_lessons().lessons}
    mine, theirs = lessons["blefe"].hands
    # the learner calls truco holding no manilha, and the other side runs
    call = next(s for s in mine.steps if s.yours)
    assert call.action.act == Act.TRUCO
    assert not set(mine.start.hand) & set(mine.start.manilhas)
    assert mine.steps[-1].action.act == Act.RUN and mine.steps[-1].view.score[0] == 1
    # the opponent calls holding no manilha (the script's cards), the learner accepts and wins
    script = {lesson["id"]: lesson for lesson in read_script()["lessons"]}
    bluffer = script["blefe"]["hands"][1]["hands"][1]
    assert not set(bluffer) & {str(c) for c in theirs.start.manilhas}
    called = [i for i, s in enumerate(theirs.steps) if s.action.act == Act.TRUCO and not s.yours]
    assert called and theirs.steps[called[0] + 1].action.act == Act.ACCEPT
    assert theirs.steps[-1].view.score[0] > theirs.start.score[0]


def test_learner_steps_are_legal_choices_in_the_view_before_them() -> None:
    for lesson in load_lessons().lessons:
        for hand in lesson.hands:
            before = hand.start
            for step in hand.steps:
                if step.yours:
                    choices = before.legal + before.legal_signals
                    assert step.action in choices, (lesson.id, step.prompt)
                before = step.view


def test_no_risky_raise_is_taught() -> None:
    """A learner asked to raise or call past truco holds a card nobody left can beat."""
    for lesson in load_lessons().lessons:
        for hand in lesson.hands:
            before = hand.start
            m = load_match(hand.scenario)
            for step in hand.steps:
                calling_more = step.action.act is Act.RAISE or (
                    step.action.act is Act.TRUCO and before.stake > m.ruleset.hand_value
                )
                if step.yours and calling_more:
                    strength = m.strength
                    best_left = max(strength[c] for c in before.hand)
                    unseen = [
                        c
                        for seat, h in enumerate(m.dealt)
                        if seat & 1 != lesson.seat & 1
                        for c in h
                    ]
                    played = {c for t in (*before.past, before.table) for _s, c, _cov in t if c}
                    threats = [c for c in unseen if c not in played and strength[c] > best_left]
                    assert not threats, (lesson.id, str(step.prompt))
                before = step.view


def test_covered_card_is_hidden_from_the_opponent_but_not_the_learner() -> None:
    lesson = next(x for x in load_lessons().lessons if x.id == "onze")
    cover = next(s for _, s in lesson.steps() if s.action.act == Act.COVER)
    assert cover.view.table[-1] == (0, cover.action.card, True)


def test_build_trace_is_json_with_views_and_texts_in_both_deck_styles() -> None:
    trace = build_trace()
    again = json.loads(json.dumps(trace, ensure_ascii=False))
    assert again["version"] == 2
    basics = again["lessons"][0]
    assert basics["id"] == "basico"
    step = basics["hands"][0]["steps"][0]
    assert step["action"] == "play KH"
    assert (
        step["prompt"]["tradicional"] == "Saia com o rei de copas (K♥) e guarde o zap para depois."
    )
    assert step["prompt"]["espanhol"] == "Saia com o 12 de copas (rey) e guarde o zap para depois."
    assert step["narration"]["espanhol"] == "Você: joga o 12 de copas (rey)."
    assert step["view"]["hand"] == ["6C", "4S"]
    assert basics["hands"][0]["start"]["vira"] == "5D"
    rest = next(lesson for lesson in again["lessons"] if lesson["id"] == "onze")
    assert rest["hands"][-1]["result"]["match_winner"] == 0
    assert basics["hands"][0]["seat_names"] == ["Você", "Adversário"]
    # no traditional label is left in a Spanish text, no token is left unwritten
    for lesson in again["lessons"]:
        for hand in lesson["hands"]:
            texts = [hand["intro"], hand["title"]]
            for s in hand["steps"]:
                texts += [s["explanation"], s["narration"]] + ([s["prompt"]] if s["prompt"] else [])
            for text in texts:
                assert not any(sym in text["espanhol"] for sym in "♣♥♠♦"), text["espanhol"]
                assert "{" not in text["tradicional"] + text["espanhol"], text


def test_words_name_cards_in_both_styles() -> None:
    w = Words("{O KH} e {um Q}, {os A}; {nome QS} ou {7D}.")
    assert w == "O rei de copas (K♥) e uma dama, os ases; dama de espadas (Q♠) ou 7♦."
    assert (
        w.in_style(DeckStyle.SPANISH)
        == "O 12 de copas (rey) e um 10, os 1; 10 de espadas (sota) ou 7 de oros."
    )
    with pytest.raises(TutorialError):
        Words("{nome K}")


def test_narration_names_the_call_of_each_step() -> None:
    first_match = [x for x in load_lessons().lessons if x.id in ("basico", "truco", "onze")]
    lines = [s.narration for lesson in first_match for _, s in lesson.steps()]
    assert "Adversário: Truco!" in lines
    assert "Você: Seis!" in lines
    assert "Adversário: aceita e aumenta — Nove!" in lines
    assert "Adversário: Corro!" in lines
    assert "Você: joga o rei de copas (K♥)." in lines


def test_card_name_in_portuguese() -> None:
    assert card_name(Card.parse("QS"), True) == "a dama de espadas (Q♠)"
    assert card_name(Card.parse("AD")) == "ás de ouros (A♦)"
    assert card_name(Card.parse("JS"), True, DeckStyle.SPANISH) == "o 11 de espadas (caballo)"
    assert card_name(Card.parse("AD"), True, DeckStyle.SPANISH) == "o 1 de oros"


def test_a_step_that_stops_being_legal_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    # round 1 cannot be covered (R5): the lesson must refuse to build
    broken["lessons"][0]["hands"][0]["actions"][0]["act"] = "cover"
    with pytest.raises(TutorialError, match="cover_not_allowed"):
        from_data(broken)


def test_a_card_not_in_hand_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    two_hands(broken)["hands"][1]["actions"][3]["card"] = "QH"
    with pytest.raises(TutorialError, match="card_not_in_hand"):
        from_data(broken)


def test_a_changed_outcome_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    broken["lessons"][0]["hands"][0]["expect"]["points"] = [3, 0]
    with pytest.raises(TutorialError, match="difere do esperado"):
        from_data(broken)


def test_learner_step_without_prompt_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    del broken["lessons"][0]["hands"][0]["actions"][0]["prompt"]
    with pytest.raises(TutorialError, match="prompt"):
        from_data(broken)


def test_unreadable_script_is_a_one_line_error(tmp_path) -> None:
    bad = tmp_path / "t.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(TutorialError, match="não consegui ler"):
        load_script(bad)


def _sinais(script: dict) -> dict:
    return next(h for h in script["lessons"] if h["id"] == "sinais")["hands"][0]


def test_the_sinais_lesson_sends_receives_and_catches_signals() -> None:
    lesson = load_lessons().lesson("sinais")
    steps = lesson.hands[0].steps
    signals = [s for s in steps if s.action.act is Act.SIGNAL]
    assert [s.seat for s in signals] == [0, 1, 2]
    mine = signals[0]
    assert mine.yours and mine.prompt is not None
    # the signal passes no turn: the learner's next step is still the learner's
    assert steps[steps.index(mine) + 1].seat == 0
    # what the learner's view holds: the partner's signal and the opponent's caught one
    after = signals[-1].view
    assert [(seat, sinal.code) for seat, sinal in after.signals] == [(1, "tres"), (2, "copas")]
    assert "levantou um ombro" in signals[1].narration


def test_a_lesson_cannot_claim_a_catch_the_seed_did_not_make(script: dict) -> None:
    broken = copy.deepcopy(script)
    hand = _sinais(broken)
    hand["seed"] = 0  # with this seed the learner misses the opponent's shrug
    with pytest.raises(TutorialError, match="não viu o sinal"):
        from_data(broken)
    del hand["actions"][2]["seen"]
    with pytest.raises(TutorialError, match="seen"):
        from_data(broken)


def test_an_unknown_signal_in_a_lesson_is_refused(script: dict) -> None:
    broken = copy.deepcopy(script)
    _sinais(broken)["actions"][0]["sinal"] = "careta"
    with pytest.raises(TutorialError, match="signal_not_allowed"):
        from_data(broken)


def test_the_trace_names_the_signals_for_the_player() -> None:
    trace = build_trace()
    assert [s["code"] for s in trace["sinais"]][:2] == ["zap", "copas"]
    steps = next(x for x in trace["lessons"] if x["id"] == "sinais")["hands"][0]["steps"]
    assert steps[0]["action"] == "signal zap"
    assert steps[0]["view"]["history"] == [[0, "signal zap"]]
    # an opponent's signal the learner did not catch would read "signal" alone
    assert steps[2]["action"] == "signal tres"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_gauderio_lessons_are_translated_whole_and_name_the_same_cards(lang: str) -> None:
    """A Spanish or English /tutorial learner gets gaudério's lessons (and the basics) in
    their language:
    every text of them translated (none missing), each translation naming exactly the
    cards its source names, sayable in both deck styles; no translation of a text that is
    no longer in the script."""
    from engine.tutorial import in_language, texts, tokens, translated, translations_of

    course = load_lessons()
    for lesson_id in ("basico", "pontos", "flor"):
        lesson = course.lesson(lesson_id)
        missing = [t for t in texts(lesson) if in_language(t, lang, DeckStyle.SPANISH) is None]
        assert missing == [] and translated(lesson, lang), (lesson_id, missing)
    assert in_language(course.title, lang, DeckStyle.TRADITIONAL) is not None
    written = {t.template for lesson in course.lessons for t in texts(lesson)}
    written.add(course.title.template)
    catalog = translations_of(lang)
    assert set(catalog) <= written, set(catalog) - written
    for source, translation in catalog.items():
        assert tokens(translation) == tokens(source), (source, translation)
    for lesson in course.lessons:
        for text in texts(lesson):
            for style in DeckStyle:
                said = in_language(text, lang, style)
                assert said is None or "{" not in said, said
