"""From stored state to Telegram: the table message, hand messages, closings, timers.

Nothing here decides a rule or keeps game state: every function reloads the game
from the database and draws what it finds. Group traffic is coalesced by one
JobQueue job per chat (``table:<chat>:<topic>``) and kept within a budget of
calls per minute; deadlines and robot turns are jobs named per chat and game.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlmodel import col, select
from telegram import InlineKeyboardMarkup, Message
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application, ContextTypes, Job

from bot.config import Config
from bot.i18n import language_for, translations
from bot.metrics import Metrics
from bot.models import Chat, Event, Game, HandMessage, Player
from bot.render import (
    Translations,
    hand_closed_text,
    hand_keyboard,
    hand_over_line,
    hand_text,
    lobby_keyboard,
    lobby_text,
    match_over_text,
    rematch_keyboard,
    table_keyboard,
    table_text,
    zone,
)
from bot.robots import Thinkers
from bot.service import Change, Rules, Seat, load_match, load_seats, pending_starts
from bot.store import Database

log = logging.getLogger(__name__)
AnyApp = Application[Any, Any, Any, Any, Any, Any]
WINDOW = 60.0
MIN_GAP = 1.0
JOB_INSTANCES = 1000
RETRY_SECONDS = 2.0
"""Wait before redrawing after a call failed for a passing reason (network, 429)."""


@dataclass
class GroupBudget:
    """Calls made to each group in the last minute, to stay within the flood budget."""

    limit: int = 20
    calls: dict[int, deque[float]] = field(default_factory=dict)

    def _recent(self, chat_id: int, now: float) -> deque[float]:
        q = self.calls.setdefault(chat_id, deque())
        while q and now - q[0] >= WINDOW:
            q.popleft()
        return q

    def wait(self, chat_id: int, needed: int, now: float | None = None) -> float:
        """Seconds to wait before ``needed`` more calls fit (1 s apart, ``limit`` a minute)."""
        now = time.monotonic() if now is None else now
        q = self._recent(chat_id, now)
        gap = max(0.0, q[-1] + MIN_GAP - now) if q else 0.0
        over = len(q) + needed - self.limit
        if over <= 0:
            return gap
        if over > len(q):
            return WINDOW
        return max(gap, q[over - 1] + WINDOW - now)

    def spend(self, chat_id: int, now: float | None = None) -> None:
        """Record one call to a group."""
        if chat_id < 0:
            now = time.monotonic() if now is None else now
            self._recent(chat_id, now).append(now)

    def done(self, chat_id: int) -> None:
        """The last call ended (maybe after waiting out a 429): space the next from now."""
        q = self.calls.get(chat_id)
        if q:
            q[-1] = max(q[-1], time.monotonic())


@dataclass
class Runtime:
    """Per-process helpers kept in ``bot_data`` (no game state: that is in the database)."""

    config: Config
    db: Database
    rules: Rules
    budget: GroupBudget
    thinkers: Thinkers = field(default_factory=Thinkers)
    metrics: Metrics = field(default_factory=Metrics)
    locks: dict[Any, asyncio.Lock] = field(default_factory=dict)

    def lock(self, key: Any) -> asyncio.Lock:
        """A lock serialising the messages of one game or chat inside this process."""
        found = self.locks.get(key)
        if found is None:
            found = self.locks[key] = asyncio.Lock()
        return found


def runtime(app: AnyApp) -> Runtime:
    """The runtime stored in the application's ``bot_data``."""
    return cast(Runtime, app.bot_data["runtime"])


def chat_translations(s: Any, chat_id: int) -> Translations:
    """The language of a group (``/config``), Portuguese by default."""
    chat = s.get(Chat, chat_id)
    return translations(chat.language if chat and chat.language else "pt")


def player_translations(player: Player | None) -> Translations:
    """The language of a person, from their Telegram language."""
    return translations(language_for(player.language_code if player else None))


def _digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    body = text + json.dumps(markup.to_dict() if markup else None, sort_keys=True)
    return hashlib.sha1(body.encode()).hexdigest()


class _Later(Exception):
    """A Bot API call failed for a passing reason (network, 429 after retries): redraw later."""


def _gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


# --------------------------------------------------------------------- refresh


def refresh(app: AnyApp, change: Change) -> None:
    """After a stored change: reschedule timers and queue the redraw of the table and the hands.

    Nothing here waits for Telegram: the caller has answered its button already and
    returns at once, so a backlog of messages (30 a second overall, 20 a minute per
    group) never holds an update slot. The jobs redraw whatever the database holds
    when they run, so the newest state always wins.
    """
    schedule_timers(app, change)
    schedule_table(app, change.chat_id, change.thread_id, change.game_id)
    if change.status != "lobby":
        schedule_hands(app, change.chat_id, change.game_id)


def _pending_job(app: AnyApp, name: str) -> Job[Any] | None:
    """The job of that name still waiting to run (names are unique job ids)."""
    jq = app.job_queue
    assert jq is not None
    aps_job = jq.scheduler.get_job(name)
    return None if aps_job is None else Job.from_aps_job(aps_job)


def _run_once(app: AnyApp, callback: Any, when: float, name: str, data: Any, chat_id: int) -> None:
    """Schedule a job under a unique name (looked up by id, not by scanning every job).

    A job runs however late the event loop gets to it (APScheduler would drop it
    after a second), and may start while the previous one of that name still runs:
    the locks in the drawing functions and the version checks keep them in order.
    """
    jq = app.job_queue
    assert jq is not None
    jq.run_once(
        callback,
        when=when,
        name=name,
        data=data,
        chat_id=chat_id,
        job_kwargs={
            "id": name,
            "replace_existing": True,
            "misfire_grace_time": None,
            "max_instances": JOB_INSTANCES,
        },
    )


def schedule_table(app: AnyApp, chat_id: int, thread_id: int | None, game_id: int) -> None:
    """Ask for the chat's table to be redrawn soon; a pending redraw takes the newest state."""
    name = f"table:{chat_id}:{thread_id or 0}"
    job = _pending_job(app, name)
    if job is not None:
        cast(set[int], job.data).add(game_id)
        return
    wait = runtime(app).budget.wait(chat_id, 1)
    _run_once(app, flush_table, wait, name, {game_id}, chat_id)


async def flush_table(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Draw the newest state of the tables waiting in this chat."""
    job = cast(Job[Any], context.job)
    for game_id in sorted(cast(set[int], job.data)):
        await publish_game(context.application, game_id)


def schedule_hands(app: AnyApp, chat_id: int, game_id: int) -> None:
    """Ask for a game's private hand messages to be redrawn; one pending redraw is enough."""
    name = f"hands:{chat_id}:{game_id}"
    if _pending_job(app, name) is None:
        _run_once(app, flush_hands, 0, name, game_id, chat_id)


async def flush_hands(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Draw the newest state of a game's private hand messages."""
    await update_hands(context.application, cast(int, cast(Job[Any], context.job).data))


def _pending_hand_events(s: Any, game: Game) -> list[dict[str, Any]]:
    q = select(Event).where(Event.game_id == game.id, Event.kind == "hand_over")
    rows = [json.loads(e.data) for e in s.exec(q.order_by(col(Event.id)))]
    return [r for r in rows if r["hand"] >= game.announced_hands]


def _match_over_event(s: Any, game: Game) -> dict[str, Any] | None:
    q = select(Event).where(Event.game_id == game.id, Event.kind == "match_over")
    e = s.exec(q).first()
    return json.loads(e.data) if e else None


async def publish_game(app: AnyApp, game_id: int) -> None:
    """Bring a game's public messages up to date: table (or lobby), hand closings, match end."""
    rt = runtime(app)
    async with rt.lock(("chat", game_id)):
        with rt.db.session() as s:
            game = s.get(Game, game_id)
            if game is None:
                return
            if game.private:
                player = s.get(Player, game.creator_id)
                t = player_translations(player)
            else:
                t = chat_translations(s, game.chat_id)
            seats = load_seats(game)
            closings = _pending_hand_events(s, game) if game.status in ("playing", "over") else []
            ending = (
                _match_over_event(s, game)
                if game.status == "over" and not game.announced_end
                else None
            )
            missing = pending_starts(s, game) if game.status == "lobby" else []
        if not game.private:
            needed = 1 + bool(closings) + bool(ending)
            wait = rt.budget.wait(game.chat_id, needed)
            if wait > 0.01:
                _retry_table(app, game, wait)
                return
        try:
            await _draw_table(app, game, seats, missing, t)
            if closings:
                text = "\n".join(hand_over_line(t, c, seats) for c in closings)
                if await _send(app, game, text, None):
                    _mark(rt.db, game_id, announced_hands=closings[-1]["hand"] + 1)
            if ending is not None:
                text = match_over_text(t, ending, seats)
                if await _send(app, game, text, rematch_keyboard(t, game)):
                    _mark(rt.db, game_id, announced_end=True)
        except _Later:
            _retry_table(app, game, RETRY_SECONDS)  # the newest state, drawn again soon


def _retry_table(app: AnyApp, game: Game, wait: float) -> None:
    name = f"table:{game.chat_id}:{game.thread_id or 0}"
    job = _pending_job(app, name)
    if job is not None:
        cast(set[int], job.data).add(game.id or 0)
        return
    _run_once(app, flush_table, wait, name, {game.id or 0}, game.chat_id)


def _mark(db: Database, game_id: int, **values: Any) -> None:
    """Store message bookkeeping (not game state: the version does not change)."""
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            return
        for k, v in values.items():
            setattr(game, k, v)
        s.add(game)
        s.commit()


async def _send(
    app: AnyApp, game: Game, text: str, markup: InlineKeyboardMarkup | None
) -> Message | None:
    rt = runtime(app)
    rt.budget.spend(game.chat_id)
    try:
        return await app.bot.send_message(
            game.chat_id, text, reply_markup=markup, message_thread_id=game.thread_id
        )
    except Forbidden:
        log.info("chat %s does not accept messages", game.chat_id)
    except BadRequest as exc:
        log.warning("send to %s refused: %s", game.chat_id, exc)
    except TelegramError as exc:
        log.warning("send to %s failed: %s", game.chat_id, exc)
        raise _Later from exc
    finally:
        rt.budget.done(game.chat_id)
    return None


async def _draw_table(
    app: AnyApp, game: Game, seats: Sequence[Seat | None], missing: list[str], t: Translations
) -> None:
    """Edit the table message in place (send it when there is none); ``_Later`` to retry."""
    rt = runtime(app)
    username = app.bot.username if app.bot._bot_user else ""
    markup: InlineKeyboardMarkup | None
    if game.status == "lobby":
        text = lobby_text(t, game, seats, missing)
        markup = lobby_keyboard(t, game, missing, username)
    elif game.status == "cancelled":
        text = t.gettext("🚫 Mesa cancelada.")
        markup = None
    else:
        view = load_match(game).view(0)
        text = table_text(t, game, view, seats, zone(rt.config.timezone))
        markup = table_keyboard(t, game, username) if game.status == "playing" else None
    if game.table_message_id is not None:
        rt.budget.spend(game.chat_id)
        try:
            outcome = await _edit(app, game.chat_id, game.table_message_id, text, markup)
        finally:
            rt.budget.done(game.chat_id)
        if outcome == "failed":
            raise _Later
        if outcome == "done":
            return
    if game.status == "cancelled" and game.table_message_id is None:
        return
    sent = await _send(app, game, text, markup)
    if sent is not None:
        _mark(rt.db, game.id or 0, table_message_id=sent.message_id)


# ------------------------------------------------------------------ private hands


async def update_hands(app: AnyApp, game_id: int) -> None:
    """Send or edit each person's hand message so it shows their view and legal buttons.

    The message of a hand that is over is closed: its buttons and turn line give way
    to how the hand ended. A call that fails for a passing reason is retried later.
    """
    rt = runtime(app)
    tz = zone(rt.config.timezone)
    async with rt.lock(("hands", game_id)):
        with rt.db.session() as s:
            game = s.get(Game, game_id)
            if game is None or game.snapshot is None:
                return
            seats = load_seats(game)
            m = load_match(game)
            rows = {
                h.seat: h for h in s.exec(select(HandMessage).where(HandMessage.game_id == game_id))
            }
            people = {
                i: s.get(Player, x.user) for i, x in enumerate(seats) if x and x.user is not None
            }
            over = game.status == "over"
            ended = (
                _hand_over_events(s, game_id)
                if over or any(r.hand_number != m.hand_number for r in rows.values())
                else {}
            )
        failed = False
        for seat, player in people.items():
            if player is None or not player.started:
                continue
            t = player_translations(player)
            view = m.view(seat)
            if game.status == "cancelled":
                text, markup = t.gettext("🚫 Mesa cancelada."), None
            elif over and view.hand_number in ended:
                closing = ended[view.hand_number]
                text = hand_closed_text(t, closing, seats, player.deck, view.match_winner)
                markup = None
            else:
                text = hand_text(t, game, view, seats, tz, player.deck)
                markup = hand_keyboard(t, game, view, player.deck)
            digest = _digest(text, markup)
            row = rows.get(seat)
            if row is not None and row.hand_number == view.hand_number:
                if row.digest == digest:
                    continue
                outcome = await _edit(app, row.chat_id, row.message_id, text, markup)
                if outcome == "done":
                    _save_hand(rt.db, game_id, seat, player.id, row.message_id, view, digest)
                    continue
                if outcome == "failed":
                    failed = True
                    continue
            elif row is not None:
                data = ended.get(row.hand_number)
                if data is None:  # no record of how it ended: at least take the buttons off
                    with contextlib.suppress(TelegramError):
                        await app.bot.edit_message_reply_markup(
                            row.chat_id, row.message_id, reply_markup=None
                        )
                else:
                    closed = hand_closed_text(t, data, seats, player.deck)
                    if await _edit(app, row.chat_id, row.message_id, closed, None) == "failed":
                        failed = True
                        continue
            if game.status == "cancelled":
                continue
            try:
                sent = await app.bot.send_message(player.id, text, reply_markup=markup)
            except Forbidden:
                _forget_start(rt.db, player.id)
                continue
            except TelegramError as exc:
                log.warning("hand message to %s failed: %s", player.id, exc)
                failed = True
                continue
            _save_hand(rt.db, game_id, seat, player.id, sent.message_id, view, digest)
    if failed:
        name = f"hands:{game.chat_id}:{game_id}"
        if _pending_job(app, name) is None:  # a pending redraw comes sooner and does the same
            _run_once(app, flush_hands, RETRY_SECONDS, name, game_id, game.chat_id)


def _hand_over_events(s: Any, game_id: int) -> dict[int, dict[str, Any]]:
    """How each finished hand of a game ended, by hand number."""
    q = select(Event).where(Event.game_id == game_id, Event.kind == "hand_over")
    return {d["hand"]: d for d in (json.loads(e.data) for e in s.exec(q))}


async def _edit(
    app: AnyApp, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
) -> str:
    """Edit a message: ``done`` (also when unchanged), ``gone`` (send anew) or ``failed``."""
    try:
        await app.bot.edit_message_text(text, chat_id, message_id, reply_markup=markup)
    except BadRequest as exc:
        if "not modified" in exc.message.lower():
            return "done"
        if _gone(exc):
            return "gone"
        log.warning("edit in %s failed: %s", chat_id, exc)
        return "done"  # Telegram refuses this content: sending it again would not help
    except Forbidden:
        return "done"  # the person blocked the bot: nothing to draw until they come back
    except TelegramError as exc:
        log.warning("edit in %s failed: %s", chat_id, exc)
        return "failed"
    return "done"


def _save_hand(
    db: Database, game_id: int, seat: int, chat_id: int, message_id: int, view: Any, digest: str
) -> None:
    with db.session() as s:
        row = s.exec(
            select(HandMessage).where(HandMessage.game_id == game_id, HandMessage.seat == seat)
        ).first()
        if row is None:
            row = HandMessage(
                game_id=game_id, seat=seat, chat_id=chat_id, message_id=0, hand_number=0
            )
        row.chat_id, row.message_id = chat_id, message_id
        row.hand_number, row.digest = view.hand_number, digest
        s.add(row)
        s.commit()


def _forget_start(db: Database, user_id: int) -> None:
    with db.session() as s:
        p = s.get(Player, user_id)
        if p is not None and p.started:
            p.started = False
            s.add(p)
            s.commit()


# ------------------------------------------------------------------------ timers


def _drop_job(app: AnyApp, name: str) -> None:
    job = _pending_job(app, name)
    if job is not None:
        job.schedule_removal()


def schedule_timers(app: AnyApp, change: Change) -> None:
    """(Re)schedule the deadline and the robot turn of a game from its stored state."""
    rt = runtime(app)
    deadline = f"deadline:{change.chat_id}:{change.game_id}"
    robot = f"robot:{change.chat_id}:{change.game_id}"
    _drop_job(app, deadline)
    _drop_job(app, robot)
    if change.status != "playing":
        return
    data = (change.game_id, change.version)
    # a robot to act moves by itself; the clock is for people
    if change.deadline_at is not None and change.robot_seat is None:
        wait = max(0.0, change.deadline_at - time.time())
        _run_once(app, on_deadline, wait, deadline, data, change.chat_id)
    if change.robot_seat is not None:
        when = rt.config.robot_delay
        _run_once(app, on_robot, when, robot, (*data, change.robot_seat), change.chat_id)


async def on_deadline(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Time is up: apply the default action of whoever had to decide (R10)."""
    from bot.service import time_out

    rt = runtime(context.application)
    game_id, version = cast(tuple[int, int], cast(Job[Any], context.job).data)
    change = time_out(rt.db, game_id, version, rt.rules)
    if change is not None:
        refresh(context.application, change)


async def on_robot(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A robot's turn: it decides from its seat's view and acts like a person would."""
    from bot.service import Refused, act

    rt = runtime(context.application)
    game_id, version, seat = cast(tuple[int, int, int], cast(Job[Any], context.job).data)
    with rt.db.session() as s:
        game = s.get(Game, game_id)
    if game is None or game.status != "playing" or game.version != version:
        return
    seats = load_seats(game)
    level = (seats[seat].robot if seats[seat] else None) or "medio"
    view = load_match(game).view(seat)
    seed = game.seed * 1_000_003 + version
    try:
        action = await rt.thinkers.choose(level, seed, rt.config.robot_budget_ms, view)
    except Exception:  # a robot bug must not stall the table: play the R10 default instead
        log.exception("robot %s failed in game %s", level, game_id)
        action = load_match(game).default_action(seat) or view.legal[0]
    try:
        change = act(rt.db, game_id, version, seat, action, rt.rules, source="robot")
    except Refused:
        return  # someone else moved first; the newer state scheduled its own turn
    refresh(context.application, change)
