/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim rerun`: a CSV made again from its CSVW metadata alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/backend.h"
#include "chargesim/options.h"

/* The metadata file and -o, from cs_cli_args. */
typedef struct rerun_args {
    const char *meta, *out;
} rerun_args;

static int on_arg(void *user, const cs_opt *o, const char *v)
{
    rerun_args *a = user;
    if (o) {
        a->out = v;
        return 0;
    }
    if (a->meta)
        return cs_cli_fail("rerun", CS_EINPUT, "one metadata file at a time");
    a->meta = v;
    return 0;
}

int cs_cli_rerun(int argc, char **argv)
{
    rerun_args ra = {NULL, NULL};
    int rc = cs_cli_args("rerun", argc, argv, NULL, on_arg, &ra);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *meta = ra.meta, *out = ra.out;
    if (!meta) {
        cs_cli_usage("rerun", stderr);
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
    rc = strcmp(args[0], "dice") == 0 ? cs_cli_dice(m - 1, full + 1)
                                          : cs_cli_run_remade(m - 1, full + 1, &remade);
    free(full);
    cs_csvw_free_args(args, n);
    cs_csvw_remade_free(&remade);
    return rc;
}
