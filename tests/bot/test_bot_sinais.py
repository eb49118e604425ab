"""Sinais on Telegram end to end (R12): the 👁️ Sinal list, the signal said in the private
hand messages of who sent, saw or caught it (never a message of its own), a seeded catch,
a group that only learns that a signal was made, and tables without sinais."""

from __future__ import annotations

from bot.domain import ChatSettings, messages, tables
from bot.telegram.arguments import truco_request
from bot.telegram.context import runtime_of
from engine import Match, TableOptions
from engine.match import catch_roll
from engine.sinais import Sinal
from tests.bot.harness import Harness, buttons, labels, moves, press, seat_match

SEED = 0
"""Seat 0's first signal of the match is caught by seat 1 and not by seat 3 (asserted)."""


async def four_people(h: Harness, options: TableOptions) -> tuple[int, list[int], int]:
    s = h.server
    users = [s.add_user(name) for name in ("Ana", "Beto", "Cida", "Davi")]
    group = s.add_group("Truqueiros", admins=[users[0]], members=users[1:])
    match = Match("paulista", options, SEED, dealer=3)  # Ana (seat 0) leads
    gid = await seat_match(h, group, users, match)
    return group, users, gid


async def test_a_signal_reaches_the_partner_and_the_catcher_only(harness: Harness) -> None:
    assert catch_roll(SEED, 0, 0, 1) < 25 <= catch_roll(SEED, 0, 0, 3)
    h, s = harness, harness.server
    group, (ana, beto, cida, davi), gid = await four_people(h, TableOptions(players=4))
    hand = await h.wait(lambda: h.hand(ana))
    assert "👁️ Sinal" in labels(hand)
    deadline = tables.load(runtime_of(h.app).db, gid).deadline_at
    # 👁️ Sinal opens the list on the same message; ↩️ goes back to the cards
    eye = next(b for b in buttons(hand) if b["text"] == "👁️ Sinal")
    answer = await s.user_presses(ana, ana, hand["message_id"], eye["callback_data"])
    assert not answer["show_alert"]
    listed = await h.wait(lambda: (m := h.hand(ana)) and "😉 zap" in labels(m) and m)
    assert labels(listed)[:2] == ["😉 zap", "🤨 copas"] and "😑 nada" in labels(listed)
    assert "3" not in "".join(labels(listed)).replace("🫦", "")  # no card buttons meanwhile
    zap = next(b for b in buttons(listed) if b["text"] == "😉 zap")
    # everyone's hand message is out before counting what the signal sends
    await h.wait(lambda: all(hand_of(h, u) for u in (ana, beto, cida, davi)))
    sent_before = {u: sent_to(h, u) for u in (ana, beto, cida, davi)}
    answer = await s.user_presses(ana, ana, listed["message_id"], zap["callback_data"])
    assert not answer["show_alert"], answer
    # each hand message says it: Ana what she sent, her partner Cida whose sign it was,
    # Beto that he caught it; Davi did not catch it
    await h.wait(lambda: "👁️ Sinal de Ana: 😉 zap" in hand_of(h, cida))
    await h.wait(lambda: "👀 Você pegou o sinal de Ana: 😉 zap" in hand_of(h, beto))
    await h.wait(lambda: "👁️ Você fez o sinal: 😉 zap" in hand_of(h, ana))
    await h.wait(lambda: "Ana fez um sinal" in (h.table(group) or {}).get("text", ""))
    for m in h.bot_messages(davi) + h.bot_messages(group):
        assert "zap" not in m["text"] and "😉" not in m["text"], m["text"]
    # her hand is back to the cards, and it is still her turn with the same deadline
    back = await h.wait(lambda: (m := h.hand(ana)) and "😉 zap" not in labels(m) and m)
    assert set(moves(back)) >= {"Truco!"} and "👁️ Sinal" not in labels(back)  # one per round
    table = tables.load(runtime_of(h.app).db, gid)
    m = table.match()
    assert m.to_act() == (0,) and table.deadline_at == deadline
    assert [str(a) for seat, a in m.log] == ["signal zap"]
    events = messages.events_of(runtime_of(h.app).db, gid, "button")
    assert [e.data["action"] for e in events] == ["signal zap"]
    # nothing new in any private chat: the hand messages were edited, no ping was sent
    assert {u: sent_to(h, u) for u in sent_before} == sent_before
    assert "zap" not in hand_of(h, davi)
    # the same button again (a double tap) is told it was done, and changes nothing
    answer = await s.user_presses(ana, ana, listed["message_id"], zap["callback_data"])
    assert answer["text"]
    assert len(tables.load(runtime_of(h.app).db, gid).match().log) == 1
    # Ana plays on as usual
    card = next(label for label in moves(back) if label != "Truco!")
    assert (await press(h, ana, card))["show_alert"] is False
    await h.wait(lambda: tables.load(runtime_of(h.app).db, gid).match().turn == 1)


def sent_to(h: Harness, chat: int) -> int:
    """How many messages the bot ever sent to a chat (deleted ones too)."""
    return sum(1 for m in h.server.messages(chat) if m["from"]["is_bot"])


def hand_of(h: Harness, user: int) -> str:
    """The text of the person's newest private hand message."""
    for m in reversed(h.bot_messages(user)):
        if "Sua mão" in m["text"]:
            return str(m["text"])
    return ""


async def test_no_button_without_sinais(harness: Harness) -> None:
    h = harness
    _, (ana, *_), _ = await four_people(h, TableOptions(players=4, sinais=False))
    hand = await h.wait(lambda: h.hand(ana))
    assert "👁️ Sinal" not in labels(hand) and moves(hand)


def test_truco_command_opens_a_table_without_sinais() -> None:
    request = truco_request(["2x2", "sem-sinais"], ChatSettings(id=-1))
    assert request.options.players == 4 and not request.options.sinais
    assert truco_request(["2x2"], ChatSettings(id=-1)).options.sinais_on


async def test_a_robots_signal_is_said_in_its_partners_hand_message(harness: Harness) -> None:
    h, s = harness, harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana], members=[])
    match = Match("paulista", TableOptions(players=4), SEED, dealer=0)
    gid = await seat_match(h, group, [ana], match)
    db = runtime_of(h.app).db
    # Zé (seat 1) leads, then Ana, then her partner Cida (seat 2): médio robots signal honestly
    hand = await h.wait(lambda: h.hand(ana), 20)
    await press(h, ana, next(label for label in moves(hand) if label != "Truco!"))

    def partner_signal() -> Sinal | None:
        log = tables.load(db, gid).match().log
        return next((a.sinal for seat, a in log if seat == 2 and a.sinal is not None), None)

    sinal = await h.wait(partner_signal, 20)

    said = f"👁️ Sinal de Cida: {sinal.info.emoji} {sinal.info.name}"
    await h.wait(lambda: said in hand_of(h, ana), 10)
    # in her hand message only: no message of its own
    assert [m for m in h.bot_messages(ana) if "Sinal de" in m["text"]] == [
        m for m in h.bot_messages(ana) if "Sua mão" in m["text"] and said in m["text"]
    ]
    for m in h.bot_messages(group):  # the group may learn that Cida signalled, never which
        assert sinal.info.emoji not in m["text"]
