// SPDX-License-Identifier: GPL-3.0-or-later
// The form of each command, built from what the engine says of the
// rulesets (their games, parameter tables: key, type, default, unit,
// accepted values, help; the keys a threat map sets itself): no parameter
// and no game is written here. Every field holds text in the command
// line's syntax, so a field takes a value, a sweep (3..12, 3..12:0.5, a
// list 3,5,8) or a draw (uniform(a,b), normal(m,s)); an empty field leaves
// the default. read() gives the pairs of the link back, in the order the
// link had them (the first swept key is the outermost).

import {el, fill} from './dom.js';
import {get, parse} from './link.js';
import {breakable} from './wrap.js';

let info = null; // the engine's description of the rulesets
let fields = []; // [{key, input, value?}] in display order
let extra = []; // the link's pairs no field shows, kept as they are
let order = []; // the keys in the order the link gave them

export function init(rulesets) {
  info = rulesets;
}

export function rulesetNamed(name) {
  return info.rulesets.find((r) => r.name === name);
}

// The default ruleset of a command: the first one that can run it.
export function defaultRuleset(cmd) {
  return (info.rulesets.find((r) => cmd !== 'map' || r.map) ?? info.rulesets[0]).name;
}

// What outcome o of ruleset name means at the table ('' when unknown).
export function outcomeHelp(name, o) {
  const rs = rulesetNamed(name);
  const i = rs ? rs.outcomes.indexOf(o) : -1;
  return i < 0 ? '' : rs.outcome_help[i];
}

// A text field for key, labelled label, with suggestions and the default shown.
function field(key, label, placeholder, suggestions, value) {
  const input = el('input', {type: 'text', name: key, placeholder, spellcheck: false,
                             autocomplete: 'off', dataset: {key}});
  input.setAttribute('aria-label', label);
  if (value !== undefined && value !== null) input.value = value;
  fields.push({key, input});
  const parts = [input];
  if (suggestions.length) {
    const list = el('datalist', {id: `choices-${key}`},
                    ...suggestions.map((c) => el('option', {value: c})));
    input.setAttribute('list', list.id);
    parts.push(list);
  }
  return el('span', {className: 'field'}, ...parts, el('span', {className: 'field-error'}));
}

// The games a player knows (each ruleset's, from the engine), as one list:
// a game's value is "ruleset|preset".
function gameRow(cmd, name, preset, onGame) {
  const options = [];
  for (const rs of info.rulesets.filter((r) => cmd !== 'map' || r.map)) {
    for (const g of rs.games) {
      const note = g.preset ? `${rs.name}, preset ${g.preset}` : rs.name;
      options.push(el('option', {value: `${rs.name}|${g.preset ?? ''}`}, `${g.title} (${note})`));
    }
  }
  const select = el('select', {id: 'game', name: 'game',
                               onchange: () => onGame(...select.value.split('|'))}, ...options);
  const rs = rulesetNamed(name);
  const wanted = rs?.games.find((g) => (g.preset ?? '') === (preset ?? '')) ??
    rs?.games.find((g) => g.preset === 'none') ?? rs?.games[0];
  if (!rs) select.append(el('option', {value: `${name}|`}, `${name} (not a ruleset of this engine)`));
  select.value = `${name}|${wanted?.preset ?? ''}`;
  fields.push({key: 'experiment.ruleset', input: select, value: () => name});
  return el('div', {className: 'ruleset'},
            el('label', {htmlFor: 'game'}, 'Game'), select,
            el('span', {className: 'field-error'}),
            el('span', {className: 'summary'}, rs ? `${rs.name}: ${rs.summary}` : ''));
}

function paramRow(p, pairs, compare) {
  const suggestions = p.type === 'bool' ? ['true', 'false'] : p.choices;
  // A player's label (the core's), the key beneath as the command line writes it.
  const cells = [
    el('th', {scope: 'row', title: p.help ?? ''}, ...(p.label && p.label !== p.key
      ? [p.label, el('small', {className: 'key'}, ...breakable(p.key))] : breakable(p.key))),
    el('td', {className: 'value'},
       field(p.key, compare ? `${p.label ?? p.key}, A` : p.label ?? p.key, p.default === '' ? '""' : p.default, suggestions,
             get(pairs, p.key))),
  ];
  if (compare) {
    cells.push(el('td', {className: 'value'},
                  field(`b.${p.key}`, `${p.label ?? p.key}, B`, 'as A', suggestions, get(pairs, `b.${p.key}`))));
  }
  const flags = [p.layout ? 'may be drawn per trial' : '', p.assumption ? 'an assumption' : '']
    .filter(Boolean).join('; ');
  cells.push(el('td', {className: 'unit'}, p.unit),
             el('td', {className: 'accepted'}, p.accepted),
             el('td', {className: 'help', id: `help-${p.key}`}, p.help,
                flags ? el('em', {}, ` (${flags})`) : null));
  const row = el('tr', {}, ...cells);
  for (const input of row.querySelectorAll('input')) input.setAttribute('aria-describedby', `help-${p.key}`);
  return row;
}

function paramTable(cmd, rs, pairs) {
  const compare = cmd === 'compare';
  const head = ['parameter', compare ? 'A' : 'value'];
  if (compare) head.push('B');
  head.push('unit', 'accepted', 'meaning');
  // A threat map sets some parameters from each cell: it does not offer them.
  const params = rs.params.filter((p) => cmd !== 'map' || !rs.map_keys.includes(p.key));
  const hidden = rs.params.length - params.length;
  return el('div', {className: 'params-wrap'},
            el('table', {className: compare ? 'params compare' : 'params'},
               el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {
                 scope: 'col', className: h === 'A' || h === 'B' ? 'variant' : '',
               }, h)))),
               el('tbody', {}, ...params.map((p) => paramRow(p, pairs, compare)))),
            hidden ? el('p', {className: 'hint'},
                        `The map sets ${rs.map_keys.join(' and ')} from each position of the ` +
                        'target (x across, y ahead), so they are not asked here.') : null);
}

// The pairs a game starts the Run tab from (the core's example of the
// ruleset's game with preset), or none.
export function example(name, preset) {
  const game = rulesetNamed(name)?.games.find((g) => (g.preset ?? '') === (preset ?? ''));
  return game?.example ? parse(game.example).pairs : [];
}

// The engine's default of setting key for cmd (its text), or undefined.
export function settingDefault(cmd, key) {
  return (info.settings[cmd] ?? []).find((s) => s.key === key)?.default;
}

// The command's settings besides the parameters (the engine's list).
function settings(cmd, pairs) {
  const rows = (info.settings[cmd] ?? []).map((s) => {
    const name = s.key.replace('experiment.', '');
    const id = `setting-${name}`;
    const label = s.label || name;
    const f = field(s.key, label, s.default, s.key === 'experiment.method' ? info.methods : [],
                    get(pairs, s.key));
    const input = f.querySelector('input');
    input.id = id;
    input.setAttribute('aria-describedby', `${id}-help`);
    // The player's label, the key beneath (the command line's), the core's one line.
    return el('div', {className: 'setting'},
              el('label', {htmlFor: id}, label, ' ', el('small', {className: 'key'}, name)), f,
              el('small', {id: `${id}-help`}, s.help));
  });
  return el('fieldset', {className: 'settings'}, el('legend', {}, cmd === 'dice' ? 'dice' : 'experiment'),
            ...rows);
}

// Builds the form of state {cmd, pairs} into node. on.game(ruleset,
// preset) is called when another game is chosen, on.tab(id) to go to a tab.
export function render(node, state, on) {
  fields = [];
  order = state.pairs.map(([k]) => k);
  const parts = [];
  if (state.cmd === 'dice') {
    parts.push(settings('dice', state.pairs));
  } else {
    const name = get(state.pairs, 'experiment.ruleset') ?? defaultRuleset(state.cmd);
    const rs = rulesetNamed(name);
    parts.push(gameRow(state.cmd, name, get(state.pairs, 'preset'), on.game));
    if (state.cmd === 'run') {
      parts.push(el('p', {className: 'hint'}, 'Only the dice, such as "what does M + highest of ' +
                    '2D6 reach"? ', el('button', {type: 'button', className: 'linkish',
                                                  onclick: () => on.tab('dice')}, 'The Dice tab'),
                    ' answers that directly.'));
    }
    parts.push(settings(state.cmd, state.pairs));
    if (rs) parts.push(paramTable(state.cmd, rs, state.pairs));
  }
  const shown = new Set(fields.map((f) => f.key));
  extra = state.pairs.filter(([k]) => !shown.has(k));
  if (extra.length) {
    parts.push(el('p', {className: 'extra'}, 'Also from the link: ',
                  el('code', {}, extra.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join(' & '))));
  }
  fill(node, ...parts);
}

// The link's pairs the form holds: the keys the link had, in its order,
// then the others in the form's order; empty fields are left out.
export function read() {
  const value = new Map();
  for (const f of fields) {
    const v = f.value ? f.value() : f.input.value;
    if (v !== '') value.set(f.key, v);
  }
  const pairs = [];
  const taken = new Set();
  for (const key of order) {
    if (value.has(key) && !taken.has(key)) {
      pairs.push([key, value.get(key)]);
      taken.add(key);
    }
  }
  for (const [key, v] of value) if (!taken.has(key)) pairs.push([key, v]);
  return pairs.concat(extra);
}

// Says in the empty field of key what its default does here (the
// placeholder): an exact result ran no trial, so trials' default is unused.
export function placeholder(key, text) {
  const f = fields.find((x) => x.key === key);
  if (f && f.input.tagName === 'INPUT') f.input.placeholder = text;
}

// Puts message beside the field of key (when the form shows one).
export function markError(key, message) {
  const f = fields.find((x) => x.key === key);
  if (!f) return false;
  f.input.classList.add('invalid');
  f.input.setAttribute('aria-invalid', 'true');
  const slot = f.input.parentElement.querySelector('.field-error');
  if (slot) slot.textContent = message;
  return true;
}
