"""The Application: builder, handlers, rate limiter, start-up resume and the jobs' start and
stop (``bot.process.Runner`` runs it: polling or webhook)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram._utils.types import JSONDict
from telegram.constants import ParseMode
from telegram.error import Forbidden, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot.clock import WALL, Clock
from bot.config import Config
from bot.domain import Database, Rules, tables
from bot.i18n import LANGUAGES, SOURCE, translations
from bot.ops.metrics import Metrics, received_at
from bot.telegram import command_table, guards, job_table, planner, publish
from bot.telegram.budget import SPACING, SharedBudget, for_table
from bot.telegram.callbacks import Prefix, pattern
from bot.telegram.context import (
    CONTEXT_TYPES,
    RUNTIME_KEY,
    BotContext,
    Runtime,
    TrucoApp,
    runtime_of,
)
from bot.telegram.handlers import (
    commands,
    errors,
    lobby,
    marcador,
    membership,
    moves,
    settings,
    tutorial,
)
from bot.telegram.job_runner import JobRunner
from bot.telegram.render.common import WARNING_SECONDS
from bot.telegram.request import AiohttpRequest
from bot.telegram.throttle import CommandThrottle, notes_for

log = logging.getLogger(__name__)

# The calls Telegram's flood limits count (messages sent, edited or deleted).
COUNTED = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "deleteMessage",
        "deleteMessages",
        "copyMessage",
        "forwardMessage",
        "sendPhoto",
        "sendDocument",
    }
)


def _seconds(exc: RetryAfter) -> float:
    value: Any = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class _NoRoom(Exception):
    """A call other than the table's found its group's room gone: it waits outside again."""


class SharedLimiter(BaseRateLimiter[int]):
    """PTB's rate-limiter hook, drawing on the flood budgets every process shares.

    Each send, edit or deletion waits until it fits its group's budget (20 a minute)
    and the bot's (30 a second), counted in the database for all processes; reads
    (``getChatMember`` before answering a button) and button answers go straight
    through. A 429 is waited out and retried (up to ``max_retries``) and counted,
    and every button answer is timed, in :class:`Metrics`.
    """

    def __init__(self, budget: SharedBudget, metrics: Metrics, max_retries: int = 5) -> None:
        """A limiter over ``budget`` reporting to ``metrics``."""
        self.budget = budget
        self.metrics = metrics
        self.max_retries = max_retries
        self._locks: dict[int | None, asyncio.Lock] = {}
        self._answered: dict[int, float] = {}
        """When Telegram last answered a call to each group (the budget's clock), for the
        spacing."""

    async def initialize(self) -> None:
        """Nothing to set up: the budgets live in the database."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        """Wait for the budgets, call, wait out 429s."""
        chat = data.get("chat_id")
        chat_id = chat if isinstance(chat, int) else None
        if endpoint not in COUNTED:
            return await self._call(callback, args, kwargs, endpoint, chat_id)
        group = chat_id if chat_id is not None and chat_id < 0 else None
        if group is not None and group in self.budget.gone:
            # removed from the group: answered here, the way Telegram would, without a call
            raise Forbidden("Forbidden: bot is not a member of the group chat")
        extra = group is not None and not for_table()
        while True:
            if group is not None and extra:
                # wait for room outside the chat's queue: the table's calls never queue behind
                await self.budget.room(group)
            # one call at a time per chat, in the order made: messages arrive as sent
            lock = self._locks.setdefault(chat_id, asyncio.Lock())
            async with lock:
                try:
                    if group is not None:
                        await self._space(group)
                    result = await self._call(
                        callback, args, kwargs, endpoint, chat_id, extra=extra
                    )
                    if group is not None:
                        self._answered[group] = self.budget.clock()
                    return result
                except _NoRoom:
                    continue  # the room went to another call meanwhile: wait outside again
                except Forbidden:
                    if group is not None:  # kicked or left: stop calling the group
                        self.budget.gone.add(group)
                        log.info("removed from %s: nothing more is sent there", group)
                    raise
                except TelegramError:
                    if group is not None:
                        self._answered[group] = self.budget.clock()
                    raise
                finally:
                    if not lock._waiters:
                        self._locks.pop(chat_id, None)

    async def _space(self, chat_id: int) -> None:
        """Wait until a second has passed since Telegram answered the group's last call: it
        reached Telegram before that answer, so the next one reaches it a second later."""
        last = self._answered.get(chat_id)
        if last is None:
            return
        clock = self.budget.clock
        wait = min(SPACING, last + SPACING - clock())  # (a wall clock may be set back)
        if wait > 0:
            await clock.sleep(wait)
        if len(self._answered) > 1024:  # forget the groups quiet for a while
            now = clock()
            for key in [k for k, t in self._answered.items() if now - t > SPACING]:
                del self._answered[key]

    async def _call(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        chat_id: int | None,
        *,
        extra: bool = False,
    ) -> bool | JSONDict | list[JSONDict]:
        for attempt in range(self.max_retries + 1):
            taken = None
            if endpoint in COUNTED:
                taken = await self.budget.take(chat_id, table=not extra)
                if taken is None:
                    raise _NoRoom
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                self.metrics.throttled.inc()
                if attempt >= self.max_retries:
                    raise
                await self.budget.clock.sleep(_seconds(exc) + 0.1)
                continue
            finally:
                if taken is not None:
                    await self.budget.sent(taken, chat_id)
            if endpoint == "answerCallbackQuery":
                self.metrics.answered()
            return result
        raise AssertionError("unreachable")


def _commands(private: bool, lang: str) -> list[BotCommand]:
    return [BotCommand(*pair) for pair in command_table.menu(private, translations(lang))]


async def on_startup(app: TrucoApp) -> None:
    """Publish the command menus and resume every table from the database."""
    try:
        for lang in LANGUAGES:  # the source language's menus are the default ones
            kw: dict[str, Any] = {} if lang == SOURCE else {"language_code": lang}
            await app.bot.set_my_commands(
                _commands(private=False, lang=lang),
                scope=BotCommandScopeAllGroupChats(),
                **kw,
            )
            await app.bot.set_my_commands(
                _commands(private=True, lang=lang),
                scope=BotCommandScopeAllPrivateChats(),
                **kw,
            )
    except TelegramError as exc:
        log.warning("could not set the command menus: %s", exc)
    await resume(app)
    # Full collections scanned every module, handler and mapper loaded so far and
    # stalled the event loop for >100 ms; those objects live as long as the bot.
    gc.freeze()


async def resume(app: TrucoApp) -> None:
    """Make sure every unfinished table has its jobs (``start_jobs`` then runs them).

    Jobs are stored with the changes, so a restart finds them waiting; recording them
    again for each unfinished table covers a database from before durable jobs and
    costs one redraw. Every replica may do it: a job is replaced, never doubled.
    """
    rt = runtime_of(app)
    count = await asyncio.to_thread(tables.resume_jobs, rt.db, rt.rules)
    if count:
        log.info("resumed %d tables", count)


def start_jobs(app: TrucoApp) -> None:
    """Start the job runner, once the Application runs (``stop_jobs`` before it stops)."""
    runtime_of(app).jobs.start(app)


async def stop_jobs(app: TrucoApp) -> None:
    """Let the jobs running finish and claim no more (before the Application stops)."""
    await runtime_of(app).jobs.stop()


async def on_update(update: object, context: BotContext) -> None:
    """Before any handler: count the update, note when it arrived (if the webhook did not),
    and look up its language off the event loop."""
    if received_at.get() is None:
        received_at.set(time.monotonic())
    kind = "other"
    if isinstance(update, Update):
        kind = next((k for k in Update.ALL_TYPES if getattr(update, k, None) is not None), kind)
    context.runtime.metrics.updates.labels(kind).inc()
    await context.prepare()


async def on_shutdown(app: TrucoApp) -> None:
    """Stop the robots' worker processes and the updates' threads."""
    rt = runtime_of(app)
    rt.thinkers.close()
    rt.close()


def build_application(config: Config, db: Database | None = None, clock: Clock = WALL) -> TrucoApp:
    """The bot's Application, wired to ``config.api_url`` and the database.

    ``clock`` tells the time everything runs by: deadlines, jobs, the flood budgets and
    their waits, the command throttle (tests hold it and move it).
    """
    db = db or Database(config.database_url)
    metrics = Metrics()
    metrics.count_database(lambda: db.transactions, lambda: db.statements)
    runner = JobRunner(db, metrics, clock=clock, lease=config.job_lease, lanes=job_table.LANES)
    urgent: dict[int, deque[float]] = {}
    rules = Rules(
        decision_seconds=config.decision_seconds,
        seed=config.seed,
        clock=clock,
        robot_delay=config.robot_delay,
        warning_seconds=WARNING_SECONDS,
        holder=runner,
        table_pace=planner.table_pace(config.group_budget, urgent),
    )
    budget = SharedBudget(db, config.group_budget, config.bot_budget, clock=clock)
    http = AiohttpRequest()
    builder = (
        Application.builder()
        .token(config.token)
        .base_url(f"{config.api_url}/bot")
        .base_file_url(f"{config.api_url}/file/bot")
        .defaults(Defaults(parse_mode=ParseMode.HTML))
        .context_types(CONTEXT_TYPES)
        .rate_limiter(SharedLimiter(budget, metrics))
        .request(http)
        .concurrent_updates(True)
        .job_queue(None)
    )
    if config.webhook_url:
        builder = builder.updater(None)  # updates come from bot.ops.webserver
    else:
        # PTB's own request for long polling, as it builds it (with .request() set it
        # refuses get_updates_read_timeout)
        polling = HTTPXRequest(connection_pool_size=1, read_timeout=config.poll_timeout + 10)
        builder = builder.get_updates_request(polling)
    app = builder.build()
    rt = Runtime(
        config=config,
        db=db,
        rules=rules,
        clock=clock,
        budget=budget,
        jobs=runner,
        metrics=metrics,
        throttle=CommandThrottle(notes_for(db), reserve=budget.reserve, clock=clock),
        http=http,
        urgent=urgent,
    )
    app.bot_data[RUNTIME_KEY] = rt
    job_table.install(rt.jobs)
    publish.subscribe(app)
    app.add_handler(TypeHandler(object, on_update), group=-1)
    guards.install(app)
    for command in command_table.COMMANDS:
        app.add_handler(CommandHandler(command.names, command.handler))
    app.add_handler(CallbackQueryHandler(moves.on_move, pattern=pattern(Prefix.MOVE)))
    app.add_handler(CallbackQueryHandler(moves.on_signals, pattern=pattern(Prefix.SIGNALS)))
    app.add_handler(CallbackQueryHandler(lobby.on_lobby, pattern=pattern(Prefix.LOBBY)))
    app.add_handler(CallbackQueryHandler(lobby.on_rematch, pattern=pattern(Prefix.REMATCH)))
    app.add_handler(CallbackQueryHandler(lobby.on_back, pattern=pattern(Prefix.BACK)))
    app.add_handler(CallbackQueryHandler(lobby.on_vote, pattern=pattern(Prefix.VOTE)))
    app.add_handler(CallbackQueryHandler(lobby.on_cancel, pattern=pattern(Prefix.CANCEL)))
    app.add_handler(CallbackQueryHandler(settings.on_config, pattern=pattern(Prefix.CONFIG)))
    app.add_handler(CallbackQueryHandler(settings.on_deck, pattern=pattern(Prefix.DECK)))
    app.add_handler(CallbackQueryHandler(tutorial.on_tutorial, pattern=pattern(Prefix.TUTORIAL)))
    app.add_handler(CallbackQueryHandler(marcador.on_marcador, pattern=pattern(Prefix.MARCADOR)))
    app.add_handler(CallbackQueryHandler(errors.on_garbage))
    app.add_handler(InlineQueryHandler(moves.on_inline))
    app.add_handler(
        ChatMemberHandler(membership.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    app.add_handler(MessageHandler(filters.VIA_BOT, moves.on_posted))
    # after the handlers above: every group message, command or not, counts for burying
    chatter = filters.ChatType.GROUPS & filters.UpdateType.MESSAGE
    app.add_handler(MessageHandler(chatter, commands.on_group_message), group=1)
    # last: whatever else a person writes in private gets a one-line hint, never silence
    app.add_handler(
        MessageHandler(
            filters.ChatType.PRIVATE
            & filters.UpdateType.MESSAGE
            & (filters.TEXT | filters.COMMAND),
            commands.unknown,
        )
    )
    app.add_error_handler(errors.on_error)
    return app
