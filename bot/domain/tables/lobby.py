"""A lobby's life: open, reshape, join, leave, robots, teams, cancel, and the Revanche
that opens a new lobby from a finished match."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session, col, select

from bot.domain import jobs, presence
from bot.domain.jobs import HandsJob
from bot.domain.models import SEATED, Event, Game, HandMessage, leave_seat
from bot.domain.store import Database
from bot.domain.tables.changes import commit
from bot.domain.tables.rows import (
    active_game,
    dump_options,
    game_for_change,
    load_options,
    raced,
    read_seats,
    record_event,
    row_to_table,
    save,
    store_seats,
)
from bot.domain.tables.starting import (
    REMATCH_SECONDS,
    rematch_deadline,
    rematch_waiting,
    robot,
    start,
    start_rematch,
)
from bot.domain.values.commands import (
    AddRobot,
    CancelTable,
    Join,
    Leave,
    LobbyCommand,
    RemoveRobot,
    Start,
    TableRequest,
)
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import Change, GameStatus, Occupant, RobotLevel, Table, seat_of
from bot.domain.values.people import Person
from bot.domain.values.settings import Rules


def open_table(
    db: Database,
    chat_id: int,
    thread_id: int | None,
    creator: Person,
    request: TableRequest,
    *,
    private: bool = False,
    seats: Sequence[Occupant | None] | None = None,
    rules: Rules | None = None,
) -> Table:
    """A new lobby with the creator seated (or ``seats``); ``Refused`` if a table is open."""
    clock = (rules or Rules()).clock
    with db.session() as s:
        if active_game(s, chat_id, thread_id) is not None:
            raise Refused(Reason.TABLE_EXISTS)
        if seats is None:
            seats = [Occupant(name=creator.name, user=creator.id)]
            seats += [None] * (request.options.players - 1)
        game = Game(
            chat_id=chat_id,
            thread_id=thread_id,
            private=private,
            creator_id=creator.id,
            variant=request.variant,
            options=dump_options(request.options),
            seed=0,
        )
        s.add(game)
        s.flush()
        store_seats(s, game.id or 0, seats)
        record_event(s, game, 0, "open", 0, creator.id, variant=request.variant)
        key = jobs.table_key(chat_id, thread_id)
        jobs.schedule(s, key, clock(), jobs.TableJob((game.id or 0,)))
        s.commit()
        return row_to_table(s, game)


def reshape(
    db: Database,
    chat_id: int,
    thread_id: int | None,
    user_id: int,
    request: TableRequest,
    rules: Rules,
) -> Change:
    """``/truco 2x2`` (any arguments) over one's own lobby: the lobby takes the new options.

    Only the opener's, not started, not a Revanche's; its people keep their seats
    (``Refused(TABLE_FULL)`` when they would not fit), robots fill seats again later.
    """
    with db.session() as s:
        game = active_game(s, chat_id, thread_id)
        if game is None or game.status != GameStatus.LOBBY or game.rematch_of is not None:
            raise Refused(Reason.TABLE_EXISTS)
        if game.creator_id != user_id:
            raise Refused(Reason.TABLE_EXISTS)
        old = read_seats(s, game)
        people = [x for x in old if x is not None and x.user is not None]
        size = request.options.players
        if len(people) > size:
            raise Refused(Reason.TABLE_FULL)
        seats: list[Occupant | None] = list(people) + [None] * (size - len(people))
        expected = game.version
        save(s, game, expected, variant=request.variant, options=dump_options(request.options))
        store_seats(s, game.id or 0, seats)
        record_event(s, game, expected + 1, "reshape", None, user_id, variant=request.variant)
        return commit(s, game, None, seats, rules)


def lobby(
    db: Database,
    game_id: int,
    user: Person,
    command: LobbyCommand,
    *,
    authorised: bool,
    rules: Rules,
    expected: int | None = None,
    in_app: bool = False,
) -> Change:
    """Join, leave, add or remove a robot, start or cancel a lobby.

    Who may: anyone joins (taking a robot's seat when no seat is free), the seated leave, the seated or ``authorised`` (the
    opener or an admin, as the adapter proved) add and remove robots, only
    ``authorised`` start or cancel. ``expected`` is the lobby's version the button was
    drawn for: a robot button pressed again on the same drawing, after the same person's
    press already added (removed) that robot, is a double tap: ``Refused(LOBBY_REPEAT)``,
    one robot added.

    ``in_app``: pressed in the Mini App, open at this table: a person seated once the
    command is done counts as having it open from this transaction (the first deal sends
    them no hand message), one who leaves no longer does; nobody else is recorded.
    """
    if isinstance(command, Start):
        if not authorised:
            raise Refused(Reason.ONLY_CREATOR)
        if in_app:
            with db.session() as s:
                game = game_for_change(s, game_id)
                if seat_of(read_seats(s, game), user.id) is not None:
                    presence.mark_present(s, game_id, user.id, rules.clock())
                    s.commit()
        return raced(lambda: start(db, game_id, rules))
    change, seats, waiting, ready, due = raced(
        lambda: _change_lobby(db, game_id, user, command, authorised, rules, expected, in_app)
    )
    if ready and any(x and x.user for x in seats):
        return start_rematch(db, game_id, rules)  # everyone confirmed: deal
    if waiting and due is not None:
        rematch_deadline(db, change, due)
    return change


def _change_lobby(
    db: Database,
    game_id: int,
    user: Person,
    command: LobbyCommand,
    authorised: bool,
    rules: Rules,
    expected: int | None,
    in_app: bool,
) -> tuple[Change, list[Occupant | None], list[int], bool, float | None]:
    """``lobby``'s one transaction: the change, the seats after it, the Revanche's people
    still to confirm, whether they all have, and the Revanche lobby's deadline."""
    with db.session() as s:
        game = game_for_change(s, game_id)
        if game.status != GameStatus.LOBBY:
            raise Refused(Reason.NOT_LOBBY)
        seats = read_seats(s, game)
        mine = seat_of(seats, user.id)
        free = next((i for i, x in enumerate(seats) if x is None), None)
        drawn_before = expected is not None and expected != game.version
        if drawn_before and _repeated(s, game_id, expected or 0, user.id, command):
            raise Refused(Reason.LOBBY_REPEAT)
        expected = game.version
        match command:
            case Join(team=team) if team is not None and len(seats) == 4:
                place = _team_seat(seats, mine, team, Occupant(name=user.name, user=user.id))
                save(s, game, expected)
                record_event(s, game, expected + 1, "join", place, user.id, team=team)
            case Join() if mine is not None and user.id in rematch_waiting(s, game, seats):
                save(s, game, expected)  # a Revanche's person confirms their seat
                record_event(s, game, expected + 1, "confirm", mine, user.id)
            case Join():
                if mine is not None:
                    raise Refused(Reason.ALREADY_SEATED)
                taken = free if free is not None else _robot_seat(seats)
                if taken is None:
                    raise Refused(Reason.TABLE_FULL)
                displaced = seats[taken]
                seats[taken] = Occupant(name=user.name, user=user.id)
                save(s, game, expected)
                extra = {"robot": displaced.name} if displaced is not None else {}
                record_event(s, game, expected + 1, "join", taken, user.id, **extra)
            case Leave():
                if mine is None:
                    raise Refused(Reason.NOT_SEATED)
                seats[mine] = None
                if not any(x and x.user for x in seats):
                    save(s, game, expected, status=GameStatus.CANCELLED)
                else:
                    save(s, game, expected)
                record_event(s, game, expected + 1, "leave", mine, user.id)
            case AddRobot(level=level):
                if mine is None and not authorised:
                    raise Refused(Reason.ROBOTS_NOT_ALLOWED)
                if free is None:
                    raise Refused(Reason.TABLE_FULL)
                seats[free] = robot(level, free)
                save(s, game, expected)
                record_event(s, game, expected + 1, "robot", free, user.id, level=level.value)
            case RemoveRobot():
                if mine is None and not authorised:
                    raise Refused(Reason.ROBOTS_NOT_ALLOWED)
                robots = [i for i, x in enumerate(seats) if x and x.robot]
                if not robots:
                    raise Refused(Reason.NO_ROBOT)
                seats[robots[-1]] = None
                save(s, game, expected)
                record_event(s, game, expected + 1, "unrobot", robots[-1], user.id)
            case CancelTable():
                if not authorised:
                    raise Refused(Reason.ONLY_CREATOR)
                save(s, game, expected, status=GameStatus.CANCELLED, deadline_at=None)
                record_event(s, game, expected + 1, "cancel", None, user.id)
        store_seats(s, game_id, seats)
        still_lobby = game.status == GameStatus.LOBBY
        if _answers_follow(s, game_id, seats, open_=still_lobby) and still_lobby:
            # a cancelled table's hands are redrawn anyway (``jobs.after_change``)
            jobs.schedule(s, str(game_id), rules.clock(), HandsJob(game_id), keep_earlier=True)
        if in_app and seat_of(seats, user.id) is not None:
            presence.mark_present(s, game_id, user.id, rules.clock())
        elif in_app:
            presence.unmark_present(s, game_id, user.id)
        waiting = rematch_waiting(s, game, seats) if game.status == GameStatus.LOBBY else []
        ready = game.rematch_of is not None and game.status == GameStatus.LOBBY and not waiting
        change = commit(s, game, None, seats, rules)
        return change, seats, waiting, ready, game.deadline_at


def _repeated(s: Session, game_id: int, drawn: int, user_id: int, command: LobbyCommand) -> bool:
    """Whether the same person's same robot press, on the lobby drawn for version ``drawn``,
    was already applied after that drawing (a double tap)."""
    level: RobotLevel | None = None
    match command:
        case AddRobot():
            kind, level = "robot", command.level
        case RemoveRobot():
            kind = "unrobot"
        case _:
            return False
    q = select(Event).where(
        Event.game_id == game_id,
        Event.version > drawn,
        Event.kind == kind,
        Event.user_id == user_id,
    )
    return any(level is None or json.loads(e.data).get("level") == level.value for e in s.exec(q))


def _robot_seat(seats: Sequence[Occupant | None]) -> int | None:
    """The seat a standing person takes from a robot when no seat is free (the last robot
    added, as − Robô takes away), or ``None``: people only."""
    robots = [i for i, x in enumerate(seats) if x is not None and x.robot and x.user is None]
    return robots[-1] if robots else None


def _team_seat(
    seats: list[Occupant | None], mine: int | None, team: int, newcomer: Occupant
) -> int:
    """Seat the person of seat ``mine`` (``None``: ``newcomer``, standing) on ``team``, in
    place; returns the seat.

    A free seat of the team is taken first; else a robot of the team moves to the seat
    the person leaves (or to a free one of the other team), and with no seat left for it
    the robot leaves the table: people choose, robots fill what is left.
    """
    if team not in (0, 1):
        raise Refused(Reason.BAD_BUTTON)
    if mine is not None and mine % 2 == team:
        raise Refused(Reason.SAME_TEAM)
    ours = [i for i in (team, team + 2) if seats[i] is None]
    person = seats[mine] if mine is not None else newcomer
    if mine is not None:
        seats[mine] = None
    if not ours:
        bot_seat = next(
            (i for i in (team, team + 2) if (x := seats[i]) and x.robot and x.user is None), None
        )
        if bot_seat is None:
            if mine is not None:
                seats[mine] = person
            raise Refused(Reason.TEAM_FULL, team=team + 1)
        elsewhere = next((i for i, x in enumerate(seats) if x is None and i % 2 != team), None)
        if elsewhere is not None:
            seats[elsewhere] = seats[bot_seat]
        seats[bot_seat] = None
        ours = [bot_seat]
    seats[ours[0]] = person
    return ours[0]


def cancel(
    db: Database, game_id: int, user_id: int, *, authorised: bool, rules: Rules | None = None
) -> Change:
    """Cancel a lobby or a match (creator or admin)."""
    rules = rules or Rules()
    with db.session() as s:
        game = game_for_change(s, game_id, gone=(GameStatus.OVER, GameStatus.CANCELLED))
        if not authorised:
            raise Refused(Reason.ONLY_CREATOR)
        expected = game.version
        save(s, game, expected, status=GameStatus.CANCELLED, deadline_at=None)
        record_event(s, game, expected + 1, "cancel", None, user_id)
        seats = read_seats(s, game)
        _answers_follow(s, game_id, seats, open_=False)  # the hands' redraw deletes them
        return commit(s, game, None, seats, rules)


def _answers_follow(
    s: Session, game_id: int, seats: Sequence[Occupant | None], *, open_: bool
) -> bool:
    """The lobby's private answers ("✅ you are seated", ``messages.seated_message``) follow
    their people: to the seat a person moved to, aside (``leave_seat``) when the person
    left or the lobby is no longer ``open_``. Whether any was set aside: the hands' redraw
    deletes those, so nothing of a lobby one left stays in one's private chat."""
    q = select(HandMessage).where(
        HandMessage.game_id == game_id,
        HandMessage.hand_number == SEATED,
        col(HandMessage.seat) >= 0,
    )
    rows = s.exec(q).all()
    moved, aside = [], False
    for row in rows:
        now = seat_of(seats, row.chat_id) if open_ else None  # a private chat's id is its person's
        if now == row.seat:
            continue
        leave_seat(row)  # out of the way first: seats are unique per table
        s.add(row)
        if now is None:
            aside = True
        else:
            moved.append((row, now))
    if moved:
        s.flush()
        for row, now in moved:
            row.seat = now
            s.add(row)
    return aside


def rematch(
    db: Database, game_id: int, user_id: int, rules: Rules, *, in_app: bool = False
) -> Change:
    """Revanche: a lobby with the old match's seats, which starts once its people confirm.

    The presser is confirmed, robots are at once; the others confirm with Entrar (or the
    old result's Revanche). After ``REMATCH_SECONDS`` a robot plays each seat still
    waiting for its person, who takes it back with 🙋 Voltei (:func:`time_out`). A result whose chat opened a newer table since has no Revanche
    any more; a match still in play has none yet.

    ``in_app``: pressed in the Mini App, which opens the Revanche next. The presser counts
    as having it open from the transaction that opens it, so a Revanche dealt at once
    (robots, or the last confirmation) sends them no hand message: the job that draws the
    hands may run before the page's own call comes back.
    """
    with db.session() as s:
        old = game_for_change(s, game_id, gone=(GameStatus.CANCELLED,))
        if old.status != GameStatus.OVER:
            raise Refused(Reason.NOT_OVER)
        options = load_options(old.options)
        # a person a robot stood in for at the end sits in the Revanche as themselves
        seats = [
            replace(x, robot=None) if x is not None and x.user is not None else x
            for x in read_seats(s, old, options.players)
        ]
        if seat_of(seats, user_id) is None:
            raise Refused(Reason.NOT_SEATED)
        active = active_game(s, old.chat_id, old.thread_id)
        if active is not None and active.rematch_of == old.id and active.status != GameStatus.LOBBY:
            raise Refused(Reason.REMATCH_PLAYING)
        if active is not None and active.rematch_of == old.id and active.id is not None:
            confirm = True  # its Revanche lobby is open: pressing Revanche again confirms
            new_id = active.id
            if in_app:
                presence.mark_present(s, new_id, user_id, rules.clock())
                s.commit()
        elif _newer_game(s, old):
            raise Refused(Reason.REMATCH_GONE)
        elif active is not None:
            raise Refused(Reason.TABLE_EXISTS)
        else:
            confirm = False
            game = Game(
                chat_id=old.chat_id,
                thread_id=old.thread_id,
                private=old.private,
                creator_id=user_id,
                variant=old.variant,
                options=old.options,
                seed=0,
                rematch_of=old.id,
                deadline_at=rules.clock() + REMATCH_SECONDS,
            )
            s.add(game)
            s.flush()
            store_seats(s, game.id or 0, seats)
            waiting = [x.user for x in seats if x is not None and x.user not in (None, user_id)]
            record_event(s, game, 0, "open", None, user_id, rematch_of=old.id, waiting=waiting)
            new_id = game.id or 0
            if in_app:
                presence.mark_present(s, new_id, user_id, rules.clock())
            due = game.deadline_at or 0
            change = None if not waiting else commit(s, game, None, seats, rules)
            if change is None:
                s.commit()
    if confirm:
        return lobby(db, new_id, Person(user_id, ""), Join(), authorised=False, rules=rules)
    if change is None:
        return start_rematch(db, new_id, rules)  # nobody else to ask: robots confirm at once
    rematch_deadline(db, change, due)
    return change


def _newer_game(s: Session, old: Game) -> bool:
    """Whether a table was opened in the old game's chat (and topic) after it."""
    q = select(Game.id).where(Game.chat_id == old.chat_id, col(Game.id) > (old.id or 0))
    q = (
        q.where(Game.thread_id == old.thread_id)
        if old.thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.limit(1)).first() is not None
