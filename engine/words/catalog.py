"""Gettext catalogs read straight from their ``.po`` files, with the standard library only.

The ``.po`` file is the only form kept in the repository: it is what translators edit
and what a review reads, and nothing compiled can drift from it. ``read_po`` parses it
and ``translations`` compiles it in memory into the ``.mo`` layout that
``gettext.GNUTranslations`` reads, so plural forms and contexts (``pgettext``) work
exactly as with GNU gettext, in the bot, the terminal, the MkDocs hooks and Pyodide
alike, with no build step on a fresh clone.
"""

from __future__ import annotations

import ast
import io
import struct
from dataclasses import dataclass, field
from gettext import GNUTranslations

MO_MAGIC = 0x950412DE


@dataclass
class Entry:
    """One message of a catalog."""

    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    """One string, or one per plural form."""
    fuzzy: bool = False

    @property
    def translated(self) -> bool:
        """Whether every form has a translation (fuzzy entries do not count, as in msgfmt)."""
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


class PoError(ValueError):
    """A ``.po`` file that cannot be read."""


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {text!r}")
    try:
        value = ast.literal_eval(text)  # C escapes of .po (\n, \t, \", \\) are Python's too
    except (SyntaxError, ValueError) as exc:
        raise PoError(f"{where}: bad string {text!r}") from exc
    if not isinstance(value, str):
        raise PoError(f"{where}: bad string {text!r}")
    return value


def read_po(text: str, name: str = "<po>") -> list[Entry]:
    """Every entry of a ``.po`` file, the header (``msgid ""``) included."""
    entries: list[Entry] = []
    entry: Entry | None = None
    fuzzy = False
    target: tuple[str, int] | None = None  # the field continued by a bare "..." line

    def finish() -> None:
        nonlocal entry
        if entry is not None:
            entries.append(entry)
        entry = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if entry is not None and target is not None and target[0] == "msgstr":
                finish()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if entry is None or target is None:
                raise PoError(f"{where}: string outside an entry")
            value = _unquote(line, where)
            kind, index = target
            if kind == "msgstr":
                entry.msgstr[index] += value
            else:
                setattr(entry, kind, (getattr(entry, kind) or "") + value)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgctxt" or (keyword == "msgid" and (entry is None or entry.msgstr)):
            finish()
            entry = Entry(msgid="", fuzzy=fuzzy)
            fuzzy = False  # flags belong to the entry they precede
        if entry is None:
            raise PoError(f"{where}: {keyword} before msgid")
        value = _unquote(rest, where)
        if keyword == "msgctxt":
            entry.msgctxt = value
            target = ("msgctxt", 0)
        elif keyword == "msgid":
            entry.msgid = value
            target = ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.msgid_plural = value
            target = ("msgid_plural", 0)
        elif keyword == "msgstr":
            entry.msgstr = [value]
            target = ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            index = int(keyword[7:-1])
            if index != len(entry.msgstr):
                raise PoError(f"{where}: plural forms out of order")
            entry.msgstr.append(value)
            target = ("msgstr", index)
        else:
            raise PoError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return entries


def compile_mo(entries: list[Entry]) -> bytes:
    """The ``.mo`` bytes of these entries (untranslated and fuzzy ones left out)."""
    messages: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid == "" and e.msgctxt is None:
            messages[b""] = "".join(e.msgstr).encode()  # the header: charset, plural forms
            continue
        if not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else f"{e.msgid}\0{e.msgid_plural}"
        if e.msgctxt is not None:
            key = f"{e.msgctxt}\x04{key}"
        messages[key.encode()] = "\0".join(e.msgstr).encode()
    keys = sorted(messages)
    ids = strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    keystart = 7 * 4 + 16 * len(keys)
    valuestart = keystart + len(ids)
    table: list[int] = []
    for o1, l1, _, _ in offsets:
        table += [l1, o1 + keystart]
    for _, _, o2, l2 in offsets:
        table += [l2, o2 + valuestart]
    header = struct.pack("<7I", MO_MAGIC, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    return header + struct.pack(f"<{len(table)}I", *table) + ids + strs


def translations(po_text: str, name: str = "<po>") -> GNUTranslations:
    """A ``GNUTranslations`` built from the text of a ``.po`` file."""
    return GNUTranslations(io.BytesIO(compile_mo(read_po(po_text, name))))
