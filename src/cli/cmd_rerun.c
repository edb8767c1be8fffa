/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim rerun`: a CSV made again from its CSVW metadata alone. The
 * request "rerun" (request.h) reads the metadata and runs the command it
 * records; that command's argv with -o added goes to `chargesim run` or
 * `dice` for the files alone, so they and their metadata are that
 * command's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/backend.h"
#include "chargesim/cli.h"
#include "chargesim/options.h"
#include "chargesim/request.h"

/* The request, the metadata file and -o, from cs_cli_args. */
typedef struct rerun_args {
    cs_request *req;
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
    return cs_cli_request_set("rerun", a->req, "metadata", v);
}

/* The recorded command with -o: rerun's request run and written as run or
 * dice writes it. The exit status. */
static int rerun(cs_request *r, const char *out)
{
    int n;
    char *const *args;
    const cs_csvw_remade *remade;
    if (cs_request_recorded(r, &n, &args, &remade) != CS_OK)
        return cs_cli_fail_err("rerun", cs_request_error(r));
    /* -o goes last: after a trailing --dist it names the distributions. */
    char **full = malloc(((size_t)n + 5) * sizeof *full);
    if (!full)
        return cs_cli_fail("rerun", CS_ENOMEM, "out of memory");
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
    /* A run's table keeps its first provenance (csvwread.h, cs_csvw_remade). */
    int rc = strcmp(args[0], "dice") == 0 ? cs_cli_dice_recorded(r, m - 1, full + 1)
                                          : cs_cli_run_recorded(r, m - 1, full + 1, remade);
    free(full);
    return rc;
}

int cs_cli_rerun(int argc, char **argv)
{
    rerun_args ra = {NULL, NULL, NULL};
    if (!(ra.req = cs_request_new("rerun")))
        return cs_cli_fail("rerun", CS_ENOMEM, "out of memory");
    int rc = cs_cli_args("rerun", argc, argv, NULL, on_arg, &ra);
    if (!rc && !ra.meta) {
        cs_cli_usage("rerun", stderr);
        rc = 2;
    }
    if (!rc)
        rc = rerun(ra.req, ra.out);
    cs_request_free(ra.req);
    return rc < 0 ? 0 : rc;
}
