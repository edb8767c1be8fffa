// SPDX-License-Identifier: GPL-3.0-or-later
// What a result's settings allow of the method (issue 52: rqmc took 6 s on
// a fixed layout where exact takes 0.01 s), from the engine's own facts in
// the result (web.c: exact_available, the core's check; rqmc_trials, the
// trials rqmc rounds up to): said where the method is chosen and in the
// result's notice.

import {byId, el} from './dom.js';

function facts(result) {
  const says = [];
  if (result.exact_available && result.method && result.method !== 'exact') {
    says.push('exact is available for these settings (experiment.method exact): ' +
              'it is faster and has no error.');
  }
  if (result.rqmc_trials && result.trials && result.rqmc_trials !== result.trials) {
    says.push(`rqmc rounds ${result.trials} trials up to ${result.rqmc_trials} ` +
              '(a power of two per replicate).');
  }
  return says;
}

// Shows the facts of result beside the method field and in #notice.
export function show(result) {
  const says = facts(result);
  const input = document.querySelector('input[data-key="experiment.method"]');
  const row = input?.closest('.setting');
  row?.querySelector('.method-facts')?.remove();
  if (!says.length) return;
  if (row) row.append(el('p', {className: 'method-facts hint', id: 'method-facts'}, says.join(' ')));
  const notice = byId('notice');
  notice.append(notice.textContent ? ' ' : '', says.join(' '));
}
