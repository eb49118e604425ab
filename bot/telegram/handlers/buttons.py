"""What every button handler does around its own step: the one way to write one.

A button handler is a body decorated with :func:`button`. The decorator does the rest,
in this order: nothing without a query and a person; the data read by ``parse``
(garbage and ids out of range answered with one line); the body, run as a person's act
(``bot.acting.person_acts``, the same as a Mini App tap: it raises ``Refused`` for any
reason the press cannot act, and the change it returns is told to the notifier before the
button stops spinning); a refusal answered as an alert (a double tap's as a toast); the
button answered (with the body's ``Answer``: a toast or a link); then what the body left
for after the answer.
Where the button was pressed was checked before any handler ran
(``bot.telegram.guards.pressed_here``).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from telegram import CallbackQuery, Update

from bot.acting import Refusal, person_acts
from bot.domain import Person, people
from bot.domain.values.game import Change
from bot.i18n import Translations, person_translations
from bot.numbers import NumberRefused
from bot.telegram.context import BotContext
from bot.telegram.handlers.common import answer_after, parse_button

Parsed = TypeVar("Parsed")


@dataclass(frozen=True)
class Press(Generic[Parsed]):
    """One press, read: the query, who pressed, in which language to answer, what it says."""

    query: CallbackQuery
    person: Person
    t: Translations
    data: Parsed


@dataclass(frozen=True)
class Answer:
    """What a body did and how the button answers: the change to schedule (if any), a
    toast ``text`` or a ``url`` to open, and ``then``, awaited once the button is answered
    (a greeting, a message edited to say what happened)."""

    change: Change | None = None
    text: str | None = None
    url: str | None = None
    then: Callable[[], Awaitable[None]] | None = None


def plain(parse: Callable[[str], Parsed]) -> Callable[[str], Parsed]:
    """``parse`` for buttons that name no game: a number too large is a bad button, not a
    game that is gone."""

    def read(data: str) -> Parsed:
        try:
            return parse(data)
        except NumberRefused as exc:
            raise ValueError(str(exc)) from None

    return read


def _change_of(answer: Answer | None) -> Change | None:
    return answer.change if answer is not None else None


Body = Callable[[Press[Parsed], BotContext], Awaitable[Change | Answer | None]]
Handler = Callable[[Update, BotContext], Coroutine[Any, Any, None]]


def button(
    parse: Callable[[str], Parsed], *, personal: bool | Literal["stored"] = False
) -> Callable[[Body[Parsed]], Handler]:
    """A button handler from its body (see the module).

    ``personal``: answer in the presser's language (private buttons), else the chat's;
    ``"stored"``: in the language stored for the person (met first, before the data is read).
    The body returns the change to schedule (then the button is answered), an ``Answer``,
    or ``None`` when it answered the button itself.
    """

    def wrap(body: Body[Parsed]) -> Handler:
        @functools.wraps(body)
        async def handler(update: Update, context: BotContext) -> None:
            q, person = update.callback_query, context.person
            if q is None or person is None:
                return
            if personal == "stored":
                player = await context.call(people.meet, context.db, person)
                t = person_translations(player.language_code)
            else:
                t = person_translations(person.language_code) if personal else context.t
            parsed = await parse_button(q, t, parse)
            if parsed is None:
                return

            async def step() -> Answer | None:
                done = await body(Press(q, person, t, parsed), context)
                return Answer(done) if isinstance(done, Change) else done

            answer = await person_acts(context.runtime, t, step, _change_of)
            if isinstance(answer, Refusal):
                await answer_after(q, text=answer.text, show_alert=not answer.repeat)
                return
            if answer is None:
                return
            await answer_after(q, text=answer.text, url=answer.url)
            if answer.then is not None:
                await answer.then()

        return handler

    return wrap
