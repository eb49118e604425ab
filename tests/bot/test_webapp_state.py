"""What a Mini App page is sent, without a browser: the signals as the person lives them
(what they sent, their partner's, the one they caught, said so), the worth of a mão de
onze as its banner says it, a match that ended offering no move, and the page's sentences
with their kinds and values, plain (no Telegram markup)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.domain import (
    AddRobot,
    Database,
    Join,
    Occupant,
    Person,
    RobotLevel,
    Rules,
    messages,
    people,
    tables,
)
from bot.i18n import person_translations
from bot.telegram.arguments import truco_request
from bot.webapp.state import table_state
from bot.wording.sinais import hand_signals
from engine import Match, TableOptions
from engine.actions import Action
from engine.cards import DeckStyle
from tests.bot.harness import paulista_hand

ANA, BETO, CIDA, DITA = (Person(i, n) for i, n in enumerate(("Ana", "Beto", "Cida", "Dita"), 1))
NOW = 1_800_000_000.0
GROUP = -100_555


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'state.db'}")
    for p in (ANA, BETO, CIDA, DITA):
        people.meet(database, p, started=True)
    yield database
    database.close()


RULES = Rules(decision_seconds=30, seed=7, clock=lambda: NOW, robot_delay=0)


def seated(db: Database, seats: list[Person], match: Match) -> int:
    chat = people.chat_settings(db, GROUP)
    size = "2x2" if len(seats) == 4 else "1x1"
    table = tables.open_table(db, GROUP, None, seats[0], truco_request([size], chat))
    for p in seats[1:]:
        tables.lobby(db, table.id, p, Join(), authorised=False, rules=RULES)
    tables.start(db, table.id, RULES, match)
    return table.id


def state_of(db: Database, gid: int, seat: int, lang: str = "pt") -> dict:
    table = tables.load(db, gid)
    assert table is not None
    t = person_translations(lang)
    return table_state(t, table, seat, {}, DeckStyle.TRADITIONAL, NOW)


def test_signals_say_what_was_sent_and_who_was_caught(db: Database) -> None:
    match = Match("paulista", TableOptions(players=4, catch_percent=100), 0, dealer=3)
    gid = seated(db, [ANA, BETO, CIDA, DITA], match)
    table = tables.load(db, gid)
    assert table is not None
    three = next(a for a in table.shown.view(1).legal_signals if a.sinal and a.sinal.name == "TRES")
    tables.act(db, gid, 0, None, three, RULES, user_id=BETO.id)  # Beto signals "três"
    sent = state_of(db, gid, 1)
    assert sent["sent_signals"] == [
        {"kind": "signal_sent", "values": {"sinal": "tres"}, "text": "👁️ Você fez o sinal: 🤷 três"}
    ]
    assert sent["seen_signals"] == []
    partner = state_of(db, gid, 3)  # Dita, his partner
    assert partner["seen_signals"] == [
        {
            "kind": "signal_partner",
            "values": {"seat": 1, "name": "Beto", "sinal": "tres"},
            "text": "👁️ Sinal de Beto: 🤷 três",
        }
    ]
    caught = state_of(db, gid, 0)  # Ana caught it: said as caught, not as if it leaked
    assert caught["seen_signals"] == [
        {
            "kind": "signal_caught",
            "values": {"seat": 1, "name": "Beto", "sinal": "tres"},
            "text": "👀 Você pegou o sinal de Beto: 🤷 três",
        }
    ]
    english = state_of(db, gid, 0, "en")
    assert english["seen_signals"][0]["text"] == "👀 You caught Beto's signal: 🤷 three"
    assert [x["text"] for x in state_of(db, gid, 1, "en")["sent_signals"]] == [
        "👁️ You signalled: 🤷 three"
    ]
    assert [x["text"] for x in state_of(db, gid, 1, "es")["sent_signals"]] == [
        "👁️ Hiciste la seña: 🤷 tres"
    ]


def test_a_signal_the_robot_sent_for_an_away_person_is_said_as_the_robots() -> None:
    match = Match("paulista", TableOptions(players=4, catch_percent=100), 0, dealer=3)
    three = next(a for a in match.view(1).legal_signals if a.sinal and a.sinal.name == "TRES")
    match.apply(1, three)
    view = match.view(1)
    seats = tuple(Occupant(p.name, user=p.id) for p in (ANA, BETO, CIDA, DITA))
    pt, es = person_translations("pt"), person_translations("es")
    # while Beto was away the robot playing for him sent it: not "you signalled"
    robot = hand_signals(pt, view, seats, robot_moves=(True,))
    assert [x.text for x in robot] == ["🤖 O robô fez por você o sinal: 🤷 três"]
    assert robot[0].values == {"sinal": "tres", "robot": True}
    assert [x.text for x in hand_signals(es, view, seats, robot_moves=(True,))] == [
        "🤖 El robot hizo por vos la seña: 🤷 tres"
    ]
    # his own, sent before the robot took the seat
    assert [x.text for x in hand_signals(pt, view, seats, robot_moves=(False,))] == [
        "👁️ Você fez o sinal: 🤷 três"
    ]


def test_the_mao_de_onze_is_worth_what_its_banner_says_and_a_cancelled_match_takes_no_move(
    db: Database,
) -> None:
    gid = seated(db, [ANA, BETO], paulista_hand((11, 5)))
    state = state_of(db, gid, 0)
    assert state["phase"] == "decide" and "vale 3" in state["banner"]["text"]
    assert state["worth"] == 3 and state["stake"] == 1
    assert {a["act"] for a in state["legal"]} == {"play11", "run11"}
    tables.cancel(db, gid, ANA.id, authorised=True)
    state = state_of(db, gid, 0)
    assert state["status"] == "cancelled"
    assert state["legal"] == [] and state["signals"] == [] and state["to_act"] == []
    assert state["deadline_in"] is None
    assert state["words"]["cancelled"] == "A mesa foi cancelada."


def test_the_page_gets_sentences_with_their_values_and_no_markup(db: Database) -> None:
    # a lobby: each line of the group's lobby message, as a sentence with what it says
    chat = people.chat_settings(db, GROUP)
    lobby = tables.open_table(db, GROUP, None, ANA, truco_request(["1x1"], chat))
    t = person_translations("pt")
    said = table_state(t, lobby, None, {}, DeckStyle.TRADITIONAL, NOW, user_id=ANA.id)
    sentences = said["lobby"]["sentences"]
    assert [x["kind"] for x in sentences] == ["lobby_table", "lobby_seats", "lobby_start"]
    assert sentences[0]["values"] == {"variant": "paulista", "players": 2, "target": 12,
                                      "timer": 60}  # fmt: skip
    assert sentences[0]["text"].startswith("🃏 Mesa de Truco paulista · 1×1 · 12 pontos")
    assert sentences[1] == {
        "kind": "lobby_seats",
        "values": {"seats": [0, 1], "names": ["Ana", ""]},
        "text": "Ana × (livre)",
    }
    tables.cancel(db, lobby.id, ANA.id, authorised=True)
    # a match won at 10 × 0 with a truco: the end and the last hand, sentence by sentence
    gid = seated(db, [ANA, BETO], paulista_hand((10, 0)))
    for who, action in ((ANA, "truco"), (BETO, "accept"), (ANA, "play 3C"), (BETO, "play 2S"),
                        (ANA, "play KH"), (BETO, "play QD")):  # fmt: skip
        table = tables.load(db, gid)
        assert table is not None
        tables.act(db, gid, table.version, None, Action.parse(action), RULES, user_id=who.id)
    table = tables.load(db, gid)
    drawing = messages.hands_drawing(db, gid)
    assert table is not None and drawing is not None
    for lang, won in (("pt", "🏆 Fim de jogo: vitória de Ana! 12 × 0"),
                      ("en", "🏆 Game over: Ana won! 12 × 0")):  # fmt: skip
        t = person_translations(lang)
        state = table_state(t, table, 1, drawing.ended, DeckStyle.TRADITIONAL, NOW)
        assert state["result"] == {
            "kind": "match_over",
            "values": {"winner": 0, "score": [12, 0]},
            "text": won,
        }
        closing = state["closing"]["sentences"]
        kinds = [x["kind"] for x in closing]
        assert kinds == ["hand_closed", "rounds", "last_round", "hand_over"]  # the end: "result"
        over = closing[3]["values"]
        assert over == {"hand": 0, "winner": 0, "points": 3, "ran": False, "score": [12, 0]}
        assert closing[1]["values"] == {"rounds": [0, 0]}
        texts = [x["text"] for x in closing]
        assert all("<" not in x for x in texts), texts  # Telegram's HTML is render/'s alone


def test_the_points_widget_tells_each_seat_only_what_it_may_know(db: Database) -> None:
    """Gaudério's widget (R13.3): a player sees their own envido points in round 1, the
    public table nobody's; a waiting envido says both worths; an accepted one the winning
    points alone, the losing seat's never."""
    from engine.actions import Action
    from engine.cards import parse_cards

    match = Match.from_hand(
        "gauderio",
        TableOptions(players=2, target=18),
        score=(0, 0),
        dealer=1,
        hands=[parse_cards("7S 6S 3D"), parse_cards("5C 4C KH")],
    )
    gid = seated(db, [ANA, BETO], match)
    ana, public = state_of(db, gid, 0)["points"], state_of(db, gid, None)["points"]  # type: ignore[arg-type]
    assert ana["target"] == {
        "kind": "match_target",
        "values": {"target": 18},
        "text": "Partida até 18",
    }
    assert ana["rows"] == [
        {
            "kind": "envido_own",
            "values": {"points": 33},
            "text": "Seus pontos de envido",
            "detail": None,
            "calls": [],
            "cards": [],
        }
    ]
    assert public["rows"] == []

    def act(user: Person, code: str) -> None:
        table = tables.load(db, gid)
        assert table is not None
        tables.act(db, gid, table.version, None, Action.parse(code), RULES, user_id=user.id)

    act(ANA, "envido")
    beto = state_of(db, gid, 1, "es")["points"]
    own, pending = beto["rows"]
    assert own["values"]["points"] == 29 and "29" not in str(state_of(db, gid, 0)["points"])
    # the Spanish call is "¡Envido!": the widget names it without its marks
    assert pending["kind"] == "envido_pending" and pending["text"] == "ENVIDO de Ana"
    assert pending["values"] == {"calls": ["envido"], "seat": 0, "quero": 2, "nao_quero": 1}
    act(BETO, "quero")
    for seat in (0, 1, None):
        rows = state_of(db, gid, seat)["points"]["rows"]  # type: ignore[arg-type]
        assert [r["kind"] for r in rows] == ["envido_won"]
        assert rows[0]["values"] == {"team": 0, "worth": 2, "seat": 0, "points": 33}
        assert rows[0]["detail"] == "33 pontos de Ana"
        assert "29" not in str(rows)


def test_a_team_of_two_wins_the_envido_in_the_plural(db: Database) -> None:
    from engine.actions import Action
    from engine.cards import parse_cards

    hands = ("7S 6S 3D", "5C 4C KH", "4D 5S 6H", "QD JH 2S")  # Ana's 33 is the best
    match = Match.from_hand(
        "gauderio",
        TableOptions(players=4, target=24),
        score=(0, 0),
        dealer=3,
        hands=[parse_cards(h) for h in hands],
    )
    gid = seated(db, [ANA, BETO, CIDA, DITA], match)
    for person, code in ((ANA, "envido"), (BETO, "quero")):
        table = tables.load(db, gid)
        assert table is not None
        tables.act(db, gid, table.version, None, Action.parse(code), RULES, user_id=person.id)
    for lang, said in (
        ("pt", "🎯 Ana & Cida ganharam o envido: +2"),
        ("es", "🎯 Ana & Cida ganaron el envido: +2"),
    ):
        (won,) = state_of(db, gid, 3, lang)["points"]["rows"]
        assert won["text"] == said and won["values"]["points"] == 33


def test_a_lobby_page_offers_the_robots_to_whoever_may_seat_them(db: Database) -> None:
    chat = people.chat_settings(db, GROUP)
    lobby = tables.open_table(db, GROUP, None, ANA, truco_request(["2x2"], chat))
    t = person_translations("pt")

    def offered(user: Person) -> list[str]:
        table = tables.load(db, lobby.id)
        assert table is not None
        state = table_state(t, table, None, {}, DeckStyle.TRADITIONAL, NOW, user_id=user.id)
        return [a["command"] for a in state["lobby"]["actions"]]

    # the opener, seated: three levels of robot for the free chairs, none to take away yet
    assert offered(ANA) == ["team2", "robot1", "robot2", "robot3", "leave", "start"]
    # Beto, not seated and not the opener, sits first (as in the group)
    assert offered(BETO) == ["join", "team1", "team2"]
    for level in (RobotLevel.FACIL, RobotLevel.DIFICIL, RobotLevel.MEDIO):
        tables.lobby(db, lobby.id, ANA, AddRobot(level), authorised=True, rules=RULES)
    # every chair taken: no robot more, one fewer
    assert offered(ANA) == ["team2", "unrobot", "leave", "start"]
    tables.lobby(db, lobby.id, BETO, Join(), authorised=False, rules=RULES)
    assert "unrobot" in offered(BETO) and "start" not in offered(BETO)
