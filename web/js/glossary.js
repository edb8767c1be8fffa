// SPDX-License-Identifier: GPL-3.0-or-later
// "Words used here" (issue 52): the words of the page a player may not
// know (sweep point, rqmc, seed, preset, Roll20 notation, mapping, ...),
// each in the core's one line (include/chargesim/glossary.h), as a list
// that opens under the form, on a phone as on a desktop.

import {el} from './dom.js';

// Puts the list after node (once): entries [{term, words}] from the engine.
export function show(node, entries) {
  if (!entries?.length || document.getElementById('glossary')) return;
  node.after(el('details', {id: 'glossary', className: 'glossary'},
    el('summary', {}, 'Words used here'),
    el('dl', {}, ...entries.flatMap((e) => [el('dt', {}, e.term), el('dd', {}, e.words)]))));
}
