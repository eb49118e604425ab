"""``truco bot-bench``: many tables at once against the fake Bot API, figures as JSON.

Each table is a group where one simulated person plays 1×1 matches against a
robot (robot delay 0; levels fácil, médio, difícil in turn, or one level for
all) by pressing the first button of their private hand, and Revanche when a
match ends. As in production, the bot runs alone in this process; the fake
Telegram and the simulated people run in a second process, so the bot's event
loop is not shared with its load.

With ``people=4`` each group seats four simulated people in a 2×2 match (one
opens the table, three join, the opener starts; after a Revanche the three confirm their
seats and it starts by itself); they press a random legal move, so calls and raises happen.
``pace="human"`` makes every person think 1–4 s before pressing; ``"flat"`` presses at once. ``pace="fast"`` is the group-call planner's worst
case (``bot.telegram.planner``): every person presses one second after their turn (robots
answer at once), each table's opener sends /cancelar now and then (leaving the question
open), and each group's own figures are printed (``bot.tools.pace``): calls per hand, the
match's calls announced within 2 s and their p95 delay (the outbox's record of the call to
its sending), the longest silence while the match moved, the peak of calls in any 60 s, and
the commands answered (in the group or in private) with their p95 delay. ``matches="full"`` makes every person play
as people do instead (a card at random, truco now and then, running from most calls), so
that a match to 12 lasts as many hands as between people; with ``"short"`` the lone
person presses the first move and accepts every truco, and matches end in a few hands.

Measured: the time from a button press entering Telegram's update queue to the
bot's answerCallbackQuery reaching it (p50/p95/p99, taken in the fake's process:
long polling, HTTP both ways and the bot's work), Bot API calls per hand (split
into throttled ones — messages sent, edited or deleted, which Telegram's flood
limits count — and the rest), group messages per hand and the peak per minute in
one group, the time from a press to the group seeing a new or edited message,
the time from a person's turn beginning (the press that made it theirs) to a new
private message that notifies them (and how many turns came only as a silent
edit), and the bot's event-loop lag.

With ``clients="miniapp"`` the people play in the Mini App instead of the private hand's
buttons: each opens the table's page with launch data the fake Telegram signs (as the
sandbox does), keeps its live stream open and taps through the page's HTTP API (moves, the
lobby's Entrar and Começar, Revanche); robots are still added with the group's lobby
button. A group member who does not play watches each table in the app too. Measured as
well: the time from a tap leaving a page to every other page open at that table showing
it (streams and taps spread over the replicas, as a balancer would). ``noise`` sets what
each group hears of its matches (``/config``), ``warmup`` leaves the first seconds (tables
opening) out of the calls and hands counted.

With ``processes=N`` the bot runs as N ``truco bot`` replicas in webhook mode on the
configured database, behind the fake's round-robin proxy (as in production with
nginx); their jobs' lateness and 429s are read from each replica's ``/metrics``, and the
CPU they (and their difícil workers) used while measured from ``/proc``, apart from the
load process's.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from bot.domain.jobs import JobKind
from bot.domain.values.commands import AddRobot, Join, Start
from bot.domain.values.game import RobotLevel
from bot.sandbox.fakeapi import FakeTelegram
from bot.sandbox.runner import free_port
from bot.telegram.callbacks import Prefix, parse_lobby, parse_move
from bot.telegram.render.results import MOVE_TAKEN
from bot.webapp.state import page_lobby_name
from engine.actions import Act
from engine.stats import percentile

if TYPE_CHECKING:
    import aiohttp

    from bot.tools.pages import Page

TOKEN = "123456:BENCH"
LEVELS = tuple(RobotLevel)
PACES = ("flat", "human", "fast")
FAST_THINK = 1.0
"""``pace="fast"``: seconds a person takes before each press."""
CANCEL_EVERY = 65.0
"""``pace="fast"``: seconds between two /cancelar of a table's opener (a question stays open
a minute: each one is asked anew)."""
CLIENTS = ("buttons", "miniapp")
"""How the simulated people play: pressing the private hand's buttons, or in the Mini App."""
MATCHES = ("short", "full")
"""How the simulated people choose their moves: the first one (short matches), or as
people do (``_as_people``: matches to 12 as long as between people)."""
TRUCO_SHARE = 0.05
"""``matches="full"``: how often a person calls truco when they may."""
ACCEPT_SHARE = 0.2
"""``matches="full"``: how often a person accepts a call (else they run)."""
NOISES = ("all", "calls", "end")
"""What a group hears of a match as new messages (``bot.domain.values.settings.Noise``)."""
WEBAPP_PATH = "/app/"
PAGE_WAIT = 10.0
"""Seconds a tap waits for the other open pages to show it before counting them as missed."""
THROTTLED = frozenset(
    {"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage", "deleteMessages"}
)
"""Methods Telegram's flood limits count (30 a second per bot, 20 a minute per group): a
``deleteMessages`` is one call however many it deletes. Button answers
(``answerCallbackQuery``) are not messages and are counted apart (``unthrottled``)."""
CANCEL_QUESTION = "Cancelar a partida?"
"""The question /cancelar asks (the bench's groups speak Portuguese)."""
TURNS = frozenset({"robot", "deadline"})
"""Jobs that move a game (their lateness is a robot or a clock running late)."""
REDRAWS = frozenset({"table", "hands", "marcador"})
"""Jobs that bring messages up to date (their lateness includes waiting for the budget)."""


@dataclass(frozen=True)
class Plan:
    """What one run measures (``run`` says what each knob means); handed whole to the load
    process, the bot's side and the figures."""

    tables: int
    seconds: float
    robots: str
    database_url: str
    people: int
    pace: str
    processes: int = 0
    clients: str = "buttons"
    noise: str = "all"
    warmup: float = 0.0
    matches: str = "short"


def _as_people(rng: random.Random, acts: list[Act]) -> int:
    """Which of the legal moves ``acts`` a person picks with ``matches="full"``: a call
    answered (accepted now and then, else run from), truco now and then, else a card at
    random (the first move when there is no card: a mão de onze's play, a blind card)."""
    if Act.ACCEPT in acts:
        return acts.index(Act.ACCEPT if rng.random() < ACCEPT_SHARE else Act.RUN)
    if Act.TRUCO in acts and rng.random() < TRUCO_SHARE:
        return acts.index(Act.TRUCO)
    cards = [i for i, a in enumerate(acts) if a == Act.PLAY]
    return rng.choice(cards) if cards else 0


def _buttons(message: dict[str, Any], kinds: str) -> list[str]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "")[:1] and b["callback_data"][0] in kinds
    ]


class _Watch:
    """What the group and the people saw, and when (monotonic seconds, this process)."""

    def __init__(self) -> None:
        self.pressed: dict[int, float] = {}
        """Per group: the time of the latest answered press at its table."""
        self.press_to_group: list[float] = []
        self.turn_to_ping: list[float] = []
        self.silent_turns = 0
        self._waiting: dict[int, float] = {}
        self._turns: dict[int, frozenset[str]] = {}
        self._played: set[int] = set()
        """People whose press is drawn with the robot's answer, not drawn yet."""
        self.moved = {}
        self.commands = {}

    def press(self, group: int, at: float, folded: int | None = None) -> None:
        """A press at a group's table was answered (``folded``: the person whose hand keeps
        its buttons until the robot's answer is drawn over them)."""
        self.pressed[group] = at
        if folded is not None:
            self._played.add(folded)
        self._waiting.setdefault(group, at)
        first, _last = self.moved.get(group, (time.time(), 0.0))
        self.moved[group] = (first, time.time())

    moved: dict[int, tuple[float, float]]
    """Per group: the first and the latest answered press (wall clock)."""
    commands: dict[int, list[tuple[float, float | None]]]
    """Per group: each /cancelar sent and when its question came (wall clock)."""

    def asked(self, group: int) -> None:
        """A /cancelar was sent at the group's table."""
        self.commands.setdefault(group, []).append((time.time(), None))

    def question(self, group: int) -> None:
        """The question of /cancelar reached the group or its opener in private."""
        sent = self.commands.get(group, [])
        if sent and sent[-1][1] is None:
            sent[-1] = (sent[-1][0], time.time())

    def group_event(self, group: int, at: float) -> None:
        """A message or edit reached the group: it shows the presses before it."""
        start = self._waiting.pop(group, None)
        if start is not None:
            self.press_to_group.append(at - start)

    def private_event(
        self, group: int, user: int, new: bool, moves: frozenset[str], at: float
    ) -> None:
        """A person's hand message came (``new``) or was edited; ``moves``: its move
        buttons. A turn begins when they appear, or change after a press drawn with the
        robot's answer (the turn comes back over the buttons just pressed, which stayed)."""
        was = self._turns.get(user, frozenset())
        self._turns[user] = moves
        played = user in self._played
        if moves:
            self._played.discard(user)
        if not moves or (was and not (played and moves != was)):
            return
        if not new:
            self.silent_turns += 1
        elif group in self.pressed:
            self.turn_to_ping.append(at - self.pressed[group])


class _Person:
    """A simulated person: sits down (or opens the table and starts it), presses moves, and
    asks for Revanche."""

    def __init__(
        self,
        server: FakeTelegram,
        user: int,
        group: int,
        level: RobotLevel,
        *,
        opener: bool = True,
        seated: list[int] | None = None,
        pace: str = "flat",
        rng: random.Random | None = None,
        noise: str = "all",
        matches: str = "short",
    ) -> None:
        self.server, self.user, self.group = server, user, group
        self.noise = noise
        self.full = matches == "full"
        self.config_panel: asyncio.Future[int] | None = None
        self.opener = opener
        self.seated = seated  # 2×2: how many have joined the opener (shared by the table)
        self.pace = pace
        self.rng = rng or random.Random(user)
        self.robot = AddRobot(level)
        self.robot_added = seated is not None
        self.joined = opener
        self.entered: set[int] = set()  # the lobbies (games) whose Entrar this person pressed
        self.rematch_asked = False
        self.latest: tuple[int, int, str] | None = None  # chat, message id, callback_data
        self.last_ok = False
        self.changed = asyncio.Event()

    def _wanted(self) -> AddRobot | Start | Join | None:
        if not self.opener:
            return None if self.joined else Join()
        if self.seated is not None and (self.seated[0] < 3 or self.rematch_asked):
            # the opener starts once the other three sat down; a Revanche starts by itself
            # once they all confirmed (started at once, robots stood in for them)
            return None
        return Start() if self.robot_added else self.robot

    def on_event(self, event: dict[str, Any]) -> None:
        """A message or edit in one of this person's chats: remember the newest button."""
        msg = event["message"]
        panel = self.config_panel
        if panel is not None and not panel.done() and _buttons(msg, Prefix.CONFIG):
            panel.set_result(msg["message_id"])
        if event["chat_id"] == self.user:
            moves = _buttons(msg, Prefix.MOVE)
            if moves and self.full:
                acts = [parse_move(d).action.act for d in moves]
                moves = [moves[_as_people(self.rng, acts)]]
            elif moves and self.seated is not None:
                moves = [self.rng.choice(moves)]
        else:
            wanted = self._wanted()
            lobby = _buttons(msg, Prefix.LOBBY)
            moves = [d for d in lobby if wanted is not None and parse_lobby(d)[1] == wanted]
            if not self.opener and self.joined:
                # a Revanche's lobby asks its people to confirm their seats: Entrar, once
                # (unconfirmed, robots stand in for them when it starts)
                moves = [d for d in lobby if _entering(d) not in self.entered | {None}]
            if self.opener:
                moves += _buttons(msg, Prefix.REMATCH)
        if moves:
            self.latest = (event["chat_id"], msg["message_id"], moves[0])
            self.changed.set()

    async def play(self, until: float, latencies: list[float], watch: _Watch) -> None:
        """Open a table (or wait to join one) and keep pressing until time is up."""
        await self.server.user_sends(self.user, self.user, "/start")
        if self.opener and self.noise != "all":
            await self._set_noise()
        if self.opener:
            variant = "/truco paulista 2x2" if self.seated is not None else "/truco paulista 1x1"
            await self.server.user_sends(self.user, self.group, variant)
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, until - time.monotonic()))
            except TimeoutError:
                return
            self.changed.clear()
            if self.pace == "human":
                await asyncio.sleep(self.rng.uniform(1.0, 4.0))
            elif self.pace == "fast":
                await asyncio.sleep(FAST_THINK)
            if self.latest is None:
                continue
            chat, mid, data = self.latest
            self.latest = None
            await self.press(chat, mid, data, latencies, watch)

    async def _set_noise(self) -> None:
        """/config in the group: what it hears of a match (``Noise``), as an admin sets it."""
        from bot.domain.people import setting_choices
        from bot.domain.values.settings import Setting
        from bot.i18n import LANGUAGES
        from bot.telegram.callbacks import config_data

        self.config_panel = asyncio.get_running_loop().create_future()
        await self.server.user_sends(self.user, self.group, "/config")
        with contextlib.suppress(TimeoutError, LookupError):
            panel = await asyncio.wait_for(self.config_panel, 30)
            index = setting_choices(Setting.NOISE, LANGUAGES).index(self.noise)
            await self.server.user_presses(
                self.user, self.group, panel, config_data(Setting.NOISE, index), 30
            )

    async def press(
        self, chat: int, mid: int, data: str, latencies: list[float], watch: _Watch
    ) -> None:
        """Press a button; ``last_ok`` tells whether it was taken."""
        self.last_ok = False
        start = time.perf_counter()
        try:
            answer = await self.server.user_presses(self.user, chat, mid, data, 30)
        except (TimeoutError, LookupError):
            return
        # taken: no alert, and not even a repeat's toast (a move's own toast says it was)
        text = answer["text"]
        ok = not answer["show_alert"] and (not text or text.startswith(MOVE_TAKEN))
        self.last_ok = ok
        if data.startswith(Prefix.MOVE):
            latencies.append(time.perf_counter() - start)
            if ok:
                # a toast says the hand is redrawn with the robot's answer: the turn that
                # comes back is drawn over the buttons just pressed
                folded = self.user if text.startswith(MOVE_TAKEN) else None
                watch.press(self.group, time.monotonic(), folded)
        elif data.startswith(Prefix.LOBBY):
            game, command, _version = parse_lobby(data)
            if command == Join() and (ok or self.joined):
                self.entered.add(game)  # a Revanche's seat is confirmed (or refused) once
            if ok and command == self.robot:
                self.robot_added = True
            elif ok and command == Join() and self.seated is not None and not self.joined:
                self.joined = True
                self.seated[0] += 1
        elif data.startswith(Prefix.REMATCH):
            self.robot_added = True  # Revanche seats the same robot
            self.rematch_asked = self.rematch_asked or ok


def _entering(data: str) -> int | None:
    """The game of a lobby's Entrar button (``None`` for its other buttons)."""
    game, command, _version = parse_lobby(data)
    return game if command == Join() else None


class _Pages:
    """The Mini App side of the load: where pages connect, the launch data each person's
    page carries, and how long a tap took to reach every other page open at its table."""

    def __init__(self, server: FakeTelegram, bases: list[str], session: aiohttp.ClientSession):
        self.server, self.bases, self.session = server, bases, session
        self.opened = 0
        self.tap_to_pages: list[float] = []
        self.missed = 0
        self.pages: dict[int, list[Page]] = {}  # group -> its open pages
        self.tasks: set[asyncio.Task[None]] = set()

    def open(self, user: int, group: int, game: int, on_state: Any = None) -> tuple[Page, str]:
        """A page of ``user`` at ``game``, streaming from the next replica; the replica its
        taps go to (another one, so a tap crosses replicas as behind a balancer)."""
        from bot.tools.pages import Page

        k = self.opened
        self.opened += 1
        base = self.bases[k % len(self.bases)]
        launch = self.server.web_app_launch(user, base, f"g{game}")
        init_data = dict(part.split("=", 1) for part in launch.split("#", 1)[1].split("&"))[
            "tgWebAppData"
        ]
        from urllib.parse import unquote

        page = Page(self.session, base, unquote(init_data), f"g{game}", on_state)
        page.open()
        self.pages.setdefault(group, []).append(page)
        return page, self.bases[(k + 1) % len(self.bases)]

    async def close(self, group: int, page: Page) -> None:
        """The page closes."""
        with contextlib.suppress(ValueError):
            self.pages[group].remove(page)
        await page.close()

    def tapped(self, group: int, page: Page, version: int, start: float) -> None:
        """A tap made ``version``: note when each other page of the table shows it."""

        async def measure(other: Page) -> None:
            at = await other.reached(version, PAGE_WAIT)
            if at is None:
                self.missed += 1
            else:
                self.tap_to_pages.append(at - start)

        for other in self.pages.get(group, []):
            if other is not page and other.table == page.table:
                task = asyncio.create_task(measure(other))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)


class _AppTable:
    """What the people of one table share in the Mini App: the match they play (learnt
    when it starts), their pages and a group member who watches it (the public table)."""

    def __init__(self, pages: _Pages, group: int, watcher: int) -> None:
        self.pages, self.group, self.watcher = pages, group, watcher
        self.people: list[_AppPerson] = []
        self.watching: Page | None = None

    async def started(self, game: int) -> None:
        """The match ``game`` began: every person opens it, and so does the watcher."""
        if self.watching is not None:
            await self.pages.close(self.group, self.watching)
        self.watching, _ = self.pages.open(self.watcher, self.group, game)
        for p in self.people:
            await p.follow(game)


APP_MOVE, APP_LOBBY, APP_REMATCH = 0, -1, -2
"""``_AppPerson.latest``'s first item for what is done in the page (a chat for buttons)."""


class _AppPerson(_Person):
    """A person who plays in the Mini App, whose live stream stays open: every move, the
    lobby's Entrar and Começar and the Revanche are taps on the page (adding a robot is a
    button of the group's lobby, which the page does not have)."""

    def __init__(self, table: _AppTable, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.page: Page | None = None
        self.move_to = ""
        table.people.append(self)

    async def follow(self, game: int) -> None:
        """Open the page of ``game`` (closing the page of another table)."""
        if self.page is not None:
            if self.page.table == f"g{game}":
                return
            await self.table.pages.close(self.group, self.page)
        self.page, self.move_to = self.table.pages.open(self.user, self.group, game, self.on_state)

    def on_event(self, event: dict[str, Any]) -> None:
        """The group's lobby: its robot buttons pressed there, Entrar and Começar in the
        page; the private hand and the group's Revanche are not pressed."""
        panel = self.config_panel
        if panel is not None and not panel.done() and _buttons(event["message"], Prefix.CONFIG):
            panel.set_result(event["message"]["message_id"])
        if event["chat_id"] == self.user:
            return
        wanted = self._wanted()
        if isinstance(wanted, AddRobot):
            super().on_event(event)
            return
        for data in _buttons(event["message"], Prefix.LOBBY):
            game, command, _version = parse_lobby(data)
            if wanted == Join() and command == wanted:
                self.latest = (APP_LOBBY, game, page_lobby_name(Join()))
                self.changed.set()
                return
            if wanted == Start() and (self.page is None or self.page.table != f"g{game}"):
                # the opener opens the lobby in the page, and starts it there when full
                task = asyncio.get_running_loop().create_task(self.follow(game))
                self.table.pages.tasks.add(task)
                task.add_done_callback(self.table.pages.tasks.discard)
                return

    def on_state(self, page: Page, state: dict[str, Any]) -> None:
        """A state on the page: the move to tap when it is this person's turn, the
        Revanche at the end (the opener's), a Revanche seat to confirm."""
        if page is not self.page:
            return
        if self.latest is not None and self.latest[0] == APP_MOVE:
            self.latest = None  # an older state's move
        game = int(state["game"])
        lobby = state.get("lobby")
        if state.get("status") == "over" and self.opener and not state.get("rematch"):
            self.latest = (APP_REMATCH, game, "rematch")
        elif lobby and state.get("seat") in lobby["waiting"]:
            self.latest = (APP_LOBBY, game, page_lobby_name(Join()))
        elif lobby and self._wanted() == Start() and not lobby["waiting"]:
            if any(x["free"] for x in state["seats"]):
                return
            self.latest = (APP_LOBBY, game, page_lobby_name(Start()))
        elif state.get("legal") and state.get("status") == "playing":
            legal = [a["action"] for a in state["legal"]]
            if self.full:
                action = legal[
                    _as_people(self.rng, [Act[a["act"].upper()] for a in state["legal"]])
                ]
            else:
                action = self.rng.choice(legal) if self.seated is not None else legal[0]
            self.latest = (APP_MOVE, int(state["version"]), action)
        else:
            return
        self.changed.set()

    async def press(
        self, chat: int, mid: int, data: str, latencies: list[float], watch: _Watch
    ) -> None:
        """Tap on the page (a move, the lobby, the Revanche), or press a group button."""
        if chat > 0 or chat < APP_REMATCH:
            await super().press(chat, mid, data, latencies, watch)
            return
        if chat != APP_MOVE:
            await self._lobby(chat, mid, data)
            return
        page = self.page
        if page is None:
            return
        start = time.monotonic()
        try:
            status, body = await page.move(self.move_to, mid, data)
        except (OSError, ValueError):
            return
        latencies.append(time.monotonic() - start)
        if status == 200:
            watch.press(self.group, time.monotonic())
            self.table.pages.tapped(self.group, page, int(body["version"]), start)

    async def _lobby(self, kind: int, game: int, command: str) -> None:
        """Entrar, Começar or Revanche on the page open at ``game``."""
        await self.follow(game)
        assert self.page is not None
        path, body = (
            ("api/rematch", {}) if kind == APP_REMATCH else ("api/lobby", {"command": command})
        )
        try:
            status, answer = await self.page.post(self.move_to, path, body)
        except (OSError, ValueError):
            return
        if status != 200:
            return
        if kind == APP_REMATCH:  # a robot's Revanche is dealt at once, a 2×2's waits
            await self.table.started(int(answer["table"][1:]))
        elif command == page_lobby_name(Start()):
            await self.table.started(game)
        elif not self.joined and self.seated is not None:
            self.joined = True
            self.seated[0] += 1


async def _load(conn: Connection, plan: Plan) -> None:
    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await server.start()
    conn.send(server.api_url)
    routes = await asyncio.to_thread(conn.recv)  # the replicas' addresses, or none
    if routes:
        server.updates.retry_delay = 0.05
        server.route_webhook(routes)
    bases: list[str] = await asyncio.to_thread(conn.recv)  # where the Mini App is served
    await asyncio.to_thread(conn.recv)  # the bot is taking updates
    import aiohttp

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    pages = _Pages(server, bases, session)
    persons: dict[int, list[_Person]] = {}
    groups: dict[int, int] = {}  # chat -> its group (a group is its own)
    rng = random.Random(12)
    for i in range(plan.tables):
        level = LEVELS[i % len(LEVELS)] if plan.robots == "mix" else RobotLevel(plan.robots)
        users = [server.add_user(f"P{i}.{k}") for k in range(plan.people)]
        watcher = [server.add_user(f"W{i}")] if plan.clients == "miniapp" else []
        group = server.add_group(f"Mesa {i}", admins=users[:1], members=users[1:] + watcher)
        seated = [0] if plan.people == 4 else None
        kind: Any = _Person
        if watcher:
            kind = partial(_AppPerson, _AppTable(pages, group, watcher[0]))
        table = [
            kind(
                server,
                u,
                group,
                level,
                opener=k == 0,
                seated=seated,
                pace=plan.pace,
                rng=random.Random(rng.randrange(1 << 30)),
                noise=plan.noise,
                matches=plan.matches,
            )
            for k, u in enumerate(users)
        ]
        groups[group] = group
        persons.setdefault(group, []).extend(table)
        for p in table:
            persons[p.user] = [p]
            groups[p.user] = group
    watch = _Watch()

    def dispatch(event: dict[str, Any]) -> None:
        if event["type"] not in ("message", "edit") or event["chat_id"] not in persons:
            return
        chat = event["chat_id"]
        at = time.monotonic()
        msg = event["message"]
        if msg["from"]["is_bot"] and CANCEL_QUESTION in msg.get("text", ""):
            watch.question(groups[chat])
        if chat == groups[chat]:
            if msg["from"]["is_bot"]:
                watch.group_event(chat, at)
        elif msg["from"]["is_bot"]:
            mine = frozenset(_buttons(msg, Prefix.MOVE))
            watch.private_event(groups[chat], chat, event["type"] == "message", mine, at)
        for p in persons[chat]:
            p.on_event(event)

    server.listeners.append(dispatch)
    latencies: list[float] = []
    until = time.monotonic() + plan.seconds
    everyone = {id(p): p for ps in persons.values() for p in ps}.values()
    first = [0]  # the calls made before the measured window (the warm-up's)

    async def warm() -> None:
        await asyncio.sleep(plan.warmup)
        first[0] = len(server.calls)

    async def cancel(group: int, opener: int) -> None:
        """The opener's /cancelar now and then, its question left open (``pace="fast"``)."""
        await asyncio.sleep(20.0)
        while time.monotonic() < until - 10.0:
            watch.asked(group)
            await server.user_sends(opener, group, "/cancelar")
            await asyncio.sleep(CANCEL_EVERY)

    warming = asyncio.create_task(warm()) if plan.warmup else None
    cancels = [
        asyncio.create_task(cancel(g, ps[0].user))
        for g, ps in persons.items()
        if plan.pace == "fast" and groups.get(g) == g
    ]
    await asyncio.gather(*(p.play(until, latencies, watch) for p in everyone))
    for task in cancels:
        task.cancel()
    await asyncio.gather(*pages.tasks)
    if warming is not None:
        await warming
    calls = server.calls[first[0] :]
    group_ids = [g for g, owner in groups.items() if g == owner]
    group_calls = [c for c in calls if c.chat_id in set(group_ids)]
    conn.send(
        {
            "latencies": latencies,
            "api_calls": len(calls),
            "throttled": sum(c.method in THROTTLED for c in calls),
            "group_calls": sum(c.method in THROTTLED for c in group_calls),
            "group_new": sum(c.method == "sendMessage" for c in group_calls),
            "peak": max(
                (server.peak_calls_per_minute(g, tuple(THROTTLED)) for g in group_ids), default=0
            ),
            "press_to_group": watch.press_to_group,
            "turn_to_ping": watch.turn_to_ping,
            "silent_turns": watch.silent_turns,
            "by_method": _by_method(calls, set(group_ids)),
            "tap_to_pages": pages.tap_to_pages,
            "pages_missed": pages.missed,
            "pages_opened": pages.opened,
            "page_reconnects": sum(p.reconnects for ps in pages.pages.values() for p in ps),
            # per group (``pace="fast"``): its throttled calls, the match's moves, /cancelar
            "groups": {
                g: {
                    "calls": [
                        c.time for c in group_calls if c.chat_id == g and c.method in THROTTLED
                    ],
                    "moved": watch.moved.get(g),
                    "commands": watch.commands.get(g, []),
                }
                for g in group_ids
            },
        }
    )
    for group_pages in list(pages.pages.values()):
        for page in list(group_pages):
            await page.close()
    await session.close()
    await asyncio.to_thread(conn.recv)  # the bot has stopped
    await server.stop()


def _by_method(calls: list[Any], groups: set[int]) -> dict[str, int]:
    """Throttled calls counted by where they went and what they did (``group sendMessage``)."""
    out: dict[str, int] = {}
    for c in calls:
        if c.method in THROTTLED:
            key = f"{'group' if c.chat_id in groups else 'private'} {c.method}"
            out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def _load_process(conn: Connection, plan: Plan) -> None:
    """Entry point of the load process: fake Telegram plus simulated people."""
    asyncio.run(_load(conn, plan))


async def _watch_loop(lags: list[float], interval: float = 0.01) -> None:
    """Record how late the event loop wakes up (a blocked loop delays every answer)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(interval)
        lags.append(time.perf_counter() - start - interval)


def _pct(values: list[float], p: float) -> float:
    """The ``p`` quantile of ``values`` (seconds) in milliseconds."""
    return round(percentile(values, p) * 1000, 1)


def _replica(
    api_url: str, database_url: str, port: int, log: Path, webapp_url: str | None = None
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TRUCO_"))}
    env.update(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": api_url,
            "DATABASE_URL": database_url,
            "TELEGRAM_WEBHOOK_URL": "https://bench.example/telegram/hook",
            "TELEGRAM_WEBHOOK_SECRET": "bench-secret-0123456789",
            "TRUCO_LISTEN": f"127.0.0.1:{port}",
            "TRUCO_ROBOT_DELAY": "0",
        }
    )
    if webapp_url is not None:  # one public address, as behind a balancer
        env["TELEGRAM_WEBAPP_URL"] = webapp_url
        env["TELEGRAM_WEBAPP_NAME"] = "mesa"
    out = log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "bot"], env=env, stdout=out, stderr=out
    )


def _cpu_seconds(roots: list[int]) -> float | None:
    """CPU time (user + system) so far of these processes, their descendants alive and the
    children they reaped (``/proc``); None where there is no ``/proc``."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, int]] = {}  # pid -> (parent, ticks)
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            text = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # after "pid (comm) ": state ppid ... utime stime cutime cstime (fields 14-17)
        fields = text[text.rindex(")") + 2 :].split()
        stats[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    tree = {pid for pid in roots if pid in stats}
    grown = True
    while grown:
        more = {pid for pid, (parent, _) in stats.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(stats[pid][1] for pid in tree) / tick


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return str(resp.read().decode())


def _histogram(
    texts: list[str], name: str, kinds: frozenset[str] | None = None
) -> list[tuple[float, float]]:
    """Cumulative buckets (upper bound, count) of a histogram, summed over replicas and labels.

    ``kinds``: only the series whose ``kind`` label is one of these.
    """
    buckets: dict[float, float] = {}
    for text in texts:
        for line in text.splitlines():
            if line.startswith(name + "_bucket{"):
                kind = line.split('kind="', 1)[1].split('"', 1)[0] if 'kind="' in line else None
                if kinds is not None and kind not in kinds:
                    continue
                le = line.split('le="', 1)[1].split('"', 1)[0]
                bound = float("inf") if le == "+Inf" else float(le)
                buckets[bound] = buckets.get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
    return sorted(buckets.items())


def _lateness(texts: list[str]) -> dict[str, list[tuple[float, float]]]:
    """Job lateness buckets: every job, robot turns and deadlines, redraws."""
    name = "truco_job_lateness_seconds"
    return {
        "all": _histogram(texts, name),
        "turns": _histogram(texts, name, TURNS),
        "redraws": _histogram(texts, name, REDRAWS),
    }


def _bucket_pct(buckets: list[tuple[float, float]], p: float) -> float | None:
    """The bucket bound under which ``p`` of the observations fall (ms)."""
    total = buckets[-1][1] if buckets else 0.0
    for bound, count in buckets:
        if total and count >= p * total:
            return round(bound * 1000, 1)
    return None


def _jobs(texts: list[str], started: list[str]) -> dict[str, dict[str, float]]:
    """What the job loops did while measured: jobs run and put off, by kind, and the loop's
    transactions with something to do and with nothing (the figures that tell where a
    hand's transactions go)."""

    def grown(name: str) -> float:
        return _counter(texts, name) - _counter(started, name)

    kinds = [k.value for k in JobKind]

    return {
        "run": {k: grown(f'truco_jobs_due_total{{kind="{k}"}}') for k in kinds},
        "put_off": {k: grown(f'truco_jobs_put_off_total{{kind="{k}"}}') for k in kinds},
        "turns": {f: grown(f'truco_job_turns_total{{found="{f}"}}') for f in ("work", "nothing")},
    }


def _counter(texts: list[str], name: str) -> float:
    return sum(
        float(line.rsplit(" ", 1)[1])
        for text in texts
        for line in text.splitlines()
        if line.startswith(name) and not line.startswith("#")
    )


async def _start_load(plan: Plan) -> tuple[Connection, SpawnProcess, str]:
    """The load process started (fake Telegram and the simulated people): the pipe to it, the
    process, and the fake Telegram's address."""
    ours, theirs = multiprocessing.Pipe()
    load = multiprocessing.get_context("spawn").Process(
        target=_load_process, args=(theirs, plan), daemon=True
    )
    load.start()
    api_url: str = await asyncio.to_thread(ours.recv)
    return ours, load, api_url


async def _run(plan: Plan) -> dict[str, Any]:
    if plan.processes:
        return await _run_replicas(plan)
    from bot.config import Config
    from bot.domain import Database, messages
    from bot.process import Runner
    from bot.telegram.app import build_application

    ours, load, api_url = await _start_load(plan)
    env = {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": api_url,
        "DATABASE_URL": plan.database_url,
        "TRUCO_ROBOT_DELAY": "0",
        "TRUCO_POLL_TIMEOUT": "1",
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}{WEBAPP_PATH}"
    if plan.clients == "miniapp":  # the page's routes beside the bot, as ``truco bot`` serves them
        env.update(
            {
                "TELEGRAM_WEBAPP_URL": base,
                "TELEGRAM_WEBAPP_NAME": "mesa",
                "TRUCO_LISTEN": f"127.0.0.1:{port}",
            }
        )
    config = Config.from_env(env, env_file=None)
    db = Database(config.database_url)
    app = build_application(config, db)
    ours.send([])  # long polling, no webhook
    ours.send([base] if plan.clients == "miniapp" else [])
    runner = Runner(app, config)
    await runner.start()
    lags: list[float] = []
    watch = asyncio.create_task(_watch_loop(lags))
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    db_before = (db.transactions, db.statements)
    try:
        ours.send("go")
        before = await _ended_after(plan.warmup, db)
        figures = await asyncio.to_thread(ours.recv)
        figures["hands_before"], figures["matches_before"] = before
        figures["warmup"] = plan.warmup
    finally:
        used = resource.getrusage(resource.RUSAGE_SELF)
        watch.cancel()
        await runner.stop()
        ours.send("stop")
        await asyncio.to_thread(load.join, 10)
    hands = messages.count_events(db, "hand_over")
    figures["matches"] = messages.count_events(db, "match_over")
    if plan.pace == "fast":
        figures["per_group"] = _per_group(db, figures.pop("groups"))
    db.close()
    text = app.bot_data["runtime"].metrics.text().decode()
    figures["lateness"] = _lateness([text])
    figures["throttled_429"] = _counter([text], "truco_throttled_total")
    figures["jobs"] = _jobs([text], [])
    figures["db"] = (db.transactions - db_before[0], db.statements - db_before[1])
    cpu_seconds = used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
    return _figures(figures, hands, plan, lags, cpu_seconds)


async def _run_replicas(plan: Plan) -> dict[str, Any]:
    """The load process against ``processes`` webhook replicas on the configured database."""
    from bot.domain import Database, messages

    Database(plan.database_url).close()  # migrate once before the replicas start
    ours, load, api_url = await _start_load(plan)
    miniapp = plan.clients == "miniapp"
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-"))
    ports = [free_port() for _ in range(plan.processes)]
    public = f"http://127.0.0.1:{ports[0]}{WEBAPP_PATH}" if miniapp else None
    bots = [
        _replica(api_url, plan.database_url, p, folder / f"replica{p}.log", public) for p in ports
    ]
    addresses = [f"http://127.0.0.1:{p}" for p in ports]
    texts: list[str] = []
    started: list[str] = []
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        for address in addresses:
            for _ in range(600):
                with contextlib.suppress(OSError):
                    _get(address + "/healthz")
                    break
                await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # every replica has set its webhook
        ours.send(addresses)
        ours.send([a + WEBAPP_PATH for a in addresses] if miniapp else [])
        replicas = [bot.pid for bot in bots]
        loads = [load.pid] if load.pid is not None else []
        before = (_cpu_seconds(replicas), _cpu_seconds(loads))
        started += [await asyncio.to_thread(_get, a + "/metrics") for a in addresses]
        ours.send("go")
        # its own name: the CPU read above is subtracted below (read as the warm-up's hands
        # and matches, it made the replicas' CPU look a tenth of what it was)
        ended = await _ended_after(plan.warmup, None, plan.database_url)
        figures = await asyncio.to_thread(ours.recv)
        figures["hands_before"], figures["matches_before"] = ended
        figures["warmup"] = plan.warmup
        after = (_cpu_seconds(replicas), _cpu_seconds(loads))
        for address in addresses:
            with contextlib.suppress(OSError):
                texts.append(await asyncio.to_thread(_get, address + "/metrics"))
    finally:
        for bot in bots:
            bot.terminate()
        for bot in bots:
            try:
                await asyncio.to_thread(bot.wait, 30)
            except subprocess.TimeoutExpired:
                bot.kill()
        ours.send("stop")
        await asyncio.to_thread(load.join, 10)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    db = Database(plan.database_url, migrate=False)
    hands = messages.count_events(db, "hand_over")
    figures["matches"] = messages.count_events(db, "match_over")
    if plan.pace == "fast":
        figures["per_group"] = _per_group(db, figures.pop("groups"))
    db.close()
    figures["lateness"] = _lateness(texts)
    figures["throttled_429"] = _counter(texts, "truco_throttled_total")
    figures["jobs"] = _jobs(texts, started)
    figures["db"] = tuple(  # while measured: start-up and resuming left out
        _counter(texts, name) - _counter(started, name)
        for name in ("truco_db_transactions_total", "truco_db_statements_total")
    )
    replicas_cpu, load_cpu = (
        (a - b if a is not None and b is not None else None)
        for a, b in zip(after, before, strict=True)
    )
    # the replicas alone while measured; without /proc, every child from start to stop
    cpu_seconds = (
        replicas_cpu
        if replicas_cpu is not None
        else used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
    )
    result = _figures(figures, hands, plan, [], cpu_seconds)
    if load_cpu is not None:
        result["load_cpu_seconds"] = round(load_cpu, 1)  # the fake Telegram and the people
    return result


def _per_group(db: Any, groups: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Each group's figures (``bot.tools.pace``) from the load's times and the database's
    record of each call and hand; then the worst of them."""
    from bot.domain import outbox
    from bot.telegram.publish.table import URGENT_SAYINGS
    from bot.tools.pace import group_figures

    said = outbox.calls_said(db, URGENT_SAYINGS)
    hands = outbox.hands_closed(db)
    out: dict[str, Any] = {}
    for g, seen in groups.items():
        moved = seen["moved"]
        if moved is None:
            continue
        figures = group_figures(
            seen["calls"], hands.get(g, 0), said.get(g, []), tuple(moved), seen["commands"]
        )
        out[str(g)] = figures.as_json()
    rows = list(out.values())

    def worst(key: str, pick: Any) -> Any:
        values = [r[key] for r in rows if r[key] is not None]
        return pick(values) if values else None

    return {
        "groups": out,
        "worst": {
            "peak_per_minute": worst("peak_per_minute", max),
            "announced_in_time": worst("announced_in_time", min),
            "announced_p95": worst("announced_p95", max),
            "longest_silence": worst("longest_silence", max),
            "calls_per_hand": worst("calls_per_hand", max),
            "commands_p95": worst("commands_p95", max),
            "commands_unanswered": sum(r["commands"] - r["commands_answered"] for r in rows),
        },
    }


async def _ended_after(seconds: float, db: Any, url: str = "") -> tuple[int, int]:
    """Hands and matches played to their end by the end of the warm-up (none without one)."""
    from bot.domain import Database, messages

    if not seconds:
        return 0, 0
    await asyncio.sleep(seconds)

    def count(on: Any) -> tuple[int, int]:
        return messages.count_events(on, "hand_over"), messages.count_events(on, "match_over")

    if db is not None:
        return await asyncio.to_thread(count, db)
    opened = Database(url, migrate=False)
    try:
        return await asyncio.to_thread(count, opened)
    finally:
        opened.close()


def _figures(
    figures: dict[str, Any], hands: int, plan: Plan, lags: list[float], cpu_seconds: float
) -> dict[str, Any]:
    lat: list[float] = figures["latencies"]
    reach: list[float] = figures["tap_to_pages"]
    warmup = figures.get("warmup", 0.0)
    tables, seconds = plan.tables, plan.seconds
    every_hand = hands  # the CPU and the database were measured over the whole run
    hands -= figures.get("hands_before", 0)  # calls and hands: those after the warm-up
    ended = figures.get("matches", 0) - figures.get("matches_before", 0)
    seconds -= warmup
    seen: list[float] = figures["press_to_group"]
    pings: list[float] = figures["turn_to_ping"]

    def per_hand(n: int) -> float | None:
        return round(n / hands, 2) if hands else None

    calls_per_second = figures["throttled"] / seconds if seconds else 0.0
    per_table = calls_per_second / tables if tables else 0.0
    return {
        "database": make_url(plan.database_url).get_backend_name(),
        "processes": plan.processes or 1,
        "webhook": bool(plan.processes),
        "tables": tables,
        "seconds": seconds + warmup,
        "warmup_seconds": warmup,
        "people_per_table": plan.people,
        "pace": plan.pace,
        "clients": plan.clients,
        "group_noise": plan.noise,
        "robots": plan.robots if plan.people == 1 else None,
        "presses": len(lat),
        "press_to_answer_ms": {
            "p50": _pct(lat, 0.50),
            "p95": _pct(lat, 0.95),
            "p99": _pct(lat, 0.99),
        },
        "mean_ms": round(sum(lat) / len(lat) * 1000, 1) if lat else 0.0,
        "hands": hands,
        "matches": plan.matches,
        "matches_ended": ended,
        # every match to 12: short ones spread a match's own calls over few hands
        "hands_per_match": round(hands / ended, 1) if ended else None,
        "api_calls": figures["api_calls"],
        "api_calls_per_hand": per_hand(figures["api_calls"]),
        "throttled_calls_per_hand": per_hand(figures["throttled"]),
        "unthrottled_calls_per_hand": per_hand(figures["api_calls"] - figures["throttled"]),
        "group_messages_per_hand": per_hand(figures["group_calls"]),
        "throttled_per_hand_by_method": {k: per_hand(n) for k, n in figures["by_method"].items()},
        "new_group_messages_per_hand": per_hand(figures["group_new"]),
        "peak_calls_per_minute_one_group": figures["peak"],
        "press_to_group_ms": {"p50": _pct(seen, 0.50), "p95": _pct(seen, 0.95)},
        "turn_to_notification_ms": {"p50": _pct(pings, 0.50), "p95": _pct(pings, 0.95)},
        "turns_notified": len(pings),
        "turns_only_edited": figures["silent_turns"],
        # Mini App: from the tap leaving a page to each other page open at the table (its
        # players' and a watcher's, on other replicas) drawing the new state
        "tap_to_other_pages_ms": {"p50": _pct(reach, 0.50), "p95": _pct(reach, 0.95)},
        "page_deliveries": len(reach),
        "pages_missed": figures["pages_missed"],
        "pages_opened": figures["pages_opened"],
        "page_reconnects": figures["page_reconnects"],
        # bucket bounds (50 ms, 100 ms, 250 ms ... 30 s): "p95 100" means within 100 ms
        "job_lateness_ms": {
            lane: {
                "p50": _bucket_pct(buckets, 0.50),
                "p95": _bucket_pct(buckets, 0.95),
                "jobs": int(buckets[-1][1]) if buckets else 0,
            }
            for lane, buckets in figures["lateness"].items()
        },
        "answered_429": figures["throttled_429"],
        "throttled_calls_per_second": round(calls_per_second, 1),
        # Telegram's 30 messages a second over what one table asked for per second
        "tables_one_token_can_serve": round(30 / per_table) if per_table else None,
        "bot_loop_lag_ms": ({"p99": _pct(lags, 0.99), "max": _pct(lags, 1.0)} if lags else None),
        "bot_cpu_seconds": round(cpu_seconds, 1),
        "bot_cpu_ms_per_hand": round(cpu_seconds / every_hand * 1000) if every_hand else None,
        # the bot's transactions and statements (the lobbies' included), per hand played
        "db_transactions_per_hand": round(figures["db"][0] / every_hand, 1) if every_hand else None,
        "db_statements_per_hand": round(figures["db"][1] / every_hand, 1) if every_hand else None,
        # where they go: the job loops' turns, the jobs run and those put off to come back
        "jobs_per_hand": {
            part: {k: round(n / every_hand, 2) for k, n in counts.items() if n}
            for part, counts in figures["jobs"].items()
        }
        if every_hand
        else None,
        **({"per_group": figures["per_group"]} if "per_group" in figures else {}),
    }


class BenchError(Exception):
    """The benchmark cannot run on this database (one line, for the user)."""


def prepare_database(url: str | None, reset: bool) -> str:
    """The database to measure: ``DATABASE_URL`` (emptied with ``reset``) or a new SQLite file.

    A database with games in it is refused: the bench's people and groups would meet
    tables left by an earlier run.
    """
    from bot.domain import Database

    if not url:
        return f"sqlite:///{Path(tempfile.mkdtemp(prefix='truco-bench-'))}/bench.db"
    db = Database(url, migrate=False)
    try:
        if reset:
            db.drop_tables()
        elif db.holds_games():
            raise BenchError(
                "o banco de DATABASE_URL já tem partidas; use um banco só para o "
                "bot-bench ou --reset (apaga as tabelas do bot nesse banco)"
            )
    finally:
        db.close()
    return url


def run(
    tables: int = 200,
    seconds: float = 30.0,
    robots: str = "mix",
    *,
    people: int = 1,
    pace: str = "flat",
    database_url: str | None = None,
    reset: bool = False,
    processes: int = 0,
    clients: str = "buttons",
    noise: str = "all",
    warmup: float = 0.0,
    matches: str = "short",
) -> dict[str, Any]:
    """Run the benchmark and return its figures (``robots``: a level or ``mix``).

    ``people``: 1 (one person against a robot) or 4 (a 2×2 of people) per table;
    ``pace``: ``flat`` or ``human``. ``database_url`` defaults to ``DATABASE_URL``;
    without either, a new SQLite file. ``processes``: that many webhook replicas as
    subprocesses (0: the bot in this process, long polling). ``clients``: ``buttons`` (the
    people press the private hand's buttons) or ``miniapp`` (they play in the Mini App with
    its live stream open, and a group member watches each table there too). ``noise``:
    what each group chose to hear of its matches (``/config``: all, calls or end).
    ``warmup``: seconds at the start (tables opening, first deals) left out of the calls
    and hands counted, so that they tell a steady state. ``matches``: ``short`` (the lone
    person presses the first move and accepts every truco) or ``full`` (every person plays
    as people do, and a match to 12 lasts as many hands as between people).
    """
    if robots not in (*LEVELS, "mix"):
        raise ValueError(f"robots: {', '.join(LEVELS)} or mix")
    if people not in (1, 4) or pace not in PACES or clients not in CLIENTS:
        raise ValueError("people: 1 or 4; pace: flat, human or fast; clients: buttons or miniapp")
    if not 0 <= warmup < seconds:
        raise ValueError("warmup: from 0 to less than seconds")
    if noise not in NOISES:
        raise ValueError(f"noise: {', '.join(NOISES)}")
    if matches not in MATCHES:
        raise ValueError(f"matches: {', '.join(MATCHES)}")
    url = prepare_database(database_url or os.environ.get("DATABASE_URL"), reset)
    if processes and make_url(url).get_backend_name() != "postgresql":
        raise BenchError("--processes precisa de DATABASE_URL num PostgreSQL")
    plan = Plan(
        tables=tables,
        seconds=seconds,
        robots=robots,
        database_url=url,
        people=people,
        pace=pace,
        processes=processes,
        clients=clients,
        noise=noise,
        warmup=warmup,
        matches=matches,
    )
    return asyncio.run(_run(plan))
