"""Dealing a lobby (``start``), and the Revanche lobby's wait for its people."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session, col, select

from bot.domain import jobs
from bot.domain.models import Event, Game, Player
from bot.domain.store import Database
from bot.domain.tables.changes import commit, deadline_for
from bot.domain.tables.points import announce, points_said
from bot.domain.tables.rows import (
    GameRow,
    game_for_change,
    load_options,
    read_seats,
    record_event,
    save,
    store_seats,
    stored_match,
)
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import DEFAULT_LEVEL, Change, GameStatus, Occupant, RobotLevel
from bot.domain.values.settings import Rules
from engine import Match

ROBOT_NAMES = ("Zé", "Tonho", "Cida", "Dita")


def robot(level: RobotLevel, seat: int) -> Occupant:
    """A robot of a level for a seat."""
    return Occupant(name=ROBOT_NAMES[seat % len(ROBOT_NAMES)], robot=level)


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
        game = game_for_change(s, game_id)
        if game.status != GameStatus.LOBBY:
            raise Refused(Reason.NOT_LOBBY)
        options = load_options(game.options)
        seats = read_seats(s, game, options.players)
        # a Revanche's people who did not confirm: a robot (at the level of the table's
        # robots, if it has some) plays each seat for its person, as its lobby said, until
        # they take it back with 🙋 Voltei, which their private hand message offers
        waiting = rematch_waiting(s, game, seats)
        level = next((x.robot for x in seats if x is not None and x.robot), DEFAULT_LEVEL)
        seats = [replace(x, robot=level) if x and x.user in waiting else x for x in seats]
        # a robot plays a latecomer's seat: their private chat is not needed to deal
        missing = pending_starts(s, [x for x in seats if x is None or not x.robot])
        if missing:
            raise Refused(Reason.MUST_START, names=", ".join(missing))
        full = [x or robot(DEFAULT_LEVEL, i) for i, x in enumerate(seats)]
        if match is None:
            seed = rules.seed if rules.seed is not None else secrets.randbelow(2**31)
            match = Match(game.variant, options, seed)
        expected = game.version
        save(
            s,
            game,
            expected,
            status=GameStatus.PLAYING,
            seed=match.seed,
            snapshot=json.dumps(match.to_json()),
            deadline_at=deadline_for(match, rules),
        )
        store_seats(s, game_id, full)
        record_event(s, game, expected + 1, "start", seed=match.seed, seats=[x.name for x in full])
        record_event(s, game, expected + 1, "deal", hand=match.hand_number)
        announce(s, game, expected + 1, points_said(match, None, None, ()), full, part="deal")
        for i, x in enumerate(full):
            if x is not None and x.user in waiting:
                record_event(s, game, expected + 1, "away", i, x.user, level=level.value)
        return commit(s, game, match, full, rules)


REMATCH_SECONDS = 60.0
"""How long a Revanche lobby waits for the old match's people to confirm; then a robot
plays the seat of each who did not (the lobby says so) until they come back."""


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


def start_rematch(db: Database, game_id: int, rules: Rules) -> Change:
    """Deal a confirmed Revanche: the old match's rematch deal (or the test seed's)."""
    match = None
    with db.session() as s:
        game = s.get(Game, game_id)
        old = s.get(Game, game.rematch_of) if game and game.rematch_of else None
        if old is not None and old.snapshot:
            match = stored_match(old).rematch()
            if rules.seed is not None:
                match = Match(old.variant, load_options(old.options), rules.seed + (old.id or 0))
    return start(db, game_id, rules, match)


def rematch_deadline(db: Database, change: Change, due: float) -> None:
    """(Re)schedule the Revanche lobby's wait (a lobby's changes drop deadline jobs)."""
    with db.session() as s:
        wait = jobs.DeadlineJob(change.game_id, change.version)
        jobs.schedule(s, str(change.game_id), due, wait)
        s.commit()


def rematch_time_out(db: Database, s: Session, game: Game, rules: Rules) -> Change | None:
    """A Revanche lobby's wait is over: a robot (at the level of the table's robots, if
    it has some) plays each seat still waiting for its person, and the match starts."""
    if game.rematch_of is None or game.deadline_at is None:
        return None
    if game.deadline_at > rules.clock() + 0.05:
        return None
    s.rollback()  # nothing read here is written: start() does it in its own session
    try:
        return start_rematch(db, game.id or 0, rules)
    except Refused:  # someone left the bot's private chat meanwhile: the lobby stays
        return None
