"""Who is in a group, as Telegram says (``getChatMember``), asked briefly once per person.

In the group itself only its members see a table's buttons; the Mini App is reached by a
link that anyone can be given, so before it lets a person act on (or watch) a group's
table it asks Telegram, through the bot's own Bot API client, whether they are in that
group. Answers are kept ``MEMBER_SECONDS`` (a lobby's few taps, a page reopened, cost one
call), at most ``MEMBER_CACHE`` of them; a call that failed (the network, a flood wait)
counts as "not a member" and is not kept (the next tap asks again).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from telegram import Bot, ChatMemberRestricted
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

log = logging.getLogger(__name__)
MEMBER_SECONDS = 60.0
"""How long Telegram's answer about one person in one group is trusted."""
MEMBER_CACHE = 10_000
"""Answers kept at most (the oldest go first)."""
_IN = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER})


class Members:
    """Telegram's recent answers about who is in which group."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """An empty cache timed by ``clock``."""
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}
        self._asking: dict[tuple[int, int], asyncio.Future[bool]] = {}

    async def is_member(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is in the group ``chat_id`` (one call for many taps at once)."""
        key = (chat_id, user_id)
        known = self._known.get(key)
        if known is not None and known[1] > self.clock():
            return known[0]
        pending = self._asking.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asking[key] = future
        try:
            answer = await self._ask(bot, chat_id, user_id)
            future.set_result(answer is True)
        except BaseException:
            future.cancel()
            raise
        finally:
            del self._asking[key]
        if answer is not None:
            self._known.pop(key, None)
            self._known[key] = (answer, self.clock() + MEMBER_SECONDS)
            while len(self._known) > MEMBER_CACHE:
                del self._known[next(iter(self._known))]
        return answer is True

    @staticmethod
    async def _ask(bot: Bot, chat_id: int, user_id: int) -> bool | None:
        """Telegram's answer; ``None`` when the call failed (a refusal, such as a person or
        a group Telegram does not know, or a bot no longer in the group, is a "no")."""
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (BadRequest, Forbidden):
            return False
        except TelegramError as exc:
            log.info("getChatMember failed: %s", exc.__class__.__name__)
            return None
        if isinstance(member, ChatMemberRestricted):
            return member.is_member
        return member.status in _IN
