"""The handlers' context: the bot's per-process runtime and the update's language.

As in PTB's ``contexttypesbot`` example, a ``CallbackContext`` subclass carries
what every handler needs (``context.db``, ``context.rules``, ``context.call``,
``context.t``...), so handlers never dig into ``bot_data`` nor repeat helpers.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar, cast

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot
from telegram.request import BaseRequest

from bot.config import Config
from bot.domain import ChatSettings, Database, Person, Rules, people
from bot.i18n import Translations, language_for, translations
from bot.ops.metrics import Metrics
from bot.robot_workers import Thinkers
from bot.services import SERVICES_KEY, BotApp, Services
from bot.telegram.budget import SharedBudget
from bot.telegram.job_runner import JobRunner
from bot.telegram.throttle import CommandThrottle

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(kw_only=True)
class Runtime(Services):
    """Per-process helpers: the ``Services`` both adapters share, and the Telegram
    adapter's own (flood budget, job runner, robots' workers, command throttle)."""

    budget: SharedBudget
    jobs: JobRunner
    metrics: Metrics
    thinkers: Thinkers = field(default_factory=Thinkers)
    throttle: CommandThrottle = field(default_factory=CommandThrottle)
    locks: dict[Any, asyncio.Lock] = field(default_factory=dict)
    http: BaseRequest | None = None
    """The Bot API's request (PTB's ``Bot`` holds it too)."""
    reposted: dict[int, float] = field(default_factory=dict)
    urgent: dict[int, deque[float]] = field(default_factory=dict)
    """When this process made each group's urgent calls lately (``bot.telegram.planner``)."""
    """When this process last posted each table again below (``clock`` time)."""

    def lock(self, key: Any) -> asyncio.Lock:
        """A lock serialising the messages of one game or chat inside this process."""
        found = self.locks.get(key)
        if found is None:
            found = self.locks[key] = asyncio.Lock()
        return found


RUNTIME_KEY = SERVICES_KEY


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The context of every handler and job of the truco bot."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:
        """A context for one update or job."""
        super().__init__(application, chat_id, user_id)
        self._update: Update | None = None
        self._t: Translations | None = None

    @classmethod
    def from_update(
        cls, update: object, application: Application[Any, Any, Any, Any, Any, Any]
    ) -> BotContext:
        """The context of an update, remembering the update for ``t`` and ``person``."""
        context = super().from_update(update, application)
        if isinstance(update, Update):
            context._update = update
        return context

    async def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a domain call off the event loop, on the updates' threads
        (``Services.call``): every call into ``bot.domain`` from a handler goes through here."""
        return await self.runtime.call(fn, *args, **kwargs)

    async def prepare(self) -> None:
        """Look up, off the loop, what ``t`` needs (a group's language is in the database)."""
        chat = self._update.effective_chat if self._update else None
        if self._t is None and chat is not None and chat.type != ChatType.PRIVATE:
            person = self.person
            heard = person.language_code if person is not None else None
            language = await self.call(
                people.group_language, self.db, chat.id, chat.type, chat.title or "", heard
            )
            self._t = translations(language)

    async def chat_settings(self) -> ChatSettings:
        """This chat's table defaults (``people.chat_settings``); a private chat new to the
        bot starts with the game of its person's language."""
        chat = self._update.effective_chat if self._update else None
        assert chat is not None, "a chat's settings are asked for only in a chat"
        person = self.person
        speaker = person.language_code if person is not None else None
        return await self.call(
            people.chat_settings, self.db, chat.id, chat.type, chat.title or "", speaker
        )

    @property
    def runtime(self) -> Runtime:
        """The process's runtime (configuration, database, timers, robots)."""
        return cast(Runtime, self.bot_data[RUNTIME_KEY])

    @property
    def db(self) -> Database:
        """The database, for the domain layer's calls."""
        return self.runtime.db

    @property
    def rules(self) -> Rules:
        """Bot-wide table knobs and the clock."""
        return self.runtime.rules

    @property
    def config(self) -> Config:
        """The bot's configuration."""
        return self.runtime.config

    @property
    def person(self) -> Person | None:
        """Who sent the update."""
        user = self._update.effective_user if self._update else None
        if user is None:
            return None
        return Person(user.id, user.full_name, user.username, user.language_code)

    @property
    def t(self) -> Translations:
        """The update's language: the group's setting in groups, the person's in private.

        Looked up before the handlers run (``prepare``); reading it elsewhere may block.
        """
        if self._t is None:
            chat = self._update.effective_chat if self._update else None
            if chat is not None and chat.type != ChatType.PRIVATE:
                self._t = translations(people.chat_language(self.db, chat.id))
            else:
                person = self.person
                self._t = translations(language_for(person.language_code if person else None))
        return self._t

    @property
    def thread_id(self) -> int | None:
        """The forum topic the update came from, if any."""
        msg = self._update.effective_message if self._update else None
        if msg is not None and msg.is_topic_message and msg.message_thread_id:
            return msg.message_thread_id
        return None


TrucoApp = BotApp
"""The bot's Application (PTB's six type parameters say little here: its context is
``BotContext``, its ``bot_data`` holds the ``Runtime``)."""
CONTEXT_TYPES = ContextTypes(context=BotContext)


def runtime_of(app: TrucoApp) -> Runtime:
    """The runtime stored in an application (for code that has no context, like start-up)."""
    return cast(Runtime, app.bot_data[RUNTIME_KEY])
