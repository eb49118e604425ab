"""Inline mode (🃏 Minha mão): only the presser's moves are listed, and a posted move names its card."""

from __future__ import annotations

from bot.domain import messages
from tests.bot.harness import (
    Harness,
    button,
    paulista_hand,
    press,
    seat_match,
    shown,
)


async def test_inline_mode_lists_and_plays_only_the_pressers_moves(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    table = await harness.wait(lambda: harness.table(group))
    assert button(table, "Minha mão")["switch_inline_query_current_chat"] == ""
    results = await s.user_inline_query(ana, "", chat_id=group)
    assert [r["title"] for r in results] == ["Jogar 3♣", "Jogar K♥", "Jogar 5♦", "Truco!"]
    assert all("Sua mão: 3♣ K♥ 5♦" in r["description"] for r in results)
    assert results[0]["id"] == f"g{gid}:1:p3C"
    # Beto is not to play: no results, and nothing of Ana's hand
    assert await s.user_inline_query(beto, "", chat_id=group) == []
    answer = s.inline_answer(beto)
    assert "Não é a sua vez" in answer["button"]["text"] and "3♣" not in str(answer)
    posted = await s.user_chooses_inline(ana, results[1]["id"])
    assert posted["text"] == "🃏 Joguei K♥."  # the card, as the table shows it
    await harness.wait(lambda: "Ana K♥" in harness.table(group)["text"], 5)
    # choosing the same (now stale) result again changes nothing and Ana is told privately
    await s.user_chooses_inline(ana, results[0]["id"])
    await harness.wait(lambda: "já passou" in harness.bot_messages(ana)[-1]["text"], 5)
    assert harness.db is not None
    acted = messages.events_of(harness.db, gid, "inline")
    assert len(acted) == 1


async def test_a_move_from_minha_mao_names_the_card_and_a_covered_one_stays_covered(
    harness: Harness,
) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    results = await s.user_inline_query(ana, "", chat_id=group)
    posted = await s.user_chooses_inline(ana, results[1]["id"])
    assert posted["text"] == "🃏 Joguei K♥."
    await harness.wait(lambda: "Ana K♥" in shown(harness, group))
    await press(harness, beto, "2♠")  # Beto takes round 1 and may cover in round 2
    await harness.wait(lambda: "Vez de Beto" in shown(harness, group))
    results = await s.user_inline_query(beto, "", chat_id=group)
    titles = [r["title"] for r in results]
    assert "Cobrir Q♦" in titles and not any("🂠" in x for x in titles)
    chosen = next(r for r in results if r["title"] == "Cobrir Q♦")
    posted = await s.user_chooses_inline(beto, chosen["id"])
    assert posted["text"] == "🃏 Cobri uma carta." and "Q♦" not in str(posted)
    await harness.wait(lambda: "Beto 🂠" in shown(harness, group))
    assert "Q♦" not in shown(harness, group)
