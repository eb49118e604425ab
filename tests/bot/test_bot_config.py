"""/config: a value picked directly with short labels, and whether the group's 2×2 tables play with sinais."""

from __future__ import annotations

from tests.bot.harness import (
    JSON,
    Harness,
    button,
    buttons,
    newest,
    shown,
)


def _showing(message: JSON, text: str) -> JSON | None:
    return message if text in str(message) else None


async def test_config_picks_a_value_directly_with_short_labels(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(lambda: newest(harness, group, "Configuração do grupo"))
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
        lambda: (m := newest(harness, group, "Configuração do grupo")) and buttons(m) and m
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


async def test_config_sets_whether_the_groups_2x2_tables_play_with_sinais(
    harness: Harness,
) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(lambda: newest(harness, group, "Configuração do grupo"))
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
