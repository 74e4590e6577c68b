// The service worker, served at /sw.js by ledger/web/pwa.py. It keeps the app shell and every
// table page opened on this phone, so that a table can be reopened with no connection; the
// page's script (ledger.js) keeps the hands entered there and sends them when it is back.
// The network always comes first: a kept copy is shown only when the network fails. Nothing
// but GETs is ever kept or answered from here: a hand saved goes to the network, or fails.
"use strict";
const CONFIG = {{ config|safe }};
const SHELL = "ledger-shell-" + CONFIG.version;
// The tables' pages outlive a version: they are fetched again when a new one starts. The
// last MOST stored are kept: a phone's tables of months ago need not be fetched every time.
const PAGES = "ledger-pages";
const MOST = 100;
// A table's pages (not its live poll, stream, exports or QR code), its QR code, its live poll
// (ledger/tables/urls.py).
const TABLE_PAGE = /^\/t\/[\w-]+\/(?!live\/|stream\/)(?:[\w-]+\/)*$/;
const TABLE_QR = /^\/t\/[\w-]+\/qr\.svg$/;
const LIVE = /^(\/t\/[\w-]+\/)live\/$/;

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
    // A table page open now was fetched before this worker ran: keep it too.
    const pages = await caches.open(PAGES);
    const kept = (await pages.keys()).map((request) => request.url);
    const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true }))
      .map((client) => client.url);
    const paths = new Set([...kept, ...open].map((url) => new URL(url).pathname));
    await Promise.all([...paths].filter((path) => TABLE_PAGE.test(path)).map(keep));
  })());
});

// A page that loaded while this worker was starting passed it unseen: it may not be controlled,
// and a table's is not kept. Each page says where it is once the worker is ready (ledger.js):
// it is claimed, and a table's page not kept yet is fetched and kept.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string") return;
  const kept = TABLE_PAGE.test(path)
    ? caches.match(path, { cacheName: PAGES }).then((copy) => copy || keep(path))
    : null;
  event.waitUntil(Promise.all([self.clients.claim(), kept]));
});

function storable(response) {
  return response.ok && response.type === "basic" && !response.redirected &&
    (response.headers.get("Content-Type") || "").startsWith("text/html");
}

// Stored as the latest, dropping the oldest beyond MOST.
async function store(request, response) {
  const pages = await caches.open(PAGES);
  await pages.put(request, response);
  const all = await pages.keys();
  await Promise.all(all.slice(0, Math.max(0, all.length - MOST)).map((old) => pages.delete(old)));
}

// A table page fetched again and kept; left as it was if the network fails.
async function keep(path) {
  try {
    const response = await fetch(path, { credentials: "same-origin" });
    if (storable(response)) await store(path, response);
    else if (response.status === 404) await caches.open(PAGES).then((pages) => pages.delete(path));
  } catch (error) {
    // No connection: the copy kept is the best there is.
  }
}

// A page: from the network, keeping a table's; else the copy kept, else the offline page.
async function navigate(event) {
  const path = new URL(event.request.url).pathname; // ?saved=3 is the same page
  try {
    const response = await fetch(event.request);
    if (TABLE_PAGE.test(path) && storable(response)) event.waitUntil(store(path, response.clone()));
    return response;
  } catch (error) {
    const kept = await caches.match(path, { cacheName: PAGES });
    return kept || (await caches.match(CONFIG.offline, { cacheName: SHELL })) || Response.error();
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

// The live poll answers 200 when the table changed: the table page kept here follows, so
// that, reopened with no connection, it shows the hands and the next hand number seen last.
async function poll(event, table) {
  const response = await fetch(event.request);
  if (response.status === 200) {
    event.waitUntil(caches.match(table, { cacheName: PAGES }).then((kept) => kept && keep(table)));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const live = LIVE.exec(url.pathname);
  if (request.mode === "navigate") event.respondWith(navigate(event));
  else if (live) event.respondWith(poll(event, live[1]));
  else if (CONFIG.shell.includes(url.pathname)) event.respondWith(load(event, false));
  else if (TABLE_QR.test(url.pathname)) event.respondWith(load(event, true));
});
