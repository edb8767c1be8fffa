// The result as the engine gives it: the table (cell for cell the CSV the
// equivalent command writes, header row first), the command line, how the
// numbers were obtained, and what the page did differently (a notice).

import {byId, el, fill} from './dom.js';

export function clear() {
  for (const id of ['command', 'note', 'notice', 'warning']) fill(byId(id));
  fill(byId('results'));
  byId('output').hidden = true;
}

export function showCommand(command) {
  fill(byId('command'), command ?? '');
}

// Fills <table id="results"> with result.header and result.rows.
function table(result) {
  const head = el('thead', {}, el('tr', {}, ...result.header.map((h) => el('th', {scope: 'col'}, h))));
  const body = el('tbody');
  for (const row of result.rows) body.append(el('tr', {}, ...row.map((c) => el('td', {}, c))));
  fill(byId('results'), head, body);
}

export function show(result) {
  byId('output').hidden = false;
  showCommand(result.command);
  fill(byId('note'), result.note ?? '');
  fill(byId('notice'), result.notice ?? '');
  fill(byId('warning'), result.warning ?? '');
  table(result);
}

// The columns of result whose header is name, as numbers (NaN where empty).
export function column(result, name) {
  const c = result.header.indexOf(name);
  return c < 0 ? null : result.rows.map((r) => (r[c] === '' ? NaN : Number(r[c])));
}
