"""Tables on the database: lobby, start, actions, timeouts, results.

Every change loads the game row, works on an engine ``Match`` rebuilt from the
snapshot, and saves with ``UPDATE ... WHERE version = expected``: of two changes
made for the same version only one is stored, whatever process made them. The
events describing the change are written in the same transaction.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import case, func, update
from sqlmodel import Session, col, select

from bot.models import Chat, Event, Game, Player, Result, utcnow
from bot.numbers import NumberRefused, is_digits, parse_number
from bot.store import Database
from engine import HandKind, Match, Phase, TableOptions, get_ruleset
from engine.actions import Act, Action
from engine.rulesets import MAX_TARGET, MIN_TARGET

ACTIVE = ("lobby", "playing")
ROBOT_NAMES = ("Zé", "Tonho", "Cida", "Dita")
LEVELS = ("facil", "medio", "dificil")
DEFAULT_LEVEL = "medio"


class Refused(Exception):
    """A request the rules of the table do not allow; ``reason`` is a message key."""

    def __init__(self, reason: str, **params: Any) -> None:
        """Refuse for ``reason`` (a key of ``bot.render.REASONS``)."""
        super().__init__(reason)
        self.reason = reason
        self.params = params


class Stale(Refused):
    """The button was made for an older version of the game."""

    def __init__(self) -> None:
        """The button's version is gone."""
        super().__init__("stale")


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a person (``user``) or a robot (``robot`` level)."""

    name: str
    user: int | None = None
    robot: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form stored in ``games.seats``."""
        return {"name": self.name, "user": self.user, "robot": self.robot}


def load_seats(game: Game) -> list[Seat | None]:
    """The seats of a game row (``None`` for a free seat)."""
    return [Seat(**s) if s else None for s in json.loads(game.seats)]


def dump_seats(seats: Sequence[Seat | None]) -> str:
    """JSON for ``games.seats``."""
    return json.dumps([s.to_json() if s else None for s in seats], ensure_ascii=False)


def load_options(game: Game) -> TableOptions:
    """The table options of a game row."""
    o = json.loads(game.options)
    ladder = tuple(o["ladder"]) if o.get("ladder") else None
    return TableOptions(o["players"], o["target"], o["covered_cards"], ladder, o["timer"])


def dump_options(o: TableOptions) -> str:
    """JSON for ``games.options``."""
    ladder = list(o.ladder) if o.ladder else None
    return json.dumps(
        {
            "players": o.players,
            "target": o.target,
            "covered_cards": o.covered_cards,
            "ladder": ladder,
            "timer": o.timer,
        }
    )


def load_match(game: Game) -> Match:
    """The engine match of a started game."""
    if game.snapshot is None:
        raise Refused("not_started")
    return Match.from_json(json.loads(game.snapshot))


def seat_of(seats: Sequence[Seat | None], user_id: int) -> int | None:
    """The seat of a person, if seated."""
    for i, s in enumerate(seats):
        if s is not None and s.user == user_id:
            return i
    return None


@dataclass(frozen=True)
class Rules:
    """Bot-wide knobs that change how a table runs (from ``Config``)."""

    decision_seconds: float | None = None
    seed: int | None = None


@dataclass(frozen=True)
class TableRequest:
    """What ``/truco`` asked for, after parsing its arguments."""

    variant: str
    options: TableOptions


@dataclass
class Change:
    """What a stored change means for the messages and the timers."""

    game_id: int
    chat_id: int
    thread_id: int | None
    private: bool
    status: str
    version: int
    deadline_at: float | None = None
    robot_seat: int | None = None
    """A robot that must act now."""
    events: list[str] = field(default_factory=list)


def parse_table_args(args: Sequence[str], chat: Chat) -> TableRequest:
    """``/truco [variant] [1x1|2x2] [pontos]`` on top of the chat's defaults."""
    variant = chat.variant
    players = chat.players
    target = chat.target
    for raw in args:
        word = raw.strip().lower()
        if word in ("1x1", "1×1", "2", "1v1"):
            players = 2
        elif word in ("2x2", "2×2", "4", "2v2"):
            players = 4
        elif is_digits(word):
            try:
                target = parse_number(word, MIN_TARGET, MAX_TARGET)
            except NumberRefused:
                raise Refused("bad_target", low=MIN_TARGET, high=MAX_TARGET) from None
        elif word.isnumeric():  # ², ٣, ５: a number, but not written with 0-9
            raise Refused("bad_number", arg=raw)
        else:
            try:
                variant = get_ruleset(word).name
            except ValueError:
                raise Refused("bad_arg", arg=raw) from None
    if not MIN_TARGET <= target <= MAX_TARGET:
        raise Refused("bad_target", low=MIN_TARGET, high=MAX_TARGET)
    rs = get_ruleset(variant)
    ladder = None
    if chat.ladder and rs.name == "mineiro":
        ladder = tuple(int(x) for x in chat.ladder.split("-"))
    opts = TableOptions(players, target, chat.covered_cards, ladder, chat.timer).validated(rs)
    return TableRequest(rs.name, opts)


def upsert_player(
    s: Session, user_id: int, name: str, username: str | None, language_code: str | None
) -> Player:
    """The player row of a Telegram user, created or refreshed."""
    p = s.get(Player, user_id)
    if p is None:
        p = Player(id=user_id, name=name, username=username, language_code=language_code)
    else:
        p.name, p.username = name, username
        if language_code:
            p.language_code = language_code
    s.add(p)
    return p


def get_chat(s: Session, chat_id: int, kind: str = "group", title: str = "") -> Chat:
    """The chat row, created with default settings when new."""
    c = s.get(Chat, chat_id)
    if c is None:
        c = Chat(id=chat_id, kind=kind, title=title)
        s.add(c)
        s.flush()
    return c


def active_game(s: Session, chat_id: int, thread_id: int | None) -> Game | None:
    """The lobby or match of a chat (or forum topic), if any."""
    q = select(Game).where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE))
    q = (
        q.where(Game.thread_id == thread_id)
        if thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.order_by(col(Game.id).desc())).first()


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


def _save(s: Session, game: Game, expected: int, **values: Any) -> int:
    """Store a change if the game is still at ``expected``; raise ``Stale`` otherwise."""
    values["version"] = expected + 1
    values["updated_at"] = utcnow()
    stmt = update(Game).where(col(Game.id) == game.id, col(Game.version) == expected)
    if s.execute(stmt.values(**values)).rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        raise Stale()
    for k, v in values.items():
        setattr(game, k, v)
    return expected + 1


def _change(game: Game, m: Match | None, seats: Sequence[Seat | None]) -> Change:
    robot = None
    if m is not None and game.status == "playing":
        robot = next((st for st in m.to_act() if (x := seats[st]) and x.robot), None)
    return Change(
        game_id=game.id or 0,
        chat_id=game.chat_id,
        thread_id=game.thread_id,
        private=game.private,
        status=game.status,
        version=game.version,
        deadline_at=game.deadline_at,
        robot_seat=robot,
    )


def deadline_for(m: Match, rules: Rules, now: float | None = None) -> float | None:
    """When the pending decision times out (R10); ``None`` when nobody must act."""
    if not m.to_act():
        return None
    seconds = rules.decision_seconds or m.options.timer_for(m.ruleset)
    return (time.time() if now is None else now) + seconds


def hand_summary(m: Match) -> dict[str, Any]:
    """Public facts of the hand that just ended (no covered card is named)."""
    last = m.hand_log[-1][1].act if m.hand_log else None
    return {
        "hand": m.hand_number,
        "winner": m.hand_winner,
        "points": list(m.points),
        "score": list(m.score),
        "stake": m.stake,
        "ran": last in (Act.RUN, Act.RUN11),
        "iron": m.kind == HandKind.IRON,
        "rounds": list(m.rounds),
        "last": [[st, None if cov else c.code] for st, c, cov in (m.past[-1] if m.past else ())],
    }


# ----------------------------------------------------------------------- lobby


def open_table(
    db: Database,
    chat_id: int,
    thread_id: int | None,
    creator: Player,
    request: TableRequest,
    *,
    private: bool = False,
) -> Game:
    """A new lobby (group) with the creator seated; ``Refused`` if a table is open."""
    with db.session() as s:
        if active_game(s, chat_id, thread_id) is not None:
            raise Refused("table_exists")
        seats: list[Seat | None] = [None] * request.options.players
        seats[0] = Seat(name=creator.name, user=creator.id)
        game = Game(
            chat_id=chat_id,
            thread_id=thread_id,
            private=private,
            creator_id=creator.id,
            variant=request.variant,
            options=dump_options(request.options),
            seats=dump_seats(seats),
            seed=0,
        )
        s.add(game)
        s.flush()
        _event(s, game, 0, "open", 0, creator.id, variant=request.variant)
        s.commit()
        return game


def robot_seat(level: str, seat: int) -> Seat:
    """A robot of a level for a seat."""
    return Seat(name=ROBOT_NAMES[seat % len(ROBOT_NAMES)], robot=level)


def lobby_change(
    db: Database, game_id: int, user: Player, op: str, *, authorised: bool, rules: Rules
) -> Change:
    """Join, leave, add or remove a robot, start or cancel a lobby."""
    if op == "go":
        if not authorised:
            raise Refused("only_creator")
        return start_game(db, game_id, rules)
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused("no_game")
        if game.status != "lobby":
            raise Refused("not_lobby")
        seats = load_seats(game)
        mine = seat_of(seats, user.id)
        expected = game.version
        if op == "j":
            if mine is not None:
                raise Refused("already_seated")
            free = next((i for i, x in enumerate(seats) if x is None), None)
            if free is None:
                raise Refused("table_full")
            seats[free] = Seat(name=user.name, user=user.id)
            _save(s, game, expected, seats=dump_seats(seats))
            _event(s, game, expected + 1, "join", free, user.id)
        elif op == "s":
            if mine is None:
                raise Refused("not_seated")
            seats[mine] = None
            if not any(x and x.user for x in seats):
                _save(s, game, expected, seats=dump_seats(seats), status="cancelled")
            else:
                _save(s, game, expected, seats=dump_seats(seats))
            _event(s, game, expected + 1, "leave", mine, user.id)
        elif op in ("r1", "r2", "r3"):
            free = next((i for i, x in enumerate(seats) if x is None), None)
            if free is None:
                raise Refused("table_full")
            level = LEVELS[int(op[1]) - 1]
            seats[free] = robot_seat(level, free)
            _save(s, game, expected, seats=dump_seats(seats))
            _event(s, game, expected + 1, "robot", free, user.id, level=level)
        elif op == "rm":
            robots = [i for i, x in enumerate(seats) if x and x.robot]
            if not robots:
                raise Refused("no_robot")
            seats[robots[-1]] = None
            _save(s, game, expected, seats=dump_seats(seats))
            _event(s, game, expected + 1, "unrobot", robots[-1], user.id)
        elif op == "x":
            if not authorised:
                raise Refused("only_creator")
            _save(s, game, expected, status="cancelled", deadline_at=None)
            _event(s, game, expected + 1, "cancel", None, user.id)
        else:
            raise Refused("bad_button")
        s.commit()
        return _change(game, None, seats)


def pending_starts(s: Session, game: Game) -> list[str]:
    """Names of seated people who never opened a private chat with the bot."""
    names = []
    for x in load_seats(game):
        if x is not None and x.user is not None:
            p = s.get(Player, x.user)
            if p is None or not p.started:
                names.append(x.name)
    return names


def start_game(db: Database, game_id: int, rules: Rules, match: Match | None = None) -> Change:
    """Fill empty seats with robots and deal the first hand."""
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused("no_game")
        if game.status != "lobby":
            raise Refused("not_lobby")
        missing = pending_starts(s, game)
        if missing:
            raise Refused("must_start", names=", ".join(missing))
        seats = load_seats(game)
        seats = [x or robot_seat(DEFAULT_LEVEL, i) for i, x in enumerate(seats)]
        if match is None:
            seed = rules.seed if rules.seed is not None else secrets.randbelow(2**31)
            match = Match(game.variant, load_options(game), seed)
        expected = game.version
        _save(
            s,
            game,
            expected,
            seats=dump_seats(seats),
            status="playing",
            seed=match.seed,
            snapshot=json.dumps(match.to_json()),
            deadline_at=deadline_for(match, rules),
        )
        _event(s, game, expected + 1, "start", seed=match.seed, seats=[x.name for x in seats])
        _event(s, game, expected + 1, "deal", hand=match.hand_number)
        s.commit()
        return _change(game, match, seats)


def rematch(db: Database, game_id: int, user_id: int, rules: Rules) -> Change:
    """A new match with the same seats (Revanche), if the presser played and no table is open."""
    with db.session() as s:
        old = s.get(Game, game_id)
        if old is None or old.status != "over":
            raise Refused("no_game")
        seats = load_seats(old)
        if seat_of(seats, user_id) is None:
            raise Refused("not_seated")
        if active_game(s, old.chat_id, old.thread_id) is not None:
            raise Refused("table_exists")
        match = load_match(old).rematch()
        if rules.seed is not None:
            match = Match(old.variant, load_options(old), rules.seed + old.id if old.id else 0)
        game = Game(
            chat_id=old.chat_id,
            thread_id=old.thread_id,
            private=old.private,
            creator_id=user_id,
            variant=old.variant,
            options=old.options,
            seats=old.seats,
            seed=match.seed,
            rematch_of=old.id,
        )
        s.add(game)
        s.flush()
        _event(s, game, 0, "open", None, user_id, rematch_of=old.id)
        s.commit()
        new_id = game.id or 0
    return start_game(db, new_id, rules, match)


def cancel(db: Database, game_id: int, user_id: int, *, authorised: bool) -> Change:
    """Cancel a lobby or a match (creator or admin)."""
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None or game.status not in ACTIVE:
            raise Refused("no_game")
        if not authorised:
            raise Refused("only_creator")
        expected = game.version
        _save(s, game, expected, status="cancelled", deadline_at=None)
        _event(s, game, expected + 1, "cancel", None, user_id)
        s.commit()
        return _change(game, None, load_seats(game))


# --------------------------------------------------------------------- actions


def _store_move(
    s: Session,
    game: Game,
    expected: int,
    m: Match,
    seats: Sequence[Seat | None],
    rules: Rules,
    note: str | None = None,
) -> Change:
    """Close the hand or match if it ended, then commit the new state with its deadline."""
    status = _finish(s, game, m, seats, expected + 1)
    values: dict[str, Any] = {"note": note} if note is not None else {}
    _save(
        s,
        game,
        expected,
        snapshot=json.dumps(m.to_json()),
        status=status,
        deadline_at=deadline_for(m, rules) if status == "playing" else None,
        **values,
    )
    s.commit()
    return _change(game, m, seats)


def _finish(s: Session, game: Game, m: Match, seats: Sequence[Seat | None], version: int) -> str:
    """Record hand and match ends; deal the next hand. Returns the new status."""
    if m.phase == Phase.HAND_OVER:
        _event(s, game, version, "hand_over", **hand_summary(m))
        m.deal()
        _event(s, game, version, "deal", hand=m.hand_number)
        return "playing"
    if m.phase == Phase.MATCH_OVER:
        _event(s, game, version, "hand_over", **hand_summary(m))
        _event(s, game, version, "match_over", winner=m.match_winner, score=list(m.score))
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
        return "over"
    return "playing"


def act(
    db: Database,
    game_id: int,
    expected: int,
    seat: int | None,
    action: Action,
    rules: Rules,
    *,
    user_id: int | None = None,
    source: str = "button",
) -> Change:
    """Apply one seat's action, made for version ``expected``, and store it.

    ``seat`` is the robot's seat for robots; for people it is found from ``user_id``.
    """
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise Refused("no_game")
        if game.status != "playing":
            raise Refused("game_over" if game.status in ("over", "cancelled") else "not_started")
        if game.version != expected:
            raise Stale()
        seats = load_seats(game)
        if user_id is not None:
            seat = seat_of(seats, user_id)
            if seat is None:
                raise Refused("not_seated")
        if seat is None:
            raise Refused("not_seated")
        m = load_match(game)
        if seat not in m.to_act():
            raise Refused("not_your_turn")
        if action not in m.legal_actions(seat):
            raise Refused("illegal")
        m.apply(seat, action)
        version = expected + 1
        _event(s, game, version, source, seat, user_id, action=str(action), hand=m.hand_number)
        return _store_move(s, game, expected, m, seats, rules)


def time_out(db: Database, game_id: int, expected: int, rules: Rules) -> Change | None:
    """Apply the default action (R10) of every seat that let its deadline pass.

    ``None`` when the game moved on in the meantime (nothing to do).
    """
    with db.session() as s:
        game = s.get(Game, game_id)
        if game is None or game.status != "playing" or game.version != expected:
            return None
        if game.deadline_at is None or game.deadline_at > time.time() + 0.05:
            return None
        seats = load_seats(game)
        m = load_match(game)
        version = expected + 1
        hand = m.hand_number
        done: list[list[Any]] = []
        for seat in m.to_act():
            if seat not in m.to_act():
                continue  # a partner's default already settled it
            action = m.default_action(seat)
            if action is None:
                continue
            m.apply(seat, action)
            shown = str(m.log[-1][1])  # blind plays are logged with the card they revealed
            done.append([seat, shown])
            _event(s, game, version, "timeout", seat, None, action=str(action), hand=hand)
        note = json.dumps({"hand": hand, "items": done})
        return _store_move(s, game, expected, m, seats, rules, note=note)


# ----------------------------------------------------------------------- reads


def load_game(db: Database, game_id: int) -> Game | None:
    """A game row, detached."""
    with db.session() as s:
        return s.get(Game, game_id)


def games_to_resume(db: Database) -> list[Game]:
    """Every lobby and match not finished, plus finished ones whose closing is unsent."""
    with db.session() as s:
        q = select(Game).where(
            col(Game.status).in_(ACTIVE)
            | ((Game.status == "over") & (col(Game.announced_end).is_(False)))
        )
        return list(s.exec(q))


def change_of(game: Game) -> Change:
    """The ``Change`` describing a game's current state (for rescheduling)."""
    m = load_match(game) if game.snapshot else None
    return _change(game, m, load_seats(game))


def events_of(db: Database, game_id: int, kind: str | None = None) -> list[Event]:
    """A game's event log in order."""
    with db.session() as s:
        q = select(Event).where(Event.game_id == game_id)
        if kind:
            q = q.where(Event.kind == kind)
        return list(s.exec(q.order_by(col(Event.id))))


def ranking(db: Database, chat_id: int, limit: int = 10) -> list[tuple[str, int, int]]:
    """(name, wins, matches) of the chat's players, best first."""
    with db.session() as s:
        wins = func.sum(case((col(Result.won), 1), else_=0))
        q = (
            select(Result.user_id, func.max(Result.name), func.count(), wins)
            .where(Result.chat_id == chat_id)
            .group_by(Result.user_id)
        )
        rows = [(name, int(w or 0), int(n)) for _, name, n, w in s.exec(q)]
    rows.sort(key=lambda r: (-r[1], -(r[1] / r[2] if r[2] else 0), r[0]))
    return rows[:limit]
