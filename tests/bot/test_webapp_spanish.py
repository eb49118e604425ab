"""The Mini App in Spanish: what a page is sent for an es-AR person is Spanish words."""

from __future__ import annotations

from bot.domain import Database, tables
from engine import actions
from tests.bot.harness import paulista_hand
from tests.bot.test_webapp_state import ANA, BETO, RULES, db, seated, state_of

__all__ = ["db"]  # the fixture, shared with the Mini App's state tests


def test_a_spanish_page_is_sent_spanish_words(db: Database) -> None:
    gid = seated(db, [ANA, BETO], paulista_hand((11, 5)))
    state = state_of(db, gid, 0, "es-AR")
    assert state["words"]["lang"] == "es" and state["words"]["rounds"] == "Bazas"
    assert state["banner"] == {
        "kind": "hand_kind",
        "values": {"kind": "special", "value": 3},
        "text": "Mano de once: vale 3, sin truco.",
    }
    assert [a["label"] for a in state["legal"]] == ["Jugamos", "Irse al mazo"]
    assert state["hand"][1]["name"] == "rey de corazones"
    assert state["hand"][1]["esp_name"] == "12 de copas (rey)"

    tables.cancel(db, gid, ANA.id, authorised=True)
    gid = seated(db, [ANA, BETO], paulista_hand())
    table = tables.load(db, gid)
    assert table is not None
    caller = next(s for s in (0, 1) if actions.TRUCO in table.shown.view(s).legal)
    person = (ANA, BETO)[caller]
    tables.act(db, gid, table.version, None, actions.TRUCO, RULES, user_id=person.id)
    answer = state_of(db, gid, 1 - caller, "es")
    said = {"kind": "said", "values": {"seat": caller}, "text": "¡Truco!"}
    assert answer["speech"] == {str(caller): said}
    assert [a["label"] for a in answer["legal"]] == ["¡Quiero!", "No quiero", "¡Seis!"]
    assert state_of(db, gid, caller, "pt")["speech"][str(caller)]["text"] == "Truco!"
