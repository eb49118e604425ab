"""The public table message of each chat: lobby, match, and the chat's announcements.

One durable job per chat (``JobKind.TABLE``) redraws whatever the database holds
when it runs, so the newest state always wins, then sends the announcements the
outbox holds for the chat (closings of hands, the end of a match), each at most
once. Announcements go first (the calls and answers shouted at the table are news:
Telegram notifies new messages, not edits), the table's edit after; both stay within
the chat's shared flood budget: when it is spent the job comes back later instead of
waiting in line. A table buried under the chat's messages is posted again below.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session
from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError, TimedOut

from bot.domain import flood, jobs, messages, outbox, presence, tables
from bot.domain.jobs import TableJob
from bot.domain.outbox import Announcement, Outgoing
from bot.domain.values.drawings import TableDrawing
from bot.domain.values.game import (
    GameStatus,
    HandSummary,
    MatchEnd,
    Said,
    Saying,
    Table,
    TimeoutNote,
)
from bot.domain.values.settings import Noise
from bot.i18n import Translations, translations
from bot.telegram import planner
from bot.telegram.budget import counted_with, table_traffic
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.job_runner import ClaimedJob, Postpone
from bot.telegram.planner import Traffic
from bot.telegram.publish.sending import (
    RETRY_SECONDS,
    Edited,
    Later,
    digest,
    edit,
    send_to_group,
)
from bot.telegram.render.results import (
    hand_over_line,
    match_over_text,
    points_over_lines,
    rematch_keyboard,
    retired_text,
)
from bot.telegram.render.table import (
    fast_note,
    in_app_note,
    public_table,
    said_line,
    timeout_line,
)
from engine import View, get_ruleset

log = logging.getLogger(__name__)
SHORT_WAIT = 2.0
"""Budget waits up to this long are waited inside the job; longer ones postpone it."""
ROUNDS = 6
"""Sends one job makes at most (announcements, then the table) before it comes back."""
MAX_LINES = 20
"""Announcement lines batched into one message (far below Telegram's 4096 characters)."""
REPOST_AFTER = 6
"""Messages after the live table that bury it: it is posted again at the bottom."""
REPOST_GAP = 20.0
"""Seconds between two reposts of a table (a chatty group buries it again at once)."""


def schedule_table(
    app: TrucoApp, chat_id: int, thread_id: int | None, game_id: int, wait: float = 0.0
) -> None:
    """Ask for the chat's table to be redrawn (a durable job; a pending redraw takes it)."""
    rt = runtime_of(app)
    key = jobs.table_key(chat_id, thread_id)
    due = rt.rules.clock() + wait

    async def record() -> None:
        await asyncio.to_thread(
            jobs.request,
            rt.db,
            key,
            due,
            TableJob((game_id,)),
            keep_earlier=True,
            runner=rt.jobs.worker,
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_table(app: TrucoApp, job: ClaimedJob, redraw: TableJob) -> None:
    """Job: draw the newest state of the tables waiting in this chat, then their announcements."""
    left: list[int] = []
    waits: list[float] = []
    held = False
    for game_id in redraw.games:
        if held:  # keep the chat's order: a newer table never overtakes an older announcement
            left.append(game_id)
            continue
        with table_traffic():  # the group's reserve is the table's to spend
            outcome = await publish_game(app, game_id)
        if outcome.wait > 0:
            waits.append(outcome.wait)
            left.append(game_id)
            # an older table that only waits for its own edit (a match's last drawing, once
            # its end was announced) holds nothing said: the Revanche's calls go past it
            held = outcome.owed
    if left:
        raise Postpone(min(waits), TableJob(tuple(left)))


@dataclass(frozen=True)
class Published:
    """What ``publish_game`` left to do for a game's public messages."""

    wait: float
    """Seconds to come back (0: all done)."""
    owed: bool = False
    """Announcements are still owed: the chat's newer tables wait behind them."""


async def publish_game(app: TrucoApp, game_id: int) -> Published:
    """Bring a game's public messages up to date; when to come back, and whether
    announcements are still owed then.

    What was said comes first: the announcements owed take the group's budget before
    the table's edit, and the table is never drawn past a state whose announcements
    are still owed, so the group never sees a hand's result before its calls.
    """
    rt = runtime_of(app)
    async with rt.lock(("chat", game_id)):
        ahead: messages.TableRound | None = None  # read with the last announcement's marks
        for _round in range(ROUNDS):
            # the drawing, then the outbox, then the chat's budget: one look at the database
            found = ahead or await asyncio.to_thread(
                messages.table_round,
                rt.db,
                game_id,
                rt.rules.clock(),
                rt.budget.budgets,
                rt.budget.clock(),
                in_app=rt.config.webapp is not None,
            )
            ahead = None
            if found is None:
                return Published(0.0)
            drawing, owed = found.drawing, found.owed
            table = drawing.table
            t = translations(drawing.language)
            traffic = _traffic(owed, drawing.noise)
            bare, calm_in = False, 0.0
            if not owed and found.gate[0] > 0 and not table.private:
                # everyone plays in the Mini App and nothing is owed: the table waits for
                # the app's gap whatever the group's minute would allow (asked first, the
                # planner's short waits brought the redraw back, to wait again, ~2.5 times
                # a hand at the bench's pace)
                return Published(found.gate[0])
            if not table.private and traffic is not None:
                limit = rt.budget.group_limit
                urgent_lately = rt.urgent.get(table.chat_id, ())
                made = planner.plan(
                    found.marks,
                    rt.budget.clock(),
                    limit,
                    traffic,
                    urgent_lately,
                    in_app=found.gate[1],
                    lobby=table.status == GameStatus.LOBBY,
                )
                wait, bare, calm_in = made.wait, made.bare, made.calm_in
                first = _first_drawing(table) and (owed or wait > 0)
                if first or (
                    wait > 0 and bare and traffic == Traffic.TABLE and _stale(app, drawing, t)
                ):
                    # a match with no table message yet (a Revanche dealt at once), or a
                    # table still showing a hand's state once the minute is nearly spent:
                    # its drawing that claims nothing of the hand goes as an urgent call,
                    # before what is owed (at the worst pace something always was: the whole
                    # match was played out under the last match's table, or under one
                    # showing "Mão 4 · Vez de Ana" until the end; it shows no score, so
                    # no hand's result comes before its closing)
                    urgent = Traffic.URGENT
                    wait = planner.plan(found.marks, rt.budget.clock(), limit, urgent).wait
                    if wait > SHORT_WAIT:
                        return Published(wait, bool(owed))
                    if wait > 0.01:
                        await rt.clock.sleep(wait)
                        continue
                    try:
                        await _draw_table(app, drawing, t, found.gate[1], True)
                    except Later:
                        return Published(RETRY_SECONDS, bool(owed))
                    if found.gate[1]:
                        await asyncio.to_thread(
                            presence.table_drawn, rt.db, table.id, rt.rules.clock()
                        )
                    continue
                if wait > SHORT_WAIT:
                    # no room for it in the group's minute yet: come back later
                    return Published(wait, bool(owed))
                if wait > 0.01:
                    await rt.clock.sleep(wait)  # a second apart: wait, then take the newest
                    continue
            try:
                if owed:
                    said, ahead = await _announce(app, table, owed, t, drawing.noise)
                    if said and traffic == Traffic.URGENT and not table.private:
                        _urgent_made(app, table.chat_id)
                    continue  # then the newest table, or what was said meanwhile
                if table.private:
                    # in a private chat the hand message is the table: a second copy of it,
                    # with buttons for a group (🃏 Minha mão, 📩 No privado), means nothing
                    return Published(0.0)
                wait, in_app = found.gate
                if wait > 0:
                    return Published(wait)  # everyone plays in the Mini App: the table can wait
                later = await _draw_table(app, drawing, t, in_app, bare)
                if in_app:
                    await asyncio.to_thread(presence.table_drawn, rt.db, table.id, rt.rules.clock())
                if bare and table.status == GameStatus.PLAYING:
                    # drawn without its claims: drawn again once the group's minute is calm
                    later = min(x for x in (later, calm_in) if x > 0) if later else calm_in
                return Published(later)
            except Later:
                return Published(RETRY_SECONDS, bool(owed))  # the newest state, drawn again soon
        return Published(SHORT_WAIT, True)  # the table is busy: come back for the rest


def _urgent_made(app: TrucoApp, chat_id: int) -> None:
    """Note an urgent call to a group (the planner keeps room for as many ahead)."""
    rt = runtime_of(app)
    made = rt.urgent.setdefault(chat_id, deque(maxlen=URGENT_KEPT))
    made.append(rt.clock())
    if len(rt.urgent) > 4096:  # forget the groups quiet for a while
        now = rt.clock()
        for chat in [c for c, d in rt.urgent.items() if not d or now - d[-1] > LONGEST]:
            del rt.urgent[chat]


URGENT_KEPT = 30
"""Urgent calls remembered per group (more than a minute holds)."""
LONGEST = 120.0
"""Seconds after which a group's urgent calls no longer matter."""


def _traffic(owed: Sequence[Outgoing], noise: str) -> Traffic | None:
    """What the next call of a table's round is to the planner: the end when its message
    ends the match, urgent when a call is owed (the lines owed before it go with it), the
    table's own otherwise; ``None`` when it makes no call (announcements the chat does not
    hear)."""
    if not owed:
        return Traffic.TABLE
    lines, end = _next_message(owed)
    if end is not None:
        return Traffic.END
    heard = [o for o in lines if _heard(o, noise)]
    if not heard:
        return None
    if any(_urgent(o) for o in heard):
        return Traffic.URGENT
    return Traffic.TABLE


def _next_message(owed: Sequence[Outgoing]) -> tuple[list[Outgoing], Outgoing | None]:
    """The announcements the next message carries, in order: the lines owed, and the end of
    the match when it follows them (one call: the last hand's closing is the end's first
    line)."""
    lines: list[Outgoing] = []
    for o in owed:
        if o.kind == Announcement.MATCH_OVER:
            return lines, o
        if len(lines) >= MAX_LINES:
            break
        lines.append(o)
    return lines, None


def _is_call(o: Outgoing) -> bool:
    """A truco call or a raise, an envido call or a flor (what a group that chose calls
    only still hears)."""
    return o.kind == Announcement.SAID and o.payload.get("saying") in CALLS_HEARD


CALLS_HEARD = (
    Saying.CALL.value,
    Saying.ENVIDO.value,
    Saying.ENVIDO_WON.value,
    Saying.FLOR.value,
)


URGENT_SAYINGS = outbox.URGENT_SAYINGS
"""What is said that the group is told at once (``planner.Traffic.URGENT``)."""


def _urgent(o: Outgoing) -> bool:
    """Whether an announcement goes at once (``planner.Traffic.URGENT``: ``outbox.urgent``,
    which the domain also reads to bring the redraw forward)."""
    return outbox.urgent(o.kind, o.payload)


def _heard(o: Outgoing, noise: str) -> bool:
    """Whether a chat with this ``Noise`` hears an announcement as a message of its own."""
    if o.kind == Announcement.MATCH_OVER or noise == Noise.ALL:
        return True
    return noise == Noise.CALLS and _is_call(o)


async def _skip(app: TrucoApp, items: Sequence[Outgoing]) -> None:
    """Mark announcements the chat chose not to hear as done (the table tells the rest)."""
    rt = runtime_of(app)
    worker, until = rt.jobs.worker, rt.rules.clock() + rt.jobs.lease
    taken = await asyncio.to_thread(outbox.take, rt.db, [o.id for o in items], worker, until)
    if taken:
        await asyncio.to_thread(outbox.skipped, rt.db, taken, worker)


async def _announce(
    app: TrucoApp, table: Table, owed: Sequence[Outgoing], t: Translations, noise: str = "all"
) -> tuple[bool, messages.TableRound | None]:
    """Send what the outbox holds for this table, in order: the lines said, the hands'
    closings and timeouts in one message; the end of the match (Revanche) takes the lines
    owed before it into its own.

    ``noise``: what the chat chose to hear (``Noise``); the rest is marked done unsent.
    Whether a message was sent, and the table's next round when it was read with the
    message recorded (``messages.announced``)."""
    lines, end = _next_message(owed)
    heard = [o for o in lines if _heard(o, noise)]
    muted = [o for o in lines if not _heard(o, noise)]
    if muted:
        await _skip(app, muted)
    view = table.view(0)
    text = "\n".join(_line(t, o, table, view) for o in heard)
    if end is not None:
        score = end.payload["score"]
        ending = MatchEnd(end.payload["winner"], (score[0], score[1]))
        over = match_over_text(t, ending, table.seats)
        text = f"{text}\n\n{over}" if text else over
        markup = rematch_keyboard(t, table)
        return await _send_once(app, table, [*heard, end], text, markup) is not None, None
    if not heard:
        return False, None
    # only a call rings: answers, timeouts and closings matter to the players, who
    # see them in their hands anyway
    calls = any(_is_call(o) for o in heard)
    # it pushes the table up like anyone's message, and its id also tells of the
    # chatter a bot in privacy mode does not see (``posted``)
    sent = await _send_once(app, table, heard, text, None, quiet=not calls, posted=True)
    return (True, sent[1]) if sent is not None else (False, None)


def _line(t: Translations, o: Outgoing, table: Table, view: View) -> str:
    """One announcement's line in the chat's language."""
    if o.kind == Announcement.SAID:
        return said_line(t, Said.from_json(o.payload), table, view)
    if o.kind == Announcement.TIMEOUT:
        note = TimeoutNote.from_json(json.dumps(o.payload))
        return timeout_line(t, note, table.seats, view)
    summary = HandSummary.from_json(o.payload)
    deck = get_ruleset(table.variant).deck_style
    return "\n".join(
        [
            hand_over_line(t, summary, table.seats),
            *points_over_lines(t, summary, table.seats, deck),
        ]
    )


async def _send_once(
    app: TrucoApp,
    table: Table,
    items: Sequence[Outgoing],
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    quiet: bool = False,
    posted: bool = False,
) -> tuple[int, messages.TableRound | None] | None:
    """One message for some outbox items: claimed, sent, recorded; never sent twice.

    The message's id when Telegram took it. ``quiet``: no notification. ``posted``: it
    pushes the table up (``messages.announced``), and then the table's next round is read
    with the message recorded, as of now, and returned with the id.
    """
    rt = runtime_of(app)
    worker, until = rt.jobs.worker, rt.rules.clock() + rt.jobs.lease
    wanted = [o.id for o in items]
    ids: list[int] = []
    group = bool(rt.budget.budgets(table.chat_id))

    def take(s: Session) -> bool:
        # once: a call retried after a 429 is counted again, its items already taken
        if not ids:
            ids.extend(outbox.take_in(s, wanted, worker, until))
        return bool(ids)

    if not group:
        ids = await asyncio.to_thread(outbox.take, rt.db, wanted, worker, until)
        if not ids:
            return None
    try:
        # a group's items are taken in the transaction that counts the call
        with counted_with(take) if group else contextlib.nullcontext():
            sent = await app.bot.send_message(
                table.chat_id,
                text,
                reply_markup=markup,
                message_thread_id=table.thread_id,
                disable_notification=quiet,
            )
    except flood.Withdrawn:
        return None  # another replica took them first
    except Forbidden:
        log.info("chat %s does not accept messages: its announcements are dropped", table.chat_id)
        await asyncio.to_thread(outbox.failed, rt.db, ids, worker)
        await asyncio.to_thread(outbox.drop_chat, rt.db, table.chat_id)
        return None
    except BadRequest as exc:
        log.warning("announcement in %s refused: %s", table.chat_id, exc)
        await asyncio.to_thread(outbox.failed, rt.db, ids, worker)
        return None
    except TimedOut:
        log.warning("announcement in %s timed out: maybe shown, never resent", table.chat_id)
        await asyncio.to_thread(outbox.uncertain, rt.db, ids, worker)
        return None
    except (RetryAfter, TelegramError) as exc:
        log.warning("announcement in %s failed: %s", table.chat_id, exc)
        await asyncio.to_thread(outbox.retry, rt.db, ids, worker)
        raise Later from exc
    found = None
    if posted:
        where = (table.id, table.chat_id, table.thread_id)
        webapp = rt.config.webapp is not None
        then = messages.RoundAsk(rt.rules.clock(), rt.budget.budgets, rt.budget.clock(), webapp)
        found = await asyncio.to_thread(
            messages.announced, rt.db, ids, worker, *where, sent.message_id, then
        )
    else:
        await asyncio.to_thread(outbox.sent, rt.db, ids, worker, sent.message_id)
    return int(sent.message_id), found


def _table_message(
    app: TrucoApp, drawing: TableDrawing, t: Translations, in_app: bool, pressed: bool
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The table message's text and buttons (``_draw_table`` says when it shows no state)."""
    rt = runtime_of(app)
    table = drawing.table
    username = app.bot.username if app.bot._bot_user else ""
    seconds = tables.decision_seconds(table, rt.rules)
    claims = not (in_app or pressed)
    text, markup = public_table(t, drawing, seconds, username, rt.config.webapp, claims=claims)
    if in_app:  # the message is redrawn seldom now (``APP_TABLE_GAP``)
        text += "\n" + in_app_note(t)
    elif pressed and table.status == GameStatus.PLAYING:
        text += "\n" + fast_note(t)
    return text, markup


def _stale(app: TrucoApp, drawing: TableDrawing, t: Translations) -> bool:
    """Whether the table message still shows a hand's state while the group's minute is under
    pressure: its one edit to the form that shows none goes as an urgent call (it would
    otherwise wait, stale, behind the calls)."""
    if drawing.table.status != GameStatus.PLAYING:
        return False
    return drawing.shown != digest(*_table_message(app, drawing, t, False, True))


def _first_drawing(table: Table) -> bool:
    """Whether a group's match being played has no table message yet (a Revanche dealt at
    once, with no lobby message to become its table)."""
    return table.status == GameStatus.PLAYING and table.table_message_id is None


async def _draw_table(
    app: TrucoApp,
    drawing: TableDrawing,
    t: Translations,
    in_app: bool = False,
    pressed: bool = False,
) -> float:
    """Edit the table message in place (send it when there is none); ``Later`` to retry.

    A live group table buried under ``REPOST_AFTER`` messages comes anew at the bottom
    (quietly: it is no news) and the old message is retired, without buttons; at most
    once every ``REPOST_GAP`` seconds, so that a chatty group does not spend its minute
    on it. Returns when to come back for a repost put off (0: nothing left).

    ``in_app`` (everyone plays in the Mini App, the message is redrawn seldom) or
    ``pressed`` (the group's minute is under pressure, the message is redrawn only in its
    silences): it shows no state of the hand, which would be stale before its next edit.
    """
    rt = runtime_of(app)
    table = drawing.table
    text, markup = _table_message(app, drawing, t, in_app, pressed)
    old = table.table_message_id
    live = table.status in (GameStatus.LOBBY, GameStatus.PLAYING) and not table.private
    # while the minute is nearly spent the table claims nothing worth two calls to bring down
    # (a repost and the old one's retiring): the calls carry the match, and it comes down
    # once the minute is calm and it is drawn whole again
    repost = old is not None and live and drawing.buried >= REPOST_AFTER and not pressed
    later = 0.0
    if repost:
        later = rt.reposted.get(table.id, -REPOST_GAP) + REPOST_GAP - rt.clock()
        repost = later <= 0
    shows = digest(text, markup)
    if old is not None and not repost and drawing.shown == shows:
        # it shows this already (a redraw asked for meanwhile, by a change it does not show,
        # or a page closing on an ended match): the group saw it, and an edit is a call
        return max(0.0, later)
    if old is not None and not repost:
        outcome = await edit(app, table.chat_id, old, text, markup)
        if outcome == Edited.FAILED:
            raise Later
        if outcome == Edited.DONE:
            await asyncio.to_thread(messages.table_shown, rt.db, table.id, old, shows)
            return max(0.0, later)
        old = None  # gone: nothing to retire
    elif old is None and table.status == GameStatus.CANCELLED:
        return 0.0  # a lobby cancelled before its message was ever sent
    sent = await send_to_group(app, table.chat_id, table.thread_id, text, markup, quiet=repost)
    if sent is None:
        return 0.0
    await asyncio.to_thread(
        messages.mark_table,
        rt.db,
        table.id,
        table_message_id=sent.message_id,
        seen=drawing.buried,
        digest=shows,
    )
    if not repost or old is None:
        return 0.0
    rt.reposted[table.id] = rt.clock()
    # two live-looking tables confuse (and the old lobby's buttons no longer act):
    # the old one points down to the new
    if await edit(app, table.chat_id, old, retired_text(t), None) == Edited.FAILED:
        log.info("old table %s in %s kept its buttons", old, table.chat_id)
    return 0.0
