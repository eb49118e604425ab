"""Languages: English speakers get the English catalog, and every bot sentence has its translation."""

from __future__ import annotations

from tests.bot.harness import (
    Harness,
    button,
)


async def test_english_speakers_get_the_english_catalog(harness: Harness) -> None:
    s = harness.server
    joe = s.add_user("Joe", language_code="en")
    await s.user_sends(joe, joe, "/start")
    await harness.wait(lambda: harness.bot_messages(joe))
    assert harness.bot_messages(joe)[0]["text"].startswith("Hi, Joe!")
    await s.user_sends(joe, joe, "/truco")
    msg = await harness.wait(lambda: harness.hand(joe))
    assert "Your hand:" in msg["text"] and "Your turn!" in msg["text"]
    group = s.add_group("G", admins=[joe])
    await s.user_sends(joe, group, "/config")
    cfg = await harness.wait(lambda: harness.bot_messages(group))
    assert "Configuração do grupo" in cfg[0]["text"]  # groups speak Portuguese by default
    await s.user_presses(
        joe, group, cfg[0]["message_id"], button(cfg[0], "Idioma")["callback_data"]
    )
    menu = await harness.wait(
        lambda: (
            harness.bot_messages(group)[0]
            if "English" in str(harness.bot_messages(group)[0])
            else None
        )
    )
    await s.user_presses(joe, group, menu["message_id"], button(menu, "English")["callback_data"])
    await harness.wait(lambda: "Group settings" in harness.bot_messages(group)[0]["text"], 5)
    assert "Language: English" in harness.bot_messages(group)[0]["text"]
    ana = s.add_user("Ana")
    await s.user_sends(ana, group, "/config")
    await harness.wait(lambda: "Only group admins" in harness.bot_messages(group)[-1]["text"], 5)


def test_every_source_string_has_an_english_translation() -> None:
    from bot.i18n import source_messages, translations

    en = translations("en")
    found = {m.msgid for m in source_messages()}
    assert len(found) > 100
    missing = [m for m in found if en.gettext(m) == m and m not in ("{who} {what}",)]
    # a few strings are the same in both languages (names, the manilha line, the countdown)
    allowed = {
        "manilhas {cards}",
        "vira {vira} → manilha {rank}",
        "Vira: {card}",
        "⏱ {n} s",
        "📣 {who}: {call}",
        "🏃 {who}: {answer}",
    }
    assert set(missing) <= allowed, missing
