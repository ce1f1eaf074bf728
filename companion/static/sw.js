/* The companion's service worker: the app opens with no connection once it has been loaded.
 *
 * Pages (navigations): network first, the last copy of the page when offline. The companion's own
 * scripts, styles, fonts and icons: from the cache, refreshed in the background. API calls are never
 * cached here: a phone offline says so, and app.js keeps the moves made meanwhile in its outbox.
 * (Browsers run service workers on https:// and on localhost only; on a plain http:// Wi-Fi address
 * the pages work as before, without this.)
 */
"use strict";
const CACHE = "tokyo-kit-v1";
const SHELL = ["/", "/join", "/static/app.css", "/static/app.js", "/static/table.js", "/static/timer.js",
               "/static/at_table.js", "/static/at_table.css",
               "/static/new_table.js", "/static/home.js", "/manifest.webmanifest", "/icons/192.png",
               "/fonts/NotoSansJP-Kit-Regular.ttf", "/fonts/NotoSansJP-Kit-Bold.ttf"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) {
    return;                                     // writes and the API always go to the server
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request).then((hit) => hit || caches.match("/"))));
    return;
  }
  event.respondWith(caches.match(request).then((hit) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    });
    if (hit) { fresh.catch(() => null); return hit; }
    return fresh;
  }));
});
