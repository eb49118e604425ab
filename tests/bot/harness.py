"""The bot against the fake Bot API over real HTTP: what the bot tests share.

``Harness`` runs the real ``Application`` in-process against
``bot.sandbox.fakeapi.FakeTelegram``; ``start_bot`` runs ``truco bot`` as a
subprocess (restarts, logs, signals). The fixtures (``server``, ``harness``) are in
``tests/bot/conftest.py``; these are the helpers the tests import.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import heapq
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bot.config import Config
from bot.domain import Database
from bot.domain.values.errors import Reason
from bot.i18n import LANGUAGES, translations
from bot.process import Runner
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.app import build_application
from bot.telegram.callbacks import Prefix
from bot.telegram.render.results import MOVE_TAKEN
from bot.wording.refusals import reason_text
from engine import Match, TableOptions
from engine.cards import parse_cards

TOKEN = "123456:TEST"
JSON = dict[str, Any]


def database_url(tmp_path: Path, *, schema: bool = False) -> str:
    """SQLite in the test's folder, or the PostgreSQL of TRUCO_TEST_DATABASE_URL emptied:
    no tables at all, or with ``schema`` the newest schema with no rows in it (a schema
    already at the newest migration is only truncated: making it anew for every test
    cost more than most tests)."""
    url = os.environ.get("TRUCO_TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path}/truco.db"
    from sqlmodel import SQLModel

    import bot.domain.models  # noqa: F401  (every table of the bot)

    db = Database(url, migrate=False)
    with db.engine.begin() as conn:
        names = ", ".join(t.name for t in SQLModel.metadata.sorted_tables)
        if schema and _at_head(conn):
            # DELETE, not TRUNCATE: a few rows go faster than TRUNCATE's new files
            for table in reversed(SQLModel.metadata.sorted_tables):
                conn.execute(table.delete())
            for seq in conn.execute(text("SELECT relname FROM pg_class WHERE relkind = 'S'")):
                conn.execute(text(f'ALTER SEQUENCE "{seq[0]}" RESTART'))
        else:
            conn.execute(text(f"DROP TABLE IF EXISTS {names}, alembic_version CASCADE"))
    db.close()
    return url


def _at_head(conn: Any) -> bool:
    """Whether the database's schema is the newest migration's."""
    found = conn.execute(text("SELECT to_regclass('alembic_version') IS NOT NULL")).scalar()
    if not found:
        return False
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == _head()


@functools.cache
def _head() -> str | None:
    from alembic.script import ScriptDirectory

    from bot.domain.store import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def buttons(message: JSON) -> list[JSON]:
    """Every inline button of a message, row by row."""
    markup = message.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


def button(message: JSON, label: str) -> JSON:
    """The button whose text contains ``label``."""
    for b in buttons(message):
        if label in b["text"]:
            return b
    raise AssertionError(f"no button {label!r} in {[b['text'] for b in buttons(message)]}")


def labels(message: JSON) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [b["text"] for b in buttons(message)]


def shown(h: Harness, group: int) -> str:
    """The group's table message as it reads now (empty before it is sent)."""
    return str((h.table(group) or {}).get("text", ""))


def newest(h: Harness, chat: int, words: str) -> JSON | None:
    """The newest bot message in a chat that contains ``words``."""
    found = [m for m in h.bot_messages(chat) if words in m["text"]]
    return found[-1] if found else None


def bot_messages(server: FakeTelegram, chat_id: int) -> list[JSON]:
    """Messages the bot sent in a chat (and did not delete)."""
    return [m for m in server.messages(chat_id) if m["from"]["is_bot"] and not m.get("deleted")]


def moves(msg: JSON) -> dict[str, str]:
    """Move buttons of a hand message: label -> callback_data."""
    return {
        b["text"]: b["callback_data"]
        for b in buttons(msg)
        if b.get("callback_data", "").startswith(Prefix.MOVE)
    }


def paulista_hand(score: tuple[int, int] = (0, 0), players: int = 2, covered: bool = True) -> Match:
    """A paulista hand with known cards; seat 0 leads (dealer is the last seat)."""
    hands = [
        parse_cards("3C KH 5D"),
        parse_cards("2S QD 7C"),
        parse_cards("AH JS 4D"),
        parse_cards("6S 7H QC"),
    ]
    opts = TableOptions(players=players, covered_cards=covered)
    return Match.from_hand(
        "paulista",
        opts,
        score=score,
        dealer=players - 1,
        hands=hands[:players],
        vira=parse_cards("5C")[0],
    )


def start_bot(
    api_url: str, db_url: str, log: Path, *args: str, **settings: str
) -> subprocess.Popen[bytes]:
    """``truco bot [args]`` as a subprocess logging to ``log`` (robots without delay)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TRUCO_"))}
    env.update(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": api_url,
            "DATABASE_URL": db_url,
            "TRUCO_POLL_TIMEOUT": "1",
            "TRUCO_ROBOT_DELAY": "0",
        }
    )
    env.update(settings)
    out = log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "bot", *args],
        env=env,
        stdout=out,
        stderr=out,
        cwd=log.parent,
    )


class FakeClock:
    """The bot's clock in tests (``bot.clock.Clock``): it moves only when told.

    Deadlines, jobs, the flood budgets and their waits, and the fake Telegram's counters
    all read it. A test moves it (``advance``, or setting ``now``); a running
    ``Harness`` also moves it to the bot's own waits (``Harness.pump``), never past a
    person's deadline.
    """

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        """Start at ``now`` (Unix time)."""
        self._now = now
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._timeouts: list[tuple[float, int, asyncio.Future[None]]] = []
        """The time limits of ``wait``: woken when the clock passes them, never moved to."""
        self._order = itertools.count()
        self.moved: list[Callable[[], None]] = []
        """Called whenever the clock moves (the harness wakes the job runner)."""
        self.slept: list[Callable[[], None]] = []
        """Called whenever someone starts a sleep on the clock (the harness's pump looks)."""

    def __call__(self) -> float:
        """The current (fake) time."""
        return self._now

    @property
    def now(self) -> float:
        """The current (fake) time; setting it wakes the sleepers it passes."""
        return self._now

    @now.setter
    def now(self, value: float) -> None:
        self._now = value
        for waiting in (self._sleepers, self._timeouts):
            while waiting and waiting[0][0] <= value:
                _, _, waiter = heapq.heappop(waiting)
                if not waiter.done():
                    waiter.set_result(None)
        for call in self.moved:
            call()

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.now = self._now + seconds

    async def sleep(self, seconds: float) -> None:
        """Return once the clock has moved ``seconds`` on (a test's or the pump's doing)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), waiter))
        for call in self.slept:
            call()
        try:
            await waiter
        finally:
            if not waiter.done():  # cancelled: forget it
                waiter.cancel()

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait for ``event``, at most until the clock has moved ``seconds`` on (a test's
        or a sleep's doing: the pump never moves the clock to a timeout, so a page's
        heartbeat does not run the time on while nothing else waits)."""
        if event.is_set():
            return True
        loop = asyncio.get_running_loop()
        limit: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._timeouts, (self._now + seconds, next(self._order), limit))
        waiting = loop.create_task(event.wait())
        try:
            await asyncio.wait((waiting, limit), return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            limit.cancel()
        return event.is_set()

    def next_timeout(self) -> float | None:
        """When the earliest pending timeout of ``wait`` ends (``None``: none pending)."""
        while self._timeouts and self._timeouts[0][2].done():
            heapq.heappop(self._timeouts)
        return self._timeouts[0][0] if self._timeouts else None

    def next_wake(self) -> float | None:
        """When the earliest sleeper wakes (``None``: nobody sleeps)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None


PUMP_EVERY = 0.02
"""Real seconds between two looks of the pump at what the bot waits for."""
PUMP_IDLE = 0.2
"""The longest wait of the pump while nothing happens (no call to the fake Telegram, no
sleep started or clock moved): each look reads the bot's jobs, and looking every 20 ms
cost an idle bot a tenth of a core, besides the database's own work."""


class Harness:
    """A fake Telegram, the bot connected to it, and helpers to act as people."""

    def __init__(
        self, server: FakeTelegram, db_url: str, clock: FakeClock | None = None, **env: Any
    ) -> None:
        self.server = server
        self.db_url = db_url
        self.clock = clock
        self.env = env
        self.app: Any = None
        self.runner: Runner | None = None
        self.db: Database | None = None
        self._pump: asyncio.Task[None] | None = None
        self._stopping = False
        self.pumping = True
        """Whether the pump moves the clock to the bot's own waits (a test that moves it
        itself, as people pressing at a pace, stops it)."""

    def config(self) -> Config:
        """The bot configuration: robots without delay, quick polling."""
        env = {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": self.server.api_url,
            "DATABASE_URL": self.db_url,
            "TRUCO_ROBOT_DELAY": "0",
            "TRUCO_POLL_TIMEOUT": "1",
            "TRUCO_ROBOT_BUDGET_MS": "20",
        }
        env.update({k: str(v) for k, v in self.env.items()})
        return Config.from_env(env, env_file=None)

    async def start(self) -> None:
        """Start the bot in this process, as ``truco bot`` does (``Runner``)."""
        self.db = Database(self.db_url)
        config = self.config()
        if self.clock is None:
            self.app = build_application(config, self.db)
        else:
            from bot.telegram.context import runtime_of

            self.app = build_application(config, self.db, clock=self.clock)
            self.server.clock = self.clock
            self.clock.moved.append(runtime_of(self.app).jobs.wake)
        # no HTTP port of its own: a test of the Mini App serves its routes on a free one
        self.runner = Runner(self.app, dataclasses.replace(config, listen=None))
        await self.runner.start()
        if self.clock is not None:
            self._pump = asyncio.create_task(self.pump(self.clock), name="clock pump")

    async def stop(self) -> None:
        """Stop the bot cleanly."""
        if self.runner is not None:
            self._stopping = True  # a job waiting for the budget finishes past any deadline
            # the bot stops on a moving clock: a test that moved it itself and failed
            # midway left jobs asleep on it, and the stop waited for them for ever
            self.pumping = True
            await self.runner.stop()
            self.runner = None
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        if self.clock is not None and self.app is not None:
            from bot.telegram.context import runtime_of

            self.clock.moved.remove(runtime_of(self.app).jobs.wake)
            self.server.clock = time.time
        self.app = None
        if self.db is not None:
            self.db.close()

    def advance(self, seconds: float) -> None:
        """Move the fake clock on; the job runner finds the deadlines now past at once."""
        assert self.clock is not None and self.app is not None
        self.clock.advance(seconds)

    async def beat_until(self, done: Callable[[], Any], heartbeat: float) -> Any:
        """Move the held clock on one Mini App ``heartbeat`` at a time until ``done()``
        holds (its value): a page that closed is seen gone only when its live stream next
        writes, which on a held clock happens only when the clock gets there. Each step
        waits for the streams to be waiting again (or for ``done``) before the next."""
        clock = self.clock
        assert clock is not None
        for _ in range(5):
            if found := done():
                return found
            clock.advance(heartbeat)
            now = clock.now
            await self.wait(lambda t=now: done() or (clock.next_timeout() or t) > t)
        return await self.wait(done)

    async def pump(self, clock: FakeClock) -> None:
        """While the bot runs: move the clock to what the bot itself waits for, never past
        a person's deadline (or its warning): the flood budgets' waits and the redraws
        they postpone cost no wall time, and a person's clock runs out only when the test
        moves it there (``advance``)."""
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        watcher = (loop, changed)
        self.server.watchers.add(watcher)
        clock.moved.append(changed.set)
        clock.slept.append(changed.set)
        idle = 0.0  # real seconds to wait for a change before looking anyway
        try:
            while True:
                await asyncio.sleep(PUMP_EVERY)  # real time: the bot works meanwhile
                if idle:
                    timer = loop.call_later(idle, changed.set)
                    await changed.wait()
                    timer.cancel()
                changed.clear()
                idle = min(max(2 * idle, PUMP_EVERY), PUMP_IDLE)
                if not self.pumping:
                    continue
                now, sleeper = clock.now, clock.next_wake()
                job, person = await asyncio.to_thread(self._next_jobs, now)
                wake = min((t for t in (sleeper, job) if t is not None), default=None)
                if wake is None or (person is not None and person <= wake and not self._stopping):
                    continue
                if clock.now == now:  # nobody moved it meanwhile
                    clock.now = wake
                    idle = 0.0
        finally:
            self.server.watchers.discard(watcher)
            clock.moved.remove(changed.set)
            clock.slept.remove(changed.set)

    def _next_jobs(self, now: float) -> tuple[float | None, float | None]:
        """When the bot's next own job is due, and the next person's deadline (or warning)."""
        from bot.domain.jobs import JobKind

        assert self.db is not None
        own = person = None
        with self.db.session() as s:
            rows = s.execute(
                text("SELECT kind, key, due_at FROM jobs WHERE due_at > :now ORDER BY due_at"),
                {"now": now},
            ).all()
        for kind, key, due in rows:
            warning = kind == JobKind.HANDS and key.endswith(":warning")
            persons = kind == JobKind.DEADLINE or warning
            if persons and person is None:
                person = float(due)
            elif not persons and own is None:
                own = float(due)
        return own, person

    # ---------------------------------------------------------------- looking

    def bot_messages(self, chat_id: int) -> list[JSON]:
        """Messages the bot sent in a chat."""
        return bot_messages(self.server, chat_id)

    def hand(self, user: int) -> JSON | None:
        """The person's newest hand message (the last bot message with move buttons)."""
        for m in reversed(self.bot_messages(user)):
            if any(b.get("callback_data", "").startswith("g") for b in buttons(m)):
                return m
        return None

    def table(self, chat_id: int) -> JSON | None:
        """The group's table message (the first message with 🃏 Minha mão, or the lobby)."""
        for m in self.bot_messages(chat_id):
            if any("switch_inline_query_current_chat" in b for b in buttons(m)):
                return m
            if any(b.get("callback_data", "").startswith("l") for b in buttons(m)):
                return m
        return None

    def table_message(self, chat_id: int) -> JSON | None:
        """The message the newest table of a chat is drawn in now (it moves down when buried)."""
        from sqlmodel import col, select

        from bot.domain.models import Game

        assert self.db is not None
        with self.db.session() as s:
            q = select(Game.table_message_id).where(Game.chat_id == chat_id)
            found = s.exec(q.order_by(col(Game.id).desc())).first()
        if found is None:
            return None
        return next((m for m in self.bot_messages(chat_id) if m["message_id"] == found), None)

    async def wait(self, predicate: Callable[[], Any], timeout: float = 30) -> Any:
        """Wait for a condition on the fake's state (returns as soon as it holds: the long
        timeout only lets a machine loaded by other work be slow, it never adds a wait)."""
        return await self.server.wait_for(predicate, timeout)

    async def press_move(self, user: int, choose: Callable[[list[JSON]], JSON]) -> JSON:
        """Press one of the person's move buttons; returns the bot's answer.

        As :func:`press`: a press on a hand not yet redrawn for a version that has passed
        is made again on the redrawn hand.
        """
        while True:
            msg = await self.wait(lambda: self.hand(user))
            b = choose([b for b in buttons(msg) if b.get("callback_data", "").startswith("g")])
            data = b["callback_data"]
            answer = await self.server.user_presses(user, user, msg["message_id"], data)
            if answer.get("text") not in STALE:
                return answer
            await self.wait(
                lambda d=data: all(
                    x.get("callback_data") != d for x in buttons(self.hand(user) or {})
                )
            )

    def over_message(self, chat_id: int) -> JSON | None:
        """The closing message of a match (with Revanche)."""
        for m in reversed(self.bot_messages(chat_id)):
            if any(b.get("callback_data", "").startswith("v") for b in buttons(m)):
                return m
        return None

    async def play_out(
        self, users: list[int], chat_id: int, timeout: float = 60, seed: int | None = None
    ) -> JSON:
        """Everyone presses legal buttons (the first, or random ones) until the match ends."""
        rng = random.Random(seed)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            done = self.over_message(chat_id)
            if done is not None:
                return done
            acted = False
            for u in users:
                msg = self.hand(u)
                if msg is None:
                    continue
                moves = [b for b in buttons(msg) if b["callback_data"].startswith("g")]
                b = moves[0] if seed is None else rng.choice(moves)
                try:
                    answer = await self.server.user_presses(
                        u, u, msg["message_id"], b["callback_data"]
                    )
                except (LookupError, TimeoutError):
                    continue
                acted = acted or not answer["show_alert"]
            if not acted:
                await asyncio.sleep(0.02)
        raise AssertionError("the match did not end in time")


async def new_lobby(h: Harness, group: int, opener: int, args: str = "") -> JSON:
    """The opener starts a private chat, then opens a table in ``group`` with ``/truco
    args``, as a person does: the lobby message, once drawn."""
    await h.server.user_sends(opener, opener, "/start")
    await h.wait(lambda: h.bot_messages(opener))
    await h.server.user_sends(opener, group, f"/truco {args}".strip())
    return await h.wait(lambda: h.table(group))


async def seat_match(h: Harness, chat_id: int, people: list[int], match: Any) -> int:
    """Seat people (then médio robots) at a table in ``chat_id`` playing ``match``; its id."""
    from bot.domain import Occupant, Person, RobotLevel, TableRequest, tables
    from bot.telegram.context import runtime_of
    from bot.telegram.publish import refresh
    from engine.rulesets import TableOptions

    rt = runtime_of(h.app)
    for u in people:
        # an answer to this /start: a person the bot already wrote to (a /baralho menu) has
        # messages before it, and the table must not start before the /start is taken
        said = len(h.bot_messages(u))
        await h.server.user_sends(u, u, "/start")
        await h.wait(lambda u=u, said=said: len(h.bot_messages(u)) > said)
    o = match.options
    request = TableRequest(
        match.ruleset.name,
        TableOptions(
            o.players,
            o.target,
            o.covered_cards,
            o.ladder,
            o.timer,
            sinais=o.sinais,
            catch_percent=o.catch_percent,
            flor=o.flor,
        ),
    )
    seats: list[Any] = []
    for i in range(o.players):
        if i < len(people):
            seats.append(Occupant(name=h.server.users[people[i]]["first_name"], user=people[i]))
        else:
            seats.append(tables.robot(RobotLevel.MEDIO, i))
    creator = Person(people[0], h.server.users[people[0]]["first_name"])
    table = tables.open_table(
        rt.db, chat_id, None, creator, request, private=chat_id > 0, seats=seats, rules=rt.rules
    )
    change = tables.start(rt.db, table.id, rt.rules, match=match)
    refresh(h.app, change)
    return table.id


STALE = frozenset(reason_text(translations(lang), Reason.STALE) for lang in LANGUAGES)
"""The refusal of a press on a move that has passed, in every language the bot speaks:
a Spanish speaker's stale press reads "Esa jugada ya pasó." (compared with the Portuguese
words alone, it passed for a move made, and the test waited for a turn that never came)."""


async def press(h: Harness, user: int, label: str) -> JSON:
    """Press the button with this label on the person's newest hand message.

    As a person would: a hand not yet redrawn after someone else's move may still show
    the label for a version that has passed ("Essa jogada já passou."); the press is
    then made again on the redrawn hand.
    """
    while True:
        msg = await h.wait(lambda: h.hand(user) if label in moves(h.hand(user) or {}) else None)
        data = moves(msg)[label]
        answer: JSON = await h.server.user_presses(user, user, msg["message_id"], data)
        if answer.get("text") not in STALE:
            return answer
        await h.wait(lambda d=data: moves(h.hand(user) or {}).get(label) not in (None, d))


async def press_first(server: FakeTelegram, user: int) -> bool:
    """Press the first move button of the person's newest hand message, if any."""
    for m in reversed(bot_messages(server, user)):
        found = list(moves(m).values())
        if found:
            answer = await server.user_presses(user, user, m["message_id"], found[0])
            # a move made is answered with no text, or a toast saying it was taken; a
            # repeat of it gets a toast, not an alert
            text = answer["text"]
            return not answer["show_alert"] and (not text or text.startswith(MOVE_TAKEN))
    return False


class PrivacyWatch:
    """Checks every message the bot sends or edits: no card is shown before it is played.

    At each send/edit it reads the newest stored match: a card still in a hand (or
    covered on the table) may show only in its owner's private chat, or in the
    partner's once the engine has shown it to the partner (mão de onze, Trem Bão answers).
    """

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.checked = 0
        self.leaks: list[str] = []
        harness.server.listeners.append(self.on_event)

    def _games(self) -> list[Any]:
        from sqlmodel import col, select

        from bot.domain import tables
        from bot.domain.models import Game

        assert self.harness.db is not None
        with self.harness.db.session() as s:
            q = select(Game.id).where(col(Game.snapshot).is_not(None)).order_by(col(Game.id).desc())
            ids = list(s.exec(q))
        return [t for i in ids if i is not None and (t := tables.load(self.harness.db, i))]

    def on_event(self, event: JSON) -> None:
        """Listener of the fake server."""
        if event["type"] not in ("message", "edit") or not event["message"]["from"]["is_bot"]:
            return
        chat = event["chat_id"]
        text_ = event["message"].get("text", "")
        # the table's own line (a hand message may first say how the hand before ended)
        # or else a hand's closing line ("Mão 1: …"), which the group may hear only once
        # the next hand is dealt (the planner folds the calls before it into it)
        shown = re.search(r"M[ãa]o (\d+) [·e]|Hand (\d+) [·i]", text_) or re.search(
            r"^M[ãa]o (\d+):|^Hand (\d+):", text_, re.MULTILINE
        )
        for game in self._games():
            own = game.seat_of(chat) if chat > 0 else None
            if (chat < 0 and game.chat_id != chat) or (chat > 0 and own is None):
                continue
            m = game.match()
            if shown and int(shown[1] or shown[2]) != m.hand_number + 1:
                return  # drawn for an earlier hand; a newer state replaced it
            allowed: set[Any] = set()
            seen_partner = None
            if own is not None:
                view = m.view(own)
                allowed = set(view.hand) | set(view.partner_hand or ())
                if view.partner is not None and view.partner_hand is not None:
                    # a seat shown its partner's hand remembers it, even a card covered later
                    seen_partner = view.partner
                    allowed |= set(m.dealt[view.partner])
            hidden = {c for hand in m.hands for c in hand} - allowed
            for plays in (m.table, *m.past):
                hidden |= {c for s, c, cov in plays if cov and s not in (own, seen_partner)}
            self.checked += 1
            # the fixed manilhas (mineiro, Trem Bão) and gaudério's four bravas are named as
            # rules, not as anyone's cards
            public = re.sub(r"(manilhas|bravas|top four) [^\n]*", "", text_)
            if public.startswith("🏁"):
                # how the hand before ended: public facts of a hand gone (covered stay covered)
                public = public.partition("\n\n")[2]
            for c in hidden:
                for label in {c.label, c.label_in(1)}:  # traditional and Spanish (R11)
                    if re.search(r"(?<![0-9A-Z])" + re.escape(label), public):
                        self.leaks.append(f"{label} in chat {chat}: {text_!r}")
            return


ANONYMOUS = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
"""The sender Telegram names for an anonymous admin."""


async def as_group(
    server: FakeTelegram, group: int, text: str, message_id: int | None = None
) -> None:
    """An anonymous admin writes the command ``text``: the group itself is the sender."""
    chat = server.chats[group]
    await server.updates.put(
        "message",
        {
            "message_id": 9000 + len(server.messages(group)) if message_id is None else message_id,
            "from": dict(ANONYMOUS),
            "sender_chat": dict(chat),
            "chat": dict(chat),
            "date": int(time.time()),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    )


async def next_event(stream: Any, line_timeout: float | None = None) -> Any:
    """The data of the next event on a live stream (``api/events``, server-sent events), read
    as JSON; ``line_timeout``: how long each line may take."""
    data = b""
    while True:
        line = await asyncio.wait_for(stream.content.readline(), line_timeout)
        if not line:
            raise ConnectionResetError("the stream ended")
        if line.startswith(b"data: "):
            data = line[6:]
        elif line == b"\n" and data:
            return json.loads(data)


def strip_tags(html: str) -> str:
    """Visible text of an HTML message."""
    return re.sub(r"<[^>]+>", "", html)


@contextlib.asynccontextmanager
async def running(
    server: FakeTelegram, tmp_path: Path, clock: FakeClock | None = None, **env: Any
) -> AsyncIterator[Harness]:
    """The bot running against the fake server with extra configuration (and clock)."""
    h = Harness(server, database_url(tmp_path, schema=True), clock, **env)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
