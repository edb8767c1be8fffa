// SPDX-License-Identifier: GPL-3.0-or-later
// A computation's progress for a player: the share done, the time left
// (projected from the time so far), and, when the projection passes 30 s,
// a warning with quicker ways to the same answer. Only times and the share
// of work done are formatted here; no probability is.

import {byId, fill} from './dom.js';

export const LONG_SECONDS = 30;
let started = 0;
let warned = false;

function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function start() {
  started = performance.now();
  warned = false;
  const bar = byId('progress');
  bar.hidden = false;
  bar.removeAttribute('value');
  fill(byId('progress-text'), 'starting…');
  byId('long-run').hidden = true;
  fill(byId('long-run'));
}

export function stop() {
  byId('progress').hidden = true;
  fill(byId('progress-text'));
  byId('long-run').hidden = true;
}

// done of total units of work so far (the engine's count).
export function update(done, total) {
  const bar = byId('progress');
  bar.max = total || 1;
  bar.value = Math.min(done, bar.max);
  const share = total ? done / total : 0;
  const elapsed = (performance.now() - started) / 1000;
  if (share <= 0 || elapsed < 0.5) {
    fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done`);
    return;
  }
  const projected = elapsed / share;
  const left = Math.max(0, projected - elapsed);
  fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done, about ${duration(left)} left`);
  if (projected > LONG_SECONDS && !warned) {
    warned = true;
    const note = byId('long-run');
    fill(note, `This will take about ${duration(projected)} in all. For a quicker answer, ` +
      'Cancel and ask for fewer trials (experiment.trials, e.g. 10000), or for an ' +
      'interval width instead (experiment.precision, e.g. 0.01: it stops when every interval ' +
      'is that narrow).');
    note.hidden = false;
  }
}
