"""Every kind of button, and buttons that must not work: stale, forged, garbage, doubled."""

from __future__ import annotations

import asyncio

from bot.domain import Reason, messages
from bot.i18n import translations
from bot.wording.refusals import reason_text
from engine import Match, TableOptions
from engine.cards import parse_cards
from tests.bot.harness import Harness, button, moves, paulista_hand, press, seat_match


async def test_truco_ladder_answers_and_covered_cards(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    first = await harness.wait(lambda: harness.hand(ana))
    assert set(moves(first)) == {"3♣", "K♥", "5♦", "Truco!"}  # no covered card in round 1
    assert "Sua mão:</b> 3♣ K♥ 5♦" in first["html"]
    assert (await press(harness, ana, "Truco!"))["show_alert"] is False
    assert set(moves(await harness.wait(lambda: harness.hand(beto)))) == {
        "Desce!",
        "Corro",
        "Seis!",
    }
    await press(harness, beto, "Seis!")
    await harness.wait(lambda: set(moves(harness.hand(ana) or {})) == {"Desce!", "Corro", "Nove!"})
    await press(harness, ana, "Desce!")
    # the table follows when the group's minute has room (three calls in a few seconds
    # put it under pressure: the calls come first, on the held clock some seconds later)
    await harness.wait(lambda: "Valendo 6" in (harness.table(group) or {}).get("text", ""))
    await press(harness, ana, "K♥")
    # Beto's seis was accepted: only Ana's team may call nove now (R6)
    await harness.wait(lambda: "2♠" in moves(harness.hand(beto) or {}))
    assert "Nove!" not in moves(harness.hand(beto))
    await press(harness, beto, "2♠")  # Beto wins round 1 and leads round 2
    msg = await harness.wait(
        lambda: harness.hand(beto) if "🂠 Q♦" in moves(harness.hand(beto) or {}) else None
    )
    assert {"Q♦", "7♣", "🂠 Q♦", "🂠 7♣"} == set(moves(msg))
    await press(harness, beto, "🂠 Q♦")
    # the group sees a covered card, never which one; Beto's own chat shows it
    await harness.wait(lambda: "Beto 🂠" in (harness.table(group) or {}).get("text", ""))
    assert "Q♦" not in (harness.table(group) or {}).get("text", "")
    await harness.wait(lambda: "Q♦ (🂠)" in (harness.bot_messages(beto)[-1]["text"]))
    assert all("Q♦" not in m["text"] for m in harness.bot_messages(ana))


async def test_mao_de_onze_shows_partner_cards_and_iron_hand_is_blind(harness: Harness) -> None:
    s = harness.server
    ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[beto, caio])
    await seat_match(harness, group, [ana, beto, caio], paulista_hand(score=(11, 4), players=4))
    msg = await harness.wait(lambda: harness.hand(ana))
    assert set(moves(msg)) == {"Vamos jogar", "Correr"}
    assert "Mão de Caio: AH" not in msg["text"] and "Mão de Caio: A♥ J♠ 4♦" in msg["text"]
    beto_msg = harness.bot_messages(beto)[-1]
    assert "A♥" not in beto_msg["text"] and "3♣" not in beto_msg["text"]
    await press(harness, caio, "Vamos jogar")
    await harness.wait(
        lambda: "Valendo 3" in (harness.table(group) or {}).get("text", ""), timeout=5
    )
    first_table = harness.table(group)["message_id"]
    # what Ana was shown she remembers: Caio's cards stay in her hand message
    await harness.wait(lambda: "Vamos jogar" not in moves(harness.hand(ana) or {}))
    assert "Mão de Caio: A♥ J♠ 4♦" in harness.hand(ana)["text"]
    # the iron hand: 11 × 11, blind buttons, own cards hidden
    await s.user_sends(ana, group, "/cancelar")
    question = await harness.wait(
        lambda: (
            next(iter(harness.bot_messages(group)[-1:]), None)
            if "Cancelar a partida" in harness.bot_messages(group)[-1]["text"]
            else None
        )
    )
    await s.user_presses(
        ana, group, question["message_id"], button(question, "Sim")["callback_data"]
    )
    await harness.wait(lambda: "cancelada" in s.message(group, first_table)["text"], timeout=5)
    await seat_match(harness, group, [ana, beto], paulista_hand(score=(11, 11)))
    msg = await harness.wait(
        lambda: harness.hand(ana) if "1ª carta" in moves(harness.hand(ana) or {}) else None
    )
    assert set(moves(msg)) == {"1ª carta", "2ª carta", "3ª carta"}
    assert "3♣" not in msg["text"] and "🂠 🂠 🂠 (às cegas)" in msg["text"]
    await press(harness, ana, "2ª carta")
    await harness.wait(lambda: "Ana K♥" in (harness.table(group) or {}).get("text", ""), timeout=5)


async def test_trem_bao_called_team_sees_partner_cards(harness: Harness) -> None:
    s = harness.server
    people = [s.add_user(n) for n in ("Ana", "Beto", "Caio", "Duda")]
    group = s.add_group("G", admins=people[:1], members=people)
    hands = [parse_cards(x) for x in ("3C KH QD", "2S JD 7H", "AH JS 2D", "3S KS 4C")]
    match = Match.from_hand(
        "trem-bao", TableOptions(players=4), score=(0, 0), dealer=3, hands=hands
    )
    await seat_match(harness, group, people, match)
    await press(harness, people[0], "Truco!")
    beto = await harness.wait(lambda: harness.hand(people[1]))
    assert "Mão de Duda: 3♠ K♠ 4♣" in beto["text"]
    assert "Mão de Caio" not in harness.bot_messages(people[0])[-1]["text"]
    await press(harness, people[3], "Corro")  # Duda ran; Beto still decides (R6)
    assert set(moves(await harness.wait(lambda: harness.hand(people[1])))) == {
        "Desce!",
        "Corro",
        "Seis!",
    }


def said(reason: Reason) -> str:
    """The alert a Portuguese speaker gets for a refusal."""
    return reason_text(translations("pt"), reason)


async def test_stale_forged_and_garbage_buttons_get_alerts(harness: Harness) -> None:
    s = harness.server
    ana, beto, eva = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Eva")
    group = s.add_group("G", admins=[ana], members=[beto, eva])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    first = await harness.wait(lambda: harness.hand(ana))
    data = moves(first)["3♣"]
    assert data == f"g{gid}:1:p3C" and len(data.encode()) <= 64
    assert (await s.user_presses(ana, ana, first["message_id"], data))["show_alert"] is False
    # a double tap on the card just played is a toast, not a modal to dismiss
    again = await s.user_presses(ana, ana, first["message_id"], data)
    assert not again["show_alert"] and again["text"] == said(Reason.DONE)
    cases = {
        f"g{gid}:1:pKH": Reason.STALE,  # another card of that old moment
        f"g{gid}:2:pKH": Reason.NOT_YOUR_TURN,  # Ana, but Beto's turn
        f"g{gid}:2:p4C": Reason.NOT_YOUR_TURN,
        f"g{gid}:99:p2S": Reason.STALE,
        "g999999:1:t": Reason.NO_GAME,
        "g1:1:zz": Reason.BAD_BUTTON,
        "garbage": Reason.BAD_BUTTON,
        "": Reason.BAD_BUTTON,
        "u99:p3C": Reason.STALE,  # no such tutorial step for Ana
        # forged: no button of a private hand message acts on a lobby or a Revanche
        "l1:boom": Reason.NOT_HERE,
        "v12x": Reason.NOT_HERE,
    }
    for payload, reason in cases.items():
        answer = await s.user_presses(ana, ana, first["message_id"], payload)
        assert answer == {"text": said(reason), "show_alert": True, "url": None}, payload
    # Beto may not play a card he does not hold; Eva is not at the table
    beto_hand = await harness.wait(lambda: harness.hand(beto))
    beto_plays = await s.user_presses(beto, beto, beto_hand["message_id"], f"g{gid}:2:p3S")
    assert beto_plays["text"] == said(Reason.ILLEGAL)
    await s.user_sends(eva, eva, "/start")
    greeting = await harness.wait(lambda: harness.bot_messages(eva))
    eva_plays = await s.user_presses(eva, eva, greeting[0]["message_id"], f"g{gid}:2:p2S")
    assert eva_plays["text"] == said(Reason.NOT_SEATED)
    # a hand button acts only from its owner's private chat (a forged press elsewhere)
    table = await harness.wait(lambda: harness.table(group))
    elsewhere = await s.user_presses(beto, group, table["message_id"], f"g{gid}:2:p2S")
    assert elsewhere["text"] == said(Reason.NOT_HERE)
    assert not s.errors or all(e.code != 500 for _, e in s.errors)


async def test_two_presses_at_once_apply_one_action(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    msg = await harness.wait(lambda: harness.hand(ana))
    answers = await asyncio.gather(
        s.user_presses(ana, ana, msg["message_id"], moves(msg)["3♣"]),
        s.user_presses(ana, ana, msg["message_id"], moves(msg)["K♥"]),
        s.user_presses(ana, ana, msg["message_id"], moves(msg)["Truco!"]),
    )
    assert sorted(a["show_alert"] for a in answers) == [False, True, True]
    assert harness.db is not None
    acted = messages.events_of(harness.db, gid, "button")
    assert len(acted) == 1 and acted[0].version == 2
