// SPDX-License-Identifier: GPL-3.0-or-later
// A computation's progress for a player: the share done and the time left,
// from the model of the whole run (estimate.js). A run that would pass
// 30 s is stopped after its pilot, before the player has waited for it:
// the page asks (ask()) with the projected time and quicker ways to the
// same answer, each with its own time, and runs it only if the player says
// so. The question shows in the sticky Run bar (#long-run, seen from
// anywhere on the page) and at the top of the results (#long-run-top), and
// takes the focus (issue 52: at the bottom of a long form it went unseen).
// Only times and the share of work done are formatted here; no probability
// is.

import {byId, el, fill} from './dom.js';
import * as estimate from './estimate.js';

export const LONG_SECONDS = 30;
let model = estimate.create();
let onLong = null;

// A run starts. long(projectedSeconds), when given, is called once if the
// run's projection passes LONG_SECONDS (the caller stops the run and asks);
// without it (the player said to go on) the run only reports.
export function start(long) {
  model = estimate.create();
  onLong = long ?? null;
  const bar = byId('progress');
  bar.hidden = false;
  bar.removeAttribute('value');
  fill(byId('progress-text'), 'starting…');
  clearAsk();
}

export function stop() {
  byId('progress').hidden = true;
  fill(byId('progress-text'));
}

// A run the player stopped: said plainly where the progress was, not as an
// error (it is not one).
export function cancelled() {
  stop();
  fill(byId('progress-text'), 'Cancelled: the run was stopped before it finished; nothing to show.');
}

// done of total units of work so far (the engine's count).
export function update(done, total) {
  const bar = byId('progress');
  bar.max = total || 1;
  bar.value = Math.min(done, bar.max);
  estimate.report(model, done, total);
  const share = total ? done / total : 0;
  if (!estimate.ready(model)) {
    fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done`);
    return;
  }
  const left = estimate.left(model);
  fill(byId('progress-text'), `${(100 * share).toFixed(0)}% done, about ${estimate.duration(left)} left`);
  const whole = estimate.whole(model);
  byId('progress').dataset.projected = whole.toFixed(2);
  if (whole > LONG_SECONDS && onLong) {
    const long = onLong;
    onLong = null;
    long(whole);
  }
}

// A figure of one significant digit at most a tenth of n (100000 -> 10000).
function tenth(n) {
  const t = n / 10;
  const p = 10 ** Math.floor(Math.log10(t));
  return Math.max(1, Math.floor(t / p) * p);
}

// What makes the run quicker, in its own fields, each with its time.
// run: {cmd, trials, precision} (trials the one in force, precision 0 when
// not set).
function quicker(run) {
  if (run.cmd === 'units') return 'ask for fewer distances (Distances, e.g. 6..14).';
  const key = run.cmd === 'dice' ? 'trials' : 'experiment.trials';
  if (run.precision > 0) {
    // The trials a precision needs go as the inverse square of the width.
    const wider = Number((run.precision * 2).toPrecision(2));
    return `ask for a wider interval (with experiment.precision ${wider}: about ` +
      `${estimate.duration(estimate.scaled(model, 0.25))}).`;
  }
  const fewer = run.trials ? tenth(run.trials) : 0;
  const timed = fewer ? ` (with ${key} ${fewer}: about ` +
    `${estimate.duration(estimate.scaled(model, fewer / run.trials))})` : '';
  if (run.cmd === 'dice') return `ask for fewer rolls${timed}.`;
  return `ask for fewer trials${timed}, or for an interval width instead ` +
    '(experiment.precision, e.g. 0.01: it stops when every interval is that narrow).';
}

// The question, with its button (go()), as one node of the bar or the
// results' top.
function question(run, projected, go, id) {
  return [
    el('strong', {}, 'A long run. '),
    `This would take about ${estimate.duration(projected)} in all, so it was stopped once ` +
      `its speed was measured. For a quicker answer, ${quicker(run)} `,
    el('button', {type: 'button', id, className: 'long-go', onclick: go}, 'Run it anyway'),
  ];
}

// The question after a stopped long run, in the sticky bar and at the top
// of the results; the focus goes to its button. Nothing is shown of the
// stopped run.
export function ask(run, projected, go) {
  const bar = byId('long-run');
  fill(bar, ...question(run, projected, go, 'long-go'));
  bar.hidden = false;
  const top = byId('long-run-top');
  if (top) {
    fill(top, ...question(run, projected, go, ''));
    top.hidden = false;
  }
  byId('long-go').focus();
}

export function clearAsk() {
  for (const id of ['long-run', 'long-run-top']) {
    const node = byId(id);
    if (!node) continue;
    node.hidden = true;
    fill(node);
  }
}
