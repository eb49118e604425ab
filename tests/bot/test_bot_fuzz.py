"""Fuzz: random commands, arguments, callback_data and inline results from random people and chats.

A seeded generator (fixed seeds, so a failure replays) plays strangers, members who
are not seated, an anonymous admin and seated people forging buttons against a
running table, then the seated people play on. Checked throughout: no traceback in
the log, every alert and every answer to a refused input one pt-BR line (or
silence), no change to the table from anything forged, no card leak, and the table
still moves to the end.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from typing import Any

import pytest

from tests.bot.harness import (
    Harness,
    PrivacyWatch,
    as_group,
    buttons,
    paulista_hand,
    seat_match,
)

JSON = dict[str, Any]
COMMANDS = (
    "/truco", "/placar", "/ranking", "/regras", "/baralho", "/config", "/cancelar",
    "/ajuda", "/help", "/start", "/tutorial", "/nada", "/truco@TrucoBot", "/truco@OutroBot",
)  # fmt: skip
ARGS = (
    "", "²", "٣", "１２", "0", "-3", "12", "99999999999999999999", "2147483648", "mineiro",
    "2x2", "1×1", "trembao", "<b>x</b>", "&amp;", "a" * 300, "💥", "\u202e", "%s", "{arg}",
    "g1", "g²", "g99999999999999999999", "g-1", "m1_1_t", "ajuda", "\x00", "None",
)  # fmt: skip
GARBAGE = (
    "", "x", "g", "l", "v", "k", "d", "u", "gx:1:t", "g1:1:", "g1::t", "g1:1:zz", "l1:",
    "l1:boom", "v", "vv1", "kZ", "dq", "u1", "u١:t", "g١:1:t", "l١:j", "g1:1:p3C\n",
    "g" + "9" * 40 + ":1:t", "l99999999999999999999:j", "v2147483648", "🃏", "g1:1:t" * 10,
)  # fmt: skip
RAW = re.compile(r"Traceback|Error|invalid literal|object has no|NoneType|\{\w*\}|%s|\bNone\b")
ECHO = re.compile(r"“[^”]*”")
"""What the bot quotes back of the input (``Não entendi “...”``) is not its own wording."""


def mutate(data: str, rng: random.Random) -> str:
    """A forged variant of real callback_data: other ids, versions, codes."""
    parts = re.split(r"([0-9]+)", data)
    numbers = [i for i, p in enumerate(parts) if p.isdigit()]
    if numbers and rng.random() < 0.7:
        i = rng.choice(numbers)
        parts[i] = str(rng.choice([0, 1, 2, int(parts[i]) + 1, int(parts[i]) - 1, 2**31, 10**12]))
    text = "".join(parts)
    if rng.random() < 0.3:
        text = text[:-1] + rng.choice("tarRoxpcbjs0123")
    return text


class Fuzzer:
    """Sends one random input at a time and keeps what the checks need."""

    def __init__(self, h: Harness, rng: random.Random, game_id: int) -> None:
        s = h.server
        self.h, self.s, self.rng, self.game_id = h, s, rng, game_id
        self.ana, self.beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
        self.eva = s.add_user("Eva", started=True)  # a member, not seated
        self.caio = s.add_user("Caio")  # a stranger who never opened the bot
        self.duda = s.add_user("Duda", language_code="pt-br")
        self.group = 0
        self.other = 0

    def strangers(self) -> list[int]:
        return [self.eva, self.caio, self.duda]

    async def command(self) -> None:
        """A random command with random arguments, from a random person in a random chat."""
        text = " ".join(
            [self.rng.choice(COMMANDS)]
            + [self.rng.choice(ARGS) for _ in range(self.rng.randint(0, 3))]
        ).strip()
        who = self.rng.choice(self.strangers())
        chat = self.rng.choice([self.group, self.other, who])
        if chat == who and text.startswith("/truco") and "@Outro" not in text:
            text = "/placar"  # a private /truco is a whole robot match: legitimate, and slow
        await self.s.user_sends(who, chat, text)

    async def anonymous(self) -> None:
        """A command from an anonymous admin (the group itself is the sender)."""
        text = self.rng.choice(["/truco", "/truco 2x2", "/placar", "/regras", "/ajuda"])
        await as_group(self.s, self.group, text, 10_000 + self.rng.randrange(10**6))

    def real_data(self) -> list[str]:
        """callback_data of every button the bot has shown so far."""
        found = []
        for chat in (self.group, self.ana, self.beto):
            for m in self.h.bot_messages(chat):
                found += [b["callback_data"] for b in buttons(m) if "callback_data" in b]
        return found

    async def press(self) -> None:
        """A forged button: garbage, or a real one mutated, pressed by someone it is not for."""
        real = self.real_data()
        data = (
            mutate(self.rng.choice(real), self.rng)
            if real and self.rng.random() < 0.6
            else self.rng.choice(real + list(GARBAGE))
            if self.rng.random() < 0.5
            else self.rng.choice(GARBAGE)
        )
        who = self.rng.choice(self.strangers())
        # a stranger presses on the group's messages or on their own private ones
        chat = self.rng.choice([self.group, who])
        messages = self.h.bot_messages(chat) or self.h.bot_messages(self.group)
        target = self.rng.choice(messages)
        await self.s.user_presses(who, target["chat"]["id"], target["message_id"], data)

    async def forge_inline(self) -> None:
        """A chosen inline result nobody was offered, or one posted in the wrong chat."""
        real = [d for d in self.real_data() if d.startswith("g")]
        result = mutate(self.rng.choice(real), self.rng) if real else "g1:1:t"
        who = self.rng.choice([self.ana, self.beto, *self.strangers()])
        if real and self.rng.random() < 0.3:
            # a move that is legal right now, from its seat, but never posted in the game's chat
            result, who = (
                real[-1],
                self.ana if "p3C" in real[-1] else self.rng.choice([self.ana, self.beto]),
            )
        await self.s.updates.put(
            "chosen_inline_result",
            {"result_id": result, "from": dict(self.s.users[who]), "query": ""},
        )

    async def step(self) -> None:
        roll = self.rng.random()
        if roll < 0.4:
            await self.command()
        elif roll < 0.5:
            await self.anonymous()
        elif roll < 0.85:
            await self.press()
        else:
            await self.forge_inline()


def table_state(h: Harness, game_id: int) -> tuple[Any, ...]:
    """What must not change: status, version, seats of the fuzzed table."""
    from bot.domain import tables

    table = tables.load(h.db, game_id)
    assert table is not None
    return table.status, table.version, table.seats


async def settle(h: Harness) -> None:
    """Wait until the bot has taken every update (answers may come a little later)."""
    await h.wait(lambda: not h.server.updates.pending, 10)
    await asyncio.sleep(0)


@pytest.mark.parametrize("seed", [1, 2])
async def test_fuzz_never_breaks_leaks_or_moves_the_table(
    harness: Harness, caplog: pytest.LogCaptureFixture, seed: int
) -> None:
    caplog.set_level(logging.WARNING)
    s = harness.server
    fuzz = Fuzzer(harness, random.Random(seed), 0)
    zeca = s.add_user("Zeca")  # the group's admin, who never acts here
    fuzz.group = s.add_group("G", admins=[zeca], members=[fuzz.ana, fuzz.beto, fuzz.eva, fuzz.duda])
    fuzz.other = s.add_group("H", admins=[fuzz.eva], members=[fuzz.caio])
    watch = PrivacyWatch(harness)
    # 10 × 10: a known deal to fuzz against, and a match that ends in a few hands
    hand = paulista_hand(score=(10, 10))
    fuzz.game_id = await seat_match(harness, fuzz.group, [fuzz.ana, fuzz.beto], hand)
    await harness.wait(lambda: harness.hand(fuzz.ana) and harness.table(fuzz.group))
    before = table_state(harness, fuzz.game_id)
    calls_before = len(s.calls)
    started = time.monotonic()
    for _ in range(120):
        try:
            await fuzz.step()
        except (TimeoutError, LookupError) as exc:  # an unanswered press: the spinner stops
            pytest.fail(f"the bot did not answer: {exc}")
    await settle(harness)
    print("fuzzed in", time.monotonic() - started)
    assert table_state(harness, fuzz.game_id) == before

    for call in s.calls[calls_before:]:
        if call.method == "answerCallbackQuery":
            text = call.params.get("text") or ""
            assert "\n" not in text and not RAW.search(ECHO.sub("", text)), text
        elif call.method in ("sendMessage", "editMessageText"):
            text = re.sub(r"<[^>]+>", "", str(call.params.get("text", "")))
            assert not RAW.search(ECHO.sub("", text)), text
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert problems == []
    # the table still moves: the seated people play it out
    await harness.play_out([fuzz.ana, fuzz.beto], fuzz.group, timeout=60, seed=seed)
    assert watch.leaks == [] and watch.checked > 0
