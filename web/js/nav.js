// SPDX-License-Identifier: GPL-3.0-or-later
// The tab bar as the ARIA tabs pattern: one button per tab (tabs.js),
// arrow keys, Home and End move between them, Enter or Space (a button's
// click) selects; the selected one alone is in the Tab order.

import {el, fill} from './dom.js';
import {TABS} from './tabs.js';

let onSelect = null;

function buttons(bar) {
  return [...bar.querySelectorAll('[role=tab]')];
}

function key(event) {
  const all = buttons(event.currentTarget.parentElement);
  const at = all.indexOf(event.currentTarget);
  const to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1}[event.key];
  if (to === undefined) return;
  event.preventDefault();
  const next = all[(to + all.length) % all.length];
  next.focus();
  next.click();
}

// Builds the bar; select(id) is called when a tab is chosen.
export function build(bar, select) {
  onSelect = select;
  fill(bar, ...TABS.map((t) => el('button', {
    type: 'button', role: 'tab', id: `tab-${t.id}`, dataset: {cmd: t.id},
    onclick: () => onSelect(t.id), onkeydown: key,
  }, t.label)));
}

// Marks tab id as the selected one.
export function show(bar, id) {
  for (const b of buttons(bar)) {
    const on = b.dataset.cmd === id;
    b.setAttribute('aria-selected', on ? 'true' : 'false');
    if (on) b.setAttribute('aria-controls', 'tab-panel');
    else b.removeAttribute('aria-controls');
    if (on) document.getElementById('tab-panel')?.setAttribute('aria-labelledby', b.id);
    b.tabIndex = on ? 0 : -1;
    b.classList.toggle('current', on);
  }
}
