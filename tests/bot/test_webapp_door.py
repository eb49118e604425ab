"""The Mini App's door against hostile input: every bad request a 4xx with one log line,
presence only for real seats, the security headers (issue 48's findings, one test each)."""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.domain import RobotLevel, presence, tables
from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.telegram.context import runtime_of
from tests.bot.harness import FakeClock, Harness, paulista_hand, running, seat_match
from tests.bot.test_webapp import GROUP, WEBAPP, init_data, setup_people

JSON = dict[str, Any]


@dataclass
class Door:
    """The bot with its Mini App served on a port, and an HTTP client."""

    h: Harness
    base: str
    http: aiohttp.ClientSession

    def auth(self, user: int, game_id: int = 1) -> dict[str, str]:
        return {"Authorization": f"tma {init_data(self.h.server, user, game_id)}"}

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, str]:
        async with self.http.get(self.base + path, headers=headers) as r:
            return r.status, await r.text()

    async def post(self, path: str, body: str, headers: dict[str, str]) -> tuple[int, str]:
        hdrs = {**headers, "Content-Type": "application/json"}
        async with self.http.post(self.base + path, data=body, headers=hdrs) as r:
            return r.status, await r.text()


@contextlib.asynccontextmanager
async def door(server: Any, tmp_path: Any, **env: Any) -> AsyncIterator[Door]:
    async with running(server, tmp_path, FakeClock(), **WEBAPP, **env) as h:
        front = BotServer(h.app, runtime_of(h.app).db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        try:
            async with aiohttp.ClientSession() as http:
                yield Door(h, base, http)
        finally:
            await front.stop()


async def open_lobby(d: Door, user: int) -> int:
    await d.h.server.user_sends(user, GROUP, "/truco")
    assert d.h.db is not None
    table = await d.h.wait(lambda: tables.active_table(d.h.db, GROUP, None))
    return int(table.id)


def hands_waiting(d: Door, game_id: int) -> bool:
    """Whether a redraw of the table's hands is still to run."""
    from sqlmodel import select

    from bot.domain.jobs import JobKind
    from bot.domain.models import Job

    assert d.h.db is not None
    with d.h.db.session() as s:
        q = select(Job).where(Job.kind == JobKind.HANDS.value, Job.key == str(game_id))
        return s.exec(q).first() is not None


def tracebacks(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.levelno >= logging.ERROR or r.exc_info]


async def test_every_bad_request_is_a_4xx_with_one_log_line(
    server: Any, tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    ana, beto, _caio = setup_people(server)
    async with door(server, tmp_path) as d:
        gid = await seat_match(d.h, GROUP, [ana, beto], paulista_hand())
        good = d.auth(ana, gid)
        nested = {"Authorization": "tma user=" + "[" * 5000 + "&auth_date=1"}
        deep = json.dumps({"table": f"g{gid}", "version": 1}).replace("}", ', "a": ')
        deep += "[" * 5000 + "]" * 5000 + "}"

        def move(game: int, version: str) -> str:
            return '{"table": "g%s", "version": %s, "action": "play 3C"}' % (game, version)  # noqa: UP031

        big = "g2147483648"
        cases: list[tuple[str, str, str | None, dict[str, str], int]] = [
            # a deeply nested Authorization: refused as any launch data that does not check out
            ("GET", f"api/state?table=g{gid}", None, nested, 401),
            ("GET", f"api/events?table=g{gid}", None, nested, 401),
            ("POST", "api/move", move(gid, "1"), nested, 401),
            ("POST", "api/lobby", '{"table": "g1", "command": "join"}', nested, 401),
            # versions no button carries
            ("POST", "api/move", move(gid, "Infinity"), good, 400),
            ("POST", "api/move", move(gid, "NaN"), good, 400),
            ("POST", "api/move", move(gid, "1e400"), good, 400),
            ("POST", "api/move", move(gid, str(10**30)), good, 400),
            ("POST", "api/move", move(gid, "2147483648"), good, 400),
            ("POST", "api/move", move(gid, "-1"), good, 400),
            ("POST", "api/move", move(gid, "1.0"), good, 400),
            ("POST", "api/move", move(gid, "true"), good, 400),
            ("POST", "api/move", deep, good, 400),
            ("POST", "api/move", "[" * 100_000, good, 400),
            ("POST", "api/move", '{"table": "g1", "pad": "' + "x" * 10_000 + '"}', good, 400),
            # ids past the database's range name no table, on all six endpoints
            ("GET", f"api/state?table={big}", None, good, 404),
            ("GET", f"api/events?table={big}", None, good, 404),
            ("POST", "api/move", f'{{"table": "{big}", "version": 1, "action": "play 3C"}}', good, 404),
            ("POST", "api/lobby", f'{{"table": "{big}", "command": "join"}}', good, 404),
            ("POST", "api/rematch", f'{{"table": "{big}"}}', good, 404),
            ("POST", "api/presence", f'{{"table": "{big}", "hidden": true}}', good, 404),
            ("GET", "api/state?table=g999999999999999999999", None, good, 404),
            # tables that are not there
            ("POST", "api/lobby", '{"table": "g99999", "command": "join"}', good, 404),
            ("POST", "api/rematch", '{"table": "g99999"}', good, 404),
            ("POST", "api/back", f'{{"table": "{big}"}}', good, 404),
            ("POST", "api/back", '{"table": "g99999"}', good, 404),
            ("POST", "api/back", '{"table": ["g1"]}', good, 400),
            ("POST", "api/move", '{"table": "g99999", "version": 1, "action": "play 3C"}', good, 404),
        ]  # fmt: skip
        caplog.set_level(logging.INFO, logger="bot.webapp")
        for method, path, body, headers, status in cases:
            before = len(caplog.records)
            if method == "GET":
                got, text = await d.get(path, headers)
            else:
                assert body is not None
                got, text = await d.post(path, body, headers)
            assert got == status, (path, (body or "")[:60], got, text[:200])
            assert "error" in json.loads(text)
            lines = [r for r in caplog.records[before:] if r.name.startswith("bot.webapp")]
            assert len(lines) == 1, (path, [r.getMessage() for r in lines])
            assert not lines[0].exc_info
        assert tracebacks(caplog.records) == []
        assert d.h.db is not None
        assert d.h.db is not None and tables.load(d.h.db, gid) is not None


async def test_presence_is_recorded_only_for_a_real_seat_at_a_real_table(
    server: Any, tmp_path: Any
) -> None:
    ana, beto, caio = setup_people(server)
    async with door(server, tmp_path) as d:
        db = runtime_of(d.h.app).db
        gid = await open_lobby(d, ana)
        # a lobby that is not there: no row (the old code wrote one, or failed on its key)
        status, _ = await d.post(
            "api/lobby", '{"table": "g99999", "command": "join"}', d.auth(beto)
        )
        assert status == 404
        assert presence.seen_at(db, 99999) == {}
        # Beto sits from the app: present; leaves: his row goes with him
        body = json.dumps({"table": f"g{gid}", "command": "join"})
        assert (await d.post("api/lobby", body, d.auth(beto, gid)))[0] == 200
        assert set(presence.seen_at(db, gid)) == {beto}
        body = json.dumps({"table": f"g{gid}", "command": "leave"})
        assert (await d.post("api/lobby", body, d.auth(beto, gid)))[0] == 200
        assert presence.seen_at(db, gid) == {}
        # a refused join (a full table) writes nothing either
        body = json.dumps({"table": f"g{gid}", "command": "join"})
        assert (await d.post("api/lobby", body, d.auth(beto, gid)))[0] == 200
        assert (await d.post("api/lobby", body, d.auth(beto, gid)))[0] == 409  # already seated
        status, _ = await d.post("api/lobby", body, d.auth(caio, gid))
        assert status == 409  # two players: full
        assert set(presence.seen_at(db, gid)) == {beto}


async def test_every_app_answer_carries_the_security_headers(server: Any, tmp_path: Any) -> None:
    ana, beto, _caio = setup_people(server)
    async with door(server, tmp_path) as d:
        gid = await seat_match(d.h, GROUP, [ana, beto], paulista_hand())
        answers: list[aiohttp.ClientResponse] = []
        for path, headers in (
            ("", {}),
            ("static/deck.js", {}),
            ("static/app.js", {}),
            ("nowhere", {}),
            (f"api/state?table=g{gid}", {}),  # 401
            (f"api/state?table=g{gid}", d.auth(ana, gid)),
            ("api/state?table=g99999", d.auth(ana, gid)),  # 404
        ):
            async with d.http.get(d.base + path, headers=headers) as r:
                await r.read()
                answers.append(r)
        async with d.http.get(
            d.base + f"api/events?table=g{gid}", headers=d.auth(ana, gid)
        ) as stream:
            answers.append(stream)  # a live stream's headers go out before its first event
        assert [r.status for r in answers] == [200, 200, 200, 404, 401, 200, 404, 200]
        for r in answers:
            csp = r.headers.get("Content-Security-Policy", "")
            assert "frame-ancestors https://web.telegram.org https://*.telegram.org" in csp
            assert "default-src 'self'" in csp
            assert r.headers.get("X-Content-Type-Options") == "nosniff"
            assert r.headers.get("Referrer-Policy") == "no-referrer"
            assert "aiohttp" not in r.headers.get("Server", "").lower()
        async with d.http.get(d.base.removesuffix("app/") + "healthz") as r:
            assert "aiohttp" not in r.headers.get("Server", "").lower()


def test_only_an_app_on_a_local_address_may_be_framed_by_a_local_page() -> None:
    from bot.webapp.door import security_headers

    public = security_headers(local=False)["Content-Security-Policy"]
    assert public.endswith("frame-ancestors https://web.telegram.org https://*.telegram.org")
    assert "127.0.0.1" in security_headers(local=True)["Content-Security-Policy"]


async def test_a_stranger_can_neither_join_nor_watch_a_groups_table(
    server: Any, tmp_path: Any
) -> None:
    ana, beto, caio = setup_people(server)
    eva = server.add_user("Eva")  # in none of the bot's groups
    async with door(server, tmp_path) as d:
        gid = await open_lobby(d, ana)
        join = json.dumps({"table": f"g{gid}", "command": "join"})
        # two joins, as the review made them: refused in the buttons' words, not seated
        for _ in range(2):
            status, text = await d.post("api/lobby", join, d.auth(eva, gid))
            assert status == 403
            assert json.loads(text)["error"] == "Essa mesa é de um grupo em que você não está."
        table = tables.load(runtime_of(d.h.app).db, gid)
        assert table is not None and table.seat_of(eva) is None
        assert not any("Eva" in m["text"] for m in d.h.bot_messages(GROUP))
        # nor does she see it: the same answer as a table that is not there
        assert (await d.get(f"api/state?table=g{gid}", d.auth(eva, gid)))[0] == 404
        assert (await d.get(f"api/events?table=g{gid}", d.auth(eva, gid)))[0] == 404
        assert (await d.get("api/state?table=g99999", d.auth(eva, gid)))[0] == 404
        # Telegram was asked once for her: the answer is kept a while
        asked = [
            c
            for c in server.calls
            if c.method == "getChatMember" and c.params.get("user_id") == eva
        ]
        assert len(asked) == 1
        # a member watches and joins
        assert (await d.get(f"api/state?table=g{gid}", d.auth(caio, gid)))[0] == 200
        assert (await d.post("api/lobby", join, d.auth(beto, gid)))[0] == 200


async def test_a_private_match_is_seen_by_its_seats_only(server: Any, tmp_path: Any) -> None:
    ana, beto, _caio = setup_people(server)
    async with door(server, tmp_path) as d:
        gid = await seat_match(d.h, ana, [ana], paulista_hand())  # Ana against a robot
        assert (await d.get(f"api/state?table=g{gid}", d.auth(ana, gid)))[0] == 200
        for path in (f"api/state?table=g{gid}", f"api/events?table=g{gid}"):
            status, text = await d.get(path, d.auth(beto, gid))
            assert status == 404 and json.loads(text)["error"] == "Essa mesa não existe."
        join = json.dumps({"table": f"g{gid}", "command": "join"})
        assert (await d.post("api/lobby", join, d.auth(beto, gid)))[0] == 404


async def test_a_page_toggled_hidden_and_visible_redraws_the_hand_at_most_every_3_s(
    server: Any, tmp_path: Any
) -> None:
    from bot.domain.presence import REDRAW_GAP

    ana, beto, _caio = setup_people(server)
    # the held clock runs on to each deferred redraw while the script toggles: her
    # deadline (and its warning) must stay beyond them all, or the pump stops short of them
    async with door(server, tmp_path, TRUCO_DECISION_SECONDS=100_000) as d:
        gid = await seat_match(d.h, GROUP, [ana, beto], paulista_hand())
        await d.h.wait(lambda: d.h.hand(ana))  # her turn: the hand she sees depends on the app
        drawing = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")
        before = len(server.calls_to(ana, drawing))
        clock = d.h.clock
        assert clock is not None
        start = clock.now
        auth = d.auth(ana, gid)
        for _ in range(40):  # as fast as a script can: the review's 230 edits in 20 s
            for hidden in ("true", "false"):
                body = f'{{"table": "g{gid}", "hidden": {hidden}}}'
                assert (await d.post("api/presence", body, auth))[0] == 200
        elapsed = clock.now - start  # the bot's time, which the redraws are spaced by
        # the last toggle's redraw comes at most REDRAW_GAP later
        allowed = 2 + int(elapsed / REDRAW_GAP)
        await d.h.wait(lambda: len(server.calls_to(ana, drawing)) > before)
        pages = d.h.app.bot_data["miniapp"]
        # the deferred redraw ran
        await d.h.wait(lambda: not pages.redraws_waiting and not hands_waiting(d, gid), 60)
        times = [c.time for c in server.calls_to(ana, drawing)[before:]]
        redraws = [t for i, t in enumerate(times) if i == 0 or t - times[i - 1] > 0.5]
        # one redraw may be two calls (a new hand message, the old one deleted)
        gaps = [b - a for a, b in itertools.pairwise(redraws)]
        assert redraws and all(gap >= REDRAW_GAP - 0.5 for gap in gaps), (gaps, elapsed)
        assert len(redraws) <= allowed


async def test_a_robot_tapped_twice_on_one_drawing_of_the_lobby_seats_one(
    server: Any, tmp_path: Any
) -> None:
    ana, _beto, _caio = setup_people(server)
    async with door(server, tmp_path) as d:
        assert d.h.db is not None
        gid = await open_lobby(d, ana)
        status, text = await d.get(f"api/state?table=g{gid}", d.auth(ana, gid))
        assert status == 200
        version = json.loads(text)["version"]
        body = json.dumps({"table": f"g{gid}", "command": "robot3", "version": version})
        assert (await d.post("api/lobby", body, d.auth(ana, gid)))[0] == 200
        # the second tap reached the bot before the page was drawn again: a double tap
        status, text = await d.post("api/lobby", body, d.auth(ana, gid))
        assert status == 409 and json.loads(text)["error"]
        table = tables.load(d.h.db, gid)
        assert table is not None
        assert [x.robot for x in table.seats if x is not None and x.robot] == [RobotLevel.DIFICIL]
        # a version no page draws is a forged button
        forged = json.dumps({"table": f"g{gid}", "command": "robot3", "version": "1"})
        assert (await d.post("api/lobby", forged, d.auth(ana, gid)))[0] == 400
