// SPDX-License-Identifier: GPL-3.0-or-later
// A dropped roster alone (issue 53, tests/js.sh): units({files}) of a
// roster whose catalogue was not dropped with it finds the army the data
// folder ships under its catalogueId, as the page does; its toCSV() to
// stdout, for the command line's (run with CS_DATA at the repository's
// data/). Usage: node roster.mjs WEBDATA ROSTER
import {readFileSync} from 'node:fs';
import {basename} from 'node:path';
import {createChargesim} from 'chargesim';

const [webData, roster] = process.argv.slice(2);
const cs = await createChargesim({data: webData});
const t = await cs.units({files: [{name: basename(roster), bytes: readFileSync(roster)}]});
process.stdout.write(t.toCSV());
cs.close();
