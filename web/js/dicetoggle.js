// SPDX-License-Identifier: GPL-3.0-or-later
// The dice chart's choice (issue 52): the chance of "at least k" (the
// default: a charge needs at least its distance) or of "exactly k". Both
// are columns of the core's table (p_at_least, p); plots.js draws the one
// chosen. choice.dice keeps it; redraw() draws again.

import {el} from './dom.js';

export function toggle(choice, redraw) {
  const pick = (value, text) => {
    const input = el('input', {type: 'radio', name: 'dice-chart', value, id: `dice-chart-${value.replace(' ', '-')}`,
                               checked: (choice.dice ?? 'at least') === value});
    input.addEventListener('change', () => {
      choice.dice = value;
      redraw();
    });
    return el('label', {htmlFor: input.id}, input, ` ${text} `);
  };
  return el('span', {role: 'radiogroup', 'ariaLabel': 'Chart shows'}, 'Chart: ',
            pick('at least', 'at least k'), pick('exactly', 'exactly k'));
}
