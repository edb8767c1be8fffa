// SPDX-License-Identifier: GPL-3.0-or-later
// A chart as a picture to publish (issue 52): at print size, with a title,
// the chart's labelled axes (chart.js), a legend of every series and a
// source line (chargesim's version, the method, the seed where sampled),
// so a picture says where it came from. One layout, drawn through a pen:
// a canvas context for the PNG, svgpen.js for the SVG.

import {paint} from './chart.js';
import {SvgPen} from './svgpen.js';

// Print size in pixels, and the scale from the on-screen chart's units.
export const PRINT = {width: 1600, height: 1000, scale: 2};
const W = PRINT.width / PRINT.scale, H = PRINT.height / PRINT.scale;
const FONT = 'system-ui, sans-serif';

// "chargesim VERSION · method M · seed S" (the seed only where sampled):
// the answer's own words (src/web/webjson.c).
export function sourceLine(result) {
  return [`chargesim ${result.version ?? ''}`.trim(), `method ${result.method}`,
          result.seed ? `seed ${result.seed}` : null].filter(Boolean).join(' · ');
}

// Text cut to fit width on pen, with an ellipsis.
function fitted(pen, text, width) {
  if (pen.measureText(text).width <= width) return text;
  let n = text.length;
  while (n > 1 && pen.measureText(`${text.slice(0, n)}…`).width > width) n--;
  return `${text.slice(0, n)}…`;
}

// The legend's items laid out in rows across the page: [{x, y, k}], and
// its height.
function legendRows(pen, spec) {
  pen.font = `12px ${FONT}`;
  const items = [];
  let x = 20, y = 0;
  spec.series.forEach((s, k) => {
    const w = 34 + Math.min(pen.measureText(s.label).width, W - 80) + 18;
    if (x + w > W - 20 && x > 20) {
      x = 20;
      y += 18;
    }
    items.push({x, y, k, width: w});
    x += w;
  });
  return {items, height: spec.series.length ? y + 18 : 0};
}

function legend(pen, spec, st, top) {
  const {items} = legendRows(pen, spec);
  pen.textAlign = 'left';
  pen.textBaseline = 'middle';
  for (const {x, y, k, width} of items) {
    const s = spec.series[k], style = st[k];
    pen.strokeStyle = pen.fillStyle = style.colour;
    if (spec.bars) pen.fillRect(x + 6, top + y + 4, 18, 10);
    else {
      pen.lineWidth = s.share ? 2 : 3;
      pen.setLineDash(style.dash);
      pen.beginPath();
      pen.moveTo(x, top + y + 9);
      pen.lineTo(x + 28, top + y + 9);
      pen.stroke();
      pen.setLineDash([]);
    }
    pen.fillStyle = '#222';
    pen.fillText(fitted(pen, s.label, width - 52), x + 34, top + y + 9);
  }
}

// Title at the top, source line and command at the bottom, in the page's
// units (the pen is scaled to print size); returns the room between.
function frame(pen, title, result) {
  pen.fillStyle = '#fff';
  pen.fillRect(0, 0, W, H);
  pen.fillStyle = '#111';
  pen.font = `bold 18px ${FONT}`;
  pen.textAlign = 'left';
  pen.textBaseline = 'top';
  pen.fillText(fitted(pen, title, W - 40), 20, 14);
  pen.font = `11px ${FONT}`;
  pen.fillStyle = '#333';
  pen.textBaseline = 'bottom';
  pen.fillText(fitted(pen, sourceLine(result), W - 40), 20, H - 24);
  pen.fillStyle = '#555';
  pen.fillText(fitted(pen, result.command ?? '', W - 40), 20, H - 8);
  return {top: 44, bottom: H - 44};
}

// Draws the chart of spec with its title, legend and source on pen.
export function drawChart(pen, spec, title, result) {
  pen.scale(PRINT.scale, PRINT.scale);
  const room = frame(pen, title, result);
  const {height} = legendRows(pen, spec);
  const chartH = room.bottom - room.top - height - 12;
  pen.save();
  pen.translate(0, room.top);
  const st = paint(pen, W, chartH, spec);
  pen.restore();
  legend(pen, spec, st, room.top + chartH + 8);
}

// The chart as an SVG document (text).
export function chartSvg(spec, title, result) {
  const pen = new SvgPen(PRINT.width, PRINT.height);
  drawChart(pen, spec, title, result);
  return pen.toString();
}

// A print-size canvas with the chart drawn on it.
export function chartCanvas(spec, title, result) {
  const canvas = document.createElement('canvas');
  canvas.width = PRINT.width;
  canvas.height = PRINT.height;
  drawChart(canvas.getContext('2d'), spec, title, result);
  return canvas;
}

// A print-size canvas with picture(ctx, w, h) (a map, drawn by its own
// view at that size) under the title and over the source line.
export function pictureCanvas(picture, title, result) {
  const canvas = document.createElement('canvas');
  canvas.width = PRINT.width;
  canvas.height = PRINT.height;
  const ctx = canvas.getContext('2d');
  ctx.scale(PRINT.scale, PRINT.scale);
  const room = frame(ctx, title, result);
  ctx.save();
  ctx.translate(0, room.top);
  picture(ctx, W, room.bottom - room.top);
  ctx.restore();
  return canvas;
}
