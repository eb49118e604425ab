/* The engine of the "Jogar agora" page, in a web worker: Pyodide (vendored into the site at
 * build time, see site/_hooks/jogo.py), the project's own engine and robots, and the page's
 * table (engine/browser.py). The page sends {id, op, ...}; every answer is {id, state,
 * snapshot} with the table's JSON, or {id, error}. While booting the worker reports
 * {progress: {done, total, stage}}. Nothing here knows a rule of truco. */
"use strict";

var py = null;
var Table = null; /* engine.browser.Table */
var table = null;
var boot = null;

function post(message) {
  self.postMessage(message);
}

/* Every file of the runtime is fetched here: the bytes are counted for the progress bar and a
 * copy goes to the page's cache, so the service worker need not download them again. Pyodide
 * gets the response itself (not a copy), so the browser can reuse its compiled WebAssembly. */
function watchFetch(config, base) {
  var realFetch = self.fetch.bind(self);
  var total = 0;
  Object.keys(config.sizes).forEach(function (name) { total += config.sizes[name]; });
  var done = 0;
  var stored = [];
  var store = self.caches ? self.caches.open(config.cache).catch(function () { return null; }) : Promise.resolve(null);
  var early = {};
  self.fetch = function (input, init) {
    var url = new URL(input instanceof Request ? input.url : String(input), base).href;
    if (early[url] && (!init || Object.keys(init).length === 0)) { // Pyodide passes {}
      var started = early[url];
      delete early[url];
      return started;
    }
    return realFetch(input, init).then(function (response) {
      if (!response.ok || !response.body) return response;
      var cached = response.clone();
      stored.push(store.then(function (cache) { return cache && cache.put(url, cached); }).catch(function () {}));
      var reader = response.clone().body.getReader();
      (function pump() {
        reader.read().then(function (chunk) {
          if (chunk.done) return;
          done += chunk.value.byteLength;
          post({ progress: { done: done, total: total, stage: "baixando" } });
          pump();
        }, function () {});
      })();
      return response;
    });
  };
  return {
    /* every file at once, from the start: the first fetch of each url gets this response */
    prefetch: function (urls) {
      urls.forEach(function (url) { early[url] = self.fetch(url); });
    },
    /* the service worker starts once the game is ready: by then every copy must be stored */
    allStored: function () { return Promise.all(stored); }
  };
}

/* A script of the runtime, through fetch (counted and stored) instead of importScripts. */
function loadScript(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.blob();
  }).then(function (blob) {
    var local = URL.createObjectURL(blob);
    try { importScripts(local); } finally { URL.revokeObjectURL(local); }
  });
}

/* Python's memory once the engine is imported, kept by the browser after the first visit: a
 * later visit restores it instead of starting Python and importing the engine again (most of
 * the boot). Its own cache, outside the service worker's "truco-jogar-" caches, holds one
 * entry named by the runtime's and the engine's content, so a new build never restores an old
 * engine; anything wrong with it and the worker boots the usual way and replaces it. */
var STATE_CACHE = "truco-motor-estado";
var ENGINE_DIR = "/home/pyodide/motor";

function stateURL(config, base) {
  return new URL("estado/" + config.pyodide.replace(/\/$/, "") + "-" + config.engine + ".bin", base).href;
}

function openState() {
  return self.caches ? self.caches.open(STATE_CACHE).catch(function () { return null; }) : Promise.resolve(null);
}

/* Pyodide checks a copy's header only once WebAssembly has started, and a copy too short for
 * the runtime's memory (a write cut short) leaves loadPyodide waiting forever: check first.
 * The header (pyodide.asm.js, makeSnapshot): a magic number, then where the memory starts;
 * the memory is whole WebAssembly pages, at least the runtime's initial 320. */
var STATE_MAGIC = 1886286592;
var PAGE = 65536;

function wholeState(bytes) {
  if (bytes.byteLength < 16) return false;
  var head = new Uint32Array(bytes.buffer, bytes.byteOffset, 4);
  var memory = bytes.byteLength - head[1];
  return head[0] === STATE_MAGIC && memory >= 320 * PAGE && memory % PAGE === 0;
}

/* About half of the memory is zero pages: the cache keeps only the others, so a later visit
 * reads half as much (a copying pass, no compression to undo). Stored: [SPARSE, length, pages]
 * as 32-bit words, one byte per 4 KB page (1: stored), then the stored pages. */
var SPARSE = 0x74727563;
var CHUNK = 4096;

function sparse(bytes) {
  var pages = Math.ceil(bytes.byteLength / CHUNK);
  var words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  var kept = new Uint8Array(pages);
  var count = 0;
  for (var p = 0; p < pages; p++) {
    var end = Math.min((p + 1) * CHUNK, bytes.byteLength);
    for (var w = p * CHUNK >> 2; w < end >> 2; w++) {
      if (words[w]) { kept[p] = 1; break; }
    }
    for (var b = end & ~3; !kept[p] && b < end; b++) if (bytes[b]) kept[p] = 1;
    count += kept[p];
  }
  var head = 12 + pages;
  var out = new Uint8Array(head + count * CHUNK);
  new Uint32Array(out.buffer, 0, 3).set([SPARSE, bytes.byteLength, pages]);
  out.set(kept, 12);
  var at = head;
  for (p = 0; p < pages; p++) {
    if (!kept[p]) continue;
    var page = bytes.subarray(p * CHUNK, Math.min((p + 1) * CHUNK, bytes.byteLength));
    out.set(page, at);
    at += CHUNK;
  }
  return out;
}

function dense(stored) {
  if (stored.byteLength < 12) return null;
  var head = new Uint32Array(stored.buffer, stored.byteOffset, 3);
  var pages = head[2];
  if (head[0] !== SPARSE || pages !== Math.ceil(head[1] / CHUNK) || stored.byteLength < 12 + pages) return null;
  var kept = stored.subarray(12, 12 + pages);
  var count = 0;
  for (var p = 0; p < pages; p++) count += kept[p];
  if (stored.byteLength !== 12 + pages + count * CHUNK) return null;
  var bytes = new Uint8Array(head[1]);
  var at = 12 + pages;
  for (p = 0; p < pages; p++) {
    if (!kept[p]) continue;
    var size = Math.min(CHUNK, head[1] - p * CHUNK);
    bytes.set(stored.subarray(at, at + size), p * CHUNK);
    at += CHUNK;
  }
  return bytes;
}

function readState(url) {
  return openState().then(function (cache) {
    return cache && cache.match(url);
  }).then(function (hit) {
    return hit ? hit.arrayBuffer().then(function (buf) { return dense(new Uint8Array(buf)) || new Uint8Array(0); }) : null;
  }).then(function (bytes) {
    if (!bytes || wholeState(bytes)) return bytes;
    console.warn("cópia do motor incompleta, carregando do zero");
    return null;
  }).catch(function () { return null; });
}

function forgetState(keep) {
  return openState().then(function (cache) {
    if (!cache) return null;
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.url !== keep; }).map(function (k) { return cache.delete(k); }));
    });
  }).catch(function () {});
}

/* Right after the worker said it is ready, before it handles any table: the copy of the memory
 * (the size of Python's heap, about 20 MB) is taken then and written to the cache in the
 * background. */
function keepState(url) {
  var snapshot;
  try {
    snapshot = py.makeMemorySnapshot();
  } catch (e) {
    console.warn("sem cópia do motor: " + (e && e.message || e));
    return Promise.resolve();
  }
  return openState().then(function (cache) {
    if (!cache) return null;
    return cache.put(url, new Response(sparse(snapshot), { headers: { "Content-Type": "application/octet-stream" } }))
      .then(function () { return forgetState(url); });
  }).catch(function () {});
}

function bootPython(config, pyodideURL, snapshot) {
  var options = {
    indexURL: pyodideURL,
    lockFileContents: { info: config.lock, packages: {} },
    stdout: function () {},
    stderr: function (line) { console.warn(line); }
  };
  if (snapshot) options._loadSnapshot = snapshot;
  else options._makeSnapshot = true;
  return self.loadPyodide(options);
}

function start(config, base) {
  var t0 = performance.now();
  var timings = {};
  var mark = function (name) { timings[name] = Math.round(performance.now() - t0); };
  var files = watchFetch(config, base);
  var pyodideURL = new URL(config.pyodide, base).href;
  var engineURL = new URL(config.engine, base).href;
  var scripts = [pyodideURL + "pyodide.js", pyodideURL + "pyodide.asm.js"];
  var savedURL = stateURL(config, base);
  var saved = readState(savedURL).then(function (s) { mark("state"); return s; });
  var zip = null;
  var restored = false;
  var stored = self.caches ? self.caches.match(scripts[1]).then(function (hit) { return !!hit; }, function () { return false; }) : Promise.resolve(false);
  return stored.then(function (cached) {
    files.prefetch((cached ? [] : scripts).concat([pyodideURL + "pyodide.asm.wasm", pyodideURL + "python_stdlib.zip", engineURL]));
    zip = fetch(engineURL).then(function (response) {
      if (!response.ok) throw new Error("motor: " + response.status);
      return response.arrayBuffer();
    });
    // a later visit: straight from the service worker, so the browser's code cache applies
    // (a blob copy, counted for the progress bar, is compiled anew every time)
    if (cached) return importScripts.apply(self, scripts);
    // defines _createPyodideModule, so loadPyodide does not load it again
    return loadScript(scripts[0]).then(function () { return loadScript(scripts[1]); });
  }).then(function () {
    mark("scripts");
    return saved;
  }).then(function (snapshot) {
    if (!snapshot) return bootPython(config, pyodideURL, null);
    return bootPython(config, pyodideURL, snapshot).then(function (pyodide) {
      restored = true;
      return pyodide;
    }, function (e) {
      console.warn("cópia do motor recusada, carregando do zero: " + (e && e.message || e));
      return bootPython(config, pyodideURL, null);
    });
  }).then(function (pyodide) {
    py = pyodide;
    mark("pyodide");
    post({ progress: { done: 1, total: 1, stage: "regras" } });
    return zip;
  }).then(function (bytes) {
    // the files (the robots' tables, the words' catalogs) are read on use, even when the
    // modules come from the restored memory
    py.unpackArchive(bytes, "zip", { extractDir: ENGINE_DIR });
    if (restored) {
      // the restored memory holds the first visit's random state (deal anew) and finders
      // that saw the first visit's files (importlib.invalidate_caches would import email)
      py.runPython(
        "import random, sys\n" +
        "random.seed()\n" +
        "for path in [p for p in sys.path_importer_cache if p.startswith('" + ENGINE_DIR + "')]:\n" +
        "    del sys.path_importer_cache[path]\n"
      );
    } else {
      py.runPython(
        "import sys\n" +
        "sys.path.insert(0, '" + ENGINE_DIR + "')\n" +
        "from engine import browser as web\n"
      );
    }
    mark("engine");
    Table = py.globals.get("web").Table;
    return files.allStored();
  }).then(function () {
    timings.restored = restored;
    return { ms: performance.now() - t0, timings: timings, keep: restored ? null : savedURL };
  });
}

function answer(id, json) {
  post({ id: id, state: JSON.parse(json), snapshot: table.snapshot() });
}

function handle(msg) {
  try {
    if (msg.op === "new") {
      if (table) table.destroy();
      var setup = py.toPy(msg.setup);
      table = Table.new(setup);
      setup.destroy();
      return answer(msg.id, table.state());
    }
    if (msg.op === "restore") {
      var restored = Table.restore(msg.snapshot);
      if (table) table.destroy();
      table = restored;
      return answer(msg.id, table.state());
    }
    if (!table) return post({ id: msg.id, error: "sem partida" });
    if (msg.op === "act") return answer(msg.id, table.act(msg.action));
    if (msg.op === "robot") return answer(msg.id, table.robot());
    if (msg.op === "deal") return answer(msg.id, table.next_hand());
    if (msg.op === "rematch") return answer(msg.id, table.rematch());
    if (msg.op === "timeout") return answer(msg.id, table.time_out());
    if (msg.op === "state") return answer(msg.id, table.state());
    post({ id: msg.id, error: "pedido desconhecido: " + msg.op });
  } catch (e) {
    post({ id: msg.id, error: String(e && e.message || e) });
  }
}

self.onmessage = function (event) {
  var msg = event.data;
  if (msg.op === "boot") {
    boot = boot || start(msg.config, msg.base);
    boot.then(function (info) {
      post({ id: msg.id, ready: true, ms: info.ms, timings: info.timings });
      if (info.keep) {
        // now: this callback runs before those of the messages that waited for the boot, so
        // the copy holds no table and the random state no deal has used
        keepState(info.keep);
        info.keep = null;
      }
    }, function (e) {
      post({ id: msg.id, error: "O motor não carregou: " + String(e && e.message || e) });
    });
    return;
  }
  boot.then(function () { handle(msg); });
};
