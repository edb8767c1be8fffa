// A chart on a canvas: curves over x with their intervals as bands, or
// bars. It draws what it is given; which columns make which curve is
// plots.js's business.
//   spec = {xLabel, yLabel, xs: [text...], numeric: bool, bars: bool,
//           yMin, yMax, series: [{label, ys, lo, hi, dashed}]}
// ys, lo and hi are numbers (NaN: no value), indexed like xs.

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2',
                 '#7f7f7f', '#bcbd22', '#17becf'];
const MARGIN = {left: 60, right: 170, top: 14, bottom: 46};

function ticks(lo, hi, n) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

function frame(ctx, spec, w, h, sx, sy) {
  ctx.strokeStyle = '#999';
  ctx.fillStyle = '#333';
  ctx.lineWidth = 1;
  ctx.font = '12px system-ui, sans-serif';
  ctx.beginPath();
  ctx.moveTo(MARGIN.left, MARGIN.top);
  ctx.lineTo(MARGIN.left, h - MARGIN.bottom);
  ctx.lineTo(w - MARGIN.right, h - MARGIN.bottom);
  ctx.stroke();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of ticks(spec.yMin, spec.yMax, 5)) {
    ctx.fillText(String(v), MARGIN.left - 6, sy(v));
    ctx.strokeStyle = '#eee';
    ctx.beginPath();
    ctx.moveTo(MARGIN.left + 1, sy(v));
    ctx.lineTo(w - MARGIN.right, sy(v));
    ctx.stroke();
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const every = Math.max(1, Math.ceil(spec.xs.length / 16));
  spec.xs.forEach((x, i) => {
    if (i % every === 0) ctx.fillText(x, sx(i), h - MARGIN.bottom + 6);
  });
  ctx.fillText(spec.xLabel, MARGIN.left + (w - MARGIN.left - MARGIN.right) / 2, h - 18);
  ctx.save();
  ctx.translate(14, MARGIN.top + (h - MARGIN.top - MARGIN.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(spec.yLabel, 0, -6);
  ctx.restore();
}

function band(ctx, s, sx, sy, colour) {
  const idx = s.ys.map((_, i) => i).filter((i) => Number.isFinite(s.lo?.[i]) && Number.isFinite(s.hi?.[i]));
  if (idx.length === 0) return;
  ctx.fillStyle = colour + '33';
  ctx.beginPath();
  idx.forEach((i, k) => (k ? ctx.lineTo(sx(i), sy(s.hi[i])) : ctx.moveTo(sx(i), sy(s.hi[i]))));
  for (const i of idx.slice().reverse()) ctx.lineTo(sx(i), sy(s.lo[i]));
  ctx.closePath();
  ctx.fill();
}

function curve(ctx, s, sx, sy, colour) {
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2;
  ctx.setLineDash(s.dashed ? [5, 4] : []);
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
  ctx.setLineDash([]);
  s.ys.forEach((y, i) => {
    if (Number.isFinite(y) && s.ys.length <= 60) ctx.fillRect(sx(i) - 2, sy(y) - 2, 4, 4);
  });
}

function bars(ctx, spec, sx, sy, width) {
  spec.series.forEach((s, k) => {
    ctx.fillStyle = COLOURS[k % COLOURS.length];
    const bw = width / spec.series.length;
    s.ys.forEach((y, i) => {
      if (!Number.isFinite(y)) return;
      const x = sx(i) - width / 2 + k * bw;
      ctx.fillRect(x, sy(Math.max(y, 0)), bw - 1, Math.abs(sy(y) - sy(0)));
    });
  });
}

function legend(ctx, spec, w) {
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  spec.series.slice(0, 20).forEach((s, k) => {
    const y = MARGIN.top + 8 + k * 18;
    ctx.fillStyle = ctx.strokeStyle = COLOURS[k % COLOURS.length];
    if (s.dashed) {
      ctx.lineWidth = 2;
      ctx.setLineDash([5, 4]);
      ctx.beginPath();
      ctx.moveTo(w - MARGIN.right + 10, y);
      ctx.lineTo(w - MARGIN.right + 28, y);
      ctx.stroke();
      ctx.setLineDash([]);
    } else {
      ctx.fillRect(w - MARGIN.right + 12, y - 5, 14, 10);
    }
    ctx.fillStyle = '#333';
    ctx.fillText(s.label, w - MARGIN.right + 32, y);
  });
}

export function draw(canvas, spec) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 800;
  const h = canvas.clientHeight || 360;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const n = spec.xs.length;
  const plotW = w - MARGIN.left - MARGIN.right;
  const slot = plotW / Math.max(n, 1);
  const sx = spec.bars || n < 2 ? (i) => MARGIN.left + slot * (i + 0.5)
                                : (i) => MARGIN.left + (plotW * i) / (n - 1);
  const sy = (v) => MARGIN.top + (h - MARGIN.top - MARGIN.bottom) *
    (1 - (v - spec.yMin) / (spec.yMax - spec.yMin || 1));
  frame(ctx, spec, w, h, sx, sy);
  if (spec.bars) bars(ctx, spec, sx, sy, slot * 0.8);
  else {
    spec.series.forEach((s, k) => band(ctx, s, sx, sy, COLOURS[k % COLOURS.length]));
    spec.series.forEach((s, k) => curve(ctx, s, sx, sy, COLOURS[k % COLOURS.length]));
  }
  legend(ctx, spec, w);
}
