"""How the table and the hands name things: each past play by who played it (a robot that
took a seat did not), the mão de onze's value, who ran (plural or singular), the Spanish deck, manilhas, vaza, and the hint for text the bot does not understand."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from bot.domain import Database, Join, Person, RobotLevel, Rules, outbox, people, tables
from bot.domain.models import Game
from bot.domain.tables.rows import store_seats
from bot.domain.values.commands import Source
from bot.domain.values.game import Occupant, Said, Saying, Table
from bot.i18n import person_translations
from bot.telegram.arguments import truco_request
from bot.telegram.render.common import rounds_line
from bot.telegram.render.table import said_line, table_text
from engine import Match, TableOptions
from engine.actions import Act
from engine.cards import parse_cards
from tests.bot.harness import (
    Harness,
    button,
    moves,
    newest,
    paulista_hand,
    press,
    seat_match,
    shown,
)


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


async def test_the_spanish_deck_names_every_card_a_person_reads_and_the_manilha(
    harness: Harness,
) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await s.user_sends(ana, ana, "/baralho")
    menu = await harness.wait(lambda: newest(harness, ana, "Como você quer ver as cartas"))
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
    assert "Sua mão:</b> 11 de bastos (★ zap), 12 de copas, 5 de oros" in hand["html"]
    assert not any(x in hand["text"] for x in "♣♥♠♦")
    results = await s.user_inline_query(ana, "", chat_id=group)
    assert results[0]["title"] == "Jogar 11 de bastos ★"  # the manilha starred here too
    assert "Sua mão: 11 de bastos ★, 12 de copas, 5 de oros" in results[0]["description"]
    # the group reads the traditional deck, Beto too
    assert "vira Q♥ → manilha J" in (await harness.wait(lambda: shown(harness, group)))
    await harness.wait(lambda: newest(harness, beto, "vira Q♥ → manilha J"))


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
    beto_hand = await harness.wait(lambda: newest(harness, beto, "Sua mão"))
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


def test_the_rounds_are_counted_in_each_language() -> None:
    # "1ª" is Portuguese: an English table says "1st"
    seats = (Occupant("Ana", user=1), Occupant("Beto", user=2))
    line = "Vazas: 1ª Ana · 2ª empate · 3ª Beto"
    assert rounds_line(person_translations("pt"), [0, None, 1], seats) == line
    line = "Rounds: 1st Ana · 2nd tie · 3rd Beto"
    assert rounds_line(person_translations("en"), [0, None, 1], seats) == line


def _ana_and_caio_at_four(path: Path, rules: Rules) -> tuple[Database, Person, Person, int]:
    """A 2×2 of the group -100 started with Ana and Caio seated (robots in the other two
    seats), in a new SQLite database at ``path``: the database, Ana, Caio, the table."""
    db = Database(f"sqlite:///{path}")
    ana, caio = Person(1, "Ana"), Person(2, "Caio")
    for p in (ana, caio):
        people.meet(db, p, started=True)
    lobby = tables.open_table(
        db, -100, None, ana, truco_request(["2x2"], people.chat_settings(db, -100))
    )
    tables.lobby(db, lobby.id, caio, Join(), authorised=False, rules=rules)
    tables.start(db, lobby.id, rules, paulista_hand(players=4))
    return db, ana, caio, lobby.id


def test_each_past_play_keeps_the_name_of_who_played_it(tmp_path: Path) -> None:
    # Caio lets his time run out twice in a row: a robot takes his seat from then on, and
    # the cards his timeouts played are still his on the table, not the robot's
    now = [1_800_000_000.0]
    rules = Rules(decision_seconds=30, seed=7, clock=lambda: now[0], robot_delay=0)
    db, ana, caio, gid = _ana_and_caio_at_four(tmp_path / "plays.db", rules)

    def table() -> Table:
        found = tables.load(db, gid)
        assert found is not None
        return found

    robot_played = []
    while not ((x := table()).seats[1] or Occupant("")).robot or x.match().to_act() != (2,):
        seat = x.match().to_act()[0]
        who = x.seats[seat]
        assert who is not None and x.match().hand_number == 0
        if who.robot:
            turn = tables.robot_turn_of(x)
            assert turn is not None
            tables.act(db, gid, x.version, turn.seat, turn.default, rules, source=Source.ROBOT)
            robot_played.append(turn.seat)
        elif who.user == ana.id:
            card = next(a for a in x.view(seat).legal if a.act is Act.PLAY)
            tables.act(db, gid, x.version, None, card, rules, user_id=ana.id)
        else:
            assert x.deadline_at is not None
            now[0] = x.deadline_at + 1
            tables.time_out(db, gid, x.version, rules)
    # the robot plays Caio's seat now, and has not played a card of it yet
    x = table()
    assert x.seats[1] == Occupant("Caio", user=caio.id, robot=RobotLevel.MEDIO)
    assert 1 not in robot_played and x.stand_in_moves == {1: (False, False)}
    t = person_translations("pt")
    text = re.sub(r"<[^>]+>", "", table_text(t, x, x.view(0), 30))
    vaza = next(line for line in text.splitlines() if line.startswith("1ª vaza:"))
    on_table = next(line for line in text.splitlines() if line.startswith("Na mesa:"))
    assert " · Caio 2♠ · " in vaza and "🤖 Caio" not in vaza, vaza
    assert on_table.endswith(" · Caio Q♦") and "🤖 Caio" not in on_table, on_table
    # the seat is the robot's: the team and the ⏰ line say so, and whose time ran out
    assert "🤖 Caio & 🤖 Dita" in text and "⏰ Tempo esgotado: Caio jogou Q♦" in text
    # a card the robot made for him is the robot's (as the events would say)
    robot_made = replace(x, stand_in_moves={1: (False, True)})
    text = re.sub(r"<[^>]+>", "", table_text(t, robot_made, x.view(0), 30))
    assert "🤖 Caio Q♦" in text and " Caio 2♠" in text and "🤖 Caio 2♠" not in text
    db.close()


def test_a_call_is_said_by_who_made_it_though_the_seat_changed_hands(tmp_path: Path) -> None:
    # Caio calls truco himself; before the group hears it a robot takes his seat: the
    # line is still his ("📣 Caio: TRUCO!"), not the robot's
    rules = Rules(decision_seconds=30, seed=7, robot_delay=0)
    db, ana, caio, gid = _ana_and_caio_at_four(tmp_path / "said.db", rules)
    x = tables.load(db, gid)
    assert x is not None and x.seats[1] == Occupant("Caio", user=caio.id)
    card = next(a for a in x.view(0).legal if a.act is Act.PLAY)
    tables.act(db, gid, x.version, None, card, rules, user_id=ana.id)
    x = tables.load(db, gid)
    assert x is not None
    call = next(a for a in x.view(1).legal if a.act is Act.TRUCO)
    tables.act(db, gid, x.version, None, call, rules, user_id=caio.id)
    t = person_translations("pt")

    def heard(seats: list[Occupant | None]) -> str:
        with db.session() as s:
            game = s.get(Game, gid)
            assert game is not None
            store_seats(s, gid, seats)
            s.commit()
            owed = outbox.pending_in(s, gid, rules.clock())
        table = tables.load(db, gid)
        assert table is not None
        said = next(Said.from_json(o.payload) for o in owed if o.payload.get("seat") == 1)
        return said_line(t, said, table, table.view(0))

    robot = Occupant("Caio", user=caio.id, robot=RobotLevel.MEDIO)
    seats = list(x.seats)
    assert heard([*seats[:1], robot, *seats[2:]]) == "📣 Caio: TRUCO!"
    # a line stored before who said it was kept names the seat's occupant, as it did
    said = Said(0, 1, Saying.CALL, step=0)
    table = tables.load(db, gid)
    assert table is not None
    assert said_line(t, said, table, table.view(0)) == "📣 🤖 Caio: TRUCO!"
    db.close()
