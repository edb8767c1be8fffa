// SPDX-License-Identifier: GPL-3.0-or-later
// A pen that speaks the canvas calls chart.js draws with (paths, rectangles,
// arcs, text, dashes, save/restore, translate/rotate/scale) and writes SVG
// instead of pixels, so the chart's SVG download is drawn by the very code
// that draws it on screen (chart.js: paint), not by a second drawing.
// Every text is escaped: names come from catalogues and links.

export function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;'}[c]));
}

// Numbers short in the file: two decimals are a hundredth of a pixel.
const num = (v) => String(Math.round(v * 100) / 100);

// #RRGGBBAA (a band's translucent colour) as colour and opacity, which
// every SVG reader understands.
function paintOf(colour) {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})$/i.exec(colour);
  return m ? {colour: `#${m[1]}`, opacity: parseInt(m[2], 16) / 255} : {colour, opacity: 1};
}

const ANCHOR = {left: 'start', start: 'start', center: 'middle', right: 'end', end: 'end'};
const BASELINE = {top: 'hanging', middle: 'central', bottom: 'text-after-edge',
                  alphabetic: 'alphabetic'};

export class SvgPen {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.parts = [];
    this.path = '';
    this.stack = [];
    this.matrix = [1, 0, 0, 1, 0, 0];
    this.dash = [];
    this.strokeStyle = '#000';
    this.fillStyle = '#000';
    this.lineWidth = 1;
    this.font = '12px system-ui, sans-serif';
    this.textAlign = 'start';
    this.textBaseline = 'alphabetic';
    // Text is measured as a canvas would measure it, so layouts agree.
    this.measure = document.createElement('canvas').getContext('2d');
  }

  // Transforms: kept as a matrix and written on each element.
  setTransform(a, b, c, d, e, f) {
    this.matrix = [a, b, c, d, e, f];
  }

  transform(a, b, c, d, e, f) {
    const [A, B, C, D, E, F] = this.matrix;
    this.matrix = [A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d,
                   A * e + C * f + E, B * e + D * f + F];
  }

  translate(x, y) { this.transform(1, 0, 0, 1, x, y); }
  scale(x, y) { this.transform(x, 0, 0, y, 0, 0); }
  rotate(a) { this.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0); }

  save() {
    this.stack.push({matrix: this.matrix, dash: this.dash, strokeStyle: this.strokeStyle,
                     fillStyle: this.fillStyle, lineWidth: this.lineWidth, font: this.font,
                     textAlign: this.textAlign, textBaseline: this.textBaseline});
  }

  restore() {
    Object.assign(this, this.stack.pop() ?? {});
  }

  setLineDash(d) { this.dash = d.slice(); }
  clearRect() {}

  beginPath() { this.path = ''; }
  moveTo(x, y) { this.path += `M${num(x)} ${num(y)}`; }
  lineTo(x, y) { this.path += `L${num(x)} ${num(y)}`; }
  closePath() { this.path += 'Z'; }

  // Whole circles only: what chart.js draws (a point's dot).
  arc(x, y, r) {
    this.path += `M${num(x - r)} ${num(y)}a${num(r)} ${num(r)} 0 1 0 ${num(2 * r)} 0` +
                 `a${num(r)} ${num(r)} 0 1 0 ${num(-2 * r)} 0`;
  }

  attrs() {
    const m = this.matrix;
    const identity = m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && !m[4] && !m[5];
    return identity ? '' : ` transform="matrix(${m.map(num).join(' ')})"`;
  }

  stroke() {
    const p = paintOf(this.strokeStyle);
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.map(num).join(' ')}"` : '';
    this.parts.push(`<path d="${this.path}" fill="none" stroke="${escapeXml(p.colour)}"` +
                    `${p.opacity < 1 ? ` stroke-opacity="${num(p.opacity)}"` : ''}` +
                    ` stroke-width="${num(this.lineWidth)}"${dash}${this.attrs()}/>`);
  }

  fill() {
    const p = paintOf(this.fillStyle);
    this.parts.push(`<path d="${this.path}" fill="${escapeXml(p.colour)}"` +
                    `${p.opacity < 1 ? ` fill-opacity="${num(p.opacity)}"` : ''}${this.attrs()}/>`);
  }

  fillRect(x, y, w, h) {
    this.beginPath();
    this.path = `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}Z`;
    this.fill();
  }

  strokeRect(x, y, w, h) {
    this.beginPath();
    this.path = `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}Z`;
    this.stroke();
  }

  measureText(text) {
    this.measure.font = this.font;
    return this.measure.measureText(text);
  }

  fillText(text, x, y) {
    const p = paintOf(this.fillStyle);
    const size = /(\d+(?:\.\d+)?)px/.exec(this.font);
    const bold = /\bbold\b/.test(this.font) ? ' font-weight="bold"' : '';
    this.parts.push(`<text x="${num(x)}" y="${num(y)}" fill="${escapeXml(p.colour)}"` +
                    ` font-family="system-ui, sans-serif" font-size="${size ? size[1] : 12}"${bold}` +
                    ` text-anchor="${ANCHOR[this.textAlign] ?? 'start'}"` +
                    ` dominant-baseline="${BASELINE[this.textBaseline] ?? 'alphabetic'}"` +
                    `${this.attrs()}>${escapeXml(text)}</text>`);
  }

  // The document: what was drawn, on a white page of the pen's size.
  toString() {
    return '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}"` +
      ` viewBox="0 0 ${this.width} ${this.height}">\n${this.parts.join('\n')}\n</svg>\n`;
  }
}
