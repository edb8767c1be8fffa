// SPDX-License-Identifier: GPL-3.0-or-later
// What the settings allow of the method (issue 52: rqmc took 6 s on a fixed
// layout where exact takes 0.01 s), from the engine's own facts (web.c:
// exact_available, the core's check; rqmc_trials, the trials rqmc rounds up
// to): said where the method is chosen, before a run as the player edits
// the form (watch: the engine checks the form's settings without running
// them, cs_web_check) and after one, with the result's notice.

import {byId, el} from './dom.js';

// method: the one asked (a check's answer: auto resolved in resolved) or
// the one that ran (a result's).
function facts(result) {
  const says = [];
  const runs = result.resolved ?? result.method;
  if (result.exact_available && runs && runs !== 'exact') {
    says.push('exact is available for these settings (experiment.method exact): ' +
              'it is faster and has no error.');
  }
  if (result.rqmc_trials && result.trials && result.rqmc_trials !== result.trials) {
    says.push(`rqmc rounds ${result.trials} trials up to ${result.rqmc_trials} ` +
              '(a power of two per replicate).');
  }
  return says;
}

// Says the facts beside the method field (#method-facts, text only); none:
// nothing there.
function beside(says) {
  const input = document.querySelector('input[data-key="experiment.method"]');
  const row = input?.closest('.setting');
  row?.querySelector('.method-facts')?.remove();
  if (!says.length || !row) return;
  row.append(el('p', {className: 'method-facts hint', id: 'method-facts'}, says.join(' ')));
}

// Shows the facts of result beside the method field and in #notice.
export function show(result) {
  const says = facts(result);
  beside(says);
  if (!says.length) return;
  const notice = byId('notice');
  notice.append(notice.textContent ? ' ' : '', says.join(' '));
}

const CHECKED = new Set(['run', 'map', 'compare']);
const WAIT_MS = 300;

// Before a run: ~300 ms after the last edit of form, the settings read
// (read(): {cmd, pairs}) are checked by the engine (check(cmd, pairs): its
// answer, or null when a run holds it) and their facts shown beside the
// method field; a refusal says nothing there (the run shows it). An answer
// older than the last edit is dropped.
export function watch(form, read, check) {
  let timer = null;
  let asked = 0;
  const ask = async () => {
    const mine = ++asked;
    const {cmd, pairs} = read();
    if (!CHECKED.has(cmd)) return;
    let answer = null;
    try {
      answer = await check(cmd, pairs);
    } catch {
      return; // the run's refusal or failure says it, not the field
    }
    if (!answer || mine !== asked) return;
    beside(answer.ok ? facts(answer) : []);
  };
  const edited = () => {
    clearTimeout(timer);
    asked++;
    timer = setTimeout(ask, WAIT_MS);
  };
  form.addEventListener('input', edited);
  form.addEventListener('change', edited);
}
