// SPDX-License-Identifier: GPL-3.0-or-later
// The page's state lives in the URL fragment (issue 31):
//   #cmd=run|map|compare|dice&KEY=VALUE&...
// each KEY=VALUE a --set override as the command line takes it
// (experiment.KEY for [experiment]), compare's --b overrides as
// b.KEY=VALUE, a map's axes as x=LO..HI:STEP and y=LO..HI:STEP, a dice
// expression as expr=2d6 (with trials=N and seed=S to sample), the success
// set as success=a,b; cols=a,b the table's columns shown (the page's own
// choice, web/js/columns.js: never a pair for the engine). Keys and values
// are URL-encoded. The pairs keep
// their order: the first swept key is the outermost, as on the command line.

export const COMMANDS = ['run', 'map', 'compare', 'dice'];

// {cmd, pairs: [[key, value-or-null], ...]} from a fragment ("#..." or "").
// A piece without '=' keeps a null value (the engine refuses it as --set
// refuses "KEY"). Throws an Error naming the piece when its encoding is
// broken.
export function parse(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  let cmd = 'run';
  const pairs = [];
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    let key, value;
    try {
      key = decodeURIComponent(eq < 0 ? piece : piece.slice(0, eq));
      value = eq < 0 ? null : decodeURIComponent(piece.slice(eq + 1));
    } catch (e) {
      throw new Error(`the link's piece '${piece}' is not valid URL encoding`);
    }
    if (key === 'cmd') cmd = value ?? '';
    else if (key !== 'cols') pairs.push([key, value]);
  }
  return {cmd, pairs};
}

// The fragment of a state: "#cmd=...&key=value...".
export function format({cmd, pairs}) {
  const pieces = [`cmd=${encodeURIComponent(cmd)}`];
  for (const [key, value] of pairs) {
    pieces.push(value === null ? encodeURIComponent(key)
                               : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  return '#' + pieces.join('&');
}

// The value of the last pair with key, or undefined.
export function get(pairs, key) {
  let found;
  for (const [k, v] of pairs) if (k === key) found = v;
  return found;
}
