/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat maps (issue 20): the cells of a grid as caller points of the
 * scheduler (cs_sched_points), placed by the ruleset's map_place hook. See
 * include/chargesim/map.h. */
#include "chargesim/map.h"
#include "chargesim/checkpoint.h"
#include "chargesim/parse.h"
#include "chargesim/registry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Cells per scheduler run: bounds the memory of a large map. Every cell
 * draws from the streams of point 0 and its estimate depends on its own
 * values alone, so the cut changes no number. */
#define CHUNK_CELLS 8192u

static bool parse_number(const char *s, size_t len, double *out)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    double v = strtod(buf, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == buf || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

cs_status cs_map_axis_parse(const char *text, const char *what, cs_map_axis *out, cs_error *err)
{
    const char *dots = text ? strstr(text, "..") : NULL;
    if (!dots)
        return cs_error_set(err, CS_EINPUT, "%s '%s': expected LO..HI:STEP, e.g. -24..24:0.5",
                            what, text ? text : "");
    const char *colon = strchr(dots + 2, ':');
    double lo, hi, step = 0.5;
    size_t lb = colon ? (size_t)(colon - dots - 2) : strlen(dots + 2);
    if (!parse_number(text, (size_t)(dots - text), &lo) || !parse_number(dots + 2, lb, &hi) ||
        (colon && !parse_number(colon + 1, strlen(colon + 1), &step)))
        return cs_error_set(err, CS_EINPUT, "%s '%s': expected LO..HI:STEP with numbers", what,
                            text);
    if (!(step > 0.0) || hi < lo)
        return cs_error_set(err, CS_EINPUT, "%s '%s': needs LO <= HI and STEP > 0", what, text);
    if ((hi - lo) / step >= (double)CS_MAP_MAX_AXIS)
        return cs_error_set(err, CS_ELIMIT, "%s '%s': more than %d values", what, text,
                            CS_MAP_MAX_AXIS);
    int n = 0;
    while (lo + (double)n * step <= hi + 1e-9 * step)
        n++;
    /* As an experiment's sweep (experiment.c): a step that passes HI is
     * refused rather than HI dropped unsaid. */
    double end = lo + (double)(n - 1) * step;
    if (hi - end > 1e-9 * step)
        return cs_error_set(err, CS_EINPUT,
                            "%s '%s': the step does not land on %.*s (the last value would be "
                            "%.10g); end the axis at %.10g, or take a step that divides HI - LO",
                            what, text, (int)lb, dots + 2, end, end);
    char lo_txt[64];
    snprintf(lo_txt, sizeof lo_txt, "%.*s", (int)(dots - text), text);
    int pl = cs_parse_decimals(lo_txt), ps = colon ? cs_parse_decimals(colon + 1) : 1;
    *out = (cs_map_axis){lo, hi, step, n, pl < 0 || ps < 0 ? -1 : pl > ps ? pl : ps};
    return CS_OK;
}

void cs_map_axis_text(const cs_map_axis *a, int i, char *buf, size_t cap)
{
    double x = a->lo + (double)i * a->step;
    cs_parse_format_value(buf, cap, x > a->hi ? a->hi : x, a->places);
}

double cs_map_axis_value(const cs_map_axis *a, int i)
{
    char buf[64];
    cs_map_axis_text(a, i, buf, sizeof buf);
    return strtod(buf, NULL);
}

/* What the scheduler's place and stands callbacks need. */
typedef struct map_job {
    const cs_ruleset *rs;
    const cs_map_axis *x, *y;
    uint64_t first; /* the chunk's first cell */
    cs_params base; /* the experiment's values, none marked drawn (stand_cell) */
    double *xs, *ys; /* the axes' values (cs_map_axis_value), for stand_cell */
} map_job;

static bool place_cell(void *user, uint64_t k, cs_params *p)
{
    const map_job *j = user;
    uint64_t c = j->first + k;
    cs_map_spot spot;
    cs_diag diag = {0};
    int i = (int)(c % (uint64_t)j->x->n), r = (int)(c / (uint64_t)j->x->n);
    return j->rs->map_place(p, cs_map_axis_value(j->x, i), cs_map_axis_value(j->y, r), &spot,
                            &diag) == CS_OK &&
           spot.placed;
}

/* Whether the target of cell first + k can stand in the layout one trial's
 * drawn values make: map_place asked as for a fixed layout of those values
 * (a drawn value then counts as the value it drew). */
static bool stand_cell(void *user, uint64_t k, const double *num)
{
    const map_job *j = user;
    uint64_t c = j->first + k;
    cs_params p = j->base;
    cs_map_spot spot;
    cs_diag diag = {0};
    memcpy(p.num, num, sizeof p.num);
    return j->rs->map_place(&p, j->xs[c % (uint64_t)j->x->n], j->ys[c / (uint64_t)j->x->n],
                            &spot, &diag) == CS_OK &&
           spot.placed;
}

/* The rulesets a map can take, for the refusal message. */
static void mappable(char *buf, size_t cap)
{
    size_t u = 0;
    buf[0] = '\0';
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        if (!rs->map_place)
            continue;
        int w = snprintf(buf + u, cap - u, "%s%s", u ? ", " : "", rs->name);
        if (w < 0 || (size_t)w >= cap - u)
            return;
        u += (size_t)w;
    }
}

/* What a map refuses before anything runs; on success out gets the
 * charger's footprint and every cell's `placed`. */
static cs_status check_map(const cs_experiment *e, map_job *j, cs_map_result *out,
                           cs_error *err)
{
    const cs_ruleset *rs = e->rs;
    if (!rs->map_place) {
        char names[256];
        mappable(names, sizeof names);
        return cs_error_set(err, CS_EINPUT,
                            "ruleset %s places no units on a table, so it has no threat map; "
                            "maps exist for: %s",
                            rs->name, names);
    }
    if (e->n_sweep > 0) {
        const cs_value_spec *v = &e->param[e->sweep[0]];
        char at[64] = "";
        if (v->line)
            snprintf(at, sizeof at, ":%d", v->line);
        return cs_error_set(err, CS_EINPUT,
                            "%s = %s is swept (%s%s): a map is one configuration; fix it, "
                            "e.g. --set %s=%s",
                            rs->params[e->sweep[0]].key, v->raw, v->origin, at,
                            rs->params[e->sweep[0]].key, v->text[0]);
    }
    cs_params base;
    cs_experiment_point(e, 0, &base);
    uint64_t n = (uint64_t)j->x->n * (uint64_t)j->y->n;
    for (uint64_t c = 0; c < n; c++) {
        cs_params p = base;
        cs_map_spot spot = {0};
        cs_diag diag = {0};
        double x = cs_map_axis_value(j->x, (int)(c % (uint64_t)j->x->n));
        double y = cs_map_axis_value(j->y, (int)(c / (uint64_t)j->x->n));
        if (rs->map_place(&p, x, y, &spot, &diag) != CS_OK) {
            int idx = diag.key ? cs_ruleset_param_index(rs, diag.key) : -1;
            cs_error_set(err, CS_EINPUT, "%s%s%s: %s", diag.key ? diag.key : "map",
                         idx >= 0 ? " = " : "", idx >= 0 ? e->param[idx].raw : "",
                         diag.what ? diag.what : "cannot be mapped");
            return cs_error_key(err, idx >= 0 ? diag.key : NULL);
        }
        out->cell[c].placed = spot.placed;
        out->charger_w = spot.charger_w;
        out->charger_d = spot.charger_d;
    }
    return CS_OK;
}

/* Progress over the whole map from the chunks' own reports. */
typedef struct map_progress {
    const cs_run_opts *opts;
    uint64_t before; /* trials of the chunks done */
    double left;     /* chunks still to come after this one */
} map_progress;

static void chunk_progress(void *user, uint64_t done, uint64_t total)
{
    const map_progress *mp = user;
    uint64_t rest = (uint64_t)((double)total * mp->left);
    mp->opts->progress(mp->opts->progress_user, mp->before + done, mp->before + total + rest);
}

static void copy_cell(const cs_ruleset *rs, const cs_point_result *pr, cs_map_cell *c)
{
    c->trials = pr->trials;
    c->cannot_stand = pr->cannot_stand;
    c->p_cannot_stand = pr->p_cannot_stand;
    c->cannot_stand_low = pr->cannot_stand_low;
    c->cannot_stand_high = pr->cannot_stand_high;
    c->p_success = pr->p_success;
    c->ci_low = pr->ci_low;
    c->ci_high = pr->ci_high;
    for (int o = 0; o < rs->n_outcomes; o++)
        c->p_outcome[o] = pr->p_outcome[o];
}

/* --checkpoint (checkpoint.h): a map's own state, saved with the run of
 * the chunk under way: that chunk's first cell, the cells before it as
 * they were reported, and what the chunks so far said of the whole. */
typedef struct map_ckpt {
    char tag[8];
    uint64_t first, cells, before, max_trials;
    uint32_t method, success_mask, precision_met, unused;
} map_ckpt;

#define MAP_TAG "MAPCELLS"

/* The map's state from the checkpoint it resumes, if any, into out, *j
 * and *mp. */
static cs_status map_resume(cs_ckpt *ck, map_job *j, map_progress *mp, cs_map_result *out,
                            cs_error *err)
{
    uint64_t n = (uint64_t)j->x->n * (uint64_t)j->y->n;
    map_ckpt mk;
    j->first = 0;
    size_t len = 0;
    const unsigned char *in = ck ? cs_ckpt_take_outer(ck, &len) : NULL;
    if (!in)
        return CS_OK;
    if (len >= sizeof mk)
        memcpy(&mk, in, sizeof mk);
    if (len < sizeof mk || memcmp(mk.tag, MAP_TAG, sizeof mk.tag) != 0 ||
        mk.cells != n || mk.first >= n || mk.first % CHUNK_CELLS != 0 ||
        len - sizeof mk != mk.first * sizeof *out->cell)
        return cs_error_set(err, CS_EINPUT,
                            "--checkpoint: the map's state in it does not fit this map; "
                            "remove the file to start afresh");
    memcpy(out->cell, in + sizeof mk, (size_t)mk.first * sizeof *out->cell);
    j->first = mk.first;
    mp->before = mk.before;
    out->max_trials = mk.max_trials;
    out->method = (cs_method)mk.method;
    out->success_mask = mk.success_mask;
    out->precision_met = mk.precision_met != 0;
    return CS_OK;
}

/* The map's state as the next checkpoint saves it (into *mk, which must
 * live through the chunk). */
static void map_save(cs_ckpt *ck, const map_job *j, const map_progress *mp,
                     const cs_map_result *out, map_ckpt *mk)
{
    if (!ck)
        return;
    *mk = (map_ckpt){.first = j->first, .cells = (uint64_t)j->x->n * (uint64_t)j->y->n,
                     .before = mp->before, .max_trials = out->max_trials,
                     .method = (uint32_t)out->method, .success_mask = out->success_mask,
                     .precision_met = out->precision_met};
    memcpy(mk->tag, MAP_TAG, sizeof mk->tag);
    const cs_ckpt_piece pc[2] = {{mk, sizeof *mk},
                                 {out->cell, (size_t)j->first * sizeof *out->cell}};
    cs_ckpt_set_outer(ck, pc, 2);
}

static cs_status run_chunks(const cs_experiment *e, map_job *j, const cs_run_opts *opts,
                            cs_map_result *out, cs_error *err)
{
    uint64_t n = (uint64_t)j->x->n * (uint64_t)j->y->n;
    out->precision_met = true;
    map_progress mp = {opts, 0, 0.0};
    map_ckpt mk;
    cs_status st = map_resume(opts->checkpoint, j, &mp, out, err);
    for (; st == CS_OK && j->first < n; j->first += CHUNK_CELLS) {
        uint64_t m = n - j->first < CHUNK_CELLS ? n - j->first : CHUNK_CELLS;
        map_save(opts->checkpoint, j, &mp, out, &mk);
        /* With drawn values each trial's placement is asked too. */
        cs_sched_points pts = {m, place_cell, j, e->n_drawn > 0 ? stand_cell : NULL};
        cs_run_opts o = *opts;
        o.points = &pts;
        mp.left = (double)(n - j->first - m) / (double)m;
        if (opts->progress) {
            o.progress = chunk_progress;
            o.progress_user = &mp;
        }
        cs_run_result r;
        if ((st = cs_sched_run(e, &o, &r, err)) != CS_OK)
            break;
        for (uint64_t k = 0; k < m; k++)
            if (out->cell[j->first + k].placed)
                copy_cell(e->rs, &r.point[k], &out->cell[j->first + k]);
        for (uint64_t k = 0; k < m; k++)
            mp.before += r.point[k].trials + r.point[k].cannot_stand;
        out->method = r.method;
        out->success_mask = r.success_mask;
        out->max_trials = r.max_trials;
        out->precision_met = out->precision_met && r.precision_met;
        cs_sched_result_free(&r);
    }
    if (opts->checkpoint)
        cs_ckpt_set_outer(opts->checkpoint, NULL, 0);
    return st;
}

cs_status cs_map_run(const cs_experiment *e, const cs_map_axis *x, const cs_map_axis *y,
                     const cs_run_opts *opts, cs_map_result *out, cs_error *err)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(out, 0, sizeof *out);
    uint64_t n = (uint64_t)x->n * (uint64_t)y->n;
    if (n == 0 || n > CS_MAP_MAX_CELLS)
        return cs_error_set(err, CS_ELIMIT, "%llu cells: a map takes 1 to %llu",
                            (unsigned long long)n, CS_MAP_MAX_CELLS);
    out->exp = e;
    out->x = *x;
    out->y = *y;
    out->cell = calloc((size_t)n, sizeof *out->cell);
    if (!out->cell)
        return cs_error_set(err, CS_ENOMEM, "out of memory for %llu cells",
                            (unsigned long long)n);
    map_job j = {e->rs, x, y, 0, {{0}, {0}, {0}}, NULL, NULL};
    cs_experiment_point(e, 0, &j.base);
    memset(j.base.drawn, 0, sizeof j.base.drawn);
    j.xs = malloc((size_t)(x->n + y->n) * sizeof *j.xs);
    if (!j.xs) {
        cs_map_result_free(out);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    j.ys = j.xs + x->n;
    for (int i = 0; i < x->n; i++)
        j.xs[i] = cs_map_axis_value(x, i);
    for (int i = 0; i < y->n; i++)
        j.ys[i] = cs_map_axis_value(y, i);
    cs_status st = check_map(e, &j, out, err);
    for (uint64_t c = 0; c < n; c++) {
        cs_map_cell *cell = &out->cell[c];
        if (!cell->placed) {
            cell->p_success = cell->ci_low = cell->ci_high = (double)NAN;
            for (int o = 0; o < CS_MAX_OUTCOMES; o++)
                cell->p_outcome[o] = (double)NAN;
            cell->p_cannot_stand = cell->cannot_stand_low = cell->cannot_stand_high = 1.0;
        }
    }
    if (st == CS_OK)
        st = run_chunks(e, &j, opts, out, err);
    free(j.xs);
    if (st != CS_OK) {
        cs_map_result_free(out);
        return st;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return CS_OK;
}

void cs_map_result_free(cs_map_result *r)
{
    free(r->cell);
    memset(r, 0, sizeof *r);
}
