// SPDX-License-Identifier: GPL-3.0-or-later
// The page's service worker (issue 45, point 15): the site works offline
// once loaded, and a release is never half-loaded.
// - VERSION is a hash of every file of the site (scripts/web-stamp.py
//   writes it, make test-web checks it): a new release is a new sw.js, so
//   the browser installs it beside the old one.
// - Installing fetches the whole site (SITE, past the HTTP cache) into a
//   cache of that version; only a complete copy activates. A page keeps the
//   version it started with until every tab of the old one is closed (no
//   skipWaiting), so an old engine never meets new scripts, nor the reverse.
// - Every other file of the site fetched later (the catalogues under data/
//   the player opens) joins the version's cache when it is fetched, and
//   only then: nothing is fetched ahead.
// - Requests are answered from the cache first, then the network.
const VERSION = '11ec9c0f0a38';
const SITE = [
  './',
  'SOURCES.txt',
  'about.html',
  'chargesim.js',
  'chargesim.wasm',
  'icon.svg',
  'index.html',
  'js/about.js',
  'js/chart.js',
  'js/columns.js',
  'js/dicetoggle.js',
  'js/dom.js',
  'js/engine.js',
  'js/estimate.js',
  'js/export.js',
  'js/figure.js',
  'js/file.js',
  'js/form.js',
  'js/glossary.js',
  'js/link.js',
  'js/main.js',
  'js/mapview.js',
  'js/methods.js',
  'js/nav.js',
  'js/offline.js',
  'js/pkg.js',
  'js/plots.js',
  'js/pngtext.js',
  'js/progress.js',
  'js/results.js',
  'js/svgpen.js',
  'js/tabs.js',
  'js/units.js',
  'js/unitscols.js',
  'js/unitsoffline.js',
  'js/unitsview.js',
  'js/verdict.js',
  'js/waits.js',
  'js/wrap.js',
  'manifest.webmanifest',
  'style.css',
  'worker.js',
];
const CACHE = `chargesim-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(SITE.map((f) => new Request(f, {cache: 'reload'})))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((n) => n.startsWith('chargesim-') && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// A request of the site, from the cache, else the network (kept when good).
async function answer(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, {ignoreSearch: true});
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(answer(event.request));
});
