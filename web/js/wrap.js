// SPDX-License-Identifier: GPL-3.0-or-later
// Where a technical name may break across lines.

// Technical names break only after their underscores (issue 52: on the
// desktop "advance_rate" broke as "advance_ra te"): the text of name with
// a <wbr> after each "_", as DOM nodes (never HTML), for el()'s children.
export function breakable(name) {
  const parts = String(name).split(/(?<=_)/);
  return parts.flatMap((s, i) => (i ? [document.createElement('wbr'), s] : [s]));
}
