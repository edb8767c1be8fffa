// Which columns of a result make which chart (chart.js): the numbers are
// the table's, as the CSV writes them; only the axis scale (percent) is
// the page's.
//   run      p_success with its interval against the last swept key, one
//            curve per value of the other swept keys, and every outcome's
//            share (dashed) of the first; with no swept key, the shares as bars
//   compare  delta (B - A) with its paired interval, in percentage points
//   dice     p of each total, as bars

import {column} from './results.js';

const pct = (xs) => xs.map((v) => 100 * v);

// The swept keys: the columns before `trials` that are not [labels].
function sweptKeys(result) {
  const end = result.header.indexOf('trials');
  return result.header.slice(0, Math.max(end, 0)).filter((h) => !h.endsWith('_label'));
}

// Rows grouped by the values of every swept key but the last: [{label, rows}].
function groups(result, keys) {
  const others = keys.slice(0, -1).map((k) => result.header.indexOf(k));
  const map = new Map();
  result.rows.forEach((row, i) => {
    const label = others.map((c) => `${result.header[c]}=${row[c]}`).join(', ');
    if (!map.has(label)) map.set(label, []);
    map.get(label).push(i);
  });
  return [...map].map(([label, rows]) => ({label, rows}));
}

function curves(result, keys, y, lo, hi, scale, extra) {
  const last = result.header.indexOf(keys[keys.length - 1]);
  const gs = groups(result, keys);
  const xs = gs[0].rows.map((i) => result.rows[i][last]);
  const pick = (name, g) => (name ? scale(column(result, name)).filter((_, i) => g.rows.includes(i)) : null);
  const series = gs.slice(0, 10).map((g) => ({
    label: g.label || y, ys: pick(y, g), lo: pick(lo, g), hi: pick(hi, g),
  }));
  // Every outcome's share, dashed: of the one curve, or of the first group.
  for (const name of extra) {
    series.push({label: gs.length === 1 ? name : `${name}, ${gs[0].label}`, ys: pick(name, gs[0]),
                 dashed: true});
  }
  return {xs, series, xLabel: keys[keys.length - 1]};
}

function runSpec(result) {
  const keys = sweptKeys(result);
  const outcomes = result.header.filter((h) => h.startsWith('p_') && h !== 'p_success');
  if (keys.length === 0) {
    const row = result.rows[0];
    return {xLabel: 'outcome', yLabel: 'share (%)', bars: true, yMin: 0, yMax: 100,
            xs: ['p_success', ...outcomes],
            series: [{label: 'share', ys: ['p_success', ...outcomes].map((h) => 100 * Number(row[result.header.indexOf(h)]))}]};
  }
  const c = curves(result, keys, 'p_success', 'ci_low', 'ci_high', pct, outcomes);
  return {...c, yLabel: 'p_success and shares (%)', yMin: 0, yMax: 100};
}

function compareSpec(result) {
  const keys = sweptKeys(result);
  if (keys.length === 0) {
    return {xLabel: '', yLabel: 'delta (pp)', xs: ['B - A'], yMin: -100, yMax: 100,
            series: [{label: 'delta', ys: pct(column(result, 'delta')),
                      lo: pct(column(result, 'delta_lo')), hi: pct(column(result, 'delta_hi'))}]};
  }
  const c = curves(result, keys, 'delta', 'delta_lo', 'delta_hi', pct, []);
  const all = c.series.flatMap((s) => [...s.lo, ...s.hi]).filter(Number.isFinite);
  const m = Math.max(1, ...all.map(Math.abs));
  return {...c, yLabel: 'delta = B - A (percentage points)', yMin: -m, yMax: m};
}

function diceSpec(result) {
  const p = pct(column(result, 'p'));
  return {xLabel: 'total', yLabel: 'p (%)', bars: true, yMin: 0, yMax: Math.max(...p) * 1.1 || 1,
          xs: result.rows.map((r) => r[0]), series: [{label: 'p', ys: p}]};
}

// The chart of a result of command cmd, or null (a map has its own view).
export function specFor(cmd, result) {
  if (result.rows.length === 0) return null;
  if (cmd === 'run') return runSpec(result);
  if (cmd === 'compare') return compareSpec(result);
  if (cmd === 'dice') return diceSpec(result);
  return null;
}
