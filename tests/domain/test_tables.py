"""The domain layer alone: lobby, start, Revanche, cancel, deadlines, absent seats and
signals on SQLite, on a clock the test holds, with no Telegram (the same rules the bot
tests reach through it)."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator, Sequence
from itertools import count
from typing import Any

import pytest

from bot.domain import (
    AddRobot,
    CancelTable,
    Database,
    GameStatus,
    Join,
    Leave,
    LobbyCommand,
    Person,
    Reason,
    Refused,
    RemoveRobot,
    RobotLevel,
    Rules,
    Stale,
    Start,
    flood,
    messages,
    miniapp,
    people,
    presence,
    tables,
)
from bot.domain import jobs as store
from bot.domain.tables import news
from bot.domain.tables.rows import GameRow, game_row
from bot.domain.values.drawings import HandMessageInfo, Ping
from bot.domain.values.game import Change
from bot.robot_workers import decide
from bot.telegram.arguments import truco_request
from engine.actions import Act, Action
from engine.turns import RobotTurn

ANA, BETO, CIDA, DITA = (Person(i, n) for i, n in enumerate(("Ana", "Beto", "Cida", "Dita"), 1))
CHATS = count(-100, -1)
# the modules, not the package's functions of the same name
lobby_rows = importlib.import_module("bot.domain.tables.lobby")
starting_rows = importlib.import_module("bot.domain.tables.starting")


class Clock:
    """Time that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        """The time now."""
        return self.now


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """One migrated SQLite database for the module; each test plays in its own chat."""
    path = tmp_path_factory.mktemp("domain") / "domain.db"
    database = Database(f"sqlite:///{path}")
    for p in (ANA, BETO, CIDA, DITA):
        people.meet(database, p, started=True)
    yield database
    database.close()


@pytest.fixture
def clock() -> Clock:
    """A clock of the test's own."""
    return Clock()


@pytest.fixture
def group() -> int:
    """A group chat no other test plays in."""
    return next(CHATS)


def rules_on(clock: Clock) -> Rules:
    return Rules(decision_seconds=30, seed=7, clock=clock, robot_delay=0)


def open_and_start(
    db: Database, group: int, rules: Rules, args: list[str], seated: list[Person]
) -> int:
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, seated[0], truco_request(args, chat))
    for p in seated[1:]:
        tables.lobby(db, table.id, p, Join(), authorised=False, rules=rules)
    tables.lobby(db, table.id, seated[0], Start(), authorised=True, rules=rules)
    return table.id


def test_a_group_speaks_spanish_when_first_heard_from_a_spanish_speaker_only(db: Database) -> None:
    spanish, english, older = next(CHATS), next(CHATS), next(CHATS)
    assert people.group_language(db, spanish, "supergroup", "Galpón", "es-AR") == "es"
    assert people.group_language(db, spanish, "supergroup", "Galpón", "pt-br") == "es"
    assert people.chat_settings(db, spanish).language == "es"
    # English, a phone setting many Brazilians keep, leaves the group in Portuguese
    assert people.group_language(db, english, "supergroup", "Firma", "en-US") == "pt"
    assert people.group_language(db, english, "supergroup", "Firma", "es-AR") == "pt"
    # a group the bot already keeps is never changed by who speaks there
    people.chat_settings(db, older)
    assert people.group_language(db, older, "supergroup", "", "es") == "pt"


@pytest.mark.parametrize("press", ["join", "start"])
def test_a_lobby_press_raced_by_another_stands(
    db: Database, clock: Clock, group: int, monkeypatch: pytest.MonkeyPatch, press: str
) -> None:
    # two presses at once (two replicas, or two threads of one): the other one is stored
    # between this one's read and its write; a lobby press holds for the lobby as it is
    # then, and is not refused as a move that came too late ("Essa jogada já passou.")
    rules = rules_on(clock)
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, ANA, truco_request(["2x2"], chat))
    tables.lobby(db, table.id, BETO, Join(), authorised=False, rules=rules)
    raced: list[str] = []
    real = lobby_rows.read_seats

    def read_then_race(s: Any, game: Any, *args: Any) -> Any:
        seats = real(s, game, *args)
        if not raced:
            raced.append("cida")
            tables.lobby(db, table.id, CIDA, Join(), authorised=False, rules=rules)
        return seats

    for module in (lobby_rows, starting_rows):
        monkeypatch.setattr(module, "read_seats", read_then_race)
    if press == "join":
        tables.lobby(db, table.id, DITA, Join(), authorised=False, rules=rules)
        expected = {ANA.id, BETO.id, CIDA.id, DITA.id}
        status = GameStatus.LOBBY
    else:
        tables.lobby(db, table.id, ANA, Start(), authorised=True, rules=rules)
        expected = {ANA.id, BETO.id, CIDA.id}
        status = GameStatus.PLAYING
    assert raced == ["cida"]
    now = tables.load(db, table.id)
    assert now is not None and now.status == status
    assert {x.user for x in now.seats if x is not None and x.user} == expected


def test_only_the_opener_or_an_admin_starts_and_the_deadline_runs_on_the_rules_clock(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, ANA, truco_request(["1x1"], chat))
    tables.lobby(db, table.id, BETO, Join(), authorised=False, rules=rules)
    with pytest.raises(Refused) as refused:
        tables.lobby(db, table.id, BETO, Start(), authorised=False, rules=rules)
    assert refused.value.reason == Reason.ONLY_CREATOR
    change = tables.lobby(db, table.id, ANA, Start(), authorised=True, rules=rules)
    assert change.status == GameStatus.PLAYING and change.robot_seat is None
    assert change.deadline_at == clock.now + 30
    kinds = {kind for kind, _key, _due in store.waiting(db)}
    assert {"deadline", "table", "hands"} <= kinds  # recorded with the change


def test_a_robot_seat_gets_its_turn_recorded_with_the_change(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, ANA, truco_request(["1x1"], chat))
    tables.lobby(db, table.id, ANA, AddRobot(RobotLevel.FACIL), authorised=True, rules=rules)
    change = tables.lobby(db, table.id, ANA, Start(), authorised=True, rules=rules)
    loaded = tables.load(db, change.game_id)
    assert loaded is not None
    turn = tables.robot_turn_of(loaded)
    if loaded.shown.to_act() == (1,):  # the robot is mão: its turn is recorded, no deadline
        assert turn is not None and turn.seat == 1 and change.robot_seat == 1
        assert "robot" in {kind for kind, _key, _due in store.waiting(db)}
    else:
        assert turn is None and change.robot_seat is None and change.deadline_at is not None


def test_a_timeout_waits_for_the_clock_then_plays_the_default(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["1x1"], [ANA, BETO])
    table = tables.load(db, gid)
    assert table is not None
    seat = table.shown.to_act()[0]
    default = table.shown.default_action(seat)
    assert tables.time_out(db, gid, table.version, rules) is None  # not due yet
    clock.now += 31
    change = tables.time_out(db, gid, table.version, rules)
    assert change is not None and change.version > table.version
    after = tables.load(db, gid)
    assert after is not None and after.note is not None
    assert (seat, default) in after.note.items
    assert tables.time_out(db, gid, table.version, rules) is None  # that version is gone


def test_two_changes_for_one_version_store_one_and_a_cancel_ends_the_match(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["1x1"], [ANA, BETO])
    table = tables.load(db, gid)
    assert table is not None
    seat = table.shown.to_act()[0]
    user = (ANA, BETO)[seat].id
    action = table.shown.legal_actions(seat)[0]
    tables.act(db, gid, table.version, None, action, rules, user_id=user)
    with pytest.raises(Stale):
        tables.act(db, gid, table.version, None, action, rules, user_id=user)
    with pytest.raises(Refused) as refused:
        tables.lobby(db, gid, BETO, CancelTable(), authorised=True, rules=rules)
    assert refused.value.reason == Reason.NOT_LOBBY  # a match is cancelled, not its lobby
    with pytest.raises(Refused) as refused:
        tables.cancel(db, gid, BETO.id, authorised=False, rules=rules)
    assert refused.value.reason == Reason.ONLY_CREATOR
    change = tables.cancel(db, gid, ANA.id, authorised=True, rules=rules)
    assert change.status == GameStatus.CANCELLED
    assert [e.kind for e in messages.events_of(db, gid, "cancel")] == ["cancel"]
    with pytest.raises(Refused):
        tables.cancel(db, gid, ANA.id, authorised=True, rules=rules)


def test_an_ask_made_before_the_first_hand_message_is_recorded_stands(
    db: Database, clock: Clock, group: int
) -> None:
    # Ana follows the table's link while her first hand message is on its way (sent, not
    # yet recorded): that message lies above her /start, so the ask outlives its record
    # and the next redraw brings the hand down
    gid = open_and_start(db, group, rules_on(clock), ["1x1"], [ANA, BETO])
    table = tables.load(db, gid)
    seat = table.seat_of(ANA.id) if table is not None else None
    assert seat is not None
    messages.ask_for_hand(db, gid, seat)
    first = HandMessageInfo(ANA.id, 3, 0, "drawn before the ask", Ping.TURN)
    messages.save_hand_message(db, gid, seat, first, saw_ask=False)
    drawing = messages.hands_drawing(db, gid)
    assert drawing is not None
    row = drawing.messages[seat]
    assert (row.message_id, row.ping) == (3, Ping.ASKED)
    # a message drawn after the ask answers it
    answer = HandMessageInfo(ANA.id, 4, 0, "drawn after the ask", Ping.NONE)
    messages.save_hand_message(db, gid, seat, answer, saw_ask=True)
    drawing = messages.hands_drawing(db, gid)
    assert drawing is not None and drawing.messages[seat].ping == Ping.NONE


def test_a_signal_is_a_change_of_its_own_that_spends_no_turn(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["2x2"], [ANA, BETO, CIDA, DITA])
    table = tables.load(db, gid)
    assert table is not None
    seat = table.shown.to_act()[0]
    view = table.view(seat)
    assert view.legal_signals, "sinais are on in 2x2 by default"
    sign = view.legal_signals[0]
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user is not None
    user = occupant.user
    change = tables.act(db, gid, table.version, None, sign, rules, user_id=user)
    assert change.version == table.version + 1
    after = tables.load(db, gid)
    assert after is not None and after.shown.to_act() == table.shown.to_act()  # no turn spent
    assert sign.act == Act.SIGNAL and not after.view(seat).legal_signals  # one per round


def test_the_lobby_seats_each_person_once_and_refuses_what_does_not_fit(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, ANA, truco_request(["1x1"], chat))

    def refused(user: Person, command: LobbyCommand, **kw: int) -> Reason:
        with pytest.raises(Refused) as caught:
            tables.lobby(db, table.id, user, command, authorised=False, rules=rules, **kw)
        return caught.value.reason

    assert refused(ANA, Join()) == Reason.ALREADY_SEATED
    assert refused(BETO, Leave()) == Reason.NOT_SEATED
    assert refused(BETO, AddRobot(RobotLevel.FACIL)) == Reason.ROBOTS_NOT_ALLOWED
    assert refused(ANA, RemoveRobot()) == Reason.NO_ROBOT
    drawn = tables.load(db, table.id)
    assert drawn is not None
    tables.lobby(db, table.id, ANA, AddRobot(RobotLevel.MEDIO), authorised=False, rules=rules)
    # the same button pressed again on the same drawing: one robot, not two
    assert refused(ANA, AddRobot(RobotLevel.MEDIO), expected=drawn.version) == Reason.LOBBY_REPEAT
    # a full table of people and robots: a person's Entrar takes the robot's seat
    tables.lobby(db, table.id, BETO, Join(), authorised=False, rules=rules)
    seated = tables.load(db, table.id)
    assert seated is not None
    assert [x.name if x else None for x in seated.seats] == ["Ana", "Beto"]
    assert not any(x and x.robot for x in seated.seats)
    assert refused(CIDA, Join()) == Reason.TABLE_FULL  # people only: nobody yields
    # when the last person leaves, the lobby is gone
    tables.lobby(db, table.id, BETO, Leave(), authorised=False, rules=rules)
    change = tables.lobby(db, table.id, ANA, Leave(), authorised=False, rules=rules)
    assert change.status == GameStatus.CANCELLED
    assert tables.active_table(db, group, None) is None


def play_defaults(
    db: Database, gid: int, rules: Rules, seated: list[Person], until: int | None = None
) -> int:
    """The people play their default actions (R10) until the match is over, or until the
    seat ``until`` must act; returns the table's version then."""
    while True:
        table = tables.load(db, gid)
        assert table is not None
        if table.status != GameStatus.PLAYING:
            assert until is None, "the match ended before that seat's turn"
            return table.version
        now = table.shown.to_act()[0]
        if now == until:
            return table.version
        action = table.shown.default_action(now)
        assert action is not None
        tables.act(db, gid, table.version, None, action, rules, user_id=seated[now].id)


def test_a_revanche_waits_for_its_people_then_gives_the_late_seat_to_a_robot(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["1x1"], [ANA, BETO])
    with pytest.raises(Refused) as refused:
        tables.rematch(db, gid, ANA.id, rules)
    assert refused.value.reason == Reason.NOT_OVER
    play_defaults(db, gid, rules, [ANA, BETO])
    with pytest.raises(Refused) as refused:
        tables.rematch(db, gid, CIDA.id, rules)
    assert refused.value.reason == Reason.NOT_SEATED  # only the match's people ask for one
    lobby = tables.rematch(db, gid, ANA.id, rules)
    assert lobby.status == GameStatus.LOBBY and lobby.game_id != gid
    assert tables.time_out(db, lobby.game_id, lobby.version, rules) is None  # Beto has time
    clock.now += tables.REMATCH_SECONDS + 1
    started = tables.time_out(db, lobby.game_id, lobby.version, rules)
    assert started is not None and started.status == GameStatus.PLAYING
    table = tables.load(db, lobby.game_id)
    assert table is not None
    ana, beto = table.seats
    assert ana is not None and ana.user == ANA.id and not ana.robot
    # Beto did not confirm: a robot plays his seat for him, until his 🙋 Voltei
    assert beto is not None and beto.robot and beto.user == BETO.id and beto.name == "Beto"
    assert [e.seat for e in messages.events_of(db, lobby.game_id, "away")] == [1]
    with pytest.raises(Refused) as refused:
        tables.rematch(db, gid, BETO.id, rules)
    assert refused.value.reason == Reason.REMATCH_PLAYING
    tables.come_back(db, lobby.game_id, BETO.id, rules)
    back = tables.load(db, lobby.game_id)
    assert back is not None and back.seats[1] is not None and back.seats[1].robot is None
    # the Revanche of a match a robot ended for Beto seats Beto again, to confirm
    play_defaults(db, lobby.game_id, rules, [ANA, BETO])
    again = tables.rematch(db, lobby.game_id, ANA.id, rules)
    table = tables.load(db, again.game_id)
    assert table is not None and table.status == GameStatus.LOBBY
    assert [(x.user, x.robot) for x in table.seats if x] == [(ANA.id, None), (BETO.id, None)]


def test_a_person_takes_a_robots_seat_with_entrar_or_a_team(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    chat = people.chat_settings(db, group)
    table = tables.open_table(db, group, None, ANA, truco_request(["2x2"], chat))
    for _ in range(3):
        tables.lobby(db, table.id, ANA, AddRobot(RobotLevel.FACIL), authorised=True, rules=rules)

    def seats() -> list[tuple[str, bool]]:
        loaded = tables.load(db, table.id)
        assert loaded is not None
        return [(x.name, bool(x.robot)) if x else ("", False) for x in loaded.seats]

    assert seats() == [("Ana", False), ("Tonho", True), ("Cida", True), ("Dita", True)]
    # Beto chooses Ana's team, whose other seat a robot holds: the robot leaves
    tables.lobby(db, table.id, BETO, Join(0), authorised=False, rules=rules)
    assert seats() == [("Ana", False), ("Tonho", True), ("Beto", False), ("Dita", True)]
    # Cida's Entrar takes the last robot's seat
    tables.lobby(db, table.id, CIDA, Join(), authorised=False, rules=rules)
    assert seats() == [("Ana", False), ("Tonho", True), ("Beto", False), ("Cida", False)]
    # Beto moves to team 2: the robot there takes the seat he leaves
    tables.lobby(db, table.id, BETO, Join(1), authorised=False, rules=rules)
    assert seats() == [("Ana", False), ("Beto", False), ("Tonho", True), ("Cida", False)]
    # a team of people keeps its seats
    with pytest.raises(Refused) as refused:
        tables.lobby(db, table.id, DITA, Join(1), authorised=False, rules=rules)
    assert refused.value.reason == Reason.TEAM_FULL
    tables.lobby(db, table.id, DITA, Join(), authorised=False, rules=rules)
    assert [name for name, robot in seats() if robot] == []


def test_a_revanche_starts_at_once_when_everyone_confirms(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["1x1"], [ANA, BETO])
    play_defaults(db, gid, rules, [ANA, BETO])
    lobby = tables.rematch(db, gid, BETO.id, rules)
    assert lobby.status == GameStatus.LOBBY
    started = tables.rematch(db, gid, ANA.id, rules)  # the old result's button confirms
    assert started.status == GameStatus.PLAYING and started.game_id == lobby.game_id
    table = tables.load(db, started.game_id)
    assert table is not None
    assert [x.user for x in table.seats if x is not None] == [ANA.id, BETO.id]


def test_a_revanche_pressed_in_the_app_counts_its_presser_there_before_its_deal(
    db: Database, clock: Clock, group: int
) -> None:
    # the job that draws the first hand's messages may run before the page's call comes
    # back: whoever pressed in the app is there already, in the transaction that deals
    rules = rules_on(clock)
    gid = open_and_start(db, group, rules, ["1x1"], [ANA, BETO])
    play_defaults(db, gid, rules, [ANA, BETO])
    lobby = tables.rematch(db, gid, BETO.id, rules, in_app=True)
    assert presence.in_app(db, lobby.game_id, clock.now) == {BETO.id}
    started = tables.rematch(db, gid, ANA.id, rules, in_app=True)
    assert started.status == GameStatus.PLAYING
    assert presence.in_app(db, started.game_id, clock.now) == {ANA.id, BETO.id}
    # pressed in the group, the Revanche counts nobody as in the app
    play_defaults(db, started.game_id, rules, [ANA, BETO])
    again = tables.rematch(db, started.game_id, ANA.id, rules)
    assert presence.in_app(db, again.game_id, clock.now) == frozenset()


def test_two_timeouts_in_a_row_give_the_seat_to_a_robot_until_the_person_comes_back(
    db: Database, clock: Clock, group: int
) -> None:
    rules = rules_on(clock)
    seated = [ANA, BETO]
    gid = open_and_start(db, group, rules, ["1x1"], seated)
    table = tables.load(db, gid)
    assert table is not None
    late = table.shown.to_act()[0]
    with pytest.raises(Refused) as refused:
        tables.come_back(db, gid, seated[late].id, rules)
    assert refused.value.reason == Reason.DONE  # nobody plays for them yet
    clock.now += 31
    assert tables.time_out(db, gid, table.version, rules) is not None  # a strike
    version = play_defaults(db, gid, rules, seated, until=late)
    clock.now += 31
    assert tables.time_out(db, gid, version, rules) is not None  # the second one in a row
    away = tables.load(db, gid)
    assert away is not None and away.status == GameStatus.PLAYING
    occupant = away.seats[late]
    assert occupant is not None and occupant.user == seated[late].id and occupant.robot
    assert "away" in {e.kind for e in messages.events_of(db, gid, "away")}
    tables.come_back(db, gid, seated[late].id, rules)
    back = tables.load(db, gid)
    assert back is not None
    occupant = back.seats[late]
    assert occupant is not None and occupant.robot is None


def test_the_table_votes_an_absent_seat_to_a_robot(db: Database, clock: Clock, group: int) -> None:
    rules = rules_on(clock)
    seated = [ANA, BETO, CIDA, DITA]
    gid = open_and_start(db, group, rules, ["2x2"], seated)
    table = tables.load(db, gid)
    assert table is not None
    late = table.shown.to_act()[0]
    voters = [i for i in range(4) if i != late]
    with pytest.raises(Refused) as refused:
        tables.vote_robot(db, gid, seated[voters[0]].id, late, rules)
    assert refused.value.reason == Reason.NOT_ABSENT  # no timeout yet
    clock.now += 31
    assert tables.time_out(db, gid, table.version, rules) is not None
    with pytest.raises(Refused) as refused:
        tables.vote_robot(db, gid, seated[late].id, late, rules)
    assert refused.value.reason == Reason.BAD_BUTTON  # nobody votes themselves away
    _change, missing = tables.vote_robot(db, gid, seated[voters[0]].id, late, rules)
    assert missing == 1  # two of the three others
    _change, missing = tables.vote_robot(db, gid, seated[voters[1]].id, late, rules)
    assert missing == 0
    voted = tables.load(db, gid)
    assert voted is not None
    occupant = voted.seats[late]
    assert occupant is not None and occupant.robot and occupant.user == seated[late].id


def table_due(db: Database, group: int) -> float:
    """When the group's table redraw is due."""
    key = store.table_key(group, None)
    [due] = [due for _kind, k, due in store.waiting(db, "table") if k == key]
    return due


def test_a_match_played_in_the_app_records_its_group_table_for_the_gap_unless_news(
    db: Database, clock: Clock, group: int
) -> None:
    # while everyone seated plays in the Mini App the group's table is drawn once a gap:
    # a move that tells the group nothing records the redraw for then, not for now; and no
    # move redraws the hands (their messages point to the app), news or not
    rules = rules_on(clock)
    seated = [ANA, BETO]
    gid = open_and_start(db, group, rules, ["1x1"], seated)
    key = store.table_key(group, None)

    def redrawn() -> None:  # the redraws ran: their jobs are gone
        with db.session() as s:
            store.cancel(s, "table", key)
            store.cancel(s, "hands", str(gid))
            s.commit()

    def hands_redrawn() -> bool:
        return str(gid) in {k for _kind, k, _due in store.waiting(db, "hands")}

    def play_card() -> None:
        table = tables.load(db, gid)
        assert table is not None
        seat = table.shown.to_act()[0]
        card = next(a for a in table.shown.legal_actions(seat) if a.act == Act.PLAY)
        tables.act(db, gid, table.version, None, card, rules, user_id=seated[seat].id)

    for p in seated:
        redrawn()
        presence.present(db, gid, p.id, clock.now)
        assert hands_redrawn()  # the page opened: the hand message points there now
    presence.table_drawn(db, gid, clock.now)
    redrawn()
    presence.present(db, gid, ANA.id, clock.now)
    assert not hands_redrawn()  # still open: nothing to redraw
    clock.now += 5
    play_card()  # the hand's first card: no news for the group
    assert table_due(db, group) == clock.now - 5 + presence.APP_TABLE_GAP
    assert not hands_redrawn()
    redrawn()
    table = tables.load(db, gid)
    assert table is not None
    seat = table.shown.to_act()[0]
    truco = next(a for a in table.shown.legal_actions(seat) if a.act == Act.TRUCO)
    tables.act(db, gid, table.version, None, truco, rules, user_id=seated[seat].id)
    assert table_due(db, group) == clock.now  # a call is news: the group hears it now
    assert not hands_redrawn()  # but the hand messages point to the app whatever happens
    redrawn()
    presence.absent(db, gid, BETO.id)  # someone plays outside the app: every move shows
    table = tables.load(db, gid)
    assert table is not None
    seat = table.shown.to_act()[0]
    accept = next(a for a in table.shown.legal_actions(seat) if a.act == Act.ACCEPT)
    tables.act(db, gid, table.version, None, accept, rules, user_id=seated[seat].id)
    redrawn()
    play_card()
    assert table_due(db, group) == clock.now
    assert hands_redrawn()


def test_a_change_of_a_match_played_in_the_app_carries_the_table_its_pages_would_read(
    db: Database, clock: Clock, group: int
) -> None:
    # the pages of every replica draw the table a change carried instead of reading it
    # once each: it must be the very table, with how its hands ended, that they would read
    rules = rules_on(clock)
    seated = [ANA, BETO]
    gid = open_and_start(db, group, rules, ["1x1"], seated)

    def move(present: bool) -> Change:
        table = tables.load(db, gid)
        assert table is not None
        seat = table.shown.to_act()[0]
        if present:
            presence.present(db, gid, seated[seat].id, clock.now)
        else:
            presence.absent(db, gid, seated[seat].id)
        action = next(a for a in table.shown.legal_actions(seat) if a.act == Act.PLAY)
        return tables.act(db, gid, table.version, None, action, rules, user_id=seated[seat].id)

    change = move(present=False)
    assert change.page is None  # nobody has it open: nothing is carried
    ends = 0
    while ends < 2:
        change = move(present=True)
        assert change.page is not None
        read = miniapp.page_table(db, gid)
        assert read is not None and miniapp.carried_table(change.page) == read
        table, ended = change.page
        text = news.carried(rows_of(db, gid), table.seats, dict(table.stand_in_moves), ended)
        assert miniapp.carried_table(text) == read  # as another replica hears it
        ends = len(read.ended)
        if change.status != GameStatus.PLAYING:
            break
    assert ends >= 1
    assert miniapp.carried_table("not a table") is None  # read it instead


def rows_of(db: Database, gid: int) -> GameRow:
    with db.session() as s:
        row = game_row(s, gid)
    assert row is not None
    return row


class Holder:
    """A runner that hears of the robot turns its process's changes claim for it."""

    worker = "this-replica"
    lease = 10.0

    def __init__(self) -> None:
        self.heard: list[tuple[str, store.ClaimedJob | None, float | None]] = []
        self.redraws: list[store.ClaimedJob | None] = []

    def held(
        self,
        key: str,
        job: store.ClaimedJob | None,
        soonest: float | None,
        redraw: store.ClaimedJob | None = None,
    ) -> None:
        """Note what the change's commit told (the robot's turn; the hands' redraw too)."""
        self.heard.append((key, job, soonest))
        self.redraws.append(redraw)


def test_a_change_claims_the_robot_turn_it_calls_for_for_its_own_runner(
    db: Database, clock: Clock, group: int
) -> None:
    """A robot's turn is claimed in the transaction of the change that calls for it, for the
    process that made the change, until its lease after the due time: no other runner takes
    it meanwhile (and none needs a transaction to claim it). Once the turn is played and a
    person is to act, the runner hears that the game has no robot turn left."""
    holder = Holder()
    rules = Rules(decision_seconds=30, seed=7, clock=clock, robot_delay=1.0, holder=holder)
    chat = people.chat_settings(db, group)
    opened = tables.open_table(db, group, None, ANA, truco_request(["1x1"], chat))
    gid = opened.id
    tables.lobby(db, gid, ANA, AddRobot(RobotLevel.FACIL), authorised=True, rules=rules)
    change = tables.lobby(db, gid, ANA, Start(), authorised=True, rules=rules)
    while change.robot_seat is None:  # Ana plays until the robot is to act
        table = tables.load(db, gid)
        assert table is not None
        card = next(a for a in table.shown.legal_actions(0) if a.act == Act.PLAY)
        change = tables.act(db, gid, table.version, None, card, rules, user_id=ANA.id)
    assert change.robot_seat == 1 and change.timed
    key, job, soonest = holder.heard[-1]
    assert key == str(gid) and job is not None and soonest is not None
    assert (job.kind, job.key, job.due_at) == ("robot", str(gid), clock.now + 1.0)
    assert job.payload() == store.RobotJob(gid, change.version, 1)
    assert job.lease_until == job.due_at + holder.lease
    # so is the hands' redraw, after the robot's answer (one edit for both)
    redraw = holder.redraws[-1]
    assert redraw is not None and (redraw.kind, redraw.key) == ("hands", str(gid))
    assert redraw.due_at == clock.now + store.hands_wait(1.0)
    robot_turns = [({store.JobKind.ROBOT}, 100)]

    def claimed_elsewhere(at: float) -> list[str]:  # other tests' games play in this database
        return [j.key for j in store.claim(db, "another", at, 10, robot_turns) if j.key == key]

    assert claimed_elsewhere(job.due_at) == []

    # the robot plays its turn (as the runner would, with this process's rules)
    def choose(turn: RobotTurn, seed: int) -> Action:
        return turn.settle(lambda view: decide(str(turn.level), seed, 250, view))

    after = tables.robot_acts(db, gid, change.version, 1, rules, choose).change
    assert after is not None
    if after.robot_seat is None:  # a person's turn: the robot's row is gone
        assert holder.heard[-1][:2] == (str(gid), None)
        assert not [k for k, kk, _ in store.waiting(db, "robot") if kk == str(gid)]
    else:  # the robot again (it took the trick): claimed anew, a newer generation
        again = holder.heard[-1][1]
        assert again is not None and again.id == job.id and again.generation > job.generation
    # a claim that ran out is anyone's again: a runner that died leaves nothing stuck
    clock.now += 60
    if after.robot_seat is not None:
        assert claimed_elsewhere(clock.now) == [key]


def test_a_move_owing_the_group_nothing_urgent_records_its_table_for_the_groups_room(
    db: Database, clock: Clock, group: int
) -> None:
    # at a brisk pace the group's table waits for the room its minute gives it: a move that
    # owes the group no call records the redraw for then (``Rules.table_pace``), not for
    # now, where it only read the table to put itself off; a call is news, due at once
    asked: list[tuple[int, list[float], float]] = []

    def pace(chat_id: int, marks: Sequence[float], now: float) -> float:
        asked.append((chat_id, list(marks), now))
        return 4.0

    rules = dataclasses.replace(rules_on(clock), table_pace=pace)
    seated = [ANA, BETO]
    gid = open_and_start(db, group, rules, ["1x1"], seated)
    key = store.table_key(group, None)

    def redrawn() -> None:
        with db.session() as s:
            store.cancel(s, "table", key)
            s.commit()

    def act(kind: Act) -> None:
        table = tables.load(db, gid)
        assert table is not None
        seat = table.shown.to_act()[0]
        action = next(a for a in table.shown.legal_actions(seat) if a.act == kind)
        tables.act(db, gid, table.version, None, action, rules, user_id=seated[seat].id)

    redrawn()
    clock.now += 1
    act(Act.PLAY)  # the group heard nothing yet: no pace to ask, due now
    assert table_due(db, group) == clock.now and asked == []
    redrawn()
    flood.take(db, [flood.group_budget(group)], clock.now)  # the group heard a call
    clock.now += 1
    act(Act.PLAY)  # but the match has no table message yet: its first goes at once
    assert table_due(db, group) == clock.now and asked == []
    redrawn()
    messages.mark_table(db, gid, table_message_id=77)
    clock.now += 1
    act(Act.PLAY)
    assert table_due(db, group) == clock.now + 4.0
    assert asked == [(group, [clock.now - 2], clock.now)]
    clock.now += 1
    act(Act.TRUCO)  # a call is news: the group hears it now
    assert table_due(db, group) == clock.now
