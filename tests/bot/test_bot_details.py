"""The smaller defects a group saw: one test each, against the fake Telegram over HTTP."""

from __future__ import annotations

from tests.bot.harness import Harness, buttons, paulista_hand, press, seat_match


async def test_truco_in_private_sends_no_group_table(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    await s.user_sends(ana, ana, "/start")
    await harness.wait(lambda: harness.bot_messages(ana))
    await s.user_sends(ana, ana, "/truco")
    await harness.wait(lambda: harness.hand(ana))
    # the robot plays; the hand message follows, and it is the only picture of the table
    await harness.wait(lambda: "Tonho" in harness.hand(ana)["text"])
    await s.user_sends(ana, ana, "/regras")
    await harness.wait(lambda: "Livro de regras" in harness.bot_messages(ana)[-1]["text"])
    labels = [b["text"] for m in harness.bot_messages(ana) for b in buttons(m)]
    assert not any("Minha mão" in x or "Abrir no privado" in x for x in labels)
    tables = [m for m in harness.bot_messages(ana) if m["text"].startswith("🃏")]
    assert len(tables) == 1


async def test_mao_de_onze_shows_its_value_not_the_stake_until_decided(harness: Harness) -> None:
    s = harness.server
    ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[beto, caio])
    await seat_match(harness, group, [ana, beto, caio], paulista_hand(score=(11, 4), players=4))
    table = await harness.wait(lambda: harness.table(group))
    await harness.wait(lambda: "Mão de onze: vale 3" in harness.table(group)["text"])
    assert "Valendo" not in harness.table(group)["text"]
    assert "Valendo" not in (await harness.wait(lambda: harness.hand(ana)))["text"]
    await press(harness, caio, "Vamos jogar")
    await harness.wait(lambda: "Valendo 3" in s.message(group, table["message_id"])["text"])


async def test_a_team_that_runs_is_named_in_the_plural(harness: Harness) -> None:
    s = harness.server
    people = [s.add_user(n) for n in ("Ana", "Beto", "Caio", "Duda")]
    ana, beto, _caio, duda = people
    group = s.add_group("G", admins=[ana], members=people)
    await seat_match(harness, group, people, paulista_hand(players=4))
    await press(harness, ana, "Truco!")
    await press(harness, beto, "Corro")
    # Duda answers from the hand drawn after Beto ran (R6: both must run)
    await harness.wait(lambda: "Vez de Duda" in harness.table(group)["text"])
    await harness.wait(lambda: ":3:r" in str(harness.hand(duda)))
    await press(harness, duda, "Corro")
    line = "Mão 1: Beto & Duda correram; 1 ponto para Ana & Caio. Placar 1 × 0"
    await harness.wait(lambda: any(line in m["text"] for m in harness.bot_messages(group)))


async def test_one_player_who_runs_is_named_in_the_singular(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    await press(harness, ana, "Truco!")
    await press(harness, beto, "Corro")
    line = "Mão 1: Beto correu; 1 ponto para Ana. Placar 1 × 0"
    await harness.wait(lambda: any(line in m["text"] for m in harness.bot_messages(group)))
