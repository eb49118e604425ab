"""MkDocs hook of the "Jogar agora" page and the marcador: the game runs our own engine offline.

The play page runs the project's own Python engine and robots in the browser with Pyodide.
Pyodide comes from the npm registry, pinned to one version and checked against the registry's
integrity hash; it is downloaded once into a cache folder (``TRUCO_CACHE_DIR``, else
``$XDG_CACHE_HOME/truco`` or ``~/.cache/truco``) and only the files the game needs are copied
into the built site, under ``jogar/pyodide/``: the loader, the WebAssembly runtime and a Python
standard library trimmed to the modules Pyodide and the engine import. The engine itself
(``engine/`` without the command-line tools) is zipped into ``jogar/motor-<hash>.zip``.
Both zips are shipped compiled to bytecode by the very Pyodide they run on (under Node.js, at
build time, see ``compile_zip.cjs``; cached by content): compiling the sources at every first
start was most of the boot. Node.js is ``TRUCO_NODE``, else ``node`` on the PATH.
``TRUCO_PYODIDE_TGZ`` may name an already downloaded tarball (builds with no network).

Each offline page (the play page and the marcador) gets a service worker next to it
(``sw.js``, from ``offline-sw.js`` in this folder) that keeps the page, the theme's files and
the game's files in one versioned cache after the first visit: a new build gets a new cache
name, and the old cache is dropped when the new worker takes over. Nothing is fetched from
another host, at build time or at run time, except the one tarball from the npm registry.

The page asks for its table with ``{{ jogo.mesa() }}`` and the marcador with
``{{ jogo.marcador() }}``; both macros are filled in here. Every rule page (the pages under
"Regras") also gets a "Jogar agora" link at its end.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the hook runs from mkdocs, maybe outside the venv's editable path
    sys.path.insert(0, str(ROOT))

from engine import browser as web  # noqa: E402
from engine.marcador import site_config  # noqa: E402

PYODIDE_VERSION = "0.29.5"
"""Pyodide from npm (Python 3.13): the newest 0.x release, whose stdlib runs the engine as is."""
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_INTEGRITY = "sha512-TkYrUv9m8QmfImADKRmpwZulL48E0uUaBSO+dvRQKyAJc0qh9gu7jn8btyHPh3NZm1r2IH2YrJhIr7Q2B9urAw=="
"""The registry's ``dist.integrity`` of that tarball (``npm view pyodide@0.29.5 dist.integrity``)."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
"""The files of the npm package the game loads (the lock file is passed inline, no packages)."""

STDLIB_KEEP = frozenset(
    [
        "__future__",
        "_colorize",
        "_compression",
        "_opcode_metadata",
        "_py_abc",
        "_pyodide",
        "_sysconfigdata__emscripten_wasm32-emscripten",
        "_threading_local",
        "_weakrefset",
        "ast",
        "asyncio",
        "base64",
        "bisect",
        "bz2",
        "collections",
        "concurrent",
        "contextlib",
        "contextvars",
        "copy",
        "copyreg",
        "dataclasses",
        "datetime",
        "dis",
        "encodings",
        "enum",
        "fnmatch",
        "functools",
        "gettext",
        "glob",
        "hashlib",
        "heapq",
        "importlib",
        "inspect",
        "json",
        "keyword",
        "linecache",
        "locale",
        "logging",
        "numbers",
        "opcode",
        "operator",
        "pathlib",
        "pyodide",
        "queue",
        "random",
        "re",
        "reprlib",
        "selectors",
        "shutil",
        "signal",
        "site-packages",
        "socket",
        "string",
        "struct",
        "subprocess",
        "sysconfig",
        "tempfile",
        "textwrap",
        "threading",
        "token",
        "tokenize",
        "traceback",
        "types",
        "typing",
        "warnings",
        "weakref",
        "zipfile",
    ]
)
"""Top-level modules of the standard library kept in the browser: what Pyodide's start-up, the
engine (with gettext) and Python's tracebacks import, measured in the browser, plus their
neighbours. Everything else (email, http, xml, unittest, pydoc, the REPL...) is left out, and
so are the sources of the modules the runtime has frozen in (``FROZEN``): they never load."""
FROZEN = frozenset(
    [
        "_collections_abc",
        "_sitebuiltins",
        "abc",
        "codecs",
        "genericpath",
        "importlib/_bootstrap",
        "importlib/_bootstrap_external",
        "importlib/machinery",
        "importlib/util",
        "io",
        "ntpath",
        "os",
        "posixpath",
        "site",
        "stat",
        "zipimport",
    ]
)
"""Modules frozen into Pyodide's interpreter (their ``__spec__.origin`` is ``"frozen"``)."""
STDLIB_DROP = frozenset(
    [
        "asyncio/__main__",
        "asyncio/proactor_events",
        "asyncio/windows_events",
        "asyncio/windows_utils",
        "concurrent/futures/process",
        "logging/config",
        "logging/handlers",
        "pyodide/console",
        "sysconfig/__main__",
    ]
)
"""Modules of kept packages that nothing in the browser imports (Windows, processes, the
REPL, logging's configuration files): none was loaded after whole matches at every level."""
ENCODINGS_KEEP = frozenset(
    [
        "__init__",
        "aliases",
        "ascii",
        "charmap",
        "cp437",
        "latin_1",
        "raw_unicode_escape",
        "unicode_escape",
        "utf_16",
        "utf_16_be",
        "utf_16_le",
        "utf_32",
        "utf_8",
        "utf_8_sig",
    ]
)

ENGINE_SKIP = frozenset(
    [
        "__main__",
        "arena",
        "bench",
        "cli",
        "scenario",
        "terminal",
        "tutorial",
        "tools/arena",
        "tools/bench",
        "tools/cli",
        "tools/terminal",
        "tools/train",
        "robots/sparring",
        "words/extract",
    ]
)
"""Modules of ``engine/`` that stay out of the browser: the command-line tools (and the
arena's sparring robots, the policy's trainer) and the tutorial (the page's own table module, ``engine/browser.py``, goes in, and so do the
catalogs of ``engine.words``, read from their ``.po`` files)."""

OFFLINE_PAGES = {"jogar/": "Jogar agora", "marcador/": "Marcador"}
"""Pages that work offline after the first visit, each with its own service worker."""
RULE_SECTION = "Regras"
"""Pages of this nav section end with the "Jogar agora" button, and so do ``ALSO_RULES``."""
ALSO_RULES = frozenset({"como-jogar.md", "dicas.md", "perguntas.md"})
NOT_PLAYABLE = frozenset({"outros-trucos.md"})
"""Rule pages about trucos the game does not play."""
MACRO = re.compile(r"\{\{\s*jogo\.(\w+)\(\s*\)\s*\}\}")
LOCAL_REF = re.compile(r'(?:src|href)="([^"#?:]+)(?:[?#][^"]*)?"')


# ------------------------------------------------------------------ pyodide from npm


def cache_dir() -> Path:
    """Where downloaded files are kept between builds."""
    if os.environ.get("TRUCO_CACHE_DIR"):
        return Path(os.environ["TRUCO_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "truco"


def _check_integrity(data: bytes) -> None:
    algo, _, expected = PYODIDE_INTEGRITY.partition("-")
    actual = base64.b64encode(hashlib.new(algo, data).digest()).decode()
    if actual != expected:
        raise PluginError(f"o pacote do Pyodide {PYODIDE_VERSION} não confere com o do npm")


def _download() -> bytes:
    local = os.environ.get("TRUCO_PYODIDE_TGZ")
    if local:
        return Path(local).read_bytes()
    try:
        with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as resp:
            return bytes(resp.read())
    except OSError as exc:
        raise PluginError(
            f"não consegui baixar o Pyodide do npm ({PYODIDE_TARBALL}): {exc}; "
            "sem rede, aponte TRUCO_PYODIDE_TGZ para o arquivo .tgz"
        ) from None


def pyodide_dir() -> Path:
    """The cached Pyodide files (downloaded and checked the first time)."""
    folder = cache_dir() / f"pyodide-{PYODIDE_VERSION}"
    if all((folder / name).is_file() for name in (*PYODIDE_FILES, "lock-info.json")):
        return folder
    data = _download()
    _check_integrity(data)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="pyodide-", dir=folder.parent))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise PluginError(f"{name} não está no pacote do Pyodide")
            (tmp / name).write_bytes(member.read())
        lock = tar.extractfile("package/pyodide-lock.json")
        info = json.load(lock)["info"] if lock is not None else {}
    (tmp / "lock-info.json").write_text(json.dumps(info))
    try:
        tmp.rename(folder)  # atomic: parallel builds either see the whole folder or none
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another build got there first
    return folder


def _stdlib_keeps(name: str) -> bool:
    if name.removesuffix(".py") in FROZEN | STDLIB_DROP:
        return False
    top, _, rest = name.partition("/")
    if top.endswith(".py"):
        top = top[:-3]
    if top not in STDLIB_KEEP:
        return False
    if top == "encodings" and rest:
        return rest.removesuffix(".py") in ENCODINGS_KEEP
    return True


def trimmed_stdlib(source: Path) -> bytes:
    """Pyodide's standard library zip with only the modules the browser game imports."""
    out = io.BytesIO()
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if _stdlib_keeps(info.filename):
                zout.writestr(info, zin.read(info), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


# ------------------------------------------------------------------ the engine zip


def engine_files() -> list[Path]:
    """The engine's files the browser needs, in a stable order."""
    files = []
    engine = ROOT / "engine"
    for path in sorted(engine.rglob("*")):
        rel = path.relative_to(engine).as_posix()
        wanted = path.suffix in (".py", ".po") or rel.startswith("robots/data/")
        if not path.is_file() or "__pycache__" in rel or not wanted:
            continue  # robots/data: the hand tables and the betting policy (engine.robots)
        module = rel.removesuffix(".py").split("/")
        if any("/".join(module[:n]) in ENGINE_SKIP for n in range(1, len(module) + 1)):
            continue  # a skipped package stays out whole (tools/arena/...)
        files.append(path)
    return files


def engine_zip() -> bytes:
    """The engine as a zip, byte-for-byte the same for the same sources (fixed dates)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in engine_files():
            info = zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return out.getvalue()


# ------------------------------------------------------------------ bytecode

COMPILER = (Path(__file__).parent / "compile_zip.cjs", Path(__file__).parent / "compile_zip.py")
STDLIB_PREFIX = "/lib/python313.zip/"
"""Where Pyodide mounts its standard library (the file names tracebacks show)."""
ENGINE_DIR = "/home/pyodide/motor/"
"""Where the page's worker unpacks the engine (``site/jogar/motor.js``)."""


def node() -> str:
    """The Node.js that runs the build's Pyodide (``TRUCO_NODE``, else ``node`` on the PATH)."""
    found = os.environ.get("TRUCO_NODE") or shutil.which("node") or shutil.which("nodejs")
    if not found or not os.access(found, os.X_OK):
        raise PluginError(
            "o site precisa do Node.js para compilar o motor do Jogar agora "
            "(apt-get install nodejs, ou TRUCO_NODE=/caminho/do/node)"
        )
    return found


def compiled(sources: dict[str, tuple[bytes, str]]) -> dict[str, bytes]:
    """Zips of sources (name → (zip, prefix of its file names)) as zips of bytecode.

    Compiled once per content into the cache folder (``compilado/``), in one Node run for all
    that are missing; the file names carry the digest of the sources, not of the bytecode.
    """
    folder = cache_dir() / "compilado"
    tools = [path.read_bytes() for path in COMPILER]
    keys = {
        name: f"{name}-{_digest(data, prefix.encode(), PYODIDE_VERSION.encode(), *tools)}.zip"
        for name, (data, prefix) in sources.items()
    }
    out: dict[str, bytes] = {}
    for name, key in keys.items():
        with contextlib.suppress(FileNotFoundError):  # another build may prune it meanwhile
            out[name] = (folder / key).read_bytes()
    missing = [name for name in sources if name not in out]
    if missing:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            args = [
                node(),
                str(COMPILER[0]),
                str(pyodide_dir()),
                str(pyodide_dir() / "lock-info.json"),
            ]
            for name in missing:
                (Path(tmp) / f"{name}.py.zip").write_bytes(sources[name][0])
                args += [f"{tmp}/{name}.py.zip", f"{tmp}/{name}.pyc.zip", sources[name][1]]
            done = subprocess.run(args, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                raise PluginError(
                    f"não consegui compilar o motor com o Pyodide: {done.stderr[-2000:]}"
                )
            for name in missing:
                out[name] = (Path(tmp) / f"{name}.pyc.zip").read_bytes()
                (Path(tmp) / f"{name}.pyc.zip").rename(folder / keys[name])  # atomic
    # one compiled engine is enough: the older ones go (a build elsewhere compiles its own again)
    for old in folder.glob("motor-*.zip"):
        if old.name != keys.get("motor"):
            old.unlink(missing_ok=True)
    return out


def telegram_link() -> str:
    """Where "Jogar no Telegram" leads: the bot (``TRUCO_BOT_USERNAME``) or the guide page."""
    name = os.environ.get("TRUCO_BOT_USERNAME", "").lstrip("@")
    if re.fullmatch(r"\w{5,32}", name):
        return f"https://t.me/{name}"
    return "../telegram/"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:12]


class Bundle:
    """The game's files for one build: name → bytes, plus what the worker needs to know."""

    def __init__(self) -> None:
        folder = pyodide_dir()
        stdlib = trimmed_stdlib(folder / "python_stdlib.zip")
        motor = engine_zip()
        code = compiled({"stdlib": (stdlib, STDLIB_PREFIX), "motor": (motor, ENGINE_DIR)})
        runtime = {
            name: code["stdlib"] if name == "python_stdlib.zip" else (folder / name).read_bytes()
            for name in PYODIDE_FILES
        }
        # named by their sources, so caches can keep them across builds
        sources = [
            stdlib if name == "python_stdlib.zip" else data for name, data in runtime.items()
        ]
        self.pyodide = f"pyodide-{PYODIDE_VERSION}-{_digest(*sources)}/"
        self.files = {self.pyodide + name: data for name, data in runtime.items()}
        self.engine = f"motor-{_digest(motor)}.zip"
        self.files[self.engine] = code["motor"]
        self.lock_info = json.loads((folder / "lock-info.json").read_text())

    def config(self) -> dict[str, Any]:
        """What the page passes to its worker (paths relative to the page)."""
        return {
            "pyodide": self.pyodide,
            "engine": self.engine,
            "lock": self.lock_info,
            "sizes": {name: len(data) for name, data in self.files.items()},
            "version": PYODIDE_VERSION,
            "cache": "truco-jogar-baixados",
            "choices": web.choices(),
            "telegram": telegram_link(),
        }


# ------------------------------------------------------------------ mkdocs events

_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    """Fetch (or find in the cache) Pyodide and zip the engine, once per build."""
    _state["bundle"] = Bundle()
    return config


EARLY_BOOT = """<script>(function () {
  /* the engine starts booting while the rest of the page loads; site/assets/jogo.js adopts it */
  var el = document.currentScript && document.currentScript.previousElementSibling;
  if (!el || !window.Worker || window.trucoMotor) return;
  try {
    var config = JSON.parse(el.getAttribute("data-jogo-config"));
    var base = new URL(".", location.href).href;
    var early = { key: config.engine, started: performance.now(), messages: [] };
    early.worker = new Worker(new URL("motor.js", base).href);
    early.worker.onmessage = function (e) { early.messages.push(e.data); };
    early.worker.onerror = function (e) { early.failed = e.message || "erro no motor"; };
    early.worker.postMessage({ id: 1, op: "boot", config: config, base: base });
    window.trucoMotor = early;
  } catch (e) { /* jogo.js starts it then */ }
})();</script>"""
"""Inline, right after the table's frame: the worker starts before the theme's scripts load."""


def mesa() -> str:
    """The play page's frame; the worker's settings travel in a data attribute."""
    payload = html.escape(json.dumps(_state["bundle"].config(), separators=(",", ":")))
    return (
        f'\n<div class="jogo" data-jogo data-jogo-config="{payload}">'
        "<noscript><p>O jogo roda no navegador e precisa de JavaScript.</p></noscript>"
        f"</div>\n{EARLY_BOOT}\n"
    )


def marcador() -> str:
    """The marcador's frame; its numbers and words come from ``engine.marcador``."""
    payload = html.escape(json.dumps(site_config(), separators=(",", ":")))
    return (
        f'\n<div class="marcador" data-marcador data-marcador-config="{payload}">'
        "<noscript><p>O marcador precisa de JavaScript.</p></noscript>"
        "</div>\n"
    )


MACROS = {"mesa": mesa, "marcador": marcador}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Fill in ``{{ jogo.… }}`` and end every rule page with the way to play it."""

    def expand(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in MACROS:
            raise PluginError(f"{page.file.src_uri}: macro desconhecida jogo.{name}()")
        return MACROS[name]()

    markdown = MACRO.sub(expand, markdown)
    section = getattr(page.parent, "title", None)
    uri = page.file.src_uri
    if (section == RULE_SECTION or uri in ALSO_RULES) and uri not in NOT_PLAYABLE:
        link = posixpath.relpath("jogar/index.md", posixpath.dirname(page.file.src_uri) or ".")
        markdown += (
            "\n\n---\n\n"
            f"[▶ Jogar agora]({link}){{ .md-button .md-button--primary .jogar-agora }} "
            "uma partida inteira contra os robôs, aqui no navegador, com estas regras.\n"
        )
    return markdown


def _local_refs(page_html: str, page_dir: Path, site_dir: Path) -> list[str]:
    """Files of the site a built page loads (styles, scripts, images), as site paths."""
    refs = set()
    for url in LOCAL_REF.findall(page_html):
        target = (page_dir / url).resolve()
        try:
            rel = target.relative_to(site_dir.resolve()).as_posix()
        except ValueError:
            continue
        if target.is_file() and target.suffix in (".css", ".js", ".svg", ".png", ".ico", ".woff2"):
            refs.add(rel)
    return sorted(refs)


def write_service_worker(
    site_dir: Path, page: str, extra: dict[str, bytes], named: dict[str, bytes]
) -> None:
    """``<page>/sw.js``: the page, what it loads, ``extra`` and ``named`` files, in one cache.

    ``named`` files have their content in their name (they are reused from older caches).
    """
    page_dir = site_dir / page
    index = page_dir / "index.html"
    if not index.is_file():
        return
    page_html = index.read_text(encoding="utf-8")
    urls = ["./"]
    blobs = [page_html.encode()]
    # instant navigation reads the sitemap and the search box its index: both work offline too
    also = [
        rel for rel in ("sitemap.xml", "search/search_index.json") if (site_dir / rel).is_file()
    ]
    for rel in _local_refs(page_html, page_dir, site_dir) + also:
        urls.append(posixpath.relpath(rel, page.rstrip("/")))
        blobs.append((site_dir / rel).read_bytes())
    for name, data in extra.items():
        urls.append(name)
        blobs.append(data)
    blobs.extend(name.encode() for name in named)
    template = (Path(__file__).parent / "offline-sw.js").read_text(encoding="utf-8")
    cache = f"truco-{page.strip('/')}-{_digest(template.encode(), *blobs)}"
    script = (
        template.replace("__CACHE__", json.dumps(cache))
        .replace("__FILES__", json.dumps(urls, indent=2))
        .replace("__NAMED__", json.dumps(sorted(named), indent=2))
    )
    (page_dir / "sw.js").write_text(script, encoding="utf-8")


def on_post_build(config: Any) -> None:
    """Copy the game's files next to the play page and give each offline page its worker."""
    site_dir = Path(config["site_dir"])
    bundle: Bundle = _state["bundle"]
    play_dir = site_dir / "jogar"
    if not (play_dir / "index.html").is_file():
        return
    for name, data in bundle.files.items():
        target = play_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    motor_js = play_dir / "motor.js"
    extra = {"motor.js": motor_js.read_bytes()} if motor_js.is_file() else {}
    write_service_worker(site_dir, "jogar/", extra, bundle.files)
    write_service_worker(site_dir, "marcador/", {}, {})
