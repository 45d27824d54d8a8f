// The offline app's service worker: it keeps every file of one build (the list below, each with its SHA-256, written
// by clubs app build) and answers the app's requests from them, so the app starts and plays with no network. A new
// build is fetched in the background when the app is opened online: a file whose hash an older build's copy already
// has is taken from that copy, every other file is fetched past the browser's HTTP cache and kept only if its hash
// is the one listed (an update never runs a stale or altered file). The new build takes over at the next start, or
// when the page asks (the page's "Start the new version"), never in the middle of a match. The browser's store of
// tables, matches and ratings (IndexedDB) is the app's, not a build's: a new build keeps it.

const BUILD = "__BUILD__";
const FILES = {} /* __FILES__ */;
const SCOPE = new URL("./", self.location.href).pathname;
const PREFIX = `clubsuite-app:${SCOPE}:`; // one copy of the app per scope: another copy's files are not this one's
const CACHE = PREFIX + BUILD;

/** The SHA-256 of a response's bytes, in hex. */
async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** An older build's copy of ``path`` with the hash ``want``, or null. */
async function kept(path, want) {
  for (const key of await caches.keys()) {
    if (!key.startsWith(PREFIX) || key === CACHE) continue;
    const found = await (await caches.open(key)).match(path);
    if (found && (await sha256(found)) === want) return found;
  }
  return null;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const [path, want] of Object.entries(FILES)) {
      let response = await kept(path, want);
      if (!response) {
        response = await fetch(path, {cache: "no-cache"});
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        if ((await sha256(response)) !== want) throw new Error(`${path} is not the file of build ${BUILD}`);
      }
      await cache.put(path, response);
    }
  })());
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
  const path = url.pathname === SCOPE ? "index.html" : url.pathname.slice(SCOPE.length); // the app's root is its lobby
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    return (await cache.match(path)) || fetch(request); // table.html?local=... is table.html
  })());
});
