"""Limits the replicas share: the command throttle's notes, the bot's messages a second."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.domain import Database, flood
from bot.telegram.budget import SharedBudget
from bot.telegram.throttle import CommandThrottle, LocalNotes, Route, SharedNotes, notes_for
from tests.bot.harness import FakeClock, database_url

GROUP = -100


class _Room:
    """A group budget with room, or without (``left`` seconds before the table's share fits)."""

    def __init__(self, left: float = 0.0) -> None:
        self.left = left

    def wait(self, chat_id: int, needed: int) -> float:
        return self.left


def test_two_replicas_answer_a_repeated_command_once_between_them(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    clock = FakeClock()
    one, two = (CommandThrottle(SharedNotes(db), clock=clock) for _ in range(2))
    room = _Room()
    # Eva repeats /regras; each update reaches whichever replica the proxy picks
    assert one.route(room, GROUP, 7, "regras", started=True) is Route.GROUP
    assert two.route(room, GROUP, 7, "regras", started=True) is Route.PRIVATE
    assert one.route(room, GROUP, 7, "regras", started=True) is Route.DROP  # private gap
    clock.now += 11
    assert two.route(room, GROUP, 7, "regras", started=True) is Route.PRIVATE
    # someone who never opened the bot gets nothing more than the first answer
    assert two.route(room, GROUP, 8, "regras", started=False) is Route.GROUP
    assert one.route(room, GROUP, 8, "regras", started=False) is Route.DROP
    # a different answer to the same person is fresh; a minute later the same one is too
    assert one.route(room, GROUP, 7, "placar 1", started=True) is Route.GROUP
    clock.now += 60
    assert two.route(room, GROUP, 7, "regras", started=True) is Route.GROUP
    # at most per_person answers a minute in the group, counted across both replicas
    replicas = (one, two)
    answered = [
        replicas[i % 2].route(room, GROUP, 9, f"answer {i}", started=True) for i in range(12)
    ]
    assert answered.count(Route.GROUP) == one.per_person
    assert answered[one.per_person :] == [Route.PRIVATE] * (12 - one.per_person)
    # no room left but the calls' reserve, and no private chat to answer in: the answer
    # waits for room in the group (a command is never left unanswered), its repeat does not
    assert one.route(_Room(30.0), GROUP, 10, "regras", started=False) is Route.GROUP
    assert two.route(room, GROUP, 10, "regras", started=False) is Route.DROP
    # who can be answered privately is, while the group has no room
    assert one.route(_Room(30.0), GROUP, 11, "regras", started=True) is Route.PRIVATE
    # private chats are never throttled
    assert all(one.route(room, 10, 10, "regras", started=True) is Route.GROUP for _ in range(3))
    db.close()


def test_a_question_is_asked_once_between_replicas_until_it_is_answered(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    clock = FakeClock()
    one, two = (CommandThrottle(SharedNotes(db), clock=clock) for _ in range(2))
    # Ana's /cancelar reaches one replica, her repeat the other: asked once
    assert one.may_ask(GROUP, 7)
    assert not two.may_ask(GROUP, 7)
    assert two.may_ask(GROUP, 8)  # Beto's own question
    assert two.may_ask(GROUP - 1, 7)  # in another group
    # answered (on either replica): whoever asks next in the group is asked at once
    two.answered(GROUP)
    assert one.may_ask(GROUP, 7)
    assert one.may_ask(GROUP, 8)
    assert not two.may_ask(GROUP - 1, 7)  # the other group's question is still open
    # an open question is asked again once its minute is over
    clock.now += one.ask_gap
    assert two.may_ask(GROUP, 7)
    db.close()


def test_one_process_on_sqlite_keeps_its_notes_in_memory(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/one.db")
    notes = notes_for(db)
    assert isinstance(notes, LocalNotes)
    clock = FakeClock()
    throttle = CommandThrottle(notes, clock=clock)
    room = _Room()
    assert throttle.route(room, GROUP, 7, "regras", started=True) is Route.GROUP
    assert throttle.route(room, GROUP, 7, "regras", started=True) is Route.PRIVATE
    assert throttle.route(room, GROUP, 7, "regras", started=True) is Route.DROP
    clock.now += 60
    assert throttle.route(room, GROUP, 7, "regras", started=True) is Route.GROUP
    assert throttle.may_ask(GROUP, 7)
    assert not throttle.may_ask(GROUP, 7)
    throttle.answered(GROUP)
    assert throttle.may_ask(GROUP, 7)
    db.close()


def test_processes_alive_are_counted_from_their_recent_notes(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    now = 1_800_000_000.0
    assert flood.alive(db, "a", now, 3.0) == 1
    assert flood.alive(db, "b", now + 0.5, 3.0) == 2
    assert flood.alive(db, "c", now + 1.0, 3.0) == 3
    assert flood.alive(db, "a", now + 1.1, 3.0) == 3  # a note again replaces its own
    # b and c stop; four seconds later only a is heard of
    assert flood.alive(db, "a", now + 4.6, 3.0) == 1
    db.close()


def test_a_groups_call_notes_its_process_alive_in_the_same_transaction(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    now = 1_800_000_000.0
    group = flood.group_budget(-100, 20)
    assert flood.alive(db, "a", now, 3.0) == 1
    before = db.transactions
    assert flood.take_alive(db, [group], now + 0.5, alive_as=("b", 3.0)) == (0.0, 2)
    assert db.transactions == before + 1
    # no room in the group (a second apart): the call is not counted, the note still is
    wait, alive = flood.take_alive(db, [group], now + 1.0, spaced=True, alive_as=("c", 3.0))
    assert wait == pytest.approx(0.5) and alive == 3
    assert flood.alive(db, "a", now + 1.1, 3.0) == 3
    # without a note asked, nobody is counted
    assert flood.take_alive(db, [group], now + 2.0, spaced=True) == (0.0, 0)
    db.close()


async def test_each_process_sends_its_share_of_the_bots_second(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/one.db")  # one process: the whole second is its own
    clock = FakeClock()
    budget = SharedBudget(db, bot_limit=30, clock=clock)
    for _ in range(30):
        await asyncio.wait_for(budget.take(42), 5)  # private chats: no group budget
    with pytest.raises(TimeoutError):  # the clock stands still: the 31st never fits
        await asyncio.wait_for(budget.take(42), 0.2)
    clock.now += 1.0
    await asyncio.wait_for(budget.take(42), 5)
    # with three replicas alive each sends ten a second; with seven, four (never more than 30)
    budget.replicas = 3
    assert budget.share == 10
    budget.replicas = 7
    assert budget.share == 4
    db.close()


async def test_a_group_call_answered_late_counts_in_its_minute_from_its_answer(
    tmp_path: Path,
) -> None:
    # taken, then a wait for a thread, the lock or the network: Telegram may have counted it
    # just before the answer, and its mark must not leave the window before Telegram's count
    db = Database(f"sqlite:///{tmp_path}/one.db")
    clock = FakeClock()
    budget = SharedBudget(db, group_limit=2, clock=clock)
    group = -100
    first = await asyncio.wait_for(budget.take(group), 5)
    assert first is not None
    clock.advance(5)
    await budget.sent(first, group)
    clock.advance(1)
    second = await asyncio.wait_for(budget.take(group), 5)
    assert second is not None
    await budget.sent(second, group)
    clock.now = first + 61.5  # a minute after its answer is not yet over
    assert await budget.wait(group, 1) > 0
    clock.now = first + 5 + 61.1
    assert await budget.wait(group, 1) == 0
    db.close()
