// SPDX-License-Identifier: GPL-3.0-or-later
// The worker's side of the Units tab (a classic script: worker.js imports
// it): the files a units request needs, put into emscripten's in-memory
// file system with the repository's relative paths (data/tow/..., 
// experiments/mappings/...), then `chargesim units` run on them by the C
// core (cs_web_units, src/web/webunits.c). Shipped files are fetched
// gzipped from the site once and unpacked with the browser's
// DecompressionStream; dropped files arrive as bytes.

const unitsFetched = new Set();

async function gunzip(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  const stream = response.body.pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function put(FS, path, bytes) {
  const slash = path.lastIndexOf('/');
  if (slash > 0) FS.mkdirTree(path.slice(0, slash));
  FS.writeFile(path, bytes);
}

function removeTree(FS, dir) {
  let names;
  try {
    names = FS.readdir(dir);
  } catch (e) {
    return;
  }
  for (const name of names) {
    if (name === '.' || name === '..') continue;
    const path = `${dir}/${name}`;
    if (FS.isDir(FS.stat(path).mode)) {
      removeTree(FS, path);
      FS.rmdir(path);
    } else {
      FS.unlink(path);
    }
  }
}

// msg: {fetch: [{path, url}], files: [{path, bytes}], clear: folder to
// empty first, cwd, source, distance, rules}. Returns the engine's JSON.
async function unitsRun(engine, msg) {
  const FS = engine.FS;
  const wanted = (msg.fetch || []).filter((f) => !unitsFetched.has(f.path));
  const got = await Promise.all(wanted.map((f) => gunzip(f.url)));
  wanted.forEach((f, i) => {
    put(FS, '/' + f.path, got[i]);
    unitsFetched.add(f.path);
  });
  if (msg.clear) removeTree(FS, msg.clear);
  for (const f of msg.files || []) put(FS, f.path, f.bytes);
  FS.chdir(msg.cwd || '/');
  const ptr = engine.ccall('cs_web_units', 'number',
    ['string', 'string', 'string'], [msg.source, msg.distance || '', msg.rules || '']);
  const json = engine.UTF8ToString(ptr);
  engine._cs_web_free(ptr); // the answer is the caller's (web.h)
  return json;
}
