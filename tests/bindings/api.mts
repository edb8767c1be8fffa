// SPDX-License-Identifier: GPL-3.0-or-later
// The JavaScript package's API as a TypeScript program uses it (issue 53):
// tests/js.sh compiles this against the installed package's declarations
// (js/index.d.ts) with tsc --noEmit --strict, so a declaration that does
// not fit the API's use fails there. Not run.
import {createChargesim, ChargesimError, Table} from 'chargesim';
import type {Chargesim, Column, Params, UnitsParams} from 'chargesim';

const cs: Chargesim = await createChargesim({data: 'web/data', dataDir: new URL('file:///data/')});
const ac = new AbortController();
const params: Params = {'experiment.ruleset': 't9a', charge_speed: 3, distance: '6..14', method: 'mc',
                        trials: 5000, seed: 7, success: ['charged', 'illegal'], quiet: true};
const run: Table = await cs.run(params, {signal: ac.signal, onProgress: (done, total) => done / total});
const csv: string = run.toCSV();
const cols: Column[] = run.columns;
const first: Record<string, string>[] = run.records();
const m = await cs.map({x: '-2..2:1', y: '1..3:1', maximised: 1});
const grid: number | undefined = m.grid?.nx;
await cs.compare({'experiment.ruleset': 'generic', move: 4, b: {move: 5}});
await cs.dice('2d6kh1+d6');
await cs.dice({expr: '3d6dl1', trials: 20000, seed: 7});
const u: UnitsParams = {game: 'tow', army: 'Bretonnians', distance: '4..20'};
const units = await cs.units(u);
const notes: string[] = units.notes;
const summary: string | null = units.summary;
await cs.units({files: [{name: 'army.ros', bytes: new Uint8Array(0)}], source: 'army.ros'});
await cs.units({game: 'tow', army: 'Bretonnians', dataDir: 'data', mappingsDir: 'experiments/mappings'});
const raw = await cs.exec('dice', [['expr', 'd6'], ['exact', null]]);
const ms: number = raw.ms;
const checked = await cs.check('run', [['experiment.ruleset', 't9a'], ['experiment.method', 'rqmc']]);
const checkMs: number = checked.ms;
try {
  await cs.dice('2d6kh');
} catch (e) {
  if (e instanceof ChargesimError) {
    const field: string | null = e.field;
    const line: string = e.cli;
    const exit: number = e.exit;
    console.log(field, line, exit);
  }
}
cs.close();
console.log(csv, cols, first, grid, notes, summary, ms);
