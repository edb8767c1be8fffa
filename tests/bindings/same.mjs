// SPDX-License-Identifier: GPL-3.0-or-later
// Same request, same numbers (issue 53), the JavaScript package's part, run
// by tests/js.sh in a folder where the package is installed: each request
// of tests/bindings/same.json through the package, with the keys as the
// Python module takes them (method, trials, seed, charge_speed, b.move:
// the C core's option tables map them), written to OUT/NAME.csv (the
// table's toCSV()) and OUT/NAME.json (its header and rows, cell for cell).
// units three ways: a shipped army of the web build's catalogues (data),
// the same army from a plain folder as the repository's data/ (dataDir,
// mappings from beside it) and as dropped files ({files: [{name, bytes}]},
// the army's files as the catalogues' index lists them).
// Usage: node same.mjs SAME.JSON WEBDATA REPO OUT
import {readFileSync, writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {createChargesim} from 'chargesim';

const [spec, webData, repo, out] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(spec, 'utf8')).requests;
const cs = await createChargesim({data: webData});

function save(name, t) {
  writeFileSync(join(out, `${name}.csv`), t.toCSV());
  writeFileSync(join(out, `${name}.json`), JSON.stringify({header: t.header, rows: t.rows}));
}

for (const q of requests) {
  const params = Object.fromEntries(q.pairs);
  if (q.cmd === 'units') {
    // data/GAME/ARMY.cat
    const [, game, file] = q.operand[1].split('/');
    const army = file.replace(/\.cat$/, '');
    save('units', await cs.units({game, army, ...params}));
    // A package with no web build's catalogues: the mapping files read
    // from beside the folder (REPO/experiments/mappings).
    const plain = await createChargesim({dataDir: join(repo, 'data')});
    save('units-dataDir', await plain.units({game, army, ...params}));
    save('units-dataDir-url', await plain.units({game, army, ...params,
                                                 dataDir: pathToFileURL(join(repo, 'data'))}));
    plain.close();
    const index = JSON.parse(readFileSync(join(webData, 'index.json'), 'utf8'));
    const shipped = index.games.find((g) => g.folder === game).armies.find((a) => a.key === army);
    const files = shipped.files.map((p) => ({name: basename(p), bytes: readFileSync(join(repo, p))}));
    save('units-files', await cs.units({files, ...params}));
    writeFileSync(join(out, 'units-files.list'), shipped.files.join('\n') + '\n');
  } else {
    if (q.operand) params[q.operand[0]] = q.operand[1];
    save(q.cmd, await cs[q.cmd](params));
  }
}
cs.close();
