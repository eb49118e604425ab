"""The tutorial lessons: short scripted hands replayed by the engine, for the site and the bot.

The script (``engine/data/tutorial.json``) is a list of lessons; each lesson is a list of
hands in the scenario format (docs-dev/SCENARIOS.md), and each action also carries
a pt-BR ``explain`` and, when the learner's seat acts, a ``prompt`` telling what to do.
``load_lessons`` replays every hand with the engine and fails with ``TutorialError`` as soon
as a step stops being legal, or when the hands of a lesson do not follow each other as in a
real match (the score carries over, the deal passes to the next seat, R3), so a lesson can
never teach a move the rules refuse.

    course = load_lessons()
    for lesson in course.lessons:
        lesson.id, lesson.title, lesson.summary
        for hand in lesson.hands:
            hand.intro, hand.start             # text shown at the deal, learner's View before any move
            for step in hand.steps:
                step.prompt, step.action       # what the learner must do (None for the other seats)
                step.explanation, step.view    # why, and the learner's View after the step

Texts name cards with tokens so that they follow the learner's deck style (R11):
``{KH}`` is the card's label (``K♥`` or ``12 de copas``), ``{o KH}`` and ``{nome KH}`` its
name with or without the article (``o rei de copas (K♥)`` or ``o 12 de copas``), and a rank
alone, ``{K}``, ``{um K}``, ``{o K}``, ``{os K}``, names the rank (``os reis`` or ``os 12``);
``{do K}`` and ``{do KH}`` join ``de`` to the article (``da dama``, ``do 10``); a capital
(``{Um K}``, ``{O KH}``) starts a sentence.
Every text is a ``Words``: a ``str`` in the traditional style that also knows its Spanish form.

The lessons are written in pt-BR; a lesson's translation lives in a gettext catalog per
language, ``engine/words/locale/<lang>/LC_MESSAGES/tutorial.po``, whose msgids are the
script's texts as written (tokens and all). A translation names the same cards with the
tokens a language's ``engine.words`` can say: ``{KH}``, ``{o KH}`` (``the king of hearts
(K♥)``, ``el 12 de copas``), ``{nome KH}``, and a rank alone, ``{K}`` (``king``, ``12``) or
in the plural with no article, ``{os K}`` (``kings``, ``reyes``; the Spanish deck's ``12``). ``in_language`` gives
a text in a language; ``translated`` says whether a whole lesson is there (a lesson is
shown in one language, never half of one).

``build_trace()`` is the same course as plain JSON (the site's player reads it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine import actions as A
from engine import words
from engine.actions import Act, Action
from engine.cards import SPANISH_RANKS, Card, DeckStyle, Rank
from engine.errors import ErrorCode, IllegalAction
from engine.match import HandKind, Match, Phase
from engine.scenario import load_match, matches_expect, outcome, parse_action
from engine.sinais import SINAIS, Sinal
from engine.view import View
from engine.words import catalog

TRACE_VERSION = 2
PT = words.get("pt")
"""The lessons are written in pt-BR; card names, seats and narration are ``engine.words``'."""

_FACE_PLURALS = {Rank.QUEEN: "damas", Rank.JACK: "valetes", Rank.KING: "reis", Rank.ACE: "ases"}
"""Plurals of the ranks spelled out (``engine.words`` names single ranks only)."""
STYLE_KEYS = {DeckStyle.TRADITIONAL: "tradicional", DeckStyle.SPANISH: "espanhol"}
"""How the site names the deck styles (``html[data-baralho]``) and keys the trace's texts."""


class TutorialError(ValueError):
    """The tutorial script is malformed or one of its steps is not legal any more."""


# ------------------------------------------------------------------ card words


def card_name(card: Card, article: bool = False, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
    """A card in a lesson: ``o rei de copas (K♥)``; Spanish ``o 12 de copas (rey)``."""
    return PT.card_name(card, style, article=article, label=True)


def rank_words(rank: Rank, form: str, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
    """A rank alone: ``rei`` / ``um rei`` / ``o rei`` / ``os reis`` / ``do rei`` (Spanish ``12``)."""
    face = rank in _FACE_PLURALS
    if style == DeckStyle.SPANISH or not face:
        word = SPANISH_RANKS[rank] if style == DeckStyle.SPANISH else rank.code
        plural = word
        female = False
    else:
        word, plural = PT.rank(rank), _FACE_PLURALS[rank]
        female = rank is Rank.QUEEN
    if form == "um":
        return ("uma " if female else "um ") + word
    if form == "o":
        return ("a " if female else "o ") + word
    if form == "os":
        return ("as " if female else "os ") + plural
    if form == "do":
        return ("da " if female else "do ") + word
    return word


_TOKEN = re.compile(r"\{(?:(o|O|um|Um|os|Os|do|Do|nome) )?([4567QJKA23])([CHSD])?\}")


def _foreign(w: words.Words, m: re.Match[str], style: DeckStyle) -> str:
    """A card token in a translation: only the forms ``engine.words`` says in any language."""
    form, rank_code, suit_code = (m.group(1) or "").lower(), m.group(2), m.group(3)
    if suit_code is None:
        if form not in ("", "os"):
            raise TutorialError(f"{m.group(0)}: em {w.lang}, um valor sozinho é {{K}} ou {{os K}}")
        rank = Card.parse(rank_code + "C").rank
        if style == DeckStyle.SPANISH or rank not in _FACE_PLURALS:
            return SPANISH_RANKS[rank] if style == DeckStyle.SPANISH else rank.code
        return w.ranks(rank) if form == "os" else w.rank(rank)
    card = Card.parse(rank_code + suit_code)
    if form == "":
        return w.card(card, style)
    if form in ("o", "nome"):
        return w.card_name(card, style, article=form == "o", label=True)
    raise TutorialError(f"{m.group(0)}: em {w.lang}, uma carta é {{KH}}, {{o KH}} ou {{nome KH}}")


def render(template: str, style: DeckStyle, w: words.Words = PT) -> str:
    """A lesson text with its card tokens written in ``style`` (see the module docstring),
    in the language of ``w`` (a translation's tokens: ``_foreign``)."""

    def one(m: re.Match[str]) -> str:
        words = written(m)
        return words[:1].upper() + words[1:] if m.group(1) and m.group(1)[0].isupper() else words

    def written(m: re.Match[str]) -> str:
        if w is not PT:
            return _foreign(w, m, style)
        form, rank_code, suit_code = (m.group(1) or "").lower(), m.group(2), m.group(3)
        if suit_code is None:
            if form == "nome":
                raise TutorialError(f"{m.group(0)}: 'nome' precisa de uma carta, com naipe")
            return rank_words(Card.parse(rank_code + "C").rank, form, style)
        card = Card.parse(rank_code + suit_code)
        if form == "":
            return PT.card(card, style)
        if form in ("o", "nome"):
            return card_name(card, form == "o", style)
        if form == "do":  # de + o/a
            return "d" + card_name(card, True, style)
        raise TutorialError(f"{m.group(0)}: uma carta só aceita 'o', 'do' ou 'nome'")

    return _TOKEN.sub(one, template)


class Words(str):
    """A lesson text: the ``str`` itself is the traditional deck's; ``in_style`` gives the other."""

    styles: dict[DeckStyle, str]
    template: str | None
    """The text as the script writes it (a translation's msgid); ``None`` for a narration."""

    def __new__(cls, template: str) -> Words:
        self = cls.written({style: render(template, style) for style in STYLE_KEYS})
        self.template = template
        return self

    @classmethod
    def written(cls, styles: Mapping[DeckStyle, str]) -> Words:
        """A text already written in every deck style."""
        self = super().__new__(cls, styles[DeckStyle.TRADITIONAL])
        self.styles = dict(styles)
        self.template = None
        return self

    def in_style(self, style: DeckStyle) -> str:
        """The text with its cards named in ``style``."""
        return self.styles[style]

    def to_json(self) -> dict[str, str]:
        """Both styles, keyed as the site names them (``tradicional``, ``espanhol``)."""
        return {key: self.in_style(style) for style, key in STYLE_KEYS.items()}


# ------------------------------------------------------------------ narration


def seat_name(seat: int, learner: int, players: int) -> str:
    """How the lesson calls a seat: ``Você``, ``Parceiro`` or ``Adversário``."""
    return PT.seat(seat, learner, players)


def narrate(before: View, seat: int, action: Action, learner: int) -> Words:
    """One pt-BR line telling what ``seat`` did, from the learner's view just before it."""
    return Words.written(
        {style: told(PT, before, seat, action, learner, style) for style in STYLE_KEYS}
    )


def told(
    w: words.Words, before: View, seat: int, action: Action, learner: int, style: DeckStyle
) -> str:
    """What ``seat`` did, in the language of ``w``, from the learner's view just before it."""
    who = w.seat(seat, learner, before.players)
    return w.narrate(who, action, before, style, own=seat == learner)


# ------------------------------------------------------------------ translations

CATALOG = "tutorial"
"""The lessons' catalogs: ``engine/words/locale/<lang>/LC_MESSAGES/tutorial.po``."""


@cache
def translations_of(lang: str) -> Mapping[str, str]:
    """The script's texts translated into ``lang`` (the pt-BR text as written → its
    translation); empty for pt-BR and for a language with no catalog."""
    path = resources.files("engine.words").joinpath("locale", lang, "LC_MESSAGES", f"{CATALOG}.po")
    if lang == PT.lang or not path.is_file():
        return {}
    entries = catalog.read_po(path.read_text(encoding="utf-8"), f"{lang}/{CATALOG}.po")
    return {e.msgid: e.msgstr[0] for e in entries if e.msgid and e.translated}


def in_language(text: Words, lang: str, style: DeckStyle) -> str | None:
    """``text`` in ``lang`` with its cards in ``style``; ``None`` when it has no
    translation there (pt-BR: the text itself)."""
    if lang == PT.lang:
        return text.in_style(style)
    found = translations_of(lang).get(text.template or "")
    return render(found, style, words.get(lang)) if found else None


def texts(lesson: Tutorial) -> Iterator[Words]:
    """Every text a lesson shows (narrations are worded by ``engine.words``)."""
    yield lesson.title
    yield lesson.summary
    for hand in lesson.hands:
        yield hand.title
        yield hand.intro
        for step in hand.steps:
            if step.prompt is not None:
                yield step.prompt
            yield step.explanation


def translated(lesson: Tutorial, lang: str) -> bool:
    """Whether every text of ``lesson`` is in ``lang`` (a lesson is shown in one language)."""
    return all(in_language(text, lang, DeckStyle.TRADITIONAL) is not None for text in texts(lesson))


def tokens(template: str) -> list[str]:
    """A text's card tokens by what they name (``KH``, ``K``), sorted: a translation
    names the same cards as its source."""
    return sorted(m.group(2) + (m.group(3) or "") for m in _TOKEN.finditer(template))


# ------------------------------------------------------------------ the lesson values


@dataclass(frozen=True)
class Step:
    """One action of the lesson and what the learner sees after it."""

    seat: int
    action: Action
    """The action taken, as the acting seat chooses it (in the iron hand: a blind position);
    another seat's signal as the learner saw it (``signal`` alone when not caught)."""
    prompt: Words | None
    """What the learner is asked to do; ``None`` when another seat acts."""
    explanation: Words
    """Why the move is made and what it changed (pt-BR)."""
    narration: Words
    """One line telling what happened, e.g. ``Adversário: Seis!``."""
    view: View
    """The learner's view just after the step."""

    @property
    def yours(self) -> bool:
        """Whether the learner makes this move."""
        return self.prompt is not None

    def expects(self, action: Action) -> bool:
        """Whether ``action`` is the move this step teaches."""
        return action == self.action


@dataclass(frozen=True)
class TutorialHand:
    """One hand of a lesson."""

    title: Words
    intro: Words
    """Shown at the deal: the situation, the vira and the manilhas."""
    scenario: Mapping[str, Any]
    """The hand in the scenario format (``truco replay`` accepts it as is once its signals,
    which pass no turn and are not part of that format, are taken out)."""
    start: View
    """The learner's view before the first action."""
    steps: tuple[Step, ...]
    result: Mapping[str, Any]
    """The replay outcome (scenario-format output) after the last step."""

    def to_json(self) -> dict[str, Any]:
        """The hand as JSON-ready data (texts in both deck styles, views as ``View.to_json``)."""
        return {
            "title": self.title.to_json(),
            "intro": self.intro.to_json(),
            "variant": self.scenario["variant"],
            "players": self.start.players,
            "seat_names": [
                seat_name(s, self.start.seat, self.start.players) for s in range(self.start.players)
            ],
            "start": self.start.to_json(),
            "steps": [
                {
                    "seat": s.seat,
                    "action": str(s.action),
                    "prompt": s.prompt.to_json() if s.prompt is not None else None,
                    "explanation": s.explanation.to_json(),
                    "narration": s.narration.to_json(),
                    "view": s.view.to_json(),
                }
                for s in self.steps
            ],
            "result": dict(self.result),
        }


@dataclass(frozen=True)
class Tutorial:
    """One lesson: a few hands that follow each other as in a real match, checked by the engine."""

    id: str
    """Short ASCII name, stable: the site and the bot remember progress by it."""
    title: Words
    summary: Words
    """One line saying what the lesson teaches (the lesson menu shows it)."""
    seat: int
    """The learner's seat in every hand."""
    hands: tuple[TutorialHand, ...]

    def steps(self) -> Iterator[tuple[int, Step]]:
        """Every step in order, with the index of its hand."""
        for i, hand in enumerate(self.hands):
            for step in hand.steps:
                yield i, step

    def to_json(self) -> dict[str, Any]:
        """The lesson as JSON-ready data."""
        return {
            "id": self.id,
            "title": self.title.to_json(),
            "summary": self.summary.to_json(),
            "seat": self.seat,
            "hands": [h.to_json() for h in self.hands],
        }


@dataclass(frozen=True)
class Course:
    """Every lesson, in the order the menu offers them (the first one is the basics)."""

    title: Words
    seat: int
    lessons: tuple[Tutorial, ...]

    def lesson(self, lesson_id: str) -> Tutorial:
        """The lesson named ``lesson_id``; ``KeyError`` if there is none."""
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(lesson_id)

    def to_json(self) -> dict[str, Any]:
        """The course as JSON-ready data for the site's player."""
        return {
            "version": TRACE_VERSION,
            "title": self.title.to_json(),
            "seat": self.seat,
            "sinais": [
                {"code": i.code, "name": PT.sinal(i.sinal), "emoji": i.emoji} for i in SINAIS
            ],
            "lessons": [lesson.to_json() for lesson in self.lessons],
        }


# ------------------------------------------------------------------ replay


def _text(raw: Mapping[str, Any], key: str, where: str) -> Words:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise TutorialError(f"{where}: falta o texto {key!r}")
    return Words(value)


def _as_chosen(m: Match, seat: int, action: Action) -> Action:
    """The action as the seat picks it: in the iron hand a card is chosen by its position."""
    if m.kind == HandKind.IRON and action.act is Act.PLAY and action.card in m.dealt[seat]:
        return A.BLIND[m.dealt[seat].index(action.card)]
    return action


def _parse_step(item: Any) -> tuple[int, Action]:
    """One lesson action: a scenario action, or a signal (``"act": "signal", "sinal": "zap"``)."""
    if isinstance(item, dict) and item.get("act") == "signal" and isinstance(item.get("seat"), int):
        try:
            return item["seat"], A.SIGNAL[Sinal.parse(str(item.get("sinal", "")))]
        except ValueError as exc:
            raise IllegalAction(ErrorCode.SIGNAL_NOT_ALLOWED, "no_sinal") from exc
    return parse_action(item)


def _seen(
    m: Match, learner: int, seat: int, action: Action, item: Mapping[str, Any], at: str
) -> Action:
    """A signal as the learner saw it; an opponent's must say whether the learner caught it.

    The catch is the match's seeded chance (R12), so a lesson states it with ``"seen"``
    and the engine checks the statement: a text can never claim a catch that did not happen.
    """
    if action.act is not Act.SIGNAL:
        return action
    seen = m.view(learner).history[-1][1]
    if (seat ^ learner) & 1:
        claimed = item.get("seen")
        if not isinstance(claimed, bool):
            raise TutorialError(f'{at}: o sinal de um adversário diz se o aluno viu ("seen")')
        if claimed != (seen.sinal is not None):
            caught = "viu" if seen.sinal is not None else "não viu"
            raise TutorialError(f"{at}: com esta semente, o aluno {caught} o sinal")
    return seen


def _replay_hand(raw: Any, learner: int, where: str, previous: TutorialHand | None) -> TutorialHand:
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: deve ser um objeto")
    seed = raw.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TutorialError(f"{where}: seed deve ser um inteiro")
    try:
        m = load_match(raw, seed)
    except IllegalAction as exc:
        raise TutorialError(f"{where}: {PT.refusal(exc)}") from None
    if not 0 <= learner < m.players:
        raise TutorialError(f"{where}: o aluno não está sentado na mesa")
    start = m.view(learner)
    if previous is not None:
        _follows(previous, start, where)
    actions = raw.get("actions")
    if not isinstance(actions, list) or not actions:
        raise TutorialError(f"{where}: falta a lista de ações")
    steps: list[Step] = []
    for i, item in enumerate(actions):
        at = f"{where}, passo {i + 1}"
        try:
            seat, action = _parse_step(item)
            before = m.view(learner)
            chosen = _as_chosen(m, seat, action)
            m.apply(seat, chosen)
        except IllegalAction as exc:
            raise TutorialError(
                f"{at} ({item!r}) não é legal: {exc.code}: {PT.refusal(exc)}"
            ) from None
        chosen = _seen(m, learner, seat, chosen, item, at)
        prompt = _text(item, "prompt", at) if seat == learner else None
        if seat != learner and "prompt" in item:
            raise TutorialError(f"{at}: só os passos do aluno têm prompt")
        steps.append(
            Step(
                seat=seat,
                action=chosen,
                prompt=prompt,
                explanation=_text(item, "explain", at),
                narration=narrate(before, seat, chosen, learner),
                view=m.view(learner),
            )
        )
    if m.phase < Phase.HAND_OVER:
        raise TutorialError(f"{where}: a mão não termina com o último passo")
    result = outcome(m, None)
    expect = raw.get("expect")
    if expect is not None and not matches_expect(result, expect):
        raise TutorialError(f"{where}: resultado {result} difere do esperado {expect}")
    return TutorialHand(
        title=_text(raw, "title", where),
        intro=_text(raw, "intro", where),
        scenario=raw,
        start=start,
        steps=tuple(steps),
        result=result,
    )


def _follows(previous: TutorialHand, now: View, where: str) -> None:
    """A lesson is one match: the score carries over and the deal passes on (R3)."""
    before = previous.steps[-1].view
    if previous.result["match_winner"] is not None:
        raise TutorialError(f"{where}: a partida já acabou na mão anterior")
    if (now.variant, now.players, now.target) != (before.variant, before.players, before.target):
        raise TutorialError(f"{where}: muda de variante, de mesa ou de alvo no meio da lição")
    if now.score != before.score:
        raise TutorialError(
            f"{where}: placar {list(now.score)}, mas a mão anterior deixou {list(before.score)}"
        )
    if now.dealer != (before.dealer + 1) % now.players:
        raise TutorialError(
            f"{where}: quem dá as cartas deve ser a cadeira "
            f"{(before.dealer + 1) % now.players}, a seguinte à da mão anterior"
        )


def _lesson(raw: Any, learner: int, number: int) -> Tutorial:
    where = f"lição {number}"
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: deve ser um objeto")
    lesson_id = raw.get("id")
    if not isinstance(lesson_id, str) or not re.fullmatch(r"[a-z0-9-]{1,20}", lesson_id):
        raise TutorialError(f"{where}: id deve ser curto, em minúsculas ASCII")
    where = f"lição {lesson_id!r}"
    hands = raw.get("hands")
    if not isinstance(hands, list) or not hands:
        raise TutorialError(f"{where}: precisa de pelo menos uma mão")
    replayed: list[TutorialHand] = []
    for i, h in enumerate(hands):
        previous = replayed[-1] if replayed else None
        replayed.append(_replay_hand(h, learner, f"{where}, mão {i + 1}", previous))
    return Tutorial(
        id=lesson_id,
        title=_text(raw, "title", where),
        summary=_text(raw, "summary", where),
        seat=learner,
        hands=tuple(replayed),
    )


def read_script(path: str | Path | None = None) -> dict[str, Any]:
    """The raw script: ``path``, or the one shipped in ``engine/data/tutorial.json``."""
    try:
        if path is None:
            text = resources.files("engine").joinpath("data/tutorial.json").read_text("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TutorialError(f"não consegui ler o roteiro do tutorial: {exc}") from None
    if not isinstance(data, dict):
        raise TutorialError("o roteiro do tutorial deve ser um objeto JSON")
    return data


def from_data(data: Mapping[str, Any]) -> Course:
    """The course from an already parsed script (see ``load_lessons``)."""
    learner = data.get("seat", 0)
    if not isinstance(learner, int):
        raise TutorialError("seat deve ser um inteiro")
    lessons = data.get("lessons")
    if not isinstance(lessons, list) or not lessons:
        raise TutorialError("o roteiro precisa de pelo menos uma lição")
    course = Course(
        title=_text(data, "title", "roteiro"),
        seat=learner,
        lessons=tuple(_lesson(raw, learner, i + 1) for i, raw in enumerate(lessons)),
    )
    ids = [lesson.id for lesson in course.lessons]
    if len(set(ids)) != len(ids):
        raise TutorialError("duas lições com o mesmo id")
    return course


def load_lessons(path: str | Path | None = None) -> Course:
    """Every lesson, replayed by the engine; ``TutorialError`` if any step is not legal."""
    return from_data(read_script(path))


def load_script(path: str | Path | None = None) -> Tutorial:
    """The first lesson (the basics), replayed by the engine."""
    return load_lessons(path).lessons[0]


def build_trace(path: str | Path | None = None) -> dict[str, Any]:
    """The replayed course as JSON-ready data for the site's player."""
    return load_lessons(path).to_json()
