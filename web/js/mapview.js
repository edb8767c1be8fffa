// SPDX-License-Identifier: GPL-3.0-or-later
// A threat map drawn to scale from the core's picture of it (result.picture,
// src/sim/tables/mapdraw.c by way of src/web/webmap.c: the display list the
// command line's picture renders too). Each cell's colour, which cells are
// hatched and why, the 50/75/90% contours as segments with their dashes,
// the colour stops, the charger, the ticks and the legend's words all come
// from it; this file only lays them out on the canvas, and reads the value
// under the pointer from the table.
import {shownNumber} from './results.js';

const WIDE = {left: 56, right: 170, top: 12, bottom: 40, legend: 'right'};
const NARROW = {left: 48, right: 10, top: 12, bottom: 250, legend: 'below'};
let PAD = WIDE;

// The table's digits as the page shows them (results.js: shownNumber, six
// decimals at most) as a percentage: the point moved two places, no further
// rounding ("0.812500" reads "81.2500%").
export function percentText(cell) {
  const s = shownNumber(cell);
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const frac = (m[3] ?? '').padEnd(2, '0');
  const whole = (m[2] + frac.slice(0, 2)).replace(/^0+(?=\d)/, '');
  const rest = frac.slice(2);
  return `${m[1]}${whole}${rest ? `.${rest}` : ''}%`;
}

function layout(w, h, pic) {
  PAD = w < 560 ? NARROW : WIDE;
  const [xmin, xmax, ymin, ymax] = pic.extent;
  const s = Math.min((w - PAD.left - PAD.right) / (xmax - xmin), (h - PAD.top - PAD.bottom) / (ymax - ymin));
  return {w, h, s, X: (x) => PAD.left + (x - xmin) * s, Y: (y) => h - PAD.bottom - (y - ymin) * s,
          xmin, xmax, ymin, ymax};
}

// Hatching lines rising to the right, `spacing` apart, over the box
// [x, y, w, h] (lines u + v = k * spacing, so they run on from box to box),
// inside clip; on the hatching's background where it has one.
function hatch(ctx, st, clip, box, alpha = 1) {
  const [x, y, w, h] = box;
  const sp = st.spacing;
  ctx.save();
  if (st.fill) {
    ctx.fillStyle = st.fill;
    ctx.fill(clip);
  }
  ctx.clip(clip);
  ctx.globalAlpha = alpha;
  ctx.strokeStyle = st.line;
  ctx.lineWidth = st.width;
  ctx.setLineDash([]);
  ctx.beginPath();
  for (let d = Math.floor((x + y) / sp) * sp; d < x + y + w + h; d += sp) {
    ctx.moveTo(d - y - h, y + h);
    ctx.lineTo(d - y, y);
  }
  ctx.stroke();
  ctx.restore();
}

function rect(x, y, w, h) {
  const r = new Path2D();
  r.rect(x, y, w, h);
  return r;
}

function cells(ctx, g, pic, L) {
  const where = (k) => {
    const i = k % g.nx, j = Math.floor(k / g.nx);
    return [L.X(g.x0 + (i - 0.5) * g.dx), L.Y(g.y0 + (j + 0.5) * g.dy), g.dx * L.s, g.dy * L.s];
  };
  const none = new Path2D();
  pic.cells.forEach((c, k) => {
    const [x, y, w, h] = where(k);
    if (c === null) {
      none.rect(x, y, w, h);
    } else {
      ctx.fillStyle = c;
      ctx.fillRect(x, y, w + 0.5, h + 0.5);
    }
  });
  hatch(ctx, pic.none, none, [L.X(L.xmin), L.Y(L.ymax), (L.xmax - L.xmin) * L.s, (L.ymax - L.ymin) * L.s]);
  for (const [k, alpha] of pic.some) {
    const box = where(k);
    hatch(ctx, pic.over, rect(...box), box, alpha);
  }
}

function contours(ctx, pic, L) {
  ctx.save();
  ctx.strokeStyle = '#000';
  ctx.lineCap = 'round';
  for (const lv of pic.levels) {
    ctx.setLineDash(lv.dash);
    ctx.lineWidth = lv.width;
    ctx.beginPath();
    const s = lv.segments;
    for (let k = 0; k + 3 < s.length; k += 4) {
      ctx.moveTo(L.X(s[k]), L.Y(s[k + 1]));
      ctx.lineTo(L.X(s[k + 2]), L.Y(s[k + 3]));
    }
    ctx.stroke();
  }
  ctx.restore();
}

function charger(ctx, c, L) {
  const x = L.X(-c.width / 2), y = L.Y(0), w = c.width * L.s, h = c.depth * L.s;
  ctx.save();
  ctx.setLineDash([]);
  ctx.fillStyle = c.fill;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = c.outline;
  ctx.lineWidth = c.outline_width;
  ctx.strokeRect(x, y, w, h);
  ctx.strokeStyle = c.front;
  ctx.lineWidth = c.front_width;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + w, y);
  ctx.stroke();
  ctx.restore();
}

function axes(ctx, pic, L) {
  const [sx, sy] = pic.ticks;
  ctx.fillStyle = '#333';
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (let x = Math.ceil(L.xmin / sx) * sx; x <= L.xmax; x += sx) ctx.fillText(`${x}`, L.X(x), L.h - PAD.bottom + 4);
  ctx.fillText('x (inches across)', L.X((L.xmin + L.xmax) / 2), L.h - PAD.bottom + 20);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let y = Math.ceil(L.ymin / sy) * sy; y <= L.ymax; y += sy) ctx.fillText(`${y}`, PAD.left - 4, L.Y(y));
  ctx.save();
  ctx.translate(14, L.Y((L.ymin + L.ymax) / 2));
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText('y (inches ahead of the charger)', 0, 0);
  ctx.restore();
}

// The colour bar: the core's stops as a gradient, 0% to 100%.
function colourBar(ctx, pic, x, top) {
  const right = PAD.legend === 'right';
  const grad = right ? ctx.createLinearGradient(0, top + 150, 0, top) : ctx.createLinearGradient(x + 24, 0, x + 204, 0);
  for (const [at, c] of pic.stops) grad.addColorStop(at, c);
  ctx.fillStyle = grad;
  if (right) ctx.fillRect(x, top, 14, 150);
  else ctx.fillRect(x + 24, top - 4, 180, 12);
  ctx.fillStyle = '#333';
  ctx.fillText('p_success', x, top - 10);
  ctx.fillText('100%', right ? x + 18 : x + 210, top + 2);
  ctx.fillText('0%', right ? x + 18 : x, right ? top + 150 : top + 2);
}

// One legend entry: its sample drawn by sample(x, y) and its words, a line each.
function entry(ctx, x, y, lines, sample) {
  sample(x, y);
  ctx.fillStyle = '#333';
  lines.forEach((line, k) => ctx.fillText(line, x + 32, y + 14 * k));
  return 18 + 14 * (lines.length - 1);
}

function legend(ctx, pic, L) {
  const x = PAD.legend === 'right' ? L.w - PAD.right + 14 : PAD.left;
  const top = PAD.legend === 'right' ? PAD.top + 16 : L.h - PAD.bottom + 44;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  colourBar(ctx, pic, x, top);
  let y = PAD.legend === 'right' ? top + 180 : top + 26;
  for (const lv of pic.levels) {
    y += entry(ctx, x, y, [lv.legend], () => {
      ctx.setLineDash(lv.dash);
      ctx.lineWidth = lv.width;
      ctx.strokeStyle = '#000';
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 26, y);
      ctx.stroke();
      ctx.setLineDash([]);
    });
  }
  const swatch = (st, alpha) => () => {
    const box = [x, y - 5, 26, 10];
    hatch(ctx, st, rect(...box), box, alpha);
  };
  y += entry(ctx, x, y, pic.none.legend, swatch(pic.none, pic.none.alpha));
  if (pic.some.length) {
    y += entry(ctx, x, y, pic.over.legend, swatch(pic.over, pic.over.alpha));
  }
  entry(ctx, x, y, [pic.charger.legend], () => {
    ctx.strokeStyle = pic.charger.front;
    ctx.lineWidth = pic.charger.front_width;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 26, y);
    ctx.stroke();
  });
}

function paintMap(ctx, result, L) {
  const pic = result.picture;
  cells(ctx, result.grid, pic, L);
  contours(ctx, pic, L);
  charger(ctx, pic.charger, L);
  axes(ctx, pic, L);
  legend(ctx, pic, L);
}

// Paints the map of result on ctx as a w by h picture (the export's print
// copy, figure.js), leaving the screen's layout as it was.
export function paint(ctx, result, w, h) {
  const screen = PAD;
  paintMap(ctx, result, layout(w, h, result.picture));
  PAD = screen;
}

// Draws result (a map's table, grid and picture) on canvas; readout(text)
// is called with the value under the pointer.
export function draw(canvas, result, readout) {
  const g = result.grid, pic = result.picture;
  const col = result.header.indexOf('p_success');
  const lo = result.header.indexOf('ci_low'), hi = result.header.indexOf('ci_high');
  const stand = result.header.indexOf('p_cannot_stand');
  const dpr = window.devicePixelRatio || 1;
  const L = layout(canvas.clientWidth || 800, canvas.clientHeight || 480, pic);
  canvas.width = Math.round(L.w * dpr);
  canvas.height = Math.round(L.h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, L.w, L.h);
  paintMap(ctx, result, L);
  canvas.onmousemove = (event) => {
    const r = canvas.getBoundingClientRect();
    const x = (event.clientX - r.left - PAD.left) / L.s + L.xmin;
    const y = (L.h - PAD.bottom - (event.clientY - r.top)) / L.s + L.ymin;
    const i = Math.round((x - g.x0) / g.dx), j = Math.round((y - g.y0) / g.dy);
    if (i < 0 || j < 0 || i >= g.nx || j >= g.ny) return readout('');
    const row = result.rows[j * g.nx + i];
    const at = `x = ${row[0]}, y = ${row[1]}: `;
    const share = stand >= 0 && Number(row[stand]) > 0 ? `; p_cannot_stand ${percentText(row[stand])}` : '';
    readout(row[col] === '' ? `${at}the target cannot stand here`
                            : `${at}p_success ${percentText(row[col])} (interval ` +
                              `${percentText(row[lo])} to ${percentText(row[hi])})${share}`);
  };
}
