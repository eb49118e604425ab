"""``truco bot-bench`` measures the configured database, never one with games in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect

from bot.domain.models import Game
from bot.domain.store import Database
from bot.tools.bench import BenchError, prepare_database


def test_the_bench_uses_database_url_and_refuses_one_with_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/configured.db"
    db = Database(url)
    assert prepare_database(url, reset=False) == url  # empty: measured as it is
    with db.session() as s:
        s.add(Game(chat_id=-1, creator_id=1))
        s.commit()
    with pytest.raises(BenchError, match="--reset"):
        prepare_database(url, reset=False)
    assert prepare_database(url, reset=True) == url
    assert "games" not in inspect(db.engine).get_table_names()
    db.close()


def test_without_database_url_the_bench_makes_its_own_sqlite() -> None:
    url = prepare_database(None, reset=False)
    assert url.startswith("sqlite:///") and url.endswith("/bench.db")


def test_four_people_at_a_table_are_measured_from_the_fake_telegram(tmp_path: Path) -> None:
    from bot.tools.bench import run

    # the bench measures a window of the wall clock: long enough for a loaded machine to
    # open the table and press (6 s once saw no press at all beside a full suite)
    figures = run(1, 12.0, people=4, database_url=f"sqlite:///{tmp_path}/b.db")
    assert figures["people_per_table"] == 4 and figures["presses"] > 0
    # every turn that began rang a phone (a new message), none came only as an edit
    assert figures["turns_notified"] > 0 and figures["turns_only_edited"] == 0
    assert figures["press_to_group_ms"]["p50"] > 0


def test_mini_app_people_play_in_the_page_and_every_other_page_sees_each_tap(
    tmp_path: Path,
) -> None:
    from bot.tools.bench import run

    figures = run(
        1, 8.0, robots="facil", clients="miniapp", database_url=f"sqlite:///{tmp_path}/b.db"
    )
    assert figures["clients"] == "miniapp" and figures["presses"] > 0
    # every tap reached the table's other open page (the watcher's), none was missed
    assert figures["page_deliveries"] > 0 and figures["pages_missed"] == 0
    # nobody pressed a hand's button: the turns never rang a phone
    assert figures["turns_notified"] == 0


def test_full_matches_people_answer_calls_call_now_and_then_and_play_cards() -> None:
    import random

    from bot.tools.bench import _as_people
    from engine.actions import Act

    rng = random.Random(5)
    answering = [Act.ACCEPT, Act.RUN, Act.RAISE]
    answers = {answering[_as_people(rng, answering)] for _ in range(200)}
    assert answers == {Act.ACCEPT, Act.RUN}  # never raises, never leaves a call unanswered
    playing = [Act.PLAY, Act.PLAY, Act.PLAY, Act.TRUCO]
    picks = [_as_people(rng, playing) for _ in range(400)]
    assert 3 in picks and {0, 1, 2} <= set(picks)
    assert picks.count(3) < len(picks) / 4  # truco now and then, a card mostly
    assert _as_people(rng, [Act.PLAY11, Act.RUN11]) == 0  # no card: the first move
