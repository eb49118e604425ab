"""The planner of a group's minute: which call may go now, for each kind of traffic.

Telegram allows about 20 calls a minute in one group (``bot.domain.flood`` counts them for
every process). At the worst pace (robots answering at once, people pressing every second)
a match changes the table every second: drawing each change would spend the minute in
20 s and leave the group silent for the other 40, calls unsaid and commands unanswered.
The planner shares the minute between four kinds of traffic, by what each one keeps free:

- **urgent** (``Traffic.URGENT``): a call (truco…doze, the mão de onze/dez decided — played
  or run from —, envido, flor), the question of /cancelar. They ring, and a late call
  is a wrong one: they may spend the whole minute and never wait for anything but the
  second between two calls to a group. Whatever the table owes before a call goes in the
  same message (a hand's closing, a run), so the call is never held behind it.
- **the end** (``Traffic.END``): the end of a match, with the lines owed before it in its
  message. It rings like a call but keeps the calls' reserve (``urgent_keep``) free: the
  Revanche it offers is pressed a second later and starts calling at once (at the worst
  pace a match spends the whole minute in ~35 s; an end sent into the last call of it left
  the Revanche's first calls 20 s late, while an end that waits for the room delays only
  itself, once the match no longer moves).
- **commands** (``Traffic.COMMAND``): answers to commands, marcadores. They keep
  ``urgent_keep`` calls free for the calls; when even those are spent, the answer goes
  in private (``bot.telegram.throttle``), and waits in the group only for who cannot be
  reached there.
- **the table** (``Traffic.TABLE``): the table message's edits and reposts, the lines that
  are not calls (answers, timeouts, a hand's closing). They keep ``table_keep`` calls free
  (the calls' and two for commands), or more when the match calls often: as many as its
  calls at their pace (read over at least ``PROJECTED_OVER`` seconds: a match that called
  twice in its first 10 s will call about seven times a minute), and the calls' reserve,
  and once the group's minute is under pressure (``pressed_from`` calls in it, or
  ``brisk_from`` in the last ``BRISK`` seconds, a pace that would spend it: at the worst
  pace the first seconds of a match spent a third of the minute on table edits that the
  calls then lacked) they only fill the group's silences: they go once the
  group has heard nothing for ``QUIET`` seconds, spread over the window (at most half their
  share in its last half: a burst spent at once leaves the window at once, and a silence
  follows), and after ``SILENT`` seconds they may spend the commands' share too (a long
  silence is worse than an answer in private).

At the worst pace a match makes a call almost every hand, a hand every 3 to 4 s: the calls
alone take most of the minute, so the table gives way to them rather than spread its own
share over the minute (tried first: with the table at a call every 4.7 s the calls found the
minute spent and came 14 s late; then, with the table keeping a fixed 6 free, a 1×1 at a
call every 4 s plus a new match every 50 s still found it spent).

Folding, so that a hand costs fewer calls: the table's lines wait while the group is
busy and are sent together (a run and the hand's closing, a closing and the next hand's
answers, in one message); a call takes every line owed before it in its own message; and
the table message is edited only in a silence, once the announcements owed are out, to its
newest state (the edits in between, superseded, are never made). Once the minute is nearly
spent (``Plan.bare``: the table's share gone) the table message shows no state of the hand:
edited only now and then at a pace of a move a second, "Mão 1 … Vez de Caio" would be stale at once. It
keeps the variant, the teams and its buttons and says the game is fast (one edit, made as
an urgent call lest a stale table wait behind the calls, then none while the pressure lasts:
it does not change); the announcements carry the score, each
person's turn is in their private hand and in the Mini App, and once the minute is calm
again (``Plan.calm_in``) the table is drawn whole.

So the group is silent at most about ``QUIET`` seconds (and the second between two calls)
while a match moves: the table has something new to draw at every move. The planner itself
only computes; the table job (``bot.telegram.publish.table``) asks it before every call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.domain import flood


class Traffic(Enum):
    """The kinds of a group's calls, by what they keep free of its minute."""

    URGENT = "urgent"
    END = "end"
    COMMAND = "command"
    TABLE = "table"


def urgent_keep(limit: int) -> int:
    """Calls of a group's minute only urgent calls may spend (4 of Telegram's 20; one call at
    least is left to the others)."""
    return max(0, min(max(1, round(limit * 0.2)), limit - 1))


def table_keep(limit: int) -> int:
    """Calls of a group's minute the table's own traffic leaves free (6 of 20: the calls'
    4 and 2 for commands; one call at least is left to the table)."""
    return max(0, min(max(urgent_keep(limit) + 1, round(limit * 0.3)), limit - 1))


def pressed_from(limit: int) -> int:
    """Calls in a group's window from which its minute is under pressure (6 of 20): from
    there on the table's traffic only fills the group's silences."""
    return max(2, round(limit * 0.3))


BRISK = 10.0
"""Seconds of a group's calls the planner reads its pace from (``brisk_from``)."""


def brisk_from(limit: int) -> int:
    """Calls in the last ``BRISK`` seconds that would spend the minute at that pace (3 of 20:
    18 a minute): the group is under pressure from there on, even at a minute's start."""
    return max(2, math.ceil(limit * BRISK / 60 * 0.9))


QUIET = 5.0
"""Seconds of silence in a group under pressure after which the table's traffic may go."""
SILENT = flood.SILENT
"""Seconds of silence after which the table's traffic may spend the commands' share too
(keeping only the calls'): the group is never silent for 10 s while the match moves."""


@dataclass(frozen=True)
class Plan:
    """When the next call of some traffic may go, and how pressed the group's minute is."""

    wait: float
    """Seconds before the call may be made (0: now)."""
    pressed: bool
    """The group's minute is under pressure: the table is drawn only in its silences (whole
    still: it drops the hand's state only once ``bare``)."""
    bare: bool = False
    """The minute is nearly spent (the table's share of it gone): the table message shows no
    state of the hand, which would be stale before its next edit."""
    calm_in: float = 0.0
    """Seconds until the minute is no longer nearly spent if nothing more is sent (0: it is
    not): the table is drawn again then, with its state."""


def plan(
    marks: Sequence[float],
    now: float,
    limit: int,
    traffic: Traffic,
    urgent: Sequence[float] = (),
    *,
    in_app: bool = False,
    lobby: bool = False,
) -> Plan:
    """When a call of ``traffic`` may go in a group whose calls in its window were made at
    ``marks`` (``flood.marks_in``, by every process), ``limit`` a minute.

    ``urgent``: when this process made the group's urgent calls lately. As many are
    likely in the next minute: the table's traffic leaves room for them too.
    ``in_app``: everyone seated plays in the Mini App, where every line is seen at once:
    the table's lines only fill the group's silences of ``SILENT`` seconds.
    ``lobby``: the table is a lobby, whose edits answer the taps that made them (a robot
    added, a person seated). Its pace is the people's: a few quick taps do not press the
    minute (three "+ Robô" half a second apart gave one robot: the taps after the third
    edit were made on a drawing ``QUIET`` seconds old, as double taps); a window holding
    its share still does.
    """
    budget = flood.group_budget(0, limit)
    recent = [t for t in marks if now - t < budget.window]
    # under pressure once the window holds its share, or sooner when the calls come at a
    # pace that would spend the minute (a match's first seconds at the worst pace)
    brisk = [t for t in recent if now - t < BRISK]
    pressed = len(recent) >= pressed_from(limit) or (not lobby and len(brisk) >= brisk_from(limit))
    calls = _projected([t for t in urgent if now - t < budget.window], now, budget.window)
    keep = {
        Traffic.URGENT: 0,
        Traffic.END: urgent_keep(limit),
        Traffic.COMMAND: urgent_keep(limit),
        Traffic.TABLE: min(limit - 1, max(table_keep(limit), urgent_keep(limit) + calls)),
    }[traffic]
    wait = flood.seconds_to_wait(recent, budget, now, 1 + keep, spaced=True)
    calm_in = 0.0
    full = limit - table_keep(limit)
    bare = len(recent) >= full
    if bare:
        calm_in = recent[len(recent) - full] + budget.window - now
    if traffic == Traffic.TABLE and pressed:
        wait = max(wait, max(recent) + QUIET - now)
        # spread over the window: at most half of the table's share in its last half, or
        # a burst spent now leaves the window in a burst, and a silence follows it
        half = budget.window / 2
        share = max(1, (limit - keep) // 2)
        lately = [t for t in recent if now - t < half]
        if len(lately) >= share:
            wait = max(wait, lately[len(lately) - share] + half - now)
    if traffic == Traffic.TABLE and in_app and recent:
        # the players see each answer and closing in the app as it happens; the group hears
        # them folded, a message per silence (a call still goes at once, carrying them)
        wait = max(wait, max(recent) + SILENT - now)
    if traffic == Traffic.TABLE and recent:
        # a long silence is worse than a command answered in private instead
        keep_calls = flood.seconds_to_wait(recent, budget, now, 1 + urgent_keep(limit), True)
        wait = min(wait, max(keep_calls, max(recent) + SILENT - now))
    return Plan(max(0.0, wait), pressed, bare, max(0.0, calm_in))


def table_pace(
    limit: int, urgent: Mapping[int, Sequence[float]]
) -> Callable[[int, Sequence[float], float], float]:
    """The domain's ``Rules.table_pace``: when a group's table traffic may go next, by
    ``plan`` (``urgent``: this process's urgent calls by chat, ``Runtime.urgent``).

    A change that owes the group nothing urgent records its table's redraw for then: at a
    brisk pace the table waits for the group's silences, and a redraw recorded for now
    read the table and the group's calls only to put itself off, about twice a hand.
    """

    def pace(chat_id: int, marks: Sequence[float], now: float) -> float:
        lately = urgent.get(chat_id, ())
        return plan(marks, now, limit, Traffic.TABLE, lately).wait

    return pace


PROJECTED_OVER = 20.0
"""Seconds of a group's urgent calls from which their pace is taken for the whole minute."""


def _projected(calls: Sequence[float], now: float, window: float) -> int:
    """How many urgent calls the next window likely holds, from those made lately: a match
    that called twice in its first 10 s will call about a dozen times a minute, and the
    table must leave room for them before they come, not once the minute is spent."""
    if not calls:
        return 0
    span = max(now - min(calls), PROJECTED_OVER)
    return max(len(calls), math.ceil(len(calls) * window / span))
