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
    char c1[8300], c2[8300], c3[2200];
    snprintf(c1, sizeof c1, "$B run e.ini%s", sets);
    snprintf(c2, sizeof c2, "$B run e.ini%s", opts);
    snprintf(c3, sizeof c3, "$B units units.csv%s", units);
    const row rows[] = {
        {GEN, c1, 2, "chargesim run: too many overrides"},
        {GEN, c2, 2, "chargesim run: too many overrides"},
        {CAT, c3, 2, "chargesim units: more than 32 --set options"},
    };
    check_rows(rows, sizeof rows / sizeof rows[0]);
}

/* Experiment values: each kind of parameter, each [experiment] key. */
static const row experiment_rows[] = {
    {GEN, "$B run e.ini --set swiftstride=maybe", 2,
     "swiftstride = 'maybe': expected true or false"},
    {GEN, "$B run e.ini --set 'move=uniform(1,2)'", 2,
     "only layout parameters can be drawn per trial"},
    {GEN, "$B run e.ini --set move=0..1000000:1", 2, "more than 100000 sweep values"},
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
    {META("{\"chargesim:table\":\"dist\",\"chargesim:experiment\":{" EXP_TEXTS
          ",\"confidence\":0.95,\"precision\":0,\"parameters\":[]}}"),
     "TMPDIR=/nonexistent/dir $B rerun m.json", 1, "cannot make a temporary directory"},
};

Test(errors, rerun)
{
    check_rows(rerun_rows, sizeof rerun_rows / sizeof rerun_rows[0]);
}

/* compare and map: their own options and refusals (issues 19, 20). */
#define T9M "\"$R/experiments/map-t9a.ini\""
static const row command_rows[] = {
    {GEN, "$B compare e.ini", 2, "no --b override"},
    {GEN, "$B compare e.ini --set move=4 --b move=4", 2, "--b changes nothing"},
    {GEN, "$B compare e.ini --b", 2, "--b needs K=V"},
    {GEN, "$B compare e.ini --b move=6 --format x", 2, "--format 'x': expected csv, md or tex"},
    {GEN, "$B compare e.ini --b move=6 --pivot x", 2, "--pivot 'x': expected ROW:COL"},
    {GEN, "$B compare e.ini --b move=6 --max-trials 5", 2, "--max-trials applies only with"},
    {GEN, "$B compare e.ini --b move=6 --method rqmc", 2, "method rqmc has no paired estimator"},
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
