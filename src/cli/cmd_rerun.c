/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim rerun`: a CSV made again from its CSVW metadata alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/backend.h"

static const char usage[] =
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
    "\n"
    "  -o FILE      write to FILE (default: standard output)\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure.\n";

int cs_cli_rerun(int argc, char **argv)
{
    const char *meta = NULL, *out = NULL, *v;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v)
                return cs_cli_fail("rerun", CS_EINPUT, "-o needs a file name");
            out = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cs_cli_unknown_option("rerun", a, usage);
        } else if (meta) {
            return cs_cli_fail("rerun", CS_EINPUT, "one metadata file at a time");
        } else {
            meta = a;
        }
    }
    if (!meta) {
        fputs(usage, stderr);
        return 2;
    }
    char **args;
    int n;
    cs_error err;
    cs_csvw_remade remade;
    if (cs_csvw_rerun_args(meta, &args, &n, &remade, &err) != CS_OK)
        return cs_cli_fail_err("rerun", &err);
    /* -o goes last: after a trailing --dist it names the distributions. */
    char **full = malloc(((size_t)n + 5) * sizeof *full);
    if (!full) {
        cs_csvw_free_args(args, n);
        cs_csvw_remade_free(&remade);
        return cs_cli_fail("rerun", CS_ENOMEM, "out of memory");
    }
    memcpy(full, args, (size_t)n * sizeof *full);
    int m = n;
    bool dist = strcmp(args[n - 1], "--dist") == 0;
    /* A --dist CSV comes with a summary the rerun does not want: it goes to
     * /dev/null, written through like any device (output.h), so the command
     * the new metadata records runs again as it stands. An MPI rank other
     * than 0 writes no file at all: its summary goes to its standard output
     * (main.c sends it to /dev/null), as its other outputs do. */
    const cs_backend *be = cs_backend_get();
    full[m++] = (char *)(out ? out : "-");
    if (dist) {
        full[m++] = "-o";
        full[m++] = !be || be->rank == 0 ? "/dev/null" : "-";
    } else {
        memmove(full + m, full + m - 1, sizeof *full);
        full[m - 1] = "-o";
        m++;
    }
    full[m] = NULL;
    /* A run's table keeps its first provenance (csvw.h, cs_csvw_remade). */
    int rc = strcmp(args[0], "dice") == 0 ? cs_cli_dice(m - 1, full + 1)
                                          : cs_cli_run_remade(m - 1, full + 1, &remade);
    free(full);
    cs_csvw_free_args(args, n);
    cs_csvw_remade_free(&remade);
    return rc;
}
