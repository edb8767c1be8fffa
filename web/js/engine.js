// SPDX-License-Identifier: GPL-3.0-or-later
// The page's side of the engine (worker.js): a request is sent, its progress
// comes back, and its result resolves a promise. cancel() ends the worker
// (the computation with it) and starts a fresh one, so a long run never
// holds the page.

let worker = null;
let pending = null; // {id, resolve, reject, onProgress}
let nextId = 1;
let rulesetsWaiter = null;

// The engine of the page's own release: worker.js and the engine it loads
// carry the page's version (index.html), past any HTTP cache.
function start() {
  const v = document.querySelector('meta[name=chargesim-version]')?.content ?? '';
  worker = new Worker(`worker.js?v=${encodeURIComponent(v)}`);
  worker.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === 'rulesets' && rulesetsWaiter) {
      rulesetsWaiter(JSON.parse(msg.json));
      rulesetsWaiter = null;
    } else if (pending && msg.id === pending.id) {
      if (msg.type === 'progress') pending.onProgress(msg.done, msg.total);
      else if (msg.type === 'result') {
        const done = pending;
        pending = null;
        done.resolve({result: JSON.parse(msg.json), ms: msg.ms});
      }
    }
  };
  worker.onerror = (event) => {
    if (pending) {
      const failed = pending;
      pending = null;
      failed.reject(new Error(event.message || 'the engine stopped'));
    }
  };
}

// What the engine knows of the rulesets (webinfo.h).
export function rulesets() {
  if (!worker) start();
  return new Promise((resolve) => {
    rulesetsWaiter = resolve;
    worker.postMessage({type: 'rulesets'});
  });
}

// Runs cmd with the link's pairs: {result, ms}.
export function exec(cmd, pairs, onProgress) {
  if (!worker) start();
  return new Promise((resolve, reject) => {
    pending = {id: nextId++, resolve, reject, onProgress};
    worker.postMessage({type: 'exec', id: pending.id, cmd, pairs});
  });
}

// Runs a Units tab request (unitsfs.js: the files it needs, then
// `chargesim units`): {result, ms}.
export function units(request, onProgress) {
  if (!worker) start();
  return new Promise((resolve, reject) => {
    pending = {id: nextId++, resolve, reject, onProgress};
    worker.postMessage({...request, type: 'units', id: pending.id});
  });
}

export function busy() {
  return pending !== null;
}

// Stops the request under way: its promise rejects with a cancelled error.
export function cancel() {
  if (!pending) return;
  const stopped = pending;
  pending = null;
  worker.terminate();
  worker = null;
  start();
  const err = new Error('cancelled');
  err.cancelled = true;
  stopped.reject(err);
}
