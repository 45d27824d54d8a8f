// The service worker of turn-based tables' pushes (served at /push-sw.js, its scope the whole site). It does one
// thing: a push's payload ({"kind": "your_turn", "table", "title", "url", "turn_of"}, or {"kind": "match_over",
// "table", "title", "place", "of", "won", "url"}) becomes a notification ("Your turn: <table>", "Match over:
// <table>", one per table: a newer one replaces it), and a click on it opens the table, or focuses a window that
// shows it already. It never shows a card: the payload holds none. Its words are the reader's, given by the page
// that registered it (the query of its address: ``your_turn``, ``body``, ``over``, ``over_body``, ``won_body``),
// English where none was given.
"use strict";

const words = new URL(self.location.href).searchParams;
const YOUR_TURN = words.get("your_turn") || "Your turn: {title}";
const BODY = words.get("body") || "Open the table to play your move.";
const OVER = words.get("over") || "Match over: {title}";
const OVER_BODY = words.get("over_body") || "Your place: {place} of {of}.";
const WON_BODY = words.get("won_body") || "You won.";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const over = data.kind === "match_over";
  const title = (over ? OVER : YOUR_TURN).replace("{title}", String(data.title || ""));
  const place = data.won === true ? WON_BODY : OVER_BODY.replace("{place}", String(data.place || "")).replace("{of}", String(data.of || ""));
  const body = over ? place : BODY;
  const url = typeof data.url === "string" && data.url ? data.url : "/your-turn";
  event.waitUntil(self.registration.showNotification(title, {
    body,
    tag: data.table ? String(data.table) : "turns",
    renotify: true,
    data: {url},
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const asked = new URL(event.notification.data && event.notification.data.url ? event.notification.data.url : "/your-turn", self.location.origin);
  const target = new URL(asked.pathname + asked.search, self.location.origin); // always a page of this site
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    for (const client of open) {
      if (new URL(client.url).pathname === target.pathname && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target.href);
  })());
});
