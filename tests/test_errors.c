/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every error path is tested (issue 18, section 4): one row per message the
 * program can print that no other test reaches, driving bin/chargesim the
 * way a user would. A row names the input, the exit status (2 bad input or
 * usage, 1 runtime failure) and a fragment of the one message expected on
 * stderr. `make coverage` shows which messages remain unreached; the out of
 * memory messages are not in the table (no failure injection). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support/helpers.h"

typedef struct row {
    const char *setup; /* shell commands run first in a fresh directory, or NULL */
    const char *cmd;   /* the command; $B is bin/chargesim, $R the repository */
    int rc;            /* expected exit status */
    const char *msg;   /* a fragment of the message on stderr */
} row;

/* An experiment file: generic ruleset, few trials. */
#define GEN "printf '[experiment]\\nruleset = generic\\ntrials = 200\\n[params]\\n' >e.ini"
/* The generic mapping, as m.ini, with `sed` applied to it. */
#define MAP(sed) "sed " sed " \"$R/experiments/mappings/generic.ini\" >m.ini"
/* A catalogue of game system gs-new and a units CSV of two generic units. */
#define CAT                                                                                        \
    "cp \"$R/tests/data/units/new.cat\" .; "                                                      \
    "printf 'name,ruleset,move\\nFootmen,generic,4\\nKnights,generic,7\\n' >units.csv"
/* A key of 300 characters. */
#define A30 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define A300 A30 A30 A30 A30 A30 A30 A30 A30 A30 A30
/* The T9A threat map experiment. */
#define T9M "\"$R/experiments/map-t9a.ini\""
/* A metadata file for `rerun` holding the JSON j. */
#define META(j) "printf '%s' '" j "' >m.json"
/* A complete chargesim:experiment object but for the fields given. */
#define EXP_TEXTS                                                                                  \
    "\"ruleset\":\"generic\",\"name\":\"x\",\"description\":\"\",\"trials\":\"100\","          \
    "\"seed\":\"1\",\"method\":\"mc\""

static char *out_text, *err_text;

static void release(void)
{
    free(out_text);
    free(err_text);
    out_text = err_text = NULL;
}

TestSuite(errors, .fini = release);

/* Runs one row in its own directory and checks its status and message. */
static void check_row(const row *r)
{
    const char *dir = th_tmpdir();
    cr_assert(dir);
    const char *bin = getenv("CS_BIN");
    cr_assert(setenv("B", bin ? bin : "bin/chargesim", 1) == 0);
    cr_assert(setenv("R", th_root(), 1) == 0);
    /* The default mappings, wherever the binary under test was built. */
    char maps[1024];
    snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
    cr_assert(setenv("CS_MAPPINGS", maps, 1) == 0);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && { %s; } >/dev/null 2>&1 && %s >out 2>err </dev/null",
             dir, r->setup ? r->setup : ":", r->cmd);
    int st = system(cmd);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    char path[1024];
    release();
    snprintf(path, sizeof path, "%s/err", dir);
    err_text = th_slurp(path, NULL);
    cr_assert(err_text, "%s: no stderr", r->cmd);
    cr_expect_eq(rc, r->rc, "%s: exit %d, expected %d; stderr: %s", r->cmd, rc, r->rc, err_text);
    cr_expect(strstr(err_text, r->msg), "%s: expected '%s' in: %s", r->cmd, r->msg, err_text);
}

static void check_rows(const row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        check_row(&rows[i]);
}

/* Usage: options and operands of each command. */
static const row usage_rows[] = {
    {NULL, "$B rules generic t9a", 2, "chargesim rules: one ruleset name at a time"},
    {GEN, "$B run e.ini e.ini", 2, "one experiment file at a time ('e.ini' and 'e.ini')"},
    {NULL, "$B dice --bogus", 2, "unknown option '--bogus' (see chargesim dice --help)"},
    {NULL, "$B dice 2d6 3d6", 2, "one expression at a time ('2d6' and '3d6')"},
    {GEN, "$B draw e.ini --bogus", 2, "unknown option '--bogus' (see chargesim draw --help)"},
    {GEN, "$B draw e.ini e.ini", 2, "chargesim draw: one experiment file at a time"},
    {NULL, "$B rerun a.json b.json", 2, "chargesim rerun: one metadata file at a time"},
    {CAT, "$B units units.csv new.cat", 2, "one SOURCE at a time ('units.csv' and 'new.cat')"},
    {NULL, "$B dice 2d6 -o ''", 2, "'': an empty output file name"},
    {GEN, "$B run e.ini --set nokey", 2, "--set 'nokey': expected section.key=value or key=value"},
    {GEN, "$B run e.ini --set params." A300 "=1", 2, "key too long"},
    {GEN, "$B run e.ini --max-trials 1000", 2, "--max-trials applies only with --precision"},
    {GEN, "$B run e.ini -o y.csv --dist ./y.csv", 2,
     "chargesim run: -o and --dist name the same file './y.csv'"},
    {GEN, "$B run e.ini --precision 0.1 --max-trials 1000000000000000", 2, "--max-trials"},
};

Test(errors, usage)
{
    check_rows(usage_rows, sizeof usage_rows / sizeof usage_rows[0]);
}

/* Overrides beyond the fixed capacity of each command. */
Test(errors, too_many_overrides)
{
    char sets[8192] = "", opts[8192] = "", units[2048] = "";
    for (int i = 0; i < 257; i++)
        strcat(sets, " --set move=5");
    for (int i = 0; i < 257; i++)
        strcat(opts, " --trials 100");
    for (int i = 0; i < 33; i++)
        strcat(units, " --set move=5");
    char bsets[8192] = "";
    for (int i = 0; i < 257; i++)
        strcat(bsets, " --b move=5");
    char c1[8300], c2[8300], c3[2200], c4[8300], c5[8300], c6[8300], c7[8300], c8[8300],
        c9[8300];
    snprintf(c1, sizeof c1, "$B run e.ini%s", sets);
    snprintf(c2, sizeof c2, "$B run e.ini%s", opts);
    snprintf(c3, sizeof c3, "$B units units.csv%s", units);
    snprintf(c4, sizeof c4, "$B compare e.ini --b move=6%s", sets);
    snprintf(c5, sizeof c5, "$B compare e.ini%s", bsets);
    snprintf(c6, sizeof c6, "$B compare e.ini --b move=6%s", opts);
    snprintf(c7, sizeof c7, "$B map " T9M "%s", sets);
    snprintf(c8, sizeof c8, "$B map " T9M "%s", opts);
    snprintf(c9, sizeof c9, "$B draw " T9M "%s -o d.svg", sets);
    const row rows[] = {
        {GEN, c1, 2, "chargesim run: too many overrides"},
        {GEN, c2, 2, "chargesim run: too many overrides"},
        {CAT, c3, 2, "chargesim units: more than 32 --set options"},
        {GEN, c4, 2, "chargesim compare: too many overrides"},
        {GEN, c5, 2, "chargesim compare: too many overrides"},
        {GEN, c6, 2, "chargesim compare: too many overrides"},
        {NULL, c7, 2, "chargesim map: too many overrides"},
        {NULL, c8, 2, "chargesim map: too many overrides"},
        {NULL, c9, 2, "chargesim draw: too many overrides"},
    };
    check_rows(rows, sizeof rows / sizeof rows[0]);
}

/* Experiment values: each kind of parameter, each [experiment] key. */
static const row experiment_rows[] = {
    {GEN "; printf '[" A30 "aaaaaaaaaaaaaaaaaaaa]\\nx = 1\\n' >>e.ini", "$B run e.ini", 2,
     "e.ini:5: section name longer than 49 characters"},
    {GEN, "$B run e.ini --set swiftstride=maybe", 2,
     "swiftstride = 'maybe': expected true or false"},
    {GEN, "$B run e.ini --set 'move=uniform(1,2)'", 2,
     "only layout parameters can be drawn per trial"},
    {GEN, "$B run e.ini --set move=0..1000000:1", 2,
     "command line: move = '0..1000000:1': 1000001 values; a sweep may have at most 100000"},
    {GEN,
     "$B run e.ini --set "
     "move=10000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000"
     "00000000000000000000000000000000000000000000000000000..2",
     2, "move: value too long"},
    {GEN, "$B run e.ini --set move=1..21 --set distance=0..999:0.02", 2,
     "1048971 sweep points; at most 1000000"},
    {GEN, "$B run e.ini --set experiment.ruleset=chess", 2, "ruleset = 'chess': expected one of"},
    {GEN, "$B run e.ini --set experiment.seed=x", 2, "seed = 'x': expected a whole number"},
    {GEN, "$B run e.ini --set experiment.method=fast", 2, "method = 'fast': expected auto, mc"},
    {GEN, "$B run e.ini --set experiment.confidence=1", 2, "confidence = '1': expected a number"},
    {GEN, "$B run e.ini --set experiment.precision=2", 2, "precision = '2': expected an interval"},
    {GEN, "$B run e.ini --set experiment.speed=2", 2, "[experiment] unknown key 'speed'"},
    {GEN, "$B run e.ini --set move=abc", 2, "move = 'abc': expected a number or a sweep"},
    {GEN, "$B run e.ini --set move=2000", 2, "move = '2000': expected a value from 0 to 100"},
    {GEN, "$B run e.ini --set move=1..3:0", 2, "a sweep a..b:step needs a <= b and step > 0"},
    {GEN, "$B run e.ini --set move=1..x", 2, "expected a sweep a..b or a..b:step with numbers"},
    {GEN, "$B run e.ini --set 'distance=normal(5,-1)'", 2, "expected sd >= 0 in normal(mean,sd)"},
    {GEN, "$B run e.ini --set 'distance=uniform(5,1)'", 2, "expected a < b in uniform(a,b)"},
    {GEN, "$B run e.ini --set 'distance=normal(x)'", 2, "expected normal(mean,sd) with numbers"},
    {GEN, "$B run e.ini --set 'distance=uniform(-5,3)'", 2, "the range must lie within 0 to 1000"},
    {GEN, "$B run e.ini --set 'distance=normal(5,5000)'", 2,
     "the mean must lie within 0 to 1000 and the sd be at most 1000"},
    {"printf '[experiment]\\nruleset = sovl\\n[params]\\n' >e.ini",
     "$B run e.ini --set units_a=1.5", 2, "units_a = '1.5': expected a whole number"},
    {"printf '[params]\\nmove = 5\\n' >e.ini", "$B run e.ini", 2, "no ruleset chosen"},
    {"printf '[experiment]\\ntrials = 5\\n' >e.ini", "$B run e.ini", 2,
     "no ruleset: add `ruleset = NAME`"},
};

Test(errors, experiment_values)
{
    check_rows(experiment_rows, sizeof experiment_rows / sizeof experiment_rows[0]);
}

/* A ruleset's own checks of its parameters (cs_diag), as run reports them. */
static const row rules_rows[] = {
    {GEN, "$B run e.ini --set preset=w40k --set swiftstride=true --set move=0", 2,
     "swiftstride applies to the tow and whfb8 presets"},
    {GEN, "$B run e.ini --set preset=tow --set dice=3d6", 2, "a preset sets the dice"},
    {GEN, "$B run e.ini --set preset=none --set dice=3d6+d4 --set reroll=one_die", 2,
     "one_die needs a plain NdX(+constant) roll"},
    {"printf '[experiment]\\nruleset = coreheim\\ntrials = 100\\n[params]\\n' >e.ini",
     "$B run e.ini --set intercept_along_min=1.5 --set intercept_along_max=0.5", 2,
     "intercept_along_min = 1.5: must not exceed intercept_along_max"},
    {"printf '[experiment]\\nruleset = coreheim\\ntrials = 100\\n[params]\\n' >e.ini",
     "$B run e.ini --set distance=5 --set climb=1 --set climb_at=8", 2,
     "climb_at = 8: must lie on the route"},
    {"printf '[experiment]\\nruleset = sovl\\ntrials = 100\\n[params]\\n' >e.ini",
     "$B run e.ini --set units_a=0 --set placement=head_on", 2, "head_on needs a1 and b1"},
};

Test(errors, ruleset_checks)
{
    check_rows(rules_rows, sizeof rules_rows / sizeof rules_rows[0]);
}

/* `chargesim units`: sources and mapping files. */
static const row units_rows[] = {
    {"mkdir d; touch d/x.txt", "$B units d", 2, "d: no .cat or .gst file in this directory"},
    {"mkdir d", "$B units d --mapping nowhere", 2, "nowhere"},
    {CAT, "$B units new.cat --mapping \"$R/experiments/mappings\"", 2,
     "new.cat: no mapping for game system gs-new"},
    {CAT "; mkdir maps; cp \"$R/tests/data/units/mappings/new.ini\" maps/a.ini; "
         "cp maps/a.ini maps/b.ini",
     "$B units new.cat --mapping maps", 2, "both fit game system gs-new; choose with --rules"},
    {CAT "; " MAP("'/^param = move/d'"), "$B units units.csv --mapping m.ini", 2,
     "[characteristic Move] has no param"},
    {CAT "; " MAP("'s/^distance = distance/distance = nothing/'"),
     "$B units units.csv --mapping m.ini", 2, "distance `nothing` is not a parameter of generic"},
    {CAT "; " MAP("-e '$a[characteristic Walk]' -e '$aparam = move'"),
     "$B units units.csv --mapping m.ini", 2, "both feed `move`"},
    {CAT "; " MAP("-e '$a[fixed]' -e '$anothing = 1'"), "$B units units.csv --mapping m.ini", 2,
     "[fixed] `nothing` is not a parameter of generic"},
    {CAT "; " MAP("-e '$a[fixed]' -e '$amove = 1'"), "$B units units.csv --mapping m.ini", 2,
     "`move` is both fixed and fed by characteristic Move"},
    {CAT "; " MAP("-e '$a[fixed]' -e '$apreset = tow,whfb8'"),
     "$B units units.csv --mapping m.ini", 2, "[fixed] preset = tow,whfb8: expected one value"},
    {CAT "; " MAP("'s/^range = .*/range = 5..1/'"), "$B units units.csv --mapping m.ini", 2,
     "m.ini: range"},
    {CAT, "$B units units.csv --rules generic --distance 1..2 --set preset=w40k", 2,
     "unit `Footmen`"},
    {CAT "; " MAP("'s/^range = .*/range = 999..1001/'"), "$B units units.csv --mapping m.ini", 2,
     "unit `Footmen` (units.csv:2): distance = 1001: expected 0 to 1000"},
};

Test(errors, units)
{
    check_rows(units_rows, sizeof units_rows / sizeof units_rows[0]);
}

/* A units CSV holding `text` (printf format), read with the generic mapping. */
#define CSV(text) "printf '" text "' >u.csv"
#define UNITS "$B units u.csv --mapping \"$R/experiments/mappings/generic.ini\""

/* `chargesim units` on a units CSV: its header, then each row's cells. */
static const row csv_rows[] = {
    {CSV("name,,move\\nA,generic,4\\n"), UNITS, 2, "u.csv:1: column 2 has no name"},
    {CSV("name,ruleset,move,move\\nA,generic,4,4\\n"), UNITS, 2, "column `move` appears twice"},
    {CSV("ruleset,move\\ngeneric,4\\n"), UNITS, 2, "no `name` column"},
    {CSV("name,move\\nA,4\\n"), UNITS, 2, "no `ruleset` column and no --rules"},
    {CSV("name,ruleset," A30 A30 A30 "x\\nA,generic,4\\n"), UNITS, 2, "is too long"},
    {CSV("name,ruleset,move\\nA,asoiaf,4\\n"), UNITS, 2, "no mapping names ruleset `asoiaf`"},
    {CSV("name,ruleset,move\\nA,generic,4\\n") "; mkdir maps; "
         "cp \"$R/experiments/mappings/generic.ini\" maps/a.ini; cp maps/a.ini maps/b.ini",
     "$B units u.csv --mapping maps", 2, "both name ruleset `generic`; pass one with --mapping"},
    {CSV("name,ruleset,move\\nA,generic\\n"), UNITS, 2, "2 fields, the header has 3"},
    {CSV("name,ruleset,move\\nA,asoiaf,4\\n"), UNITS " --rules generic", 2,
     "column `ruleset`: `asoiaf`, but --rules says `generic`"},
    {CSV("name,ruleset,move\\n,generic,4\\n"), UNITS, 2, "column `name` is empty"},
    {CSV("name,ruleset,move\\nA,,4\\n"), UNITS, 2,
     "column `ruleset` is empty and there is no --rules"},
    {CSV("name,ruleset,points,move\\nA,generic,-5,4\\n"), UNITS, 2,
     "column `points`: `-5` is not a number >= 0"},
    {CSV("name,ruleset,base,move\\nA,generic,25y50,4\\n"), UNITS, 2,
     "column `base`: `25y50` is not a base size WxD in mm"},
    {CSV("name,ruleset,speed,move\\nA,generic,4,4\\n"), UNITS, 2,
     "column `speed` is not a parameter of ruleset generic"},
    {CSV("name,ruleset,distance,move\\nA,generic,4,4\\n"), UNITS, 2,
     "column `distance` is the table's distance, set by --distance"},
};

/* A mapping file's own keys, each read by the generic mapping plus lines. */
#define MAPADD(lines) CSV("name,ruleset,move\\nA,generic,4\\n") "; " MAP(lines)
#define MAPUNITS "$B units u.csv --mapping m.ini"
static const row mapping_rows[] = {
    /* inih would cut a section name of 50 characters to 49 without a word */
    {MAPADD("-e '$a [characteristic " A30 "abcde]' -e '$a param = move'"), MAPUNITS, 2,
     "m.ini:18: section name longer than 49 characters"},
    {MAPADD("-e '/^range/a metrics = a,,b'"), MAPUNITS, 2,
     "metrics: expected names separated by commas"},
    {MAPADD("-e '/^range/a cost = " A30 A30 A30 "'"), MAPUNITS, 2, "value of `cost` is too long"},
    {MAPADD("-e '$a format = feet'"), MAPUNITS, 2,
     "format `feet`: expected inches, target, number or text"},
    {MAPADD("-e '$a required = maybe'"), MAPUNITS, 2, "required: expected yes or no"},
    {MAPADD("-e '$a alternate = maybe'"), MAPUNITS, 2, "alternate: expected yes or no"},
    {MAPADD("-e '$a where = Move'"), MAPUNITS, 2, "where: expected `CHARACTERISTIC = VALUE`"},
    {MAPADD("-e '$a [fixed]' -e '$a dice = 2d6' -e '$a dice = 3d6'"), MAPUNITS, 2,
     "[fixed] `dice` given twice"},
    {MAPADD("-e '$a [fixed]' -e '$a dice = " A30 A30 A30 "'"), MAPUNITS, 2,
     "[fixed] `dice` is too long"},
    {MAPADD("-e '$a [locked]' -e '$a dice = why'"), MAPUNITS, 2,
     "[locked] `dice` is not a [fixed] parameter above it"},
    /* The Old World's keys (issue 32) and the CSV's `when` (issue 28). */
    {MAPADD("-e '$a when = edition'"), MAPUNITS, 2, "when: expected `PARAMETER = VALUE`"},
    {MAPADD("-e '$a mount = maybe'"), MAPUNITS, 2, "mount: expected yes or no"},
    {MAPADD("-e '$a when = nothing = 3'"), MAPUNITS, 2,
     "m.ini: [characteristic Move] when `nothing` is not a parameter of generic"},
    {MAPADD("-e '/^range/a variant = nothing'"), MAPUNITS, 2,
     "m.ini: variant `nothing` is not a parameter of generic"},
    {MAPADD("-e '/^range/a speed = move, a, b, c, d'"), MAPUNITS, 2, "more than 4 speed"},
    {MAPADD("-e '/^range/a speed = move, dice'"), MAPUNITS, 2,
     "speed `dice` is not a numeric parameter of generic"},
    {MAPADD("-e '$a [rule Fly]' -e '$a speed = 1'"), MAPUNITS, 2,
     "unknown key `speed` in [rule Fly] (param, value, otherwise, note, row, row_param, "
     "declare, option, only_type, option_note)"},
    {MAPADD("-e '$a [rule Fly]' -e '$a value = 1'"), MAPUNITS, 2,
     "m.ini: [rule Fly] has neither param, note, row nor option_note"},
    {MAPADD("-e '$a [rule Fly]' -e '$a param = nothing'"), MAPUNITS, 2,
     "m.ini: [rule Fly] param `nothing` is not a parameter of the ruleset"},
    {MAPADD("-e '$a [rule Fly]' -e '$a param = move'"), MAPUNITS, 2,
     "m.ini: [rule Fly] param `move` is the distance, fixed or fed by a characteristic"},
    {MAPADD("-e '$a [rule Fly]' -e '$a param = swiftstride' -e '$a value = maybe'"), MAPUNITS,
     2, "swiftstride = 'maybe': expected true or false"},
    {MAPADD("-e '$a [rule Fly]' -e '$a param = reroll' -e '$a value = failed' "
            "-e '$a otherwise = none,failed'"),
     MAPUNITS, 2,
     "m.ini: [rule Fly] lists 1 param: value (and otherwise, if given) must list as many"},
    {MAPADD("-e '$a [rule Fly]' -e '$a param = engagement' -e '$a value = 0..2'"), MAPUNITS, 2,
     "m.ini: [rule Fly] engagement = 0..2: expected one value"},
    {MAPADD("-e '$a [rule Fly]' -e '$a note = n' -e '$a option = row'"), MAPUNITS, 2,
     "m.ini: [rule Fly] option = row needs a param and no row"},
    {MAPADD("-e '$a [rule Fly]' -e '$a note = n' -e '$a option = maybe'"), MAPUNITS, 2,
     "[rule Fly] option = maybe: expected row or no"},
};

Test(errors, mapping_keys)
{
    check_rows(mapping_rows, sizeof mapping_rows / sizeof mapping_rows[0]);
}

Test(errors, units_csv)
{
    check_rows(csv_rows, sizeof csv_rows / sizeof csv_rows[0]);
}

/* A BattleScribe file holding `xml` (printf format) beside the test
 * system's .gst, read with its mapping. */
#define BS(name, xml)                                                                              \
    "cp \"$R/tests/data/units/new.gst\" .; printf '<?xml version=\"1.0\"?>\\n" xml "\\n' >" name
#define BSUNITS(name) "$B units " name " --mapping \"$R/tests/data/units/mappings/new.ini\""
static const row bs_rows[] = {
    /* compressed catalogues are read as they are: named, not "malformed" */
    {"cp \"$R/tests/data/units/new.gst\" .; gzip -c \"$R/tests/data/units/new.cat\" >n.cat",
     "$B units n.cat", 2, "n.cat: a gzip file, not XML: unpack it first"},
    {"cp \"$R/tests/data/units/new.gst\" .; printf 'PK\\003\\004rest' >z.cat", "$B units z.cat", 2,
     "z.cat: a zip file, not XML: unpack it first (a .catz or .gstz is a zip archive)"},
    {BS("a.cat", "<foo/>"), BSUNITS("a.cat"), 2,
     "a.cat:2: root element <foo> is not a BattleScribe <catalogue> or <gameSystem>"},
    {BS("b.cat", "<catalogue id=\"c\" name=\"n\"/>"), BSUNITS("b.cat"), 2,
     "b.cat:2: <catalogue> has no gameSystemId"},
    {BS("c.cat", "<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\">\\n<entryLinks>"
                 "<entryLink id=\"x\" name=\"L\" type=\"selectionEntry\"/></entryLinks>\\n"
                 "</catalogue>"),
     BSUNITS("c.cat"), 2, "c.cat:3: <entryLink> `L` has no targetId"},
    {BS("e.gst", "<gameSystem name=\"n\"/>"), BSUNITS("e.gst"), 2,
     "e.gst:2: <gameSystem> has no id"},
    /* A catalogue link (issue 32) to a catalogue that is not beside it. */
    {BS("l.cat", "<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\">\n<catalogueLinks>"
                 "<catalogueLink id=\"k\" name=\"Lib\" targetId=\"nowhere\" type=\"catalogue\"/>"
                 "</catalogueLinks>\n</catalogue>"),
     BSUNITS("l.cat"), 2,
     "l.cat:3: <catalogueLink> `Lib`: no catalogue (.cat) with id nowhere beside it"},
    /* 23 linked catalogues: more than a read holds. */
    {"cp \"$R/tests/data/units/new.gst\" .; { printf '<catalogue id=\"c\" name=\"n\" "
     "gameSystemId=\"gs-new\"><catalogueLinks>'; for i in $(seq 23); do printf "
     "'<catalogueLink targetId=\"k%s\"/>' $i; printf '<catalogue id=\"k%s\" name=\"k\" "
     "gameSystemId=\"gs-new\"/>' $i >k$i.cat; done; printf '</catalogueLinks></catalogue>'; "
     "} >m.cat",
     BSUNITS("m.cat"), 2, "m.cat: more than 22 linked catalogues"},
    /* 24: the limit met among the links themselves, before the game system. */
    {"cp \"$R/tests/data/units/new.gst\" .; { printf '<catalogue id=\"c\" name=\"n\" "
     "gameSystemId=\"gs-new\"><catalogueLinks>'; for i in $(seq 24); do printf "
     "'<catalogueLink targetId=\"k%s\"/>' $i; printf '<catalogue id=\"k%s\" name=\"k\" "
     "gameSystemId=\"gs-new\"/>' $i >k$i.cat; done; printf '</catalogueLinks></catalogue>'; "
     "} >m.cat",
     BSUNITS("m.cat"), 2, "m.cat: more than 22 linked catalogues"},
    /* A unit that must take 33 mounts: more rows than a unit holds. */
    {"cp \"$R/tests/data/units/new.gst\" .; sed '/^\\[units\\]/a mount_type = mount' "
     "\"$R/tests/data/units/mappings/new.ini\" >mt.ini; { printf '<?xml version=\"1.0\"?>\\n"
     "<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\"><selectionEntries>"
     "<selectionEntry id=\"u\" name=\"U\" type=\"unit\"><selectionEntries>'; "
     "for i in $(seq 33); do printf '<selectionEntry id=\"m%s\" name=\"M%s\" type=\"upgrade\" "
     "subType=\"mount\"><constraints><constraint type=\"min\" field=\"selections\" "
     "scope=\"parent\" value=\"1\"/></constraints></selectionEntry>' $i $i; done; "
     "printf '</selectionEntries></selectionEntry></selectionEntries></catalogue>\\n'; } >k.cat",
     "$B units k.cat --mapping mt.ini", 2, "k.cat:2: unit `U` must take more than 32 mounts"},
};

Test(errors, battlescribe)
{
    check_rows(bs_rows, sizeof bs_rows / sizeof bs_rows[0]);
}

/* The sovl ruleset's terrain text, and a dice expression too wide to enumerate. */
#define SOVL "printf '[experiment]\\nruleset = sovl\\ntrials = 100\\n[params]\\n' >e.ini"
#define P4 "solid: 0,0 1,0 1,1; "
static const row text_rows[] = {
    {SOVL, "$B run e.ini --set 'terrain=lava: 0,0 1,0 1,1'", 2,
     "column 1: expected one of the parameter's kinds"},
    {SOVL, "$B run e.ini --set 'terrain=solid: 0,0 1,0 x'", 2, "expected a vertex x,y"},
    {SOVL, "$B run e.ini --set 'terrain=solid: 0,0 1 1'", 2, "expected ',' between x and y"},
    {SOVL, "$B run e.ini --set 'terrain=solid: 0,0 1,'", 2, "expected the vertex's y"},
    {SOVL, "$B run e.ini --set 'terrain=" P4 P4 P4 P4 "solid: 0,0 1,0 1,1'", 2,
     "column 81: at most 4 pieces"},
    {SOVL,
     "$B run e.ini --set "
     "'terrain=solid: 0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 8,0 9,0 10,0 11,0 12,0'",
     2,
     "at most 12 vertices per piece"},
    {NULL, "$B dice '100d100!'", 2,
     "the totals span more than 4096 values (CS_DIST_CAP); sample it with --trials N"},
};

Test(errors, texts)
{
    check_rows(text_rows, sizeof text_rows / sizeof text_rows[0]);
}

/* `chargesim rerun`: what the metadata must hold. */
static const row rerun_rows[] = {
    {NULL, "$B rerun nothing.json", 2, "nothing.json"},
    {META("{}"), "$B rerun m.json", 2, "no chargesim:table"},
    {META("{\"chargesim:table\":\"tally\"}"), "$B rerun m.json", 2,
     "chargesim:table 'tally': rerun makes summary, pivot, dist and dice tables again"},
    {META("{\"chargesim:table\":\"dice\"}"), "$B rerun m.json", 2,
     "no chargesim:dice expression and method"},
    {META("{\"chargesim:table\":\"dice\",\"chargesim:dice\":{\"expression\":\"2d6\","
          "\"method\":\"mc\"}}"),
     "$B rerun m.json", 2, "chargesim:dice lacks trials, seed or confidence"},
    {META("{\"chargesim:table\":\"summary\",\"chargesim:experiment\":{\"ruleset\":\"generic\"}}"),
     "$B rerun m.json", 2, "chargesim:experiment has no text 'name'"},
    {META("{\"chargesim:table\":\"summary\",\"chargesim:experiment\":{" EXP_TEXTS "}}"),
     "$B rerun m.json", 2, "chargesim:experiment has no number 'confidence'"},
    {META("{\"chargesim:table\":\"summary\",\"chargesim:experiment\":{" EXP_TEXTS
          ",\"confidence\":0.95,\"precision\":0}}"),
     "$B rerun m.json", 2, "chargesim:experiment has no parameters"},
    {META("{\"chargesim:table\":\"summary\",\"chargesim:experiment\":{" EXP_TEXTS
          ",\"confidence\":0.95,\"precision\":0,\"parameters\":[{\"key\":\"move\"}]}}"),
     "$B rerun m.json", 2, "parameter 0 has no key or value"},
};

Test(errors, rerun)
{
    check_rows(rerun_rows, sizeof rerun_rows / sizeof rerun_rows[0]);
}

/* compare and map: their own options and refusals (issues 19, 20). */
static const row command_rows[] = {
    {GEN, "$B compare e.ini", 2, "no --b override"},
    {GEN, "$B compare e.ini --set move=4 --b move=4", 2, "--b changes nothing"},
    {GEN, "$B compare e.ini --b", 2, "--b needs K=V"},
    {GEN, "$B compare e.ini --b move=6 --format x", 2, "--format 'x': expected csv, md or tex"},
    {GEN, "$B compare e.ini --b move=6 --pivot x", 2, "--pivot 'x': expected ROW:COL"},
    {GEN, "$B compare e.ini --b move=6 --max-trials 5", 2, "--max-trials applies only with"},
    {GEN, "$B compare e.ini --b move=6 --b experiment.replicates=8", 2,
     "--b changes confidence, precision or replicates"},
    {GEN, "$B compare e.ini --b move=6 --replicates 1", 2, "replicates = '1'"},
    {GEN, "$B compare e.ini --b move=6 --bogus", 2, "unknown option '--bogus'"},
    {GEN, "$B compare e.ini e.ini --b move=6", 2, "one experiment file at a time"},
    {GEN, "$B compare e.ini --set distance=1..3 --b distance=1..4", 2,
     "--b changes the sweep shape"},
    {GEN, "$B compare e.ini --b experiment.seed=9", 2, "--b changes trials or seed"},
    {GEN, "$B map e.ini", 2, "has no threat map; maps exist for"},
    {NULL, "$B map " T9M " --x 5..1", 2, "--x '5..1': needs LO <= HI and STEP > 0"},
    {NULL, "$B map " T9M " --y a..b", 2, "--y 'a..b': expected LO..HI:STEP with numbers"},
    {NULL, "$B map " T9M " --x 1", 2, "--x '1': expected LO..HI:STEP"},
    {NULL, "$B map " T9M " --x -1000..1000:0.0001", 2, "more than"},
    {NULL, "$B map " T9M " --plot x.jpg", 2, "--plot 'x.jpg': expected a .svg, .png or .pdf"},
    {NULL, "$B map " T9M " --set distance=1..3", 2, "is swept"},
    {NULL, "$B map " T9M " --max-trials 9", 2, "--max-trials applies only with --precision"},
    {NULL, "$B map " T9M " --bogus", 2, "unknown option '--bogus'"},
    {NULL, "$B map " T9M " " T9M, 2, "one experiment file at a time"},
    {NULL, "$B map " T9M " --set", 2, "--set needs K=V"},
    {NULL, "$B map " T9M " --trials", 2, "--trials needs a value"},
    {NULL, "$B map " T9M " --x", 2, "--x needs LO..HI:STEP"},
};

Test(errors, compare_and_map)
{
    check_rows(command_rows, sizeof command_rows / sizeof command_rows[0]);
}

/* compare and map: inputs they cannot read, outputs they cannot write, and
 * the checks a threat map makes of the ruleset's own parameters. */
#define SOVLM "\"$R/experiments/map-sovl.ini\""
static const row command_input_rows[] = {
    {GEN, "$B compare nothing.ini --b move=6", 2,
     "chargesim compare: nothing.ini: cannot open: No such file or directory"},
    {GEN, "$B compare e.ini --b move=abc", 2,
     "chargesim compare: command line: move = 'abc': expected a number or a sweep"},
    {GEN, "$B compare e.ini --b move=6 --success nothing", 2,
     "chargesim compare: --success 'nothing': unknown outcome 'nothing' of generic"},
    {GEN, "$B compare e.ini --b move=6 --pivot move:distance", 2,
     "chargesim compare: --pivot move:distance: compare pivots delta on the two swept keys of "
     "an experiment that sweeps exactly two"},
    {GEN, "$B compare e.ini --b move=6 -o", 2, "chargesim compare: -o needs a file name"},
    {GEN, "$B compare e.ini --b move=6 --success", 2,
     "chargesim compare: --success needs a list of outcomes"},
    {GEN, "$B compare --b move=6", 2, "usage: chargesim compare EXPERIMENT.ini --b K=V"},
    {NULL, "$B map nothing.ini", 2, "chargesim map: nothing.ini: cannot open: No such file"},
    {NULL, "$B map --x 0..1:1", 2, "usage: chargesim map EXPERIMENT.ini [options]"},
    {NULL, "$B map " T9M " -o /nonexistent/dir/m.csv", 2,
     "chargesim map: /nonexistent/dir/m.csv: cannot write: No such file or directory"},
    {"cp " T9M " m.ini", "$B map m.ini -o m.ini", 2,
     "chargesim map: -o m.ini: that is an input of this run (m.ini); refusing to overwrite it"},
    {NULL, "$B map \"$R/experiments/map-coreheim.ini\" --set 'distance=uniform(2,8)'", 2,
     "chargesim map: distance = uniform(2,8): is drawn per trial, but a threat map sets it "
     "from the cell (distance = hypot(x, y)): fix it or leave it out"},
    {NULL, "$B map " SOVLM " --set 'offset=uniform(-2,2)'", 2,
     "chargesim map: offset = uniform(-2,2): is drawn per trial, but a threat map places b1's "
     "front-edge centre at the cell: fix it or leave it out"},
    {NULL, "$B map " SOVLM " --set placement=fixed --x 0..1:1 --y 5..5:1", 2,
     "chargesim map: placement = fixed: a threat map places b1 head-on against a1: set "
     "placement = head_on"},
    {NULL, "$B rerun", 2, "usage: chargesim rerun FILE.csv-metadata.json [-o FILE]"},
    {NULL, "$B map " T9M " --x -50..50:0.01 --y 0..100:0.01", 2,
     "chargesim map: 100020001 cells: a map takes 1 to 4000000"},
};

Test(errors, command_inputs)
{
    check_rows(command_input_rows, sizeof command_input_rows / sizeof command_input_rows[0]);
}

/* A run that stops at --max-trials before its --precision: the table is
 * written (exit 0) with a warning. rqmc has no worst case to refuse the
 * precision with beforehand. */
static const row warning_rows[] = {
    {GEN,
     "$B run e.ini --set 'distance=uniform(2,12)' --method rqmc --trials 1000 "
     "--precision 0.00001 --max-trials 8000 --quiet",
     0,
     "chargesim run: warning: some points stopped before reaching the requested precision: no "
     "further round fits the cap of 8000 trials (--max-trials)"},
    {NULL,
     "$B map " T9M " --x 0..1:1 --y 6..6:1 --set 'angle=uniform(-10,10)' --method rqmc "
     "--trials 500 --precision 0.00001 --max-trials 4000 --quiet",
     0,
     "chargesim map: warning: some cells stopped before reaching the requested precision: no "
     "further round fits the cap of 4000 trials (--max-trials)"},
};

Test(errors, precision_not_reached)
{
    check_rows(warning_rows, sizeof warning_rows / sizeof warning_rows[0]);
}

/* Sweeps at their limits: values in one sweep, and points whose count
 * would not even fit 64 bits. */
#define T9 "printf '[experiment]\\nruleset = t9a\\ntrials = 100\\n[params]\\n' >e.ini"
static const row sweep_rows[] = {
    {GEN, "$B run e.ini --set distance=0..1000:0.01", 2,
     "chargesim run: command line: distance = '0..1000:0.01': 100001 values; a sweep may have "
     "at most 100000"},
    {T9,
     "$B run e.ini --set charger_models=0..10000 --set target_models=0..10000 "
     "--set other1_x=-200..200:0.005 --set other1_y=-200..200:0.005 "
     "--set other2_x=-200..200:0.005",
     2, "chargesim run: e.ini: too many sweep points"},
};

Test(errors, sweep_limits)
{
    check_rows(sweep_rows, sizeof sweep_rows / sizeof sweep_rows[0]);
}

/* Outputs through descriptors and links that cannot be written. */
static const row output_rows[] = {
    {GEN, "$B run e.ini -o /dev/fd/1000", 2, "chargesim run: /dev/fd/1000: cannot write: Bad file "
                                          "descriptor"},
    {GEN "; ln -s a b; ln -s b a", "$B run e.ini -o a", 2,
     "chargesim run: a: cannot write: Too many levels of symbolic links"},
    {CAT, "$B units units.csv -o units.csv", 2,
     "chargesim units: -o units.csv: that is an input of this run (units.csv); refusing to "
     "overwrite it"},
    /* An input that opens but cannot be read (/proc/self/mem at offset 0:
     * EIO), as a units CSV and as a catalogue */
    {"ln -s /proc/self/mem x.csv", "$B units x.csv", 2, "x.csv: cannot read: Input/output error"},
    {"ln -s /proc/self/mem x.cat", "$B units x.cat", 2, "x.cat: cannot read: Input/output error"},
    /* A file size limit (SIGXFSZ ignored) just past the PDF's last whole
     * 4096-byte buffer: every write while drawing fits, the last flush, at
     * commit, does not. */
    {"$B draw - --set experiment.ruleset=t9a -o ok.pdf",
     "s=$(stat -c %s ok.pdf) && [ $((s % 4096)) -gt 1 ] && trap '' XFSZ && "
     "prlimit --fsize=$((s / 4096 * 4096 + 1)) $B draw - --set experiment.ruleset=t9a -o d.pdf",
     1, "chargesim draw: d.pdf: cannot write: File too large; the old file, if any, is untouched"},
};

Test(errors, outputs)
{
    check_rows(output_rows, sizeof output_rows / sizeof output_rows[0]);
}

/* A mapping at its limits, and a characteristic's value against its
 * parameter's type (a units CSV row, u.csv, read with m.ini). */
#define UCSV(header, row) "printf 'name,ruleset," header "\\nA," row "\\n' >u.csv"
#define ASOIAF_MAP "\"$R/experiments/mappings/asoiaf.ini\""
#define LONG_DIR "$(printf './%.0s' $(seq 260))"
/* The generic mapping as m.ini and a one-unit CSV u.csv. */
#define MAPCOPY                                                                                    \
    CSV("name,ruleset,move\\nA,generic,4\\n") "; cp \"$R/experiments/mappings/generic.ini\" m.ini"
static const row mapping_limit_rows[] = {
    {MAPADD("-e '/^range/a metrics = reach_50,reach_75,reach_90,plus1_speed,points_per_inch_75'"),
     MAPUNITS, 2, "chargesim units: m.ini:13: more than 4 metrics"},
    {MAPADD("-e '$a [fixed]'") "; for i in $(seq 17); do echo \"k$i = 1\" >>m.ini; done",
     MAPUNITS, 2, "chargesim units: m.ini:35: more than 16 fixed parameters"},
    {MAPCOPY "; for i in $(seq 17); do printf '[characteristic C%s]\\nparam = move\\n' $i "
                ">>m.ini; done",
     MAPUNITS, 2, "chargesim units: m.ini:49: more than 16 characteristics"},
    {MAPCOPY "; for i in $(seq 33); do printf '[rule R%s]\\nnote = n\\n' $i >>m.ini; done",
     MAPUNITS, 2, "chargesim units: m.ini:83: more than 32 rules"},
    {MAPADD("-e '$a [characteristic D]' -e '$a param = distance'"), MAPUNITS, 2,
     "m.ini: [characteristic D] feeds the table's distance `distance`"},
    {MAPCOPY, "$B units u.csv --mapping " LONG_DIR "m.ini", 2, "/./m.ini: path too long"},
    {CSV("name,ruleset,move\\nA,generic,4\\n") "; mkdir maps; "
                                               "cp \"$R/experiments/mappings/generic.ini\" maps",
     "$B units u.csv --mapping " LONG_DIR "maps", 2, "/./maps/generic.ini: path too long"},
    {UCSV("move,swiftstride", "generic,4,2") "; " MAP("-e '$a [characteristic S]' "
                                                      "-e '$a param = swiftstride' "
                                                      "-e '$a format = number'"),
     MAPUNITS, 2, "u.csv:2: column `swiftstride`: `2` is not 0 or 1"},
    {UCSV("move,reroll", "generic,4,7") "; " MAP("-e '$a [characteristic R]' "
                                                 "-e '$a param = reroll' -e '$a format = number'"),
     MAPUNITS, 2, "u.csv:2: column `reroll`: `7` is not the index of one of the parameter's "
                  "choices"},
    {UCSV("move,dice", "generic,4,7") "; " MAP("-e '$a [characteristic D]' "
                                               "-e '$a param = dice' -e '$a format = number'"),
     MAPUNITS, 2, "u.csv:2: column `dice`: `7` is a number but the parameter takes text (map "
                  "it with format = text)"},
    {UCSV("speed,attack_dice", "asoiaf,5,4.5"), "$B units u.csv --mapping " ASOIAF_MAP, 2,
     "u.csv:2: column `attack_dice`: `4.5` is not a whole number"},
    {CAT, "$B units units.csv --distance 5..1", 2,
     "chargesim units: --distance `5..1`: expected 0 <= a <= b"},
};

Test(errors, mapping_limits)
{
    check_rows(mapping_limit_rows, sizeof mapping_limit_rows / sizeof mapping_limit_rows[0]);
}

/* BattleScribe links: an info link to what is not a profile, and chains of
 * links deeper than the reader follows (a catalogue of 300 groups, each
 * linking the next, from the top level and from inside a unit). */
#define CHAIN(name, start)                                                                         \
    "cp \"$R/tests/data/units/new.gst\" .; { echo '<?xml version=\"1.0\"?>'; "                    \
    "echo '<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\">'; echo '" start "'; "          \
    "echo '<sharedSelectionEntryGroups>'; for i in $(seq 300); do "                               \
    "echo \"<selectionEntryGroup id=\\\"g$i\\\" name=\\\"G\\\"><entryLinks><entryLink "           \
    "id=\\\"l$i\\\" name=\\\"L\\\" targetId=\\\"g$((i+1))\\\" type=\\\"selectionEntryGroup\\\"/>" \
    "</entryLinks></selectionEntryGroup>\"; done; "                                               \
    "echo '</sharedSelectionEntryGroups></catalogue>'; } >" name
/* The same chain of info groups linked by infoLinks, from inside a unit
 * (followed for the unit's options only). */
#define INFO_CHAIN(name)                                                                           \
    "cp \"$R/tests/data/units/new.gst\" .; { echo '<?xml version=\"1.0\"?>'; "                   \
    "echo '<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\">'; "                           \
    "echo '<selectionEntries><selectionEntry id=\"u\" name=\"U\" type=\"unit\"><infoLinks>"     \
    "<infoLink id=\"l0\" name=\"A\" targetId=\"g1\" type=\"infoGroup\"/></infoLinks>"          \
    "</selectionEntry></selectionEntries>'; echo '<sharedInfoGroups>'; for i in $(seq 300); do "  \
    "echo \"<infoGroup id=\\\"g$i\\\" name=\\\"G\\\"><infoLinks><infoLink id=\\\"l$i\\\" "            \
    "name=\\\"L\\\" targetId=\\\"g$((i+1))\\\" type=\\\"infoGroup\\\"/></infoLinks></infoGroup>\"; "  \
    "done; echo '</sharedInfoGroups></catalogue>'; } >" name
#define LINK0 "<entryLinks><entryLink id=\"l0\" name=\"A\" targetId=\"g1\" type=\"selectionEntryGroup\"/></entryLinks>"
static const row bs_link_rows[] = {
    {BS("i.cat", "<catalogue id=\"c\" name=\"n\" gameSystemId=\"gs-new\">\\n"
                 "<selectionEntries><selectionEntry id=\"u\" name=\"U\" type=\"unit\">\\n"
                 "<infoLinks><infoLink id=\"i\" name=\"I\" targetId=\"u\" type=\"profile\"/>"
                 "</infoLinks></selectionEntry></selectionEntries></catalogue>"),
     BSUNITS("i.cat"), 2, "i.cat:4: <infoLink> of type profile points to <selectionEntry>"},
    {CHAIN("top.cat", LINK0), BSUNITS("top.cat"), 2,
     "top.cat:261: entry links nested deeper than 256"},
    {CHAIN("unit.cat", "<selectionEntries><selectionEntry id=\"u\" name=\"U\" type=\"unit\">" LINK0
                       "</selectionEntry></selectionEntries>"),
     BSUNITS("unit.cat"), 2, "unit.cat:261: entries and links nested deeper than 256"},
    {INFO_CHAIN("info.cat"), BSUNITS("info.cat"), 2,
     "info.cat:261: entries and links nested deeper than 256"},
};

Test(errors, battlescribe_links)
{
    check_rows(bs_link_rows, sizeof bs_link_rows / sizeof bs_link_rows[0]);
}

/* Units CSVs at their limits, and a unit the ruleset refuses at a distance
 * the reach search tries (coreheim's climb must lie on the route). */
#define T9A_MAP "\"$R/experiments/mappings/t9a-2nd.ini\""
#define COREHEIM_MAP                                                                               \
    "printf '[units]\\nruleset = coreheim\\nspeed = move\\ndistance = distance\\n"                \
    "range = 9..12\\n[characteristic Move]\\nparam = move\\n' >m.ini"
static const row units_limit_rows[] = {
    {"h=name,ruleset,move; r=A,generic,4; for i in $(seq 63); do h=$h,c$i; r=$r,1; done; "
     "printf '%s\\n%s\\n' \"$h\" \"$r\" >u.csv",
     UNITS, 2, "chargesim units: u.csv:1: more than 64 columns"},
    {UCSV("advance_rate,maximised,minimised,reaction,units_block_sight,failed_die,offset,angle,"
          "charger_width,charger_depth,charger_base_width,charger_base_depth,charger_models,"
          "target_width,target_depth,target_base_width,target_base_depth,target_models,"
          "other1_kind,other1_x,other1_y,other1_angle,other1_width,other1_depth,other2_kind,"
          "other2_x",
          "t9a,4,0,0,hold,true,kept,0,0,5,4,1,1,0,5,4,1,1,0,enemy,0,0,180,0,2,enemy,0"),
     "$B units u.csv --mapping " T9A_MAP, 2, "chargesim units: u.csv:2: more than 24 parameters"},
    /* 24 parameters the mapping does not feed, then its characteristic */
    {UCSV("advance_rate,maximised,minimised,reaction,units_block_sight,failed_die,offset,angle,"
          "charger_width,charger_depth,charger_base_width,charger_base_depth,charger_models,"
          "target_width,target_depth,target_base_width,target_base_depth,target_models,"
          "other1_kind,other1_x,other1_y,other1_angle,other1_width,other1_depth,other2_kind",
          "t9a,4,0,0,hold,true,kept,0,0,5,4,1,1,0,5,4,1,1,0,enemy,0,0,180,0,2,enemy"),
     "$B units u.csv --mapping " T9A_MAP, 2,
     "chargesim units: u.csv:2: unit `A` carries more than 24 values"},
    /* 24 values from the row, then one a [rule NAME] gives every unit */
    {UCSV("advance_rate,maximised,minimised,reaction,units_block_sight,failed_die,offset,angle,"
          "charger_width,charger_depth,charger_base_width,charger_base_depth,charger_models,"
          "target_width,target_depth,target_base_width,target_base_depth,target_models,"
          "other1_kind,other1_x,other1_y,other1_angle,other1_width,other1_depth",
          "t9a,4,0,0,hold,true,kept,0,0,5,4,1,1,0,5,4,1,1,0,enemy,0,0,180,0,2") "; "
     "cp " T9A_MAP " m.ini; printf '[rule R]\\nparam = other2_x\\nvalue = 1\\notherwise = 0\\n' "
     ">>m.ini",
     "$B units u.csv --mapping m.ini", 2,
     "chargesim units: u.csv:2: unit `A` carries more than 24 values"},
    /* another unit 10" ahead: the target reaches it at a distance of the table */
    {UCSV("advance_rate", "t9a,4"),
     "$B units u.csv --mapping " T9A_MAP " --set other1_width=4 --set other1_y=10 --distance 1..12",
     2, "chargesim units: unit `A` (u.csv:2) at distance = 6: other1_x: this unit overlaps"},
    {UCSV("move", "coreheim,5") "; " COREHEIM_MAP,
     "$B units u.csv --mapping m.ini --set climb=1 --set climb_at=8", 2,
     "chargesim units: unit `A` (u.csv:2) at distance = 2e-06: climb_at: must lie on the route: "
     "at most distance (the reach search tries every distance from 2e-06 to 48, whatever "
     "--distance is)"},
};

Test(errors, units_limits)
{
    check_rows(units_limit_rows, sizeof units_limit_rows / sizeof units_limit_rows[0]);
}
