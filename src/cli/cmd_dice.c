/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim dice`: the distribution of a dice expression, exact or sampled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/options.h"
#include "chargesim/request.h"

/* What the command line asked for beside its request. */
typedef struct dice_args {
    cs_request *req;
    const char *expr, *out;
    uint64_t trials, seed;
    double confidence;
    cs_format fmt;
    bool recorded; /* rerun's request: its keys are set already */
} dice_args;

/* "-1d6" or "-3" is an expression, not an option. */
static bool expression(const char *s)
{
    return (s[1] >= '0' && s[1] <= '9') || s[1] == 'd' || s[1] == 'D';
}

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    dice_args *a = user;
    if (!o) {
        if (a->expr)
            return cs_cli_fail("dice", CS_EINPUT,
                               "one expression at a time ('%s' and '%s'); write it without "
                               "spaces or quote it",
                               a->expr, v);
        a->expr = v;
        return a->recorded ? 0 : cs_cli_request_set("dice", a->req, "expr", v);
    }
    if (!o->key) {
        a->out = v;
        return 0;
    }
    int rc = a->recorded ? 0 : cs_cli_set("dice", a->req, o, v);
    /* The metadata's words, as the request read them. */
    if (!rc && strcmp(o->key, "format") == 0)
        cs_format_parse(v, &a->fmt);
    else if (!rc && strcmp(o->key, "trials") == 0)
        a->trials = strtoull(v, NULL, 10);
    else if (!rc && strcmp(o->key, "seed") == 0)
        a->seed = strtoull(v, NULL, 10);
    else if (!rc && strcmp(o->key, "confidence") == 0)
        a->confidence = strtod(v, NULL);
    return rc;
}

/* dice on request req (a new one, or rerun's with its keys set): the exit
 * status. */
static int dice_request(cs_request *req, bool recorded, int argc, char **argv)
{
    dice_args a = {.req = req, .seed = 1, .confidence = 0.95, .fmt = CS_FORMAT_CSV,
                   .recorded = recorded};
    int rc = cs_cli_args("dice", argc, argv, expression, on_arg, &a);
    if (!rc && !a.expr) {
        cs_cli_usage("dice", stderr);
        rc = 2;
    }
    if (!rc && cs_request_run(a.req) != CS_OK)
        rc = cs_cli_fail_err("dice", cs_request_error(a.req));
    if (!rc) {
        cs_csvw_source meta = {.kind = CS_CSVW_DICE, .command = "dice", .argc = argc,
                               .argv = argv, .csv_path = a.out, .dice_expr = a.expr,
                               .dice_trials = a.trials, .dice_seed = a.seed,
                               .dice_confidence = a.confidence};
        rc = cs_cli_write_tables_meta("dice", a.out, cs_request_table(a.req, 0), 1, a.fmt, &meta);
    }
    return rc < 0 ? 0 : rc;
}

int cs_cli_dice(int argc, char **argv)
{
    cs_request *req = cs_request_new("dice");
    if (!req)
        return cs_cli_fail("dice", CS_ENOMEM, "out of memory");
    int rc = dice_request(req, false, argc, argv);
    cs_request_free(req);
    return rc;
}

int cs_cli_dice_recorded(cs_request *req, int argc, char **argv)
{
    return dice_request(req, true, argc, argv);
}
