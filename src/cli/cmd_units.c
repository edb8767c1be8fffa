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
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/roster.h"
#include "chargesim/unitsrc.h"

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

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    options *opt = user;
    if (!o) {
        if (opt->source)
            return cs_cli_fail("units", CS_EINPUT, "one SOURCE at a time ('%s' and '%s')",
                               opt->source, v);
        opt->source = v;
        return 0;
    }
    const char *k = o->key ? o->key : o->name;
    if (strcmp(k, "format") == 0) {
        if (!cs_format_parse(v, &opt->fmt))
            return cs_cli_fail("units", CS_EINPUT, "--format '%s': expected csv, md or tex", v);
    } else if (strcmp(k, "set") == 0) {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v)
            return cs_cli_fail("units", CS_EINPUT, "--set '%s': expected KEY=VALUE", v);
        if (opt->sets.n == CS_UNITS_MAX_SETS)
            return cs_cli_fail("units", CS_EINPUT, "more than %d --set options",
                               CS_UNITS_MAX_SETS);
        /* The key is cut in place; both halves live in argv for the run. */
        ((char *)v)[eq - v] = '\0';
        opt->sets.key[opt->sets.n] = v;
        opt->sets.val[opt->sets.n++] = eq + 1;
    } else if (strcmp(k, "--quiet") == 0) {
        opt->quiet = true;
    } else {
        const char **slot = strcmp(k, "rules") == 0 ? &opt->rules
                            : strcmp(k, "mapping") == 0 ? &opt->mapping
                            : strcmp(k, "distance") == 0 ? &opt->distance
                            : strcmp(k, "catalogue") == 0 ? &opt->catalogue
                            : &opt->out;
        *slot = v;
    }
    return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    int rc = cs_cli_args("units", argc, argv, NULL, on_arg, o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!o->source) {
        cs_cli_usage("units", stderr);
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
    if (st == CS_OK && roster)
        st = cs_roster_read(o->source, pl->maps, pl->n_maps, o->rules, o->catalogue, &pl->units,
                            &o->roster, err);
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
    char title[3 * PATH_MAX], list[2 * CS_UNITS_NAME + CS_UNITS_TEXT + 64];
    const cs_roster_info *r = &o->roster;
    /* A roster's table names the list, not the file: its three forms give
     * the same bytes. */
    char pts[CS_UNITS_TEXT + 32] = "";
    if (r->has_points)
        snprintf(pts, sizeof pts, ", %g %s", r->points, r->cost);
    if (r->system_id[0])
        snprintf(list, sizeof list, "list `%s`, %s%s", r->name, r->system, pts);
    snprintf(title, sizeof title,
             "Charge odds per unit, %s (%s; method exact, head-on; distances %g to %g by %g in)",
             r->system_id[0] ? list : o->source, what, g->lo,
             cs_units_grid_at(g, cs_units_grid_count(g) - 1), g->step);
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
