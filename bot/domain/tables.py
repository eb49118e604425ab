"""Tables on the database: lobby, start, actions, timeouts, rematch, cancel.

Every change loads the game row, works on an engine ``Match`` rebuilt from the
snapshot, and saves with ``UPDATE ... WHERE version = expected``: of two changes
made for the same version only one is stored, whatever process made them. The
seats and the events describing the change are written in the same transaction.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from sqlalchemy import bindparam, delete
from sqlalchemy import select as core_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from bot.domain import jobs, outbox
from bot.domain.models import Event, Game, Player, Result, SeatRow, utcnow
from bot.domain.store import Database
from bot.domain.values import (
    ACTIVE,
    DEFAULT_LEVEL,
    AddRobot,
    CancelTable,
    Change,
    ChatSettings,
    GameStatus,
    HandSummary,
    Join,
    Leave,
    LobbyCommand,
    Occupant,
    Person,
    Reason,
    Refused,
    RemoveRobot,
    RobotLevel,
    Rules,
    Said,
    Saying,
    SignalNews,
    Source,
    Stale,
    Start,
    Table,
    TableRequest,
    TimeoutNote,
    seat_of,
)
from bot.numbers import NumberRefused, is_digits, parse_number
from engine import HandKind, Match, Phase, TableOptions, get_ruleset
from engine.actions import Act, Action
from engine.rulesets import MAX_TARGET, MIN_TARGET, house_ladder
from engine.sinais import DEFAULT_CATCH_PERCENT
from engine.turns import RobotTurn
from engine.turns import robot_turn as engine_robot_turn

ROBOT_NAMES = ("Zé", "Tonho", "Cida", "Dita")
SEM_SINAIS = ("sem-sinais", "semsinais", "sem_sinais", "nosignals")
"""Words of ``/truco`` for a 2×2 table without sinais (R12 house rule)."""
COM_SINAIS = ("com-sinais", "comsinais", "com_sinais", "signals")
"""Words of ``/truco`` for sinais in a chat whose ``/config`` plays without them."""


# --------------------------------------------------------------- rows ↔ values


def dump_options(o: TableOptions) -> str:
    """JSON for ``games.options``."""
    return json.dumps(
        {
            "players": o.players,
            "target": o.target,
            "covered_cards": o.covered_cards,
            "ladder": list(o.ladder) if o.ladder else None,
            "timer": o.timer,
            "sinais": o.sinais,
            "catch_percent": o.catch_percent,
        }
    )


def load_options(text: str) -> TableOptions:
    """The table options stored in ``games.options`` (tables from before sinais: defaults)."""
    o = json.loads(text)
    ladder = tuple(o["ladder"]) if o.get("ladder") else None
    return TableOptions(
        o["players"],
        o["target"],
        o["covered_cards"],
        ladder,
        o["timer"],
        sinais=bool(o.get("sinais", True)),
        catch_percent=int(o.get("catch_percent", DEFAULT_CATCH_PERCENT)),
    )


_SEATS = select(SeatRow.seat, SeatRow.name, SeatRow.user_id, SeatRow.robot).where(
    col(SeatRow.game_id) == bindparam("game")
)
"""A game's seats as plain columns: every action and redraw reads them, and loading them
as ORM objects (identity map, instance state) cost more than the query."""


def _seats(s: Session, game: GameRow, players: int) -> list[Occupant | None]:
    seats: list[Occupant | None] = [None] * players
    for seat, name, user_id, level in s.execute(_SEATS, {"game": game.id}):
        robot = RobotLevel(level) if level else None
        seats[seat] = Occupant(name=name, user=user_id, robot=robot)
    return seats


def _store_seats(s: Session, game_id: int, seats: Sequence[Occupant | None]) -> None:
    s.execute(delete(SeatRow).where(col(SeatRow.game_id) == game_id))
    for i, x in enumerate(seats):
        if x is not None:
            s.add(SeatRow(game_id=game_id, seat=i, user_id=x.user, robot=x.robot, name=x.name))


class GameRow(Protocol):
    """What a table is read from: a ``Game`` object, or a plain row of ``games``."""

    @property
    def id(self) -> int | None: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def thread_id(self) -> int | None: ...
    @property
    def private(self) -> bool: ...
    @property
    def creator_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def deadline_at(self) -> float | None: ...
    @property
    def note(self) -> str | None: ...
    @property
    def table_message_id(self) -> int | None: ...
    @property
    def snapshot(self) -> str | None: ...
    @property
    def table_after(self) -> int: ...
    @property
    def rematch_of(self) -> int | None: ...


_GAME_ROW = core_select(Game.__table__).where(  # type: ignore[attr-defined]
    Game.__table__.c.id == bindparam("id")  # type: ignore[attr-defined]
)


def game_row(s: Session, game_id: int) -> GameRow | None:
    """A game as plain columns, for reading only (drawings, a robot's look).

    Every redraw and robot turn reads its game; loading it as an ORM object
    (``Session.get``: identity map, instance state) cost more CPU than the query.
    Changes load the ``Game`` object, which their versioned ``UPDATE`` keeps current.
    """
    row: GameRow | None = s.execute(_GAME_ROW, {"id": game_id}).first()
    return row


def row_to_table(s: Session, game: GameRow) -> Table:
    """The ``Table`` value of a game row (its seats read in the same session)."""
    options = load_options(game.options)
    return Table(
        id=game.id or 0,
        chat_id=game.chat_id,
        thread_id=game.thread_id,
        private=game.private,
        creator_id=game.creator_id,
        status=GameStatus(game.status),
        variant=game.variant,
        options=options,
        seats=tuple(_seats(s, game, options.players)),
        version=game.version,
        seed=game.seed,
        deadline_at=game.deadline_at,
        note=TimeoutNote.from_json(game.note) if game.note else None,
        table_message_id=game.table_message_id,
        snapshot=game.snapshot,
    )


def _match(game: Game) -> Match:
    if game.snapshot is None:
        raise Refused(Reason.NOT_STARTED)
    return Match.from_json(json.loads(game.snapshot))


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


def _change(game: Game, m: Match | None, seats: Sequence[Occupant | None]) -> Change:
    note = TimeoutNote.from_json(game.note) if game.note else None
    return _robot_change(game.id or 0, game, m, seats, note)


def change_of(table: Table) -> Change:
    """The ``Change`` describing a table's current state (for rescheduling)."""
    m = table.shown if table.status == GameStatus.PLAYING and table.started else None
    return _robot_change(table.id, table, m, table.seats, table.note)


def _event(
    s: Session,
    game: Game,
    version: int,
    kind: str,
    seat: int | None = None,
    user_id: int | None = None,
    **data: Any,
) -> None:
    s.add(
        Event(
            game_id=game.id or 0,
            version=version,
            kind=kind,
            seat=seat,
            user_id=user_id,
            data=json.dumps(data, ensure_ascii=False),
        )
    )


@functools.cache
def _versioned_update(columns: frozenset[str]) -> Any:
    """``UPDATE games SET ... WHERE id = :_id AND version = :_expected`` for these columns,
    built once per set of them, on the table itself: the ORM's bulk UPDATE (looking for
    objects to synchronise, its compile state) cost more CPU than the statement. The row
    object is brought up to date by ``_save``, as stored."""
    games = Game.__table__.c  # type: ignore[attr-defined]
    return (
        Game.__table__.update()  # type: ignore[attr-defined]
        .where(games.id == bindparam("_id"), games.version == bindparam("_expected"))
        .values({k: bindparam(f"v_{k}") for k in sorted(columns)})
    )


def _save(s: Session, game: Game, expected: int, **values: Any) -> int:
    """Store a change if the game is still at ``expected``; raise ``Stale`` otherwise."""
    values["version"] = expected + 1
    values["updated_at"] = utcnow()
    params = {f"v_{k}": v for k, v in values.items()}
    params.update(_id=game.id, _expected=expected)
    if s.execute(_versioned_update(frozenset(values)), params).rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        raise Stale()
    for k, v in values.items():
        set_committed_value(game, k, v)
    return expected + 1


def _active_game(s: Session, chat_id: int, thread_id: int | None) -> Game | None:
    q = select(Game).where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE))
    q = (
        q.where(Game.thread_id == thread_id)
        if thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.order_by(col(Game.id).desc())).first()


def _beside_person(seats: Sequence[Occupant | None], seat: int, players: int) -> bool:
    """Whether ``seat`` is a robot whose partner is a person."""
    x = seats[seat]
    mate = seats[(seat + 2) % 4] if players == 4 else None
    return x is not None and bool(x.robot) and mate is not None and mate.user is not None


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


def hand_summary(m: Match) -> HandSummary:
    """Public facts of the hand that just ended (no covered card is named)."""
    last = m.hand_log[-1][1].act if m.hand_log else None
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
    )


# ----------------------------------------------------------------------- reads


def load(db: Database, game_id: int) -> Table | None:
    """A table by id."""
    with db.session() as s:
        game = game_row(s, game_id)
        return row_to_table(s, game) if game is not None else None


def active_table(db: Database, chat_id: int, thread_id: int | None) -> Table | None:
    """The lobby or match of a chat (or forum topic), if any."""
    with db.session() as s:
        game = _active_game(s, chat_id, thread_id)
        return row_to_table(s, game) if game is not None else None


def last_variant(db: Database, chat_id: int, thread_id: int | None) -> str | None:
    """The variant of the newest table opened in a chat (or topic), if any."""
    with db.session() as s:
        q = select(Game.variant).where(Game.chat_id == chat_id)
        q = (
            q.where(Game.thread_id == thread_id)
            if thread_id
            else q.where(col(Game.thread_id).is_(None))
        )
        return s.exec(q.order_by(col(Game.id).desc()).limit(1)).first()


def playing_tables_of(db: Database, user_id: int) -> list[Table]:
    """The running matches a person sits at, most recently changed first."""
    with db.session() as s:
        q = (
            select(Game)
            .join(SeatRow, col(SeatRow.game_id) == col(Game.id))
            .where(SeatRow.user_id == user_id, Game.status == GameStatus.PLAYING)
            .order_by(col(Game.updated_at).desc())
        )
        return [row_to_table(s, g) for g in s.exec(q)]


def turn_of(db: Database, user_id: int) -> tuple[Table, int] | None:
    """The person's most relevant running table: one where they must act, else the newest."""
    best: tuple[Table, int] | None = None
    for table in playing_tables_of(db, user_id):
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        if seat in table.shown.to_act():
            return table, seat
        best = best or (table, seat)
    return best


def to_resume(db: Database) -> list[Table]:
    """Every lobby and match not finished, plus finished ones with announcements still owed."""
    with db.session() as s:
        owed = outbox.owed_games(s)
        q = select(Game).where(col(Game.status).in_(ACTIVE) | col(Game.id).in_(owed))
        return [row_to_table(s, g) for g in s.exec(q)]


def resume_jobs(db: Database, rules: Rules) -> int:
    """Record the jobs of every table still running or owing announcements; how many."""
    with db.session() as s:
        owed = outbox.owed_games(s)
        q = select(Game).where(col(Game.status).in_(ACTIVE) | col(Game.id).in_(owed))
        games = list(s.exec(q))
        for game in games:
            seats = _seats(s, game, load_options(game.options).players)
            m = _match(game) if game.snapshot is not None else None
            jobs.after_change(
                s, _change(game, m, seats), rules.clock(), rules.robot_delay, rules.warning_seconds
            )
        s.commit()
        return len(games)


# ----------------------------------------------------------------------- lobby


def parse_request(
    args: Sequence[str], chat: ChatSettings, people: int | None = None
) -> TableRequest:
    """``/truco [variant] [1x1|2x2] [pontos] [sem-sinais|com-sinais]`` on the chat's defaults.

    ``people``: how many people the group has, for a chat whose size is automatic (2×2
    from four people on)."""
    variant = chat.variant
    players = chat.players or (4 if people is not None and people >= 4 else 2)
    target = chat.target
    sinais = chat.sinais
    for raw in args:
        word = raw.strip().lower()
        if word in SEM_SINAIS:
            sinais = False
        elif word in COM_SINAIS:
            sinais = True
        elif word in ("1x1", "1×1", "2", "1v1"):
            players = 2
        elif word in ("2x2", "2×2", "4", "2v2"):
            players = 4
        elif is_digits(word):
            try:
                target = parse_number(word, MIN_TARGET, MAX_TARGET)
            except NumberRefused:
                raise Refused(Reason.BAD_TARGET, low=MIN_TARGET, high=MAX_TARGET) from None
        elif word.isnumeric():  # ², ٣, ５: a number, but not written with 0-9
            raise Refused(Reason.BAD_NUMBER, arg=raw)
        else:
            try:
                variant = get_ruleset(word).name
            except ValueError:
                raise Refused(Reason.BAD_ARG, arg=raw) from None
    if not MIN_TARGET <= target <= MAX_TARGET:
        raise Refused(Reason.BAD_TARGET, low=MIN_TARGET, high=MAX_TARGET)
    rs = get_ruleset(variant)
    ladder = house_ladder(rs, chat.ladder)
    try:
        opts = TableOptions(
            players, target, chat.covered_cards, ladder, chat.timer, sinais=sinais
        ).validated(rs)
    except ValueError:  # the engine's reason is Portuguese prose: the code goes up instead
        raise Refused(Reason.BAD_OPTIONS) from None
    return TableRequest(rs.name, opts)


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
        game = _active_game(s, chat_id, thread_id)
        if game is None or game.status != GameStatus.LOBBY or game.rematch_of is not None:
            raise Refused(Reason.TABLE_EXISTS)
        if game.creator_id != user_id:
            raise Refused(Reason.TABLE_EXISTS)
        old = _seats(s, game, load_options(game.options).players)
        people = [x for x in old if x is not None and x.user is not None]
        size = request.options.players
        if len(people) > size:
            raise Refused(Reason.TABLE_FULL)
        seats: list[Occupant | None] = list(people) + [None] * (size - len(people))
        expected = game.version
        _save(s, game, expected, variant=request.variant, options=dump_options(request.options))
        _store_seats(s, game.id or 0, seats)
        _event(s, game, expected + 1, "reshape", None, user_id, variant=request.variant)
        return _commit(s, game, None, seats, rules)


def robot(level: RobotLevel, seat: int) -> Occupant:
    """A robot of a level for a seat."""
    return Occupant(name=ROBOT_NAMES[seat % len(ROBOT_NAMES)], robot=level)


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
        if _active_game(s, chat_id, thread_id) is not None:
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
        _store_seats(s, game.id or 0, seats)
        _event(s, game, 0, "open", 0, creator.id, variant=request.variant)
        key = jobs.table_key(chat_id, thread_id)
        jobs.schedule(s, jobs.JobKind.TABLE, key, clock(), {"games": [game.id]})
        s.commit()
        return row_to_table(s, game)


def lobby(
    db: Database,
    game_id: int,
    user: Person,
    command: LobbyCommand,
    *,
    authorised: bool,
    rules: Rules,
    expected: int | None = None,
) -> Change:
    """Join, leave, add or remove a robot, start or cancel a lobby.

    Who may: anyone joins, the seated leave, the seated or ``authorised`` (the
    opener or an admin, as the adapter proved) add and remove robots, only
    ``authorised`` start or cancel. ``expected`` is the lobby's version the button was
    drawn for: a robot button pressed again on the same drawing, after the same person's
    press already added (removed) that robot, is a double tap: ``Refused(LOBBY_REPEAT)``,
    one robot added.
    """
    if isinstance(command, Start):
        if not authorised:
            raise Refused(Reason.ONLY_CREATOR)
        return start(db, game_id, rules)
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused(Reason.NO_GAME)
        if game.status != GameStatus.LOBBY:
            raise Refused(Reason.NOT_LOBBY)
        seats = _seats(s, game, load_options(game.options).players)
        mine = seat_of(seats, user.id)
        free = next((i for i, x in enumerate(seats) if x is None), None)
        drawn_before = expected is not None and expected != game.version
        if drawn_before and _repeated(s, game_id, expected or 0, user.id, command):
            raise Refused(Reason.LOBBY_REPEAT)
        expected = game.version
        match command:
            case Join(team=team) if team is not None and len(seats) == 4:
                place = _team_seat(seats, mine, team, Occupant(name=user.name, user=user.id))
                _save(s, game, expected)
                _event(s, game, expected + 1, "join", place, user.id, team=team)
            case Join() if mine is not None and user.id in rematch_waiting(s, game, seats):
                _save(s, game, expected)  # a Revanche's person confirms their seat
                _event(s, game, expected + 1, "confirm", mine, user.id)
            case Join():
                if mine is not None:
                    raise Refused(Reason.ALREADY_SEATED)
                if free is None:
                    raise Refused(Reason.TABLE_FULL)
                seats[free] = Occupant(name=user.name, user=user.id)
                _save(s, game, expected)
                _event(s, game, expected + 1, "join", free, user.id)
            case Leave():
                if mine is None:
                    raise Refused(Reason.NOT_SEATED)
                seats[mine] = None
                if not any(x and x.user for x in seats):
                    _save(s, game, expected, status=GameStatus.CANCELLED)
                else:
                    _save(s, game, expected)
                _event(s, game, expected + 1, "leave", mine, user.id)
            case AddRobot(level=level):
                if mine is None and not authorised:
                    raise Refused(Reason.ROBOTS_NOT_ALLOWED)
                if free is None:
                    raise Refused(Reason.TABLE_FULL)
                seats[free] = robot(level, free)
                _save(s, game, expected)
                _event(s, game, expected + 1, "robot", free, user.id, level=level.value)
            case RemoveRobot():
                if mine is None and not authorised:
                    raise Refused(Reason.ROBOTS_NOT_ALLOWED)
                robots = [i for i, x in enumerate(seats) if x and x.robot]
                if not robots:
                    raise Refused(Reason.NO_ROBOT)
                seats[robots[-1]] = None
                _save(s, game, expected)
                _event(s, game, expected + 1, "unrobot", robots[-1], user.id)
            case CancelTable():
                if not authorised:
                    raise Refused(Reason.ONLY_CREATOR)
                _save(s, game, expected, status=GameStatus.CANCELLED, deadline_at=None)
                _event(s, game, expected + 1, "cancel", None, user.id)
        _store_seats(s, game_id, seats)
        waiting = rematch_waiting(s, game, seats) if game.status == GameStatus.LOBBY else []
        ready = game.rematch_of is not None and game.status == GameStatus.LOBBY and not waiting
        change = _commit(s, game, None, seats, rules)
        due = game.deadline_at
    if ready and any(x and x.user for x in seats):
        return _start_rematch(db, game_id, rules)  # everyone confirmed: deal
    if waiting and due is not None:
        _rematch_deadline(db, change, due)
    return change


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


def _team_seat(
    seats: list[Occupant | None], mine: int | None, team: int, newcomer: Occupant
) -> int:
    """Seat the person of seat ``mine`` (``None``: ``newcomer``, standing) on ``team``, in
    place; returns the seat.

    A free seat of the team is taken first; else a robot of the team moves to the seat
    the person leaves (or to a free one): people choose, robots fill what is left.
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
        bot_seat = next((i for i in (team, team + 2) if (x := seats[i]) and x.robot), None)
        elsewhere = next((i for i, x in enumerate(seats) if x is None and i % 2 != team), None)
        if bot_seat is None or elsewhere is None:
            if mine is not None:
                seats[mine] = person
            raise Refused(Reason.TEAM_FULL, team=team + 1)
        seats[elsewhere], seats[bot_seat] = seats[bot_seat], None
        ours = [bot_seat]
    seats[ours[0]] = person
    return ours[0]


def pending_starts(s: Session, seats: Sequence[Occupant | None]) -> list[str]:
    """Names of seated people who never opened a private chat with the bot."""
    names = []
    for x in seats:
        if x is not None and x.user is not None:
            p = s.get(Player, x.user)
            if p is None or not p.started:
                names.append(x.name)
    return names


def start(db: Database, game_id: int, rules: Rules, match: Match | None = None) -> Change:
    """Fill empty seats with robots and deal the first hand (``match``: a given deal)."""
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused(Reason.NO_GAME)
        if game.status != GameStatus.LOBBY:
            raise Refused(Reason.NOT_LOBBY)
        options = load_options(game.options)
        seats = _seats(s, game, options.players)
        # a Revanche's people who did not confirm: their seats go to robots (at the level
        # of the table's robots, if it has some), as its lobby said
        waiting = rematch_waiting(s, game, seats)
        level = next((x.robot for x in seats if x is not None and x.robot), DEFAULT_LEVEL)
        seats = [robot(level, i) if x and x.user in waiting else x for i, x in enumerate(seats)]
        missing = pending_starts(s, seats)
        if missing:
            raise Refused(Reason.MUST_START, names=", ".join(missing))
        full = [x or robot(DEFAULT_LEVEL, i) for i, x in enumerate(seats)]
        if match is None:
            seed = rules.seed if rules.seed is not None else secrets.randbelow(2**31)
            match = Match(game.variant, options, seed)
        expected = game.version
        _save(
            s,
            game,
            expected,
            status=GameStatus.PLAYING,
            seed=match.seed,
            snapshot=json.dumps(match.to_json()),
            deadline_at=deadline_for(match, rules),
        )
        _store_seats(s, game_id, full)
        _event(s, game, expected + 1, "start", seed=match.seed, seats=[x.name for x in full])
        _event(s, game, expected + 1, "deal", hand=match.hand_number)
        return _commit(s, game, match, full, rules)


REMATCH_SECONDS = 60.0
"""How long a Revanche lobby waits for the old match's people to confirm; then the seats
of those who did not go to robots (the lobby says so)."""


def rematch(db: Database, game_id: int, user_id: int, rules: Rules) -> Change:
    """Revanche: a lobby with the old match's seats, which starts once its people confirm.

    The presser is confirmed, robots are at once; the others confirm with Entrar (or the
    old result's Revanche). After ``REMATCH_SECONDS`` the seats still waiting go to robots
    (:func:`time_out`). A result whose chat opened a newer table since has no Revanche
    any more; a match still in play has none yet.
    """
    with db.session() as s:
        old = s.get(Game, game_id)
        if old is None or old.status == GameStatus.CANCELLED:
            raise Refused(Reason.NO_GAME)
        if old.status != GameStatus.OVER:
            raise Refused(Reason.NOT_OVER)
        options = load_options(old.options)
        seats = _seats(s, old, options.players)
        if seat_of(seats, user_id) is None:
            raise Refused(Reason.NOT_SEATED)
        active = _active_game(s, old.chat_id, old.thread_id)
        if active is not None and active.rematch_of == old.id and active.id is not None:
            confirm = True  # its Revanche lobby is open: pressing Revanche again confirms
            new_id = active.id
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
            _store_seats(s, game.id or 0, seats)
            waiting = [x.user for x in seats if x is not None and x.user not in (None, user_id)]
            _event(s, game, 0, "open", None, user_id, rematch_of=old.id, waiting=waiting)
            new_id = game.id or 0
            due = game.deadline_at or 0
            change = None if not waiting else _commit(s, game, None, seats, rules)
            if change is None:
                s.commit()
    if confirm:
        return lobby(db, new_id, Person(user_id, ""), Join(), authorised=False, rules=rules)
    if change is None:
        return _start_rematch(db, new_id, rules)  # nobody else to ask: robots confirm at once
    _rematch_deadline(db, change, due)
    return change


def _start_rematch(db: Database, game_id: int, rules: Rules) -> Change:
    """Deal a confirmed Revanche: the old match's rematch deal (or the test seed's)."""
    match = None
    with db.session() as s:
        game = s.get(Game, game_id)
        old = s.get(Game, game.rematch_of) if game and game.rematch_of else None
        if old is not None and old.snapshot:
            match = _match(old).rematch()
            if rules.seed is not None:
                match = Match(old.variant, load_options(old.options), rules.seed + (old.id or 0))
    return start(db, game_id, rules, match)


def _rematch_deadline(db: Database, change: Change, due: float) -> None:
    """(Re)schedule the Revanche lobby's wait (a lobby's changes drop deadline jobs)."""
    with db.session() as s:
        data = {"game": change.game_id, "version": change.version}
        jobs.schedule(s, jobs.JobKind.DEADLINE, str(change.game_id), due, data)
        s.commit()


def _newer_game(s: Session, old: Game) -> bool:
    """Whether a table was opened in the old game's chat (and topic) after it."""
    q = select(Game.id).where(Game.chat_id == old.chat_id, col(Game.id) > (old.id or 0))
    q = (
        q.where(Game.thread_id == old.thread_id)
        if old.thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.limit(1)).first() is not None


def rematch_waiting(
    s: Session, game: Game | GameRow, seats: Sequence[Occupant | None]
) -> list[int]:
    """The people of a Revanche lobby who have not confirmed yet (seated, not pressed)."""
    if game.rematch_of is None or game.status != GameStatus.LOBBY:
        return []
    q = select(Event).where(Event.game_id == game.id).order_by(col(Event.id))
    waiting: set[int] = set()
    for e in s.exec(q):
        if e.kind == "open":
            waiting = set(json.loads(e.data).get("waiting", []))
        elif e.kind in ("join", "confirm", "leave") and e.user_id is not None:
            waiting.discard(e.user_id)
    seated = {x.user for x in seats if x is not None and x.user is not None}
    return [u for u in (x.user for x in seats if x is not None) if u in waiting & seated]


def cancel(
    db: Database, game_id: int, user_id: int, *, authorised: bool, rules: Rules | None = None
) -> Change:
    """Cancel a lobby or a match (creator or admin)."""
    rules = rules or Rules()
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None or game.status not in ACTIVE:
            raise Refused(Reason.NO_GAME)
        if not authorised:
            raise Refused(Reason.ONLY_CREATOR)
        expected = game.version
        _save(s, game, expected, status=GameStatus.CANCELLED, deadline_at=None)
        _event(s, game, expected + 1, "cancel", None, user_id)
        seats = _seats(s, game, load_options(game.options).players)
        return _commit(s, game, None, seats, rules)


# --------------------------------------------------------------------- actions


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
    _save(
        s,
        game,
        expected,
        snapshot=json.dumps(m.to_json()),
        status=status,
        deadline_at=deadline_for(m, rules, strikes) if status == GameStatus.PLAYING else None,
        **values,
    )
    return _commit(s, game, m, seats, rules)


def _commit(
    s: Session, game: Game, m: Match | None, seats: Sequence[Occupant | None], rules: Rules
) -> Change:
    """Commit a change together with the jobs that must follow it (robot, deadline, redraws)."""
    change = _change(game, m, seats)
    jobs.after_change(s, change, rules.clock(), rules.robot_delay, rules.warning_seconds)
    s.commit()
    return change


def _finish(
    s: Session, game: Game, m: Match, seats: Sequence[Occupant | None], version: int
) -> GameStatus:
    """Record hand and match ends; deal the next hand. Returns the new status."""
    if m.phase == Phase.HAND_OVER:
        _closing(s, game, version, m)
        m.deal()
        _event(s, game, version, "deal", hand=m.hand_number)
        return GameStatus.PLAYING
    if m.phase == Phase.MATCH_OVER:
        _closing(s, game, version, m)
        end: dict[str, Any] = {"winner": m.match_winner, "score": list(m.score)}
        _event(s, game, version, "match_over", **end)
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
    _event(s, game, version, "hand_over", **summary)
    if game.private:
        return
    key = f"{game.id}:hand:{summary['hand']}"
    outbox.record(s, game, outbox.Announcement.HAND_OVER, key, summary)


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
    """
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused(Reason.NO_GAME)
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
            raise Stale()
        seats = _seats(s, game, load_options(game.options).players)
        if user_id is not None:
            seat = seat_of(seats, user_id)
        if seat is None:
            raise Refused(Reason.NOT_SEATED)
        if source != Source.ROBOT and _overdue(game, rules):
            raise Stale()  # its deadline passed first: the default action is the one played
        m = _match(game)
        if action.act == Act.SIGNAL:
            return _signal(s, game, expected, m, seats, seat, action, source, user_id, rules)
        if seat not in m.to_act():
            raise Refused(Reason.NOT_YOUR_TURN)
        if action not in m.legal_actions(seat):
            raise Refused(Reason.ILLEGAL)
        present = _present(s, game, seats, seat, user_id) if user_id is not None else None
        said = _said(m, seat, action)
        m.apply(seat, action)
        version = expected + 1
        _event(s, game, version, source, seat, user_id, action=str(action), hand=m.hand_number)
        ran_out = m.phase >= Phase.HAND_OVER and said is not None and said.saying in RUNS
        if said is not None and not game.private and not ran_out:
            key = f"{game.id}:said:{version}"
            outbox.record(s, game, outbox.Announcement.SAID, key, said.to_json())
        return _store_move(s, game, expected, m, seats, rules, note=present)


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
    index = len(m.hand_log) - 1
    version = expected + 1
    _event(s, game, version, source, seat, user_id, action=str(action), hand=m.hand_number)
    values: dict[str, Any] = {}
    note = TimeoutNote.from_json(game.note) if game.note else None
    if note is not None and note.version == expected:
        # the timeout the robots follow (R6) is still the latest decision made
        values["note"] = replace(note, version=version).to_json()
    _save(s, game, expected, snapshot=json.dumps(m.to_json()), **values)
    _commit(s, game, m, seats, rules)  # the redraws and the turn's job, with the change
    receivers = []
    for other, x in enumerate(seats):
        if other == seat or x is None or x.user is None:
            continue
        caught = m.caught(index, other)
        if (other - seat) % 2 == 0 or caught:
            receivers.append((x.user, caught))
    who = seats[seat]
    news = SignalNews(seat, who.name if who else "", action.sinal, tuple(receivers))
    return replace(_change(game, m, seats), signal=news)


def _overdue(game: Game, rules: Rules) -> bool:
    """The pending decision's deadline has passed (its job may not have run yet)."""
    return game.deadline_at is not None and game.deadline_at <= rules.clock()


def time_out(db: Database, game_id: int, expected: int, rules: Rules) -> Change | None:
    """Apply the default action (R10) of every seat that let its deadline pass.

    ``None`` when the game moved on in the meantime or its deadline is still ahead.
    """
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is not None and game.status == GameStatus.LOBBY and game.version == expected:
            return _rematch_time_out(db, s, game, rules)
        if game is None or game.status != GameStatus.PLAYING or game.version != expected:
            return None
        if game.deadline_at is None or game.deadline_at > rules.clock() + 0.05:
            return None
        seats = _seats(s, game, load_options(game.options).players)
        m = _match(game)
        version = expected + 1
        hand = m.hand_number
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
            _event(s, game, version, Source.TIMEOUT, seat, None, action=str(action), hand=hand)
        prior = TimeoutNote.from_json(game.note) if game.note else None
        struck = set(prior.strikes) if prior is not None else set()
        away: list[int] = []
        level = _robot_level(seats)
        for seat, _action in done:
            x = seats[seat]
            if x is None or x.user is None or x.robot:
                continue
            if seat in struck:  # the second timeout in a row: a robot plays for them
                struck.discard(seat)
                away.append(seat)
                seats[seat] = replace(x, robot=level)
                _event(s, game, version, "away", seat, x.user, level=level.value)
            else:
                struck.add(seat)
        if away:
            _store_seats(s, game_id, seats)
        note = TimeoutNote(hand, tuple(done), version, tuple(sorted(struck)), tuple(away))
        if done and not game.private:
            key = f"{game.id}:timeout:{version}"
            payload = json.loads(note.to_json())
            outbox.record(s, game, outbox.Announcement.TIMEOUT, key, payload)
        return _store_move(s, game, expected, m, seats, rules, note=note)


def _rematch_time_out(db: Database, s: Session, game: Game, rules: Rules) -> Change | None:
    """A Revanche lobby's wait is over: the seats still waiting go to robots (at the
    level of the table's robots, if it has some) and the match starts."""
    if game.rematch_of is None or game.deadline_at is None:
        return None
    if game.deadline_at > rules.clock() + 0.05:
        return None
    s.rollback()  # nothing read here is written: start() does it in its own session
    try:
        return _start_rematch(db, game.id or 0, rules)
    except Refused:  # someone left the bot's private chat meanwhile: the lobby stays
        return None


def _robot_level(seats: Sequence[Occupant | None]) -> RobotLevel:
    """The table's robot level: its robots', else the default."""
    return next(
        (x.robot for x in seats if x is not None and x.robot and x.user is None), DEFAULT_LEVEL
    )


def _present(
    s: Session, game: Game, seats: list[Occupant | None], seat: int, user_id: int
) -> TimeoutNote | None:
    """A person acted: a robot playing for them hands the seat back, and their strike (a
    timeout last time) is forgiven. Returns the note to store, if it changed."""
    x = seats[seat]
    if x is not None and x.robot and x.user == user_id:
        seats[seat] = replace(x, robot=None)
        _store_seats(s, game.id or 0, seats)
        _event(s, game, game.version + 1, "back", seat, user_id)
    note = TimeoutNote.from_json(game.note) if game.note else None
    if note is None or seat not in note.strikes:
        return None
    return replace(note, strikes=tuple(x for x in note.strikes if x != seat))


def come_back(db: Database, game_id: int, user_id: int, rules: Rules) -> Change:
    """A person whose seat a robot plays (two timeouts in a row) takes it back."""
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None or game.status != GameStatus.PLAYING:
            raise Refused(Reason.GAME_OVER if game is not None else Reason.NO_GAME)
        seats = _seats(s, game, load_options(game.options).players)
        seat = seat_of(seats, user_id)
        x = seats[seat] if seat is not None else None
        if seat is None or x is None:
            raise Refused(Reason.NOT_SEATED)
        if not x.robot:
            raise Refused(Reason.DONE)
        expected = game.version
        note = _present(s, game, seats, seat, user_id)
        m = _match(game)
        values: dict[str, Any] = {"note": note.to_json()} if note is not None else {}
        strikes = note.strikes if note is not None else ()
        _save(s, game, expected, deadline_at=deadline_for(m, rules, strikes), **values)
        return _commit(s, game, m, seats, rules)
