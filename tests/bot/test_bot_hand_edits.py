"""Against robots, a person's hand message is one message edited in place: each press is
one edit (the robot's answer waits to be drawn with it), and each new hand too."""

from __future__ import annotations

from functools import partial

from sqlalchemy import text

from bot.telegram.render.results import MOVE_TAKEN
from tests.bot.harness import Harness, moves, paulista_hand, seat_match

EDITS = ("editMessageText", "editMessageReplyMarkup")


def turn_back(h: Harness, user: int, group: int, gone: frozenset[str]) -> bool:
    """Whether the person's hand shows move buttons again, none of them the pressed ones'
    (or the match is over)."""
    now = moves(h.hand(user) or {})
    return (bool(now) and set(now.values()) != gone) or h.over_message(group) is not None


def redrawing(h: Harness) -> bool:
    """Whether a redraw of the hands is due (or running) on the held clock."""
    assert h.db is not None and h.clock is not None
    with h.db.session() as session:
        due = session.execute(
            text("SELECT count(*) FROM jobs WHERE kind = 'hands' AND due_at <= :now"),
            {"now": h.clock.now},
        ).scalar_one()
    return bool(due)


async def test_a_press_against_a_robot_is_one_edit_and_a_new_hand_is_drawn_over_the_old(
    harness: Harness,
) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await seat_match(harness, group, [ana], paulista_hand())
    first = await harness.wait(
        lambda: harness.hand(ana) if moves(harness.hand(ana) or {}) else None
    )
    # the held clock stands still from here: the robot (no delay) answers by itself, and
    # the hands' wait for it (``jobs.hands_wait``) never runs out; only its answer draws them
    harness.pumping = False
    try:
        hands_seen = {first["text"].split("\n")[0]}
        toasts = 0
        for _ in range(7):
            msg = harness.hand(ana)
            assert msg is not None and msg["message_id"] == first["message_id"]
            pressed = moves(msg)
            label, data = next(iter(pressed.items()))
            # as a person, who takes a second to press: the last redraw has finished
            await harness.wait(lambda: not redrawing(harness))
            before = len(s.calls)
            answer = await s.user_presses(ana, ana, msg["message_id"], data)
            assert not answer["show_alert"], answer
            toasts += answer["text"].startswith(MOVE_TAKEN)
            if answer["text"]:  # the toast says what was pressed, in the button's own words
                assert answer["text"] == f"{MOVE_TAKEN} Você escolheu: {label}"

            if answer["text"]:  # the old buttons until the redraw: a repeat is no move
                again = await s.user_presses(ana, ana, msg["message_id"], data)
                assert not again["text"].startswith(MOVE_TAKEN), again

            back = partial(turn_back, harness, ana, group, frozenset(pressed.values()))
            if not await harness.wait(back, 20):
                break
            if harness.over_message(group):
                break
            mine = [c.method for c in s.calls[before:] if c.chat_id == ana]
            # one edit from the press to the turn coming back: no message without buttons
            # in between, no new message and no deletion (nor at a new hand)
            assert len([m for m in mine if m in EDITS]) == 1, (label, mine)
            assert "sendMessage" not in mine and "deleteMessage" not in mine, mine
            hands_seen.add((harness.hand(ana) or {})["text"].split("\n")[0])
    finally:
        harness.pumping = True  # the bot stops on a moving clock
    assert toasts >= 2  # presses the robot answered were drawn only with its answer
    assert len(hands_seen) >= 2, hands_seen  # a new hand came, in the same message
