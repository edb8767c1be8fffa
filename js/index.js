// SPDX-License-Identifier: GPL-3.0-or-later
// chargesim for JavaScript (issue 53): the request API of the C core
// (include/chargesim/request.h), compiled to WebAssembly, run in a worker
// (engine/worker.js: worker_threads in Node, a Web Worker in browsers), so
// the caller's thread never blocks. Each call is one request: its keys are
// the command line's (the --set keys and the options: method, trials, seed,
// distance, ...); its answer is the C side's JSON (src/web/web.c,
// webunits.c) made a Table, or a ChargesimError with the command line's
// message. Nothing here decides a rule, a column, a message or a number.

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

// A refusal of the C core: its message, the field at fault (or null), the
// line the command line prints and its exit status.
export class ChargesimError extends Error {
  constructor(answer) {
    super(answer.message);
    this.name = 'ChargesimError';
    this.field = answer.field ?? null;
    this.cli = answer.cli ?? answer.message;
    this.exit = answer.exit ?? 2;
    this.command = answer.command ?? '';
    this.notes = answer.notes ?? [];
  }
}

// One CSV field as the command line writes it (src/req/tablefmt.c: quoted
// when it holds a separator, a quote or a line break, or edge spaces).
function csvField(s) {
  const quote = /[,"\n\r]/.test(s) || (s.length > 0 && (s[0] === ' ' || s[s.length - 1] === ' '));
  return quote ? `"${s.replaceAll('"', '""')}"` : s;
}

// A command's table: the command line's cells and what each column holds.
export class Table {
  constructor(answer, ms) {
    this.cmd = answer.cmd;
    this.command = answer.command;
    this.header = answer.header;
    this.rows = answer.rows;
    this.columns = answer.columns ?? [];
    this.method = answer.method ?? null;
    this.note = answer.note ?? null;
    this.verdict = answer.verdict ?? null;
    this.notice = answer.notice ?? null;
    this.warning = answer.warning ?? null;
    this.notes = answer.notes ?? [];
    this.summary = answer.summary ?? null;
    this.grid = answer.grid ?? null;
    // The command line's own output, made by the C core (issue 52): the
    // bytes `-o FILE.csv` writes (every table) and what `--format md`
    // prints (null for map); chargesim's version, and the seed of sampled
    // numbers (null when exact).
    this.csv = typeof answer.csv === 'string' ? answer.csv : null;
    this.markdown = answer.markdown ?? null;
    this.version = answer.version ?? null;
    this.seed = answer.seed ?? null;
    this.ms = ms;
  }

  // The CSV the command line writes, byte for byte: the C side's text when
  // the answer has it, else written from the cells as tablefmt.c writes them.
  toCSV() {
    if (this.csv !== null) return this.csv;
    return [this.header, ...this.rows].map((r) => r.map(csvField).join(',') + '\n').join('');
  }

  // The rows as objects keyed by the columns' names.
  records() {
    return this.rows.map((r) => Object.fromEntries(this.header.map((h, i) => [h, r[i]])));
  }
}

// A request's keys as the link's pairs: a value as text, a list joined by
// commas, true as the bare flag (no value), false, null and undefined left
// out; b: {KEY: VALUE} as compare's b.KEY pairs (as the Python module's b=).
// What a key means is the C core's: the worker asks its option tables
// (cs_web_key_of, webkeys.h) which request key an option's name sets.
function pairs(params) {
  const out = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'b' && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...pairs(Object.fromEntries(Object.entries(value).map(([k, v]) => [`b.${k}`, v]))));
    } else if (value === true) out.push([key, null]);
    else out.push([key, Array.isArray(value) ? value.join(',') : String(value)]);
  }
  return out;
}

function abortError(signal) {
  if (signal.reason instanceof Error) return signal.reason;
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}

class Chargesim {
  constructor(options) {
    this.data = options.data ?? null;
    this.dataDir = options.dataDir ?? null;
    this.mappingsDir = options.mappingsDir ?? null;
    this.workerURL = options.workerURL ?? new URL('./engine/worker.js', import.meta.url);
    this.worker = null;
    this.pending = null; // {id, resolve, reject, onProgress}
    this.queue = Promise.resolve();
    this.nextId = 1;
  }

  async start() {
    if (isNode) {
      const {Worker} = await import('node:worker_threads');
      const w = new Worker(this.workerURL);
      w.on('message', (msg) => this.message(w, msg));
      w.on('error', (err) => this.failed(w, err));
      w.on('exit', (code) => this.failed(w, new Error(`the engine stopped (exit ${code})`)));
      w.unref();
      this.worker = {raw: w, post: (m) => w.postMessage(m), end: () => w.terminate(),
                     ref: () => w.ref(), unref: () => w.unref()};
    } else {
      const w = new Worker(this.workerURL);
      w.onmessage = (event) => this.message(w, event.data);
      w.onerror = (event) => this.failed(w, new Error(event.message || 'the engine stopped'));
      this.worker = {raw: w, post: (m) => w.postMessage(m), end: () => w.terminate(),
                     ref: () => {}, unref: () => {}};
    }
  }

  message(w, msg) {
    const p = this.pending;
    if (!this.worker || w !== this.worker.raw || !p || msg.id !== p.id) return;
    if (msg.type === 'progress') {
      if (p.onProgress) p.onProgress(msg.done, msg.total);
      return;
    }
    this.settle();
    const answer = JSON.parse(msg.json);
    if (p.raw) p.resolve({answer, ms: msg.ms});
    else if (answer.ok === false) p.reject(new ChargesimError(answer));
    else p.resolve(answer.ok === undefined ? answer : new Table(answer, msg.ms));
  }

  failed(w, err) {
    if (!this.worker || w !== this.worker.raw) return;
    this.worker = null;
    const p = this.pending;
    if (p) {
      this.settle();
      p.reject(err);
    }
  }

  settle() {
    const p = this.pending;
    this.pending = null;
    if (p && p.signal) p.signal.removeEventListener('abort', p.onAbort);
    if (this.worker) this.worker.unref();
  }

  // One request at a time, in the order asked; the worker holds no other.
  request(msg, opts = {}) {
    const run = this.queue.then(() => this.send(msg, opts));
    this.queue = run.catch(() => {});
    return run;
  }

  async send(msg, {signal, onProgress, raw} = {}) {
    if (signal?.aborted) throw abortError(signal);
    if (!this.worker) await this.start();
    if (signal?.aborted) throw abortError(signal);
    return new Promise((resolve, reject) => {
      const p = {id: this.nextId++, resolve, reject, onProgress, signal, raw};
      if (signal) {
        // Cancelling ends the worker, the computation with it; the next
        // request starts a fresh one.
        p.onAbort = () => {
          if (this.pending !== p) return;
          this.settle();
          const w = this.worker;
          this.worker = null;
          if (w) w.end();
          reject(abortError(signal));
        };
        signal.addEventListener('abort', p.onAbort);
      }
      this.pending = p;
      this.worker.ref();
      this.worker.post({...msg, id: p.id});
    });
  }

  run(params, opts) {
    return this.request({type: 'exec', cmd: 'run', pairs: pairs(params), named: true}, opts);
  }

  map(params, opts) {
    return this.request({type: 'exec', cmd: 'map', pairs: pairs(params), named: true}, opts);
  }

  compare(params, opts) {
    return this.request({type: 'exec', cmd: 'compare', pairs: pairs(params), named: true}, opts);
  }

  dice(params, opts) {
    const p = typeof params === 'string' ? {expr: params} : params;
    return this.request({type: 'exec', cmd: 'dice', pairs: pairs(p), named: true}, opts);
  }

  // A units table: a shipped army ({game, army}) from the catalogues'
  // folder (data: index.json and gzipped files, a path or URL), or from a
  // plain folder laid out as the repository's data/ (dataDir: GAME/NAME.cat
  // beside what it links, a path or file: URL, Node only), or your own
  // files ({files: [{name, bytes}], source: one of the names, the first by
  // default}), as the page's dropped files.
  units(params, opts) {
    const {game, army, distance, rules, files, source} = params ?? {};
    const where = {
      data: toLocation(params?.data ?? this.data),
      dataDir: toLocation(params?.dataDir ?? this.dataDir),
      mappingsDir: toLocation(params?.mappingsDir ?? this.mappingsDir),
    };
    if (files) {
      return this.request({type: 'units', ...where, dropped: files.map((f) => ({name: f.name, bytes: f.bytes})),
                           source: source ?? files[0]?.name, distance, rules}, opts);
    }
    return this.request({type: 'units', ...where, game, army, distance, rules}, opts);
  }

  // The C side's answer as it is, refusals included ({answer, ms}): a
  // link's pairs ([[key, value or null], ...], web.h) for run, map,
  // compare or dice, or a units request naming its files (engine/worker.js).
  // The web edition's form shows a refusal beside its field from these.
  exec(cmd, linkPairs, opts = {}) {
    return this.request({type: 'exec', cmd, pairs: linkPairs}, {...opts, raw: true});
  }

  // The link checked without running it (cs_web_check, web.h): the C
  // side's answer as it is ({answer, ms}): the method asked and the one a
  // run would take, whether exact can run these settings, the trials rqmc
  // rounds up to; or the refusal a run would give. Quick: nothing is sampled.
  check(cmd, linkPairs, opts = {}) {
    return this.request({type: 'check', cmd, pairs: linkPairs}, {...opts, raw: true});
  }

  unitsFiles(request, opts = {}) {
    return this.request({...request, type: 'units'}, {...opts, raw: true});
  }

  rulesets(opts) {
    return this.request({type: 'rulesets'}, opts);
  }

  // Ends the worker; a later request starts another.
  close() {
    const w = this.worker;
    this.worker = null;
    if (w) w.end();
  }
}

// A data folder as the worker reads it: a URL's text, a path as it is.
function toLocation(data) {
  if (data === null || data === undefined) return null;
  if (data instanceof URL) return data.href;
  // A page's relative URL is the page's, not the worker's.
  if (!isNode && globalThis.location) return new URL(String(data), globalThis.location.href).href;
  return String(data);
}

// The package's entry point: a chargesim whose requests run in a worker.
// options.data: the catalogues' folder (a path in Node, a URL), laid out as
// the web edition ships them (make web: web/data, index.json and gzipped
// files); options.dataDir: a plain folder laid out as the repository's data/
// (Node); options.mappingsDir: the mapping files' folder (the repository's
// experiments/mappings), when data is not given (default: DATADIR/../experiments/mappings).
export async function createChargesim(options = {}) {
  const cs = new Chargesim(options);
  await cs.start();
  return cs;
}
