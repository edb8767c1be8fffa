// SPDX-License-Identifier: GPL-3.0-or-later
// compare's verdict in one sentence (issue 52), above the table: the C
// core's words (cmpverdict.c, the answer's "verdict"), the very sentence
// `chargesim compare` prints; the page repeats none of its reading.
// Written with textContent, as every text from the engine.

import {byId, fill} from './dom.js';

export function clear() {
  const p = byId('verdict');
  fill(p);
  p.hidden = true;
}

export function show(result) {
  const p = byId('verdict');
  fill(p, result.verdict ?? '');
  p.hidden = !result.verdict;
}
