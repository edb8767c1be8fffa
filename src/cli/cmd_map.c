/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim map`: a threat map of an experiment, CSV and picture (issue 20). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/canvas.h"
#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/heatmap.h"
#include "chargesim/map.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/report.h"
#include "chargesim/request.h"
#include "chargesim/tablewrite.h"

#define CMD "map"

/* What the command line asked for beside its request: the files and the
 * words of its metadata. */
typedef struct map_args {
    cs_request *req;
    const char *path, *out, *plot;
    bool quiet;
    int argc;    /* the command line, for the metadata */
    char **argv;
    cs_cli_ckpt ckpt; /* --checkpoint */
} map_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    map_args *a = user;
    bool matched = false;
    if (!o) {
        if (a->path)
            return cs_cli_fail(CMD, CS_EINPUT, "one experiment file at a time ('%s' and '%s')",
                               a->path, v);
        a->path = v;
        return cs_cli_request_set(CMD, a->req, "input", v);
    }
    if (o->key)
        return cs_cli_set(CMD, a->req, o, v);
    if (strcmp(o->name, "-o") == 0)
        a->out = v;
    else if (strcmp(o->name, "--plot") == 0)
        a->plot = v;
    else if (strcmp(o->name, "--quiet") == 0)
        a->quiet = true;
    return cs_cli_ckpt_option(&a->ckpt, o, v, &matched);
}

/* Fills *a from argv: 0, -1 after --help, or the exit status of an error. */
static int parse_args(map_args *a, int argc, char **argv)
{
    int rc = cs_cli_args(CMD, argc, argv, NULL, on_arg, a);
    if (rc)
        return rc;
    if (!a->path) {
        cs_cli_usage(CMD, stderr);
        return 2;
    }
    cs_canvas_format f;
    if (a->plot && !cs_canvas_format_of(a->plot, &f))
        return cs_cli_fail(CMD, CS_EINPUT, "--plot '%s': expected a .svg, .png or .pdf file",
                           a->plot);
    /* Neither output may overwrite the experiment or the other output. */
    if (a->out && a->plot && strcmp(a->out, "-") != 0 && cs_cli_same_file(a->out, a->plot))
        return cs_cli_fail(CMD, CS_EINPUT, "-o and --plot name the same file '%s'", a->plot);
    cs_error err;
    const char *in[2] = {a->path, a->plot};
    if ((a->out && strcmp(a->out, "-") != 0 &&
         cs_output_check_inputs(a->out, "-o", in, a->plot ? 2 : 1, &err) != CS_OK) ||
        (a->plot && cs_output_check_inputs(a->plot, "--plot", in, 1, &err) != CS_OK))
        return cs_cli_fail_err(CMD, &err);
    return 0;
}

static cs_status write_plot(cs_outfile *o, const cs_map_result *m, cs_error *err)
{
    cs_mapdraw d;
    if (cs_mapdraw_of_map(m, &d) != CS_OK)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    char title[512], cap[1024];
    if (m->exp->description && m->exp->description[0])
        snprintf(title, sizeof title, "%s", m->exp->description);
    else
        snprintf(title, sizeof title, "%s: threat map (p_success by the target's position)",
                 m->exp->name);
    cs_report_map_caption(m, cap, sizeof cap);
    cs_heatmap h = {&d, title, cap};
    cs_canvas_format f = CS_CANVAS_SVG;
    cs_canvas_format_of(o->path, &f);
    cs_status st = cs_heatmap_draw(&h, f, o->f, err);
    cs_mapdraw_free(&d);
    return st;
}

/* Every file this command writes goes through here: the CSV to csv (if
 * open), the picture to pic (if open); both committed, or both aborted. */
static cs_status write_outputs(const map_args *a, cs_outfile *csv,
                               cs_outfile *meta, cs_outfile *pic, cs_error *err)
{
    cs_status st = CS_OK;
    if (csv->f) {
        const cs_table *t = cs_request_table(a->req, 0);
        st = cs_tablewrite_out(t, CS_FORMAT_CSV, csv, err);
        /* The CSV's provenance (CSVW) beside a CSV file, committed with it. */
        cs_csvw_source src = {.kind = CS_CSVW_MAP, .command = "map", .argc = a->argc,
                              .argv = a->argv, .csv_path = a->out, .input = a->path,
                              .run = cs_request_run_result(a->req)};
        if (st == CS_OK && meta->f)
            st = cs_csvw_write(meta->f, &src, t, err);
    }
    if (st == CS_OK && pic->f)
        st = write_plot(pic, cs_request_map(a->req), err);
    cs_outfile *files[3];
    int n = 0;
    if (csv->f)
        files[n++] = csv;
    if (meta->f)
        files[n++] = meta;
    if (pic->f)
        files[n++] = pic;
    if (st == CS_OK)
        st = cs_outfile_commit_all(files, n, err);
    if (st != CS_OK) {
        cs_outfile_abort(csv);
        cs_outfile_abort(meta);
        cs_outfile_abort(pic);
    }
    return st;
}

/* Opens the outputs before the run, so an unwritable path fails at once:
 * the CSV (and its metadata beside a CSV file) and the picture. */
static cs_status open_outputs(const map_args *a, cs_outfile *csv, cs_outfile *meta,
                              cs_outfile *pic, cs_error *err)
{
    cs_status st = CS_OK;
    if (a->out || !a->plot)
        st = cs_outfile_open(csv, a->out, err);
    if (st == CS_OK && csv->f && cs_outfile_is_regular(csv)) {
        char *mpath = cs_csvw_path(a->out);
        st = mpath ? cs_outfile_open(meta, mpath, err)
                   : cs_error_set(err, CS_ENOMEM, "out of memory");
        free(mpath);
    }
    if (st == CS_OK && a->plot)
        st = cs_outfile_open(pic, a->plot, err);
    if (st != CS_OK) {
        cs_outfile_abort(csv);
        cs_outfile_abort(meta);
        cs_outfile_abort(pic);
    }
    return st;
}

static void abort_all(cs_outfile *csv, cs_outfile *meta, cs_outfile *pic)
{
    cs_outfile_abort(csv);
    cs_outfile_abort(meta);
    cs_outfile_abort(pic);
}

/* Checks, runs and writes, in straight line: the exit status. */
static int run_map(map_args *a)
{
    cs_error err;
    if (cs_request_check(a->req) != CS_OK)
        return cs_cli_fail_err(CMD, cs_request_error(a->req));
    const char *in[1] = {a->path}, *out[2] = {a->out, a->plot};
    int rc = cs_cli_ckpt_start(&a->ckpt, a->req, in, 1, out, 2);
    cs_outfile csv = {0}, meta = {0}, pic = {0};
    if (!rc && open_outputs(a, &csv, &meta, &pic, &err) != CS_OK)
        rc = cs_cli_fail_err(CMD, &err);
    if (rc)
        return rc;
    rc = cs_cli_request_run(CMD, a->req, a->quiet, &a->ckpt);
    if (rc)
        abort_all(&csv, &meta, &pic);
    else if (write_outputs(a, &csv, &meta, &pic, &err) != CS_OK)
        rc = cs_cli_fail_err(CMD, &err);
    else
        cs_cli_precision_warning(CMD, a->req);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

int cs_cli_map(int argc, char **argv)
{
    map_args a;
    memset(&a, 0, sizeof a);
    if (!(a.req = cs_request_new(CMD)))
        return cs_cli_fail(CMD, CS_ENOMEM, "out of memory");
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = CMD, .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_map(&a);
    else if (rc < 0)
        rc = 0;
    cs_request_free(a.req);
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}
