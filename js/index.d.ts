// SPDX-License-Identifier: GPL-3.0-or-later
// chargesim's JavaScript package (index.js): types.

/** A request's keys: the command line's --set keys and options (method,
 * trials, seed, success, x, y, b.KEY, expr, exact, ...). A value is sent as
 * text, a list joined by commas, true as the bare flag; false, null and
 * undefined are left out. */
export type Params = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

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

export interface UnitsParams {
  /** A folder of data/: tow, bsdata-t9a-2nd, bsdata-asoiaf. */
  game: string;
  /** A catalogue's name without .cat, e.g. Bretonnians. */
  army: string;
  /** --distance A..B */
  distance?: string;
  /** --rules NAME */
  rules?: string;
  /** The catalogues' folder, instead of createChargesim's. */
  data?: string | URL;
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

export interface CreateOptions {
  /** The catalogues' folder as the web edition ships it (index.json and
   * gzipped files): a path in Node, or a URL. */
  data?: string | URL;
  /** Where engine/worker.js is, if a bundler moved it. */
  workerURL?: string | URL;
}

export declare function createChargesim(options?: CreateOptions): Promise<Chargesim>;
