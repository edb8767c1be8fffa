// SPDX-License-Identifier: GPL-3.0-or-later
// The package's worker: chargesim's C core as WebAssembly (chargesim.js and
// chargesim.wasm beside this file, linked by `make js-pack` for the web,
// Web Workers and Node) on a thread of its own, so the caller's thread never
// waits on a computation. One file for both hosts: a classic Web Worker in
// a browser (importScripts), a CommonJS worker_threads worker in Node (this
// folder's package.json says commonjs). One request at a time; the caller
// cancels one by ending this worker (../index.js). Messages:
//   {type: 'rulesets', id}                   -> {type: 'result', id, json}
//   {type: 'exec', id, cmd, pairs, named}    -> {type: 'progress', id, done, total}...,
//                                               {type: 'result', id, json, ms}
//   {type: 'check', id, cmd, pairs, named}   -> {type: 'result', id, json, ms}
//     (the link checked, not run: cs_web_check, the method's facts)
//   {type: 'units', id, data, game, army, distance, rules}
//   {type: 'units', id, dataDir, mappingsDir, data, game, army, distance, rules}
//   {type: 'units', id, dropped: [{name, bytes}], source, data, dataDir, mappingsDir,
//    distance, rules}
//   {type: 'units', id, fetch, files, clear, cwd, source, distance, rules}
//                                            -> {type: 'result', id, json, ms}
// json is the C side's answer as it is (include/chargesim/web.h, webunits.h);
// ms the computation's time, measured here around the engine's call (for
// units, reading and unpacking the files it needs included). named: the
// pairs' keys are as a caller names them (method, trials, charge_speed),
// each made its request key by the C core's option tables (webkeys.h). The web
// edition's worker (web/worker.js) is this file, copied by make web.
'use strict';

const settings = {};
let post, createEngine, readGzip;
let current = null;

if (typeof importScripts === 'function') {
  // A browser's Web Worker: the engine's glue sets createChargesim.
  // The engine of this worker's own release: its ?v=, if any (the page's).
  importScripts(`chargesim.js${self.location.search}`);
  createEngine = self.createChargesim;
  settings.locateFile = (file) => `${file}${self.location.search}`;
  post = (msg) => self.postMessage(msg);
  self.onmessage = (event) => handle(event.data);
  readGzip = async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    const stream = response.body.pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
} else {
  // Node's worker_threads: the glue is a CommonJS module.
  const {parentPort} = require('worker_threads');
  const fs = require('fs');
  const zlib = require('zlib');
  createEngine = require('./chargesim.js');
  // The module as bytes: Node's fetch (18 and later) takes no file path,
  // which the engine's glue would try first.
  settings.wasmBinary = fs.readFileSync(require('path').join(__dirname, 'chargesim.wasm'));
  post = (msg) => parentPort.postMessage(msg);
  parentPort.on('message', (msg) => handle(msg));
  readGzip = async (where) => {
    if (/^https?:/.test(where)) {
      const response = await fetch(where);
      if (!response.ok) throw new Error(`${where}: ${response.status} ${response.statusText}`);
      return new Uint8Array(zlib.gunzipSync(Buffer.from(await response.arrayBuffer())));
    }
    const file = where.startsWith('file:') ? new URL(where) : where;
    return new Uint8Array(zlib.gunzipSync(fs.readFileSync(file)));
  };
}

const ready = createEngine({
  ...settings,
  onProgress: (done, total) => post({type: 'progress', id: current, done, total}),
});

// The engine's JSON answer at ptr as a string; the answer is then freed.
function answer(engine, ptr) {
  const json = engine.UTF8ToString(ptr);
  engine._cs_web_free(ptr);
  return json;
}

// The catalogues' folder as the web edition ships it (make web: index.json
// and each file gzipped, scripts/web-data.py), read once per folder; the
// files put into the file system, by where they were read from.
const indexes = new Map();
const fetched = new Set();

function join(base, path) {
  return base.endsWith('/') ? base + path : `${base}/${path}`;
}

async function index(base) {
  if (!indexes.has(base)) {
    indexes.set(base, JSON.parse(new TextDecoder().decode(await readIndex(base))));
  }
  return indexes.get(base);
}

async function readIndex(base) {
  const where = join(base, 'index.json');
  if (typeof importScripts === 'function' || /^https?:/.test(where)) {
    const response = await fetch(where);
    if (!response.ok) throw new Error(`${where}: ${response.status} ${response.statusText}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  return require('fs').readFileSync(where.startsWith('file:') ? new URL(where) : where);
}

// A repository path (data/tow/X.cat, experiments/mappings/tow.ini) as the
// folder holds it.
function located(base, path) {
  const rel = path.startsWith('experiments/mappings/')
    ? 'mappings/' + path.slice('experiments/mappings/'.length)
    : path.replace(/^data\//, '');
  return join(base, rel + '.gz');
}

function put(FS, path, bytes) {
  const slash = path.lastIndexOf('/');
  if (slash > 0) FS.mkdirTree(path.slice(0, slash));
  FS.writeFile(path, bytes);
}

function removeTree(FS, dir) {
  let names;
  try {
    names = FS.readdir(dir);
  } catch (e) {
    return;
  }
  for (const name of names) {
    if (name === '.' || name === '..') continue;
    const path = `${dir}/${name}`;
    if (FS.isDir(FS.stat(path).mode)) {
      removeTree(FS, path);
      FS.rmdir(path);
    } else {
      FS.unlink(path);
    }
  }
}

function refusal(message) {
  return JSON.stringify({ok: false, cmd: 'units', command: '', notes: [], message,
                         cli: `chargesim units: ${message}`, exit: 2, field: null});
}

// A shipped army ({data, game, army}): its files (the catalogue, those it
// links, its game system) and the mappings, as the folder's index lists
// them; null and a refusal when the folder ships no such army.
async function shipped(msg) {
  if (!msg.data) return {error: 'units needs the catalogues: createChargesim({data: FOLDER or URL})'};
  const idx = await index(msg.data);
  const game = idx.games.find((g) => g.folder === msg.game);
  if (!game) {
    return {error: `no game '${msg.game}': one of ${idx.games.map((g) => g.folder).join(', ')}`};
  }
  const army = game.armies.find((a) => a.key === msg.army || a.name === msg.army);
  if (!army) return {error: `no army '${msg.army}' in ${msg.game}`};
  const fetch = army.files.concat(idx.mappings).map((path) => ({path, url: located(msg.data, path)}));
  return {fetch, source: army.files[0], cwd: '/'};
}

// A folder on this machine (a path or a file: URL) and what it holds, in
// Node; a refusal elsewhere.
function local(where) {
  if (typeof importScripts === 'function' || /^https?:/.test(where)) {
    throw new Error(`${where}: dataDir and mappingsDir are folders on this machine, read in Node`);
  }
  return where.startsWith('file:') ? require('url').fileURLToPath(where) : where;
}

function listed(dir, ext) {
  const fs = require('fs');
  return fs.readdirSync(dir).filter((n) => ext.some((e) => n.endsWith(e))).sort();
}

// Plain files put into the file system (at to/NAME), each read once.
function putPlain(FS, dir, names, to) {
  const fs = require('fs');
  const path = require('path');
  for (const name of names) {
    const from = path.resolve(dir, name);
    if (fetched.has(from)) continue;
    put(FS, `${to}/${name}`, new Uint8Array(fs.readFileSync(from)));
    fetched.add(from);
  }
}

// The mapping files, at /experiments/mappings (CS_WEB_MAPPINGS): a
// mappingsDir's, else the data folder's index's, else the repository's
// beside a dataDir (DATADIR/../experiments/mappings).
async function mappings(FS, msg) {
  if (msg.mappingsDir || (!msg.data && msg.dataDir)) {
    const dir = msg.mappingsDir ? local(msg.mappingsDir)
      : require('path').join(local(msg.dataDir), '..', 'experiments', 'mappings');
    putPlain(FS, dir, listed(dir, ['.ini']), '/experiments/mappings');
    return [];
  }
  if (!msg.data) throw new Error('units needs the mapping files: createChargesim({data, dataDir or mappingsDir})');
  const idx = await index(msg.data);
  return idx.mappings.map((path) => ({path, url: located(msg.data, path)}));
}

// A units request as the files to put and the source to read: a shipped
// army ({data, game, army}), an army of a plain folder ({dataDir, game,
// army}: the game's folder put at /data/GAME, as the repository's data/),
// or dropped files ({dropped: [{name, bytes}], source}: at /dropped, as
// the page puts them).
async function prepared(FS, msg) {
  if (msg.dropped) {
    return {fetch: await mappings(FS, msg), clear: '/dropped', cwd: '/dropped', source: msg.source,
            files: msg.dropped.map((f) => ({path: `/dropped/${f.name}`, bytes: f.bytes}))};
  }
  if (msg.dataDir) {
    if (!/^[\w .-]+$/.test(msg.game ?? '') || msg.game.startsWith('.')) return {error: `no game '${msg.game}'`};
    const dir = require('path').join(local(msg.dataDir), msg.game);
    const names = listed(dir, ['.cat', '.gst']);
    if (!names.includes(`${msg.army}.cat`)) return {error: `no army '${msg.army}' in ${msg.game}`};
    putPlain(FS, dir, names, `/data/${msg.game}`);
    return {fetch: await mappings(FS, msg), source: `data/${msg.game}/${msg.army}.cat`, cwd: '/'};
  }
  return shipped(msg);
}

// A units table: the files it needs put into the in-memory file system at
// their repository paths (data/tow/..., experiments/mappings/...), then
// `chargesim units` on them (webunits.h). msg is one of prepared's, or the
// files as the page names them: {fetch: [{path, url}] (gzipped, read
// once), files: [{path, bytes}], clear: a folder to empty first, cwd,
// source}; distance and rules either way.
async function units(engine, msg) {
  const FS = engine.FS;
  let req = msg;
  if (msg.army !== undefined || msg.dropped) {
    req = await prepared(FS, msg);
    if (req.error) return refusal(req.error);
  }
  const json = await unitsOnce(engine, req, msg);
  // A dropped roster whose catalogue was neither dropped beside it nor
  // read before names the catalogueId it wanted (webunits.h): the army the
  // data folder ships under that id is read into data/, and the roster
  // runs once more, as the page does (web/js/units.js).
  if (!msg.dropped || !msg.data) return json;
  const wanted = JSON.parse(json).catalogue_wanted;
  if (typeof wanted !== 'string') return json;
  const idx = await index(msg.data);
  const army = idx.games.flatMap((g) => g.armies).find((a) => a.id === wanted);
  if (!army) return json;
  const fetch = army.files.map((path) => ({path, url: located(msg.data, path)}));
  return unitsOnce(engine, {...req, fetch: (req.fetch || []).concat(fetch)}, msg);
}

async function unitsOnce(engine, req, msg) {
  const FS = engine.FS;
  const wanted = (req.fetch || []).filter((f) => !fetched.has(f.url));
  const got = await Promise.all(wanted.map((f) => readGzip(f.url)));
  wanted.forEach((f, i) => {
    put(FS, '/' + f.path, got[i]);
    fetched.add(f.url);
  });
  if (req.clear) removeTree(FS, req.clear);
  for (const f of req.files || []) put(FS, f.path, f.bytes);
  FS.chdir(req.cwd || '/');
  return answer(engine, engine.ccall('cs_web_units', 'number', ['string', 'string', 'string'],
                                     [req.source, msg.distance || '', msg.rules || '']));
}

async function handle(msg) {
  const engine = await ready;
  current = msg.id;
  const start = performance.now();
  let json;
  if (msg.type === 'rulesets') {
    json = answer(engine, engine._cs_web_rulesets());
  } else if (msg.type === 'units') {
    try {
      json = await units(engine, msg);
    } catch (e) {
      json = refusal(e.message);
    }
  } else if (msg.type === 'check' && !engine._cs_web_check) {
    // An engine older than its worker (no cs_web_check): a refusal, never a
    // request left unanswered in the queue.
    json = JSON.stringify({ok: false, cmd: msg.cmd, command: '', message: 'this engine cannot check',
                           cli: 'chargesim: this engine cannot check', exit: 1, field: null});
  } else {
    // The link is a handle this worker holds (web.h); exec and check free it.
    const link = engine.ccall('cs_web_begin', 'number', ['string'], [msg.cmd]);
    for (const [name, value] of msg.pairs) {
      const key = msg.named ? engine.ccall('cs_web_key_of', 'string', ['string', 'string'], [msg.cmd, name])
        : name;
      engine.ccall('cs_web_pair', null, ['number', 'string', 'string'], [link, key, value]);
    }
    json = answer(engine, msg.type === 'check' ? engine._cs_web_check(link) : engine._cs_web_exec(link));
  }
  post({type: 'result', id: msg.id, json, ms: performance.now() - start});
}
