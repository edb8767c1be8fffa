/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim units SOURCE ...`: reads unit profiles (BattleScribe or CSV),
 * analyses each unit exactly at its ruleset's head-on layout, writes one row
 * per unit (issue 9). See the usage text below. The command runs the five
 * stages of unitsrc.h in order: read the source, resolve entries, map
 * characteristics (cs_units_read_source does the three), analyse, table. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/infile.h"
#include "chargesim/output.h"
#include "chargesim/roster.h"
#include "chargesim/unitsrc.h"

static const char usage[] =
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
    "options:\n"
    "  --rules NAME        the ruleset: picks the mapping among those for the\n"
    "                      catalogue's game system; fills a CSV's missing ruleset\n"
    "  --mapping PATH      a mapping file, or a directory of them (default:\n"
    "                      $CS_MAPPINGS, else experiments/mappings beside the\n"
    "                      directory holding this binary, else ./experiments/mappings)\n"
    "  --catalogue PATH    a roster's catalogue (.cat, its .gst beside it), to tell\n"
    "                      its mounts and the list tool's modifiers (default: the\n"
    "                      .cat beside the roster whose id is the roster's\n"
    "                      catalogueId, else the one the repository ships: in\n"
    "                      $CS_DATA, else data/ beside the mappings, else\n"
    "                      PREFIX/share/chargesim/data, or a folder in it)\n"
    "  --set K=V           a ruleset parameter for every unit whose ruleset has it\n"
    "                      (repeatable); one value, not one the units carry, not the\n"
    "                      distance\n"
    "  --distance a..b[:step]  the table's distances in inches (default: the\n"
    "                      first unit's mapping's range; step 1)\n"
    "  -o FILE             write the table to FILE, whole or not at all (default:\n"
    "                      standard output)\n"
    "  --format csv|md|tex csv (default; probabilities in [0, 1]) or a Markdown or\n"
    "                      LaTeX table (percentages)\n"
    "  --quiet             no per-unit notes on standard error, only the counts\n"
    "  -h, --help          this text\n"
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

static bool is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The default mapping directory (see --mapping in the usage). */
static void find_mappings(char *out, size_t cap)
{
    const char *env = getenv("CS_MAPPINGS");
    if (env && env[0]) {
        snprintf(out, cap, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(out, cap, "%s/../experiments/mappings", exe) < (int)cap && is_dir(out))
                return;
        }
    }
    snprintf(out, cap, "experiments/mappings");
}

/* Under MPI rank 0's environment and its binary's place decide for every
 * rank (infile.h), as rank 0 alone looks at the disk. */
static void default_mappings(char *out, size_t cap)
{
    snprintf(out, cap, "experiments/mappings");
    if (cs_infile_reader())
        find_mappings(out, cap);
    cs_infile_share_text(out, cap);
}

/* The shipped catalogues (the repository's data/), where a roster's
 * catalogue is looked for when none is beside it, found as the mappings
 * are: $CS_DATA, else beside the mapping folder `maps` (installed:
 * share/chargesim/data beside share/chargesim/mappings; in the repository:
 * data/ two levels up from experiments/mappings), else the share folder
 * beside the binary's (PREFIX/share/chargesim/data). "" when none is. */
static void find_data(const char *maps, char *out, size_t cap)
{
    out[0] = '\0';
    const char *env = getenv("CS_DATA");
    if (env && env[0]) {
        snprintf(out, cap, "%s", env);
        return;
    }
    char dir[PATH_MAX], exe[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", maps);
    char *slash = strrchr(dir, '/');
    if (!is_dir(dir) && slash) /* a mapping file: its folder */
        *slash = '\0';
    else if (!is_dir(dir))
        snprintf(dir, sizeof dir, ".");
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    if ((slash = strrchr(exe, '/')))
        *slash = '\0';
    const char *const fmt[][2] = {{dir, "%s/../data"},
                                  {dir, "%s/../../data"},
                                  {exe, "%s/../share/chargesim/data"}};
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        if (!fmt[i][0][0])
            continue;
        if (snprintf(out, cap, fmt[i][1], fmt[i][0]) < (int)cap && is_dir(out))
            return;
    }
    out[0] = '\0';
}

/* find_data as rank 0 sees it (default_mappings). */
static void default_data(const char *maps, char *out, size_t cap)
{
    out[0] = '\0';
    if (cs_infile_reader())
        find_data(maps, out, cap);
    cs_infile_share_text(out, cap);
}

static void print_notes(const cs_units *u, bool quiet)
{
    char line[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 96];
    for (int i = 0; !quiet && i < u->n_notes; i++) {
        cs_units_note_text(&u->note[i], line, sizeof line);
        fprintf(stderr, "chargesim units: %s\n", line);
    }
    cs_units_notes_count(u, line, sizeof line);
    fprintf(stderr, "chargesim units: %s\n", line);
}

/* Options that take a value; `--set` collects into sets. */
typedef struct options {
    const char *source, *rules, *mapping, *distance, *out, *catalogue;
    cs_format fmt;
    cs_units_sets sets;
    bool quiet;
    cs_roster_info roster; /* what a roster's heading names (SOURCE a roster) */
} options;

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        const char **slot = NULL;
        const char *name = NULL;
        if (cs_cli_opt(argc, argv, &i, "--rules", &v)) {
            name = "--rules";
            slot = &o->rules;
        } else if (cs_cli_opt(argc, argv, &i, "--mapping", &v)) {
            name = "--mapping";
            slot = &o->mapping;
        } else if (cs_cli_opt(argc, argv, &i, "--distance", &v)) {
            name = "--distance";
            slot = &o->distance;
        } else if (cs_cli_opt(argc, argv, &i, "--catalogue", &v)) {
            name = "--catalogue";
            slot = &o->catalogue;
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            name = "-o";
            slot = &o->out;
        } else if (cs_cli_opt(argc, argv, &i, "--format", &v)) {
            if (!v || !cs_format_parse(v, &o->fmt))
                return cs_cli_fail("units", CS_EINPUT, "--format '%s': expected csv, md or tex",
                                   v ? v : "");
            continue;
        } else if (cs_cli_opt(argc, argv, &i, "--set", &v)) {
            const char *eq = v ? strchr(v, '=') : NULL;
            if (!eq || eq == v)
                return cs_cli_fail("units", CS_EINPUT, "--set '%s': expected KEY=VALUE",
                                   v ? v : "");
            if (o->sets.n == CS_UNITS_MAX_SETS)
                return cs_cli_fail("units", CS_EINPUT, "more than %d --set options",
                                   CS_UNITS_MAX_SETS);
            /* The key is cut in place; both halves live in argv for the run. */
            argv[i][eq - v] = '\0';
            o->sets.key[o->sets.n] = v;
            o->sets.val[o->sets.n++] = eq + 1;
            continue;
        } else if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cs_cli_fail("units", CS_EINPUT,
                               "unknown option '%s' (see chargesim units "
                               "--help)",
                               a);
        } else if (o->source) {
            return cs_cli_fail("units", CS_EINPUT, "one SOURCE at a time ('%s' and '%s')",
                               o->source, a);
        } else {
            o->source = a;
            continue;
        }
        if (!v)
            return cs_cli_fail("units", CS_EINPUT, "%s needs a value", name);
        *slot = v;
    }
    if (!o->source) {
        fputs(usage, stderr);
        return 2;
    }
    return -1;
}

/* What the stages make, freed together. */
typedef struct pipeline {
    cs_units_mapping *maps;
    int n_maps;
    cs_units units;      /* stages 1 to 3 */
    cs_units_grid g;     /* the table's distances */
    cs_unit_result *res; /* stage 4, one per unit */
    double *p;           /* their p_success columns */
    cs_table table;      /* stage 5 */
} pipeline;

/* Stages 1 to 3: the mappings, the source read and resolved, its units'
 * values mapped (cs_units_read_source); then the notes, --set checked
 * against the units and the distances. A bad --distance is reported
 * before any catalogue is read. */
static cs_status read_units(options *o, pipeline *pl, cs_error *err)
{
    cs_status st = CS_OK;
    if (o->distance) {
        cs_error gerr;
        if ((st = cs_units_grid_parse(o->distance, &pl->g, &gerr)) != CS_OK)
            cs_error_set(err, st, "--distance %s", gerr.msg);
    }
    if (st == CS_OK)
        st = cs_units_mapping_load_path(o->mapping, &pl->maps, &pl->n_maps, err);
    pl->units.sets = &o->sets;
    const bool roster = cs_roster_is(o->source);
    if (st == CS_OK && o->catalogue && !roster)
        st = cs_error_set(err, CS_EINPUT, "--catalogue %s: only a roster (.ros, .rosz, .json) "
                          "looks its entries up in a catalogue", o->catalogue);
    char data[PATH_MAX];
    if (st == CS_OK && roster)
        default_data(o->mapping, data, sizeof data);
    if (st == CS_OK && roster)
        st = cs_roster_read(o->source, pl->maps, pl->n_maps, o->rules, o->catalogue,
                            data[0] ? data : NULL, &pl->units, &o->roster, err);
    else if (st == CS_OK)
        st = cs_units_read_source(o->source, pl->maps, pl->n_maps, o->rules, &pl->units, err);
    if (st == CS_OK) {
        print_notes(&pl->units, o->quiet);
        st = cs_units_check_sets(&pl->units, &o->sets, err);
    }
    if (st == CS_OK && !o->distance) {
        /* The first unit's mapping's range, checked when the mapping was
         * loaded, or the default. */
        cs_error gerr;
        const cs_units *u = &pl->units;
        st = cs_units_grid_parse(u->n > 0 ? u->unit[0].map->range : "1..24", &pl->g, &gerr);
        if (st != CS_OK)
            *err = gerr;
    }
    return st;
}

/* A mapping as the table names it: its file name. The default directory
 * lies wherever the binary was installed; a path there would make the same
 * table differ between two clones (its SHA-256 in the metadata pins it). */
static const char *mapping_name(const cs_units_mapping *m)
{
    const char *slash = strrchr(m->path, '/');
    return slash ? slash + 1 : m->path;
}

/* What the table was made with, for its heading and metadata: each
 * ruleset with its edition or preset (the mapping's variant parameter, as
 * the analysis resolved it) and the mapping, once each, in the order met. */
static void about(const pipeline *pl, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < pl->units.n; i++) {
        const cs_unit *u = &pl->units.unit[i];
        const cs_units_mapping *m = u->map;
        char one[CS_UNITS_PATH + 4 * CS_UNITS_TEXT];
        snprintf(one, sizeof one, "%s%s%s%s%s, mapping %s", m->rs->name, m->variant[0] ? " " : "",
                 m->variant, m->variant[0] ? " " : "", pl->res[i].variant, mapping_name(m));
        if (strstr(buf, one))
            continue;
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", one);
    }
}

/* Stage 5: the table (src/io/units/units_table.c). */
static cs_status tabulate(const options *o, pipeline *pl, const char *what, cs_error *err)
{
    const cs_units_grid *g = &pl->g;
    char title[4 * PATH_MAX + 4 * CS_UNITS_NAME], list[2 * CS_UNITS_NAME + CS_UNITS_TEXT + 64];
    const cs_roster_info *r = &o->roster;
    /* A roster's table names the list, not the file: its three forms give
     * the same bytes. */
    char pts[CS_UNITS_TEXT + 32] = "";
    if (r->has_points)
        snprintf(pts, sizeof pts, ", %g %s", r->points, r->cost);
    if (r->system_id[0])
        snprintf(list, sizeof list, "list `%s`, %s%s", r->name, r->system, pts);
    /* A hand-written file without BattleScribe's XML namespace is read,
     * and the heading says which (issue 50). */
    char plain[PATH_MAX] = "";
    for (int i = 0; i < pl->units.n_inputs; i++) {
        const char *path = pl->units.input[i].path, *slash = strrchr(path, '/');
        size_t n = strlen(plain);
        if (pl->units.input[i].no_namespace)
            snprintf(plain + n, sizeof plain - n, "%s%s", n ? ", " : "; without BattleScribe's XML "
                     "namespace: ", slash ? slash + 1 : path);
    }
    snprintf(title, sizeof title,
             "Charge odds per unit, %s (%s; method exact, head-on; distances %g to %g by %g in%s)",
             r->system_id[0] ? list : o->source, what, g->lo,
             cs_units_grid_at(g, cs_units_grid_count(g) - 1), g->step, plain);
    cs_status st = cs_units_table(&pl->units, pl->res, g, o->fmt, title, &pl->table);
    if (st != CS_OK)
        cs_error_set(err, st, "out of memory");
    return st;
}

/* The files the table was made from, for its metadata: every source file
 * read, then each mapping used. *files is malloc'ed. */
static cs_status provenance(const pipeline *pl, cs_csvw_file **files, int *n, cs_error *err)
{
    const cs_units *u = &pl->units;
    *n = 0;
    *files = calloc((size_t)(u->n_inputs + pl->n_maps + 1), sizeof **files);
    if (!*files)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    for (int i = 0; i < u->n_inputs; i++)
        (*files)[(*n)++] = (cs_csvw_file){u->input[i].path, u->input[i].sha256};
    for (int k = 0; k < pl->n_maps; k++)
        for (int i = 0; i < u->n; i++)
            if (u->unit[i].map == &pl->maps[k]) {
                (*files)[(*n)++] = (cs_csvw_file){mapping_name(&pl->maps[k]), pl->maps[k].sha256};
                break;
            }
    return CS_OK;
}

int cs_cli_units(int argc, char **argv)
{
    options o = {.fmt = CS_FORMAT_CSV};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* -o naming the source (or '') is refused before anything is read. */
    cs_error oerr;
    if (cs_output_check_inputs(o.out, "-o", &o.source, 1, &oerr) != CS_OK)
        return cs_cli_fail_err("units", &oerr);
    char mapdir[PATH_MAX];
    if (!o.mapping) {
        default_mappings(mapdir, sizeof mapdir);
        o.mapping = mapdir;
    }
    cs_error err = {0};
    pipeline pl = {0};
    char what[2 * PATH_MAX] = "";
    cs_csvw_file *files = NULL;
    int n_files = 0;
    cs_status st = read_units(&o, &pl, &err);
    if (st == CS_OK)
        st = cs_units_analyse_all(&pl.units, &o.sets, &pl.g, &pl.res, &pl.p, &err);
    if (st == CS_OK) {
        about(&pl, what, sizeof what);
        st = tabulate(&o, &pl, what, &err);
    }
    if (st == CS_OK)
        st = provenance(&pl, &files, &n_files, &err);
    if (st == CS_OK) {
        /* The source may be a folder of catalogues: every file read is
         * named with its digest. */
        cs_csvw_source meta = {.kind = CS_CSVW_UNITS, .command = "units", .argc = argc,
                               .argv = argv, .csv_path = o.out, .files = files,
                               .n_files = n_files, .about = what,
                               .describe = cs_units_describe, .describe_ctx = &pl.units};
        rc = cs_cli_write_tables_meta("units", o.out, &pl.table, 1, o.fmt, &meta);
    } else {
        rc = cs_cli_fail_err("units", &err);
    }
    free(files);
    cs_table_free(&pl.table);
    free(pl.p);
    free(pl.res);
    cs_units_free(&pl.units);
    free(pl.maps);
    return rc;
}
