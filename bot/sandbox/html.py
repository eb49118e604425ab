"""Telegram's HTML parse mode: turn ``<b>…</b>`` markup into plain text plus message entities.

Strict where Telegram is strict (unknown tags, stray ``<``, unbalanced tags raise), so a bot that
passes here will not get "can't parse entities" from the real Bot API.
"""

from __future__ import annotations

import html
import re
from typing import Any

TAG_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}

_TOKEN = re.compile(
    r"<(?P<close>/?)(?P<name>[a-zA-Z][a-zA-Z0-9-]*)(?P<attrs>(?:\s+[^<>]*?)?)\s*>"
    r"|&(?P<entity>#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);"
    r"|(?P<lt><)"
)
_ATTR = re.compile(r"""([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


class ParseError(ValueError):
    """The text is not valid Telegram HTML; the message is Telegram's description suffix."""


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)`` for a Telegram HTML-formatted text."""
    out: list[str] = []
    pos16 = 0
    stack: list[tuple[str, int, dict[str, Any]]] = []
    entities: list[dict[str, Any]] = []
    i = 0
    for m in _TOKEN.finditer(source):
        chunk = source[i : m.start()]
        out.append(chunk)
        pos16 += utf16_len(chunk)
        i = m.end()
        offset = len(source[: m.start()].encode("utf-8"))
        if m.group("lt"):
            raise ParseError(f"Unsupported start tag at byte offset {offset}")
        if m.group("entity"):
            name = m.group("entity")
            if name.startswith("#"):
                code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
                text = chr(code)
            elif name in _NAMED_ENTITIES:
                text = _NAMED_ENTITIES[name]
            else:
                # Telegram keeps unknown named entities as literal text.
                text = m.group(0)
            out.append(text)
            pos16 += utf16_len(text)
            continue
        tag = m.group("name").lower()
        if tag not in TAG_TYPES:
            kind = "end" if m.group("close") else "start"
            raise ParseError(f'Unsupported {kind} tag "{tag}" at byte offset {offset}')
        if m.group("close"):
            if not stack:
                raise ParseError(f"Unexpected end tag at byte offset {offset}")
            open_tag, start, closed = stack.pop()
            if open_tag != tag:
                raise ParseError(
                    f'Unmatched end tag at byte offset {offset}, expected "</{open_tag}>", '
                    f'found "</{tag}>"'
                )
            if pos16 > start:
                entities.append(
                    {"type": TAG_TYPES[tag], "offset": start, "length": pos16 - start, **closed}
                )
            continue
        attrs = {a: (b or c or d) for a, b, c, d in _ATTR.findall(m.group("attrs") or "")}
        extra: dict[str, Any] = {}
        if tag == "a":
            if "href" not in attrs:
                raise ParseError(f'Tag "a" must have attribute "href" at byte offset {offset}')
            extra["url"] = html.unescape(attrs["href"])
        elif tag == "span" and attrs.get("class") != "tg-spoiler":
            raise ParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        elif tag == "blockquote" and "expandable" in (m.group("attrs") or ""):
            extra["type"] = "expandable_blockquote"
        elif tag == "tg-emoji":
            extra["custom_emoji_id"] = attrs.get("emoji-id", "")
        elif tag == "code" and stack and stack[-1][0] == "pre" and "class" in attrs:
            lang = attrs["class"].removeprefix("language-")
            stack[-1][2]["language"] = lang
        stack.append((tag, pos16, extra))
    tail = source[i:]
    out.append(tail)
    if stack:
        raise ParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities
