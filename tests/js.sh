#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The JavaScript package (issue 53, js/), as a user gets it: the tarball
# `npm pack` made (make js-pack) installed offline into an empty folder, and
# in Node there:
#   - the package's README example (and README.md's js block), whose dice table must be the CSV of
#     `chargesim dice 2d6kh1+d6 --exact` byte for byte, and whose units table
#     (toCSV) that of `chargesim units data/tow/Bretonnians.cat --distance 4..20`;
#   - a refusal: the command line's message, field and exit status;
#   - an aborted run (AbortSignal), then a next request that works;
#   - the package's size unpacked, under 2.5 MB;
#   - one request per command (tests/bindings/same.json) against the command
#     line's -o file, byte for byte and cell for cell, with the keys as the
#     Python module takes them; units from a plain dataDir and dropped files;
#   - a dropped roster alone, its catalogue fetched by its id (as the page);
#   - TypeScript: tests/bindings/api.mts compiled against index.d.ts
#     (tsc --noEmit --strict), skipped with its reason when tsc is missing;
#   - the same tarball imported by a page in headless Chromium
#     (tests/web/test_pkg.py).
# Run by make test-web (it needs the web build: the engine and web/data).
# Usage: tests/js.sh BIN TARBALL DATA
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tgz=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
data=$(cd "$3" && pwd)
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
ok() { printf 'js: ok: %s\n' "$*"; }
fail() { printf 'js: FAIL: %s\n' "$*" >&2; failed=1; }

# An empty folder, the tarball installed with no registry.
cd "$tmp"
printf '{"name": "js-test", "version": "1.0.0", "private": true}\n' >package.json
npm install --offline --no-audit --no-fund "$tgz" >npm.log 2>&1 || { cat npm.log >&2; exit 1; }
ok "npm install --offline $(basename "$tgz")"

size=$(du -sb node_modules/chargesim | cut -f1)
if [ "$size" -lt 2621440 ]; then ok "unpacked size $size bytes < 2.5 MB"; else fail "unpacked size $size bytes"; fi

# The README's first js block, run as it is, from a folder whose web/data
# is the web build's catalogues.
mkdir -p web && ln -s "$data" web/data
awk '/^```js$/ { on = 1; next } /^```/ { if (on) exit } on' "$root/js/README.md" >example.mjs
node example.mjs >example.csv 2>example.err || { cat example.err >&2; fail "README example"; }
"$bin" dice '2d6kh1+d6' --exact >dice.csv
if cmp -s dice.csv example.csv; then ok "README example: dice table = chargesim dice --exact, byte for byte"
else fail "README example: dice table differs"; diff dice.csv example.csv | head >&2 || true; fi

# README.md's `js norun` block (tests/examples.sh builds no WebAssembly),
# run here: its dice table is the same command line's.
awk '/^```js norun$/ { on = 1; next } /^```/ { if (on) exit } on' "$root/README.md" >readme.mjs
node readme.mjs >readme.csv 2>readme.err || { cat readme.err >&2; fail "README.md's js block"; }
if [ -s readme.mjs ] && cmp -s dice.csv readme.csv; then ok "README.md's js block: the same dice table"
else fail "README.md's js block"; fi

# The units table against the command line's, from the repository's root.
cat >units.mjs <<'EOF'
import {createChargesim} from 'chargesim';
const cs = await createChargesim({data: 'web/data'});
const u = await cs.units({game: 'tow', army: 'Bretonnians', distance: '4..20'});
process.stdout.write(u.toCSV());
for (const n of u.notes) console.error(n);
console.error(u.summary);
cs.close();
EOF
node units.mjs >units.js.csv 2>units.js.err || { cat units.js.err >&2; fail "units"; }
(cd "$root" && "$bin" units data/tow/Bretonnians.cat --distance 4..20) >units.csv 2>units.err || true
if cmp -s units.csv units.js.csv; then ok "units tow/Bretonnians: the command line's CSV"
else fail "units table differs"; diff units.csv units.js.csv | head >&2 || true; fi
if cmp -s units.err units.js.err; then ok "units tow/Bretonnians: the command line's notes and summary"
else fail "units notes differ"; diff units.err units.js.err | head >&2 || true; fi

# Same request, same numbers (tests/bindings/same.json): one request per
# command through the package, with the keys as the Python module takes
# them, against the command line's -o file, byte for byte and cell for cell
# (tests/bindings/same.mjs, same_check.py); units also from a plain folder
# (dataDir, a path and a file: URL) and as dropped files.
mkdir -p same/cli same/js same/drop
cp "$root/tests/bindings/same.mjs" same.mjs # beside node_modules, where 'chargesim' resolves
node same.mjs "$root/tests/bindings/same.json" "$data" "$root" same/js \
    2>same.err || { cat same.err >&2; fail "same.mjs"; }
/usr/bin/python3 - "$root/tests/bindings/same.json" >same.args <<'EOF'
import json, sys
for q in json.load(open(sys.argv[1]))["requests"]:
    print("%s\t%d" % (q["cmd"], len(q["cli"])))
    print("\n".join(q["cli"]))
EOF
exec 3<same.args
while IFS='	' read -r name n <&3; do
    : >same/args
    i=0
    while [ "$i" -lt "$n" ] && IFS= read -r a <&3; do printf '%s\n' "$a" >>same/args; i=$((i + 1)); done
    # shellcheck disable=SC2046
    (cd "$root" && IFS='
' && "$bin" $(cat "$tmp/same/args") -o "$tmp/same/cli/$name.csv") </dev/null >/dev/null 2>&1 ||
        fail "chargesim $name (same.json) exited non-zero"
done
exec 3<&-
cp same/cli/units.csv same/cli/units-dataDir.csv
cp same/cli/units.csv same/cli/units-dataDir-url.csv
# The dropped files, as the command line reads them in a folder of their own.
touch same/js/units-files.list
while IFS= read -r f; do cp "$root/$f" same/drop/; done <same/js/units-files.list
first=$(head -n 1 same/js/units-files.list)
(cd same/drop && "$bin" units "$(basename "${first:-none}")" --distance 4..20 -o ../cli/units-files.csv) \
    </dev/null >/dev/null 2>&1 || fail "chargesim units (dropped files) exited non-zero"
/usr/bin/python3 "$root/tests/bindings/same_check.py" same/cli same/js run map compare dice units \
    units-dataDir units-dataDir-url units-files || failed=1

# A dropped roster alone, its catalogue found among the data folder's by
# its catalogueId (our Bretonnian list without New Recruit's group
# attributes, as tests/web/test_units.py drops it in the page).
mkdir -p roster
sed 's/ group="[^"]*"//g' "$root/tests/data/rosters/own/tow-bretonnia.ros" >roster/list.ros
cp "$root/tests/bindings/roster.mjs" roster.mjs
node roster.mjs "$data" roster/list.ros >roster/js.csv 2>roster/js.err || { cat roster/js.err >&2; fail "roster.mjs"; }
(cd roster && CS_DATA=$root/data "$bin" units list.ros -o cli.csv) </dev/null >/dev/null 2>&1 ||
    fail "chargesim units list.ros exited non-zero"
if [ -s roster/cli.csv ] && cmp -s roster/cli.csv roster/js.csv; then
    ok "a dropped roster alone: its catalogue fetched by its id, chargesim units' CSV"
else fail "a dropped roster alone differs from chargesim units"; fi

# The declarations (js/index.d.ts) against a TypeScript program of the
# package's API (tests/bindings/api.mts), compiled with tsc --noEmit
# --strict, TypeScript being a test-only tool of make deps-web (npm); when
# it is not installed, a skip that says so (never a silent pass).
tsc=$root/build-web/npm/node_modules/typescript/bin/tsc
if [ -f "$tsc" ]; then
    cp "$root/tests/bindings/api.mts" api.mts
    if node "$tsc" --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext \
        api.mts >tsc.log 2>&1; then
        ok "TypeScript $(node "$tsc" --version | cut -d' ' -f2): tests/bindings/api.mts compiles (--strict) against index.d.ts"
    else
        fail "tsc --strict: tests/bindings/api.mts against index.d.ts"
        cat tsc.log >&2
    fi
else
    printf 'js: SKIP: TypeScript declarations not checked: %s not installed (make deps-web installs it from the npm registry)\n' \
        "build-web/npm/node_modules/typescript" >&2
fi

# A refusal, then an aborted run and a request after it.
cat >errors.mjs <<'EOF'
import {writeFileSync} from 'node:fs';
import {createChargesim, ChargesimError} from 'chargesim';
const cs = await createChargesim();
try {
  await cs.dice({expr: '2d6kh'});
  console.log('no error');
} catch (e) {
  console.log(e instanceof ChargesimError, e.exit, e.field);
  writeFileSync('cli.txt', e.cli + '\n');
}
const ac = new AbortController();
let progress = 0;
const long = cs.run({'experiment.ruleset': 'generic', preset: 'whfb8', move: '3..10',
                     distance: '1..24', method: 'mc', trials: 2000000000},
                    {signal: ac.signal, onProgress: () => { progress++; }});
setTimeout(() => ac.abort(), 300);
const t0 = Date.now();
try {
  await long;
  console.log('not aborted');
} catch (e) {
  console.log('aborted', e.name, Date.now() - t0 < 5000);
}
const t = await cs.dice({expr: 'd6', exact: true});
process.stdout.write(t.toCSV());
cs.close();
EOF
node errors.mjs >errors.out 2>errors.err || { cat errors.err >&2; fail "errors.mjs"; }
status=0
"$bin" dice '2d6kh' 2>cli.err >/dev/null || status=$?
if [ "$(sed -n 1p errors.out)" = "true $status expr" ] && cmp -s cli.err cli.txt; then
  ok "a refusal: the command line's message, its field and exit status"
else fail "refusal: got '$(sed -n 1p errors.out)', want 'true $status expr'"; diff cli.err cli.txt >&2 || true; fi
if [ "$(sed -n 2p errors.out)" = "aborted AbortError true" ]; then ok "an aborted run rejects at once"
else fail "abort: got '$(sed -n 2p errors.out)'"; fi
"$bin" dice d6 --exact >d6.csv
if sed -n '3,$p' errors.out | cmp -s - d6.csv; then ok "the request after the abort: chargesim dice d6 --exact"
else fail "the request after the abort"; fi

# The same tarball imported by a page in headless Chromium (a Web Worker).
cd "$root"
/usr/bin/python3 tests/web/test_pkg.py "$bin" "$tgz" "$data" "$root" || failed=1

exit $failed
