// SPDX-License-Identifier: GPL-3.0-or-later
// A threat map drawn to scale: each cell's p_success as a colour (from the
// table's cells), cells where the target cannot stand hatched grey, the
// 50/75/90% contours, the charger's footprint at the origin facing +y, and
// the value under the pointer read from the table.

const LEVELS = [[0.5, [6, 4]], [0.75, [2, 3]], [0.9, []]];
const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
const WIDE = {left: 56, right: 130, top: 12, bottom: 40, legend: 'right'};
const NARROW = {left: 48, right: 10, top: 12, bottom: 150, legend: 'below'};
let PAD = WIDE;

// The table's digits as a percentage: the point moved two places, no
// rounding ("0.812500" reads "81.2500%").
export function percentText(s) {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const frac = (m[3] ?? '').padEnd(2, '0');
  const whole = (m[2] + frac.slice(0, 2)).replace(/^0+(?=\d)/, '');
  const rest = frac.slice(2);
  return `${m[1]}${whole}${rest ? `.${rest}` : ''}%`;
}

function colour(p) {
  const t = Math.min(Math.max(p, 0), 1) * (STOPS.length - 1);
  const i = Math.min(Math.floor(t), STOPS.length - 2);
  const f = t - i;
  const c = STOPS[i].map((v, k) => Math.round(v + f * (STOPS[i + 1][k] - v)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

// Where a level crosses between two cell centres, by linear interpolation.
function cross(a, b, va, vb, level) {
  const t = (level - va) / (vb - va);
  return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
}

// Marching squares over the cell centres: segments [[x, y], [x, y]] in inches.
function contour(g, p, level) {
  const segs = [];
  const at = (i, j) => p[j * g.nx + i];
  const pos = (i, j) => [g.x0 + i * g.dx, g.y0 + j * g.dy];
  for (let j = 0; j + 1 < g.ny; j++) {
    for (let i = 0; i + 1 < g.nx; i++) {
      const corner = [[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]];
      const v = corner.map(([a, b]) => at(a, b));
      if (v.some((x) => !Number.isFinite(x))) continue;
      const pts = [];
      for (let k = 0; k < 4; k++) {
        const a = corner[k], b = corner[(k + 1) % 4];
        const va = v[k], vb = v[(k + 1) % 4];
        if ((va >= level) !== (vb >= level)) pts.push(cross(pos(...a), pos(...b), va, vb, level));
      }
      if (pts.length === 2) segs.push(pts);
      if (pts.length === 4) segs.push([pts[0], pts[1]], [pts[2], pts[3]]);
    }
  }
  return segs;
}

function layout(canvas, g) {
  const w = canvas.clientWidth || 800;
  PAD = w < 560 ? NARROW : WIDE;
  const h = canvas.clientHeight || 480;
  const xmin = g.x0 - g.dx / 2, xmax = g.x0 + (g.nx - 0.5) * g.dx;
  const ymin = Math.min(g.y0 - g.dy / 2, -g.charger_d), ymax = g.y0 + (g.ny - 0.5) * g.dy;
  const s = Math.min((w - PAD.left - PAD.right) / (xmax - xmin), (h - PAD.top - PAD.bottom) / (ymax - ymin));
  return {w, h, s, X: (x) => PAD.left + (x - xmin) * s, Y: (y) => h - PAD.bottom - (y - ymin) * s,
          xmin, xmax, ymin, ymax};
}

function cells(ctx, g, p, L) {
  for (let j = 0; j < g.ny; j++) {
    for (let i = 0; i < g.nx; i++) {
      const v = p[j * g.nx + i];
      const x = L.X(g.x0 + (i - 0.5) * g.dx), y = L.Y(g.y0 + (j + 0.5) * g.dy);
      const cw = g.dx * L.s + 0.5, ch = g.dy * L.s + 0.5;
      ctx.fillStyle = Number.isFinite(v) ? colour(v) : '#c8c8c8';
      ctx.fillRect(x, y, cw, ch);
      if (!Number.isFinite(v)) {
        ctx.strokeStyle = '#888';
        ctx.beginPath();
        ctx.moveTo(x, y + ch);
        ctx.lineTo(x + cw, y);
        ctx.stroke();
      }
    }
  }
}

function furniture(ctx, g, L) {
  ctx.strokeStyle = '#000';
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.lineWidth = 1.5;
  const cx = L.X(-g.charger_w / 2), cy = L.Y(0);
  ctx.fillRect(cx, cy, g.charger_w * L.s, g.charger_d * L.s);
  ctx.strokeRect(cx, cy, g.charger_w * L.s, g.charger_d * L.s);
  ctx.fillStyle = '#333';
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (let x = Math.ceil(L.xmin / 6) * 6; x <= L.xmax; x += 6) ctx.fillText(`${x}`, L.X(x), L.h - PAD.bottom + 4);
  ctx.fillText('x (inches across)', L.X((L.xmin + L.xmax) / 2), L.h - PAD.bottom + 20);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let y = Math.ceil(L.ymin / 6) * 6; y <= L.ymax; y += 6) ctx.fillText(`${y}`, PAD.left - 4, L.Y(y));
  ctx.save();
  ctx.translate(14, L.Y((L.ymin + L.ymax) / 2));
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText('y (inches ahead of the charger)', 0, 0);
  ctx.restore();
}

function legend(ctx, L) {
  const x = PAD.legend === 'right' ? L.w - PAD.right + 14 : PAD.left;
  const top = PAD.legend === 'right' ? PAD.top + 16 : L.h - PAD.bottom + 44;
  ctx.fillStyle = '#333';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText('p_success', x, top - 10);
  if (PAD.legend === 'right') {
    for (let k = 0; k <= 100; k++) {
      ctx.fillStyle = colour(k / 100);
      ctx.fillRect(x, top + 150 - k * 1.5, 14, 2);
    }
    ctx.fillStyle = '#333';
    ctx.fillText('100%', x + 18, top + 2);
    ctx.fillText('0%', x + 18, top + 150);
  } else {
    for (let k = 0; k <= 100; k++) {
      ctx.fillStyle = colour(k / 100);
      ctx.fillRect(x + 24 + k * 1.8, top - 4, 2, 12);
    }
    ctx.fillStyle = '#333';
    ctx.fillText('0%', x, top + 2);
    ctx.fillText('100%', x + 210, top + 2);
  }
  const lx = x, ly = PAD.legend === 'right' ? top + 180 : top + 26;
  LEVELS.forEach(([level, dash], k) => {
    const y = ly + k * 18;
    ctx.setLineDash(dash);
    ctx.strokeStyle = '#000';
    ctx.beginPath();
    ctx.moveTo(lx, y);
    ctx.lineTo(lx + 26, y);
    ctx.stroke();
    ctx.fillText(`${level * 100}% contour`, lx + 32, y);
  });
  ctx.setLineDash([]);
  ctx.fillStyle = '#c8c8c8';
  ctx.fillRect(lx, ly + 54, 14, 10);
  ctx.fillStyle = '#333';
  ctx.fillText('cannot stand', lx + 18, ly + 59);
}

// Draws result (a map's table and grid) on canvas; readout(text) is called
// with the value under the pointer.
export function draw(canvas, result, readout) {
  const g = result.grid;
  const col = result.header.indexOf('p_success');
  const lo = result.header.indexOf('ci_low'), hi = result.header.indexOf('ci_high');
  const stand = result.header.indexOf('p_cannot_stand');
  const p = result.rows.map((r) => (r[col] === '' ? NaN : Number(r[col])));
  const dpr = window.devicePixelRatio || 1;
  const L = layout(canvas, g);
  canvas.width = Math.round(L.w * dpr);
  canvas.height = Math.round(L.h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, L.w, L.h);
  cells(ctx, g, p, L);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#000';
  for (const [level, dash] of LEVELS) {
    ctx.setLineDash(dash);
    ctx.beginPath();
    for (const [a, b] of contour(g, p, level)) {
      ctx.moveTo(L.X(a[0]), L.Y(a[1]));
      ctx.lineTo(L.X(b[0]), L.Y(b[1]));
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
  furniture(ctx, g, L);
  legend(ctx, L);
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
