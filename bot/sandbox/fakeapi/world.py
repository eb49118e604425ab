"""The fake Telegram's world: people, chats, memberships, messages and command menus.

State only, with Telegram's rules for reading and changing it (who may be written to,
which message may be edited or deleted, who is an admin). The Bot API methods
(:mod:`.methods`) and the people's side (:mod:`.driver`) act on it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Any

from bot.sandbox.fakeapi.content import clone, public, scope_key
from bot.sandbox.fakeapi.errors import NOT_MODIFIED, ApiError, bad_request

JSON = dict[str, Any]
Listener = Callable[[JSON], None]


class World:
    """Everything Telegram knows about the bot's chats, and the listeners told of changes."""

    def __init__(
        self,
        token: str = "123456:TEST",
        bot_username: str = "TrucoBot",
        bot_name: str = "Truco",
        *,
        privacy_mode: bool = True,
    ) -> None:
        """An empty world around one bot (``privacy_mode``: groups show it commands only)."""
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy_mode = privacy_mode
        self.users: dict[int, JSON] = {}
        self.chats: dict[int, JSON] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.kicked: set[int] = set()
        self.admins: dict[int, list[int]] = {}
        self.members: dict[int, set[int]] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.menu_buttons: dict[int | None, JSON] = {}
        self.listeners: list[Listener] = []
        self.watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        """The events of those waiting for a change (``PeopleDriver.wait_for``), each with
        its loop: set on every change, from whichever thread made it."""
        self.clock: Callable[[], float] = time.time
        """What the calls' times and the flood limit read: Unix time, or the clock a test
        holds (the bot's own; a button's answer is still timed in real seconds)."""
        self._messages: dict[int, dict[int, JSON]] = {}
        self._next_message_id: dict[int, int] = {}
        self._inline_messages: dict[str, tuple[int, int]] = {}
        self._ids = itertools.count(1)
        self._last_group: dict[int, int] = {}

    @property
    def bot_user(self) -> JSON:
        """The bot as a Telegram ``User``."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def _emit(self, event: JSON) -> None:
        for listener in list(self.listeners):
            listener(event)
        self.poke()

    def poke(self) -> None:
        """Wake whoever waits for a change (``PeopleDriver.wait_for``)."""
        if not self.watchers:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        for loop, changed in list(self.watchers):
            if loop is running:
                changed.set()
            else:
                loop.call_soon_threadsafe(changed.set)

    # ------------------------------------------------------------------ people and chats

    def add_user(
        self,
        first_name: str,
        language_code: str | None = "pt-br",
        *,
        last_name: str | None = None,
        username: str | None = None,
        user_id: int | None = None,
        started: bool = False,
    ) -> int:
        """Add a person; returns the user id (also the id of their private chat with the bot)."""
        uid = user_id if user_id is not None else 100_000_000 + len(self.users) + 1
        user: JSON = {"id": uid, "is_bot": False, "first_name": first_name}
        if last_name:
            user["last_name"] = last_name
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code
        self.users[uid] = user
        chat: JSON = {"id": uid, "type": "private", "first_name": first_name}
        if last_name:
            chat["last_name"] = last_name
        if username:
            chat["username"] = username
        self.chats[uid] = chat
        if started:
            self.started.add(uid)
        self._emit({"type": "chat", "chat_id": uid})
        return uid

    def add_group(
        self,
        title: str,
        admins: list[int] | None = None,
        forum: bool = False,
        *,
        members: list[int] | None = None,
        chat_id: int | None = None,
    ) -> int:
        """Add a supergroup where the bot is a member; the first admin is its creator."""
        groups = [c for c in self.chats if c < 0]
        gid = chat_id if chat_id is not None else -1_001_000_000_000 - len(groups) - 1
        chat: JSON = {"id": gid, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
        self.chats[gid] = chat
        self.admins[gid] = list(admins or [])
        self.members[gid] = set(admins or []) | set(members or [])
        self._emit({"type": "chat", "chat_id": gid})
        return gid

    def block(self, user_id: int) -> None:
        """The user blocks the bot: private messages now get 403."""
        self.blocked.add(user_id)

    def remove_bot(self, chat_id: int) -> None:
        """An admin removes the bot from a group: sends and edits there now get 403."""
        self.kicked.add(chat_id)

    def _user(self, user_id: int) -> JSON:
        try:
            return self.users[user_id]
        except KeyError:
            raise KeyError(f"unknown user {user_id}") from None

    def _store(self, chat_id: int, message: JSON) -> JSON:
        mid = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = mid + 1
        message = {"message_id": mid, **message}
        message.setdefault("deleted", False)
        self._messages.setdefault(chat_id, {})[mid] = message
        self._emit({"type": "message", "chat_id": chat_id, "message": clone(message)})
        return message

    def _reaches_bot(self, chat_id: int, message: JSON) -> bool:
        """Privacy mode: in groups the bot only sees commands, replies to it and via-bot posts."""
        if chat_id > 0 or not self.privacy_mode:
            return True
        if message.get("via_bot"):
            return True
        reply = message.get("reply_to_message")
        if reply and reply.get("from", {}).get("id") == self.bot_id:
            return True
        for e in message.get("entities", []):
            if e["type"] == "bot_command":
                cmd = message["text"][e["offset"] : e["offset"] + e["length"]]
                target = cmd.partition("@")[2]
                if not target or target.lower() == self.bot_username.lower():
                    return True
        return False

    # ------------------------------------------------------------------ what tests look at

    def messages(self, chat_id: int, *, include_deleted: bool = True) -> list[JSON]:
        """Every message of a chat in order, as it looks now.

        Each has Telegram's fields (``message_id``, ``from``, ``text`` without markup,
        ``entities``, ``reply_markup``, ``edit_date``) plus ``html`` (the text as the bot sent
        it, when it used HTML parse mode), ``parse_mode``, ``deleted`` and, for messages posted
        through inline mode, ``inline_message_id``.
        """
        return [
            clone(m)
            for m in self._messages.get(chat_id, {}).values()
            if include_deleted or not m["deleted"]
        ]

    def message(self, chat_id: int, message_id: int) -> JSON:
        """One message as it looks now (KeyError if it never existed)."""
        return clone(self._messages[chat_id][message_id])

    def commands_for(self, chat_id: int, user_id: int | None = None) -> list[JSON]:
        """The command menu a person sees in a chat, resolved through the scopes like Telegram."""
        lang = ""
        if user_id is not None and user_id in self.users:
            lang = (self.users[user_id].get("language_code") or "")[:2]
        scopes: list[str] = []
        if chat_id > 0:
            scopes = [
                scope_key({"type": "chat", "chat_id": chat_id}),
                scope_key({"type": "all_private_chats"}),
            ]
        else:
            if user_id is not None:
                scopes.append(
                    scope_key({"type": "chat_member", "chat_id": chat_id, "user_id": user_id})
                )
            is_admin = user_id in self.admins.get(chat_id, [])
            if is_admin:
                scopes.append(scope_key({"type": "chat_administrators", "chat_id": chat_id}))
            scopes.append(scope_key({"type": "chat", "chat_id": chat_id}))
            if is_admin:
                scopes.append(scope_key({"type": "all_chat_administrators"}))
            scopes.append(scope_key({"type": "all_group_chats"}))
        scopes.append(scope_key({"type": "default"}))
        for scope in scopes:
            for language in (lang, ""):
                found = self.commands.get((scope, language))
                if found:
                    return clone(found)
        return []

    # ------------------------------------------------------------------ persistence

    def snapshot(self) -> JSON:
        """Everything a later run needs to show the same chats (JSON-serialisable)."""
        return {
            "users": list(self.users.values()),
            "chats": list(self.chats.values()),
            "started": sorted(self.started),
            "admins": {str(k): v for k, v in self.admins.items()},
            "members": {str(k): sorted(v) for k, v in self.members.items()},
            "messages": {str(k): list(v.values()) for k, v in self._messages.items()},
            "next_message_id": {str(k): v for k, v in self._next_message_id.items()},
            "inline_messages": {k: list(v) for k, v in self._inline_messages.items()},
            "commands": [[s, lang, cmds] for (s, lang), cmds in self.commands.items()],
            "next_id": next(self._ids),
        }

    def restore(self, data: JSON) -> None:
        """Load a :meth:`snapshot`."""
        self.users = {u["id"]: u for u in data["users"]}
        self.chats = {c["id"]: c for c in data["chats"]}
        self.started = set(data["started"])
        self.admins = {int(k): v for k, v in data["admins"].items()}
        self.members = {int(k): set(v) for k, v in data["members"].items()}
        self._messages = {
            int(k): {m["message_id"]: m for m in v} for k, v in data["messages"].items()
        }
        self._next_message_id = {int(k): v for k, v in data["next_message_id"].items()}
        self._inline_messages = {k: (v[0], v[1]) for k, v in data["inline_messages"].items()}
        self.commands = {(s, lang): cmds for s, lang, cmds in data["commands"]}
        self._ids = itertools.count(data["next_id"])

    # ------------------------------------------------------------------ rules of access

    def _chat(self, chat_id: Any) -> JSON:
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            for chat in self.chats.values():
                if chat.get("username", "").lower() == chat_id[1:].lower():
                    return chat
        if isinstance(chat_id, int) and chat_id in self.chats:
            return self.chats[chat_id]
        raise bad_request("chat not found")

    def _writable_chat(self, chat_id: Any) -> JSON:
        chat = self._chat(chat_id)
        if chat["id"] in self.kicked:
            raise ApiError(403, "Forbidden: bot was kicked from the supergroup chat")
        if chat["type"] == "private":
            if chat["id"] in self.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat["id"] not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _find_editable(self, params: JSON) -> tuple[int, JSON]:
        message_id: Any
        inline_id = params.get("inline_message_id")
        if inline_id:
            if inline_id not in self._inline_messages:
                raise bad_request("MESSAGE_ID_INVALID")
            chat_id, message_id = self._inline_messages[inline_id]
        else:
            chat_id = self._writable_chat(params.get("chat_id"))["id"]
            message_id = params.get("message_id")
            if not isinstance(message_id, int):
                raise bad_request("message identifier is not specified")
        record = self._messages.get(chat_id, {}).get(message_id)
        if record is None or record["deleted"]:
            raise bad_request("message to edit not found")
        if not inline_id and record["from"]["id"] != self.bot_id:
            raise bad_request("message can't be edited")
        return chat_id, record

    def _apply_edit(self, chat_id: int, record: JSON, changes: JSON, inline: bool) -> Any:
        keys = ("text", "entities", "reply_markup")
        before = {k: record.get(k) for k in keys}
        after = {k: changes.get(k, before[k]) for k in keys}
        if before == after:
            raise bad_request(NOT_MODIFIED.removeprefix("Bad Request: "))
        for k in (*keys, "html", "parse_mode"):
            if k in changes:
                if changes[k] is None:
                    record.pop(k, None)
                else:
                    record[k] = changes[k]
        record["edit_date"] = int(time.time())
        self._emit({"type": "edit", "chat_id": chat_id, "message": clone(record)})
        return True if inline else public(record)

    def _delete(self, chat: JSON, message_id: Any) -> None:
        record = self._messages.get(chat["id"], {}).get(message_id)
        if record is None or record["deleted"]:
            raise bad_request("message to delete not found")
        if chat["type"] != "private" and record["from"]["id"] != self.bot_id:
            raise bad_request("message can't be deleted")
        record["deleted"] = True
        self._emit({"type": "delete", "chat_id": chat["id"], "message_id": message_id})

    def _member(self, chat: JSON, user_id: Any) -> JSON:
        if user_id == self.bot_id:
            return {"user": self.bot_user, "status": "member"}
        if user_id not in self.users:
            raise bad_request("PARTICIPANT_ID_INVALID")
        user = self.users[user_id]
        if chat["type"] == "private":
            status = "member"
        else:
            admins = self.admins.get(chat["id"], [])
            if admins and admins[0] == user_id:
                return {"user": user, "status": "creator", "is_anonymous": False}
            if user_id in admins:
                return {
                    "user": user,
                    "status": "administrator",
                    "can_be_edited": False,
                    "is_anonymous": False,
                    "can_manage_chat": True,
                    "can_delete_messages": True,
                    "can_manage_video_chats": True,
                    "can_restrict_members": True,
                    "can_promote_members": False,
                    "can_change_info": True,
                    "can_invite_users": True,
                    "can_post_stories": False,
                    "can_edit_stories": False,
                    "can_delete_stories": False,
                    "can_pin_messages": True,
                    "can_manage_topics": bool(chat.get("is_forum")),
                }
            status = "member" if user_id in self.members.get(chat["id"], set()) else "left"
        return {"user": user, "status": status}
