// The form of each command, built from what the engine says of the
// rulesets (their parameter tables: key, type, default, unit, accepted
// values, help): no parameter is written here. Every field holds text in
// the command line's syntax, so a field takes a value, a sweep (3..12,
// 3..12:0.5, a list 3,5,8) or a draw (uniform(a,b), normal(m,s)); an empty
// field leaves the default. read() gives the pairs of the link back, in the
// order the link had them (the first swept key is the outermost).

import {el, fill} from './dom.js';
import {get} from './link.js';

let info = null; // the engine's description of the rulesets
let fields = []; // [{key, input}] in display order
let extra = []; // the link's pairs no field shows, kept as they are
let order = []; // the keys in the order the link gave them

export function init(rulesets) {
  info = rulesets;
}

function rulesetNamed(name) {
  return info.rulesets.find((r) => r.name === name);
}

// A text field for key, with suggestions (choices) and the default shown.
function field(key, placeholder, suggestions, value) {
  const input = el('input', {type: 'text', name: key, placeholder, spellcheck: false,
                             autocomplete: 'off', dataset: {key}});
  if (value !== undefined && value !== null) input.value = value;
  if (suggestions.length) {
    const list = el('datalist', {id: `choices-${key}`},
                    ...suggestions.map((c) => el('option', {value: c})));
    input.setAttribute('list', list.id);
    input.after(list);
    fields.push({key, input});
    return el('span', {className: 'field'}, input, list, el('span', {className: 'field-error'}));
  }
  fields.push({key, input});
  return el('span', {className: 'field'}, input, el('span', {className: 'field-error'}));
}

function rulesetRow(cmd, name, onRuleset) {
  const choices = info.rulesets.filter((r) => cmd !== 'map' || r.map);
  const select = el('select', {name: 'experiment.ruleset', dataset: {key: 'experiment.ruleset'},
                               onchange: () => onRuleset(select.value)},
                    ...choices.map((r) => el('option', {value: r.name}, r.name)));
  if (name && !choices.some((r) => r.name === name)) select.append(el('option', {value: name}, name));
  select.value = name;
  fields.push({key: 'experiment.ruleset', input: select});
  const rs = rulesetNamed(name);
  return el('p', {className: 'ruleset'},
            el('label', {}, 'ruleset ', select),
            el('span', {className: 'field-error'}),
            el('span', {className: 'summary'}, rs ? rs.summary : ''));
}

function paramRow(p, pairs, compare) {
  const suggestions = p.type === 'bool' ? ['true', 'false'] : p.choices;
  const cells = [
    el('th', {scope: 'row'}, p.key),
    el('td', {}, field(p.key, p.default === '' ? '""' : p.default, suggestions, get(pairs, p.key))),
  ];
  if (compare) {
    cells.push(el('td', {}, field(`b.${p.key}`, 'as A', suggestions, get(pairs, `b.${p.key}`))));
  }
  const flags = [p.layout ? 'may be drawn per trial' : '', p.assumption ? 'an assumption' : '']
    .filter(Boolean).join('; ');
  cells.push(el('td', {className: 'unit'}, p.unit),
             el('td', {className: 'accepted'}, p.accepted),
             el('td', {className: 'help'}, p.help, flags ? el('em', {}, ` (${flags})`) : null));
  return el('tr', {}, ...cells);
}

function paramTable(rs, pairs, compare) {
  const head = ['parameter', compare ? 'A' : 'value'];
  if (compare) head.push('B');
  head.push('unit', 'accepted', 'meaning');
  return el('table', {className: 'params'},
            el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {scope: 'col'}, h)))),
            el('tbody', {}, ...rs.params.map((p) => paramRow(p, pairs, compare))));
}

// The command's settings besides the parameters (the engine's list).
function settings(cmd, pairs) {
  const rows = (info.settings[cmd] ?? []).map((s) =>
    el('label', {}, s.key.replace('experiment.', ''), ' ',
       field(s.key, s.default, s.key === 'experiment.method' ? info.methods : [], get(pairs, s.key)),
       el('small', {}, s.help)));
  return el('fieldset', {className: 'settings'}, el('legend', {}, cmd === 'dice' ? 'dice' : 'experiment'),
            ...rows);
}

// Builds the form of state {cmd, pairs} into node; onRuleset(name) is
// called when another ruleset is chosen.
export function render(node, state, onRuleset) {
  fields = [];
  order = state.pairs.map(([k]) => k);
  const parts = [];
  if (state.cmd === 'dice') {
    parts.push(settings('dice', state.pairs));
  } else {
    const name = get(state.pairs, 'experiment.ruleset') ??
      (state.cmd === 'map' ? 't9a' : 'generic');
    const rs = rulesetNamed(name);
    parts.push(rulesetRow(state.cmd, name, onRuleset), settings(state.cmd, state.pairs));
    if (rs) parts.push(paramTable(rs, state.pairs, state.cmd === 'compare'));
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
  for (const {key, input} of fields) if (input.value !== '') value.set(key, input.value);
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

// Puts message beside the field of key (when the form shows one).
export function markError(key, message) {
  const f = fields.find((x) => x.key === key);
  if (!f) return false;
  f.input.classList.add('invalid');
  f.input.setAttribute('aria-invalid', 'true');
  const slot = f.input.parentElement.querySelector('.field-error') ??
    f.input.closest('p')?.querySelector('.field-error');
  if (slot) slot.textContent = message;
  return true;
}

export function clearErrors(node) {
  for (const input of node.querySelectorAll('.invalid')) {
    input.classList.remove('invalid');
    input.removeAttribute('aria-invalid');
  }
  for (const slot of node.querySelectorAll('.field-error')) slot.textContent = '';
}
