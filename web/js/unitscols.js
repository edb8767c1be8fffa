// SPDX-License-Identifier: GPL-3.0-or-later
// Which columns of the Units table are on screen (issue 52). The table
// keeps every cell of the CSV (the export and the tests read it): a column
// is hidden by a class on its cells, never removed.
// - A column whose every cell is the same (the catalogue, the ruleset, an
//   empty base) is said once, in the heading above the table.
// - On a phone (<= 600 px) the table shows the name, the type, M, the
//   points, the reach columns and one chance column the player picks
//   ("Chance at"); "Show all columns" shows the rest, sideways scrolling
//   then allowed.

import {byId, el} from './dom.js';

const PHONE = '(max-width: 600px)';
// The columns a phone always shows, by the CSV's header names.
const PHONE_COLUMNS = ['name', 'type', 'move', 'points', 'reach_50', 'reach_75', 'reach_90'];

let view = {chance: null, all: false}; // the player's picks, kept across runs

// Columns whose cells are all the same text (a one-row table has none:
// every column would be).
export function constant(result) {
  if (result.rows.length < 2) return [];
  return result.header.map((h, c) => c).filter((c) => result.header[c] !== 'name' &&
    result.rows.every((r) => r[c] === result.rows[0][c]));
}

// "Bretonnians … · ruleset generic · base (none)": each constant column once.
// The ruleset as the core names it with its preset and mapping (about),
// when the table has one.
function said(result, cols) {
  return cols.map((c) => {
    const v = result.rows[0][c];
    if (result.header[c] === 'ruleset' && result.about && !result.about.includes(';')) {
      return `ruleset ${result.about}`;
    }
    return `${result.header[c]} ${v === '' ? '(none)' : v}`;
  }).join(' · ');
}

function phone() {
  return window.matchMedia(PHONE).matches;
}

function chanceColumns(result) {
  return result.header.filter((h) => /^p_\d/.test(h));
}

// The middle distance's chance column, as the default pick.
function middle(result) {
  const ps = chanceColumns(result);
  return ps[Math.floor((ps.length - 1) / 2)] ?? null;
}

// Hides or shows each column of <table id="results">: cells get the class
// col-hidden. Header cells carry data-column (the CSV name) where results.js
// sets it; else the header index is the column.
function apply(result, hidden) {
  const table = byId('results');
  for (const row of table.rows) {
    [...row.cells].forEach((cell, c) => cell.classList.toggle('col-hidden', hidden.has(c)));
  }
  byId('output').classList.toggle('units-phone', phone() && !view.all);
}

function hiddenSet(result, cols) {
  const hidden = new Set(view.all ? [] : cols);
  if (phone() && !view.all) {
    const keep = new Set(PHONE_COLUMNS);
    if (view.chance) keep.add(view.chance);
    result.header.forEach((h, c) => { if (!keep.has(h)) hidden.add(c); });
  }
  return hidden;
}

// The heading above the table: the list or army's name (title), the
// constant columns, and the phone's picks. Returns the heading element.
export function show(result, title) {
  const cols = constant(result);
  const ps = chanceColumns(result);
  if (!ps.includes(view.chance)) view.chance = middle(result);
  const chance = el('select', {id: 'units-chance'}, ...ps.map((p) =>
    el('option', {value: p, selected: p === view.chance}, `${p.slice(2)}″`)));
  const all = el('input', {type: 'checkbox', id: 'units-all', checked: view.all});
  const refresh = () => apply(result, hiddenSet(result, cols));
  chance.addEventListener('change', () => { view.chance = chance.value; refresh(); });
  all.addEventListener('change', () => { view.all = all.checked; refresh(); });
  const picks = el('p', {className: 'units-picks'},
    el('label', {className: 'units-phone-only'}, 'Chance at: ', chance), ' ',
    el('label', {}, all, ' Show all columns'));
  const heading = el('div', {id: 'units-heading'},
    el('p', {className: 'units-title'}, [title, said(result, cols)].filter((t) => t).join(' · ')),
    picks);
  let node = byId('units-heading');
  if (node) node.replaceWith(heading);
  else byId('results').parentElement.before(heading);
  refresh();
  window.matchMedia(PHONE).onchange = refresh;
  return heading;
}

export function clear() {
  const node = byId('units-heading');
  if (node) node.remove();
  byId('output')?.classList.remove('units-phone');
  for (const cell of document.querySelectorAll('#results .col-hidden')) cell.classList.remove('col-hidden');
}
