/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Each command's steps, written once for every front end (issue 51): the
 * checks in the command line's order, then the engine and the tables. See
 * include/chargesim/reqsteps.h. */
#include "chargesim/reqsteps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/checkpoint.h"
#include "chargesim/cmpreport.h"
#include "chargesim/cmpverdict.h"
#include "chargesim/dicereport.h"
#include "chargesim/estimator.h"
#include "chargesim/expfile.h"
#include "chargesim/report.h"
#include "chargesim/success.h"

static bool is(const cs_request *r, const char *cmd)
{
    return strcmp(r->cmd, cmd) == 0;
}

/* The parameter whose key a refusal of the experiment as a whole names
 * (cs_error.key: `distance`, `method`), whatever its section, or -1. */
static int named(const cs_req_sets *s, const char *key)
{
    for (int i = 0; key[0] && i < s->n; i++) {
        const char *eq = strchr(s->text[i], '=');
        const char *dot = strchr(s->text[i], '.');
        const char *k = dot && (!eq || dot < eq) ? dot + 1 : s->text[i];
        size_t n = eq ? (size_t)(eq - k) : strlen(k);
        if (n > 0 && strlen(key) == n && strncmp(k, key, n) == 0)
            return s->pair[i];
    }
    return -1;
}

/* Loads A (with_b false) or B (A's overrides, then B's): CS_OK, or the
 * refusal with the parameter at fault. */
static cs_status load(cs_request *r, bool with_b, cs_experiment *e)
{
    const char *both[2 * CS_REQ_MAX_SETS];
    int n = r->a.n, failed = -1;
    memcpy(both, r->a.text, (size_t)r->a.n * sizeof *both);
    if (with_b) {
        memcpy(both + n, r->b.text, (size_t)r->b.n * sizeof *both);
        n += r->b.n;
    }
    cs_status st = cs_expfile_load_sets(cs_req_slot(r, CS_REQ_INPUT), both, n, e, &failed, &r->err);
    if (st == CS_OK)
        return st;
    if (failed >= 0)
        r->fault = failed < r->a.n ? r->a.pair[failed] : r->b.pair[failed - r->a.n];
    else if ((r->fault = named(&r->a, r->err.key)) < 0 && with_b)
        r->fault = named(&r->b, r->err.key);
    /* No override at fault: the experiment file is (it cannot be read, or
     * a line of its own is wrong). */
    if (r->fault < 0)
        r->fault = r->slot[CS_REQ_INPUT];
    return st;
}

/* --success against the ruleset. */
static cs_status success(cs_request *r, const cs_experiment *e)
{
    const char *s = cs_req_slot(r, CS_REQ_SUCCESS);
    cs_status st = s ? cs_success_parse(e->rs, s, &r->opts.success_mask, &r->err) : CS_OK;
    if (st != CS_OK)
        r->fault = r->slot[CS_REQ_SUCCESS];
    return st;
}

static cs_status max_trials(cs_request *r, const cs_experiment *e)
{
    if (r->max_trials && !(e->precision > 0.0))
        return cs_error_set(&r->err, CS_EINPUT, "--max-trials applies only with --precision");
    return CS_OK;
}

/* --pivot ROW:COL[:COLUMN] cut into its parts; *what is COLUMN, p_success
 * when not given. */
static void pivot_parts(const char *pivot, char *row, char *col, size_t cap, const char **what)
{
    const char *colon = strchr(pivot, ':'), *w = strchr(colon + 1, ':');
    snprintf(row, cap, "%.*s", (int)(colon - pivot), pivot);
    snprintf(col, cap, "%.*s", (int)(w ? (size_t)(w - colon - 1) : cap - 1), colon + 1);
    *what = w ? w + 1 : "p_success";
}

static cs_status check_run(cs_request *r)
{
    cs_status st = load(r, false, &r->ea);
    r->has_a = st == CS_OK;
    const char *pivot = cs_req_slot(r, CS_REQ_PIVOT);
    if (st == CS_OK)
        st = success(r, &r->ea);
    if (st == CS_OK && pivot) {
        char row[256], col[256];
        const char *what;
        pivot_parts(pivot, row, col, sizeof row, &what);
        if ((st = cs_report_pivot_check(&r->ea, row, col, what, &r->err)) != CS_OK)
            r->fault = r->slot[CS_REQ_PIVOT];
    }
    return st == CS_OK ? max_trials(r, &r->ea) : st;
}

/* The map's own lines of a checkpoint's identity: every value of each
 * axis, as the cells get them. */
static char *axes_identity(const cs_map_axis *x, const cs_map_axis *y)
{
    size_t cap = 64 * ((size_t)x->n + (size_t)y->n) + 64, u = 0;
    char *s = malloc(cap);
    for (int k = 0; s && k < 2; k++) {
        const cs_map_axis *ax = k ? y : x;
        u += (size_t)snprintf(s + u, cap - u, "%s ", k ? "--y" : "--x");
        for (int i = 0; i < ax->n; i++) {
            char v[64];
            cs_map_axis_text(ax, i, v, sizeof v);
            u += (size_t)snprintf(s + u, cap - u, "%s%s", i ? "," : "", v);
        }
        u += (size_t)snprintf(s + u, cap - u, "\n");
    }
    return s;
}

static cs_status axis(cs_request *r, cs_req_slot_id s, const char *def, const char *what,
                      cs_map_axis *out)
{
    const char *v = cs_req_slot(r, s);
    cs_status st = cs_map_axis_parse(v ? v : def, what, out, &r->err);
    if (st != CS_OK)
        r->fault = r->slot[s];
    return st;
}

static cs_status check_map(cs_request *r)
{
    cs_status st = load(r, false, &r->ea);
    r->has_a = st == CS_OK;
    if (st == CS_OK && (st = axis(r, CS_REQ_X, CS_MAP_DEFAULT_X, "--x", &r->ax)) == CS_OK &&
        (st = axis(r, CS_REQ_Y, CS_MAP_DEFAULT_Y, "--y", &r->ay)) == CS_OK &&
        (st = success(r, &r->ea)) == CS_OK)
        st = max_trials(r, &r->ea);
    if (st == CS_OK && !(r->extra = axes_identity(&r->ax, &r->ay)))
        st = cs_error_set(&r->err, CS_ENOMEM, "out of memory");
    return st;
}

static cs_status check_compare(cs_request *r)
{
    char why[512];
    if (r->b.n == 0)
        return cs_error_set(&r->err, CS_EINPUT, "%s", CS_CMP_NO_B);
    cs_status st = load(r, false, &r->ea);
    r->has_a = st == CS_OK;
    if (st == CS_OK)
        st = load(r, true, &r->eb);
    r->has_b = r->has_a && st == CS_OK;
    const char *prob = st == CS_OK ? cs_cmp_pair_problem(&r->ea, &r->eb, why, sizeof why) : NULL;
    if (prob)
        st = cs_error_set(&r->err, CS_EINPUT, "%s", prob);
    if (st == CS_OK && (st = success(r, &r->ea)) == CS_OK)
        st = max_trials(r, &r->ea);
    const char *pivot = cs_req_slot(r, CS_REQ_PIVOT);
    if (st == CS_OK && pivot) {
        char row[256];
        const char *colon = strchr(pivot, ':');
        snprintf(row, sizeof row, "%.*s", (int)(colon - pivot), pivot);
        if ((st = cs_cmpreport_pivot_check(&r->ea, row, colon + 1, &r->err)) != CS_OK)
            r->fault = r->slot[CS_REQ_PIVOT];
    }
    /* B as the run pairs it: the paired estimator, planned once, and the
     * checkpoint's identity. */
    r->opts.pair = &r->eb;
    return st;
}

/* dice's options, then its expression. */
static cs_status check_dice(cs_request *r)
{
    if (!cs_req_slot(r, CS_REQ_EXPR)) {
        r->fault_key = "expr";
        return cs_error_set(&r->err, CS_EINPUT, "no dice expression: type one, e.g. 2d6 "
                                                "(in a link: expr=2d6)");
    }
    cs_status st = cs_dicereport_options(r->exact, r->trials, r->sampling_only, &r->err);
    if (st != CS_OK)
        r->fault = r->sampling_pair;
    return st;
}

cs_status cs_req_steps_check(cs_request *r)
{
    cs_status st;
    r->opts.threads = r->threads;
    r->opts.max_trials = r->max_trials;
    r->opts.want_dist = cs_req_slot(r, CS_REQ_DIST) != NULL;
    r->opts.progress = r->progress;
    r->opts.progress_user = r->progress_user;
    if (is(r, "dice"))
        return check_dice(r);
    if (is(r, "units") || is(r, "rules") || is(r, "draw"))
        return CS_OK; /* their steps check as they go: run does it all */
    st = is(r, "run") ? check_run(r) : is(r, "map") ? check_map(r) : check_compare(r);
    /* The run is built here, once: its estimator (auto resolved) is what
     * a checkpoint's identity and the run read (cs_sched_plan). */
    if (st == CS_OK)
        st = cs_sched_plan(&r->ea, &r->opts, &r->err);
    return st;
}

/* One table, into *t (*n of them). */
static cs_status one_table(cs_table **t, int *n, cs_error *err)
{
    *t = calloc(1, sizeof **t);
    *n = *t ? 1 : 0;
    return *t ? CS_OK : cs_error_set(err, CS_ENOMEM, "out of memory");
}

static cs_status oom(cs_request *r, cs_status st)
{
    return st == CS_OK ? st : cs_error_set(&r->err, st, "out of memory");
}

/* run's tables in format fmt from its result: the summary, or the pivot
 * (each of its tables) under --pivot. */
static cs_status run_tables(cs_request *r, cs_format fmt, cs_table **t, int *n)
{
    const char *pivot = cs_req_slot(r, CS_REQ_PIVOT);
    if (pivot) {
        char row[256], col[256];
        const char *what;
        pivot_parts(pivot, row, col, sizeof row, &what);
        return cs_report_pivot_column(&r->res, row, col, what, fmt, t, n, &r->err);
    }
    cs_status st = one_table(t, n, &r->err);
    return st == CS_OK ? oom(r, cs_report_summary(&r->res, fmt, &(*t)[0])) : st;
}

static cs_status run_run(cs_request *r)
{
    cs_status st = cs_sched_run(&r->ea, &r->opts, &r->res, &r->err);
    if (st != CS_OK)
        return st;
    r->has_res = true;
    r->made = r->res;
    st = run_tables(r, r->fmt, &r->tables, &r->n_tables);
    if (st == CS_OK && r->opts.want_dist) {
        st = oom(r, cs_report_dist(&r->res, &r->dist));
        r->has_dist = st == CS_OK;
    }
    cs_report_method_note(&r->res, r->note, (int)sizeof r->note);
    snprintf(r->method, sizeof r->method, "%s", cs_method_name(r->res.method));
    r->cap = r->res.max_trials;
    if (r->ea.precision > 0.0 && !r->res.precision_met)
        cs_report_precision_warning("points", r->res.max_trials, r->warning, sizeof r->warning);
    return st;
}

static cs_status run_map(cs_request *r)
{
    cs_map_result *m = &r->map;
    cs_status st = cs_map_run(&r->ea, &r->ax, &r->ay, &r->opts, m, &r->err);
    if (st != CS_OK)
        return st;
    r->has_map = true;
    r->made = (cs_run_result){.exp = m->exp, .method = m->method};
    if ((st = one_table(&r->tables, &r->n_tables, &r->err)) == CS_OK)
        st = oom(r, cs_report_map(m, &r->tables[0]));
    cs_report_map_caption(m, r->note, sizeof r->note);
    snprintf(r->method, sizeof r->method, "%s", cs_method_name(m->method));
    double g[8] = {m->x.n, m->y.n, cs_map_axis_value(&m->x, 0), m->x.step,
                   cs_map_axis_value(&m->y, 0), m->y.step, m->charger_w, m->charger_d};
    memcpy(r->grid, g, sizeof g);
    r->has_grid = true;
    r->cap = m->max_trials;
    if (r->ea.precision > 0.0 && !m->precision_met)
        cs_report_precision_warning("cells", m->max_trials, r->warning, sizeof r->warning);
    return st;
}

/* compare's --b overrides as its note names them: "K=V, K=V". */
static void b_description(const cs_request *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < r->b.n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", r->b.text[i]);
    }
}

/* compare's table in format fmt from its result: the comparison, or its
 * pivot under --pivot. */
static cs_status compare_tables(cs_request *r, cs_format fmt, cs_table **t, int *n)
{
    char bd[4096];
    b_description(r, bd, sizeof bd);
    const char *pivot = cs_req_slot(r, CS_REQ_PIVOT);
    cs_status st = one_table(t, n, &r->err);
    if (st == CS_OK && pivot) {
        char row[256];
        const char *colon = strchr(pivot, ':');
        snprintf(row, sizeof row, "%.*s", (int)(colon - pivot), pivot);
        st = cs_cmpreport_pivot(&r->cmp, row, colon + 1, bd, fmt, &(*t)[0], &r->err);
    } else if (st == CS_OK) {
        st = oom(r, cs_cmpreport_table(&r->cmp, bd, fmt, &(*t)[0]));
    }
    return st;
}

static cs_status run_compare(cs_request *r)
{
    char bd[4096];
    cs_status st = cs_cmp_run(&r->ea, &r->eb, &r->opts, &r->cmp, &r->err);
    r->has_cmp = true;
    if (st != CS_OK)
        return st;
    r->made = (cs_run_result){.exp = r->cmp.a, .method = r->cmp.method};
    b_description(r, bd, sizeof bd);
    st = compare_tables(r, r->fmt, &r->tables, &r->n_tables);
    cs_cmpreport_note(&r->cmp, bd, false, r->note, sizeof r->note);
    cs_cmpverdict(&r->cmp, r->verdict, sizeof r->verdict);
    snprintf(r->method, sizeof r->method, "%s", cs_method_name(r->cmp.method));
    /* Not met only past the cap, which the estimators' worst case keeps
     * above what any point needs (sched.c, check_bounds). */
    r->cap = r->max_trials ? r->max_trials : CS_SCHED_DEFAULT_MAX_TRIALS;
    if (r->ea.precision > 0.0 && !r->cmp.precision_met)
        cs_report_precision_warning("points", r->cap, r->warning, sizeof r->warning);
    return st;
}

/* dice's table in format fmt: exact dice counted, sampled ones drawn
 * (the same seed gives the same draws, so the same numbers). */
static cs_status dice_table(cs_request *r, cs_format fmt, cs_table *t)
{
    const char *expr = cs_req_slot(r, CS_REQ_EXPR);
    cs_dice d;
    cs_status st = cs_dicereport_parse(expr, &d, &r->err);
    if (st != CS_OK) {
        r->fault = r->slot[CS_REQ_EXPR];
        return st;
    }
    return r->trials ? cs_dicereport_sampled(expr, &d, r->trials, r->seed, r->threads,
                                             r->confidence, fmt, t, &r->err)
                     : cs_dicereport_exact(expr, &d, fmt, t, &r->err);
}

static cs_status run_dice(cs_request *r)
{
    cs_status st = one_table(&r->tables, &r->n_tables, &r->err);
    if (st == CS_OK)
        st = dice_table(r, r->fmt, &r->tables[0]);
    if (st == CS_OK) {
        const char *note = r->tables[0].note;
        snprintf(r->note, sizeof r->note, "%s", note ? note : "");
        snprintf(r->method, sizeof r->method, "%s", r->trials ? "mc" : "exact");
    } else if (st == CS_ELIMIT) {
        r->fault = r->slot[CS_REQ_EXPR];
    }
    return st;
}

cs_status cs_req_steps_tables(cs_request *r, cs_format fmt, cs_table **t, int *n)
{
    *t = NULL;
    *n = 0;
    cs_status st = CS_OK;
    if (is(r, "run") && r->has_res)
        st = run_tables(r, fmt, t, n);
    else if (is(r, "compare") && r->has_cmp)
        st = compare_tables(r, fmt, t, n);
    else if (is(r, "map") && r->has_map && (st = one_table(t, n, &r->err)) == CS_OK)
        st = oom(r, cs_report_map(&r->map, &(*t)[0]));
    else if (is(r, "dice") && r->n_tables && (st = one_table(t, n, &r->err)) == CS_OK)
        st = dice_table(r, fmt, &(*t)[0]);
    else if (is(r, "units") && r->n_tables && (st = one_table(t, n, &r->err)) == CS_OK)
        st = cs_req_units_table(r, fmt, &(*t)[0]);
    else if (!r->n_tables)
        st = cs_error_set(&r->err, CS_EINPUT, "no tables: the request has not run");
    return st;
}

/* A checkpoint that writes nothing and stops when the caller's cancel
 * says so: how a run is stopped at a safe point (checkpoint.h). */
static cs_status no_write(void *user, const cs_ckpt_piece *pieces, int n, cs_error *err)
{
    (void)user;
    (void)pieces;
    (void)n;
    (void)err;
    return CS_OK;
}

static int cancelled(void *user)
{
    const cs_request *r = user;
    return r->cancel(r->cancel_user) ? 1 : 0;
}

static cs_status arm_cancel(cs_request *r)
{
    if (!r->cancel || r->opts.checkpoint || !(is(r, "run") || is(r, "map") || is(r, "compare")))
        return CS_OK;
    cs_ckpt_sink sink = {no_write, cancelled, r};
    if (!(r->cancel_ck = cs_ckpt_new(1e300, &sink)))
        return cs_error_set(&r->err, CS_ENOMEM, "out of memory");
    cs_status st = cs_ckpt_identify(r->cancel_ck, r->cmd, &r->ea, &r->opts, r->extra, "", &r->err);
    if (st == CS_OK)
        r->opts.checkpoint = r->cancel_ck;
    return st;
}

cs_status cs_req_steps_run(cs_request *r)
{
    cs_status st = arm_cancel(r);
    if (st == CS_OK)
        st = is(r, "run")       ? run_run(r)
             : is(r, "map")     ? run_map(r)
             : is(r, "compare") ? run_compare(r)
             : is(r, "units")   ? cs_req_units_run(r)
             : is(r, "rules")   ? cs_req_rules_run(r)
             : is(r, "draw")    ? cs_req_draw_run(r)
                                : run_dice(r);
    if (st == CS_ESTOPPED && r->cancel_ck)
        cs_error_set(&r->err, st, "cancelled");
    return st;
}

void cs_req_steps_free(cs_request *r)
{
    for (int i = 0; i < r->n_tables; i++)
        cs_table_free(&r->tables[i]);
    free(r->tables);
    if (r->has_dist)
        cs_table_free(&r->dist);
    if (r->has_res)
        cs_sched_result_free(&r->res);
    if (r->has_map)
        cs_map_result_free(&r->map);
    if (r->has_cmp)
        cs_cmp_result_free(&r->cmp);
    if (r->has_b)
        cs_experiment_free(&r->eb);
    if (r->has_a)
        cs_experiment_free(&r->ea);
    free(r->extra);
    cs_ckpt_free(r->cancel_ck);
    free(r->text_out.s);
    free(r->drawing);
    cs_req_units_free(r);
    cs_req_rerun_free(r);
}
