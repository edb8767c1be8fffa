// SPDX-License-Identifier: GPL-3.0-or-later
// What a long run's question needs to know of the run (progress.js): the
// trials and the precision in force, from the link or else the engine's
// defaults (form.js), never the page's own.

import * as link from './link.js';
import * as form from './form.js';

// A number from the link's value of key, or the engine's default; 0 when
// neither is a plain number (a sweep, a draw).
function number(state, key) {
  const v = link.get(state.pairs, key) ?? form.settingDefault(state.cmd, key) ?? '';
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

// {cmd, trials, precision} of state (precision 0: not set).
export function settings(state) {
  const trials = state.cmd === 'dice' ? 'trials' : 'experiment.trials';
  return {cmd: state.cmd, trials: number(state, trials), precision: number(state, 'experiment.precision')};
}
