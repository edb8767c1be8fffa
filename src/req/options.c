/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options of each command, as data; see include/chargesim/options.h.
 * The help texts are those --help prints, a line per \n: the layout
 * (indent, column) is cs_opt_help's. */
#include "chargesim/options.h"

#include <stdio.h>
#include <string.h>

#include "chargesim/map.h"
#include "chargesim/parse.h"

/* The page's words on the experiment's settings, one line each: the same
 * fields in run, compare and map. */
#define FIELD_TRIALS                                                                       \
    "random games played for each sweep point (a sweep point: one row, one combination of " \
    "the swept values) under mc, or layouts drawn under conditional and rqmc; exact plays "  \
    "none and ignores this"
#define LABEL_TRIALS "number of trials"
#define FIELD_SEED                                                                      \
    "the starting number of the random draws: the same seed gives the same numbers, " \
    "another seed other draws"
#define LABEL_SEED "random seed"
#define FIELD_METHOD                                                                        \
    "how to compute: exact (every roll counted, no chance error), mc (Monte Carlo: random " \
    "trials), conditional (exact dice over randomly drawn layouts), rqmc (exact dice over "  \
    "evenly spread random layouts), auto (the best this scenario allows)"
#define LABEL_METHOD "how to compute"
#define FIELD_CONFIDENCE                                                                  \
    "how sure each interval (lower to upper bound) is to hold the true chance: 0.95 is " \
    "19 times in 20"
#define LABEL_CONFIDENCE "confidence"
#define FIELD_PRECISION \
    "add trials until every interval half-width is at most this (0.001 or 0.1%); 0: off"
#define LABEL_PRECISION "target precision (\u00b1)"
#define FIELD_SUCCESS \
    "the outcomes p_success counts, e.g. charged,caught (default: the ruleset's success set)"
#define LABEL_SUCCESS "counts as a charge"
#define FIELD_X "the target's positions across the table, LO..HI:STEP inches"
#define LABEL_X "target across (x)"
#define FIELD_Y "the target's positions ahead of the charger, LO..HI:STEP inches"
#define LABEL_Y "target ahead (y)"

static const cs_opt run_opts[] = {
    {.name = "--set", .arg = "K=V", .type = CS_OPT_SET, .needs = "K=V", .key = "set",
     .help = "override a key: section.key=value, or key=value for [params]\n"
     "(repeatable; values take the file's syntax, e.g. distance=1..12;\n"
     "a..b:step must land on b)"},
    {.name = "--trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.trials", .field = FIELD_TRIALS, .label = LABEL_TRIALS,
     .help = "trials (or sampled layouts) per sweep point"},
    {.name = "--seed", .arg = "S", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.seed", .field = FIELD_SEED, .label = LABEL_SEED,
     .help = "the seed; the same seed gives the same bytes on any thread count"},
    {.name = "--threads", .arg = "T", .type = CS_OPT_COUNT, .needs = "a value", .key = "threads",
     .help = "worker threads (default: all cores; more are capped at them)"},
    {.name = "--method", .arg = "M", .type = CS_OPT_CHOICE, .needs = "a value",
     .key = "experiment.method", .allowed = "auto|mc|conditional|exact|rqmc", .field = FIELD_METHOD, .label = LABEL_METHOD,
     .help = "auto (default: the best the scenario allows), mc, conditional\n"
     "(exact dice averaged over sampled layouts), exact (fixed layout)\n"
     "or rqmc (exact dice over randomised quasi-Monte Carlo layouts;\n"
     "auto picks it when parameters are drawn per trial)"},
    {.name = "--replicates", .arg = "R", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.replicates",
     .help = "rqmc: independent scrambles, 2 to 64 (default 16); the interval\n"
     "is a Student t on their R means"},
    {.name = "--confidence", .arg = "C", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.confidence", .field = FIELD_CONFIDENCE, .label = LABEL_CONFIDENCE,
     .help = "interval confidence, default 0.95"},
    {.name = "--precision", .arg = "H", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.precision", .field = FIELD_PRECISION, .label = LABEL_PRECISION, .def = "0",
     .help = "add blocks until the interval half-width of every probability\n"
     "column (p_success and each p_<outcome>) is at most H (a\n"
     "proportion, e.g. 0.001, or a percentage, e.g. 0.1%); mc then\n"
     "reports Wilson intervals with continuity correction. Refused\n"
     "if it could need more than 10^9 trials per point"},
    {.name = "--max-trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "max_trials",
     .help = "allow --precision up to N trials per point (at most 4e12)"},
    {.name = "--success", .arg = "LIST", .type = CS_OPT_TEXT, .needs = "a list of outcomes",
     .key = "success", .field = FIELD_SUCCESS, .label = LABEL_SUCCESS, .def = "",
     .help = "outcomes p_success counts, e.g. charged,intercepted (default:\n"
     "the ruleset's; see chargesim rules NAME); the output names it"},
    {.name = "--format", .arg = "F", .type = CS_OPT_CHOICE, .key = "format",
     .allowed = "csv|md|tex",
     .help = "csv (default), md or tex"},
    {.name = "--pivot", .arg = "ROW:COL[:COLUMN]", .type = CS_OPT_TEXT, .key = "pivot",
     .help = "\n"
     "a table of COLUMN (default p_success; probabilities in %):\n"
     "rows one swept key, columns another"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "write to FILE (default: standard output); a CSV gets\n"
     "FILE-metadata.json beside it (CSVW: columns, provenance)"},
    {.name = "--dist", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = "dist",
     .help = "also write distributions in long form (CSV): swept keys,\n"
     "metric, value, count, p, ci_low, ci_high, method"},
    {.name = "--quiet", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "no progress bar (it shows only on a terminal, after 1 s)"},
    {.name = "--checkpoint", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name",
     .key = NULL,
     .help = "keep the run's state in FILE: at least every 60 s, after each\n"
     "round of --precision, and on SIGINT or SIGTERM, which then\n"
     "stop it; the same command run again goes on from it and writes\n"
     "what an uninterrupted run writes; FILE is removed when done.\n"
     "A FILE written by another command, version or experiment, or\n"
     "damaged, is refused (exit 2) and left as it is"},
    {.name = "--checkpoint-every", .arg = "S", .type = CS_OPT_NUMBER, .key = NULL,
     .help = "seconds between checkpoints (default 60)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char run_head[] =
    "usage: chargesim run EXPERIMENT.ini [options]\n"
    "       chargesim run - --set experiment.ruleset=NAME [options]   (no file)\n"
    "\n"
    "Runs every sweep point of the experiment and writes one row per point:\n"
    "the swept keys (and KEY_label where [labels] name their values), trials,\n"
    "successes, p_success, ci_low, ci_high, p_<outcome> for each outcome,\n"
    "mean_<metric> for each measured quantity, (CSV) ci_low_<outcome> and\n"
    "ci_high_<outcome>, and method (then success, with --success).\n"
    "\n"
    "options:\n";
static const char run_tail[] =
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a run with --checkpoint. Output files are\n"
    "written under a temporary name and renamed, never left half-written.\n";

static const cs_opt compare_opts[] = {
    {.name = "--b", .arg = "K=V", .type = CS_OPT_SET, .needs = "K=V", .key = "b",
     .help = "variant B's override, the syntax of --set (repeatable; at\n"
     "least one; it must change something and keep the sweep)"},
    {.name = "--set", .arg = "K=V", .type = CS_OPT_SET, .needs = "K=V", .key = "set",
     .help = "override a key in both variants"},
    {.name = "--trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.trials", .field = FIELD_TRIALS, .label = LABEL_TRIALS,
     .help = "trials (or sampled layouts) per sweep point"},
    {.name = "--seed", .arg = "S", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.seed", .field = FIELD_SEED, .label = LABEL_SEED,
     .help = "the seed; the same seed gives the same bytes on any thread count"},
    {.name = "--threads", .arg = "T", .type = CS_OPT_COUNT, .needs = "a value", .key = "threads",
     .help = "worker threads (default: all cores)"},
    {.name = "--method", .arg = "M", .type = CS_OPT_CHOICE, .needs = "a value",
     .key = "experiment.method", .allowed = "auto|mc|conditional|exact|rqmc", .field = FIELD_METHOD, .label = LABEL_METHOD,
     .help = "auto (default), mc, conditional, rqmc or exact: paired Wald\n"
     "interval on per-trial differences (mc), CLT on per-layout\n"
     "differences of the exact probabilities (conditional), Student t\n"
     "over the replicates' mean differences, A and B on the same\n"
     "scrambled points (rqmc; auto picks it where run does), exact on\n"
     "both sides"},
    {.name = "--replicates", .arg = "R", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.replicates",
     .help = "rqmc: independent scrambles, 2 to 64 (default 16)"},
    {.name = "--confidence", .arg = "C", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.confidence", .field = FIELD_CONFIDENCE, .label = LABEL_CONFIDENCE,
     .help = "interval confidence, default 0.95"},
    {.name = "--precision", .arg = "H", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.precision", .field = FIELD_PRECISION, .label = LABEL_PRECISION, .def = "0",
     .help = "add blocks until every delta's half-width is at most H (rqmc:\n"
     "double every replicate's points; it may stop short, and warns)"},
    {.name = "--max-trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "max_trials",
     .help = "allow --precision up to N trials per point"},
    {.name = "--success", .arg = "LIST", .type = CS_OPT_TEXT, .needs = "a list of outcomes",
     .key = "success", .field = FIELD_SUCCESS, .label = LABEL_SUCCESS, .def = "",
     .help = "outcomes p_success counts, in both variants"},
    {.name = "--format", .arg = "F", .type = CS_OPT_CHOICE, .key = "format",
     .allowed = "csv|md|tex",
     .help = "csv (default), md or tex (delta in percentage points)"},
    {.name = "--pivot", .arg = "ROW:COL", .type = CS_OPT_TEXT, .key = "pivot",
     .help = "a table of delta (p_success; md/tex in percentage points): rows\n"
     "one swept key, columns the other (the experiment sweeps two)"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "write to FILE (default: standard output); a CSV gets\n"
     "FILE-metadata.json beside it (CSVW: columns, provenance)"},
    {.name = "--quiet", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "no progress bar"},
    {.name = "--checkpoint", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name",
     .key = NULL,
     .help = "keep the comparison's state in FILE, as run does: the same\n"
     "command run again goes on from it; removed when done"},
    {.name = "--checkpoint-every", .arg = "S", .type = CS_OPT_NUMBER, .key = NULL,
     .help = "seconds between checkpoints (default 60)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char compare_head[] =
    "usage: chargesim compare EXPERIMENT.ini --b K=V [--b K=V ...] [options]\n"
    "\n"
    "Runs two variants of the experiment on common random numbers: A is the\n"
    "experiment with its --set overrides, B is A with the --b overrides on top.\n"
    "Trial t of each sweep point draws the same layout and dice in both (each\n"
    "trial its own stream), so the difference B - A is far less noisy than that of\n"
    "two independent runs. One row per sweep point: the swept keys, trials,\n"
    "p_success_a, p_success_b, delta (B - A), delta_lo, delta_hi (the paired\n"
    "interval), p_<outcome>_a, _b, _delta, _delta_lo, _delta_hi, method; a swept\n"
    "key that [labels] name has its KEY_label column beside it.\n"
    "\n"
    "options:\n";
static const char compare_tail[] =
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a comparison with --checkpoint.\n";

static const cs_opt dice_opts[] = {
    {.name = "--exact", .arg = NULL, .type = CS_OPT_FLAG, .key = "exact",
     .help = "exact probabilities (the default): columns value, p,\n"
     "p_at_least, p_at_most, p_fraction (CSV: p in lowest terms)"},
    {.name = "--trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value", .key = "trials",
     .def = "", .field = "sample this many rolls instead of the exact distribution",
     .label = "sampled rolls",
     .help = "sample N rolls instead; adds count, ci_low, ci_high (Wilson\n"
     "interval of p) and the intervals of p_at_least and p_at_most"},
    {.name = "--seed", .arg = "S", .type = CS_OPT_COUNT, .needs = "a value", .key = "seed",
     .def = "1", .field = "the seed of the sampling", .label = LABEL_SEED,
     .help = "seed of the sampling (default 1)"},
    {.name = "--threads", .arg = "T", .type = CS_OPT_COUNT, .needs = "a value", .key = "threads",
     .help = "threads for the sampling (the counts do not depend on it;\n"
     "more than the processors are capped at them)"},
    {.name = "--confidence", .arg = "C", .type = CS_OPT_NUMBER, .key = "confidence", .def = "0.95",
     .help = "interval confidence (default 0.95)"},
    {.name = "--format", .arg = "F", .type = CS_OPT_CHOICE, .key = "format",
     .allowed = "csv|md|tex",
     .help = "csv (default), md or tex"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "write to FILE (default: standard output); a CSV gets\n"
     "FILE-metadata.json beside it (CSVW: columns, provenance)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char dice_head[] =
    "usage: chargesim dice EXPR [--exact | --trials N [--seed S] [--threads T]]\n"
    "                      [--confidence C] [--format csv|md|tex] [-o FILE]\n"
    "\n"
    "The distribution of a dice expression in Roll20 notation: NdX, constants,\n"
    "+ and -, keep/drop khK klK dhK dlK, re-roll rV r<V r>V (while it matches)\n"
    "and roV (every matching die once), explode ! (at most 10 extra rolls per\n"
    "die); and our extension rsV: re-roll once a single die that matches (the\n"
    "lowest), before keep/drop (2d6rs1kh1: The Old World's Knights Panther).\n"
    "\n";
static const char dice_tail[] =
    "\n"
    "example: chargesim dice 3d6dl1 --format md\n";

static const cs_opt rules_opts[] = {
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char rules_head[] =
    "usage: chargesim rules [NAME]\n"
    "\n"
    "Without NAME, lists the rulesets. With NAME, prints its readings of the rules,\n"
    "every parameter (type, default, unit, accepted values, help; [layout] ones may\n"
    "be drawn per trial, [assumption] ones are readings chosen where the sources are\n"
    "silent), its outcomes (* = counts as success), each with a line saying what\n"
    "it means at the table, the success set on a line of its own (\"Success:\n"
    "charged\"; chargesim run --success OUTCOME[,OUTCOME...] counts others\n"
    "instead) and its measured quantities.\n"
    "\n";
static const char rules_tail[] =
    "";

static const cs_opt units_opts[] = {
    {.name = "--rules", .arg = "NAME", .type = CS_OPT_RULESET, .needs = "a value", .key = "rules",
     .help = "the ruleset: picks the mapping among those for the\n"
     "catalogue's game system; fills a CSV's missing ruleset"},
    {.name = "--mapping", .arg = "PATH", .type = CS_OPT_FILE, .needs = "a value", .key = "mapping",
     .help = "a mapping file, or a directory of them (default:\n"
     "$CS_MAPPINGS, else experiments/mappings beside the\n"
     "directory holding this binary, else ./experiments/mappings)"},
    {.name = "--catalogue", .arg = "PATH", .type = CS_OPT_FILE, .needs = "a value",
     .key = "catalogue",
     .help = "a roster's catalogue (.cat, its .gst beside it), to tell\n"
     "its mounts and the list tool's modifiers (default: the\n"
     ".cat beside the roster whose id is the roster's\n"
     "catalogueId, else the one the repository ships: in\n"
     "$CS_DATA, else data/ beside the mappings, else\n"
     "PREFIX/share/chargesim/data, or a folder in it)"},
    {.name = "--set", .arg = "K=V", .type = CS_OPT_SET, .key = "set",
     .help = "a ruleset parameter for every unit whose ruleset has it\n"
     "(repeatable); one value, not one the units carry, not the\n"
     "distance"},
    {.name = "--distance", .arg = "a..b[:step]", .type = CS_OPT_TEXT, .needs = "a value",
     .key = "distance",
     .help = "the table's distances in inches (default: the\n"
     "first unit's mapping's range; step 1)"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a value", .key = NULL,
     .help = "write the table to FILE, whole or not at all (default:\n"
     "standard output)"},
    {.name = "--format", .arg = "csv|md|tex", .type = CS_OPT_CHOICE, .key = "format",
     .allowed = "csv|md|tex",
     .help = "csv (default; probabilities in [0, 1]) or a Markdown or\n"
     "LaTeX table (percentages)"},
    {.name = "--quiet", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "no per-unit notes on standard error, only the counts"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char units_head[] =
    "usage: chargesim units SOURCE [options]\n"
    "\n"
    "One row per unit: its profile values, points, p_success at each distance of the\n"
    "table (head-on charge, computed exactly: method exact), the farthest distance\n"
    "at which success is still at least 50%, 75% and 90% (reach_50/75/90, inches),\n"
    "the inches of 75% reach one more inch of speed buys (plus1_speed = reach_75\n"
    "with speed + 1 less reach_75; 1 where the speed is added to the roll), points\n"
    "per inch of 75% reach, and the mapping's metrics (asoiaf: mean_wounds, the\n"
    "charge attack's mean wounds when it connects, disordered charges included;\n"
    "mean_wounds_ordered, those of an ordered charge, misses re-rolled). reach,\n"
    "plus1_speed and the metrics are the unit's: reach and plus1_speed by exact\n"
    "inversion of its range distribution, the metrics where every roll reaches,\n"
    "just beyond base contact; the same whatever --distance is. A unit that may\n"
    "choose a mount has a row per choice, `Duke (on Hippogryph)`, and one on foot\n"
    "unless a mount is compulsory (The Old World). A unit that flies has a second\n"
    "row at its flying characteristic, `Duke (on Royal Pegasus, flying)` at the\n"
    "X of Fly (X) (a T9A flier's at the fly rate of `5\" (8\")`). Points the\n"
    "data does not give (a catalogue unit whose costs are all 0) are empty,\n"
    "never 0. A unit whose rules forbid it to declare a charge (a war machine,\n"
    "Random Movement: the mapping's declare = no) keeps its row at p 0 at every\n"
    "distance, its reach empty, with a note quoting the rule. The heading\n"
    "names each ruleset with its edition or preset and the mapping used; the\n"
    "CSV's metadata lists every file read with its SHA-256.\n"
    "\n"
    "SOURCE   a BattleScribe catalogue (.cat; its .gst and the catalogues it links\n"
    "         must sit beside it), a game system (.gst), a directory of them (every\n"
    "         .cat in it; the .gst files when there is no .cat), or a units CSV\n"
    "         (.csv; columns: name, ruleset, points, base (WxD mm), then any\n"
    "         parameter of the row's ruleset, e.g. a t9a CSV's charge_speed, or\n"
    "         advance_rate with edition 2; an empty cell or - is no value; strict\n"
    "         CSV, so quote an inch mark: \"4\"\"\"), or a roster: your own list as\n"
    "         BattleScribe or New Recruit export it (.ros XML, .rosz a zip of one\n"
    "         .ros, .json New Recruit's JSON): one row per unit of the list, named by\n"
    "         its custom name, with its models, mount and points as the roster\n"
    "         gives them (and a flier's second row, as for a catalogue); the\n"
    "         heading names the list, its game system and points\n"
    "\n"
    "options:\n";
static const char units_tail[] =
    "\n"
    "A unit whose profile lacks a value the mapping requires, or gives one that does\n"
    "not read or two that differ, is left out and named on standard error; it is\n"
    "never guessed; words beside one number (`Standard` and `5\"`) keep the number,\n"
    "with a warning naming both lines. A unit lacking an optional value (asoiaf:\n"
    "its melee attack) is kept without the metrics. A value the mapping locks (T9A\n"
    "2nd edition: edition = 2, its catalogue has no Charge Speed) cannot be changed.\n"
    "A CSV column its row's edition does not use (advance_rate in edition 3) is\n"
    "refused, not ignored. Malformed input (XML, CSV, JSON, mapping, option): exit\n"
    "status 2, with the file, line and element or column, and no output file.\n"
    "\n"
    "A roster carries the profiles the list tool computed, its modifiers applied,\n"
    "so it is read as it stands. A roster marks no mounts: a part of a unit is its\n"
    "mount when the catalogue gives that entry the mapping's mount subtype or\n"
    "group, when New Recruit says it was chosen from that group, or when it gives\n"
    "the unit's mount characteristic (M) a number where the rider's is -. With the\n"
    "catalogue at hand, a profile whose value differs from the catalogue's keeps\n"
    "the roster's, and a note says what changed. A .rosz must hold one entry, not\n"
    "encrypted, of at most 16 MiB; it is inflated in memory, never on disk. A\n"
    "roster of a game system no mapping covers is refused (exit status 2), naming\n"
    "the system and the systems the mappings cover.\n";

static const cs_opt draw_opts[] = {
    {.name = "--set", .arg = "K=V", .type = CS_OPT_SET, .needs = "K=V", .key = "set",
     .help = "override a key, as for chargesim run"},
    {.name = "--point", .arg = "P", .type = CS_OPT_COUNT, .needs = "a value", .key = "point",
     .help = "the sweep point, 0-based, in the order of `run`'s rows (default 0)"},
    {.name = "--trial", .arg = "K", .type = CS_OPT_COUNT, .needs = "a value", .key = "trial",
     .help = "the trial, 0-based (default 0), exactly as --method mc runs it:\n"
     "its drawn values, layout and dice (any trial of the run, found\n"
     "at once: each trial has a generator of its own)"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "the picture: FILE.svg, FILE.png or FILE.pdf by its extension\n"
     "(default: SVG on standard output)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char draw_head[] =
    "usage: chargesim draw EXPERIMENT.ini [--set K=V]... [--point P] [--trial K] -o FILE\n"
    "\n"
    "Draws one trial as its ruleset plays it: the units and terrain to scale on a\n"
    "1-inch grid, the charge path the ruleset uses (t9a: the snaking move and the\n"
    "align move; asoiaf: the straight charge move and the alignment; coreheim: the\n"
    "route with its climb, jump and interceptors; sovl: every declared charge of\n"
    "the phase), a scale bar in inches, a legend, and a caption with the trial's\n"
    "outcome, the range it rolled, the distance it needed and the rules applied.\n"
    "The title names the experiment (or, for `run -`, the ruleset), the swept\n"
    "values, the trial and seed, and the values drawn for this trial (offset,\n"
    "angle...), which decide it.\n"
    "\n";
static const char draw_tail[] =
    "\n"
    "Rulesets without table geometry (generic, sovl_dice) cannot be drawn (exit 2).\n";

static const cs_opt rerun_opts[] = {
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "write to FILE (default: standard output)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char rerun_head[] =
    "usage: chargesim rerun FILE.csv-metadata.json [-o FILE]\n"
    "\n"
    "Makes the CSV again from the values its metadata records (ruleset, every\n"
    "parameter as resolved, trials, seed, method, confidence, precision, pivot; or\n"
    "the dice expression and its sampling), without the experiment file: the same\n"
    "chargesim version gives the same bytes. Written with -o FILE, the new CSV's\n"
    "own metadata records the command that rerun ran, and keeps the original\n"
    "provenance: the experiment file and its SHA-256, where each parameter was set,\n"
    "and the first command, under chargesim:remade_from with this metadata's\n"
    "SHA-256.\n"
    "\n";
static const char rerun_tail[] =
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure.\n";

static const cs_opt map_opts[] = {
    {.name = "--x", .arg = "LO..HI:STEP", .type = CS_OPT_TEXT, .needs = "LO..HI:STEP", .key = "x",
     .field = FIELD_X, .label = LABEL_X, .def = CS_MAP_DEFAULT_X,
     .help = "target positions across, inches (default -24..24:0.5); STEP\n"
     "must land on HI"},
    {.name = "--y", .arg = "LO..HI:STEP", .type = CS_OPT_TEXT, .needs = "LO..HI:STEP", .key = "y",
     .field = FIELD_Y, .label = LABEL_Y, .def = CS_MAP_DEFAULT_Y,
     .help = "target positions ahead, inches (default 0..24:0.5)"},
    {.name = "--set", .arg = "K=V", .type = CS_OPT_SET, .needs = "K=V", .key = "set",
     .help = "override a key: section.key=value, or key=value for [params]"},
    {.name = "--trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.trials", .field = FIELD_TRIALS, .label = LABEL_TRIALS,
     .help = "trials (or sampled layouts) per cell when the layout is random"},
    {.name = "--seed", .arg = "S", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.seed", .field = FIELD_SEED, .label = LABEL_SEED,
     .help = "the seed; the same seed gives the same bytes on any thread count"},
    {.name = "--threads", .arg = "T", .type = CS_OPT_COUNT, .needs = "a value", .key = "threads",
     .help = "worker threads (default: all cores; more are capped at them)"},
    {.name = "--method", .arg = "M", .type = CS_OPT_CHOICE, .needs = "a value",
     .key = "experiment.method", .allowed = "auto|mc|conditional|exact|rqmc", .field = FIELD_METHOD, .label = LABEL_METHOD,
     .help = "auto (default), mc, conditional, exact or rqmc (as for run)"},
    {.name = "--replicates", .arg = "R", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "experiment.replicates",
     .help = "rqmc: independent scrambles, 2 to 64 (default 16)"},
    {.name = "--confidence", .arg = "C", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.confidence", .field = FIELD_CONFIDENCE, .label = LABEL_CONFIDENCE,
     .help = "interval confidence, default 0.95"},
    {.name = "--precision", .arg = "H", .type = CS_OPT_NUMBER, .needs = "a value",
     .key = "experiment.precision", .field = FIELD_PRECISION, .label = LABEL_PRECISION, .def = "0",
     .help = "add blocks until every probability's interval half-width is at\n"
     "most H in each cell (as chargesim run --precision)"},
    {.name = "--max-trials", .arg = "N", .type = CS_OPT_COUNT, .needs = "a value",
     .key = "max_trials",
     .help = "allow --precision up to N trials per cell (at most 4e12)"},
    {.name = "--success", .arg = "LIST", .type = CS_OPT_TEXT, .needs = "a list of outcomes",
     .key = "success", .field = FIELD_SUCCESS, .label = LABEL_SUCCESS, .def = "",
     .help = "outcomes p_success counts (default: the ruleset's)"},
    {.name = "-o", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name", .key = NULL,
     .help = "write the CSV to FILE (default: standard output, unless --plot\n"
     "is given)"},
    {.name = "--plot", .arg = "FILE", .type = CS_OPT_FILE,
     .needs = "a file name (.svg, .png or .pdf)", .key = NULL,
     .help = "the picture: .svg, .png or .pdf by the extension; heatmap with\n"
     "the 50/75/90% contours, the charger to scale, colour bar,\n"
     "cells where the target cannot stand hatched grey, cells\n"
     "where some drawn placements cannot hatched over"},
    {.name = "--quiet", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "no progress bar (it shows only on a terminal, after 1 s)"},
    {.name = "--checkpoint", .arg = "FILE", .type = CS_OPT_FILE, .needs = "a file name",
     .key = NULL,
     .help = "keep the map's state in FILE, as run does: the same command\n"
     "run again goes on from it; removed when done"},
    {.name = "--checkpoint-every", .arg = "S", .type = CS_OPT_NUMBER, .key = NULL,
     .help = "seconds between checkpoints (default 60)"},
    {.name = "--help", .alias = "-h", .arg = NULL, .type = CS_OPT_FLAG, .key = NULL,
     .help = "this text"},
};


static const char map_head[] =
    "usage: chargesim map EXPERIMENT.ini [options]\n"
    "\n"
    "A threat map: p_success of the experiment for every target position on a grid\n"
    "around the charger. Inches on the table: the charger's front-edge centre at\n"
    "(0, 0), facing +y; cell (x, y) puts the target's front-edge centre at (x, y),\n"
    "facing the charger unless the experiment sets its angle (at x = 0 the gap is y).\n"
    "How a game places it: t9a, asoiaf offset = x, distance = y; sovl b1 head-on;\n"
    "coreheim (warriors are points) distance = hypot(x, y). generic and sovl_dice\n"
    "place no units and have no map. Every other value comes from the experiment\n"
    "and --set, drawn ones included (each cell is then estimated like a run; a fixed\n"
    "layout is exact); a swept key is an error. Every cell draws from the same\n"
    "streams (common random numbers), so the cell at x = 0 equals chargesim run at\n"
    "distance y wherever every placement stands (below), and the same seed gives\n"
    "the same bytes on any thread count.\n"
    "\n"
    "Output: one CSV row per cell, y outer, x inner: x, y, trials, p_success,\n"
    "ci_low, ci_high, p_<outcome> for each outcome, p_cannot_stand,\n"
    "ci_low_cannot_stand, ci_high_cannot_stand, method. A cell where the target\n"
    "cannot stand (touching or overlapping the charger, on another unit or on\n"
    "impassable terrain) has trials 0, empty probabilities, p_cannot_stand 1 and\n"
    "method none. Where values are drawn per trial (angle = uniform(-45,45)), a\n"
    "trial whose draws put the target where it cannot stand is no failed charge:\n"
    "it is left out, the cell's odds are over the placements that can stand\n"
    "(trials counts those), and p_cannot_stand is the share left out, with its\n"
    "interval; the picture hatches a cell the more, the larger that share.\n"
    "\n"
    "options:\n";
static const char map_tail[] =
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a map with --checkpoint. Output files are\n"
    "written under a temporary name and renamed, never left half-written.\n";

#define TABLE(c, operand, field, label, width)                             \
    {#c, operand, field, label, c##_head, c##_tail, width, c##_opts,       \
     (int)(sizeof c##_opts / sizeof c##_opts[0])}

/* In the order of `chargesim --help`. */
static const cs_opt_table tables[] = {
    TABLE(run, "input", NULL, NULL, 18),
    TABLE(compare, "input", NULL, NULL, 18),
    TABLE(dice, "expr",
          "a dice expression in Roll20 notation (the Roll20 site's dice syntax): 2d6, "
          "3d6dl1 (drop the lowest), 2d6kh1 (keep the highest), d6ro1 (re-roll 1s once), "
          "d6! (explode on 6), 2d6+4",
          "dice to roll", 14),
    TABLE(rules, "name", NULL, NULL, 12),
    TABLE(units, "source", NULL, NULL, 19),
    TABLE(draw, "input", NULL, NULL, 12),
    TABLE(rerun, "metadata", NULL, NULL, 12),
    TABLE(map, "input", NULL, NULL, 18),
};

int cs_opt_tables(void)
{
    return (int)(sizeof tables / sizeof tables[0]);
}

const cs_opt_table *cs_opt_table_at(int i)
{
    return &tables[i];
}

const cs_opt_table *cs_opt_table_of(const char *cmd)
{
    for (int i = 0; cmd && i < cs_opt_tables(); i++)
        if (strcmp(tables[i].cmd, cmd) == 0)
            return &tables[i];
    return NULL;
}

const cs_opt *cs_opt_find(const cs_opt_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->opt[i].name, name) == 0 ||
            (t->opt[i].alias && strcmp(t->opt[i].alias, name) == 0))
            return &t->opt[i];
    return NULL;
}

const cs_opt *cs_opt_by_key(const cs_opt_table *t, const char *key)
{
    for (int i = 0; i < t->n; i++)
        if (t->opt[i].key && strcmp(t->opt[i].key, key) == 0)
            return &t->opt[i];
    return NULL;
}

const char *cs_opt_suggest(const cs_opt_table *t, const char *word)
{
    char w[64];
    snprintf(w, sizeof w, "%.*s", (int)strcspn(word, "="), word);
    cs_parse_suggest sg = {w, NULL, 0};
    for (int i = 0; i < t->n; i++) {
        if (t->opt[i].alias)
            cs_parse_suggest_offer(&sg, t->opt[i].alias);
        cs_parse_suggest_offer(&sg, t->opt[i].name);
    }
    return sg.best;
}

static void puts_text(cs_text *out, const char *s)
{
    cs_text_put(out, s, strlen(s));
}

/* One option's lines: "  SYNTAX" padded to the column, then its help, each
 * further line at the column; a syntax wider than the column is followed by
 * two blanks, and a help starting with \n goes below it. */
static void help_lines(const cs_opt_table *t, const cs_opt *o, cs_text *out)
{
    char syn[128], pad[64];
    snprintf(syn, sizeof syn, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
             o->arg ? " " : "", o->arg ? o->arg : "");
    int w = (int)strlen(syn);
    snprintf(pad, sizeof pad, "%*s", t->width + 3, "");
    puts_text(out, "  ");
    puts_text(out, syn);
    const char *h = o->help;
    if (h[0] != '\n')
        cs_text_put(out, pad, w <= t->width ? (size_t)(t->width - w + 1) : 2);
    for (;;) {
        size_t n = strcspn(h, "\n");
        cs_text_put(out, h, n);
        puts_text(out, "\n");
        if (!h[n])
            break;
        h += n + 1;
        puts_text(out, pad);
    }
}

/* One field of the page's form: "  LABEL (NAME)", then its help wrapped
 * at 79 columns under a six-blank indent. */
static void field_line(const char *label, const char *name, const char *help, cs_text *out)
{
    puts_text(out, "  ");
    puts_text(out, label);
    puts_text(out, " (");
    puts_text(out, name);
    puts_text(out, ")\n");
    const char *h = help;
    while (*h) {
        size_t n = strlen(h), cut = n;
        if (n > 73) { /* the last blank within the line, else the first after it */
            cut = 73;
            while (cut > 0 && h[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = strcspn(h, " ");
        }
        puts_text(out, "      ");
        cs_text_put(out, h, cut);
        puts_text(out, "\n");
        h += cut;
        while (*h == ' ')
            h++;
    }
}

/* The page's form in the words it shows (issue 52: one source for --help
 * and the page): each field's label, its option, its one-line help. */
static void field_lines(const cs_opt_table *t, cs_text *out)
{
    bool any = t->operand_field != NULL;
    for (int i = 0; i < t->n; i++)
        any = any || t->opt[i].field;
    if (!any)
        return;
    puts_text(out, "\nThe web edition's form, in a player's words:\n");
    if (t->operand_field)
        field_line(t->operand_label ? t->operand_label : t->operand, t->operand,
                   t->operand_field, out);
    for (int i = 0; i < t->n; i++)
        if (t->opt[i].field)
            field_line(t->opt[i].label ? t->opt[i].label : t->opt[i].name, t->opt[i].name,
                       t->opt[i].field, out);
}

void cs_opt_help(const cs_opt_table *t, cs_text *out)
{
    puts_text(out, t->head);
    for (int i = 0; i < t->n; i++)
        help_lines(t, &t->opt[i], out);
    field_lines(t, out);
    puts_text(out, t->tail);
}

const char *cs_opt_type_name(cs_opt_type type)
{
    static const char *const names[] = {"flag", "text",   "set",  "count",
                                        "number", "choice", "file", "ruleset"};
    return names[type];
}

void cs_opt_list(const cs_opt_table *t, cs_text *out)
{
    for (int i = 0; i < t->n; i++) {
        const cs_opt *o = &t->opt[i];
        for (int k = 0; k < 2; k++) {
            const char *spelling = k ? o->alias : o->name;
            if (!spelling)
                continue;
            puts_text(out, spelling);
            puts_text(out, " ");
            puts_text(out, cs_opt_type_name(o->type));
            for (const char *a = o->allowed; a && *a;) {
                size_t n = strcspn(a, "|");
                puts_text(out, " ");
                cs_text_put(out, a, n);
                a += n + (a[n] == '|');
            }
            puts_text(out, "\n");
        }
    }
}
