/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim draw`: one trial's battlefield as a picture (SVG, PNG or PDF).
 * The request (request.h; src/req/reqshow.c) replays the trial and asks its
 * ruleset for the display list (chargesim/drawing.h); the battlefield
 * module renders it; this file only wires the two together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/battlefield.h"
#include "chargesim/cli.h"
#include "chargesim/drawing.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/request.h"

/* The one place draw writes a file: through the output module. */
static int write_picture(const cs_drawing *d, const cs_battlefield_title *t,
                         cs_canvas_format fmt, const char *out)
{
    cs_outfile o;
    cs_error err;
    if (cs_outfile_open(&o, out, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    if (cs_battlefield_write(d, t, fmt, o.f, &err) != CS_OK) {
        cs_outfile_abort(&o);
        return cs_cli_fail_err("draw", &err);
    }
    if (cs_outfile_commit(&o, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    return 0;
}

/* What the command line asked for. */
typedef struct draw_args {
    cs_request *req;
    const char *path, *out;
} draw_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    draw_args *a = user;
    if (!o) {
        if (a->path)
            return cs_cli_fail("draw", CS_EINPUT, "one experiment file at a time");
        a->path = v;
        return cs_cli_request_set("draw", a->req, "input", v);
    }
    if (!o->key) {
        a->out = v;
        return 0;
    }
    return cs_cli_set("draw", a->req, o, v);
}

/* Checks, draws and writes, in straight line: the exit status. */
static int run_draw(const draw_args *a)
{
    cs_canvas_format fmt = CS_CANVAS_SVG;
    if (a->out && strcmp(a->out, "-") != 0 && !cs_canvas_format_of(a->out, &fmt))
        return cs_cli_fail("draw", CS_EINPUT,
                           "-o %s: unknown picture format; the file name must end in .svg, "
                           ".png or .pdf", a->out);
    cs_error err;
    if (cs_output_check_inputs(a->out, "-o", &a->path, 1, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    if (cs_request_run(a->req) != CS_OK)
        return cs_cli_fail_err("draw", cs_request_error(a->req));
    const char *const *lines;
    int n;
    const cs_drawing *d = cs_request_drawing(a->req, &lines, &n);
    cs_battlefield_title t = {n, {lines[0], lines[1], n > 2 ? lines[2] : NULL, NULL}};
    return write_picture(d, &t, fmt, a->out);
}

int cs_cli_draw(int argc, char **argv)
{
    draw_args a = {0};
    if (!(a.req = cs_request_new("draw")))
        return cs_cli_fail("draw", CS_ENOMEM, "out of memory");
    int rc = cs_cli_args("draw", argc, argv, NULL, on_arg, &a);
    if (!rc && !a.path) {
        cs_cli_usage("draw", stderr);
        rc = 2;
    }
    if (!rc)
        rc = run_draw(&a);
    cs_request_free(a.req);
    return rc < 0 ? 0 : rc;
}
