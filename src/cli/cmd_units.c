/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim units SOURCE ...`: reads unit profiles (BattleScribe or CSV),
 * analyses each unit exactly at its ruleset's head-on layout, writes one row
 * per unit (issue 9). The request (request.h; src/req/requnits.c) runs the
 * five stages of unitsrc.h; this file adds argv, the default mapping
 * folder, the notes on standard error and the output file. */
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
#include "chargesim/request.h"
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

/* What the command line asked for beside its request. */
typedef struct units_args {
    cs_request *req;
    const char *source, *out;
    bool quiet, mapping;
    const char *mapping_path; /* --mapping's value, when given */
    cs_format fmt;
} units_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    units_args *a = user;
    if (!o) {
        if (a->source)
            return cs_cli_fail("units", CS_EINPUT, "one SOURCE at a time ('%s' and '%s')",
                               a->source, v);
        a->source = v;
        return cs_cli_request_set("units", a->req, "source", v);
    }
    if (!o->key) {
        if (strcmp(o->name, "--quiet") == 0)
            a->quiet = true;
        else
            a->out = v;
        return 0;
    }
    if (strcmp(o->key, "format") == 0)
        cs_format_parse(v, &a->fmt);
    if (strcmp(o->key, "mapping") == 0) {
        a->mapping = true;
        a->mapping_path = v;
    }
    return cs_cli_set("units", a->req, o, v);
}

/* The notes on standard error, unless --quiet, and the count line. */
static void print_notes(const cs_request *r, bool quiet)
{
    int n = cs_request_said(r);
    for (int i = quiet ? n - 1 : 0; i >= 0 && i < n; i++)
        fprintf(stderr, "chargesim units: %s\n", cs_request_said_line(r, i));
}

/* The table and its metadata: every file read named with its digest (the
 * source may be a folder of catalogues), then each mapping used. */
static int write_table(const units_args *a, int argc, char **argv)
{
    int n_files = 0;
    const char *path, *sha;
    while (cs_request_input(a->req, n_files, &path, &sha))
        n_files++;
    cs_csvw_file *files = calloc((size_t)n_files + 1, sizeof *files);
    if (!files)
        return cs_cli_fail("units", CS_ENOMEM, "out of memory");
    for (int i = 0; i < n_files; i++) {
        cs_request_input(a->req, i, &path, &sha);
        files[i] = (cs_csvw_file){path, sha};
    }
    cs_csvw_source meta = {.kind = CS_CSVW_UNITS, .command = "units", .argc = argc,
                           .argv = argv, .csv_path = a->out, .files = files,
                           .n_files = n_files, .about = cs_request_about(a->req)};
    int rc = cs_cli_write_tables_meta("units", a->out, cs_request_table(a->req, 0), 1, a->fmt,
                                      &meta);
    free(files);
    return rc;
}

/* Reads, checks, analyses and writes, in straight line: the exit status. */
static int run_units(units_args *a, int argc, char **argv)
{
    /* -o naming the source (or '') is refused before anything is read. */
    cs_error err;
    if (cs_output_check_inputs(a->out, "-o", &a->source, 1, &err) != CS_OK)
        return cs_cli_fail_err("units", &err);
    char mapdir[PATH_MAX], data[PATH_MAX];
    if (!a->mapping) {
        default_mappings(mapdir, sizeof mapdir);
        if (cs_request_default(a->req, "mapping", mapdir) != CS_OK)
            return cs_cli_fail_err("units", cs_request_error(a->req));
    }
    default_data(a->mapping ? a->mapping_path : mapdir, data, sizeof data);
    if (cs_request_default(a->req, "data", data) != CS_OK)
        return cs_cli_fail_err("units", cs_request_error(a->req));
    cs_status st = cs_request_run(a->req);
    print_notes(a->req, a->quiet);
    if (st != CS_OK)
        return cs_cli_fail_err("units", cs_request_error(a->req));
    return write_table(a, argc, argv);
}

int cs_cli_units(int argc, char **argv)
{
    units_args a = {.fmt = CS_FORMAT_CSV};
    if (!(a.req = cs_request_new("units")))
        return cs_cli_fail("units", CS_ENOMEM, "out of memory");
    int rc = cs_cli_args("units", argc, argv, NULL, on_arg, &a);
    if (!rc && !a.source) {
        cs_cli_usage("units", stderr);
        rc = 2;
    }
    if (!rc)
        rc = run_units(&a, argc, argv);
    cs_request_free(a.req);
    return rc < 0 ? 0 : rc;
}
