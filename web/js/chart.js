// SPDX-License-Identifier: GPL-3.0-or-later
// A chart on a canvas: curves over x with their intervals as bands, points
// with error bars over a categorical x, or bars (with error bars where the
// result has an interval). It draws what it is given; which columns make
// which series is plots.js's business. The legend is the page's list
// (#chart-legend, legend.js): it wraps instead of being cut, and names
// every series in words, so colour is never the only carrier.
//   spec = {xLabel, yLabel, xs: [text...], numeric: bool, bars: bool,
//           yMin, yMax, series: [{label, ys, lo, hi, share, title}]}
// ys, lo and hi are numbers (NaN: no value), indexed like xs; share marks
// an outcome's share (drawn thin and dashed over the wide p_success line,
// so a share equal to p_success never hides it).

// Okabe and Ito's colour-blind-safe palette (yellow left out: too pale on
// white), and dash patterns; no two series get the same pair.
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const DASHES = [[], [7, 4], [2, 3], [9, 3, 2, 3]];

// {colour, dash} of each series: the first pair not taken, solid first for
// p_success curves, dashed first for shares.
export function styles(series) {
  const used = new Set();
  const curves = series.filter((s) => !s.share).length;
  return series.map((s) => {
    const dashOrder = s.share ? [1, 2, 3, 0] : [0, 1, 2, 3];
    // Shares take the colours after the curves', so that they read apart.
    const first = s.share ? curves : 0;
    for (const d of dashOrder) {
      for (let i = 0; i < COLOURS.length; i++) {
        const c = (first + i) % COLOURS.length;
        const key = `${c}/${d}`;
        if (!used.has(key)) {
          used.add(key);
          return {colour: COLOURS[c], dash: DASHES[d]};
        }
      }
    }
    return {colour: '#777', dash: [1, 1]};
  });
}

function ticks(lo, hi, n) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

function frame(ctx, spec, box, sx, sy) {
  ctx.strokeStyle = '#999';
  ctx.fillStyle = '#333';
  ctx.lineWidth = 1;
  ctx.font = '12px system-ui, sans-serif';
  ctx.beginPath();
  ctx.moveTo(box.left, box.top);
  ctx.lineTo(box.left, box.bottom);
  ctx.lineTo(box.right, box.bottom);
  ctx.stroke();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of ticks(spec.yMin, spec.yMax, 5)) {
    ctx.fillText(String(v), box.left - 6, sy(v));
    ctx.strokeStyle = '#eee';
    ctx.beginPath();
    ctx.moveTo(box.left + 1, sy(v));
    ctx.lineTo(box.right, sy(v));
    ctx.stroke();
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  // Labels that do not fit side by side take two staggered rows (every bar
  // named: issue 52), else only every so many is written.
  const {rows, every, caption} = box.under;
  const put = (text, x, y) => {
    ctx.fillText(text, x, y);
    const half = ctx.measureText(text).width / 2;
    box.written.push({text, left: Math.round(x - half), right: Math.round(x + half)});
  };
  spec.xs.forEach((x, i) => {
    if (i % every === 0) put(x, sx(i), box.bottom + 6 + (rows > 1 && i % 2 ? 14 : 0));
  });
  caption.forEach((line, k) => put(line, box.width / 2, box.bottom + 6 + 14 * rows + 4 + 14 * k));
  ctx.save();
  ctx.translate(14, (box.top + box.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(spec.yLabel, 0, -6);
  ctx.restore();
}

// Words cut into lines no wider than px (a phone's caption is never cut
// at the canvas's edges).
function wrap(ctx, text, px) {
  const lines = [];
  for (const word of text.split(' ')) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && ctx.measureText(last).width <= px) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  return lines;
}

// What goes under the x axis: how many rows of labels, which labels, the
// caption's lines; and so the room it takes.
function under(ctx, spec, w, plotW) {
  ctx.font = '12px system-ui, sans-serif';
  const slot = plotW / Math.max(spec.xs.length, 1);
  const widest = Math.max(...spec.xs.map((x) => ctx.measureText(x).width), 1) + 8;
  const rows = widest > slot && !spec.numeric && widest <= 2 * slot ? 2 : 1;
  const every = rows > 1 ? 1 : Math.max(1, Math.ceil(spec.xs.length / Math.max(1, plotW / widest)));
  const caption = spec.xLabel ? wrap(ctx, spec.xLabel, w - 8) : [];
  return {rows, every, caption, room: 6 + 14 * rows + 4 + 14 * Math.max(caption.length, 1) + 4};
}

function band(ctx, s, sx, sy, colour) {
  const idx = s.ys.map((_, i) => i).filter((i) => Number.isFinite(s.lo?.[i]) && Number.isFinite(s.hi?.[i]));
  if (idx.length === 0) return;
  ctx.fillStyle = colour + '2a';
  ctx.beginPath();
  idx.forEach((i, k) => (k ? ctx.lineTo(sx(i), sy(s.hi[i])) : ctx.moveTo(sx(i), sy(s.hi[i]))));
  for (const i of idx.slice().reverse()) ctx.lineTo(sx(i), sy(s.lo[i]));
  ctx.closePath();
  ctx.fill();
}

// The error bars the last draw() made (its canvas's data-error-bars: what
// the browser test reads of a picture).
let drawnBars = 0;
// What paint() last wrote under the axis, with its extent.
let written = [];

function errorBar(ctx, x, lo, hi, sy) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return;
  drawnBars++;
  ctx.beginPath();
  ctx.moveTo(x, sy(lo));
  ctx.lineTo(x, sy(hi));
  ctx.moveTo(x - 4, sy(lo));
  ctx.lineTo(x + 4, sy(lo));
  ctx.moveTo(x - 4, sy(hi));
  ctx.lineTo(x + 4, sy(hi));
  ctx.stroke();
}

// A numeric x joins its points; a categorical one marks each with its
// error bar, nudged aside so that series at one x stay apart.
function curve(ctx, s, k, n, spec, sx, sy, style) {
  ctx.strokeStyle = ctx.fillStyle = style.colour;
  ctx.lineWidth = s.share ? 2 : 4;
  ctx.setLineDash(style.dash);
  if (spec.numeric) {
    ctx.beginPath();
    let open = false;
    s.ys.forEach((y, i) => {
      if (!Number.isFinite(y)) {
        open = false;
        return;
      }
      if (open) ctx.lineTo(sx(i), sy(y));
      else ctx.moveTo(sx(i), sy(y));
      open = true;
    });
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const nudge = spec.numeric ? 0 : (k - (n - 1) / 2) * 6;
  ctx.lineWidth = 1.5;
  s.ys.forEach((y, i) => {
    if (!Number.isFinite(y) || (spec.numeric && s.ys.length > 60)) return;
    const x = sx(i) + nudge;
    if (!spec.numeric) errorBar(ctx, x, s.lo?.[i], s.hi?.[i], sy);
    const r = s.share ? 2.5 : 4;
    if (s.share) ctx.strokeRect(x - r, sy(y) - r, 2 * r, 2 * r);
    else {
      ctx.beginPath();
      ctx.arc(x, sy(y), r, 0, 2 * Math.PI);
      ctx.fill();
    }
  });
}

function bars(ctx, spec, sx, sy, width, st) {
  const n = spec.series.length;
  spec.series.forEach((s, k) => {
    const bw = spec.perSlot ? width : width / n;
    s.ys.forEach((y, i) => {
      if (!Number.isFinite(y)) return;
      const x = sx(i) - width / 2 + (spec.perSlot ? 0 : k * bw);
      ctx.fillStyle = st[k].colour;
      ctx.fillRect(x, sy(Math.max(y, 0)), bw - 1, Math.abs(sy(y) - sy(0)));
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1.2;
      errorBar(ctx, x + (bw - 1) / 2, s.lo?.[i], s.hi?.[i], sy);
    });
  });
}

// Paints spec on ctx, a w by h picture: the on-screen canvas's context, or
// any pen that speaks the same calls (svgpen.js: the SVG export), so one
// code path draws every copy of the chart. Returns the series' styles.
export function paint(ctx, w, h, spec) {
  const below = under(ctx, spec, w, w - 12 - 56);
  const box = {left: 56, right: w - 12, top: 12, bottom: h - Math.max(46, below.room), width: w,
               under: below, written: []};
  written = box.written;
  const n = spec.xs.length;
  const plotW = box.right - box.left;
  const slot = plotW / Math.max(n, 1);
  const joined = spec.numeric && !spec.bars && n >= 2;
  const sx = joined ? (i) => box.left + 8 + ((plotW - 16) * i) / (n - 1)
                    : (i) => box.left + slot * (i + 0.5);
  const sy = (v) => box.top + (box.bottom - box.top) *
    (1 - (v - spec.yMin) / (spec.yMax - spec.yMin || 1));
  const st = styles(spec.series);
  drawnBars = 0;
  frame(ctx, spec, box, sx, sy);
  if (spec.bars) bars(ctx, spec, sx, sy, Math.min(slot * 0.8, 160), st);
  else {
    if (spec.numeric) spec.series.forEach((s, k) => band(ctx, s, sx, sy, st[k].colour));
    // p_success (wide, solid) first, the shares (thin, dashed) over it.
    const order = spec.series.map((s, k) => k).sort((a, b) => Number(!!spec.series[a].share) -
                                                          Number(!!spec.series[b].share));
    for (const k of order) curve(ctx, spec.series[k], k, spec.series.length, spec, sx, sy, st[k]);
  }
  return st;
}

// Draws spec on the canvas at its size on screen; returns the series'
// styles (for the legend).
export function draw(canvas, spec) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 800;
  const h = canvas.clientHeight || 360;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const st = paint(ctx, w, h, spec);
  canvas.dataset.errorBars = String(drawnBars);
  // What was written under the axis, with its extent (the browser test
  // checks that nothing is cut at the canvas's edges).
  canvas.dataset.under = JSON.stringify(written);
  canvas.dataset.yRange = `${spec.yMin},${spec.yMax}`; // the axis drawn, for the browser test
  return st;
}

// A small picture of a series' line (or bar) for the legend.
export function swatch(style, bar) {
  const c = document.createElement('canvas');
  c.width = 30;
  c.height = 12;
  c.setAttribute('aria-hidden', 'true');
  const ctx = c.getContext('2d');
  ctx.strokeStyle = ctx.fillStyle = style.colour;
  if (bar) ctx.fillRect(8, 1, 14, 10);
  else {
    ctx.lineWidth = 3;
    ctx.setLineDash(style.dash);
    ctx.beginPath();
    ctx.moveTo(1, 6);
    ctx.lineTo(29, 6);
    ctx.stroke();
  }
  return c;
}
