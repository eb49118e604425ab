"""What a stored change means next: the robot that acts now, the ``Change`` handed to the
adapter, the jobs committed with it, and when the pending decision times out (R10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session

from bot.domain import flood, jobs, outbox, presence
from bot.domain.models import Game
from bot.domain.tables import news
from bot.domain.values.game import Change, GameStatus, Occupant, Table, TimeoutNote
from bot.domain.values.settings import Rules
from engine import Match, get_ruleset
from engine.turns import RobotTurn
from engine.turns import robot_turn as engine_robot_turn


def robot_turn(
    m: Match, seats: Sequence[Occupant | None], note: TimeoutNote | None, version: int
) -> RobotTurn | None:
    """The robot that acts now (``engine.turns.robot_turn``), ``None`` when none may.

    A seat acts as a robot when a robot sits in it; ``note`` of this ``version`` tells
    whose run was their timeout (their robot partner then decides by itself).
    """
    levels = [x.robot if x is not None and x.robot else None for x in seats]
    timed_out = [st for st, _ in note.items] if note is not None and note.version == version else []
    return engine_robot_turn(m, levels, timed_out)


def robot_turn_of(table: Table) -> RobotTurn | None:
    """``robot_turn`` of a stored table (``None`` unless it is being played)."""
    if table.status != GameStatus.PLAYING or not table.started:
        return None
    return robot_turn(table.shown, table.seats, table.note, table.version)


def _robot_change(
    table_id: int,
    row: Game | Table,
    m: Match | None,
    seats: Sequence[Occupant | None],
    note: TimeoutNote | None,
) -> Change:
    turn = None
    if m is not None and row.status == GameStatus.PLAYING:
        turn = robot_turn(m, seats, note, row.version)
    robot = turn.seat if turn is not None else None
    seat = seats[robot] if robot is not None else None
    return Change(
        game_id=table_id,
        chat_id=row.chat_id,
        thread_id=row.thread_id,
        private=row.private,
        status=GameStatus(row.status),
        version=row.version,
        deadline_at=row.deadline_at,
        robot_seat=robot,
        robot_level=seat.robot if seat is not None else None,
    )


def game_change(game: Game, m: Match | None, seats: Sequence[Occupant | None]) -> Change:
    note = TimeoutNote.from_json(game.note) if game.note else None
    return _robot_change(game.id or 0, game, m, seats, note)


def change_of(table: Table) -> Change:
    """The ``Change`` describing a table's current state (for rescheduling)."""
    m = table.shown if table.status == GameStatus.PLAYING and table.started else None
    return _robot_change(table.id, table, m, table.seats, table.note)


def commit(
    s: Session, game: Game, m: Match | None, seats: Sequence[Occupant | None], rules: Rules
) -> Change:
    """Commit a change together with the jobs that must follow it (robot, deadline, redraws).

    While everyone seated at a group's match plays it in the Mini App, the group's table
    is redrawn only every ``presence.APP_TABLE_GAP`` seconds: a move that owes the group
    nothing (no announcement) records its table's redraw for then, instead of a redraw
    that would run now only to put itself off (``presence.gate``, as the redraw asks),
    and no move redraws the hands, whose messages point to the app and stay as they are
    (they are redrawn when a page opens or closes, and when the match ends).
    """
    change = game_change(game, m, seats)
    now = rules.clock()
    wait, hands, held = 0.0, True, False
    if change.status == GameStatus.PLAYING and not change.private:
        seated = presence.seated_in(seats)
        seen = presence.seen_at_in(s, change.game_id)
        gap, everyone = presence.gate(seated, seen, now)
        if not outbox.recorded_in(s, change.game_id):
            wait = max(gap, _table_pace(s, game, change, rules, now))
            # a redraw already waiting keeps its time: it was put off until the group's
            # minute has room (or the app's gap ends), which a move that owes the group
            # nothing does not bring sooner; brought forward, it read the table only to
            # wait again (~3 times a hand with buttons), and it draws the newest state
            held = True
        elif not outbox.urgent_in(s, change.game_id):
            # lines that are not calls (an answer, a hand's closing) while older ones wait
            # for room in the group's minute: they go together, when the redraw comes back
            # (brought forward, it read the table only to wait again)
            held = outbox.owed_before_in(s, change.game_id)
            if not held and everyone:
                # the group hears such lines only after a silence (``flood.SILENT``): run
                # now, the redraw only learnt to wait for it (~3 times a hand)
                wait = flood.silence_left_in(s, change.chat_id, now)
            elif not held:
                # nor for the room the group's minute gives the table's traffic
                wait = _table_pace(s, game, change, rules, now)
        # a person a robot stands in for has a hand message that follows the cards; the
        # others' messages point to the app whatever was announced (a hand's end too: that
        # redraw only wrote down the new hand's number, one job and a transaction a seat,
        # and a message pointing to the app counts as showing the current hand)
        stand_in = any(x is not None and x.user is not None and x.robot for x in seats)
        hands = not everyone or stand_in
        if presence.anyone_in(seated, seen, now):
            change = replace(change, page=news.tell(s, game, seats))
    claims = jobs.after_change(
        s,
        change,
        now,
        rules.robot_delay,
        rules.warning_seconds,
        wait,
        hands=hands,
        table_held=held,
        holder=rules.holder,
    )
    s.commit()
    if rules.holder is not None:
        rules.holder.held(str(change.game_id), claims.turn, claims.soonest, claims.redraw)
        change = replace(change, timed=True)
    return change


def _table_pace(s: Session, game: Game, change: Change, rules: Rules, now: float) -> float:
    """Seconds before the group's table may take its next call (``Rules.table_pace``); none
    for a match with no table message yet (a Revanche dealt at once), whose first drawing
    goes as an urgent call."""
    if rules.table_pace is None or game.table_message_id is None:
        return 0.0
    marks = flood.marks_in(s, flood.group_budget(change.chat_id), now)
    return rules.table_pace(change.chat_id, marks, now) if marks else 0.0


def decision_seconds(table: Table, rules: Rules) -> float:
    """How long the pending decision of a table may take (R10): half for people whose
    last decision was their timeout (``TimeoutNote.strikes``)."""
    full = rules.decision_seconds or table.options.timer_for(get_ruleset(table.variant))
    strikes = table.note.strikes if table.note is not None else ()
    if strikes and table.status == GameStatus.PLAYING and table.started:
        return _hurried(full, table.shown.to_act(), strikes)
    return full


def _hurried(full: float, to_act: Sequence[int], strikes: Sequence[int]) -> float:
    """An absent seat's clock shortens: half the time when every seat to act let its
    last decision time out."""
    if to_act and all(seat in strikes for seat in to_act):
        return max(5.0, full / 2)
    return full


def deadline_for(m: Match, rules: Rules, strikes: Sequence[int] = ()) -> float | None:
    """When the pending decision times out (R10); ``None`` when nobody must act.

    ``strikes``: seats whose last decision was their timeout (a shorter clock)."""
    if not m.to_act():
        return None
    seconds = rules.decision_seconds or m.options.timer_for(m.ruleset)
    return rules.clock() + _hurried(seconds, m.to_act(), strikes)
