/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The experiment model: its keys, labels, sweep points, the check that a
 * method can run it (auto is decided by the estimators' registry,
 * src/sim/est/est_registry.c); see include/chargesim/experiment.h. Its
 * value syntax (sweeps, lists, draws) is experiment_value.c. */
#include "chargesim/experiment.h"
#include "chargesim/parse.h"
#include "experiment_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"

static const char *const method_names[] = {"auto", "mc", "conditional", "exact", "rqmc"};

const char *cs_method_name(cs_method m)
{
    return method_names[m];
}

bool cs_method_parse(const char *s, cs_method *out)
{
    for (int i = 0; i < (int)(sizeof method_names / sizeof *method_names); i++)
        if (strcmp(s, method_names[i]) == 0) {
            *out = (cs_method)i;
            return true;
        }
    return false;
}

static void spec_clear(cs_value_spec *v)
{
    for (int i = 0; v->text && i < v->n; i++)
        free(v->text[i]);
    free(v->text);
    free(v->num);
    free(v->raw);
    free(v->origin);
    memset(v, 0, sizeof *v);
}

void cs_experiment_init(cs_experiment *e, const char *origin)
{
    memset(e, 0, sizeof *e);
    e->origin = strdup(origin ? origin : "");
    e->trials = 100000;
    e->seed = 1;
    e->method = CS_METHOD_AUTO;
    e->confidence = 0.95;
    e->replicates = CS_EXPERIMENT_REPLICATES;
}

static void label_clear(cs_label_spec *l)
{
    for (int i = 0; l->text && i < l->n; i++)
        free(l->text[i]);
    free(l->text);
    free(l->origin);
    memset(l, 0, sizeof *l);
}

void cs_experiment_free(cs_experiment *e)
{
    for (int i = 0; i < CS_MAX_PARAMS; i++) {
        spec_clear(&e->param[i]);
        label_clear(&e->label[i]);
    }
    free(e->origin);
    free(e->method_origin);
    free(e->name);
    free(e->description);
    memset(e, 0, sizeof *e);
}

/* "FILE:LINE: " or "--set: " prefix of a message. */
static void where(char *buf, size_t cap, const char *origin, int line)
{
    if (line > 0)
        snprintf(buf, cap, "%s:%d", origin, line);
    else
        snprintf(buf, cap, "%s", origin);
}

/* Integers go through the one parser (chargesim/parse.h): digits only,
 * never through a double. */
static bool parse_u64(const char *s, uint64_t *out)
{
    return cs_parse_u64(s, out, NULL);
}

static cs_status set_param(cs_experiment *e, int idx, const char *value, const char *origin,
                           int line, cs_error *err)
{
    const cs_param_def *def = &e->rs->params[idx];
    cs_value_spec fresh = {0};
    char at[512];
    where(at, sizeof at, origin, line);
    fresh.raw = cs_experiment_trimmed(value, strlen(value));
    fresh.origin = strdup(origin);
    fresh.line = line;
    if (!fresh.raw || !fresh.origin) {
        spec_clear(&fresh);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    cs_status st = cs_experiment_parse_value(def, e->rs->name, fresh.raw, &fresh, at, err);
    if (st != CS_OK) {
        spec_clear(&fresh);
        return st;
    }
    /* An override keeps the key's place in the sweep order. */
    fresh.order = e->param[idx].raw ? e->param[idx].order : e->next_order++;
    spec_clear(&e->param[idx]);
    e->param[idx] = fresh;
    return CS_OK;
}

/* [labels] KEY = a, b, c: kept as given; cs_experiment_finish checks them
 * against KEY's sweep, which may come later in the file or by --set. */
static cs_status set_labels(cs_experiment *e, int idx, const char *value, const char *origin,
                            int line, const char *at, cs_error *err)
{
    cs_label_spec fresh = {0};
    fresh.origin = strdup(origin);
    fresh.line = line;
    if (!fresh.origin)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    for (const char *s = value;;) {
        const char *c = strchr(s, ',');
        char *item = cs_experiment_trimmed(s, c ? (size_t)(c - s) : strlen(s));
        char **nt = item ? realloc(fresh.text, (size_t)(fresh.n + 1) * sizeof *nt) : NULL;
        if (!nt) {
            free(item);
            label_clear(&fresh);
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        }
        fresh.text = nt;
        fresh.text[fresh.n++] = item;
        if (item[0] == '\0') {
            label_clear(&fresh);
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[labels] %s = '%s': empty label; give one label per "
                                   "value of %s, separated by commas",
                                   e->rs->params[idx].key, value, e->rs->params[idx].key);
        }
        if (!c)
            break;
        s = c + 1;
    }
    label_clear(&e->label[idx]);
    e->label[idx] = fresh;
    return CS_OK;
}

/* Each [labels] key names a swept key's values, one label per value. A
 * file's labels name the file's values: when --set replaces the values
 * (and not the labels) they no longer apply and are dropped. */
static cs_status check_labels(cs_experiment *e, cs_error *err)
{
    for (int i = 0; i < e->rs->n_params; i++) {
        cs_label_spec *l = &e->label[i];
        const cs_value_spec *v = &e->param[i];
        const char *key = e->rs->params[i].key;
        char at[512];
        if (l->n > 0 && l->line > 0 && v->line == 0 && strcmp(v->origin, "default") != 0)
            label_clear(l);
        if (l->n == 0)
            continue;
        where(at, sizeof at, l->origin, l->line);
        if (v->kind != CS_VAL_SWEEP)
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[labels] %s: %s is not swept (%s = %s); labels name the "
                                   "values of a swept key",
                                   key, key, key, v->raw);
        if (l->n != v->n)
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[labels] %s: %d label%s for %d values (%s = %s); give one "
                                   "per value, in order",
                                   key, l->n, l->n == 1 ? "" : "s", v->n, key, v->raw);
    }
    return CS_OK;
}

const char *cs_experiment_label(const cs_experiment *e, int i, int j)
{
    return e->label[i].n > j ? e->label[i].text[j] : NULL;
}

static const char *const experiment_keys[] = {"name",   "description", "ruleset",
                                              "trials", "seed",        "method",
                                              "confidence", "precision", "replicates"};

/* An unknown [experiment] key: its likely correction, else the list. */
static cs_status unknown_experiment_key(const char *at, const char *key, cs_error *err)
{
    char list[256] = "";
    cs_parse_suggest sg = {key, NULL, 0};
    for (size_t i = 0; i < sizeof experiment_keys / sizeof *experiment_keys; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", experiment_keys[i]);
        cs_parse_suggest_offer(&sg, experiment_keys[i]);
    }
    if (sg.best)
        return cs_error_set_at(err, CS_EINPUT, at,
                               "[experiment] unknown key '%s'; did you mean %s?", key, sg.best);
    return cs_error_set_at(err, CS_EINPUT, at, "[experiment] unknown key '%s'; expected one of: %s",
                           key, list);
}

/* [experiment] ruleset = NAME: a known ruleset, chosen before its parameters. */
static cs_status set_ruleset(cs_experiment *e, const char *v, const char *at, cs_error *err)
{
    cs_status st = CS_OK;
    const cs_ruleset *rs = cs_registry_find(v);
    if (!rs) {
        char list[512] = "";
        cs_parse_suggest sg = {v, NULL, 0};
        for (int i = 0; i < cs_registry_count(); i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                     cs_registry_at(i)->name);
            cs_parse_suggest_offer(&sg, cs_registry_at(i)->name);
        }
        st = cs_error_set_at(err, CS_EINPUT, at, "ruleset = '%s': %s%s%sexpected one of: %s", v,
                             sg.best ? "did you mean " : "", sg.best ? sg.best : "",
                             sg.best ? "? " : "", list);
    } else if (e->rs && e->rs != rs) {
        for (int i = 0; i < CS_MAX_PARAMS; i++)
            if (e->param[i].raw)
                st = cs_error_set_at(err, CS_EINPUT, at,
                                     "ruleset = '%s': set the ruleset before its "
                                     "parameters",
                                     v);
        if (st == CS_OK)
            e->rs = rs;
    } else {
        e->rs = rs;
    }
    return st;
}

/* Where method was set (at: "FILE:LINE" or "command line"), for the
 * refusal of a method the scenario does not allow. */
static cs_status set_method_origin(cs_experiment *e, const char *at, cs_error *err)
{
    free(e->method_origin);
    e->method_origin = strdup(at);
    return e->method_origin ? CS_OK : cs_error_set(err, CS_ENOMEM, "out of memory");
}

/* The numeric [experiment] keys (v is a trimmed copy the caller owns):
 * CS_OK, an error, or -1 when key is none of them. */
static int set_number_key(cs_experiment *e, const char *key, char *v, const char *value,
                          const char *at, cs_error *err)
{
    cs_status st = CS_OK;
    if (strcmp(key, "trials") == 0) {
        if (!parse_u64(v, &e->trials) || e->trials < 1 || e->trials > CS_EXPERIMENT_MAX_TRIALS)
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "trials = '%s': expected a whole number from 1 to 10^12", v);
    } else if (strcmp(key, "seed") == 0) {
        if (!parse_u64(v, &e->seed))
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "seed = '%s': expected a whole number from 0 to 2^64-1", v);
    } else if (strcmp(key, "method") == 0) {
        if (!cs_method_parse(v, &e->method))
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "method = '%s': expected auto, mc, conditional, exact or rqmc", v);
        else
            st = set_method_origin(e, at, err);
    } else if (strcmp(key, "confidence") == 0) {
        if (!cs_experiment_parse_double(v, &e->confidence) || !(e->confidence > 0.0) ||
            !(e->confidence < 1.0))
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "confidence = '%s': expected a number between 0 and 1 "
                                 "(e.g. 0.95)",
                                 v);
    } else if (strcmp(key, "precision") == 0) {
        size_t n = strlen(v);
        bool percent = n > 0 && v[n - 1] == '%';
        if (percent)
            v[n - 1] = '\0';
        if (!cs_experiment_parse_double(v, &e->precision) || e->precision < 0.0 ||
            (percent ? e->precision >= 100.0 : e->precision >= 1.0))
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "precision = '%s': expected an interval half-width "
                                 "such as 0.001 or 0.1%% (0 = off)",
                                 value);
        else if (percent)
            e->precision /= 100.0;
    } else if (strcmp(key, "replicates") == 0) {
        uint64_t r;
        if (!parse_u64(v, &r) || r < 2 || r > CS_EXPERIMENT_MAX_REPLICATES)
            st = cs_error_set_at(err, CS_EINPUT, at,
                                 "replicates = '%s': expected a whole number from 2 to %u", v,
                                 CS_EXPERIMENT_MAX_REPLICATES);
        else
            e->replicates = (unsigned)r;
    } else {
        return -1;
    }
    return (int)st;
}

cs_status cs_experiment_set(cs_experiment *e, const char *section, const char *key,
                            const char *value, const char *origin, int line, cs_error *err)
{
    char at[512];
    where(at, sizeof at, origin, line);
    if (strcmp(section, "experiment") == 0) {
        char *v = cs_experiment_trimmed(value, strlen(value));
        cs_status st = CS_OK;
        if (!v)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        if (strcmp(key, "name") == 0) {
            free(e->name);
            e->name = v;
            return CS_OK;
        } else if (strcmp(key, "description") == 0) {
            free(e->description);
            e->description = v;
            return CS_OK;
        } else if (strcmp(key, "ruleset") == 0) {
            st = set_ruleset(e, v, at, err);
        } else {
            int r = set_number_key(e, key, v, value, at, err);
            st = r >= 0 ? (cs_status)r : unknown_experiment_key(at, key, err);
        }
        free(v);
        return st;
    }
    if (strcmp(section, "params") == 0) {
        if (!e->rs)
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[params] %s: no ruleset chosen; set [experiment] ruleset "
                                   "first",
                                   key);
        int idx = cs_ruleset_param_index(e->rs, key);
        if (idx < 0) {
            char list[1024] = "";
            cs_parse_suggest sg = {key, NULL, 0};
            for (int i = 0; i < e->rs->n_params; i++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         e->rs->params[i].key);
                cs_parse_suggest_offer(&sg, e->rs->params[i].key);
            }
            /* A likely typo gets its correction, not the whole list. */
            if (sg.best)
                return cs_error_set_at(err, CS_EINPUT, at,
                                       "[params] unknown key '%s' for ruleset %s; did you mean "
                                       "%s? (chargesim rules %s lists its %d keys)",
                                       key, e->rs->name, sg.best, e->rs->name, e->rs->n_params);
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[params] unknown key '%s' for ruleset %s; expected one of: %s",
                                   key, e->rs->name, list);
        }
        return set_param(e, idx, value, origin, line, err);
    }
    if (strcmp(section, "labels") == 0) {
        int idx = e->rs ? cs_ruleset_param_index(e->rs, key) : -1;
        if (idx < 0)
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "[labels] unknown key '%s'; a label list names the values "
                                   "of one of the ruleset's swept [params] keys",
                                   key);
        return set_labels(e, idx, value, origin, line, at, err);
    }
    return cs_error_set_at(err, CS_EINPUT, at,
                           "unknown section [%s]; expected [experiment], [params] or [labels]",
                           section);
}

void cs_experiment_point_choices(const cs_experiment *e, uint64_t k, int *choice)
{
    uint64_t rest = k;
    memset(choice, 0, CS_MAX_PARAMS * sizeof *choice);
    for (int s = e->n_sweep - 1; s >= 0; s--) {
        const cs_value_spec *v = &e->param[e->sweep[s]];
        choice[e->sweep[s]] = (int)(rest % (uint64_t)v->n);
        rest /= (uint64_t)v->n;
    }
}

void cs_experiment_point(const cs_experiment *e, uint64_t k, cs_params *out)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < e->rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        const cs_param_type t = e->rs->params[i].type;
        out->num[i] = v->num[choice[i]];
        out->drawn[i] = v->kind == CS_VAL_UNIFORM || v->kind == CS_VAL_NORMAL;
        if (t == CS_PARAM_DICE || t == CS_PARAM_TEXT || t == CS_PARAM_POLYGON)
            out->text[i] = v->text[choice[i]];
    }
}

void cs_experiment_point_label(const cs_experiment *e, uint64_t k, char *buf, int cap)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    buf[0] = '\0';
    for (int s = 0; s < e->n_sweep; s++) {
        int i = e->sweep[s];
        size_t used = strlen(buf);
        snprintf(buf + used, (size_t)cap - used, "%s%s=%s", s ? ", " : "", e->rs->params[i].key,
                 e->param[i].text[choice[i]]);
    }
}

/* method = exact on a random layout: where method was set, and what makes
 * the layout random (the first drawn key and where it was set, or the
 * ruleset's own draws). */
static cs_status exact_refused(const cs_experiment *e, cs_error *err)
{
    char why[1200];
    snprintf(why, sizeof why, "the ruleset draws part of it itself");
    for (int i = 0; i < e->rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        if (v->kind != CS_VAL_UNIFORM && v->kind != CS_VAL_NORMAL)
            continue;
        char vat[512];
        where(vat, sizeof vat, v->origin, v->line);
        snprintf(why, sizeof why, "%s = %s, %s", e->rs->params[i].key, v->raw, vat);
        break;
    }
    cs_error_set(err, CS_EINPUT,
                 "%s: method = exact: the layout is drawn at random each trial (%s); "
                 "use --method conditional (exact dice, sampled layouts) or mc",
                 e->method_origin ? e->method_origin : e->origin, why);
    return cs_error_key(err, "method");
}

cs_status cs_experiment_method_check(const cs_experiment *e, cs_method m, cs_error *err)
{
    if (m == CS_METHOD_MC || m == CS_METHOD_AUTO)
        return CS_OK;
    if (!e->rs->outcome_probabilities)
        return cs_error_set(err, CS_EINPUT,
                            "method %s: ruleset %s has no exact outcome probabilities; use "
                            "--method mc",
                            cs_method_name(m), e->rs->name);
    if (m == CS_METHOD_EXACT && e->layout_random)
        return exact_refused(e, err);
    return CS_OK;
}

cs_status cs_experiment_prepare(const cs_experiment *e, uint64_t k, const cs_params *p,
                                void *ctx, cs_error *err)
{
    cs_diag diag = {0};
    cs_status st = e->rs->prepare(p, ctx, &diag);
    if (st == CS_OK)
        return CS_OK;
    int idx = diag.key ? cs_ruleset_param_index(e->rs, diag.key) : -1;
    char label[512], kat[512];
    cs_experiment_point_label(e, k, label, sizeof label);
    if (idx >= 0)
        where(kat, sizeof kat, e->param[idx].origin, e->param[idx].line);
    else
        where(kat, sizeof kat, e->origin, 0);
    cs_error_set(err, st, "%s: %s%s%s: %s%s%s%s", kat, diag.key ? diag.key : "",
                 idx >= 0 ? " = " : "", idx >= 0 ? e->param[idx].raw : "",
                 diag.what ? diag.what : "invalid parameters", label[0] ? " (at " : "", label,
                 label[0] ? ")" : "");
    return cs_error_key(err, idx >= 0 ? diag.key : NULL);
}

cs_status cs_experiment_finish(cs_experiment *e, cs_error *err)
{
    char at[512];
    /* cs_experiment_init cannot report its strdup failing: it shows here. */
    if (!e->origin)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    /* "-": no file, the command line gives the whole experiment. */
    bool no_file = strcmp(e->origin, "-") == 0;
    where(at, sizeof at, no_file ? "command line" : e->origin, 0);
    if (!e->rs)
        return cs_error_set_at(err, CS_EINPUT, at, "no ruleset: %s",
                               no_file ? "give --set experiment.ruleset=NAME"
                                       : "add `ruleset = NAME` under [experiment]");
    if (!e->name && no_file) {
        /* Tables and pictures are titled by the name: the ruleset's, not "-". */
        if (!(e->name = strdup(e->rs->name)))
            return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    if (!e->name) {
        const char *base = strrchr(e->origin, '/');
        base = base ? base + 1 : e->origin;
        if (!(e->name = strdup(base)))
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        char *dot = strrchr(e->name, '.');
        if (dot)
            *dot = '\0';
    }
    cs_status st;
    for (int i = 0; i < e->rs->n_params; i++) {
        if (e->param[i].raw)
            continue;
        /* Defaults are declared like user input, so one parser checks both. */
        if ((st = set_param(e, i, e->rs->params[i].def, "default", 0, err)) != CS_OK)
            return st;
        e->param[i].order = 1 << 30; /* never swept, but keep a stable order */
    }
    /* Sweep order: the order keys first appeared. */
    e->n_sweep = 0;
    e->n_drawn = 0;
    e->n_points = 1;
    for (int pass = 0; pass < e->next_order; pass++)
        for (int i = 0; i < e->rs->n_params; i++)
            if (e->param[i].order == pass && e->param[i].kind == CS_VAL_SWEEP) {
                e->sweep[e->n_sweep++] = i;
                if (e->n_points > UINT64_MAX / (uint64_t)e->param[i].n)
                    return cs_error_set_at(err, CS_ELIMIT, at, "too many sweep points");
                e->n_points *= (uint64_t)e->param[i].n;
            }
    for (int i = 0; i < e->rs->n_params; i++)
        if (e->param[i].kind == CS_VAL_UNIFORM || e->param[i].kind == CS_VAL_NORMAL)
            e->n_drawn++;
    if (e->n_points > 1000000)
        return cs_error_set_at(err, CS_ELIMIT, at, "%llu sweep points; at most 1000000",
                               (unsigned long long)e->n_points);
    if ((st = check_labels(e, err)) != CS_OK)
        return st;

    /* Every point is prepared once here, so an impossible combination is
     * reported before a run starts, with the key's file and line. */
    void *ctx = calloc(1, e->rs->ctx_size ? e->rs->ctx_size : 1);
    if (!ctx)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    e->layout_random = e->n_drawn > 0;
    for (uint64_t k = 0; k < e->n_points; k++) {
        cs_params p;
        cs_experiment_point(e, k, &p);
        if ((st = cs_experiment_prepare(e, k, &p, ctx, err)) != CS_OK) {
            free(ctx);
            return st;
        }
        if (e->rs->layout_is_random && e->rs->layout_is_random(ctx))
            e->layout_random = true;
    }
    free(ctx);
    if ((st = cs_experiment_method_check(e, e->method, err)) != CS_OK)
        return st;
    e->finished = true;
    return CS_OK;
}
