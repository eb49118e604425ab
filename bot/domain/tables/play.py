"""A match being played: a seat's action (the race between partners' answers included),
signals (R12), timeouts (R10) and the closing of hands and matches."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session, select

from bot.domain import outbox
from bot.domain.models import Event, Game, Result
from bot.domain.store import Database
from bot.domain.tables.absent import person_acted, robot_level
from bot.domain.tables.changes import commit, deadline_for, game_change, robot_turn
from bot.domain.tables.points import announce, flor_payout, points_said
from bot.domain.tables.rows import (
    game_for_change,
    read_seats,
    record_event,
    save,
    store_seats,
    stored_match,
)
from bot.domain.tables.starting import rematch_time_out
from bot.domain.values.commands import Source
from bot.domain.values.errors import Reason, Refused, Stale
from bot.domain.values.game import (
    Change,
    EnvidoSummary,
    GameStatus,
    HandSummary,
    Occupant,
    Said,
    Saying,
    TimeoutNote,
    seat_of,
)
from bot.domain.values.settings import Rules
from engine import HandKind, Match, Phase
from engine.actions import Act, Action
from engine.turns import RobotTurn


def act(
    db: Database,
    game_id: int,
    expected: int,
    seat: int | None,
    action: Action,
    rules: Rules,
    *,
    user_id: int | None = None,
    source: Source = Source.BUTTON,
) -> Change:
    """Apply one seat's action, made for version ``expected``, and store it.

    ``seat`` is the robot's seat for robots; for people it is found from ``user_id``.
    An answer that lost a race to a partner's answer is refused with who answered first
    (``Reason.ANSWERED``).
    """
    asked = expected  # a signal made off its turn takes the current version below
    try:
        with db.session() as s:
            game = game_for_change(s, game_id)
            if game.status != GameStatus.PLAYING:
                over = game.status in (GameStatus.OVER, GameStatus.CANCELLED)
                raise Refused(Reason.GAME_OVER if over else Reason.NOT_STARTED)
            if action.act == Act.SIGNAL and expected == 0:
                # a signal drawn off the seat's turn (R12) holds for whatever version is
                # current: it costs no turn, and its legality is checked against now
                expected = game.version
            if game.version != expected:
                if user_id is not None and _made(s, game_id, expected, user_id, action):
                    raise Stale(Reason.DONE)
                first = _answered_first(s, game_id, expected, user_id, action)
                if first is None:
                    raise Stale()
                if not _still_answers(s, game, user_id, action):
                    raise Stale(Reason.ANSWERED, **first)
                # a partner's answer that settled nothing (a run while this seat still
                # answers, R6): both pressed at once, and this answer still stands
                expected = game.version
            seats = read_seats(s, game)
            if user_id is not None:
                seat = seat_of(seats, user_id)
            if seat is None:
                raise Refused(Reason.NOT_SEATED)
            if source != Source.ROBOT and _overdue(game, rules):
                raise Stale()  # its deadline passed first: the default action is the one played
            m = stored_match(game)
            return _apply(s, game, expected, m, seats, seat, action, source, user_id, rules)
    except Stale as stale:
        if stale.reason != Reason.STALE:
            raise
        with db.session() as s:  # both read the same version; the other one was stored
            first = _answered_first(s, game_id, asked, user_id, action)
            now = s.get(Game, game_id)
            version = now.version if now is not None else None
            pending = now is not None and _still_answers(s, now, user_id, action)
        if first is None:
            raise
        if pending and version == asked + 1:  # the partner's answer settled nothing
            return act(db, game_id, version, seat, action, rules, user_id=user_id, source=source)
        raise Stale(Reason.ANSWERED, **first) from stale


def _apply(
    s: Session,
    game: Game,
    expected: int,
    m: Match,
    seats: list[Occupant | None],
    seat: int,
    action: Action,
    source: Source,
    user_id: int | None,
    rules: Rules,
) -> Change:
    """Apply a seat's action to the game read for ``expected`` and commit it (``act``)."""
    if action.act == Act.SIGNAL:
        return _signal(s, game, expected, m, seats, seat, action, source, user_id, rules)
    if seat not in m.to_act():
        raise Refused(Reason.NOT_YOUR_TURN)
    if action not in m.legal_actions(seat):
        raise Refused(Reason.ILLEGAL)
    present = person_acted(s, game, seats, seat, user_id) if user_id is not None else None
    said = _said(m, seat, action)
    flor = m.flor
    m.apply(seat, action)
    version = expected + 1
    # a call keeps the step it asked for: a partner whose answer lost the race to it is told
    # which call it was, whatever the hand has become since (``_answered_first``)
    step = {"step": said.step} if said is not None and said.saying == Saying.CALL else {}
    record_event(
        s, game, version, source, seat, user_id, action=str(action), hand=m.hand_number, **step
    )
    ran_out = m.phase >= Phase.HAND_OVER and said is not None and said.saying in RUNS
    sayings = [said] if said is not None and not ran_out else []
    sayings += points_said(m, seat, action, flor)
    announce(s, game, version, sayings, seats)
    return _store_move(s, game, expected, m, seats, rules, note=present)


@dataclass(frozen=True)
class RobotStep:
    """What ``robot_acts`` did with a robot's turn."""

    change: Change | None = None
    """The robot's move, stored (``None``: none was, see ``think``)."""
    think: RobotTurn | None = None
    """The turn, when the robot chooses elsewhere (a worker process): awaited, then
    stored with ``act``. Both ``None``: it is not this robot's turn at that version."""
    seed: int = 0
    """The robot's seed for this turn."""


def robot_acts(
    db: Database,
    game_id: int,
    version: int,
    seat: int,
    rules: Rules,
    choose: Callable[[RobotTurn, int], Action | None],
) -> RobotStep:
    """The turn of the robot in ``seat`` at ``version``, read, chosen and stored in one
    transaction: ``choose(turn, seed)`` gives its move, or ``None`` when the robot thinks
    elsewhere (then the turn comes back to be awaited and stored with ``act``).

    A robot's turn used to read the table in one transaction and store its move in
    another. Someone who moved first, or a robot that now waits for its person partner
    (R6), leaves nothing to do.
    """
    try:
        with db.session() as s:
            game = s.get(Game, game_id)
            if game is None or game.status != GameStatus.PLAYING or game.version != version:
                return RobotStep()
            if game.snapshot is None:
                return RobotStep()
            seats = read_seats(s, game)
            m = stored_match(game)
            note = TimeoutNote.from_json(game.note) if game.note else None
            turn = robot_turn(m, seats, note, version)
            if turn is None or turn.seat != seat:
                return RobotStep()
            seed = game.seed * 1_000_003 + version
            action = choose(turn, seed)
            if action is None:
                return RobotStep(think=turn, seed=seed)
            change = _apply(s, game, version, m, seats, seat, action, Source.ROBOT, None, rules)
            return RobotStep(change, seed=seed)
    except (Refused, Stale):
        return RobotStep()  # someone else moved first; the newer state has its own turn


def _store_move(
    s: Session,
    game: Game,
    expected: int,
    m: Match,
    seats: Sequence[Occupant | None],
    rules: Rules,
    note: TimeoutNote | None = None,
) -> Change:
    """Close the hand or match if it ended, then commit the new state with its deadline."""
    status = _finish(s, game, m, seats, expected + 1)
    values: dict[str, Any] = {"note": note.to_json()} if note is not None else {}
    current = note if note is not None else TimeoutNote.from_json(game.note) if game.note else None
    strikes = current.strikes if current is not None else ()
    save(
        s,
        game,
        expected,
        snapshot=json.dumps(m.to_json()),
        status=status,
        deadline_at=deadline_for(m, rules, strikes) if status == GameStatus.PLAYING else None,
        **values,
    )
    return commit(s, game, m, seats, rules)


def _finish(
    s: Session, game: Game, m: Match, seats: Sequence[Occupant | None], version: int
) -> GameStatus:
    """Record hand and match ends; deal the next hand. Returns the new status."""
    if m.phase == Phase.HAND_OVER:
        _closing(s, game, version, m)
        m.deal()
        record_event(s, game, version, "deal", hand=m.hand_number)
        announce(s, game, version, points_said(m, None, None, ()), seats, part="deal")
        return GameStatus.PLAYING
    if m.phase == Phase.MATCH_OVER:
        _closing(s, game, version, m)
        end: dict[str, Any] = {"winner": m.match_winner, "score": list(m.score)}
        record_event(s, game, version, "match_over", **end)
        outbox.record(s, game, outbox.Announcement.MATCH_OVER, f"{game.id}:end", end)
        for i, x in enumerate(seats):
            if x is not None and x.user is not None:
                team = i & 1
                s.add(
                    Result(
                        game_id=game.id or 0,
                        chat_id=game.chat_id,
                        user_id=x.user,
                        name=x.name,
                        team=team,
                        won=m.match_winner == team,
                        points_for=m.score[team],
                        points_against=m.score[1 - team],
                        variant=game.variant,
                    )
                )
        return GameStatus.OVER
    return GameStatus.PLAYING


def _closing(s: Session, game: Game, version: int, m: Match) -> None:
    """Log a hand's end and owe the table's chat its closing line (a group's: in private
    the person's hand message tells how the hand ended)."""
    summary = hand_summary(m).to_json()
    record_event(s, game, version, "hand_over", **summary)
    if game.private:
        return
    key = f"{game.id}:hand:{summary['hand']}"
    outbox.record(s, game, outbox.Announcement.HAND_OVER, key, summary)


def hand_summary(m: Match) -> HandSummary:
    """Public facts of the hand that just ended (no covered card is named; of the envido,
    only the winning team's points and the cards proving them, R13.3)."""
    last = next((a.act for _s, a in reversed(m.hand_log) if a.act is not Act.FLOR), None)
    view = m.view(0)
    extra = [0, 0]
    envido = None
    e = view.envido
    if e is not None and e.winner is not None:
        extra[e.winner] += e.worth
        envido = EnvidoSummary(e.winner, e.worth, e.winner_seat, e.winner_points, e.proof or ())
    flor_team, flor_worth = flor_payout(m)
    if flor_team is not None:
        extra[flor_team] += flor_worth
    return HandSummary(
        hand=m.hand_number,
        winner=m.hand_winner,
        points=(m.points[0], m.points[1]),
        score=(m.score[0], m.score[1]),
        stake=m.stake,
        ran=last in (Act.RUN, Act.RUN11),
        iron=m.kind == HandKind.IRON,
        rounds=tuple(m.rounds),
        last=tuple((st, None if cov else c) for st, c, cov in (m.past[-1] if m.past else ())),
        envido=envido,
        flor=view.flor_cards,
        extra=(extra[0], extra[1]),
        ran11=last is Act.RUN11,
    )


RUNS = (Saying.RUN, Saying.RUN11)


def _said(m: Match, seat: int, action: Action) -> Said | None:
    """What the group hears of an action about to be applied: calls, answers, decisions.

    A run that ends the hand is left to the hand's closing line, which says it.
    """
    act = action.act
    hand = m.hand_number
    if act in (Act.TRUCO, Act.RAISE):
        return Said(hand, seat, Saying.CALL, step=m.view(seat).next_step)
    if act == Act.ACCEPT:
        view = m.view(seat)
        return Said(hand, seat, Saying.ACCEPT, step=view.pending_step, value=view.pending_value)
    if act == Act.RUN:
        return Said(hand, seat, Saying.RUN)
    if act == Act.PLAY11:
        return Said(hand, seat, Saying.PLAY11)
    if act == Act.RUN11:
        return Said(hand, seat, Saying.RUN11)
    return None


ANSWERS = (Act.ACCEPT, Act.RUN, Act.RAISE, Act.PLAY11, Act.RUN11)


def _answered_first(
    s: Session, game_id: int, version: int, user_id: int | None, action: Action
) -> dict[str, Any] | None:
    """The seat, action (and, for a call, its ``step``) that answered first, when this
    person's answer made for ``version`` lost a race to another seat's answer."""
    if user_id is None or action.act not in ANSWERS:
        return None
    q = select(Event).where(Event.game_id == game_id, Event.version == version + 1)
    for e in s.exec(q):
        data = json.loads(e.data)
        done = data.get("action")
        if (
            e.seat is not None
            and e.user_id != user_id
            and e.kind != Source.TIMEOUT  # a clock is no one answering first
            and done
            and Action.parse(done).act in ANSWERS
        ):
            return {"seat": e.seat, "action": done, "step": data.get("step")}
    return None


def _still_answers(s: Session, game: Game, user_id: int | None, action: Action) -> bool:
    """Whether this person's answer is still awaited, and legal, in the game as stored now
    (a partner ran while this seat still answers: the same question stands)."""
    if user_id is None or game.snapshot is None or game.status != GameStatus.PLAYING:
        return False
    seat = seat_of(read_seats(s, game), user_id)
    if seat is None:
        return False
    m = stored_match(game)
    return seat in m.to_act() and action in m.legal_actions(seat)


def _made(s: Session, game_id: int, version: int, user_id: int, action: Action) -> bool:
    """Whether this person's action made for ``version`` is the one stored for it."""
    q = select(Event).where(
        Event.game_id == game_id, Event.version == version + 1, Event.user_id == user_id
    )
    return any(json.loads(e.data).get("action") == str(action) for e in s.exec(q))


def _signal(
    s: Session,
    game: Game,
    expected: int,
    m: Match,
    seats: Sequence[Occupant | None],
    seat: int,
    action: Action,
    source: Source,
    user_id: int | None,
    rules: Rules,
) -> Change:
    """Store a signal (R12): no turn passes, so the deadline stays where it was."""
    if action not in m.legal_signals(seat) or action.sinal is None:
        raise Refused(Reason.NO_SIGNAL)
    m.apply(seat, action)
    version = expected + 1
    record_event(s, game, version, source, seat, user_id, action=str(action), hand=m.hand_number)
    values: dict[str, Any] = {}
    note = TimeoutNote.from_json(game.note) if game.note else None
    if note is not None and note.version == expected:
        # the timeout the robots follow (R6) is still the latest decision made
        values["note"] = replace(note, version=version).to_json()
    save(s, game, expected, snapshot=json.dumps(m.to_json()), **values)
    commit(s, game, m, seats, rules)  # the redraws and the turn's job, with the change
    return game_change(game, m, seats)


def _overdue(game: Game, rules: Rules) -> bool:
    """The pending decision's deadline has passed (its job may not have run yet)."""
    return game.deadline_at is not None and game.deadline_at <= rules.clock()


def _beside_person(seats: Sequence[Occupant | None], seat: int, players: int) -> bool:
    """Whether ``seat`` is a robot whose partner is a person."""
    x = seats[seat]
    mate = seats[(seat + 2) % 4] if players == 4 else None
    return x is not None and bool(x.robot) and mate is not None and mate.user is not None


def time_out(db: Database, game_id: int, expected: int, rules: Rules) -> Change | None:
    """Apply the default action (R10) of every seat that let its deadline pass.

    ``None`` when the game moved on in the meantime or its deadline is still ahead.
    """
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is not None and game.status == GameStatus.LOBBY and game.version == expected:
            return rematch_time_out(db, s, game, rules)
        if game is None or game.status != GameStatus.PLAYING or game.version != expected:
            return None
        if game.deadline_at is None or game.deadline_at > rules.clock() + 0.05:
            return None
        seats = read_seats(s, game)
        m = stored_match(game)
        version = expected + 1
        hand = m.hand_number
        flor = m.flor
        done: list[tuple[int, Action]] = []
        for seat in m.to_act():
            if seat not in m.to_act():
                continue  # a partner's default already settled it
            if _beside_person(seats, seat, m.players):
                continue  # a robot whose person let the time pass decides by itself (R6)
            action = m.default_action(seat)
            if action is None:
                continue
            m.apply(seat, action)
            done.append((seat, m.log[-1][1]))  # blind plays are logged with the card shown
            record_event(
                s, game, version, Source.TIMEOUT, seat, None, action=str(action), hand=hand
            )
        prior = TimeoutNote.from_json(game.note) if game.note else None
        struck = set(prior.strikes) if prior is not None else set()
        away: list[int] = []
        level = robot_level(seats)
        for seat, _action in done:
            x = seats[seat]
            if x is None or x.user is None or x.robot:
                continue
            if seat in struck:  # the second timeout in a row: a robot plays for them
                struck.discard(seat)
                away.append(seat)
                seats[seat] = replace(x, robot=level)
                record_event(s, game, version, "away", seat, x.user, level=level.value)
            else:
                struck.add(seat)
        if away:
            store_seats(s, game_id, seats)
        note = TimeoutNote(hand, tuple(done), version, tuple(sorted(struck)), tuple(away))
        if done and not game.private:
            key = f"{game.id}:timeout:{version}"
            payload = json.loads(note.to_json())
            outbox.record(s, game, outbox.Announcement.TIMEOUT, key, payload)
        if done:  # a flor the engine sang for the seat the turn passed to
            announce(s, game, version, points_said(m, None, None, flor), seats, part="t")
        return _store_move(s, game, expected, m, seats, rules, note=note)
