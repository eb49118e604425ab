"""People and chats on the database: who met the bot, their deck, chat settings, ranking."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, case, func
from sqlmodel import Session, col, select

from bot.domain.models import Chat, Player, Result
from bot.domain.store import Database, insert_of
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.people import Person, PlayerInfo, RankingRow
from bot.domain.values.settings import ChatSettings, Noise, Setting
from bot.i18n import LANGUAGES, SOURCE, language_for
from engine import TableOptions, get_ruleset
from engine.cards import DeckStyle
from engine.rulesets import ALL_RULESETS, DEFAULT_VARIANT, GAUDERIO, HOUSE_LADDERS

TARGETS = (0, 6, 9, 12, 15, 18, 24, 30)
"""/config's targets; 0: the variant's default (12; gaudério 24 in 2×2, 18 in 1×1)."""
TIMERS = (30, 45, 60, 90, 120)
_FIELDS = {Setting.COVERED: "covered_cards"}
"""Settings whose chat field is not named like the setting."""


def player_info(p: Player) -> PlayerInfo:
    """The ``PlayerInfo`` value of a player row."""
    return info_of(p.id, p.name, p.language_code, p.deck, p.started)


def info_of(
    user_id: int, name: str, language_code: str | None, deck: str, started: bool
) -> PlayerInfo:
    """The ``PlayerInfo`` value of a player's columns."""
    style = {"spanish": DeckStyle.SPANISH, "traditional": DeckStyle.TRADITIONAL}.get(deck)
    return PlayerInfo(user_id, name, language_code, style, started)


def _settings(c: Chat) -> ChatSettings:
    return ChatSettings.model_validate(c, from_attributes=True)


HOME_VARIANTS = {"es": GAUDERIO.name}
"""The truco a language's players grow up with, by bot language: a chat new to the bot
starts with it (the River Plate's Spanish: gaudério); every other language, the engine's
default."""


def home_variant(language: str | None) -> str:
    """The variant a chat first heard in ``language`` (a Telegram code) starts with."""
    return HOME_VARIANTS.get(language_for(language), DEFAULT_VARIANT)


def _chat(
    s: Session,
    chat_id: int,
    kind: str = "group",
    title: str = "",
    language: str | None = None,
    speaker: str | None = None,
) -> Chat:
    """A chat's row, created when new: a group in ``language`` (its own, stored), a private
    chat in its person's (``speaker``, not stored: theirs follows their phone)."""
    c = s.get(Chat, chat_id)
    if c is None:  # another process may be creating it too: the first insert wins
        variant = home_variant(language or speaker)
        defaults = Chat(
            id=chat_id, kind=kind, title=title, language=language, variant=variant
        ).model_dump()
        s.execute(insert_of(s, Chat).values(**defaults).on_conflict_do_nothing())
        c = s.exec(select(Chat).where(Chat.id == chat_id).with_for_update()).one()
    return c


def meet(db: Database, person: Person, *, started: bool = False) -> PlayerInfo:
    """Create or refresh a person's row (``started``: they opened a private chat with us)."""
    with db.session() as s:
        p = s.get(Player, person.id, with_for_update=True)
        if p is None:  # a person's first updates may reach two processes at once
            defaults = Player(id=person.id, name=person.name).model_dump()
            s.execute(insert_of(s, Player).values(**defaults).on_conflict_do_nothing())
            p = s.exec(select(Player).where(Player.id == person.id).with_for_update()).one()
        p.name, p.username = person.name, person.username
        if person.language_code:
            p.language_code = person.language_code
        if started:
            p.started = True
        s.add(p)
        s.commit()
        return player_info(p)


def player(db: Database, user_id: int) -> PlayerInfo | None:
    """A person the bot met, if any."""
    with db.session() as s:
        p = s.get(Player, user_id)
        return player_info(p) if p is not None else None


def set_started(db: Database, user_id: int, started: bool) -> None:
    """Remember whether the bot may write to a person privately."""
    with db.session() as s:
        p = s.get(Player, user_id)
        if p is not None and p.started != started:
            p.started = started
            s.add(p)
            s.commit()


def set_deck(db: Database, user_id: int, style: DeckStyle) -> None:
    """Store how a person wants their cards labelled (R11)."""
    with db.session() as s:
        p = s.get(Player, user_id)
        if p is not None:
            p.deck = style.name.lower()
            s.add(p)
            s.commit()


def tutorial_step(db: Database, user_id: int) -> int | None:
    """The next step of the tutorial a person must play, if they are in it."""
    with db.session() as s:
        p = s.get(Player, user_id)
        return p.tutorial_step if p is not None else None


def set_tutorial_step(db: Database, user_id: int, index: int | None) -> None:
    """Move a person's tutorial to step ``index``."""
    with db.session() as s:
        p = s.get(Player, user_id)
        if p is not None:
            p.tutorial_step = index
            s.add(p)
            s.commit()


def chat_settings(
    db: Database, chat_id: int, kind: str = "group", title: str = "", speaker: str | None = None
) -> ChatSettings:
    """A chat's settings, created with the defaults when new (the variant of the language
    it is first heard in, ``home_variant``: a private chat's is ``speaker``'s, its person's
    Telegram language)."""
    with db.session() as s:
        c = _chat(s, chat_id, kind, title, speaker=speaker)
        s.commit()
        return _settings(c)


def chat_title(db: Database, chat_id: int) -> str:
    """A group's title as the bot last saw it ("" when unknown)."""
    with db.session() as s:
        c = s.get(Chat, chat_id)
        return c.title if c is not None else ""


def chat_language(db: Database, chat_id: int) -> str:
    """The language of a group (``/config``; Portuguese when none was chosen or first
    heard, ``group_language``)."""
    with db.session() as s:
        return chat_language_in(s, chat_id)


def group_language(db: Database, chat_id: int, kind: str, title: str, heard: str | None) -> str:
    """A group's language (``chat_language``), asked before each of its updates. A group
    heard for the first time is kept then, speaking the language of the person heard when
    it is Spanish (the River Plate's gaudério groups read the bot in theirs from their first
    /truco), Portuguese otherwise: English, a phone setting many Brazilians keep, does not
    make a group English; its admins choose any language with /idioma."""
    with db.session() as s:
        row = s.execute(_CHAT_LANGUAGE, {"id": chat_id}).first()
        if row is not None:
            return row[0] or SOURCE
        first = "es" if language_for(heard) == "es" else None
        c = _chat(s, chat_id, kind, title, language=first)
        s.commit()
        return c.language or SOURCE


_CHAT_LANGUAGE = select(Chat.language).where(col(Chat.id) == bindparam("id"))


def chat_language_in(s: Session, chat_id: int) -> str:
    """``chat_language`` in the caller's session.

    One column by a statement built once: it is asked before every update in a group
    and at every redraw, and loading the chat as an ORM object (``Session.get``) cost
    more CPU than the query.
    """
    return s.execute(_CHAT_LANGUAGE, {"id": chat_id}).scalar() or SOURCE


_CHAT_NOISE = select(Chat.noise).where(col(Chat.id) == bindparam("id"))


def chat_noise_in(s: Session, chat_id: int) -> str:
    """How much of a match a group hears as new messages (``Noise``), in the caller's
    session: one column, read at each table redraw."""
    return s.execute(_CHAT_NOISE, {"id": chat_id}).scalar() or Noise.ALL.value


_CHAT_VOICE = select(Chat.language, Chat.noise).where(col(Chat.id) == bindparam("id"))


def chat_voice_in(s: Session, chat_id: int) -> tuple[str, str]:
    """A group's language and ``Noise`` in one read (``chat_language_in``,
    ``chat_noise_in``): a table's redraw needs both."""
    row = s.execute(_CHAT_VOICE, {"id": chat_id}).first()
    language, noise = row if row is not None else (None, None)
    return language or SOURCE, noise or Noise.ALL.value


def setting_choices(setting: Setting, languages: tuple[str, ...] = LANGUAGES) -> tuple[Any, ...]:
    """The values ``/config`` offers for a setting, in the order its menu lists them.

    ``languages``: the chat languages, the default (stored as ``None``) first.
    """
    choices: dict[Setting, tuple[Any, ...]] = {
        Setting.VARIANT: tuple(ALL_RULESETS),
        Setting.PLAYERS: (0, 2, 4),
        Setting.TARGET: TARGETS,
        Setting.TIMER: TIMERS,
        Setting.COVERED: (True, False),
        Setting.LADDER: (None, *HOUSE_LADDERS),
        Setting.SINAIS: (True, False),
        Setting.FLOR: (True, False),
        Setting.LANGUAGE: (None, *languages[1:]),
        Setting.NOISE: tuple(n.value for n in Noise),
    }
    return choices[setting]


def setting_value(chat: ChatSettings, setting: Setting) -> Any:
    """A chat's current value of one ``/config`` setting (as ``setting_choices`` lists it)."""
    return getattr(chat, _FIELDS.get(setting, setting.value))


def change_setting(
    db: Database,
    chat_id: int,
    setting: Setting,
    index: int,
    languages: tuple[str, ...] = LANGUAGES,
) -> ChatSettings:
    """Set one ``/config`` setting to its ``index``-th choice (``setting_choices``).

    ``Refused(BAD_BUTTON)`` for an index past the choices, ``Refused(BAD_OPTIONS)`` when
    the chat's table would be invalid with it; nothing is stored then.
    """
    choices = setting_choices(setting, languages)
    if not 0 <= index < len(choices):
        raise Refused(Reason.BAD_BUTTON)
    value = choices[index]
    with db.session() as s:  # no await inside: an open write would lock SQLite for all
        c = _chat(s, chat_id)
        setattr(c, _FIELDS.get(setting, setting.value), value)
        try:
            rs = get_ruleset(c.variant)
            players = c.players or 2
            target = _settings(c).target_for(rs, players)
            TableOptions(players, target, c.covered_cards, None, c.timer).validated(rs)
        except ValueError:  # nothing is stored: the session rolls back
            raise Refused(Reason.BAD_OPTIONS) from None
        s.add(c)
        s.commit()
        return _settings(c)


def ranking(db: Database, chat_id: int, limit: int = 10) -> list[RankingRow]:
    """Wins and matches of the chat's players, best first."""
    with db.session() as s:
        wins = func.sum(case((col(Result.won), 1), else_=0))
        q = (
            select(Result.user_id, func.max(Result.name), func.count(), wins)
            .where(Result.chat_id == chat_id)
            .group_by(col(Result.user_id))
        )
        rows = [RankingRow(name, int(w or 0), int(n)) for _, name, n, w in s.exec(q)]
    rows.sort(key=lambda r: (-r.wins, -(r.wins / r.played if r.played else 0), r.name))
    return rows[:limit]
