"""Keep the catalogs in step with the code: ``python -m engine.words.extract``.

It collects every source text of the engine (literal ``gettext``/``pgettext``/
``ngettext`` calls in ``engine/**.py``, plus the tables of ``engine.words`` such as
ranks, calls and refusals), then rewrites each ``locale/<lang>/LC_MESSAGES/engine.po``:
known translations are kept, new texts are added untranslated, texts gone from the
code are dropped. ``tests/`` checks that nothing is missing or stale.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import words
from engine.words.catalog import Entry, read_po

ENGINE = Path(__file__).resolve().parent.parent
LOCALE = Path(__file__).resolve().parent / "locale"
CALLS = {"gettext": 1, "_": 1, "pgettext": 2, "ngettext": 2, "InvalidValue": 1}
"""Calls whose literal arguments are source texts (``InvalidValue`` carries its own)."""


@dataclass(frozen=True, order=True)
class Message:
    """One source text: its context, its text and, for plurals, the plural text."""

    context: str | None
    msgid: str
    plural: str | None = None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def from_code(
    root: Path = ENGINE,
    calls: dict[str, int] = CALLS,
    skip: tuple[str, ...] = (),
    contextual: frozenset[str] = frozenset({"pgettext"}),
) -> set[Message]:
    """Texts written as literal arguments of gettext calls in the package's modules.

    ``calls``: the names of the calls and how many of their first arguments are texts;
    ``skip``: folders of ``root`` left out; ``contextual``: the calls whose first text is
    the context of the second (``pgettext`` and its markers).
    """
    found: set[Message] = set()
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in calls or len(node.args) < calls[name]:
                continue
            texts = [_literal(a) for a in node.args[: calls[name]]]
            if any(t is None for t in texts):
                continue
            if name in contextual:
                found.add(Message(texts[0], texts[1] or ""))
            elif name == "ngettext":
                found.add(Message(None, texts[0] or "", texts[1]))
            else:
                found.add(Message(None, texts[0] or ""))
    return found


def source_messages() -> list[Message]:
    """Every text the catalogs must translate, sorted."""
    tables = {Message(context, text) for context, text in words.messages()}
    return sorted(from_code() | tables, key=lambda m: (m.context or "", m.msgid))


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def render_po(
    header: str, messages: list[Message], known: dict[Message, list[str]], comment: str = ""
) -> str:
    """A ``.po`` file: ``comment``, ``header``, one entry per message, known translations kept."""
    out = [*comment.splitlines(), 'msgid ""', 'msgstr ""']
    out += [*(_quote(line + "\n") for line in header.splitlines()), ""]
    for m in messages:
        if m.context is not None:
            out.append(f"msgctxt {_quote(m.context)}")
        out.append(f"msgid {_quote(m.msgid)}")
        strs = known.get(m, [])
        if m.plural is not None:
            out.append(f"msgid_plural {_quote(m.plural)}")
            forms = strs or ["", ""]
            out += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(forms)]
        else:
            out.append(f"msgstr {_quote(strs[0] if strs else '')}")
        out.append("")
    return "\n".join(out)


def _key(e: Entry) -> Message:
    return Message(e.msgctxt, e.msgid, e.msgid_plural)


def update(path: Path, messages: list[Message]) -> str:
    """The new text of catalog ``path`` for these messages."""
    text = path.read_text(encoding="utf-8")
    entries = read_po(text, str(path))
    header = next((e.msgstr[0] for e in entries if e.msgid == "" and e.msgctxt is None), "")
    known = {_key(e): e.msgstr for e in entries if e.msgid and not e.fuzzy}
    comment = "\n".join(line for line in text.split("msgid", 1)[0].splitlines() if line)
    return render_po(header, messages, known, comment)


def main() -> int:
    """Rewrite every catalog; print how many texts each still lacks."""
    messages = source_messages()
    for path in sorted(LOCALE.glob(f"*/LC_MESSAGES/{words.DOMAIN}.po")):
        lang = path.parts[-3]
        if lang == words.SOURCE:
            continue  # the source catalog only names its language
        text = update(path, messages)
        path.write_text(text, encoding="utf-8")
        entries = read_po(text, str(path))
        missing = sum(1 for e in entries if e.msgid and not e.translated)
        print(f"{lang}: {len(messages)} texts, {missing} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
