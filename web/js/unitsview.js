// SPDX-License-Identifier: GPL-3.0-or-later
// The Units tab's form and view (issue 44): a game, an army and distances,
// or files dropped or picked; the table sorted by a header's click; a chart
// of every unit's 75% reach grouped by troop type; the notes. Every text
// from a catalogue is set with textContent (dom.js).

import {byId, el, fill} from './dom.js';
import * as units from './units.js';
import {numeric} from './results.js';
import * as link from './link.js';
import * as cols from './unitscols.js';
import * as saving from './unitsoffline.js';

let fields = null;  // {game, army, distance, rules, files, pick}
let dropped = [];   // [{name, bytes}] of the last drop
let onDropped = null;
let useDropped = false; // the dropped list is the source until an army is picked
let sorted = null;      // 'COLUMN:asc|desc', the link's sort pair
let heading = '';       // the table's heading: the army or the dropped list run

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

// Says which source Run takes: the dropped list until an army is picked.
function sourceSaid() {
  const node = byId('units-source-said');
  if (!node) return;
  node.textContent = useDropped
    ? `Run makes the table of your files (${fields.pick.value}); pick an army above to go back to it.`
    : '';
  node.hidden = !useDropped;
}

// An army picked in the form: the source again, instead of dropped files.
function pickArmy() {
  useDropped = false;
  sourceSaid();
}

async function takeFiles(list) {
  dropped = await Promise.all([...list].map(async (f) => ({
    name: f.name, bytes: new Uint8Array(await f.arrayBuffer())})));
  sourceOptions();
  useDropped = !!fields.pick.value;
  sourceSaid();
  if (fields.pick.value) onDropped(read());
}

// Run pressed: the dropped files while they are the source (true: run
// here), else the army of the form (false: the caller's link).
export function submitDropped() {
  if (!useDropped || !fields.pick.value) return false;
  onDropped(read());
  return true;
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
  fields.pick.addEventListener('change', () => { useDropped = true; sourceSaid(); });
  zone.append(el('p', {}, el('label', {}, 'Source: ', fields.pick), ' ', fields.runDropped),
              el('p', {id: 'units-source-said', role: 'status', hidden: true}),
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
  sorted = get('sort') ?? null;
  armyOptions(found.game, found.army.key);
  fields.game.addEventListener('change', () => {
    armyOptions(idx.games.find((g) => g.folder === fields.game.value));
    pickArmy();
  });
  fields.army.addEventListener('change', pickArmy);
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
  sourceSaid();
}

// The link's pairs of the form (for a shipped army).
export function read() {
  const pairs = [['source', `${fields.game.value}/${fields.army.value}`]];
  if (fields.distance.value) pairs.push(['distance', fields.distance.value]);
  if (fields.rules.value) pairs.push(['rules', fields.rules.value]);
  if (sorted) pairs.push(['sort', sorted]);
  return pairs;
}

// Runs state: a shipped army, or the dropped files (state.dropped).
// A catalogue that could not be fetched (no connection, never saved) is
// answered as {offline: true}: the page's words, no command line.
export async function exec(state, onProgress) {
  const get = (k) => { let v; for (const [a, b] of state.pairs) if (a === k) v = b; return v; };
  const offline = (message) => ({result: {ok: false, cmd: 'units', command: '', offline: true,
                                          message, cli: message, notes: []}, ms: 0});
  if (state.dropped) {
    heading = `Your list: ${fields.pick.value}`;
  } else {
    const found = units.army(await units.catalogues().catch(() => ({games: []})), get('source'));
    heading = found ? `${found.army.name} (${found.game.name})` : '';
  }
  try {
    const answer = state.dropped
      ? await units.runDropped(dropped, fields.pick.value, get('distance'), get('rules'), onProgress)
      : await units.runShipped(get('source'), get('distance'), get('rules'), onProgress);
    if (!answer.result.ok && !answer.result.summary && saving.isFetchFailure(answer.result.message)) {
      return offline(answer.result.message);
    }
    return answer;
  } catch (e) {
    if (!e.cancelled && saving.isFetchFailure(e.message)) return offline(e.message);
    throw e;
  }
}

// ---- the result ----------------------------------------------------------

// Sorts the table's body by column c on each press of its header's button,
// from the mouse or the keyboard: a chance (p_*) or reach column first from
// high to low (the best charger first), any other first from low to high;
// again: the other way. Empty cells last. The sort joins the link as the
// page's own pair sort=COLUMN:asc|desc, which the engine never sees. The
// unit's name stays in view when the table scrolls sideways.
function sortable(result, isDropped) {
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
  const by = (c, dir) => {
    for (const h of heads) {
      delete h.dataset.sort;
      h.removeAttribute('aria-sort');
    }
    const th = heads[c];
    th.dataset.sort = dir;
    th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending');
    const num = numeric(result.rows, c);
    const body = table.tBodies[0];
    const rows = [...body.rows];
    rows.sort((a, b) => {
      const x = a.cells[c].dataset.value ?? a.cells[c].textContent;
      const y = b.cells[c].dataset.value ?? b.cells[c].textContent;
      if (x === '' || y === '') return (x === '') - (y === '');
      const d = num ? Number(x) - Number(y) : x.localeCompare(y);
      return dir === 'asc' ? d : -d;
    });
    body.append(...rows);
    sorted = `${result.header[c]}:${dir}`;
  };
  heads.forEach((th, c) => {
    th.classList.add('sortable');
    const button = el('button', {type: 'button', className: 'sort', title: 'sort by this column'},
                      ...th.childNodes);
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const high = /^(p_|reach_)/.test(result.header[c]);
      const dir = th.dataset.sort ? (th.dataset.sort === 'asc' ? 'desc' : 'asc') : (high ? 'desc' : 'asc');
      by(c, dir);
      if (!isDropped) history.replaceState(null, '', location.pathname + location.search +
                                           link.format({cmd: 'units', pairs: read()}));
    });
  });
  const [name, dir] = (sorted ?? '').split(':');
  const c = result.header.indexOf(name);
  if (c >= 0 && (dir === 'asc' || dir === 'desc')) by(c, dir);
  else sorted = null;
}

// text, cut to fit px pixels in ctx's font. The cut is in the middle, so
// both the unit and its row's last words stay ("Duke (on Barded…, flying)"):
// two rows of one unit are told apart by their ends.
function fitted(ctx, text, px) {
  if (ctx.measureText(text).width <= px) return text;
  let n = text.length - 1;
  const cut = (k) => `${text.slice(0, Math.ceil(k / 2))}…${text.slice(text.length - Math.floor(k / 2))}`;
  while (n > 2 && ctx.measureText(cut(n)).width > px) n--;
  return cut(n);
}

// Each name fitted to px, no two alike where the names differ: names that
// one cut makes alike (a unit's rows with two long options) are cut around
// what tells them apart, their shared start and end shortened instead:
// "Duke (on Royal Pegasus, with Virtue…)" and "Duke (on Barded Pegasus,
// with Virtue…)" become "Duke (o…Royal Peg…ght)" and "Duke (o…Barded P…ght)".
function distinctNames(ctx, names, px) {
  const out = names.map((n) => fitted(ctx, n, px));
  for (let round = 0; round < 4; round++) {
    const groups = new Map();
    out.forEach((f, i) => groups.set(f, [...(groups.get(f) ?? []), i]));
    const clashes = [...groups.values()].filter((g) => g.length > 1 && new Set(g.map((i) => names[i])).size > 1);
    if (clashes.length === 0) break;
    for (const g of clashes) {
      const texts = g.map((i) => names[i]);
      let pre = 0, suf = 0;
      const min = Math.min(...texts.map((t) => t.length));
      while (pre < min && texts.every((t) => t[pre] === texts[0][pre])) pre++;
      while (suf < min - pre && texts.every((t) => t[t.length - 1 - suf] === texts[0][texts[0].length - 1 - suf])) suf++;
      for (const i of g) {
        const t = names[i];
        const mid = t.slice(pre, t.length - suf);
        let head = Math.min(pre, 8), tail = Math.min(suf, 4), m = mid.length;
        const text = () => `${t.slice(0, head)}${head < pre ? '…' : ''}${mid.slice(0, m)}` +
          `${m < mid.length || tail < suf ? '…' : ''}${tail ? t.slice(t.length - tail) : ''}`;
        while (m > 3 && ctx.measureText(text()).width > px) m--;
        while (head > 1 && ctx.measureText(text()).width > px) head--;
        out[i] = text();
      }
    }
  }
  return out;
}

const FLYING = '#b35900'; // a flying row's bar (the mapping's `row`, row_kind)

// Every unit's reach_75, one bar each, grouped by troop type (the table's
// type column; the ruleset where it has none). A second row (row_kind, the
// core's: `flying`) has a bar of its own colour, named in the legend.
function reachChart(result) {
  const h = result.header;
  const cName = h.indexOf('name'), cReach = h.indexOf('reach_75');
  const cGroup = h.includes('type') ? h.indexOf('type') : h.indexOf('ruleset');
  const canvas = el('canvas', {id: 'units-chart', role: 'img',
                               ariaLabel: '75% reach of every unit; the table holds every number'});
  if (cReach < 0 || result.rows.length === 0) return canvas;
  const kinds = result.row_kind ?? [];
  const groups = new Map();
  result.rows.forEach((r, i) => {
    const g = r[cGroup] || '(no type)';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push({r, kind: kinds[i] ?? ''});
  });
  const lines = [];
  for (const [g, rows] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push({group: g});
    rows.sort((a, b) => Number(b.r[cReach]) - Number(a.r[cReach]));
    for (const {r, kind} of rows) {
      lines.push({name: r[cName], reach: Number(r[cReach]), text: r[cReach], kind});
    }
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
  const named = lines.filter((l) => l.name !== undefined);
  distinctNames(ctx, named.map((l) => l.name), left - 12).forEach((f, i) => { named[i].shown = f; });
  canvas.dataset.names = JSON.stringify(named.map((l) => l.shown));
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
    ctx.fillText(l.shown, left - 8, y);
    if (Number.isNaN(l.reach)) return;
    ctx.fillStyle = l.kind ? FLYING : '#1f5fa8';
    ctx.fillRect(left, y - 5, sx(l.reach) - left, 10);
    ctx.fillStyle = '#222';
    ctx.textAlign = 'left';
    ctx.fillText(`${l.text}"${l.kind ? ` ${l.kind}` : ''}`, sx(l.reach) + 4, y);
  });
  return canvas;
}

// The chart's legend: the two bar colours, in words.
function reachLegend(result) {
  const kinds = [...new Set((result.row_kind ?? []).filter((k) => k))];
  const item = (colour, text) => el('li', {}, el('span', {className: 'swatch-bar',
    style: `background:${colour}`}), ' ', text);
  return el('ul', {className: 'legend', id: 'units-chart-legend'},
    item('#1f5fa8', 'a unit as it moves on the ground'),
    ...kinds.map((k) => item(FLYING, `a second row: ${k} (its name ends in “${k}”)`)));
}

// The notes as the command line prints them on standard error, under
// their count line.
function notesList(result) {
  const notes = result.notes ?? [];
  return el('details', {id: 'units-notes', open: notes.length > 0 && notes.length <= 12},
    el('summary', {}, result.summary ?? ''),
    el('ul', {}, ...notes.map((n) => el('li', {}, n))));
}

// Adds the Units tab's parts to the shown result: the heading (the list or
// army, the columns every row shares), the phone's columns, sorting, the
// chart, the notes, and whether the table has a link.
export function show(result, isDropped) {
  cols.show(result, heading);
  sortable(result, isDropped);
  fill(byId('units-extra'),
    el('p', {className: 'nolink'}, isDropped ? NO_LINK : 'The link of this page gives this table again.'),
    el('h3', {}, '75% reach of every unit, by troop type (inches)'), reachChart(result),
    reachLegend(result), notesList(result));
  byId('units-extra').hidden = false;
}

// A refusal, shown in place of the table: a list of a game with no unit
// tables (the core's "player" words) and an army not saved for offline use
// are notices, not malfunctions; any other refusal is the command line's
// message, in #error. No command line for a failure.
export async function refused(result) {
  byId('output').classList.add('units-refused');
  const notice = byId('units-notice') ?? el('div', {id: 'units-notice', className: 'notice',
                                                   role: 'status'});
  byId('error').after(notice);
  if (result.player) {
    fill(notice, el('p', {}, result.player), el('p', {},
      el('a', {href: '#cmd=run', id: 'units-to-run'}, 'Open the Run tab and choose your game')));
  } else if (result.offline) {
    fill(notice, await saving.notice());
  } else {
    fill(byId('error'), result.cli);
    byId('error').hidden = false;
    fill(notice);
  }
  notice.hidden = notice.childNodes.length === 0;
  if (result.summary) byId('output').hidden = false;
  showNotes(result);
}

// A refusal's notes (every unit left out, say), when the source was read.
export function showNotes(result) {
  if (!result.summary) return;
  fill(byId('units-extra'), notesList(result));
  byId('units-extra').hidden = false;
}

export function clear() {
  cols.clear();
  byId('output')?.classList.remove('units-refused');
  const notice = byId('units-notice');
  if (notice) notice.remove();
  const node = byId('units-extra');
  if (node) {
    fill(node);
    node.hidden = true;
  }
}
