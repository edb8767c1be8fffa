// SPDX-License-Identifier: GPL-3.0-or-later
// Which columns of a result make which chart (chart.js): the numbers are
// the table's, as the CSV writes them; only the axis scale is the page's.
//   run      p_success with its interval against the x axis the player
//            picks (by default the last numeric swept key), one curve per value
//            of the other swept keys (the grouping), and every outcome's
//            share of the first curve, thin and dashed; with no swept key,
//            p_success as a bar beside the outcomes' shares (which add up
//            to 100% on their own, so they are never stacked onto it)
//   compare  delta (B - A) with its paired interval, as a proportion like
//            the table's (the note says so)
//   dice     p_at_least (or, as the player picks, p) of each total, as
//            bars, with the interval of sampled ones
// An x axis whose values are not all numbers is categorical: points with
// error bars, never lines joining them.

import {column} from './results.js';

const pct = (xs) => xs.map((v) => 100 * v);

// The swept keys, in column order, as the core marks them (the table's
// "swept": cs_table.swept, set where a parameter gets a column).
export function sweptKeys(result) {
  return result.swept ?? [];
}

// The rows as curves over key x, one per value of the other swept keys:
// {xs, groups: [{label, at: Map(x text -> row)}]}.
function arrange(result, keys, x) {
  const xc = result.header.indexOf(x);
  const others = keys.filter((k) => k !== x).map((k) => result.header.indexOf(k));
  const xs = [];
  const map = new Map();
  result.rows.forEach((row, i) => {
    if (!xs.includes(row[xc])) xs.push(row[xc]);
    const label = others.map((c) => `${result.header[c]}=${row[c]}`).join(', ');
    if (!map.has(label)) map.set(label, new Map());
    map.get(label).set(row[xc], i);
  });
  return {xs, groups: [...map].map(([label, at]) => ({label, at}))};
}

function numeric(xs) {
  return xs.every((v) => v !== '' && Number.isFinite(Number(v)));
}

// The x axis unless the player picks another: the last swept key with
// numbers for values (a curve over distance reads better than points over
// true and false), else the last swept key.
export function defaultX(result, keys) {
  const nums = keys.filter((k) => {
    const c = result.header.indexOf(k);
    return numeric(result.rows.map((r) => r[c]));
  });
  return nums.length ? nums[nums.length - 1] : keys[keys.length - 1];
}

function pick(result, name, scale, g, xs) {
  if (!name) return null;
  const col = scale(column(result, name));
  return xs.map((x) => (g.at.has(x) ? col[g.at.get(x)] : NaN));
}

function curves(result, keys, x, cols, scale, shares) {
  const {xs, groups} = arrange(result, keys, x);
  const series = groups.slice(0, 10).map((g) => ({
    label: g.label ? `${cols.y}, ${g.label}` : cols.y, ys: pick(result, cols.y, scale, g, xs),
    lo: pick(result, cols.lo, scale, g, xs), hi: pick(result, cols.hi, scale, g, xs),
  }));
  for (const s of shares) {
    series.push({label: groups.length === 1 ? `${s.name} (share)` : `${s.name} (share), ${groups[0].label}`,
                 ys: pick(result, s.column, scale, groups[0], xs), share: true, title: s.help});
  }
  return {xs, series, xLabel: x, numeric: numeric(xs)};
}

function shareList(result, help) {
  return result.header.filter((h) => h.startsWith('p_') && h !== 'p_success')
    .map((h) => ({column: h, name: h.slice(2), help: help(h.slice(2))}));
}

function onePoint(result, help) {
  const row = result.rows[0];
  const val = (h) => Number(row[result.header.indexOf(h)]);
  const shares = shareList(result, help);
  const xs = ['p_success', ...shares.map((s) => s.name)];
  const only = (i, v) => xs.map((_, k) => (k === i ? v : NaN));
  const series = [{label: 'p_success', ys: only(0, 100 * val('p_success')),
                   lo: only(0, 100 * val('ci_low')), hi: only(0, 100 * val('ci_high'))}];
  shares.forEach((s, i) => series.push({label: `${s.name} (share)`, ys: only(i + 1, 100 * val(s.column)),
                                        share: true, title: s.help}));
  return {xLabel: 'p_success, then each outcome\'s share (the shares add up to 100%)',
          yLabel: 'percent', bars: true, perSlot: true, yMin: 0, yMax: 100, xs, series};
}

function runSpec(result, choice, help) {
  const keys = sweptKeys(result);
  if (keys.length === 0) return onePoint(result, help);
  const x = keys.includes(choice.x) ? choice.x : defaultX(result, keys);
  const c = curves(result, keys, x, {y: 'p_success', lo: 'ci_low', hi: 'ci_high'}, pct,
                   shareList(result, help));
  return {...c, yLabel: 'p_success and shares (%)', yMin: 0, yMax: 100};
}

function compareSpec(result, choice) {
  const keys = sweptKeys(result);
  const same = (xs) => xs;
  if (keys.length === 0) {
    // One point: the axis spans delta, its interval and 0 with a margin
    // (issue 52: on a fixed -1..1 a difference of a few points was a flat dot).
    const ys = column(result, 'delta'), lo = column(result, 'delta_lo'), hi = column(result, 'delta_hi');
    const vals = [0, ...ys, ...lo, ...hi].filter(Number.isFinite);
    const low = Math.min(...vals), high = Math.max(...vals);
    const pad = Math.max(high - low, 0.01) * 0.15;
    return {xLabel: '', yLabel: 'delta = B - A (proportion)', xs: ['B - A'], numeric: false,
            yMin: Math.max(-1, low - pad), yMax: Math.min(1, high + pad),
            series: [{label: 'delta', ys, lo, hi}]};
  }
  const x = keys.includes(choice.x) ? choice.x : defaultX(result, keys);
  const c = curves(result, keys, x, {y: 'delta', lo: 'delta_lo', hi: 'delta_hi'}, same, []);
  const all = c.series.flatMap((s) => [...s.lo, ...s.hi, ...s.ys]).filter(Number.isFinite);
  const m = Math.min(1, Math.max(0.01, ...all.map(Math.abs)) * 1.1);
  return {...c, yLabel: 'delta = B - A (proportion)', yMin: -m, yMax: m};
}

// choice.dice: 'exactly' (p of each total) or, the default since a charge
// needs at least its distance, 'at least' (p_at_least: the core sums the
// distribution, exactly where the dice are exact; the page draws it).
function diceSpec(result, choice) {
  const least = choice.dice !== 'exactly' && result.header.includes('p_at_least');
  const [y, l, h] = least ? ['p_at_least', 'ci_low_at_least', 'ci_high_at_least']
    : ['p', 'ci_low', 'ci_high'];
  const p = pct(column(result, y));
  const lo = column(result, l), hi = column(result, h);
  const top = Math.max(...p, ...(hi ? pct(hi) : []));
  const what = least ? 'P(total \u2265 k)' : 'P(total = k)';
  return {xLabel: 'total k', yLabel: `${what} (%)`, bars: true, yMin: 0, yMax: top * 1.1 || 1,
          xs: result.rows.map((r) => r[0]),
          series: [{label: lo ? `${y}, with its interval` : y, title: what, ys: p,
                    lo: lo && pct(lo), hi: hi && pct(hi)}]};
}

// The chart of a result of command cmd, or null (a map has its own view).
// choice.x: the x axis the player picked; help(outcome): its meaning.
export function specFor(cmd, result, choice = {}, help = () => '') {
  if (result.rows.length === 0) return null;
  // A pivot (--pivot) is a table of one column's values, rows by columns:
  // no p_success or delta column to draw, so no chart.
  if (cmd === 'run') return result.header.includes('p_success') ? runSpec(result, choice, help) : null;
  if (cmd === 'compare') return result.header.includes('delta') ? compareSpec(result, choice) : null;
  if (cmd === 'dice') return diceSpec(result, choice);
  return null;
}
