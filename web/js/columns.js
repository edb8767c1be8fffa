// SPDX-License-Identifier: GPL-3.0-or-later
// The results table's columns as a player reads them (issue 52): each
// header in the core's words (result.columns: name, label, description,
// unit, kind; include/chargesim/request.h, cs_request_column_at), the
// columns that carry nothing for the method hidden with a line saying
// which and why, a chooser of the shown columns, and a list of what each
// column means (a phone has no tooltip). Nothing here is worded from a
// column's name: the words are the core's, the decisions its metadata's.
//
// For other modules (the Units tab's phone view):
//   visibleColumns()  the CSV names of the columns shown, in table order
//   setVisible(names) shows exactly those columns (others hidden), and
//                     keeps the choice for this command while the page is open
// A choice is kept in the link too, as cols=NAME,NAME (link.js leaves it out
// of the engine's pairs), so a link shared shows the same columns.

import {el, fill} from './dom.js';

const chosen = new Map(); // command -> Map(name -> shown?) the player's own choices
let current = null; // {cmd, table, cols: [{name, hidden}], reasons}

// A probability as a percentage: 2 decimals, a non-zero one that would
// round to 0.00% said as "<0.01%" (an exact 1.7e-08 is a chance, not
// none), one short of 100% by more than a sum's rounding (1e-12: an exact
// 0.9999999999999999 is 1) as ">99.99%". The CSV's proportion stays in
// the cell's data-value.
export function percent(text) {
  const x = Number(text);
  const p = 100 * x;
  const a = Math.abs(p);
  const sign = p < 0 ? '-' : '';
  if (p !== 0 && a < 0.005) return `${sign}<0.01%`;
  if (a > 99.995 && 100 - a > 1e-10) return `${sign}>99.99%`;
  return `${p.toFixed(2)}%`;
}

// Whether column meta holds probabilities (the core's unit says so).
export function isProbability(meta) {
  return meta?.unit === 'probability';
}

// The columns that carry nothing for this result, with why:
// [{name, why}]. An empty column (every cell empty) carries nothing; under
// the exact method an interval column is the value itself.
function carryNothing(result, metas) {
  const exact = result.method === 'exact';
  const out = [];
  result.header.forEach((name, c) => {
    const empty = result.rows.length > 0 && result.rows.every((r) => r[c] === '');
    const degenerate = exact && metas[c]?.kind === 'interval';
    if (empty || degenerate) {
      out.push({name, why: exact ? 'the values are exact (no trials, no interval)' : 'empty in every row'});
    }
  });
  return out;
}

// The line above the table: "trials, ci_low, ci_high hidden: the values are exact".
function hiddenLine(auto) {
  const byWhy = new Map();
  for (const {name, why} of auto) {
    if (!byWhy.has(why)) byWhy.set(why, []);
    byWhy.get(why).push(name);
  }
  return [...byWhy].map(([why, names]) => `${names.join(', ')} hidden: ${why}`).join('; ');
}

// The link's cols=... (the CSV names shown), or null.
function linked() {
  const piece = location.hash.slice(1).split('&').find((p) => p.startsWith('cols='));
  if (!piece) return null;
  try {
    return new Set(decodeURIComponent(piece.slice(5)).split(',').filter(Boolean));
  } catch (e) {
    return null;
  }
}

// The link with cols= as the player chose (history.replaceState: no run).
function relink() {
  const rest = location.hash.slice(1).split('&').filter((p) => p && !p.startsWith('cols='));
  rest.push(`cols=${visibleColumns().map(encodeURIComponent).join(',')}`);
  history.replaceState(null, '', `${location.pathname}${location.search}#${rest.join('&')}`);
}

function apply() {
  if (!current) return;
  const {table, cols} = current;
  cols.forEach((col, c) => {
    for (const row of table.rows) if (row.cells[c]) row.cells[c].hidden = !col.shown;
    col.box.checked = col.shown;
    col.dt.hidden = !col.shown;
    col.dd.hidden = !col.shown;
  });
}

// The header cell of column c: the label, the CSV name beneath (when it
// differs), the description as tooltip and accessible description.
export function headerCell(name, meta, c, extra, className) {
  const label = meta?.label || name;
  const description = [meta?.description, extra].filter(Boolean).join('; ');
  const th = el('th', {scope: 'col', className, title: description, dataset: {column: name}},
                el('span', {className: 'col-label'}, label),
                label === name ? null : el('small', {className: 'col-name'}, name));
  th.setAttribute('aria-describedby', `col-desc-${c}`);
  return th;
}

// After table() has drawn result into tableNode: hides what carries
// nothing (unless the player chose otherwise), and fills the line, the
// chooser and the list of meanings into box. extra(c): more words for
// column c's meaning ('' when none).
export function decorate(cmd, result, tableNode, box, extra) {
  const metas = result.header.map((h, c) => result.columns?.[c] ?? {name: h});
  const auto = carryNothing(result, metas);
  const autoHidden = new Set(auto.map((a) => a.name));
  const mine = chosen.get(cmd) ?? new Map();
  chosen.set(cmd, mine);
  const fromLink = linked();
  if (fromLink) for (const name of result.header) mine.set(name, fromLink.has(name));
  const cols = result.header.map((name, c) => {
    const meta = metas[c];
    const label = meta.label || name;
    const box2 = el('input', {type: 'checkbox', id: `col-show-${c}`, dataset: {column: name}});
    box2.addEventListener('change', () => {
      mine.set(name, box2.checked);
      cols[c].shown = box2.checked;
      apply();
      relink();
    });
    const description = [meta.description, extra(c)].filter(Boolean).join('; ');
    return {
      name, box: box2,
      shown: mine.has(name) ? mine.get(name) : !autoHidden.has(name),
      choice: el('li', {}, box2, el('label', {htmlFor: box2.id}, `${label} `,
                                    el('code', {}, name))),
      dt: el('dt', {}, `${label} `, el('code', {}, name)),
      dd: el('dd', {id: `col-desc-${c}`}, description || name),
    };
  });
  current = {cmd, table: tableNode, cols};
  fill(box,
       el('p', {id: 'columns-hidden', className: 'hint', hidden: auto.length === 0}, hiddenLine(auto)),
       el('details', {id: 'columns-chooser', className: 'columns-chooser'},
          el('summary', {}, 'Columns'), el('ul', {}, ...cols.map((col) => col.choice))),
       el('details', {id: 'columns-help', className: 'columns-help'},
          el('summary', {}, 'What the columns mean'),
          el('dl', {}, ...cols.flatMap((col) => [col.dt, col.dd]))));
  apply();
}

export function visibleColumns() {
  return current ? current.cols.filter((c) => c.shown).map((c) => c.name) : [];
}

export function setVisible(names) {
  if (!current) return;
  const want = new Set(names);
  const mine = chosen.get(current.cmd);
  for (const col of current.cols) {
    col.shown = want.has(col.name);
    mine.set(col.name, col.shown);
  }
  apply();
  relink();
}

export function clear(box) {
  current = null;
  if (box) fill(box);
}
