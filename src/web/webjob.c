/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One request of the web edition, run as the command line runs the same
 * command; see include/chargesim/webjob.h. Each command below follows its
 * src/cli/cmd_*.c: the same checks in the same order, so a link and the
 * command it shows give the same table or the same refusal. */
#include "chargesim/webjob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmpreport.h"
#include "chargesim/compare.h"
#include "chargesim/dicereport.h"
#include "chargesim/estimator.h"
#include "chargesim/map.h"
#include "chargesim/parse.h"
#include "chargesim/report.h"
#include "chargesim/sched.h"
#include "chargesim/success.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

/* Progress goes to the worker's JavaScript, which posts it to the page. */
EM_JS(void, web_progress, (double done, double total), {
    if (Module.onProgress)
        Module.onProgress(done, total);
});
#endif

static void progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
#ifdef __EMSCRIPTEN__
    web_progress((double)done, (double)total);
#else
    (void)done;
    (void)total;
#endif
}

void cs_webjob_init(cs_webjob *j, const char *cmd)
{
    memset(j, 0, sizeof *j);
    snprintf(j->cmd, sizeof j->cmd, "%s", cmd);
    j->field = -1;
    cs_webopt none = {NULL, -1};
    j->success = j->x = j->y = j->expr = j->trials = j->seed = none;
}

void cs_webjob_free(cs_webjob *j)
{
    for (int i = 0; i < j->argc; i++)
        free(j->argv[i]);
    cs_table_free(&j->table);
    cs_mapdraw_free(&j->map);
    j->argc = 0;
}

bool cs_webjob_known(const char *cmd)
{
    return strcmp(cmd, "run") == 0 || strcmp(cmd, "map") == 0 || strcmp(cmd, "compare") == 0 ||
           strcmp(cmd, "dice") == 0;
}

bool cs_webjob_word(cs_webjob *j, const char *w)
{
    if (j->argc == CS_WEBJOB_MAX_ARGS || !(j->argv[j->argc] = strdup(w)))
        return false;
    j->argc++;
    return true;
}

/* The pair of the key at fault in a refusal of the experiment as a whole
 * (cs_error.key: `distance`, `method`), whatever its section, or -1. */
static int named_pair(const cs_websets *s, const char *key)
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

/* Builds e from the overrides s1 then s2, as `chargesim CMD -` does with
 * its --set (and --b): CS_OK, or the refusal with the field at fault. */
static cs_status build(cs_webjob *j, const cs_websets *s1, const cs_websets *s2,
                       cs_experiment *e)
{
    cs_entries l = {0};
    const cs_websets *both[2] = {s1, s2};
    cs_status st = CS_OK;
    int failed;
    cs_experiment_init(e, "-");
    for (int k = 0; k < 2 && st == CS_OK; k++)
        for (int i = 0; both[k] && i < both[k]->n && st == CS_OK; i++)
            if ((st = cs_entries_add_set(&l, both[k]->text[i], &j->err)) != CS_OK)
                j->field = both[k]->pair[i];
    if (st == CS_OK && (st = cs_entries_apply(&l, e, &failed, &j->err)) != CS_OK) {
        int n1 = s1->n;
        if (failed >= 0)
            j->field = failed < n1 ? s1->pair[failed] : s2->pair[failed - n1];
        else if ((j->field = named_pair(s1, j->err.key)) < 0 && s2)
            j->field = named_pair(s2, j->err.key);
    }
    cs_entries_free(&l);
    if (st != CS_OK)
        cs_experiment_free(e);
    return st;
}

/* The success outcomes of --success (0: the ruleset's own). */
static cs_status success_mask(cs_webjob *j, const cs_experiment *e, unsigned *mask)
{
    *mask = 0;
    if (!j->success.value)
        return CS_OK;
    cs_status st = cs_success_parse(e->rs, j->success.value, mask, &j->err);
    if (st != CS_OK)
        j->field = j->success.pair;
    return st;
}

/* Builds A (and B for compare). */
static cs_status build_all(cs_webjob *j, cs_experiment *a, cs_experiment *b)
{
    cs_status st = build(j, &j->a, NULL, a);
    if (st == CS_OK && b && (st = build(j, &j->a, &j->b, b)) != CS_OK)
        cs_experiment_free(a);
    return st;
}

static cs_status run_run(cs_webjob *j, cs_run_opts *opts)
{
    cs_experiment e;
    cs_run_result res;
    cs_status st = build_all(j, &e, NULL);
    if (st != CS_OK)
        return st;
    if ((st = success_mask(j, &e, &opts->success_mask)) == CS_OK &&
        (st = cs_sched_run(&e, opts, &res, &j->err)) == CS_OK) {
        if ((st = cs_report_summary(&res, CS_FORMAT_CSV, &j->table)) != CS_OK)
            cs_error_set(&j->err, st, "out of memory");
        cs_report_method_note(&res, j->note, (int)sizeof j->note);
        snprintf(j->method, sizeof j->method, "%s", cs_method_name(res.method));
        if (e.precision > 0.0 && !res.precision_met)
            cs_report_precision_warning("points", res.max_trials, j->warning, sizeof j->warning);
        cs_sched_result_free(&res);
    }
    cs_experiment_free(&e);
    return st;
}

/* A map axis of the link, or the command line's default. */
static cs_status axis(cs_webjob *j, const cs_webopt *o, const char *def, const char *what,
                      cs_map_axis *out)
{
    cs_status st = cs_map_axis_parse(o->value ? o->value : def, what, out, &j->err);
    if (st != CS_OK)
        j->field = o->pair;
    return st;
}

static cs_status run_map(cs_webjob *j, cs_run_opts *opts)
{
    cs_experiment e;
    cs_map_axis x, y;
    cs_map_result m;
    cs_status st = build_all(j, &e, NULL);
    if (st != CS_OK)
        return st;
    if ((st = axis(j, &j->x, CS_MAP_DEFAULT_X, "--x", &x)) == CS_OK &&
        (st = axis(j, &j->y, CS_MAP_DEFAULT_Y, "--y", &y)) == CS_OK &&
        (st = success_mask(j, &e, &opts->success_mask)) == CS_OK &&
        (st = cs_map_run(&e, &x, &y, opts, &m, &j->err)) == CS_OK) {
        if ((st = cs_report_map(&m, &j->table)) != CS_OK)
            cs_error_set(&j->err, st, "out of memory");
        cs_report_map_caption(&m, j->note, sizeof j->note);
        snprintf(j->method, sizeof j->method, "%s", cs_method_name(m.method));
        if (st == CS_OK && (st = cs_mapdraw_of_map(&m, &j->map)) != CS_OK)
            cs_error_set(&j->err, st, "out of memory");
        j->has_map = st == CS_OK;
        if (e.precision > 0.0 && !m.precision_met)
            cs_report_precision_warning("cells", m.max_trials, j->warning, sizeof j->warning);
        cs_map_result_free(&m);
    }
    cs_experiment_free(&e);
    return st;
}

/* compare's --b overrides as its note names them: "K=V, K=V". */
static void b_description(const cs_webjob *j, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < j->b.n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", j->b.text[i]);
    }
}

static cs_status run_compare(cs_webjob *j, cs_run_opts *opts)
{
    cs_experiment a, b;
    cs_cmp_result res;
    char why[512], bd[1024];
    if (j->b.n == 0)
        return cs_error_set(&j->err, CS_EINPUT, "%s", CS_CMP_NO_B);
    cs_status st = build_all(j, &a, &b);
    if (st != CS_OK)
        return st;
    const char *problem = cs_cmp_pair_problem(&a, &b, why, sizeof why);
    memset(&res, 0, sizeof res);
    if (problem)
        st = cs_error_set(&j->err, CS_EINPUT, "%s", problem);
    if (st == CS_OK && (st = success_mask(j, &a, &opts->success_mask)) == CS_OK &&
        (st = cs_cmp_run(&a, &b, opts, &res, &j->err)) == CS_OK) {
        b_description(j, bd, sizeof bd);
        if ((st = cs_cmpreport_table(&res, bd, CS_FORMAT_CSV, &j->table)) != CS_OK)
            cs_error_set(&j->err, st, "out of memory");
        cs_cmpreport_note(&res, bd, false, j->note, sizeof j->note);
        snprintf(j->method, sizeof j->method, "%s", cs_method_name(res.method));
        if (a.precision > 0.0 && !res.precision_met)
            cs_report_precision_warning("points", CS_SCHED_DEFAULT_MAX_TRIALS, j->warning,
                                        sizeof j->warning);
    }
    cs_cmp_result_free(&res);
    cs_experiment_free(&b);
    cs_experiment_free(&a);
    return st;
}

/* dice's options in the order the link gives them, as the command line
 * reads its arguments. */
static cs_status dice_options(cs_webjob *j, uint64_t *trials, uint64_t *seed)
{
    const cs_webopt *first = &j->trials, *second = &j->seed;
    if (j->seed.pair >= 0 && (j->trials.pair < 0 || j->seed.pair < j->trials.pair)) {
        first = &j->seed;
        second = &j->trials;
    }
    const cs_webopt *in_order[2] = {first, second};
    for (int k = 0; k < 2; k++) {
        const cs_webopt *o = in_order[k];
        if (!o->value)
            continue;
        bool is_trials = o == &j->trials;
        cs_status st = cs_parse_u64_option(is_trials ? "--trials" : "--seed", o->value,
                                           is_trials ? 1 : 0,
                                           is_trials ? CS_DICE_MAX_TRIALS : UINT64_MAX,
                                           is_trials ? trials : seed, &j->err);
        if (st != CS_OK) {
            j->field = o->pair;
            return st;
        }
    }
    if (!j->expr.value) {
        j->field_name = "expr";
        return cs_error_set(&j->err, CS_EINPUT, "no dice expression: type one, e.g. 2d6 "
                                                "(in a link: expr=2d6)");
    }
    cs_status st = cs_dicereport_options(false, *trials, j->seed.value ? "--seed" : NULL, &j->err);
    if (st != CS_OK)
        j->field = j->seed.pair;
    return st;
}

static cs_status run_dice(cs_webjob *j)
{
    uint64_t trials = 0, seed = 1;
    cs_dice d;
    cs_status st = dice_options(j, &trials, &seed);
    if (st == CS_OK && (st = cs_dicereport_parse(j->expr.value, &d, &j->err)) != CS_OK)
        j->field = j->expr.pair;
    if (st != CS_OK)
        return st;
    st = trials ? cs_dicereport_sampled(j->expr.value, &d, trials, seed, 0, 0.95, CS_FORMAT_CSV,
                                        &j->table, &j->err)
                : cs_dicereport_exact(j->expr.value, &d, CS_FORMAT_CSV, &j->table, &j->err);
    if (st == CS_OK) {
        snprintf(j->note, sizeof j->note, "%s", j->table.note ? j->table.note : "");
        snprintf(j->method, sizeof j->method, "%s", trials ? "mc" : "exact");
    } else if (st == CS_ELIMIT) {
        j->field = j->expr.pair;
    }
    return st;
}

cs_status cs_webjob_run(cs_webjob *j)
{
    cs_run_opts opts = {.threads = 0, .progress = progress};
    if (strcmp(j->cmd, "run") == 0)
        return run_run(j, &opts);
    if (strcmp(j->cmd, "map") == 0)
        return run_map(j, &opts);
    if (strcmp(j->cmd, "compare") == 0)
        return run_compare(j, &opts);
    return run_dice(j);
}
