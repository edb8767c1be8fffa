// SPDX-License-Identifier: GPL-3.0-or-later
// The Units tab's form and view (issue 44): a game, an army and distances,
// or files dropped or picked; the table sorted by a header's click; a chart
// of every unit's 75% reach grouped by troop type; the notes. Every text
// from a catalogue is set with textContent (dom.js).

import {byId, el, fill} from './dom.js';
import * as units from './units.js';
import {numeric} from './results.js';

let fields = null;  // {game, army, distance, rules, files, pick}
let dropped = [];   // [{name, bytes}] of the last drop
let onDropped = null;

const NO_LINK = 'Files you drop or pick stay in this page: they are read here and never ' +
  'sent anywhere, so no link can carry them; this table has no link.';

// onRunDropped(pairs) runs the dropped files with the form's pairs.
export function init(onRunDropped) {
  onDropped = onRunDropped;
}

function option(value, text, selected) {
  return el('option', {value, selected}, text);
}

function armyOptions(game, key) {
  fill(fields.army, ...game.armies.map((a) => option(a.key, a.name, a.key === key)));
}

function sourceOptions() {
  const pick = fields.pick;
  const names = dropped.map((f) => f.name).filter((n) => /\.(cat|gst|csv|ros|rosz|json)$/i.test(n));
  // The default: a list (a roster), else a units CSV, else the largest
  // catalogue (an army, not a library).
  const roster = names.find((n) => /\.(ros|rosz|json)$/i.test(n));
  const csv = names.find((n) => /\.csv$/i.test(n));
  const cats = dropped.filter((f) => /\.cat$/i.test(f.name)).sort((a, b) => b.bytes.length - a.bytes.length);
  const first = roster ?? csv ?? (cats[0] ? cats[0].name : names[0]);
  fill(pick, ...names.map((n) => option(n, n, n === first)));
  pick.disabled = names.length === 0;
  fields.runDropped.disabled = names.length === 0;
}

async function takeFiles(list) {
  dropped = await Promise.all([...list].map(async (f) => ({
    name: f.name, bytes: new Uint8Array(await f.arrayBuffer())})));
  sourceOptions();
  if (fields.pick.value) onDropped(read());
}

function dropZone() {
  const input = el('input', {type: 'file', id: 'units-files', multiple: true,
                             accept: '.cat,.gst,.csv,.ros,.rosz,.json', onchange: () => takeFiles(input.files)});
  const zone = el('div', {className: 'dropzone', id: 'units-drop'},
    el('p', {}, 'Or your own files: drop here, or pick, your list (a roster from BattleScribe or ' +
            'New Recruit: .ros, .rosz or .json), a catalogue (.cat) with the catalogues it links ' +
            'and its game system (.gst), or a units CSV (.csv).'),
    el('p', {}, el('label', {htmlFor: 'units-files'}, 'Your files: '), input));
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    takeFiles(e.dataTransfer.files);
  });
  fields.pick = el('select', {id: 'units-source', disabled: true});
  fields.runDropped = el('button', {type: 'button', id: 'units-run-dropped', disabled: true,
                                    onclick: () => onDropped(read())}, 'Table of these files');
  zone.append(el('p', {}, el('label', {}, 'Source: ', fields.pick), ' ', fields.runDropped),
              el('p', {className: 'nolink'}, NO_LINK));
  return zone;
}

// Builds the form of state {cmd: 'units', pairs} into node.
export async function render(node, state) {
  const idx = await units.catalogues();
  const get = (k) => { let v; for (const [a, b] of state.pairs) if (a === k) v = b; return v; };
  const found = units.army(idx, get('source')) ?? {game: idx.games[0], army: idx.games[0].armies[0]};
  fields = {
    game: el('select', {id: 'units-game'}, ...idx.games.map((g) =>
      option(g.folder, g.name, g === found.game))),
    army: el('select', {id: 'units-army'}),
    distance: el('input', {type: 'text', id: 'units-distance', value: get('distance') ?? '',
                           placeholder: 'the mapping\'s range'}),
    rules: el('input', {type: 'text', id: 'units-rules', value: get('rules') ?? '',
                        placeholder: 'from the catalogue'}),
  };
  armyOptions(found.game, found.army.key);
  fields.game.addEventListener('change', () =>
    armyOptions(idx.games.find((g) => g.folder === fields.game.value)));
  const zone = dropZone();
  sourceOptions();
  fill(node, el('fieldset', {className: 'units'}, el('legend', {}, 'Units'),
    el('label', {}, el('span', {}, 'Game'), fields.game),
    el('label', {}, el('span', {}, 'Army'), fields.army),
    el('label', {}, el('span', {}, 'Distances'), fields.distance,
       el('small', {}, 'A..B[:step] in inches, e.g. 6..14')),
    el('label', {}, el('span', {}, 'Ruleset'), fields.rules,
       el('small', {}, 'a mapping\'s ruleset, when the game has several (t9a, t9a-2nd)'))),
    zone);
}

// The link's pairs of the form (for a shipped army).
export function read() {
  const pairs = [['source', `${fields.game.value}/${fields.army.value}`]];
  if (fields.distance.value) pairs.push(['distance', fields.distance.value]);
  if (fields.rules.value) pairs.push(['rules', fields.rules.value]);
  return pairs;
}

// Runs state: a shipped army, or the dropped files (state.dropped).
export function exec(state, onProgress) {
  const get = (k) => { let v; for (const [a, b] of state.pairs) if (a === k) v = b; return v; };
  if (state.dropped) {
    return units.runDropped(dropped, fields.pick.value, get('distance'), get('rules'), onProgress);
  }
  return units.runShipped(get('source'), get('distance'), get('rules'), onProgress);
}

// ---- the result ----------------------------------------------------------

// Sorts the table's body by column c on each press of its header's button
// (again: the other way), from the mouse or the keyboard; empty cells
// last. The unit's name stays in view when the table scrolls sideways.
function sortable(result) {
  const table = byId('results');
  const heads = [...table.querySelectorAll('thead th')];
  const cName = result.header.indexOf('name');
  if (cName >= 0) {
    for (const row of table.rows) {
      const cell = row.cells[cName];
      if (!cell) continue;
      cell.classList.add('sticky');
      cell.title = cell.textContent; // the whole name where a phone cuts it
    }
  }
  heads.forEach((th, c) => {
    th.classList.add('sortable');
    const button = el('button', {type: 'button', className: 'sort', title: 'sort by this column'},
                      ...th.childNodes);
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const dir = th.dataset.sort === 'asc' ? 'desc' : 'asc';
      for (const h of heads) {
        delete h.dataset.sort;
        h.removeAttribute('aria-sort');
      }
      th.dataset.sort = dir;
      th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending');
      const num = numeric(result.rows, c);
      const body = table.tBodies[0];
      const rows = [...body.rows];
      rows.sort((a, b) => {
        const x = a.cells[c].dataset.value ?? a.cells[c].textContent, y = b.cells[c].dataset.value ?? b.cells[c].textContent;
        if (x === '' || y === '') return (x === '') - (y === '');
        const d = num ? Number(x) - Number(y) : x.localeCompare(y);
        return dir === 'asc' ? d : -d;
      });
      body.append(...rows);
    });
  });
}

// text, cut with an ellipsis to fit px pixels in ctx's font.
function fitted(ctx, text, px) {
  if (ctx.measureText(text).width <= px) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText(`${text.slice(0, n)}…`).width > px) n--;
  return `${text.slice(0, n)}…`;
}

// Every unit's reach_75, one bar each, grouped by troop type (the table's
// type column; the ruleset where it has none).
function reachChart(result) {
  const h = result.header;
  const cName = h.indexOf('name'), cReach = h.indexOf('reach_75');
  const cGroup = h.includes('type') ? h.indexOf('type') : h.indexOf('ruleset');
  const canvas = el('canvas', {id: 'units-chart'});
  if (cReach < 0 || result.rows.length === 0) return canvas;
  const groups = new Map();
  for (const r of result.rows) {
    const g = r[cGroup] || '(no type)';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(r);
  }
  const lines = [];
  for (const [g, rows] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push({group: g});
    rows.sort((a, b) => Number(b[cReach]) - Number(a[cReach]));
    for (const r of rows) lines.push({name: r[cName], reach: Number(r[cReach]), text: r[cReach]});
  }
  // As wide as the page (up to 900 px), so a phone's text is not shrunk;
  // the names get at most 45% of it.
  const width = Math.max(300, Math.min(900, byId('output').clientWidth || 900));
  const rowH = 16, left = Math.round(Math.min(260, width * 0.45));
  const max = Math.max(1, ...lines.filter((l) => l.name !== undefined && !Number.isNaN(l.reach)).map((l) => l.reach));
  const ratio = window.devicePixelRatio || 1;
  canvas.width = width * ratio;
  canvas.height = (lines.length * rowH + 30) * ratio;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${lines.length * rowH + 30}px`;
  const ctx = canvas.getContext('2d');
  ctx.scale(ratio, ratio);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const sx = (v) => left + (v / max) * (width - left - 60);
  lines.forEach((l, i) => {
    const y = 10 + i * rowH + rowH / 2;
    if (l.group !== undefined) {
      ctx.fillStyle = '#222';
      ctx.font = 'bold 12px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.fillText(l.group, 4, y);
      ctx.font = '12px system-ui, sans-serif';
      return;
    }
    ctx.fillStyle = '#444';
    ctx.textAlign = 'right';
    ctx.fillText(fitted(ctx, l.name, left - 12), left - 8, y);
    if (Number.isNaN(l.reach)) return;
    ctx.fillStyle = '#1f5fa8';
    ctx.fillRect(left, y - 5, sx(l.reach) - left, 10);
    ctx.fillStyle = '#222';
    ctx.textAlign = 'left';
    ctx.fillText(`${l.text}"`, sx(l.reach) + 4, y);
  });
  return canvas;
}

// The notes as the command line prints them on standard error, under
// their count line.
function notesList(result) {
  const notes = result.notes ?? [];
  return el('details', {id: 'units-notes', open: notes.length > 0 && notes.length <= 12},
    el('summary', {}, result.summary ?? ''),
    el('ul', {}, ...notes.map((n) => el('li', {}, n))));
}

// Adds the Units tab's parts to the shown result: sorting, the chart, the
// notes, and whether the table has a link.
export function show(result, isDropped) {
  sortable(result);
  fill(byId('units-extra'),
    el('p', {className: 'nolink'}, isDropped ? NO_LINK : 'The link of this page gives this table again.'),
    el('h3', {}, '75% reach of every unit, by troop type (inches)'), reachChart(result),
    notesList(result));
  byId('units-extra').hidden = false;
}

// A refusal's notes (every unit left out, say), when the source was read.
export function showNotes(result) {
  if (!result.summary) return;
  fill(byId('units-extra'), notesList(result));
  byId('units-extra').hidden = false;
}

export function clear() {
  const node = byId('units-extra');
  if (node) {
    fill(node);
    node.hidden = true;
  }
}
