// SPDX-License-Identifier: GPL-3.0-or-later
// The result's way out of the page (issue 52), a bar of actions under it:
//   Download CSV    the answer's "csv": the bytes `chargesim ... -o FILE.csv`
//                   writes for the command shown, made by the C core
//                   (src/req/reqexport.c), never written here;
//   Copy Markdown   the answer's "markdown": what `--format md` prints
//                   (a map has none: its command has no --format);
//   Copy table      the shown table tab-separated, for spreadsheets, from
//                   each cell's whole value (data-value), not its rounding;
//   Download chart  SVG and PNG at print size, with title, axes, legend and
//                   source line (figure.js); a map as PNG.
// The page writes no file itself: a download is the browser's, of a Blob.
// A copy says "Copied" in a status line; where the clipboard is refused the
// text is put in a box, selected, for the player to copy.

import {byId, el, fill} from './dom.js';
import {chartCanvas, chartSvg, pictureCanvas, sourceLine} from './figure.js';
import {pngWithText} from './pngtext.js';

let bar = null;

function status(text) {
  fill(byId('export-status'), text);
}

// The bar, made once, under the command line.
function ensureBar() {
  if (bar) return bar;
  bar = el('div', {id: 'export', className: 'export', role: 'group', ariaLabel: 'Export the result'},
    el('div', {id: 'export-actions', className: 'export-actions'}),
    el('p', {id: 'export-status', role: 'status', className: 'export-status'}),
    el('div', {id: 'export-fallback'}));
  byId('output').querySelector('.command').after(bar);
  return bar;
}

// Saves blob as name through the browser's own download.
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a', {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  status(`Downloaded ${name}`);
}

// Copies text, or shows it selected where the clipboard is refused.
async function copy(text, what) {
  fill(byId('export-fallback'));
  try {
    await navigator.clipboard.writeText(text);
    status(`Copied ${what}`);
  } catch (e) {
    const box = el('textarea', {id: 'export-text', readOnly: true, rows: 8,
                                ariaLabel: `${what}, to copy`}, text);
    fill(byId('export-fallback'), box);
    box.focus();
    box.select();
    status(`The browser refused the clipboard: ${what} is selected below; copy it with Ctrl+C`);
  }
}

// The shown table as tab-separated text: header, then each row, each cell
// its whole value, a header cell its CSV column name (a tab or line
// break inside a cell becomes a space).
export function tableTsv() {
  const clean = (t) => t.replace(/[\t\r\n]+/g, ' ');
  const rows = [...byId('results').querySelectorAll('tr')].map((tr) =>
    [...tr.children].map((c) => clean(c.dataset.column ?? c.dataset.value ?? c.textContent)).join('\t'));
  return rows.map((r) => `${r}\n`).join('');
}

function pngOf(canvas, name, title, result) {
  canvas.toBlob(async (blob) => {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    // The title and source ride in the file too, as PNG text chunks.
    download(new Blob([pngWithText(bytes, {Title: title, Source: sourceLine(result),
                                            Comment: result.command ?? ''})],
                      {type: 'image/png'}), name);
  }, 'image/png');
}

function button(id, text, action) {
  return el('button', {type: 'button', id, onclick: action}, text);
}

// The chart's title: the command and what the chart plots against what.
function chartTitle(cmd, spec) {
  return `chargesim ${cmd}: ${spec.yLabel}${spec.xLabel ? ` against ${spec.xLabel}` : ''}`;
}

// Shows the actions for result of command cmd. chart(): the chart's spec
// as drawn now, or null; map: a painter (ctx, w, h) of the map, or null.
export function show(cmd, result, {chart = () => null, map = null} = {}) {
  ensureBar();
  const base = `chargesim-${cmd}`;
  const buttons = [];
  if (typeof result.csv === 'string') {
    buttons.push(button('export-csv', 'Download CSV', () =>
      download(new Blob([result.csv], {type: 'text/csv'}), `${base}.csv`)));
  }
  if (typeof result.markdown === 'string') {
    buttons.push(button('export-md', 'Copy Markdown', () => copy(result.markdown, 'the Markdown table')));
  }
  buttons.push(button('export-tsv', 'Copy table', () => copy(tableTsv(), 'the table')));
  if (chart()) {
    buttons.push(button('export-svg', 'Download chart (SVG)', () => {
      const spec = chart();
      download(new Blob([chartSvg(spec, chartTitle(cmd, spec), result)], {type: 'image/svg+xml'}),
               `${base}.svg`);
    }));
    buttons.push(button('export-png', 'Download chart (PNG)', () => {
      const spec = chart();
      const title = chartTitle(cmd, spec);
      pngOf(chartCanvas(spec, title, result), `${base}.png`, title, result);
    }));
  }
  if (map) {
    buttons.push(button('export-png', 'Download map (PNG)', () => {
      const title = 'chargesim map: p_success at each position of the target';
      pngOf(pictureCanvas(map, title, result), `${base}.png`, title, result);
    }));
  }
  fill(byId('export-actions'), ...buttons);
  fill(byId('export-fallback'));
  status('');
  bar.hidden = false;
}

export function clear() {
  if (!bar) return;
  fill(byId('export-actions'));
  fill(byId('export-fallback'));
  status('');
  bar.hidden = true;
}
