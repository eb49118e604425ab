"""A new group's first evening, end to end: four people open a 2×2 with /truco, chat
between moves, one wanders off (his seat goes to a robot after two timeouts, said once),
the admin changes /config mid-match, the match ends, a Revanche asks the others, and the
rematch is cancelled. Throughout, a watcher checks that no bot message asserts something
false, and the table never waits on the absent seat for more than two of his turns.

The clock is the harness's: the timeouts cost no wall time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.domain import messages, tables
from bot.domain.tables import REMATCH_SECONDS
from bot.domain.values.game import GameStatus
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from tests.bot.harness import (
    FakeClock,
    Harness,
    PrivacyWatch,
    button,
    buttons,
    press_first,
    running,
    strip_tags,
)

NAMES = ("Ana", "Beto", "Caio", "Dita")
TURN = re.compile(r"Vez de (.+?)(?: ·|\n|$)")


def named(who: str) -> set[str]:
    """The seats a "Vez de ..." names (a team's answer names both: "Beto ou Dita")."""
    return {n.removeprefix("🤖 ") for n in re.split(r", | e | ou | & ", who)}


class TruthWatch:
    """Every message the bot sends or edits, checked against what cannot race: a private
    message names no one's turn but its reader's; and, at the walk's quiet points, what the
    newest messages say (whose turn, live buttons) against the stored match."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.lies: list[str] = []
        self.names: dict[int, str] = {}
        self.turns_read = 0
        """Turn claims checked (the watcher must have had something to check)."""
        h.server.listeners.append(self.on_event)

    def on_event(self, event: dict[str, Any]) -> None:
        """Listener of the fake server."""
        msg = event.get("message") or {}
        if event["type"] not in ("message", "edit") or not msg.get("from", {}).get("is_bot"):
            return
        chat = event["chat_id"]
        text = strip_tags(msg.get("text", ""))
        if chat > 0 and chat in self.names:
            for who in TURN.findall(text):
                self.turns_read += 1
                if self.names[chat] not in named(who):
                    self.lies.append(f"{self.names[chat]}'s private chat says 'Vez de {who}'")

    def now_false(self, group: int) -> list[str]:
        """What the newest messages claim that the stored match contradicts."""
        h = self.h
        db = runtime_of(h.app).db
        table = tables.active_table(db, group, None)
        found: list[str] = []
        shown = h.table_message(group)
        if _redraw_postponed(h, group):
            shown = None  # the group's minute is spent: its table is redrawn when it allows
        if table is None or table.status != GameStatus.PLAYING:
            # nothing is in play: no message may offer a move
            if shown is not None and any(
                b.get("callback_data", "")[:1] == "g" for b in buttons(shown)
            ):
                found.append("the group's table offers moves with nothing in play")
            for user in self.names:
                if h.hand(user) is not None and _live_moves(h, user):
                    found.append(f"{self.names[user]}'s hand offers moves with nothing in play")
            return found
        m = table.match()
        acting = {table.seats[s].name for s in m.to_act() if table.seats[s]}  # type: ignore[union-attr]
        if shown is not None:
            for who in TURN.findall(strip_tags(shown["text"])):
                self.turns_read += 1
                if not named(who) <= acting:
                    found.append(f"the table says 'Vez de {who}', the match waits on {acting}")
        for user, name in self.names.items():
            newest = next(
                (x for x in reversed(h.bot_messages(user)) if "Sua mão" in x["text"]), None
            )
            if newest is not None and "É a sua vez" in newest["text"] and name not in acting:
                found.append(f"{name}'s hand says it is their turn; the match waits on {acting}")
        return found

    async def settled(self, group: int) -> None:
        """Wait until the newest messages say only what is true (a redraw may be on its
        way: a claim that stays false is the lie)."""
        try:
            await self.h.wait(lambda: not self.now_false(group), 30)
        except TimeoutError:
            raise AssertionError(self.now_false(group)) from None
        assert not self.lies, self.lies


def _redraw_postponed(h: Harness, group: int) -> bool:
    """Whether the group's table waits for its flood budget (a redraw due later, or the
    bot waiting on the clock for the group's minute: the harness never moves the clock
    past a person's deadline, so such a wait lasts until that person plays)."""
    from sqlalchemy import text

    from bot.domain.jobs import JobKind, table_key

    assert h.clock is not None
    waiting = h.clock.next_wake()
    if waiting is not None and waiting > h.clock.now:
        return True
    db = runtime_of(h.app).db
    with db.session() as s:
        found = s.execute(
            text("SELECT 1 FROM jobs WHERE kind = :kind AND key = :key AND due_at > :now"),
            {"kind": str(JobKind.TABLE), "key": table_key(group, None), "now": h.clock()},  # type: ignore[misc]
        ).first()
    return found is not None


def _live_moves(h: Harness, user: int) -> bool:
    hand = h.hand(user)
    return hand is not None and any(b.get("callback_data", "")[:1] == "g" for b in buttons(hand))


async def _chat(h: Harness, group: int, users: list[int], n: int) -> None:
    """Chatter between moves (privacy mode: the bot never receives it)."""
    for i in range(n):
        await h.server.user_sends(users[i % len(users)], group, f"kkkk {i}")


@pytest.mark.long
async def test_a_new_groups_evening_hears_nothing_false_and_never_waits_on_the_absent(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        s = server
        users = [s.add_user(n) for n in NAMES]
        ana, beto, caio, dita = users
        group = s.add_group("Truco da firma", admins=[ana], members=users[1:])
        watch = TruthWatch(h)
        watch.names = dict(zip(users, NAMES, strict=True))
        privacy = PrivacyWatch(h)
        db = runtime_of(h.app).db
        for u in users:
            await s.user_sends(u, u, "/start")
            await h.wait(lambda u=u: h.bot_messages(u))

        # a bare /truco in a four-person group opens a 2×2; everyone sits, Ana starts
        await s.user_sends(ana, group, "/truco paulista 2x2 6 sem-sinais")
        lobby = await h.wait(lambda: h.table(group))
        assert "2×2" in lobby["text"]
        for u in (beto, caio, dita):
            lobby = await h.wait(lambda: h.table(group))
            data = button(lobby, "Entrar")["callback_data"]
            answer = await s.user_presses(u, group, lobby["message_id"], data)
            assert not answer["show_alert"], answer
        await h.wait(lambda: "Dita" in (h.table(group) or {}).get("text", ""))
        lobby = h.table(group)
        assert lobby is not None
        answer = await s.user_presses(
            ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
        )
        assert not answer["show_alert"], answer
        table = await h.wait(
            lambda: (x := tables.active_table(db, group, None)) and x.started and x
        )
        gid = table.id
        caio_seat = next(i for i, x in enumerate(table.seats) if x and x.user == caio)
        await watch.settled(group)

        # they play, chatting between moves; Caio wanders off at his first turn
        caio_turns_waited = 0
        config_asked = False
        steps = 0
        while (x := tables.load(db, gid)).status == GameStatus.PLAYING:
            steps += 1
            assert steps < 400, "the match did not end"
            m = x.match()
            waiting = m.to_act()
            if caio_seat in waiting and x.seats[caio_seat].robot is None:  # type: ignore[union-attr]
                # his clock runs out (the harness's clock: no wall time)
                caio_turns_waited += 1
                assert caio_turns_waited <= 2, "the table waited on the absent seat a third time"
                assert x.deadline_at is not None
                h.advance(x.deadline_at - h.clock.now + 0.1)  # type: ignore[union-attr]
                await h.wait(lambda v=x.version: tables.load(db, gid).version > v)
                continue
            if steps % 5 == 0:
                await _chat(h, group, [ana, beto, dita], 3)
            if not config_asked and m.hand_number >= 1:
                # the admin changes /config mid-match: she always gets the panel
                config_asked = True
                await s.user_sends(ana, group, "/config")
                panel = await h.wait(
                    lambda: [
                        msg
                        for chat in (group, ana)
                        for msg in h.bot_messages(chat)
                        if "Configuração do grupo" in msg["text"]
                    ],
                    60,
                )
                assert panel
            await watch.settled(group)
            acted = False
            for u in (ana, beto, dita):
                seat = next(i for i, o in enumerate(x.seats) if o and o.user == u)
                if seat in waiting:
                    await h.wait(lambda v=x.version, u=u: f":{v}:" in str(h.hand(u) or ""))
                    acted = await press_first(s, u) or acted
            if not acted:  # a robot (or Caio's) is thinking: wait for the match to move
                await h.wait(lambda v=x.version: tables.load(db, gid).version > v)

        # two timeouts of his, then a robot in his seat, said once in the group
        assert caio_turns_waited == 2
        timeouts = [e for e in messages.events_of(db, gid, "timeout") if e.seat == caio_seat]
        assert len(timeouts) == 2
        assert any(e.seat == caio_seat for e in messages.events_of(db, gid, "robot"))
        said = [msg for msg in h.bot_messages(group) if "duas vezes seguidas" in msg["text"]]
        assert len(said) == 1 and "Caio" in said[0]["text"]
        over = await h.wait(lambda: h.over_message(group))
        await watch.settled(group)

        # a Revanche asks the others: a lobby with the same seats, started once they confirm
        data = button(over, "Revanche")["callback_data"]
        answer = await s.user_presses(ana, group, over["message_id"], data)
        assert not answer["show_alert"], answer
        new = await h.wait(
            lambda: (t := tables.active_table(db, group, None)) and t.id != gid and t
        )
        assert new.status == GameStatus.LOBBY
        assert {o.user for o in new.seats if o} == set(users)
        for u in (beto, dita):
            answer = await s.user_presses(u, group, over["message_id"], data)
            assert not answer["show_alert"], answer
        assert tables.load(db, new.id).status == GameStatus.LOBBY  # Caio has not confirmed
        h.advance(REMATCH_SECONDS + 1)  # he never does: his seat goes to a robot
        await h.wait(lambda: tables.load(db, new.id).status == GameStatus.PLAYING)
        rematch = tables.load(db, new.id)
        assert rematch.seats[caio_seat].robot is not None  # type: ignore[union-attr]
        await watch.settled(group)

        # /cancelar: nothing keeps offering a move
        await s.user_sends(ana, group, "/cancelar")
        question = await h.wait(
            lambda: next(
                (
                    msg
                    for chat in (group, ana)
                    for msg in h.bot_messages(chat)
                    if any("Sim, cancelar" in b["text"] for b in buttons(msg))
                ),
                None,
            )
        )
        chat = question["chat"]["id"]
        await s.user_presses(
            ana, chat, question["message_id"], button(question, "Sim, cancelar")["callback_data"]
        )
        await h.wait(lambda: tables.load(db, new.id).status == GameStatus.CANCELLED)
        await watch.settled(group)
        assert not privacy.leaks, privacy.leaks
        assert watch.turns_read > 20 and privacy.checked > 20, (watch.turns_read, privacy.checked)
