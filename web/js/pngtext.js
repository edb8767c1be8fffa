// SPDX-License-Identifier: GPL-3.0-or-later
// Text carried inside a PNG file (PNG specification, 11.3.3.4 iTXt:
// keyword, NUL, compression flag and method 0, empty language tag and
// translated keyword, then the UTF-8 text), so a downloaded picture keeps
// its title and source line wherever it is copied. Each chunk is added
// before IEND with its CRC-32 (PNG, annex D).

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function itxt(keyword, text) {
  const enc = new TextEncoder();
  const k = enc.encode(keyword), t = enc.encode(text);
  const data = new Uint8Array(k.length + 5 + t.length);
  data.set(k, 0); // then NUL, flag 0, method 0, empty language, empty translation
  data.set(t, k.length + 5);
  return chunk('iTXt', data);
}

// png's bytes with an iTXt chunk for each keyword: text of texts.
export function pngWithText(png, texts) {
  const iend = png.length - 12; // IEND is the last chunk, always 12 bytes
  const added = Object.entries(texts).map(([k, v]) => itxt(k, v));
  const size = added.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(png.length + size);
  out.set(png.subarray(0, iend), 0);
  let at = iend;
  for (const c of added) {
    out.set(c, at);
    at += c.length;
  }
  out.set(png.subarray(iend), at);
  return out;
}
