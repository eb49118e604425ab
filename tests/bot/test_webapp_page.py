"""The Mini App page as the one place to play, in a real browser: a lobby worth opening
(who sits where, robots that yield their seats, big buttons), card faces drawn in both
decks, a card that slides in when played (and not for those who asked for less motion),
a cancelled match that says so, and a header that agrees with the mão de onze's banner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.domain import AddRobot, GameStatus, Person, RobotLevel, Start, people, tables
from bot.telegram.callbacks import parse_lobby
from bot.telegram.context import runtime_of
from engine import Match, TableOptions
from engine.cards import DeckStyle
from tests.bot.harness import button, buttons, newest, paulista_hand, seat_match
from tests.bot.test_webapp_browser import GROUP, World, open_app
from tests.browsers import shot

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 800}
TOUCH = 44
"""The smallest height of a button a thumb presses (px)."""


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(tmp_path)
    try:
        yield w
    finally:
        w.stop()


def heights(page: Any, selector: str) -> list[float]:
    return list(
        page.locator(selector).evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    )


def test_the_lobby_shows_the_chairs_and_a_person_takes_a_robots_seat(
    world: World, browser: Any
) -> None:
    from playwright.sync_api import expect

    ana, beto, caio = world.people()
    for u in (ana, beto, caio):
        world.run(world.server.user_sends(u, u, "/start"))
    world.run(world.server.user_sends(ana, GROUP, "/truco paulista 2x2"))
    lobby = world.run(world.h.wait(lambda: world.h.table(GROUP)))
    gid = parse_lobby(buttons(lobby)[0]["callback_data"])[0]
    # the group's lobby message opens the app's lobby too
    assert button(lobby, "Abrir a mesa")["url"] == f"https://t.me/TrucoBot/mesa?startapp=g{gid}"
    rt = runtime_of(world.h.app)
    for _ in range(2):
        robot = AddRobot(RobotLevel.FACIL)
        tables.lobby(rt.db, gid, Person(ana, "Ana"), robot, authorised=True, rules=rt.rules)
    context = browser.new_context(viewport=PHONE)
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    # Ana seats the third robot from her page, as with the group's + Robô; Beto, neither
    # seated nor the opener, is offered none
    expect(pb.locator("button.lobby").first).to_be_visible()
    expect(pb.locator('button.lobby[data-command="robot1"]')).to_have_count(0)
    pa.locator('button.lobby[data-command="robot1"]').click()
    expect(pa.locator('button.lobby[data-command="robot1"]')).to_have_count(0)  # no chair left
    # the felt shows the four chairs: Ana and three robots, team by team
    expect(pb.locator("#felt .seat")).to_have_count(4)
    expect(pb.locator("#felt .seat--robot")).to_have_count(3)
    expect(pa.locator("#felt .seat--you")).to_contain_text("Ana")
    # Beto may sit down (Entrar) or choose a team; each button is big enough for a thumb
    for command in ("join", "team1", "team2"):
        expect(pb.locator(f'button.lobby[data-command="{command}"]')).to_be_visible()
    assert min(heights(pb, "button.lobby")) >= TOUCH
    expect(pb.locator('button.lobby[data-command="team1"]')).to_have_text("Time 1")
    shot(pb, "webapp-lobby.png")
    # the table is full of robots: Beto's team choice takes a robot's seat beside Ana
    pb.locator('button.lobby[data-command="team1"]').click()
    expect(pb.locator("#felt .seat--you")).to_contain_text("Beto")
    expect(pb.locator("#felt .seat--robot")).to_have_count(2)
    assert pb.locator("#felt .seat--you").get_attribute("class").count("seat--team0") == 1
    expect(pa.locator("#felt .seat--robot")).to_have_count(2)  # live on Ana's page
    # Caio (in English) sits with Entrar: the last robot yields its seat
    pc = open_app(context, world.launch(caio, gid))
    expect(pc.locator('button.lobby[data-command="join"]')).to_have_text("Join")
    pc.locator('button.lobby[data-command="join"]').click()
    expect(pa.locator("#felt .seat--robot")).to_have_count(1)
    table = tables.load(rt.db, gid)
    assert table is not None
    assert sorted(x.name for x in table.seats if x and not x.robot) == ["Ana", "Beto", "Caio"]
    # the opener starts: the hands come, the big buttons with them
    pa.locator('button.lobby[data-command="start"]').click()
    for page in (pa, pb, pc):
        expect(page.locator("#hand button[data-card]")).to_have_count(3)
    # whoever's turn it is (robots play theirs at once) gets Truco! big enough for a thumb,
    # or the answers to a robot's truco (the deal is random: a robot may call it first)
    pages = {ana: pa, beto: pb, caio: pc}

    def person_to_act() -> Any:
        x = tables.load(rt.db, gid)
        who = x.seats[x.shown.to_act()[0]] if x is not None and x.shown.to_act() else None
        return who is not None and not who.robot and pages[who.user]

    page = world.run(world.h.wait(person_to_act))
    expect(page.locator("button.act").first).to_be_visible()
    assert min(heights(page, "button.act")) >= TOUCH
    assert min(heights(page, "button.sig")) >= TOUCH
    shot(page, "webapp-2x2.png")
    # Beto signals: his page says what he sent, Ana's, as his partner, whose sign it was
    sign = pb.locator("button.sig").first
    expect(sign).to_be_visible()
    sent = sign.inner_text()
    sign.click()
    expect(pb.locator("#seen .sig-sent")).to_have_text(f"👁️ Você fez o sinal: {sent}")
    expect(pa.locator("#seen .sig-partner")).to_have_text(f"👁️ Sinal de Beto: {sent}")
    expect(pb.locator("button.sig")).to_have_count(0)  # one sign a round
    for page in (pa, pb, pc):
        assert page.errors == []
    context.close()


def test_cards_are_drawn_in_each_deck_slide_in_and_a_cancelled_match_says_so(
    world: World, browser: Any
) -> None:
    from playwright.sync_api import expect

    ana, beto, caio = world.people()
    rt = runtime_of(world.h.app)
    gid = world.table([ana, beto])
    people.set_deck(rt.db, beto, DeckStyle.SPANISH)
    moving = browser.new_context(viewport=PHONE)
    still = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    pa = open_app(moving, world.launch(ana, gid))
    pb = open_app(moving, world.launch(beto, gid))
    pc = open_app(still, world.launch(caio, gid))
    expect(pa.locator("#hand button[data-card]")).to_have_count(3)
    expect(pb.locator("#hand button[data-card]")).to_have_count(3)
    # the traditional deck: Q with its letter; the Spanish: the same card is the sota, 10
    # de oros, drawn with its own suit
    assert pa.locator('#hand [data-card="KH"] svg text').first.text_content() == "K"
    assert pb.locator('#hand [data-card="QD"] svg text').first.text_content() == "10"
    expect(pb.locator('#hand [data-card="QD"]')).to_have_accessible_name("10 de oros (sota)")
    assert pb.locator('#hand [data-card="2S"] svg').count() == 1
    shot(pb, "webapp-espanhol.png")
    # Ana plays: her card slides in on Beto's page, and simply appears on Caio's, who asked
    # for less motion
    pa.locator('#hand button[data-card="3C"]').click()
    for page in (pb, pc):
        expect(page.locator('.played [data-card="3C"]')).to_be_visible()
    assert "carta--chega" in pb.locator('.played [data-card="3C"]').get_attribute("class")
    animation = "el => getComputedStyle(el).animationName"
    assert pb.locator('.played [data-card="3C"]').evaluate(animation) == "chega"
    # from Ana's side of Beto's felt, the top (a class: the page's CSP allows no style)
    rise = "el => getComputedStyle(el).getPropertyValue('--dy').trim()"
    assert pb.locator('.played [data-card="3C"]').evaluate(rise) == "-3.5em"
    assert pc.locator('.played [data-card="3C"]').evaluate(animation) == "none"
    # drawn again for another change, the card already there does not move again
    expect(pa.locator("#status")).to_contain_text("Vez de Beto")
    version = pb.locator("body").get_attribute("data-version")
    pb.locator('#hand button[data-card="2S"]').click()
    expect(pb.locator("body")).not_to_have_attribute("data-version", version)
    assert "carta--chega" not in (pb.locator('.played [data-card="3C"]').get_attribute("class"))

    # the match is cancelled: every open page says so and offers no move any more
    s = world.server
    world.run(s.user_sends(ana, GROUP, "/cancelar"))
    question = world.run(world.h.wait(lambda: newest(world.h, GROUP, "Cancelar a partida?")))
    yes = button(question, "Sim")["callback_data"]
    world.run(s.user_presses(ana, GROUP, question["message_id"], yes))
    for page in (pa, pb, pc):
        expect(page.locator("#ended")).to_have_text(
            "A mesa foi cancelada." if page is not pc else "The table was cancelled."
        )
        expect(page.locator("body")).to_have_attribute("data-status", "cancelled")
        assert page.locator("#hand button[data-card]:enabled").count() == 0
        assert page.locator("button.act, button.sig").count() == 0
        assert "Vez de" not in page.locator("#status").inner_text()
    expect(pa.locator("#status")).to_have_text("")  # said once, in the banner
    shot(pa, "webapp-cancelled.png")
    for page in (pa, pb, pc):
        assert page.errors == []
    moving.close()
    still.close()


def test_the_header_and_the_banner_agree_on_the_mao_de_onze(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    gid = world.run(seat_match(world.h, GROUP, [ana, beto], paulista_hand((11, 5))))
    context = browser.new_context(viewport=PHONE)
    pa = open_app(context, world.launch(ana, gid))
    expect(pa.locator("#kind")).to_contain_text("vale 3")
    expect(pa.locator("#worth")).to_have_text("Vale 3")
    expect(pa.locator('button.act[data-act="play11"]')).to_be_visible()
    assert min(heights(pa, "button.act")) >= TOUCH
    # the header names the teams in order, never running into the worth beside it
    score = pa.locator("#score").bounding_box()
    worth = pa.locator("#worth").bounding_box()
    assert score is not None and worth is not None
    assert score["x"] + score["width"] <= worth["x"]
    expect(pa.locator("#score")).to_have_text("Ana11 × 5Beto")
    shot(pa, "webapp-mao-de-onze.png")
    assert pa.errors == []
    context.close()


def test_a_revanche_latecomer_takes_the_seat_back_from_the_app(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    rt = runtime_of(world.h.app)
    gid = world.table([ana, beto])
    people_of = {0: ana, 1: beto}
    while (x := tables.load(rt.db, gid)) is not None and x.status == GameStatus.PLAYING:
        seat = x.shown.to_act()[0]
        action = x.shown.default_action(seat)
        assert action is not None
        tables.act(rt.db, gid, x.version, None, action, rt.rules, user_id=people_of[seat])
    # Ana asks for the Revanche and starts it before Beto confirms: a robot plays for him
    lobby = tables.rematch(rt.db, gid, ana, rt.rules)
    tables.lobby(rt.db, lobby.game_id, Person(ana, "Ana"), Start(), authorised=True, rules=rt.rules)
    table = tables.load(rt.db, lobby.game_id)
    assert table is not None and table.seats[1] is not None
    assert table.seats[1].user == beto and table.seats[1].robot is not None
    # Ana's turn (the robot's, if it led, is played at once): nothing moves under the tap
    world.run(world.h.wait(lambda: tables.load(rt.db, lobby.game_id).shown.to_act() == (0,)))
    context = browser.new_context(viewport=PHONE)
    pb = open_app(context, world.launch(beto, lobby.game_id))
    expect(pb.locator("#standin")).to_be_visible()
    expect(pb.locator("#standin-text")).to_contain_text("Um robô joga por você")
    assert min(heights(pb, "button.back")) >= TOUCH
    shot(pb, "webapp-voltei.png")
    pb.locator("button.back").click()
    expect(pb.locator("#standin")).to_be_hidden()
    table = tables.load(rt.db, lobby.game_id)
    assert table is not None and table.seats[1] is not None and table.seats[1].robot is None
    assert pb.errors == []
    context.close()


def test_a_gauderio_table_is_drawn_in_the_spanish_deck_with_big_envido_buttons(
    world: World, browser: Any
) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    match = Match("gauderio", TableOptions(players=2, target=24), 5, dealer=1)
    gid = world.run(seat_match(world.h, GROUP, [ana, beto], match))
    context = browser.new_context(viewport=PHONE)
    pa = open_app(context, world.launch(ana, gid))
    expect(pa.locator("#hand button[data-card]")).to_have_count(3)
    # nobody chose a deck: gaudério's own, the Spanish one (R13.1), its numbers on the faces
    expect(pa.locator("html")).to_have_attribute("data-baralho", "espanhol")
    numbers = pa.locator("#hand svg text").evaluate_all("els => els.map(e => e.textContent)")
    assert set(numbers) <= {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}, numbers
    # the mão's first decision offers the envido among the big buttons
    expect(pa.locator('button.act[data-act="envido"]')).to_be_visible()
    assert min(heights(pa, "button.act")) >= TOUCH
    shot(pa, "webapp-gauderio.png")
    assert pa.errors == []
    context.close()
