// SPDX-License-Identifier: GPL-3.0-or-later
// An army for offline use (issue 52). sw.js keeps what the player opened;
// an army never opened, asked for with no connection, cannot be fetched.
// The page says so, and offers to save every army now: each compressed
// catalogue and mapping of data/index.json put into the service worker's
// cache (the one whose name starts with chargesim-, the site's version),
// their size summed from the index's "bytes" (scripts/web-data.py).

import {el} from './dom.js';
import * as units from './units.js';

// Whether an error (a worker's refusal or a thrown one) is a fetch that
// failed: the network, not the army.
export function isFetchFailure(text) {
  return /Failed to fetch|NetworkError|Load failed|network/i.test(text ?? '');
}

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

// Every file a site copy needs for any army: the catalogues and the mappings.
function every(idx) {
  const files = new Set(idx.mappings);
  for (const g of idx.games) for (const a of g.armies) for (const f of a.files) files.add(f);
  return [...files];
}

async function cacheOf() {
  const names = (await caches.keys()).filter((n) => n.startsWith('chargesim-'));
  // The site's version's cache (sw.js); the newest when two are kept.
  return caches.open(names[names.length - 1] ?? 'chargesim-pending');
}

// Fetches every file into the cache, reporting (done, total) as it goes.
async function saveAll(idx, report) {
  const files = every(idx);
  const cache = await cacheOf();
  let done = 0;
  for (const path of files) {
    const url = units.url(path);
    if (!(await cache.match(url, {ignoreSearch: true}))) {
      const response = await fetch(url, {cache: 'reload'});
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await cache.put(url, response);
    }
    report(++done, files.length);
  }
}

// The notice for an army the page could not fetch: what happened, what to
// do, and the button that saves every army.
export async function notice() {
  let idx = null;
  try {
    idx = await units.catalogues();
  } catch (e) {
    // The index itself was never kept: nothing to offer but the words.
  }
  const total = idx ? every(idx).reduce((s, f) => s + (idx.bytes?.[f] ?? 0), 0) : 0;
  const status = el('span', {id: 'units-save-status', role: 'status'});
  const button = el('button', {type: 'button', id: 'units-save-all',
                               disabled: !idx || !('caches' in window)},
    `Save every army for offline use (${megabytes(total)})`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await saveAll(idx, (done, n) => { status.textContent = ` Saving: ${done} of ${n} files…`; });
      status.textContent = ' Saved: every army now opens with no connection.';
    } catch (e) {
      status.textContent = ' Not saved: the connection failed; try again when online.';
      button.disabled = false;
    }
  });
  return el('div', {},
    el('p', {}, 'This army was not saved for offline use: the page keeps only the armies ' +
               'opened before, and there is no connection now. Open it again when online, ' +
               'or, when online, save every army at once.'),
    el('p', {}, button, status));
}
