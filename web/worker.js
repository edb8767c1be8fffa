// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's thread: chargesim's C core as WebAssembly (chargesim.wasm,
// built by `make web`), so the page never freezes. One request at a time;
// the page cancels one by ending this worker. Messages:
//   {type: 'rulesets'}                       -> {type: 'rulesets', json}
//   {type: 'exec', id, cmd, pairs}           -> {type: 'progress', id, done, total}...,
//                                               {type: 'result', id, json, ms}
//   {type: 'units', id, fetch, files, clear, cwd, source, distance, rules}
//                                            -> {type: 'result', id, json, ms}
// ms is the computation's time, measured here around the engine's call
// (for units, fetching and unpacking the files it needs included).
// The engine and the units' file system of the page's release: this
// worker's ?v= (js/engine.js).
importScripts(`chargesim.js${self.location.search}`, `js/unitsfs.js${self.location.search}`);

let current = null;

// The engine's JSON answer at ptr as a string; the answer is then freed.
function answer(engine, ptr) {
  const json = engine.UTF8ToString(ptr);
  engine._cs_web_free(ptr);
  return json;
}
const ready = createChargesim({
  locateFile: (file) => `${file}${self.location.search}`,
  onProgress: (done, total) => postMessage({type: 'progress', id: current, done, total}),
});

onmessage = async (event) => {
  const engine = await ready;
  const msg = event.data;
  if (msg.type === 'rulesets') {
    postMessage({type: 'rulesets', json: answer(engine, engine._cs_web_rulesets())});
    return;
  }
  current = msg.id;
  const start = performance.now();
  if (msg.type === 'units') {
    let json;
    try {
      json = await unitsRun(engine, msg);
    } catch (e) {
      json = JSON.stringify({ok: false, cmd: 'units', command: '', notes: [],
                             message: e.message, cli: e.message});
    }
    postMessage({type: 'result', id: msg.id, json, ms: performance.now() - start});
    return;
  }
  // The link is a handle this worker holds (web.h); exec frees it.
  const link = engine.ccall('cs_web_begin', 'number', ['string'], [msg.cmd]);
  for (const [key, value] of msg.pairs) {
    engine.ccall('cs_web_pair', null, ['number', 'string', 'string'], [link, key, value]);
  }
  const json = answer(engine, engine._cs_web_exec(link));
  postMessage({type: 'result', id: msg.id, json, ms: performance.now() - start});
};
