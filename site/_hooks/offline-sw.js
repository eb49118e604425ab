/* Service worker of one offline page (written next to the page by site/_hooks/jogo.py).
 * After the first visit the page, the theme's files and the game's files come from one
 * versioned cache, so the page opens with no network. Cache-first for those files only;
 * anything else goes to the network as usual. A new build has a new cache name: the new
 * worker fills it, then drops the old caches of this page.
 * FILES are fetched again at install; NAMED files have their content in their name, so a
 * copy in any cache of this page (an older version's, or the one the page's own worker filled
 * while downloading) is reused instead of downloading it twice. */
"use strict";
var CACHE = __CACHE__;
var FILES = __FILES__;
var NAMED = __NAMED__;
var PREFIX = CACHE.replace(/-[0-9a-f]+$/, "-");

function absolute(url) {
  return new URL(url, self.location).href;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      var fresh = FILES.map(function (url) {
        return cache.add(new Request(absolute(url), { cache: "no-cache" }));
      });
      var named = NAMED.map(function (url) {
        return caches.match(absolute(url)).then(function (hit) {
          return hit ? cache.put(absolute(url), hit) : cache.add(absolute(url));
        });
      });
      return Promise.all(fresh.concat(named));
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name !== CACHE && name.indexOf(PREFIX) === 0;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

var KNOWN = new Set(FILES.concat(NAMED).map(absolute));

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = request.url.split("#")[0].split("?")[0];
  if (request.mode === "navigate" && url === absolute("./index.html")) url = absolute("./");
  if (!KNOWN.has(url)) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(url).then(function (hit) {
        return hit || fetch(request).then(function (response) {
          if (response.ok) cache.put(url, response.clone());
          return response;
        });
      });
    })
  );
});
