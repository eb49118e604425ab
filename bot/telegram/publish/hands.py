"""Each person's private hand message: their view and exactly their legal buttons.

When a hand is over its message goes, and the next hand's message says first how
it ended: a person's chat keeps one hand message per match. When a group's match ends
(or is cancelled) that message becomes one short closing line (who won and the score, or
who cancelled): nothing else of the match stays in the private chat. A private table's
hand message is its table, and ends as the table does (how the last hand and the match
ended). One redraw job per game (``JobKind.HANDS``) is enough: it
draws whatever the database holds when it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from enum import StrEnum

from telegram import InlineKeyboardMarkup
from telegram.error import Forbidden, TelegramError

from bot.domain import jobs, messages, people, presence, tables
from bot.domain.jobs import HandsJob
from bot.domain.values.drawings import HandMessageInfo, HandsDrawing, Ping
from bot.domain.values.game import GameStatus, MatchEnd, Table
from bot.i18n import person_translations
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.job_runner import ClaimedJob, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, digest, edit
from bot.telegram.render.common import warning_due
from bot.telegram.render.hand import app_hand, back_keyboard, hand_keyboard, hand_text
from bot.telegram.render.results import cancelled_by_text, hand_closed_text, match_over_text
from bot.telegram.render.table import with_open_table
from engine import View

log = logging.getLogger(__name__)
MISSED_SHOWN = 3
"""At most this many results of hands a hand message missed are told in it (``missed``)."""


def people_in_app(app: TrucoApp, game_id: int) -> frozenset[int]:
    """In a thread: who has this table open in the Mini App now (on any replica); nobody
    when the bot has no Mini App (and then no query is made)."""
    rt = runtime_of(app)
    if rt.config.webapp is None:
        return frozenset()
    return presence.people_in_app(rt.db, game_id, rt.rules.clock())


def schedule_hands(app: TrucoApp, chat_id: int, game_id: int, wait: float = 0) -> None:
    """Ask for a game's private hand messages to be redrawn (a durable job)."""
    rt = runtime_of(app)
    due = rt.rules.clock() + wait

    async def record() -> None:
        await asyncio.to_thread(
            jobs.request,
            rt.db,
            str(game_id),
            due,
            HandsJob(game_id),
            keep_earlier=True,
            runner=rt.jobs.worker,
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_hands(app: TrucoApp, job: ClaimedJob, redraw: HandsJob) -> None:
    """Job: draw the newest state of a game's private hand messages (also the warning)."""
    if not await update_hands(app, redraw.game, job):
        raise Postpone(RETRY_SECONDS)


async def _deleted(app: TrucoApp, chat_id: int, message_id: int) -> bool:
    """Delete a private message; ``False`` when it stays (too old, a network error)."""
    if not message_id:  # an ask recorded before any message (``messages.ask_for_hand``)
        return True
    try:
        await app.bot.delete_message(chat_id, message_id)
    except TelegramError:
        return False
    return True


async def _all_deleted(app: TrucoApp, chat_id: int, message_ids: list[int]) -> bool:
    """Delete messages of one chat: one ``deleteMessages`` call for several (one call
    against the bot's 30 a second, where each ``deleteMessage`` was one); ``False`` when
    the call failed (Telegram skips, by itself, those it cannot delete)."""
    ids = sorted({m for m in message_ids if m})  # 0: an ask recorded before any message
    if len(ids) <= 1:
        return await _deleted(app, chat_id, ids[0] if ids else 0)
    try:
        await app.bot.delete_messages(chat_id, ids)
    except TelegramError:
        return False
    return True


class Step(StrEnum):
    """What a person's hand message needs, decided before any call (``plan_message``)."""

    SKIP = "skip"
    """It shows this already (or there is none, and a cancelled table sends none)."""
    EDIT = "edit"
    """Edit it in place (sending anew if it is gone)."""
    RING = "ring"
    """Delete it and send it anew: only a new message makes the phone ring."""
    RETIRE = "retire"
    """An older hand's message: delete it (else close it), then send this hand's."""
    SEND = "send"
    """No message yet: send one."""


def plan_message(
    row: HandMessageInfo | None,
    hand: int,
    fingerprint: str,
    ping: Ping,
    *,
    send: bool,
    looking: bool = False,
    new_hand_in_place: bool = False,
) -> Step:
    """What to do with a seat's hand message ``row`` to show hand ``hand`` as
    ``fingerprint`` with ``ping``; ``send``: whether a new message may go (not once the
    table is cancelled); ``looking``: the person surely has the message before their eyes
    (``looking_at_hand``), so their turn is drawn in place, with no ring;
    ``new_hand_in_place``: so is a new hand (they are looking, and play with robots only)."""
    if row is not None and row.hand_number == hand:
        if ping > row.ping and not (looking and ping == Ping.TURN):
            # the person's turn began (or their time is nearly out, or they asked for
            # it): only a new message makes their phone ring and sits at the bottom of
            # the chat, so the old one goes and the hand comes anew
            return Step.RING
        return Step.SKIP if row.digest == fingerprint and row.ping == ping else Step.EDIT
    if row is not None and new_hand_in_place and row.message_id and ping != Ping.WARNING:
        # a new hand dealt while they watch (their move ended the last one, or only
        # robots moved since): it is drawn over the old hand, whose result the new
        # message says first and the group has already, with no ring and no delete
        return Step.EDIT
    if row is not None:
        return Step.RETIRE
    return Step.SEND if send else Step.SKIP


def looking_at_hand(table: Table, view: View) -> bool:
    """Whether the person at ``view``'s seat surely has their hand message before their
    eyes: they pressed the match's last move by a person a moment ago, and only robots
    moved since (a person's move may take a minute; a timeout says they were away), in
    this hand or since the end of the one their move closed. Their turn, or the next
    hand, then comes while they still hold the phone: it is drawn in place, where they
    just pressed, rather than rung as a new message (two calls, and a notification for
    what they are watching)."""
    if table.note is not None and view.seat in table.note.strikes:
        return False
    own = table.seats[view.seat]
    if own is None or own.robot is not None:  # a robot stands in: they are away
        return False
    # the whole match's moves (``view.history`` is this hand's only): only the seats are
    # read, which every seat may know
    for seat, _action in reversed(table.shown.log):
        if seat == view.seat:
            return True
        occupant = table.seats[seat]
        if occupant is None or occupant.robot is None:
            return False
    return False


@dataclass(frozen=True)
class HandPlan:
    """One seat's hand message, decided: what it shows and what to do (``step``)."""

    seat: int
    player: int
    hand: int
    text: str
    markup: InlineKeyboardMarkup | None
    ping: Ping
    digest: str
    step: Step
    row: HandMessageInfo | None
    """The message shown now (to edit, delete or retire)."""
    closing: str | None = None
    """How the retired message's hand ended, if it stays (``None``: only its buttons go)."""
    send: bool = True
    """Whether a new message may go (not once the table is cancelled)."""

    @property
    def saw_ask(self) -> bool:
        """Whether the message shown now was the one the person asked for."""
        return self.row is not None and self.row.ping == Ping.ASKED


def plan_hands(
    drawing: HandsDrawing,
    now: float,
    seconds: float,
    in_app: frozenset[int],
    webapp: tuple[str, str] | None,
) -> list[HandPlan]:
    """What every seated person's hand message must show and what to do with it: no call
    to Telegram, no database (``seconds``: how long the pending decision may take;
    ``in_app``: people with the table open in the Mini App)."""
    table = drawing.table
    m = table.shown
    over = table.status == GameStatus.OVER
    cancelled = table.status == GameStatus.CANCELLED
    warn_time = warning_due(table.deadline_at, seconds, now)
    plans = []
    for seat, player in drawing.people.items():
        if not player.started:
            continue
        t = person_translations(player.language_code)
        view = m.view(seat)
        markup: InlineKeyboardMarkup | None
        ping = Ping.NONE
        if cancelled:
            # the words of the group's table: who cancelled, and the score
            text, markup = cancelled_by_text(t, table, drawing.cancelled_by), None
        elif over and not table.private and view.match_winner is not None:
            # a group's match is over: its one closing line (how each hand ended is the
            # group's, and the Mini App's)
            end = MatchEnd(view.match_winner, (view.score[0], view.score[1]))
            text, markup = match_over_text(t, end, table.seats), None
        elif over and view.hand_number in drawing.ended:
            # a private table's hand message is its table: it ends as the table does
            closing = drawing.ended[view.hand_number]
            text = hand_closed_text(t, closing, table.seats, player.deck_at(table.variant))
            markup = None
        else:
            warn = bool(view.legal) and warn_time
            if warn and table.deadline_at is not None:
                left: float = table.deadline_at - now
            else:
                left = seconds
            previous = drawing.ended.get(view.hand_number - 1)
            # the message shows the hand it was drawn for; any that ended after that one
            # and before ``previous`` went by between two drawings (a quick run, a busy
            # replica): told too, the last few (after a stretch in the Mini App, the app
            # told them)
            drawn = drawing.messages.get(seat)
            since = drawn.hand_number if drawn is not None else view.hand_number - 1
            missed = [
                drawing.ended[n] for n in range(since, view.hand_number - 1) if n in drawing.ended
            ]
            # off their turn at a group's table the message shows only what stays
            # true until their own cards or signals change, so it is redrawn for
            # those and not at every move; it comes anew, whole, at their turn
            away = not view.legal and not table.private
            occupant = table.seats[seat]
            stand_in = occupant is not None and occupant.robot is not None
            text = hand_text(
                t,
                table,
                view,
                left,
                player.deck_at(table.variant),
                warn,
                previous,
                away=away,
                stand_in=stand_in,
                missed=missed[-MISSED_SHOWN:],
            )
            markup = hand_keyboard(t, table, view, player.deck_at(table.variant))
            if stand_in:  # a robot plays their seat: no ring, no moves, one way back
                markup = back_keyboard(t, table)
            elif view.legal:
                ping = Ping.WARNING if warn else Ping.TURN
            if player.id in in_app and webapp is not None:
                # the table is open in the Mini App: the message points there, once a hand
                text, markup = app_hand(t, table, webapp)
                ping = Ping.NONE
            elif table.private and webapp is not None:
                markup = with_open_table(t, table, markup, webapp)
        fingerprint = digest(text, markup)
        row = drawing.messages.get(seat)
        if (
            row is not None
            and webapp is not None
            and not (over or cancelled)
            and row.hand_number != view.hand_number
            and row.digest == digest(*app_hand(t, table, webapp))
        ):
            # a message pointing to the app shows every hand alike: the moves of a table
            # all in the app redraw no hands, not even at a hand's end (to write down its
            # number), so it counts as this hand's (edited in place once the page closes)
            row = replace(row, hand_number=view.hand_number)
        looking = ping in (Ping.NONE, Ping.TURN) and looking_at_hand(table, view)
        # at a table of people every turn that begins rings, a new hand's too, as it always
        # did: only a person alone with robots has the next hand drawn in place
        alone = all(
            o is None or o.user is None or o.robot is not None or i == seat
            for i, o in enumerate(table.seats)
        )
        step = plan_message(
            row,
            view.hand_number,
            fingerprint,
            ping,
            send=not cancelled,
            looking=looking and ping == Ping.TURN,
            new_hand_in_place=looking and alone,
        )
        if row is None and webapp is not None and (player.id in in_app or over):
            # no hand message yet and the page shows the hand (a match begun in the app, or
            # its Revanche): a message pointing there is news to nobody; one comes, whole,
            # once the page closes. A match played in the app to its end was seen there.
            step = Step.SKIP
        elif row is not None and webapp is not None:
            pointing = player.id in in_app and not over and not cancelled
            if over and row.digest == digest(*app_hand(t, table, webapp)):
                # a match played in the app ends there (with its Revanche): the message
                # that points to the app still does, and is not edited once more
                step = Step.SKIP
            elif pointing and row.digest == fingerprint and row.ping == ping:
                # it already points to the app: it stays from hand to hand
                step = Step.SKIP
        final = (over or cancelled) and not table.private
        if final:
            # a group's match ended (or was cancelled): the message that showed the hand,
            # or pointed to the Mini App, becomes its one closing line, and no new one goes,
            # so a private chat keeps at most one short line per match
            shown = row is not None and row.message_id != 0 and row.digest != fingerprint
            step = Step.EDIT if shown else Step.SKIP
        ended = drawing.ended.get(row.hand_number) if row is not None else None
        retired = None
        if step == Step.RETIRE and ended is not None:
            retired = hand_closed_text(t, ended, table.seats, player.deck_at(table.variant))
        plans.append(
            HandPlan(
                seat,
                player.id,
                view.hand_number,
                text,
                markup,
                ping,
                fingerprint,
                step,
                row,
                retired,
                send=not (cancelled or final),
            )
        )
    return plans


async def update_hands(app: TrucoApp, game_id: int, job: ClaimedJob | None = None) -> bool:
    """Send or edit each person's hand message so it shows their view and legal buttons.

    ``False`` when a call failed for a passing reason: the job comes back later. ``job``:
    the redraw job running this, finished by the last message's save when every other
    message went well (``jobs.finish_in``).
    """
    rt = runtime_of(app)
    async with rt.lock(("hands", game_id)):
        # who has the Mini App open, read with the drawing (only when the bot has one)
        since = None if rt.config.webapp is None else rt.rules.clock() - presence.PRESENCE
        drawing = await asyncio.to_thread(messages.hands_drawing, rt.db, game_id, since)
        if drawing is None or any(seat < 0 for seat in drawing.messages):
            # lobby answers of people who left (or of a cancelled lobby): deleted, those
            # of one chat in one call
            left = await asyncio.to_thread(messages.take_leftovers, rt.db, game_id)
            by_chat: dict[int, list[int]] = {}
            for chat_id, message_id in left:
                by_chat.setdefault(chat_id, []).append(message_id)
            for chat_id, ids in by_chat.items():
                await _all_deleted(app, chat_id, ids)
        if drawing is None:
            return True
        seconds = tables.decision_seconds(drawing.table, rt.rules)
        plans = plan_hands(drawing, rt.rules.clock(), seconds, drawing.in_app, rt.config.webapp)
        done: list[bool] = []
        for i, plan in enumerate(plans):
            last = job if i == len(plans) - 1 and all(done) else None
            done.append(await _carry_out(app, game_id, plan, last))
    return all(done)


async def _carry_out(
    app: TrucoApp, game_id: int, plan: HandPlan, job: ClaimedJob | None = None
) -> bool:
    """Do what ``plan`` says; ``False`` after a passing failure (the job comes back).
    ``job``: finished by the save, if one is made (``_saved``)."""
    row = plan.row
    if plan.step == Step.SKIP:
        return True
    if plan.step == Step.RING and row is not None:
        await _deleted(app, row.chat_id, row.message_id)
    elif plan.step == Step.EDIT and row is not None:
        outcome = await edit(app, row.chat_id, row.message_id, plan.text, plan.markup)
        if outcome == Edited.DONE:
            await _saved(app, game_id, plan, row.message_id, job)
            return True
        if outcome == Edited.FAILED:
            return False
    elif (
        plan.step == Step.RETIRE
        and row is not None
        and not await _deleted(app, row.chat_id, row.message_id)
    ):
        # an older hand's message stays (too old to delete): close it
        if plan.closing is None:  # no record of how it ended: at least the buttons go
            with contextlib.suppress(TelegramError):
                await app.bot.edit_message_reply_markup(
                    row.chat_id, row.message_id, reply_markup=None
                )
        elif await edit(app, row.chat_id, row.message_id, plan.closing, None) == Edited.FAILED:
            return False
    if not plan.send:
        return True
    try:
        sent = await app.bot.send_message(plan.player, plan.text, reply_markup=plan.markup)
    except Forbidden:
        await asyncio.to_thread(people.set_started, runtime_of(app).db, plan.player, False)
        return True
    except TelegramError as exc:
        log.warning("hand message to %s failed: %s", plan.player, exc)
        return False
    await _saved(app, game_id, plan, sent.message_id, job)
    return True


async def _saved(
    app: TrucoApp, game_id: int, plan: HandPlan, message_id: int, job: ClaimedJob | None
) -> None:
    """Record the message that now shows the seat's hand (``job``: and finish it)."""
    shown = HandMessageInfo(plan.player, message_id, plan.hand, plan.digest, plan.ping)
    rt = runtime_of(app)
    finish = None if job is None else (job, rt.jobs.worker)
    finished = await asyncio.to_thread(
        messages.save_hand_message,
        rt.db,
        game_id,
        plan.seat,
        shown,
        saw_ask=plan.saw_ask,
        finish=finish,
    )
    if job is not None and finished:
        rt.jobs.settle(job.id)
