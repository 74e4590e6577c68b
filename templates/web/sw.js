// The service worker, served at /sw.js by ledger/web/pwa.py. It keeps the app shell and every
// page opened on this phone that it may need at the table (the home page, a table's, group's or
// tournament's pages), so that it can be reopened with no connection; the page's script
// (ledger.js) keeps the hands entered there and sends them when it is back. A kept page is the
// latest this phone saw: the page asks for it to be fetched again when it is put away after its
// live part moved (ledger.js), and, opened from here, says when it was fetched ("as of 21:14").
// The network always comes first: a kept copy is shown only when the network fails. Nothing
// but GETs is ever kept or answered from here: a hand saved goes to the network, or fails.
"use strict";
const CONFIG = {{ config|safe }};
const SHELL = "ledger-shell-" + CONFIG.version;
// The pages outlive a version: they are fetched again when a new one starts. The last MOST
// stored are kept: a phone's tables of months ago need not be fetched every time.
const PAGES = "ledger-pages";
const MOST = 100;
// The pages kept: the home page; a table's (not its live poll, stream, exports or QR code); a
// group's, a tournament's results, projector and organiser's (not their streams or exports;
// not a group's organiser link, which only grants and sends on). A table's QR code.
const KEPT_PAGE = new RegExp(
  "^/(?:" +
  "t/[\\w-]+/(?!live/|stream/)(?:[\\w-]+/)*" +
  "|g/[\\w-]+/(?!stream/|organise/)(?:[\\w-]+/)*" +
  "|[eo]/[\\w-]+/(?!stream/)(?:[\\w-]+/)*" +
  ")?$"
);
const TABLE_QR = /^\/t\/[\w-]+\/qr\.svg$/;
// When a kept copy was fetched, as its page says once it is shown from here.
const KEPT_AT = "X-Ledger-Kept-At";
// A page whose live part moved is fetched again after this long, plus up to as long again at
// random: a burst of changes is one fetch, and a hall's phones do not all ask in one second.
const REFRESH_AFTER = 2000; // ms

self.addEventListener("install", (event) => {
  const shell = CONFIG.shell.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(shell)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("ledger-shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
    // Pages kept by an older version load its static files, which are gone: fetch them again.
    // A page open now was fetched before this worker ran: keep it too.
    const pages = await caches.open(PAGES);
    const kept = (await pages.keys()).map((request) => request.url);
    const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true }))
      .map((client) => client.url);
    const paths = new Set([...kept, ...open].map((url) => new URL(url).pathname));
    await Promise.all([...paths].filter((path) => KEPT_PAGE.test(path)).map(keep));
  })());
});

// A page that loaded while this worker was starting passed it unseen: it may not be controlled,
// and it is not kept. Each page says where it is once the worker is ready (ledger.js): it is
// claimed, and a page not kept yet is fetched and kept. A page whose live part moved asks, when
// it is put away, for its copy to be fetched again ({keep, fresh}): reopened offline, it is the
// latest seen.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !KEPT_PAGE.test(path)) {
    event.waitUntil(self.clients.claim());
    return;
  }
  const kept = event.data.fresh
    ? refresh(path)
    : caches.match(path, { cacheName: PAGES }).then((copy) => copy || keep(path));
  event.waitUntil(Promise.all([self.clients.claim(), kept]));
});

// The pages to fetch again, each once however often it moved meanwhile.
const refreshing = new Map(); // path -> a fetch that will start later

function refresh(path) {
  if (!refreshing.has(path)) {
    const wait = REFRESH_AFTER * (1 + Math.random());
    refreshing.set(path, new Promise((done) => setTimeout(done, wait)).then(() => {
      refreshing.delete(path);
      return keep(path);
    }));
  }
  return refreshing.get(path);
}

function storable(response) {
  return response.ok && response.type === "basic" && !response.redirected &&
    (response.headers.get("Content-Type") || "").startsWith("text/html");
}

// Stored as the latest, with when it was fetched, dropping the oldest beyond MOST.
async function store(request, response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, new Date().toISOString());
  headers.delete("Content-Length"); // the body as read, decoded: its own length
  headers.delete("Content-Encoding");
  const stamped = new Response(await response.blob(), { status: response.status, headers });
  const pages = await caches.open(PAGES);
  await pages.put(request, stamped);
  const all = await pages.keys();
  await Promise.all(all.slice(0, Math.max(0, all.length - MOST)).map((old) => pages.delete(old)));
}

// A kept page as it is shown with no connection: its <html> says when it was fetched, and the
// page's script says so on it (ledger.js).
async function shown(kept) {
  const at = kept.headers.get(KEPT_AT) || "";
  const html = (await kept.text()).replace(/<html\b/, `<html data-kept-at="${at.replace(/[^\w:.-]/g, "")}"`);
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: kept.status, headers });
}

// A page fetched again and kept; left as it was if the network fails.
async function keep(path) {
  try {
    const response = await fetch(path, { credentials: "same-origin" });
    if (storable(response)) await store(path, response);
    else if (response.status === 404) await caches.open(PAGES).then((pages) => pages.delete(path));
  } catch (error) {
    // No connection: the copy kept is the best there is.
  }
}

// A page: from the network, keeping it if it is one to keep; else the copy kept, saying when
// it was fetched, else the offline page.
async function navigate(event) {
  const path = new URL(event.request.url).pathname; // ?saved=3 is the same page
  try {
    const response = await fetch(event.request);
    if (KEPT_PAGE.test(path) && storable(response)) event.waitUntil(store(path, response.clone()));
    return response;
  } catch (error) {
    const kept = await caches.match(path, { cacheName: PAGES });
    if (kept) return shown(kept);
    return (await caches.match(CONFIG.offline, { cacheName: SHELL })) || Response.error();
  }
}

// A file the pages load: from the network (a table's kept too), else the copy kept.
async function load(event, table) {
  try {
    const response = await fetch(event.request);
    if (table && response.ok) event.waitUntil(store(event.request, response.clone()));
    return response;
  } catch (error) {
    const kept = await caches.match(event.request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(event));
  else if (CONFIG.shell.includes(url.pathname)) event.respondWith(load(event, false));
  else if (TABLE_QR.test(url.pathname)) event.respondWith(load(event, true));
});
