"""The smaller defects a group saw: one test each, against the fake Telegram over HTTP."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.fakeapi import FakeTelegram
from engine import Match, TableOptions
from engine.cards import parse_cards
from tests.bot.harness import (
    JSON,
    Harness,
    button,
    buttons,
    moves,
    paulista_hand,
    press,
    running,
    seat_match,
)


def shown(h: Harness, group: int) -> str:
    """The group's table message as it reads now (empty before it is sent)."""
    return str((h.table(group) or {}).get("text", ""))


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
    await harness.wait(lambda: "Mão de onze: vale 3" in shown(harness, group))
    assert "Valendo" not in shown(harness, group)
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
    await harness.wait(lambda: "Vez de Duda" in shown(harness, group))
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


async def _lobby(h: Harness, group: int, opener: int, args: str = "") -> JSON:
    await h.server.user_sends(opener, opener, "/start")
    await h.wait(lambda: h.bot_messages(opener))
    await h.server.user_sends(opener, group, f"/truco {args}".strip())
    return await h.wait(lambda: h.table(group))


async def test_a_double_tap_on_add_robot_adds_one_robot(harness: Harness) -> None:
    s = harness.server
    ana, caio = s.add_user("Ana"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[caio])
    lobby = await _lobby(harness, group, ana, "2x2")
    data = button(lobby, "Robô médio")["callback_data"]
    first = await s.user_presses(ana, group, lobby["message_id"], data)
    second = await s.user_presses(ana, group, lobby["message_id"], data)
    assert first["text"] is None or not first["show_alert"]
    # the second tap was drawn for the lobby before the robot sat: a toast, no robot
    assert not second["show_alert"] and "Já feito" in second["text"]
    await harness.wait(lambda: "Robôs:" in s.message(group, lobby["message_id"])["text"])
    text = s.message(group, lobby["message_id"])["text"]
    assert text.count("🤖") == 1
    # another robot from the same drawing is no repeat: it sits too
    await s.user_presses(
        ana, group, lobby["message_id"], button(lobby, "Robô fácil")["callback_data"]
    )
    await harness.wait(lambda: s.message(group, lobby["message_id"])["text"].count("🤖") == 2)
    # a person neither seated nor opener nor admin is told why, in one line
    newest = s.message(group, lobby["message_id"])
    refused = await s.user_presses(
        caio, group, lobby["message_id"], button(newest, "Robô médio")["callback_data"]
    )
    assert refused["show_alert"] and "Você não está nessa mesa" in refused["text"]
    assert "\n" not in refused["text"]
    assert s.message(group, lobby["message_id"])["text"].count("🤖") == 2


async def test_people_choose_their_team_in_the_lobby(harness: Harness) -> None:
    s = harness.server
    ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[beto, caio])
    lobby = await _lobby(harness, group, ana, "2x2")
    mid = lobby["message_id"]

    async def tap(user: int, label: str) -> JSON:
        await s.user_sends(user, user, "/start")
        msg = s.message(group, mid)
        answer: JSON = await s.user_presses(user, group, mid, button(msg, label)["callback_data"])
        await harness.wait(lambda: s.message(group, mid)["text"] != msg["text"] or answer["text"])
        return answer

    # Beto wants to be Ana's partner, not her opponent (join order would seat him on team 2)
    await tap(beto, "Time 1")
    await harness.wait(lambda: "Time 1: Ana, Beto" in s.message(group, mid)["text"])
    assert (await tap(caio, "Time 1"))["text"] == "O time 1 está completo."
    await tap(caio, "Time 2")
    await harness.wait(lambda: "Time 2: Caio, (livre)" in s.message(group, mid)["text"])
    assert (await tap(caio, "Time 2"))["text"] == "Você já está nesse time."
    # a robot on a team gives its seat to a person who chooses that team
    await tap(ana, "Robô fácil")
    await harness.wait(lambda: "Time 2: Caio, 🤖" in s.message(group, mid)["text"])
    await tap(beto, "Time 2")
    await harness.wait(lambda: "Time 2: Caio, Beto" in s.message(group, mid)["text"])
    assert "Time 1: Ana, 🤖" in s.message(group, mid)["text"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in buttons(s.message(group, mid)))
    # robots fill what is left, and the match keeps the chosen partners
    await tap(ana, "Começar")
    await harness.wait(lambda: "Ana & 🤖" in (harness.table(group) or {}).get("text", ""))
    assert "Caio & Beto" in shown(harness, group)


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


def _showing(message: JSON, text: str) -> JSON | None:
    return message if text in str(message) else None


def _newest(h: Harness, chat: int, text: str) -> JSON | None:
    found = [m for m in h.bot_messages(chat) if text in m["text"]]
    return found[-1] if found else None


async def test_cancelar_mid_match_asks_first_and_leaves_a_trace(harness: Harness) -> None:
    s = harness.server
    ana, beto, bia = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Bia")
    group = s.add_group("G", admins=[ana, bia], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand(score=(5, 3)))
    table = await harness.wait(lambda: harness.table(group))
    await s.user_sends(beto, group, "/cancelar")  # neither the opener nor an admin
    await harness.wait(lambda: _newest(harness, group, "Só quem abriu a mesa"))
    await s.user_sends(ana, group, "/cancelar")
    question = await harness.wait(lambda: _newest(harness, group, "Cancelar a partida?"))
    assert "Ana</b> 5 × 3 <b>Beto" in question["html"]
    yes, no = (button(question, x)["callback_data"] for x in ("Sim", "Não"))
    mid = question["message_id"]
    refused = await s.user_presses(beto, group, mid, yes)
    assert refused["show_alert"] and "Só quem abriu" in refused["text"]
    await s.user_presses(ana, group, mid, no)
    await harness.wait(lambda: s.message(group, mid)["text"] == "👍 A partida continua.")
    assert "Vez de Ana" in s.message(group, table["message_id"])["text"]
    # an admin asks again and confirms: the table says who cancelled it, and so does the
    # chat's newest line
    await s.user_sends(bia, group, "/cancelar")
    await harness.wait(
        lambda: (q := _newest(harness, group, "Cancelar a partida?")) and q["message_id"] != mid
    )
    question = _newest(harness, group, "Cancelar a partida?")
    await s.user_presses(
        bia, group, question["message_id"], button(question, "Sim")["callback_data"]
    )
    line = "🚫 Partida cancelada por Bia. Placar 5 × 3"
    await harness.wait(lambda: s.message(group, table["message_id"])["text"] == line)
    assert s.message(group, question["message_id"])["text"] == line
    assert not buttons(s.message(group, table["message_id"]))
    assert (
        "Mesa cancelada" in (await harness.wait(lambda: _newest(harness, ana, "cancelada")))["text"]
    )


async def test_config_picks_a_value_directly_with_short_labels(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(lambda: _newest(harness, group, "Configuração do grupo"))
    mid = cfg["message_id"]
    # every label fits half a phone's width: no "Jogad…", no "Escada min…"
    assert all(len(b["text"]) <= 14 for b in buttons(cfg))
    await s.user_presses(ana, group, mid, button(cfg, "Tempo")["callback_data"])
    menu = await harness.wait(lambda: _showing(s.message(group, mid), "45 s"))
    labels = [b["text"] for b in buttons(menu)]
    assert labels == ["30 s", "45 s", "✅ 60 s", "90 s", "120 s", "↩️ Voltar"]
    # 60 → 30 s is one tap, not four
    saved = await s.user_presses(ana, group, mid, button(menu, "30 s")["callback_data"])
    assert saved["text"] == "Configuração salva."
    await harness.wait(lambda: "Tempo por jogada: 30 s" in s.message(group, mid)["text"])
    assert not buttons(s.message(group, mid))  # a value picked closes the panel
    # the variant: names in full, one to a row; ↩️ goes back unchanged
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(
        lambda: (m := _newest(harness, group, "Configuração do grupo")) and buttons(m) and m
    )
    mid = cfg["message_id"]
    await s.user_presses(ana, group, mid, button(cfg, "Variante")["callback_data"])
    menu = await harness.wait(lambda: _showing(s.message(group, mid), "Trem Bão"))
    assert [b["text"] for b in buttons(menu)][:3] == [
        "✅ Truco paulista",
        "Truco mineiro",
        "Trem Bão",
    ]
    await s.user_presses(ana, group, mid, button(menu, "Voltar")["callback_data"])
    await harness.wait(
        lambda: "Carta coberta" in [b["text"] for b in buttons(s.message(group, mid))]
    )
    assert "Tempo por jogada: 30 s" in s.message(group, mid)["text"]


async def test_the_spanish_deck_names_every_card_a_person_reads_and_the_manilha(
    harness: Harness,
) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await s.user_sends(ana, ana, "/baralho")
    menu = await harness.wait(lambda: _newest(harness, ana, "Como você quer ver as cartas"))
    await s.user_presses(ana, ana, menu["message_id"], button(menu, "Espanhol")["callback_data"])
    hands = [parse_cards("JC KH 5D"), parse_cards("2S QD 7C")]
    match = Match.from_hand(
        "paulista",
        TableOptions(players=2),
        score=(0, 0),
        dealer=1,
        hands=hands,
        vira=parse_cards("QH")[0],
    )
    await seat_match(harness, group, [ana, beto], match)
    hand = await harness.wait(lambda: harness.hand(ana))
    # the vira's manilha in the same deck as the vira (10 de copas → 11, not J)
    assert "vira 10 de copas → manilha 11" in hand["text"]
    assert "Sua mão:</b> 11 de bastos (★ zap) 12 de copas 5 de oros" in hand["html"]
    assert not any(x in hand["text"] for x in "♣♥♠♦")
    results = await s.user_inline_query(ana, "", chat_id=group)
    assert results[0]["title"] == "Jogar 11 de bastos"
    assert "Sua mão: 11 de bastos 12 de copas 5 de oros" in results[0]["description"]
    # the group reads the traditional deck, Beto too
    assert "vira Q♥ → manilha J" in (await harness.wait(lambda: shown(harness, group)))
    await harness.wait(lambda: _newest(harness, beto, "vira Q♥ → manilha J"))


async def test_manilhas_are_marked_in_the_hand_and_fixed_ones_named(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    hands = [parse_cards("4C KH 5D"), parse_cards("2S QD 7C")]
    match = Match.from_hand("mineiro", TableOptions(players=2), score=(0, 0), dealer=1, hands=hands)
    await seat_match(harness, group, [ana, beto], match)
    names = "manilhas zap 4♣ · copas 7♥ · espadilha A♠ · pica-fumo 7♦"
    await harness.wait(lambda: names in shown(harness, group))
    hand = await harness.wait(lambda: harness.hand(ana))
    assert names in hand["text"] and "Sua mão: 4♣ (★ zap) K♥ 5♦" in hand["text"]
    # the card buttons, which a phone shows first, mark the manilha too
    assert {"4♣ ★", "K♥", "5♦"} <= set(moves(hand))
    beto_hand = await harness.wait(lambda: _newest(harness, beto, "Sua mão"))
    assert "Sua mão: 2♠ Q♦ 7♣" in beto_hand["text"] and "★" not in beto_hand["text"]
    assert not any("★" in label for label in moves(beto_hand))


async def test_unknown_commands_and_text_in_private_get_a_hint(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    hint = "Não entendi. Jogue com /truco ou veja os comandos em /ajuda."
    for n, text in enumerate(("/jogar", "oi, bot", "/trucoo agora"), 1):
        await s.user_sends(ana, ana, text)
        await harness.wait(
            lambda n=n: [m["text"] for m in harness.bot_messages(ana)].count(hint) == n
        )
    # a known command still does its own thing, and the group is never answered so
    await s.user_sends(ana, ana, "/regras")
    await harness.wait(lambda: "Livro de regras" in harness.bot_messages(ana)[-1]["text"])
    await s.user_sends(ana, group, "oi, gente")
    await s.user_sends(ana, group, "/jogar")
    await s.user_sends(ana, group, "/ajuda")
    await harness.wait(lambda: harness.bot_messages(group))
    assert all(m["text"] != hint for m in harness.bot_messages(group))


def test_one_word_for_a_round_vaza_as_the_glossary_says() -> None:
    from bot.i18n import source_messages
    from engine import words
    from tests import ROOT

    said = [" ".join(filter(None, (m.msgid, m.plural))) for m in source_messages()]
    said += [text for _context, text in words.messages()]
    said += [p.read_text(encoding="utf-8") for p in (ROOT / "engine" / "data").glob("*.json")]
    pages = [p for p in (ROOT / "site").glob("*.md") if p.name != "glossario.md"]
    said += [p.read_text(encoding="utf-8") for p in pages]
    assert any("vaza" in text.lower() for text in said)
    assert not [text for text in said if "rodada" in text.lower()]
    # the glossary names rodada only to send the reader to vaza
    glossary = (ROOT / "site" / "glossario.md").read_text(encoding="utf-8")
    assert "Rodada\n:   O mesmo que vaza." in glossary


async def test_cancelar_is_asked_even_when_the_table_needs_the_groups_minute(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a group budget this small leaves no room for command answers: keyboards stay out...
    async with running(server, tmp_path, TRUCO_GROUP_BUDGET=5) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand())
        table = await h.wait(lambda: h.table(group))
        await server.user_sends(ana, group, "/config")
        await server.user_sends(ana, group, "/cancelar")
        # ...but the question of /cancelar waits for its turn instead of being dropped
        question = await h.wait(lambda: _newest(h, group, "Cancelar a partida?"), 60)
        assert not _newest(h, group, "Configuração do grupo")
        await server.user_presses(
            ana, group, question["message_id"], button(question, "Sim")["callback_data"]
        )
        mid = table["message_id"]
        await h.wait(lambda: "cancelada por Ana" in server.message(group, mid)["text"], 60)


async def test_config_sets_whether_the_groups_2x2_tables_play_with_sinais(
    harness: Harness,
) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(lambda: _newest(harness, group, "Configuração do grupo"))
    mid = cfg["message_id"]
    assert "Sinais no 2×2: sim" in cfg["text"]
    await s.user_presses(ana, group, mid, button(cfg, "Sinais")["callback_data"])
    menu = await harness.wait(lambda: _showing(s.message(group, mid), "não"))
    assert [b["text"] for b in buttons(menu)][:2] == ["✅ sim", "não"]
    await s.user_presses(ana, group, mid, button(menu, "não")["callback_data"])
    await harness.wait(lambda: "Sinais no 2×2: não" in s.message(group, mid)["text"])
    # the group's tables now play without sinais, unless /truco asks for them
    await s.user_sends(ana, group, "/truco 2x2")
    lobby = await harness.wait(lambda: harness.table(group))
    assert "sem sinais" in lobby["text"]
    await s.user_presses(
        ana, group, lobby["message_id"], button(lobby, "Cancelar")["callback_data"]
    )
    await harness.wait(lambda: harness.table(group) is None or "cancelada" in shown(harness, group))
    await s.user_sends(ana, group, "/truco 2x2 com-sinais")
    await harness.wait(lambda: "com sinais" in shown(harness, group))
