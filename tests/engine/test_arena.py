"""``truco arena``: sides, figures, mirrored play and the exec protocol with misbehaving bots."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from engine import actions as A
from engine.cards import Card, parse_cards
from engine.match import Match
from engine.robots import Dificil, Facil, Medio
from engine.rulesets import TableOptions
from engine.tools.arena import (
    Forfeit,
    Setup,
    Side,
    Tally,
    arena,
    late_raise,
    parse_answer,
    play_pair,
    save_run,
    tally_bet,
    wilson,
)
from engine.tools.cli import main
from engine.turns import first_to_ask

TINY_BOT = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "decide":
        continue  # start and end messages need no answer
    legal = msg["legal"]
    # plays its first card; answers calls by accepting; never calls truco
    plays = [a for a in legal if a.startswith(("play", "blind"))]
    pick = plays[0] if plays else ("accept" if "accept" in legal else legal[0])
    if msg["view"]["hand_number"] % 2:
        print(pick, flush=True)  # the bare action string is accepted too
    else:
        print(json.dumps({"action": pick}), flush=True)
"""

GARBAGE_BOT = """
import sys
for line in sys.stdin:
    print("jogo o zap, confia", flush=True)
"""

ILLEGAL_BOT = """
import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        print(json.dumps({"action": "raise"}), flush=True)
"""

CRASH_BOT = """
import sys
sys.stdin.readline()  # the start message
sys.stdin.readline()  # the first decision
raise SystemExit(3)
"""

HANG_BOT = """
import sys, time
for line in sys.stdin:
    time.sleep(60)
"""


def bot(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def setup(
    a: str, b: str, *, players: int = 2, variant: str = "paulista", timeout_s: float = 5.0
) -> Setup:
    return Setup(
        sides=(Side.parse(a), Side.parse(b)),
        variant=variant,
        players=players,
        target=12,
        seed=7,
        budget_ms=20,
        timeout_s=timeout_s,
    )


def figures(run: dict[str, object], index: int) -> dict[str, object]:
    results = run["results"]
    assert isinstance(results, list)
    row = results[index]
    assert isinstance(row, dict)
    return row


# ------------------------------------------------------------------- sides


def test_sides_parse_robots_random_and_programs() -> None:
    assert Side.parse("robot:médio") == Side("robot:medio", "robot", level="medio")
    assert Side.parse("random").kind == "random"
    side = Side.parse(f"exec:{sys.executable} -u bot.py")
    assert side.kind == "exec" and side.command == (sys.executable, "-u", "bot.py")
    for bad in ("robot:mestre", "humano", "exec:", "exec:/no/such/program --x"):
        with pytest.raises(ValueError):
            Side.parse(bad)


def test_wilson_interval() -> None:
    low, high = wilson(90, 100)
    assert 0.82 < low < 0.83 and 0.94 < high < 0.95
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(100, 100)
    assert high == 1.0 and low > 0.96


def test_answers_are_parsed_strictly() -> None:
    legal = [A.PLAY[0], A.TRUCO]
    assert parse_answer('{"action": "truco"}', legal) == A.TRUCO
    assert parse_answer("play 4D", legal) == A.PLAY[0]
    assert parse_answer('"truco"', legal) == A.TRUCO
    for bad in ("", "{", '{"acao": "truco"}', "play 5D", "accept", "42", "[1]"):
        with pytest.raises(Forfeit):
            parse_answer(bad, legal)


# ------------------------------------------------------------- built-ins


@pytest.mark.parametrize("players", [2, 4])
def test_arena_figures_add_up(players: int) -> None:
    run = arena(setup("robot:medio", "random", players=players), matches=6, progress=False)
    assert run["matches"] == 6
    a, b = figures(run, 0), figures(run, 1)
    assert a["wins"] + b["wins"] == 6  # type: ignore[operator]
    assert a["forfeits"] == b["forfeits"] == 0
    low, high = a["wilson95"]  # type: ignore[misc]
    assert 0 <= low <= a["win_rate"] <= high <= 1  # type: ignore[operator]
    assert a["decision_ms"]["decisions"] > 0  # type: ignore[index]
    assert a["decision_cpu_ms"]["p95"] >= a["decision_cpu_ms"]["p50"] >= 0  # type: ignore[index]
    assert run["machine"]["cpus"]  # type: ignore[index]
    load = run["load_average"]  # how busy the machine was, at the start and the end
    assert all(len(load[k]) == 3 and min(load[k]) >= 0 for k in ("start", "end"))  # type: ignore[index]


def test_mirrored_pair_gives_each_side_both_seats_of_the_same_deal() -> None:
    # the same deterministic robot on both sides plays the very same match twice with the
    # labels swapped, so each side wins exactly one match of every pair
    s = setup("robot:medio", "robot:medio", players=4)
    for deal in range(3):
        pair = play_pair(s, deal)
        assert (pair.tallies[0].wins, pair.tallies[1].wins) == (1, 1)
        assert pair.tallies[0].points == pair.tallies[1].points
    # while different robots do not split every pair
    s = setup("robot:medio", "random")
    assert any(play_pair(s, deal).tallies[0].wins == 2 for deal in range(3))


def test_arena_runs_in_two_processes() -> None:
    run = arena(setup("robot:facil", "random"), matches=4, jobs=2, progress=False)
    assert run["matches"] == 4
    assert figures(run, 0)["wins"] + figures(run, 1)["wins"] == 4  # type: ignore[operator]


# ------------------------------------------------------------ exec protocol


@pytest.mark.parametrize("players", [2, 4])
def test_outside_bot_plays_whole_matches(tmp_path: Path, players: int) -> None:
    run = arena(
        setup(bot(tmp_path, "tiny", TINY_BOT), "random", players=players), matches=4, progress=False
    )
    tiny = figures(run, 0)
    assert tiny["forfeits"] == 0 and run["errors"] == []
    assert tiny["decision_ms"]["decisions"] > 10  # type: ignore[index]
    assert tiny["decision_cpu_ms"] is None  # a program's processor time is not ours to count


@pytest.mark.parametrize(
    ("name", "source", "message"),
    [
        ("garbage", GARBAGE_BOT, "inválida"),
        ("illegal", ILLEGAL_BOT, "ação ilegal"),
        ("crash", CRASH_BOT, "terminou"),
        ("hang", HANG_BOT, "sem resposta"),
    ],
)
def test_misbehaving_bot_loses_its_matches_and_the_arena_goes_on(
    tmp_path: Path, name: str, source: str, message: str
) -> None:
    run = arena(
        # a short deadline only for the bot that never answers (a slow CI start is no hang)
        setup("robot:medio", bot(tmp_path, name, source), timeout_s=0.5 if name == "hang" else 10),
        matches=2,
        progress=False,
    )
    assert run["matches"] == 2
    medio, other = figures(run, 0), figures(run, 1)
    assert medio["wins"] == 2 and other["forfeits"] == 2
    errors = run["errors"]
    assert isinstance(errors, list) and len(errors) == 2
    assert all(message in e for e in errors), errors


# -------------------------------------------------------------------- CLI


def test_cli_prints_json_and_saves_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results" / "arena.json"
    args = ["arena", "robot:facil", "random", "--matches", "2", "--quiet", "--save", str(out)]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["sides"] == ["robot:facil", "random"]
    assert printed["command"].startswith("truco arena robot:facil random --matches 2")
    assert main([*args[:4], "4", "--quiet", "--save", str(out)]) == 0
    assert (
        main(["arena", "robot:medio", "random", "--matches", "2", "--quiet", "--save", str(out)])
        == 0
    )
    runs = json.loads(out.read_text(encoding="utf-8"))
    # the same pairing replaces its entry; a new pairing is added
    assert [(r["sides"], r["matches"]) for r in runs] == [
        (["robot:facil", "random"], 4),
        (["robot:medio", "random"], 2),
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "robot:mestre", "random"],
        ["arena", "random", "random", "--variant", "sueca"],
        ["arena", "random", "random", "--matches", "0"],
        ["arena", "random", "random", "--target", "99"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("truco arena:") and "\n" not in err


def test_save_refuses_a_file_that_is_not_a_run_list(tmp_path: Path) -> None:
    path = tmp_path / "arena.json"
    path.write_text('{"not": "a list"}', encoding="utf-8")
    with pytest.raises(ValueError, match="lista"):
        save_run(path, {"sides": ["random", "random"]})
    assert path.read_text(encoding="utf-8") == '{"not": "a list"}'


# ------------------------------------------------- one program per seat

SPY_BOT = """
import json, os, sys
log = open(os.path.join(sys.argv[1], f"{os.getpid()}.jsonl"), "w")
seen = {}  # seat -> hand: a cheater would keep every seat's cards it is shown
for line in sys.stdin:
    msg = json.loads(line)
    record = {"type": msg["type"]}
    if msg["type"] == "start":
        record.update({k: msg[k] for k in ("match", "seed", "seat", "variant", "options")})
    elif msg["type"] == "end":
        record.update({k: msg[k] for k in ("match", "score", "winner", "won")})
    elif msg["type"] == "decide":
        view = msg["view"]
        seen[view["seat"]] = view["hand"]
        partner = (view["seat"] + 2) % 4
        record.update(seat=view["seat"], peek=partner in seen and view["partner_hand"] is None)
    log.write(json.dumps(record) + "\\n")
    log.flush()
    if msg["type"] == "decide":
        legal = msg["legal"]
        plays = [a for a in legal if a.startswith(("play", "blind"))]
        print(plays[0] if plays else ("accept" if "accept" in legal else legal[0]), flush=True)
"""


def spy_logs(tmp_path: Path, matches: int) -> list[list[dict[str, object]]]:
    logs = tmp_path / "logs"
    logs.mkdir()
    spy = bot(tmp_path, "spy", SPY_BOT) + f" {shlex.quote(str(logs))}"
    run = arena(setup(spy, "robot:facil", players=4), matches=matches, progress=False)
    assert run["errors"] == []
    out = []
    for path in sorted(logs.iterdir()):
        lines = path.read_text(encoding="utf-8").splitlines()
        out.append([json.loads(x) for x in lines])
    return out


def test_a_two_seat_bot_cannot_see_its_partners_cards(tmp_path: Path) -> None:
    processes = spy_logs(tmp_path, matches=2)
    # two matches, two seats of the side in each: four programs, each with one seat
    assert len(processes) == 4
    for messages in processes:
        seats = {m["seat"] for m in messages if m["type"] == "decide"}
        assert len(seats) == 1
        assert not any(m.get("peek") for m in messages)


def test_programs_get_start_and_end_messages(tmp_path: Path) -> None:
    processes = spy_logs(tmp_path, matches=2)
    starts = [p[0] for p in processes]
    ends = [p[-1] for p in processes]
    assert all(s["type"] == "start" for s in starts)
    assert all(e["type"] == "end" for e in ends)
    for messages in processes:
        start, end = messages[0], messages[-1]
        assert start["match"] == end["match"]
        assert start["variant"] == "paulista"
        assert start["options"]["players"] == 4  # type: ignore[index]
        decided = {m["seat"] for m in messages if m["type"] == "decide"}
        assert decided == {start["seat"]}
        assert end["won"] == (end["winner"] == start["seat"] % 2)  # type: ignore[operator]
        assert max(end["score"]) == 12  # type: ignore[call-overload]
    # each match has its own id; the two seats of a side share it and get their own seeds
    by_match: dict[object, list[dict[str, object]]] = {}
    for s in starts:
        by_match.setdefault(s["match"], []).append(s)
    assert len(by_match) == 2
    for seats in by_match.values():
        assert sorted(s["seat"] % 2 for s in seats) == [seats[0]["seat"] % 2] * 2  # type: ignore[operator]
        assert len({s["seed"] for s in seats}) == 2


def scripted_hand() -> Match:
    """A 2x2 paulista hand dealt by seat 3, vira 7D: the 3, then the 2 take the first rounds."""
    return Match.from_hand(
        "paulista",
        TableOptions(players=4, sinais=False),
        score=(0, 0),
        dealer=3,
        hands=[parse_cards(h) for h in ("3S 4D 5S", "4H 2H KC", "5C 5D 6H", "6C 6D 7S")],
        vira=Card.parse("7D"),
    )


def test_the_called_team_is_asked_in_play_order_from_the_caller() -> None:
    m = scripted_hand()
    m.apply(0, A.TRUCO)
    assert first_to_ask(m) == 1  # seat 1 speaks before seat 3
    m.apply(1, A.RAISE)
    assert first_to_ask(m) == 2
    m.apply(2, A.RUN)
    assert first_to_ask(m) == 0


def test_a_seat_with_no_cards_left_may_raise_for_its_team() -> None:
    # R6: either partner answers, and a raise is an accept plus the next call; nothing in
    # the rules asks the answering seat to hold a card (it may have played its last one)
    m = scripted_hand()
    for seat, code in ((0, "3S"), (1, "4H"), (2, "5C"), (3, "6C")):  # the 3 takes round 1
        m.apply(seat, A.PLAY[Card.parse(code)])
    for seat, code in ((0, "4D"), (1, "2H"), (2, "5D"), (3, "6D")):  # the 2 takes round 2
        m.apply(seat, A.PLAY[Card.parse(code)])
    m.apply(1, A.PLAY[Card.parse("KC")])  # seat 1 leads round 3 with its last card
    m.apply(2, A.TRUCO)
    assert first_to_ask(m) == 3
    m.apply(3, A.RUN)
    view = m.view(1)
    assert view.hand == () and view.to_act == (1,)
    assert A.RAISE in view.legal
    for robot in (Medio(1), Dificil(1, playouts=8), Facil(1)):
        assert robot.choose(view) in view.legal
    m.apply(1, A.RAISE)
    raised = m.view(0)
    assert (raised.call_seat, raised.pending_step, raised.accept_value) == (1, 1, 6)
    m.apply(first_to_ask(m), A.ACCEPT)
    assert m.stake == 6 and m.to_act() == (2,)  # the caller still plays its card
    for seat, code in ((2, "6H"), (3, "7S"), (0, "5S")):
        m.apply(seat, A.PLAY[Card.parse(code)])
    assert m.hand_winner == 1 and m.points == (0, 6)


def test_the_betting_counts_say_where_each_sides_points_came_from() -> None:
    def play(m: Match, moves: list[tuple[int, A.Action]], first: int) -> tuple[Tally, Tally]:
        tallies = (Tally(), Tally())
        side_of_team = (first, 1 - first)
        for seat, action in moves:
            m.apply(seat, action)
            tally_bet(tallies, side_of_team, seat, action, m)
        return tallies

    # a truco both partners run from: one call, and the caller's point came from a run
    a, b = play(scripted_hand(), [(0, A.TRUCO), (1, A.RUN), (3, A.RUN)], first=0)
    assert (a.calls, a.run_points, a.played_points) == (1, 1, 0)
    assert (b.calls, b.raises, b.run_points, b.played_points) == (0, 0, 0, 0)
    # the hand side A called first: its call paid one point
    assert (a.called_hands, a.called_net, b.called_hands, b.called_net) == (1, 1, 0, 0)
    # called before any card: a first-round call
    assert (a.early_called, a.early_called_net, b.early_called) == (1, 1, 0)
    # a truco raised to seis, accepted and played out: side B (team 0 now) counts the call
    # and side A (team 1) the raise and the six points won at a raised stake
    cards = [(0, "3S"), (1, "4H"), (2, "5C"), (3, "6C"), (0, "4D"), (1, "2H"), (2, "5D")]
    cards += [(3, "6D"), (1, "KC")]
    moves = [(s, A.PLAY[Card.parse(c)]) for s, c in cards]
    moves += [(2, A.TRUCO), (3, A.RAISE), (2, A.ACCEPT)]
    moves += [(s, A.PLAY[Card.parse(c)]) for s, c in ((2, "6H"), (3, "7S"), (0, "5S"))]
    a, b = play(scripted_hand(), moves, first=1)
    assert (b.calls, b.raises, a.calls, a.raises) == (1, 0, 0, 1)
    assert (a.played_points, a.raised_won, a.raised_lost) == (6, 1, 0)
    assert (b.played_points, b.raised_won, b.raised_lost) == (0, 0, 1)
    assert a.run_points == b.run_points == 0
    # side B called first and lost six: the hand counts against B's calls, not A's
    assert (b.called_hands, b.called_net, a.called_hands, a.called_net) == (1, -6, 0, 0)
    # called after two rounds' cards: not a first-round call
    assert (b.early_called, b.early_called_net) == (0, 0)


def test_the_arena_counts_raises_after_an_accept_and_the_answers_to_them() -> None:
    truco, accept, raise_, run = A.TRUCO, A.ACCEPT, A.RAISE, A.RUN
    card = A.PLAY[Card.parse("4C")]
    # team 1 accepts team 0's truco, then calls seis on its turn: team 0 faces it
    assert late_raise([(0, truco), (1, accept), (1, card), (1, truco), (0, accept)]) == (0, True)
    assert late_raise([(0, truco), (1, accept), (1, truco), (0, run)]) == (0, False)
    # at 2×2, one partner runs and the other accepts: answered
    log = [(0, truco), (1, accept), (1, card), (3, truco), (0, run), (2, accept)]
    assert late_raise(log) == (0, True)
    # a raise answering a call is no raise after an accept
    assert late_raise([(0, truco), (1, raise_), (0, accept)]) is None
    assert late_raise([(0, card), (1, card)]) is None


def test_arena_betting_counts_add_up_to_the_points() -> None:
    run = arena(setup("robot:medio", "robot:loose", players=4), matches=6, progress=False)
    rows = [figures(run, 0), figures(run, 1)]
    for mine, theirs in (rows, rows[::-1]):
        bets = mine["bets"]
        assert isinstance(bets, dict)
        assert bets["run_points"] + bets["played_points"] > 0
        assert bets["raised_won"] == theirs["bets"]["raised_lost"]  # type: ignore[index]
    assert sum(r["bets"]["calls"] for r in rows) > 0  # type: ignore[index]
    # a hand has one first caller or none
    called = sum(r["bets"]["called_hands"] for r in rows)  # type: ignore[index]
    assert 0 < called <= run["hands"]


def test_partings_are_counted_on_the_arenas_own_matches_and_only_where_robots_differ() -> None:
    from engine.tools.arena.deviations import run

    s = setup("robot:facil", "robot:medio", players=2)
    counted = run(s, "robot:medio", matches=4, jobs=1)
    # the very matches of the arena: side A wins what it wins there
    assert counted.matches == 4
    assert counted.wins == sum(play_pair(s, deal).tallies[0].wins for deal in range(2))
    # fácil parts from médio somewhere, and each parting is filed with its gain
    assert counted.gains and all(len(v) > 0 for v in counted.gains.values())
    summary = counted.summary()
    assert summary["partings"] == sum(len(v) for v in counted.gains.values())
    assert all(" -> " not in f["file"] and "->" in f["file"] for f in summary["files"])
    # a robot compared with itself never parts
    same = run(setup("robot:medio", "robot:facil", players=2), "robot:medio", matches=2, jobs=1)
    assert same.decisions > 0 and not same.gains
    # ``--where call`` compares the call decisions only: some, not every decision
    calls = run(s, "robot:medio", matches=4, jobs=1, where="call")
    assert 0 < calls.decisions < counted.decisions
    assert calls.wins == counted.wins
