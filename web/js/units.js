// SPDX-License-Identifier: GPL-3.0-or-later
// The Units tab's requests (issue 44): which files a units table needs and
// where they go. The table itself is the C core's (`chargesim units`,
// src/web/webunits.c); this module only names files.
//
// A shipped army's link: #cmd=units&source=FOLDER/KEY&distance=A..B[&rules=NAME],
// FOLDER a folder of data/ (tow, bsdata-t9a-2nd, bsdata-asoiaf), KEY a
// catalogue's file name without .cat. data/index.json (make web,
// scripts/web-data.py) lists each army's files: the catalogue, those it
// links and its game system, which the worker fetches gzipped and puts in
// the in-memory file system at their repository paths (data/tow/...), with
// the mappings at experiments/mappings/.
// Dropped files go into a folder of their own, /dropped, and run there.

import * as engine from './engine.js';

let index = null;

// data/index.json, fetched once.
export async function catalogues() {
  if (!index) {
    const response = await fetch('data/index.json');
    if (!response.ok) throw new Error(`data/index.json: ${response.status}`);
    index = await response.json();
  }
  return index;
}

// The shipped army a link's source names, or null.
export function army(idx, source) {
  const slash = (source ?? '').indexOf('/');
  if (slash < 0) return null;
  const game = idx.games.find((g) => g.folder === source.slice(0, slash));
  const found = game && game.armies.find((a) => a.key === source.slice(slash + 1));
  return found ? {game, army: found} : null;
}

// A repository path as the site holds it, gzipped.
export function url(path) {
  return path.startsWith('experiments/mappings/')
    ? 'data/mappings/' + path.slice('experiments/mappings/'.length) + '.gz'
    : path + '.gz';
}

function mappings(idx) {
  return idx.mappings.map((path) => ({path, url: url(path)}));
}

// Runs the table of a shipped army: {result, ms}.
export async function runShipped(source, distance, rules, onProgress) {
  const idx = await catalogues();
  const found = army(idx, source);
  if (!found) {
    // The page's own refusal (no file is read): the link names no army it ships.
    const message = `This page ships no army '${source ?? ''}': a units link's source is ` +
      `FOLDER/NAME, e.g. tow/Bretonnians (the Units tab lists them).`;
    return {result: {ok: false, cmd: 'units', command: '', message, cli: message, notes: []}, ms: 0};
  }
  return engine.units({
    fetch: found.army.files.map((path) => ({path, url: url(path)})).concat(mappings(idx)),
    files: [], cwd: '/', source: found.army.files[0], distance, rules,
  }, onProgress);
}

// The shipped army whose catalogue's id is id, or null.
export function armyById(idx, id) {
  for (const game of idx.games) {
    const found = game.armies.find((a) => a.id === id);
    if (found) return found;
  }
  return null;
}

// Runs the table of dropped files ([{name, bytes}]) with source one of
// their names: {result, ms}. A roster whose catalogue was neither dropped
// beside it nor fetched before names the catalogueId it wanted (issue 50:
// "catalogue_wanted", src/web/webunits.c); when the page ships that army,
// its files (the catalogue, those it links, its game system) are fetched
// into data/ and the roster runs once more, as the command line finds the
// catalogue in the repository's data/. Once only: the second answer is the
// table, whatever it wants.
export async function runDropped(files, source, distance, rules, onProgress) {
  const idx = await catalogues();
  const request = (extra) => engine.units({
    fetch: extra.concat(mappings(idx)), clear: '/dropped',
    files: files.map((f) => ({path: '/dropped/' + f.name, bytes: f.bytes})),
    cwd: '/dropped', source, distance, rules,
  }, onProgress);
  const first = await request([]);
  const wanted = first.result.catalogue_wanted;
  const found = typeof wanted === 'string' ? armyById(idx, wanted) : null;
  if (!found) return first;
  const again = await request(found.files.map((path) => ({path, url: url(path)})));
  return {result: again.result, ms: first.ms + again.ms};
}
