// SPDX-License-Identifier: GPL-3.0-or-later
// The result as the engine gives it: the table (cell for cell the CSV the
// equivalent command writes, header row first), the command line, how the
// numbers were obtained, what the page did differently (a notice), what
// each outcome means (the ruleset's own words), and the chart's legend.

import {byId, el, fill} from './dom.js';
import {swatch} from './chart.js';
import * as columns from './columns.js';

export function clear() {
  for (const id of ['command', 'note', 'notice', 'warning', 'chart-legend', 'chart-axes',
                    'outcome-help', 'map-readout']) fill(byId(id));
  fill(byId('results'));
  columns.clear(byId('columns-box'));
  byId('output').hidden = true;
  byId('chart-view').hidden = true;
  byId('map-view').hidden = true;
  byId('outcome-help').hidden = true;
}

export function showCommand(command) {
  fill(byId('command'), command ?? '');
}

// Whether column c holds numbers only (empty cells aside): numbers align
// right, words (a unit's name, true/false, a method) left.
export function numeric(rows, c) {
  return rows.every((r) => r[c] === '' || !Number.isNaN(Number(r[c])));
}

// A numeric cell as the page shows it: the CSV's text, rounded to six
// decimals where it has more or an exponent. The CSV writes an exact value
// whole (issue 52: 0.004629629629629629, 1.65381716879202e-08); the page
// keeps its display rounding, and the whole value in the cell's data-value.
export function shownNumber(v) {
  if (v === '' || Number.isNaN(Number(v))) return v;
  const m = /^-?\d+(?:\.(\d*))?$/.exec(v);
  return m && (m[1] ?? '').length <= 6 ? v : Number(v).toFixed(6);
}

// Fills <table id="results"> with result.header and result.rows: each
// header in the core's words (columns.js: label, CSV name in data-column,
// description as tooltip and accessible description; an outcome's share
// adds its meaning), each numeric cell the CSV's text in data-value and
// shown rounded, a probability (the core's unit says which) as a
// percentage. Then hides what carries nothing and offers the chooser.
function table(result, help) {
  const kind = result.header.map((_, c) => (numeric(result.rows, c) ? '' : 'text'));
  const metas = result.header.map((h, c) => result.columns?.[c] ?? {name: h});
  const prob = metas.map(columns.isProbability);
  const extra = (c) => {
    const h = result.header[c];
    return h.startsWith('p_') ? help(h.slice(2)) : '';
  };
  const head = el('thead', {}, el('tr', {}, ...result.header.map((h, c) =>
    columns.headerCell(h, metas[c], c, extra(c), kind[c]))));
  const body = el('tbody');
  for (const row of result.rows) {
    body.append(el('tr', {}, ...row.map((v, c) => (kind[c] || v === ''
      ? el('td', {className: kind[c]}, v)
      : el('td', {className: kind[c], dataset: {value: v}},
           prob[c] ? columns.percent(v) : shownNumber(v))))));
  }
  fill(byId('results'), head, body);
  columns.decorate(result.cmd ?? '', result, byId('results'), byId('columns-box'), extra);
}

// The columns shown, and a choice of them (columns.js).
export const visibleColumns = columns.visibleColumns;
export const setVisible = columns.setVisible;

// The outcomes of the table with what each means at the table.
function outcomes(result, help) {
  const items = result.header.filter((h) => h.startsWith('p_') && !h.endsWith('_a') &&
                                       !h.endsWith('_b') && !h.includes('_delta'))
    .map((h) => h.slice(2)).filter((o) => help(o));
  const dl = byId('outcome-help');
  fill(dl, ...items.flatMap((o) => [el('dt', {}, `p_${o}`), el('dd', {}, help(o))]));
  dl.hidden = items.length === 0;
}

// help(outcome): its meaning ('' when none).
export function show(result, help) {
  byId('output').hidden = false;
  showCommand(result.command);
  fill(byId('note'), result.note ?? '');
  fill(byId('notice'), result.notice ?? '');
  fill(byId('warning'), result.warning ?? '');
  table(result, help);
  outcomes(result, help);
}

// The chart's legend: each series in words, its line, its meaning.
export function legend(spec, styles) {
  fill(byId('chart-legend'), ...spec.series.map((s, k) => el('li', {
    title: s.title ?? '', dataset: {colour: styles[k].colour, dash: styles[k].dash.join(',')},
  }, swatch(styles[k], spec.bars), ' ', s.label, s.title ? el('small', {}, ` (${s.title})`) : null)));
}

// The columns of result whose header is name, as numbers (NaN where empty).
export function column(result, name) {
  const c = result.header.indexOf(name);
  return c < 0 ? null : result.rows.map((r) => (r[c] === '' ? NaN : Number(r[c])));
}
