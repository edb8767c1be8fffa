// SPDX-License-Identifier: GPL-3.0-or-later
// A computation's progress for a player: the share done and the time left
// (projected from the time so far). A run that would pass 30 s is stopped
// after its first half-second of measurement, before the player has waited
// for it: the page asks (ask()) with the projected time and quicker ways to
// the same answer, and runs it only if the player says so. Only times and
// the share of work done are formatted here; no probability is.

import {byId, el, fill} from './dom.js';

export const LONG_SECONDS = 30;
// The run's first stretch, measured before a projection is trusted.
const PILOT_SECONDS = 0.5;
let started = 0;
let onLong = null;

function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

// A run starts. long(projectedSeconds), when given, is called once if the
// run's projection passes LONG_SECONDS (the caller stops the run and asks);
// without it (the player said to go on) the run only reports.
export function start(long) {
  started = performance.now();
  onLong = long ?? null;
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
}

// done of total units of work so far (the engine's count).
export function update(done, total) {
  const bar = byId('progress');
  bar.max = total || 1;
  bar.value = Math.min(done, bar.max);
  const share = total ? done / total : 0;
  const elapsed = (performance.now() - started) / 1000;
  if (share <= 0 || elapsed < PILOT_SECONDS) {
    fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done`);
    return;
  }
  const projected = elapsed / share;
  const left = Math.max(0, projected - elapsed);
  fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done, about ${duration(left)} left`);
  if (projected > LONG_SECONDS && onLong) {
    const long = onLong;
    onLong = null;
    long(projected);
  }
}

// What makes cmd quicker, in its own fields.
function quicker(cmd) {
  if (cmd === 'dice') return 'ask for fewer rolls (trials, e.g. 100000).';
  if (cmd === 'units') return 'ask for fewer distances (Distances, e.g. 6..14).';
  return 'ask for fewer trials (experiment.trials, e.g. 10000), or for an interval width ' +
    'instead (experiment.precision, e.g. 0.01: it stops when every interval is that narrow).';
}

// The question after a stopped long run: its projected time, what is
// quicker, and a button that runs it anyway (go()). Nothing is shown of
// the stopped run.
export function ask(cmd, projected, go) {
  const note = byId('long-run');
  fill(note, `This would take about ${duration(projected)} in all, so it was stopped after ` +
       `its first ${PILOT_SECONDS} s. For a quicker answer, ${quicker(cmd)} `,
       el('button', {type: 'button', id: 'long-go', onclick: go}, 'Run it anyway'));
  note.hidden = false;
}

export function clearAsk() {
  byId('long-run').hidden = true;
  fill(byId('long-run'));
}
