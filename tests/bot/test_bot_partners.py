"""A person beside a robot speaks for the team (R6): the robot waits, follows, or decides late."""

from __future__ import annotations

from bot.domain import tables
from bot.domain.messages import events_of
from tests.bot.harness import FakeClock, Harness, moves, paulista_hand, press, running, seat_match


async def _beto_calls_truco(h: Harness, ana: int, beto: int) -> int:
    """Seats Ana (0) + robot (2) against Beto (1) + robot (3); Beto calls truco on his turn."""
    group = h.server.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(h, group, [ana, beto], paulista_hand(players=4))
    await press(h, ana, "3♣")
    await press(h, beto, "Truco!")
    await h.wait(lambda: "Corro" in moves(h.hand(ana) or {}))
    return gid


async def test_the_robot_waits_for_its_person_and_runs_with_them(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    gid = await _beto_calls_truco(harness, ana, beto)
    # the call is pending for Ana's team and nobody but Ana may speak for it
    table = tables.load(_db(harness), gid)
    assert table is not None and tables.robot_turn_of(table) is None
    answer = await press(harness, ana, "Corro")
    assert answer["show_alert"] is False  # her run was not overtaken by the robot
    ends = await harness.wait(lambda: events_of(_db(harness), gid, "hand_over"))
    assert ends[0].data["winner"] == 1 and ends[0].data["points"] == [0, 1]
    moves_after_call = [(e.kind, e.seat, e.data["action"]) for e in _moves(_db(harness), gid)][2:]
    assert moves_after_call[:2] == [("button", 0, "run"), ("robot", 2, "run")]


async def test_the_robot_decides_by_itself_once_its_persons_time_is_out(server, tmp_path) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        gid = await _beto_calls_truco(h, ana, beto)
        # Ana never answers: her clock runs out, then the robot answers for the team
        h.advance(31)
        await h.wait(
            lambda: [e for e in events_of(_db(h), gid) if e.kind == "robot" and e.seat == 2],
            timeout=10,
        )
        log = [(e.kind, e.seat, e.data["action"]) for e in _moves(_db(h), gid)][2:]
        assert log[:2] == [("timeout", 0, "run"), ("robot", 2, log[1][2])]


def _db(h: Harness):
    from bot.telegram.context import runtime_of

    return runtime_of(h.app).db


def _moves(db, gid: int):
    """The first hand's moves in the event log, whoever made them."""
    kinds = ("button", "inline", "robot", "timeout")
    return [e for e in events_of(db, gid) if e.kind in kinds and e.data.get("hand") == 0]


async def test_ajuda_says_who_speaks_for_a_team_with_a_robot(harness: Harness) -> None:
    ana = harness.server.add_user("Ana")
    await harness.server.user_sends(ana, ana, "/ajuda")
    reply = await harness.wait(lambda: harness.bot_messages(ana))
    assert "você fala pelo time" in reply[-1]["text"]
