"""A person acts: the one way a Telegram button and a Mini App tap change a table.

Both adapters read the press or the tap first (who, and what they asked: the ``button``
decorator in ``bot/telegram/handlers/buttons.py``, the launch data and the view in
``bot/webapp/``), then hand ``person_acts`` the step that checks the person against the
table and acts through the domain. What follows is the same for both: a refusal comes
back worded in the person's language (``Refusal``), a change is told to the process's
notifier (the jobs it recorded start, open pages hear it, a signal is pinged) before the
adapter answers, and the adapter only says it its way (an alert or a toast; a JSON answer).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import Change
from bot.i18n import Translations
from bot.services import Services
from bot.wording.refusals import reason_text

T = TypeVar("T")
REPEATS = frozenset({Reason.DONE, Reason.LOBBY_REPEAT})
"""Refusals of a repeat (a double tap): the first press already shows, a toast is enough."""


@dataclass(frozen=True)
class Refusal:
    """Why a person's press or tap changed nothing, in their words."""

    reason: Reason
    text: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def repeat(self) -> bool:
        """A repeat of what the person just did (a double tap), not a real refusal."""
        return self.reason in REPEATS


def _itself(done: Any) -> Change | None:
    return done if isinstance(done, Change) else None


async def person_acts(
    services: Services,
    t: Translations,
    step: Callable[[], Awaitable[T]],
    change_of: Callable[[T], Change | None] = _itself,
) -> T | Refusal:
    """Run ``step`` (it checks the person and acts through the domain, which raises
    ``Refused``); a refusal comes back as a ``Refusal`` worded in ``t``; the change the step
    made (``change_of`` its result) is told to the notifier before the adapter answers."""
    try:
        done = await step()
    except Refused as refused:
        text = reason_text(t, refused.reason, refused.params)
        return Refusal(refused.reason, text, refused.params)
    change = change_of(done)
    if change is not None:
        services.notifier.changed(change)  # first: what the adapter answers is stored
    return done
