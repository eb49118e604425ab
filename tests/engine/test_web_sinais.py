"""Sinais in the browser game's table (R12): the person signals, robots signal, and the
state the page draws carries a signal's content only when the person was told it."""

from __future__ import annotations

import json

from engine.browser import PERSON, Table
from engine.match import Match
from engine.rulesets import TableOptions


def state(text: str) -> dict:
    return json.loads(text)


def test_signals_in_a_2x2_table_and_none_in_1x1() -> None:
    one = state(Table.new({"variant": "paulista", "players": 2, "level": "medio"}, seed=3).state())
    assert one["signals"] == []
    table = Table.new({"variant": "paulista", "players": 4, "level": "medio"}, seed=3)
    st = state(table.state())
    assert st["waiting"] == "you"
    assert [a["label"] for a in st["signals"]][:2] == ["😉 zap", "🤨 copas"]
    st = state(table.act("signal nada"))
    assert not st["error"] and st["signals"] == [] and st["waiting"] == "you"  # no turn passed
    assert st["log"] == ["Você: 😑 sinal de nada para o parceiro."]  # the face and its meaning
    assert state(table.act("signal zap"))["error"]  # one per round


def test_the_page_shows_only_what_the_person_saw() -> None:
    seen_hidden = seen_told = 0
    for seed in range(6):
        table = Table.new({"variant": "mineiro", "players": 4, "level": "medio"}, seed=seed)
        st = state(table.state())
        while st["waiting"] not in ("hand_over", "match_over"):
            if st["waiting"] == "robot":
                st = state(table.robot())
            else:
                st = state(table.act(st["legal"][0]["action"]))
            m: Match = table.match
            view = m.view(PERSON)
            for (_seat, action), line in zip(view.history, st["log"], strict=True):
                if action.act.code != "signal":
                    continue
                if action.sinal is None:
                    assert line.endswith("fez um sinal.")
                    seen_hidden += 1
                else:
                    assert action.sinal.info.seen in line
                    seen_told += 1
            told = [(s, x) for s, x in view.signals]
            assert len(st["seen_signals"]) == len(told)
            for (_s, sinal), line in zip(told, st["seen_signals"], strict=True):
                assert line.endswith(f"{sinal.info.emoji} {sinal.info.name}")
    assert seen_hidden and seen_told


def test_no_signals_at_a_table_without_them() -> None:
    table = Table(
        Table.new({"variant": "paulista", "players": 4, "level": "medio"}, seed=1).setup,
        Match("paulista", TableOptions(players=4, sinais=False), 1),
        1,
    )
    assert state(table.state())["signals"] == []
