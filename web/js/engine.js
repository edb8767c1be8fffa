// SPDX-License-Identifier: GPL-3.0-or-later
// The page's side of the engine: chargesim's JavaScript package (js/,
// copied by make web into js/pkg.js and worker.js), the page its
// first user. A request goes to the package's worker, its progress comes
// back, and its answer (the C side's JSON, refusals included) resolves a
// promise. cancel() aborts the request: the package ends its worker (the
// computation with it) and starts a fresh one, so a long run never holds
// the page.
import {createChargesim} from './pkg.js';

let cs = null;
let controller = null; // the request under way's, or null

// The engine of the page's own release: worker.js and the engine it loads
// carry the page's version (index.html), past any HTTP cache.
function engine() {
  if (!cs) {
    const v = document.querySelector('meta[name=chargesim-version]')?.content ?? '';
    cs = createChargesim({workerURL: `worker.js?v=${encodeURIComponent(v)}`});
  }
  return cs;
}

// One request of the package: {result, ms}; a cancelled one rejects with
// err.cancelled set.
async function request(call, onProgress) {
  const mine = new AbortController();
  controller = mine;
  try {
    const c = await engine();
    const {answer, ms} = await call(c, {signal: mine.signal, onProgress});
    return {result: answer, ms};
  } catch (e) {
    if (mine.signal.aborted) {
      const err = new Error('cancelled');
      err.cancelled = true;
      throw err;
    }
    throw e;
  } finally {
    if (controller === mine) controller = null;
  }
}

// What the engine knows of the rulesets (webinfo.h).
export async function rulesets() {
  return (await engine()).rulesets();
}

// Runs cmd with the link's pairs: {result, ms}.
export function exec(cmd, pairs, onProgress) {
  return request((c, opts) => c.exec(cmd, pairs, opts), onProgress);
}

// Checks cmd with the link's pairs without running them (cs_web_check):
// the answer, or null when a request is under way (never queued behind a
// run, never cancelling it). Not cancelled by cancel().
export async function check(cmd, pairs) {
  if (busy()) return null;
  const {answer} = await (await engine()).check(cmd, pairs);
  return answer;
}

// Runs a Units tab request (units.js: the files it needs, then
// `chargesim units`): {result, ms}.
export function units(req, onProgress) {
  return request((c, opts) => c.unitsFiles(req, opts), onProgress);
}

export function busy() {
  return controller !== null;
}

// Stops the request under way: its promise rejects with a cancelled error.
export function cancel() {
  if (controller) controller.abort();
}
