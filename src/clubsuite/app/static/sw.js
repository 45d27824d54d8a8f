// The offline app's service worker: it keeps every file of one build (the list below, written by clubs app build)
// and answers the app's requests from them, so the app starts and plays with no network. A new build is fetched in
// the background when the app is opened online; it takes over at the next start, or when the page asks (the page's
// "Start the new version"), never in the middle of a match. The browser's store of tables, matches and ratings
// (IndexedDB) is the app's, not a build's: a new build keeps it.

const BUILD = "__BUILD__";
const FILES = [] /* __FILES__ */;
const PREFIX = "clubsuite-app-";
const CACHE = PREFIX + BUILD;
const SCOPE = new URL("./", self.location.href).pathname;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "take-the-new-version") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request, {ignoreSearch: true}); // table.html?local=... is table.html
    return kept || fetch(request);
  })());
});
