"""The private hand messages' plan (``publish.hands.plan_message``, ``plan_hands``): what to
edit, send, delete or leave, decided from plain values, with no Telegram and no database."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.domain.values.drawings import HandMessageInfo, HandsDrawing, Ping
from bot.domain.values.game import (
    GameStatus,
    HandSummary,
    Occupant,
    RobotLevel,
    Table,
    TimeoutNote,
)
from bot.domain.values.people import PlayerInfo
from bot.telegram.publish.hands import Step, looking_at_hand, plan_hands, plan_message
from engine import Match, TableOptions
from engine.cards import DeckStyle


def shown(hand: int, digest: str = "d", ping: Ping = Ping.NONE) -> HandMessageInfo:
    return HandMessageInfo(chat_id=7, message_id=70, hand_number=hand, digest=digest, ping=ping)


def test_a_message_that_shows_this_already_is_left_alone() -> None:
    assert plan_message(shown(3), 3, "d", Ping.NONE, send=True) == Step.SKIP
    assert plan_message(shown(3, ping=Ping.TURN), 3, "d", Ping.TURN, send=True) == Step.SKIP


def test_a_changed_picture_of_the_same_hand_is_edited() -> None:
    assert plan_message(shown(3), 3, "other", Ping.NONE, send=True) == Step.EDIT
    # a turn that passed: the ping falls, nothing needs to ring
    assert plan_message(shown(3, ping=Ping.TURN), 3, "d", Ping.NONE, send=True) == Step.EDIT


def test_a_turn_or_a_warning_rings_with_a_new_message() -> None:
    assert plan_message(shown(3), 3, "d", Ping.TURN, send=True) == Step.RING
    assert plan_message(shown(3, ping=Ping.TURN), 3, "x", Ping.WARNING, send=True) == Step.RING
    # a hand asked for through the deep link counts as no ping: the turn still rings
    assert plan_message(shown(3, ping=Ping.ASKED), 3, "d", Ping.NONE, send=True) == Step.RING


def test_a_new_hand_retires_the_old_message_and_none_is_sent_first() -> None:
    assert plan_message(shown(2), 3, "d", Ping.NONE, send=True) == Step.RETIRE
    assert plan_message(None, 3, "d", Ping.TURN, send=True) == Step.SEND
    # a cancelled table edits what is there and sends nothing new
    assert plan_message(None, 3, "d", Ping.NONE, send=False) == Step.SKIP
    assert plan_message(shown(3), 3, "x", Ping.NONE, send=False) == Step.EDIT


def table_at(m: Match, status: GameStatus = GameStatus.PLAYING) -> Table:
    seats = (Occupant("Ana", user=1), Occupant("Beto", user=2))
    return Table(
        id=5,
        chat_id=-100,
        thread_id=None,
        private=False,
        creator_id=1,
        status=status,
        variant=m.ruleset.name,
        options=m.options,
        seats=seats,
        version=3,
        seed=1,
        deadline_at=100.0,
        note=None,
        table_message_id=None,
        snapshot=json.dumps(m.to_json()),
    )


def test_the_seat_to_act_rings_the_other_is_drawn_quietly_and_strangers_get_nothing() -> None:
    m = Match("paulista", TableOptions(2, 12), seed=4)
    table = table_at(m)
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)
    beto = PlayerInfo(2, "Beto", "pt", DeckStyle.TRADITIONAL, started=False)
    drawing = HandsDrawing(table, {0: ana, 1: beto}, {}, {})
    plans = plan_hands(drawing, now=50.0, seconds=30.0, in_app=frozenset(), webapp=None)
    assert [p.seat for p in plans] == [0]  # Beto never opened the bot: no message
    (plan,) = plans
    to_act = 0 in m.to_act()
    assert plan.step == Step.SEND and plan.player == 1 and plan.hand == m.hand_number
    assert plan.ping == (Ping.TURN if to_act else Ping.NONE)
    assert (plan.markup is not None) == to_act

    again = HandsDrawing(table, {0: ana}, {0: shown(m.hand_number, plan.digest, plan.ping)}, {})
    (same,) = plan_hands(again, now=50.0, seconds=30.0, in_app=frozenset(), webapp=None)
    assert same.step == Step.SKIP

    cancelled = HandsDrawing(table_at(m, GameStatus.CANCELLED), {0: ana}, {}, {}, "Ana")
    (gone,) = plan_hands(cancelled, now=50.0, seconds=30.0, in_app=frozenset(), webapp=None)
    assert gone.step == Step.SKIP and gone.markup is None and not gone.send


def test_no_message_goes_to_a_person_whose_app_shows_the_hand_and_none_ends_a_match_there() -> None:
    m = Match("paulista", TableOptions(2, 12), seed=4)
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)
    webapp = ("https://bot.example/app/", "mesa")
    fresh = HandsDrawing(table_at(m), {0: ana}, {}, {})
    # a match begun in the app (or its Revanche): the page shows the hand, nothing is sent
    (plan,) = plan_hands(fresh, now=50.0, seconds=30.0, in_app=frozenset({1}), webapp=webapp)
    assert plan.step == Step.SKIP and plan.ping == Ping.NONE
    # the page closed: the whole hand comes, a new message, ringing at the person's turn
    (back,) = plan_hands(fresh, now=50.0, seconds=30.0, in_app=frozenset(), webapp=webapp)
    assert back.step == Step.SEND and "no app" not in back.text
    assert back.ping == (Ping.TURN if 0 in m.to_act() else Ping.NONE)
    # a match played in the app to its end never had a hand message: none comes to close it
    over = HandsDrawing(table_at(m, GameStatus.OVER), {0: ana}, {}, {})
    (ended,) = plan_hands(over, now=50.0, seconds=30.0, in_app=frozenset(), webapp=webapp)
    assert ended.step == Step.SKIP
    # without the Mini App nothing changes: the hand message is sent
    (plain,) = plan_hands(fresh, now=50.0, seconds=30.0, in_app=frozenset({1}), webapp=None)
    assert plain.step == Step.SEND


def test_a_message_pointing_to_the_app_counts_as_every_hand_and_is_edited_when_the_page_closes() -> (
    None
):
    m = Match("paulista", TableOptions(2, 12), seed=4)
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)
    webapp = ("https://bot.example/app/", "mesa")
    fresh = HandsDrawing(table_at(m), {0: ana}, {}, {})
    (pointing,) = plan_hands(fresh, now=50.0, seconds=30.0, in_app=frozenset({1}), webapp=webapp)
    # the message pointing to the app was sent hands ago: the moves since redrew no hands
    older = shown(m.hand_number - 1, pointing.digest)
    drawing = HandsDrawing(table_at(m), {0: ana}, {0: older}, {})
    (still,) = plan_hands(drawing, now=50.0, seconds=30.0, in_app=frozenset({1}), webapp=webapp)
    assert still.step == Step.SKIP
    # the page closed: that message becomes this hand (no new message, no older hand's
    # closing), ringing only if it is the person's turn
    (back,) = plan_hands(drawing, now=50.0, seconds=30.0, in_app=frozenset(), webapp=webapp)
    assert back.step == (Step.RING if 0 in m.to_act() else Step.EDIT)
    assert back.hand == m.hand_number and "no app" not in back.text
    # a message of an older hand that showed the hand itself is retired, as before
    hand_shown = HandsDrawing(table_at(m), {0: ana}, {0: shown(m.hand_number - 1, "x")}, {})
    (old,) = plan_hands(hand_shown, now=50.0, seconds=30.0, in_app=frozenset(), webapp=webapp)
    assert old.step == Step.RETIRE


def test_a_turn_rings_unless_the_person_is_surely_looking_and_a_warning_always_rings() -> None:
    assert plan_message(shown(3), 3, "d", Ping.TURN, send=True, looking=True) == Step.EDIT
    assert (
        plan_message(shown(3, ping=Ping.TURN), 3, "x", Ping.WARNING, send=True, looking=True)
        == Step.RING
    )


def test_a_person_who_just_played_against_robots_is_looking_at_their_hand() -> None:
    m = Match("paulista", TableOptions(2, 12), seed=4)
    hand = m.hand_number
    played = False
    # cards only, the first legal one, until Ana's turn comes back after a card of hers
    while not (played and m.to_act() == (0,)):
        (seat,) = m.to_act()
        card = next(a for a in m.legal_actions(seat) if a.card is not None)
        m.apply(seat, card)
        played |= seat == 0
        assert m.hand_number == hand
    robot = replace(
        table_at(m), seats=(Occupant("Ana", user=1), Occupant("Zé", robot=RobotLevel.MEDIO))
    )
    assert looking_at_hand(robot, m.view(0))
    # a person moved since (their move may take a minute): the turn rings
    assert not looking_at_hand(table_at(m), m.view(0))
    # her last decision was a timeout: she was away
    note = TimeoutNote(hand, (), strikes=(0,))
    assert not looking_at_hand(replace(robot, note=note), m.view(0))
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)
    before = shown(hand, "old", Ping.NONE)
    (quiet,) = plan_hands(
        HandsDrawing(robot, {0: ana}, {0: before}, {}), 50.0, 30.0, frozenset(), None
    )
    assert quiet.step == Step.EDIT and quiet.ping == Ping.TURN
    (rung,) = plan_hands(
        HandsDrawing(table_at(m), {0: ana}, {0: before}, {}), 50.0, 30.0, frozenset(), None
    )
    assert rung.step == Step.RING


def _until_a_move_ends_a_hand(m: Match, mover: int) -> int:
    """Play first legal cards (or first moves) until a move of seat ``mover`` ends a hand,
    and deal the next; the hand it ended."""
    while True:
        if not m.to_act():  # a hand ended on someone else's move
            m.deal()
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        m.apply(seat, next((a for a in legal if a.card is not None), legal[0]))
        if not m.to_act() and m.match_winner is None and seat == mover:
            hand = m.hand_number
            m.deal()
            return hand


def test_a_new_hand_dealt_while_its_person_watches_is_drawn_over_the_old_one() -> None:
    over = {"send": True, "new_hand_in_place": True}
    assert plan_message(shown(2), 3, "d", Ping.TURN, **over) == Step.EDIT  # type: ignore[arg-type]
    assert plan_message(shown(2), 3, "d", Ping.NONE, **over) == Step.EDIT  # type: ignore[arg-type]
    # not looking, or only an ask recorded (no message to draw over): retired as before
    assert plan_message(shown(2), 3, "d", Ping.TURN, send=True, looking=True) == Step.RETIRE
    asked = replace(shown(2, ping=Ping.ASKED), message_id=0)
    assert plan_message(asked, 3, "d", Ping.TURN, **over) == Step.RETIRE  # type: ignore[arg-type]

    m = Match("paulista", TableOptions(2, 12), seed=4)
    old = _until_a_move_ends_a_hand(m, 0)
    robot = replace(
        table_at(m), seats=(Occupant("Ana", user=1), Occupant("Zé", robot=RobotLevel.MEDIO))
    )
    # her card closed the last hand; the robot may have led the new one since
    assert looking_at_hand(robot, m.view(0))
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)
    before = shown(old, "old", Ping.TURN)
    (in_place,) = plan_hands(
        HandsDrawing(robot, {0: ana}, {0: before}, {}), 50.0, 30.0, frozenset(), None
    )
    assert in_place.step == Step.EDIT and in_place.hand == m.hand_number == old + 1
    # against a person she is looking too (her own move was the last one), but at a table
    # of people every turn that begins rings, a new hand's too
    assert looking_at_hand(table_at(m), m.view(0))
    (people,) = plan_hands(
        HandsDrawing(table_at(m), {0: ana}, {0: before}, {}), 50.0, 30.0, frozenset(), None
    )
    assert people.step == Step.RETIRE
    # a hand closed by the other person's move: the new hand's message comes anew
    n = Match("paulista", TableOptions(2, 12), seed=4)
    closed = _until_a_move_ends_a_hand(n, 1)
    if n.to_act() == (1,):  # Beto leads the new hand: his card is the last move again
        n.apply(1, next(a for a in n.legal_actions(1) if a.card is not None))
    assert not looking_at_hand(table_at(n), n.view(0))
    (anew,) = plan_hands(
        HandsDrawing(table_at(n), {0: ana}, {0: shown(closed, "old", Ping.TURN)}, {}),
        50.0,
        30.0,
        frozenset(),
        None,
    )
    assert anew.step == Step.RETIRE and anew.ping == Ping.TURN
    # her last decision was a timeout: she is away, the new hand rings
    note = TimeoutNote(old, (), strikes=(0,))
    away = HandsDrawing(replace(robot, note=note), {0: ana}, {0: before}, {})
    (rung,) = plan_hands(away, 50.0, 30.0, frozenset(), None)
    assert rung.step == Step.RETIRE
    # a robot plays her seat: she is away too
    stand_in = replace(
        robot,
        seats=(Occupant("Ana", user=1, robot=RobotLevel.MEDIO), robot.seats[1]),
    )
    assert not looking_at_hand(stand_in, m.view(0))


def test_a_move_of_another_person_in_the_last_hand_makes_the_new_hand_ring() -> None:
    m = Match("paulista", TableOptions(4, 12), seed=7)
    # a hand ends on a move of Caio's (seat 2: Ana's partner, a person)
    _until_a_move_ends_a_hand(m, 2)
    people_and_robots = (
        Occupant("Ana", user=1),
        Occupant("Zé", robot=RobotLevel.MEDIO),
        Occupant("Caio", user=3),
        Occupant("Lu", robot=RobotLevel.MEDIO),
    )
    table = replace(table_at(m), seats=people_and_robots)
    assert not looking_at_hand(table, m.view(0))
    assert looking_at_hand(table, m.view(2))


def test_hands_that_ended_between_two_drawings_are_all_told() -> None:
    m = Match("paulista", TableOptions(2, 12), seed=4)
    while m.hand_number < 3 or not m.to_act():  # the fourth hand's (numbers count from 0)
        if not m.to_act():
            m.deal()
            continue
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    ana = PlayerInfo(1, "Ana", "pt", DeckStyle.TRADITIONAL, started=True)

    def over(n: int, score: tuple[int, int]) -> HandSummary:
        return HandSummary(n, 0, (1, 0), score, 1, False, False, (0, 0), ())

    ended = {1: over(1, (1, 0)), 2: over(2, (2, 0))}
    # her message was last drawn for the second hand (in play): it and the third ended since
    behind = HandsDrawing(table_at(m), {0: ana}, {0: shown(1)}, ended)
    (plan,) = plan_hands(behind, now=50.0, seconds=30.0, in_app=frozenset(), webapp=None)
    assert "🏁 Mão 2: 1 ponto para Ana. Placar 1 × 0" in plan.text
    assert "🏁 Mão 3: 1 ponto para Ana. Placar 2 × 0" in plan.text
    assert plan.text.index("Mão 2:") < plan.text.index("Mão 3:")
    # drawn for the third already: only its result, as always
    (plan,) = plan_hands(replace(behind, messages={0: shown(2)}), 50.0, 30.0, frozenset(), None)
    assert "Mão 2:" not in plan.text and "🏁 Mão 3:" in plan.text
