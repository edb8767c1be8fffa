/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim compare`: what a change does to the odds, with paired
 * intervals (issue 19; include/chargesim/compare.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/request.h"

#define CMD "compare"

/* What the command line asked for beside its request. */
typedef struct cmp_args {
    cs_request *req;
    const char *path, *out, *pivot;
    bool quiet;
    cs_format fmt;
    int argc;    /* the command line, for the metadata */
    char **argv;
    cs_cli_ckpt ckpt; /* --checkpoint */
} cmp_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    cmp_args *a = user;
    bool matched = false;
    if (!o) {
        if (a->path)
            return cs_cli_fail(CMD, CS_EINPUT, "one experiment file at a time ('%s')", v);
        a->path = v;
        return cs_cli_request_set(CMD, a->req, "input", v);
    }
    if (o->key) {
        if (strcmp(o->key, "format") == 0)
            cs_format_parse(v, &a->fmt);
        else if (strcmp(o->key, "pivot") == 0)
            a->pivot = v;
        return cs_cli_set(CMD, a->req, o, v);
    }
    if (strcmp(o->name, "-o") == 0)
        a->out = v;
    else if (strcmp(o->name, "--quiet") == 0)
        a->quiet = true;
    return cs_cli_ckpt_option(&a->ckpt, o, v, &matched);
}

static int parse_args(cmp_args *a, int argc, char **argv)
{
    int rc = cs_cli_args(CMD, argc, argv, NULL, on_arg, a);
    if (rc)
        return rc;
    if (!a->path) {
        cs_cli_usage(CMD, stderr);
        return 2;
    }
    return 0;
}

/* What the output would refuse after the run, checked before it: -o
 * naming the experiment or a file that cannot be made (opened here and
 * dropped; the table is written through the output module after the run).
 * 0, or the exit status after the message. */
static int check_outputs(const cmp_args *a)
{
    cs_error err;
    if (cs_output_check_inputs(a->out, "-o", &a->path, 1, &err) != CS_OK)
        return cs_cli_fail_err(CMD, &err);
    /* A device or FIFO is written through: opening one now would write to
     * it, or wait for a reader. */
    struct stat sb;
    if (!a->out || strcmp(a->out, "-") == 0 || (stat(a->out, &sb) == 0 && !S_ISREG(sb.st_mode)))
        return 0;
    cs_outfile o;
    if (cs_outfile_open(&o, a->out, &err) != CS_OK)
        return cs_cli_fail_err(CMD, &err);
    cs_outfile_abort(&o);
    return 0;
}

/* Checks, runs and writes, in straight line: the exit status. */
static int run_compare(cmp_args *a)
{
    if (cs_request_check(a->req) != CS_OK)
        return cs_cli_fail_err(CMD, cs_request_error(a->req));
    int rc = check_outputs(a);
    const char *out[1] = {a->out};
    if (!rc)
        rc = cs_cli_ckpt_start(&a->ckpt, a->req, &a->path, 1, out, 1);
    if (!rc)
        rc = cs_cli_request_run(CMD, a->req, a->quiet, &a->ckpt);
    if (!rc) {
        cs_csvw_source meta = {.kind = CS_CSVW_COMPARE, .command = CMD, .argc = a->argc,
                               .argv = a->argv, .csv_path = a->out, .input = a->path,
                               .run = cs_request_run_result(a->req), .pivot = a->pivot};
        rc = cs_cli_write_tables_meta(CMD, a->out, cs_request_table(a->req, 0), 1, a->fmt, &meta);
    }
    /* The verdict in words (issue 52): md and tex carry it in their note;
     * a CSV, read by programs, keeps its bytes, so the sentence goes to
     * standard error after it. */
    if (!rc && a->fmt == CS_FORMAT_CSV && *cs_request_verdict(a->req))
        fprintf(stderr, "%s\n", cs_request_verdict(a->req));
    if (!rc)
        cs_cli_precision_warning(CMD, a->req);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

int cs_cli_compare(int argc, char **argv)
{
    cmp_args a;
    memset(&a, 0, sizeof a);
    if (!(a.req = cs_request_new(CMD)))
        return cs_cli_fail(CMD, CS_ENOMEM, "out of memory");
    a.fmt = CS_FORMAT_CSV;
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = CMD, .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_compare(&a);
    else if (rc < 0)
        rc = 0;
    cs_request_free(a.req);
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}
