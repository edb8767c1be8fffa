/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim run`: an experiment file to summary, distribution and pivot tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/request.h"
#include "chargesim/tablewrite.h"

/* What the command line asked for beside its request: the files and the
 * words of its metadata. */
typedef struct run_args {
    cs_request *req;
    const char *path, *out, *dist, *pivot;
    bool quiet;
    cs_format fmt;
    int argc;    /* the command line, for the metadata */
    char **argv;
    const cs_csvw_remade *remade; /* run by rerun: the original provenance */
    bool recorded;                /* rerun's request: its keys are set already */
    cs_cli_ckpt ckpt;             /* --checkpoint */
} run_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    run_args *a = user;
    bool matched = false;
    if (!o) {
        if (a->path)
            return cs_cli_fail("run", CS_EINPUT, "one experiment file at a time ('%s' and '%s')",
                               a->path, v);
        a->path = v;
        return a->recorded ? 0 : cs_cli_request_set("run", a->req, "input", v);
    }
    if (o->key) {
        if (strcmp(o->key, "format") == 0)
            cs_format_parse(v, &a->fmt);
        else if (strcmp(o->key, "pivot") == 0)
            a->pivot = v;
        else if (strcmp(o->key, "dist") == 0)
            a->dist = v;
        return a->recorded ? 0 : cs_cli_set("run", a->req, o, v);
    }
    if (strcmp(o->name, "-o") == 0)
        a->out = v;
    else if (strcmp(o->name, "--quiet") == 0)
        a->quiet = true;
    return cs_cli_ckpt_option(&a->ckpt, o, v, &matched);
}

/* Fills *a from argv: 0, -1 after --help, or the exit status of an error. */
static int parse_args(run_args *a, int argc, char **argv)
{
    int rc = cs_cli_args("run", argc, argv, NULL, on_arg, a);
    if (rc)
        return rc;
    if (!a->path) {
        cs_cli_usage("run", stderr);
        return 2;
    }
    if (a->out && a->dist && strcmp(a->out, "-") != 0 && cs_cli_same_file(a->out, a->dist))
        return cs_cli_fail("run", CS_EINPUT, "-o and --dist name the same file '%s'", a->dist);
    return 0;
}

/* The files one run writes, committed together (output.h): the tables,
 * the distributions, and the CSVW metadata beside each CSV file. */
typedef struct run_files {
    cs_outfile of, mf, df, dmf;
    char *mpath, *dmpath;
} run_files;

static void files_abort(run_files *f)
{
    cs_outfile_abort(&f->of);
    cs_outfile_abort(&f->mf);
    cs_outfile_abort(&f->df);
    cs_outfile_abort(&f->dmf);
    free(f->mpath);
    free(f->dmpath);
}

/* Opens every output before the run, so an unwritable path fails at once. */
static cs_status files_open(const run_args *a, run_files *f, cs_error *err)
{
    memset(f, 0, sizeof *f);
    cs_status st = cs_outfile_open(&f->of, a->out, err);
    if (st == CS_OK && a->dist)
        st = cs_outfile_open(&f->df, a->dist, err);
    if (st == CS_OK && a->fmt == CS_FORMAT_CSV && cs_outfile_is_regular(&f->of))
        st = (f->mpath = cs_csvw_path(a->out)) ? cs_outfile_open(&f->mf, f->mpath, err)
                                               : cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st == CS_OK && a->dist && cs_outfile_is_regular(&f->df))
        st = (f->dmpath = cs_csvw_path(a->dist)) ? cs_outfile_open(&f->dmf, f->dmpath, err)
                                                 : cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st != CS_OK)
        files_abort(f);
    return st;
}

static cs_status write_dist(const run_args *a, const cs_csvw_source *meta, run_files *f,
                            cs_error *err)
{
    const cs_table *dt = cs_request_named_table(a->req, "dist");
    cs_status st = CS_OK;
    st = cs_tablewrite_out(dt, CS_FORMAT_CSV, &f->df, err);
    cs_csvw_source dmeta = *meta;
    dmeta.kind = CS_CSVW_DIST;
    dmeta.csv_path = a->dist;
    dmeta.pivot = NULL;
    if (st == CS_OK && f->dmpath)
        st = cs_csvw_write(f->dmf.f, &dmeta, dt, err);
    return st;
}

/* Writes the run's tables, distributions and metadata, and commits them all
 * or none. A run whose table would have no rows writes nothing (exit 2). */
static cs_status write_outputs(const run_args *a, run_files *f, cs_error *err)
{
    int n_tables = cs_request_tables(a->req);
    cs_table *tables = cs_request_table(a->req, 0);
    const char *input = a->remade ? a->remade->input : strcmp(a->path, "-") ? a->path : NULL;
    cs_csvw_source meta = {.kind = a->pivot ? CS_CSVW_PIVOT : CS_CSVW_SUMMARY,
                           .command = "run", .argc = a->argc, .argv = a->argv,
                           .csv_path = a->out, .input = input,
                           .run = cs_request_run_result(a->req), .pivot = a->pivot,
                           .remade = a->remade};
    cs_status st = f->mpath ? cs_csvw_write(f->mf.f, &meta, &tables[0], err) : CS_OK;
    if (st == CS_OK)
        st = cs_cli_write_export(&f->of, tables, n_tables, a->fmt, &meta, err);
    if (st == CS_OK && a->dist)
        st = write_dist(a, &meta, f, err);
    cs_outfile *const all[] = {&f->of, &f->mf, &f->df, &f->dmf};
    if (st == CS_OK)
        st = cs_outfile_commit_all(all, 4, err);
    if (st != CS_OK)
        files_abort(f);
    else {
        free(f->mpath);
        free(f->dmpath);
    }
    return st;
}

/* Checks, runs and writes, in straight line: the exit status. */
static int run_experiment(run_args *a)
{
    cs_error err;
    if (cs_output_check_inputs(a->out, "-o", &a->path, 1, &err) != CS_OK ||
        cs_output_check_inputs(a->dist, "--dist", &a->path, 1, &err) != CS_OK)
        return cs_cli_fail_err("run", &err);
    /* Every option is checked before the first trial runs. */
    if (cs_request_check(a->req) != CS_OK)
        return cs_cli_fail_err("run", cs_request_error(a->req));
    const char *outs[2] = {a->out, a->dist};
    int rc = cs_cli_ckpt_start(&a->ckpt, a->req, &a->path, 1, outs, 2);
    run_files f;
    if (!rc && files_open(a, &f, &err) != CS_OK)
        rc = cs_cli_fail_err("run", &err);
    if (rc)
        return rc;
    rc = cs_cli_request_run("run", a->req, a->quiet, &a->ckpt);
    if (rc)
        files_abort(&f);
    else if (write_outputs(a, &f, &err) != CS_OK)
        rc = cs_cli_fail_err("run", &err);
    else
        cs_cli_precision_warning("run", a->req);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

/* run on request req (a new one, or rerun's with its keys set): the exit
 * status. */
static int run_request(cs_request *req, bool recorded, int argc, char **argv,
                       const cs_csvw_remade *remade)
{
    run_args a;
    memset(&a, 0, sizeof a);
    a.req = req;
    a.recorded = recorded;
    a.remade = remade;
    a.fmt = CS_FORMAT_CSV;
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = "run", .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_experiment(&a);
    else if (rc < 0)
        rc = 0;
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}

int cs_cli_run(int argc, char **argv)
{
    cs_request *req = cs_request_new("run");
    if (!req)
        return cs_cli_fail("run", CS_ENOMEM, "out of memory");
    int rc = run_request(req, false, argc, argv, NULL);
    cs_request_free(req);
    return rc;
}

int cs_cli_run_recorded(cs_request *req, int argc, char **argv, const cs_csvw_remade *remade)
{
    return run_request(req, true, argc, argv, remade);
}
