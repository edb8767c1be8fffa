// SPDX-License-Identifier: GPL-3.0-or-later
// chargesim's JavaScript package (index.js): types.

/** A request's keys, as the Python module takes them: an option's name
 * (method, trials, seed, success, x, y, expr, exact, max_trials, ...) or its
 * key (experiment.method), any other key an override as --set KEY=VALUE
 * (charge_speed, move, experiment.ruleset, b.KEY: compare's --b). The C
 * core's option tables decide which is which. A value is sent as text, a
 * list joined by commas, true as the bare flag; false, null and undefined
 * are left out. */
export type Value = string | number | boolean | null | undefined | (string | number)[];
export type Params = {[key: string]: Value | {[key: string]: Value}} & {
  /** compare: variant B's overrides, as b.KEY. */
  b?: {[key: string]: Value};
};

export interface RequestOptions {
  /** Cancels the request: the worker is ended and the promise rejects
   * (AbortError); the next request starts a fresh worker. */
  signal?: AbortSignal;
  /** Progress of a long run, as the C core reports it. */
  onProgress?: (done: number, total: number) => void;
}

/** What a column holds (request.h). */
export interface Column {
  name: string;
  label: string;
  description: string;
  unit: string;
  kind: 'key' | 'exact' | 'estimate' | 'interval' | 'count' | 'text' | string;
}

/** A command's table: the command line's cells, cell for cell. */
export declare class Table {
  cmd: string;
  /** The equivalent command line. */
  command: string;
  header: string[];
  rows: string[][];
  columns: Column[];
  method: string | null;
  note: string | null;
  /** compare: its verdict in one sentence, as the command line prints it. */
  verdict: string | null;
  notice: string | null;
  warning: string | null;
  /** units: each line the command line prints on standard error. */
  notes: string[];
  /** units: its last line. */
  summary: string | null;
  /** map: the grid's geometry. */
  grid: Record<string, number> | null;
  /** The bytes `chargesim ... -o FILE.csv` writes for `command` (every table). */
  csv: string | null;
  /** What `command --format md` prints; null for a command without --format (map). */
  markdown: string | null;
  /** chargesim's version. */
  version: string | null;
  /** The seed of sampled numbers, as text; null when they are exact. */
  seed: string | null;
  /** The computation's time in the worker, in milliseconds. */
  ms: number;
  /** The CSV the command line writes, byte for byte. */
  toCSV(): string;
  /** The rows as objects keyed by the header. */
  records(): Record<string, string>[];
}

/** A refusal: the command line's message and exit status. */
export declare class ChargesimError extends Error {
  /** The key at fault, or null. */
  field: string | null;
  /** The line the command line prints ("chargesim CMD: message"). */
  cli: string;
  exit: number;
  command: string;
  notes: string[];
}

/** Where the catalogues and the mapping files are read from. */
export interface DataOptions {
  /** The catalogues' folder as the web edition ships it (index.json and
   * gzipped files): a path in Node, or a URL. */
  data?: string | URL;
  /** Node: a plain folder laid out as the repository's data/ (GAME/NAME.cat
   * beside the files it links), a path or a file: URL. */
  dataDir?: string | URL;
  /** Node: the mapping files' folder (the repository's
   * experiments/mappings); by default data's, else DATADIR/../experiments/mappings. */
  mappingsDir?: string | URL;
}

/** A dropped file: its name and bytes (a roster, a catalogue, ...). */
export interface DroppedFile {
  name: string;
  bytes: Uint8Array;
}

export interface UnitsParams extends DataOptions {
  /** A folder of data/: tow, bsdata-t9a-2nd, bsdata-asoiaf. */
  game?: string;
  /** A catalogue's name without .cat, e.g. Bretonnians. */
  army?: string;
  /** Your own files instead of a shipped army, as the page's dropped files. */
  files?: DroppedFile[];
  /** With files: the one to read (the first by default). */
  source?: string;
  /** --distance A..B */
  distance?: string;
  /** --rules NAME */
  rules?: string;
}

export interface Chargesim {
  run(params: Params, options?: RequestOptions): Promise<Table>;
  map(params: Params, options?: RequestOptions): Promise<Table>;
  compare(params: Params, options?: RequestOptions): Promise<Table>;
  dice(params: Params | string, options?: RequestOptions): Promise<Table>;
  units(params: UnitsParams, options?: RequestOptions): Promise<Table>;
  /** The C side's answer as it is, refusals included (src/web/web.c): a
   * link's pairs, in order, for run, map, compare or dice. The web
   * edition's form uses it. */
  exec(cmd: 'run' | 'map' | 'compare' | 'dice', pairs: [string, string | null][],
       options?: RequestOptions): Promise<{answer: any; ms: number}>;
  /** The link checked without running it (src/web/web.c, cs_web_check):
   * the answer as it is, {ok, method (asked), resolved (what a run would
   * take), exact_available, trials, rqmc_trials} or the refusal a run would
   * give. The web edition's method field uses it before a run. */
  check(cmd: 'run' | 'map' | 'compare' | 'dice', pairs: [string, string | null][],
        options?: RequestOptions): Promise<{answer: any; ms: number}>;
  /** A units request naming its files (engine/worker.js): the answer as it is. */
  unitsFiles(request: {
    fetch?: {path: string; url: string}[];
    files?: {path: string; bytes: Uint8Array}[];
    clear?: string;
    cwd?: string;
    source: string;
    distance?: string;
    rules?: string;
  }, options?: RequestOptions): Promise<{answer: any; ms: number}>;
  /** What the engine knows of the rulesets, as JSON. */
  rulesets(options?: RequestOptions): Promise<unknown>;
  /** Ends the worker; a later request starts another. */
  close(): void;
}

export interface CreateOptions extends DataOptions {
  /** Where engine/worker.js is, if a bundler moved it. */
  workerURL?: string | URL;
}

export declare function createChargesim(options?: CreateOptions): Promise<Chargesim>;
